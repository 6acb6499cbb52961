#pragma once
// The shape of every mark, as plain geometry: the timeline, the panels, the
// legend, the event table and the SVG export all draw marks from these
// glyphs, so a mark looks the same everywhere and a test can check that no
// two outcomes share a shape (shape and colour, never colour alone).
#include <cstdint>
#include <vector>

#include "lanes.hpp"

namespace leasescope::gui {

struct GlyphPoint {
    float x = 0, y = 0;  // in units of the mark's radius; y grows downwards
    bool operator==(const GlyphPoint&) const = default;
};

// Which colour a part is drawn in: the mark's own colour (palette), white, or
// the dark text colour.
enum class Ink : std::uint8_t { mark, white, dark };

struct GlyphPart {
    enum class Type : std::uint8_t {
        polygon,   // filled, convex
        polyline,  // stroked, open
        outline,   // stroked, closed
        circle,    // filled disc: points[0] is the centre, radius in `size`
        ring,      // stroked circle: points[0] is the centre, radius in `size`
    };
    Type type = Type::polygon;
    Ink ink = Ink::mark;
    float size = 0;       // circle radius, in units of the mark's radius
    float stroke = 0.2f;  // stroke width, in units of the mark's radius
    std::vector<GlyphPoint> points;
    bool operator==(const GlyphPart&) const = default;
};

struct Glyph {
    std::vector<GlyphPart> parts;
    float extent = 1.0f;  // half the width/height it covers, in units of the radius
    bool operator==(const Glyph&) const = default;
};

// The glyph of a mark kind (drawn back to front).
const Glyph& mark_glyph(MarkerKind kind);

// The marks of the legend in the order a reader meets them, each once.
const std::vector<MarkerKind>& legend_marks();
// Whether the legend lists this kind (overlap begin/end are the overlap band,
// not marks).
bool has_legend_entry(MarkerKind kind);

}  // namespace leasescope::gui

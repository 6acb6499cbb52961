#pragma once
// The timeline as an SVG picture for slides: the same lanes, colours and
// folding as the screen, over a chosen tick range, with a legend.
#include <string>

#include "cull.hpp"
#include "lanes.hpp"
#include "palette.hpp"
#include "strings.hpp"

namespace leasescope::gui {

// Text made safe inside an SVG element or attribute (& < > ").
std::string svg_escape(const std::string& text);

struct SvgOptions {
    Tick first = 0;
    Tick last = 0;       // inclusive
    Tick playhead = -1;  // -1: none
    float width_px = 1400;
    std::string title;
    Tick mark_tick = -1;    // -1: none; else a dashed line through the lanes at this tick
    std::string mark_text;  // its label above the ruler (side by side: the first divergence)
};

std::string timeline_svg(const LaneModel& model, const Palette& palette, const Strings& strings,
                         const SvgOptions& options);

}  // namespace leasescope::gui

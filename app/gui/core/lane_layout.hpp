#pragma once
// Where every mark and every word of the timeline goes, before anything is
// drawn: marks on one tick stack side by side or on top of each other so each
// stays visible; words (span labels, "paused", "highest accepted #34",
// fencing numbers, the failover label) are placed only where they overlap no
// mark and no other word, shortened or left out when there is no room. The
// ruler's tick numbers give way to the playhead's badge. No ImGui here: the
// screen and the SVG export draw the same layout, and a test checks every
// preset for collisions.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "cull.hpp"
#include "lanes.hpp"
#include "strings.hpp"

namespace leasescope::gui {

struct Box {
    float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    float w() const { return x1 - x0; }
    float h() const { return y1 - y0; }
    bool intersects(const Box& o) const { return x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1; }
    bool contains(const Box& o) const { return o.x0 >= x0 && o.x1 <= x1 && o.y0 >= y0 && o.y1 <= y1; }
};

// How wide a text is, in the two fonts the timeline uses.
struct TextMetrics {
    std::function<float(std::string_view)> body_width;
    std::function<float(std::string_view)> small_width;
    float body_h = 17.0f;
    float small_h = 13.0f;
};
// A stand-in when no font is at hand (the SVG export, the tests): a Latin
// letter is 0.6 em wide, a Korean syllable 1 em.
TextMetrics estimated_metrics(float body_px, float small_px);
float estimated_width(std::string_view text, float px);

struct LayoutFrame {
    TimeAxis axis;
    float plot_x = 0, plot_w = 0;
    float lanes_top = 0;  // screen y of lane 0 (scrolling applied)
    float lane_h = 40;
    int first_lane = 0, last_lane = -1;  // the lanes to lay out, inclusive
    // The resource lane shows only what the resource panel counts: writes up
    // to this tick (tick_none: all of them).
    Tick resource_until = tick_none;
    float scale = 1.0f;  // the UI scale (projector mode): marks grow with it
    // Compact Redlock lanes (timeline_frame.hpp, compact_lanes): the words
    // inside spans are in the small font, and with clocks_in_lanes each store
    // lane says its clock's offset at the plot's right edge, at the lane's right.
    bool compact = false;
    bool clocks_in_lanes = false;
};

enum class LabelKind : std::uint8_t {
    span,      // inside a span: "#2", "STALE #1", "#1  node-a  TTL 6", "hold-off"
    overlay,   // a tag inside a paused / partitioned box
    fence,     // "highest accepted #34" on the resource lane
    fencing,   // "#33" beside a write or a rejected release
    failover,  // "failover: leases lost" on a slot lane
    quorum,    // "3 of 5, validity 9898 ms" beside a Redlock client's count (model.md §20.4.5)
    clock,     // "clock 10000 ms ahead" at a compact store lane's right (model.md §15)
};

struct PlacedMark {
    std::int32_t lane = 0;
    std::int32_t marker = -1;  // index into the lane's markers (the one shown)
    MarkerKind kind = MarkerKind::start;
    float x = 0, y = 0, r = 0;
    std::int32_t folded = 1;  // > 1: marks of several ticks fold here (zoomed far out)
    Box box;
};

struct PlacedLabel {
    std::int32_t lane = 0;
    LabelKind kind = LabelKind::span;
    SpanKind span = SpanKind::idle;       // span / overlay / fence: the span's kind
    MarkerKind mark = MarkerKind::start;  // fencing / failover: the mark's kind
    std::string text;
    Box box;                       // the whole label, its background included
    float text_x = 0, text_y = 0;  // where the text starts
    bool small = false;
};

// Below this zoom the timeline is an overview: marks are thin bars and carry no words.
constexpr double overview_px_per_tick = 2.0;

struct LaneLayout {
    bool overview = false;  // zoomed far out (overview_px_per_tick)
    std::vector<PlacedMark> marks;
    std::vector<PlacedLabel> labels;
};

// Lays out the lanes first_lane … last_lane of `model` in `frame`.
void layout_lanes(const LaneModel& model, const LayoutFrame& frame, const Strings& strings, const TextMetrics& metrics,
                  LaneLayout& out);

// The mark radius for this zoom, lane height and UI scale (also the legend's size).
float mark_radius(double px_per_tick, float lane_h, float scale = 1.0f);

// The ruler: tick numbers every `step` ticks (a ruler_step), each with its
// time, none under the playhead badge.
struct RulerLabel {
    Tick tick = 0;
    std::string text;
    Box box;
};
struct RulerLayout {
    std::vector<RulerLabel> labels;
    Box badge;  // the playhead's number (empty when the playhead is off screen)
    std::string badge_text;
    Tick step = 1;  // between two labels' ticks (the gridlines divide it, ruler_grid_step)
    float playhead_x = 0;
    bool playhead_visible = false;
};
// Each number and the badge say the tick's time too (tick_clock.hpp): the time
// since tick 0, "40 · 0:02.000", or a recorded history's wall clock (model.md
// §19.9), "40 · 09:30:04.000". The step keeps the widest label clear of the next.
RulerLayout layout_ruler(const TimeAxis& axis, float plot_x, float plot_w, float top, float height, Tick playhead,
                         const TextMetrics& metrics, const TickClock& clock);

}  // namespace leasescope::gui

#pragma once
// The timeline as one frame of draw data, before anything is drawn: from a
// run's lanes and a view of it (the tick range on screen, the lane height
// and scrolling, the UI scale, the language, the playhead), the lanes on
// screen with their translated titles, the spans and overlays culled to the
// plot, the overlap band, the marks and words laid out (lane_layout.hpp), the
// ruler's numbers and the hit boxes a mouse finds. No ImGui here: the main
// view, the compare view and the SVG export draw the same frame, and the
// tests check it in both languages.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "cull.hpp"
#include "lane_layout.hpp"
#include "lanes.hpp"
#include "strings.hpp"

namespace leasescope::gui {

// Where the timeline goes and what of the run it shows.
struct TimelineViewport {
    float x = 0, y = 0;  // top left of the whole timeline (ruler included)
    float width = 800, height = 400;
    float label_w = 120;  // the lane titles' column
    float ruler_h = 24;
    float lane_h_min = 20, lane_h_max = 50;  // lanes share the height between these
    float scroll_y = 0;                      // lanes scrolled out of view at the top, in px
    double first_tick = 0;                   // the tick at the plot's left edge
    double px_per_tick = 20;
    Tick playhead = tick_none;        // its badge on the ruler (tick_none: none)
    Tick resource_until = tick_none;  // the resource lane ends after this tick (tick_none: never)
    float scale = 1.0f;               // the UI scale: marks grow with it
    float state_square_w = 11;        // room left before a candidate's title (its state square)
    // When the lanes do not all fit: the height of the strip under them that
    // says how many more there are, and the width of the scrollbar beside
    // them (0: the view shows neither).
    float hint_h = 0, scrollbar_w = 0;
    float title_h = 12;  // a lane never gets lower than its title
    // A compact Redlock lane (compact_lanes) may get as low as its title's
    // text alone (the body font's height); 0: title_h.
    float compact_lane_h = 0;
};

struct FrameLane {
    std::int32_t lane = 0;        // index into the model's lanes
    std::string title;            // translated ("slot 0" / "슬롯 0"), shortened with "…" to fit its column
    Box box;                      // the whole row, title column included
    Box title_box;                // where the title's text goes
    bool store_part = false;      // a lane of the store's side (slot, hold-off, resource, ops)
    bool first_of_store = false;  // a separator above it
};

struct FrameSpan {
    std::int32_t lane = 0;
    bool overlay = false;  // paused / partitioned, over the main span
    DrawSpan draw;         // clamped to the plot (and the resource's end)
    Box box;               // where it is drawn and hit
};

// A clock lane (under the others, only for a clock that is not true time):
// its offset from true time over the ticks in view, a step at a jump and a
// slope with drift (model.md §3.3).
struct FrameClockLane {
    std::int32_t clock = 0;  // index into the model's clocks
    std::string title;       // "Redis's clock" / "node-a의 시계", fitted to the titles' column
    std::string axis;        // the largest offset: "300 ms ahead" / "300 ms 빠름"
    Box box, title_box, axis_box;
    float zero_y = 0;                           // true time
    std::vector<std::pair<float, float>> line;  // the offset, as a polyline in screen points
};

// The message view (under the clock lanes, only when the run has time on
// the wire, message_lanes.hpp): a thin lane per node that sends, one for
// Redis and one for the resource, and an arrow per message from the middle
// of its send tick to the middle of its arrival tick (model.md §16.6).
struct FrameMessageLane {
    std::string title;  // the node's name, "Redis", "resource" / "자원", fitted to the titles' column
    Box box, title_box;
    float mid_y = 0;  // where arrows leave and arrive
};
struct FrameArrow {
    std::int32_t message = 0;              // index into the model's messages
    float x0 = 0, y0 = 0, x1 = 0, y1 = 0;  // the send to the arrival (a lost one: to its cross, half-way), in the plot
    bool head = true;                      // the arrival is in view: the arrowhead (or the cross) is drawn there
    bool late = false, lost = false;
    Box hit;  // the segment's box, a few points wider (hit_test also measures the distance to it)
};

struct TimelineFrame {
    float left = 0, top = 0;  // the whole timeline's top left (titles' column, ruler)
    float plot_x = 0, plot_w = 0;
    float lanes_y = 0, lanes_h = 0;  // the lanes' window under the ruler
    float lane_h = 0, content_h = 0, scroll_y = 0;
    TimeAxis axis;
    std::int32_t first_lane = 0, last_lane = -1;
    std::int32_t hidden_above = 0, hidden_below = 0;  // lanes scrolled out of view
    std::vector<FrameLane> lanes;
    std::vector<FrameSpan> spans;   // main spans, then overlays, lane by lane
    std::vector<DrawSpan> overlap;  // the overlap band, behind the candidate lanes
    Box overlap_band;               // its rows (y0 … y1)
    LaneLayout layout;              // marks and words
    RulerLayout ruler;              // the tick numbers and the playhead's badge
    // Lanes out of view: the hint's words and strip, the scrollbar and its thumb (empty boxes: all in view).
    std::string hint;
    Box hint_box, hint_text, scrollbar, thumb;
    std::vector<FrameClockLane> clocks;           // under the lanes (and the hint); empty when every clock is true time
    std::vector<FrameMessageLane> message_lanes;  // under the clock lanes; empty without time on the wire
    std::vector<FrameArrow> arrows;
    Box messages_box;  // the message view's rows (empty: none)
    // Redisson's unlock messages (model.md §21.5.2) on the lanes themselves: from the unlocker's
    // mark down (or up) to the waiter's, at their tick, a lost one ending in a cross (`message` -1).
    std::vector<FrameArrow> lane_arrows;
};

// The height the message view wants under the lanes and clocks, and the
// height it gets: 0 without time on the wire, or when the lanes would not
// all keep their lowest height beside it and it would take more than 45 %
// of the timeline's height under the ruler (the lanes keep priority).
float message_strip_want_h(const LaneModel& model, const TimelineViewport& view);
float message_strip_h(const LaneModel& model, const TimelineViewport& view);
// The lowest point of the frame: its lanes (and hint), clock lanes and message view.
float frame_bottom(const TimelineFrame& frame);

// The height the clock lanes take under the lanes (0 without a clock that is not true time,
// and 0 when the store clocks are shown inside the store lanes, compact_lanes).
float clock_strip_h(const LaneModel& model, const TimelineViewport& view);

// A Redlock run whose lanes would not all fit at lane_h_min (with its clock
// lanes under them) is drawn compact (model.md §15): its lanes may get as low
// as a title's text (compact_lane_h), their words are in the small font, and when every clock that is not true time is a
// store's, that clock is told inside the store's own lane (its jump mark is
// there already, its offset at the lane's right) instead of a lane of its own.
bool compact_lanes(const LaneModel& model, const TimelineViewport& view);
bool clocks_in_store_lanes(const LaneModel& model, const TimelineViewport& view);

// The title of a lane in the strings' language; a server's lane names its
// role at tick `at` ("Redis 0 · primary", "replica 1", model.md §17).
std::string lane_title(const Lane& lane, const Strings& strings, Tick at = tick_none);
// The title of a clock lane ("Redis's clock", "node-a의 시계").
std::string clock_title(const ClockTrack& clock, const Strings& strings);
// The titles of the message view's lanes: its nodes, then Redis and the resource.
std::vector<std::string> message_titles(const MessageTrack& messages, const Strings& strings);

// The axis a run opens with: the whole run, unless that is a Redlock run's overview
// (marks without words); then zoomed to story_px_per_tick, where words show,
// from a little before its story's first moment (the first overlap or alarm
// mark, else tick 0), the run's end in view when it fits; a playhead set
// away from tick 0 (--tick, a kept playhead) stays in view.
constexpr double story_px_per_tick = 3.0;
TimeAxis opening_axis(const LaneModel& model, Tick playhead, float left_px, float width_px);

// Only the geometry: the plot, the lane height, the scrolling (clamped) and
// the lanes in view (what the view's mouse handling needs before drawing).
TimelineFrame timeline_rows(const LaneModel& model, const TimelineViewport& view);
// The whole frame.
TimelineFrame build_timeline_frame(const LaneModel& model, const TimelineViewport& view, const Strings& strings,
                                   const TextMetrics& metrics);

// What is under a point: a mark (index into frame.layout.marks), else a span
// (index into frame.spans, a main span before an overlay), on a lane (index into the model's lanes).
struct FrameHit {
    std::int32_t lane = -1;
    std::int32_t mark = -1;
    std::int32_t span = -1;
    std::int32_t arrow = -1;  // index into frame.arrows (lane, mark and span stay -1)
};
FrameHit hit_test(const TimelineFrame& frame, float x, float y);
// The trace event a hit stands for: a mark's event, or the event a message
// arrow was read from (the call's or the write's); -1 for a span or nothing.
// A click on it selects that event (the playhead goes to its tick).
std::int32_t event_at(const LaneModel& model, const TimelineFrame& frame, const FrameHit& hit);

// A dashed line at `x` from y0 to y1 (dashes `dash` long, `gap` apart) that
// gives way to the frame's marks and words: the pieces to draw, none over
// a mark or a word (the compare view's first divergence).
std::vector<std::pair<float, float>> dashes_clear_of_frame(const TimelineFrame& frame, float x, float y0, float y1,
                                                           float dash, float gap);

}  // namespace leasescope::gui

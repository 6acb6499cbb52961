#pragma once
// The timeline's drawing pieces, used by view_timeline.cpp: its legend, the
// tick ruler and the playhead, one span, one laid-out word, the text metrics
// for the lane layout and the words of a span's tooltip.
#include <cstdint>
#include <string>
#include <vector>

#include "../core/cull.hpp"
#include "../core/lane_layout.hpp"
#include "../core/timeline_frame.hpp"
#include "view.hpp"

namespace leasescope::gui {

// The legend above the lanes: each span and mark this timeline shows, once.
class TimelineLegend {
public:
    // The legend over the lanes; on a short panel (a small window or a large
    // UI scale), or when the lanes would not get `lanes_need_h` under it, one
    // line whose tooltip holds it, so the lanes keep their room (nothing when
    // the panel is shorter than half of what the lanes need).
    void draw(const FrameContext& ctx, float lanes_need_h);

private:
    void draw_entries(const FrameContext& ctx);
    // What this timeline shows, so the legend lists each of its marks once.
    void refresh_present(const FrameContext& ctx);
    std::vector<bool> present_spans_, present_marks_;
    std::uint64_t present_generation_ = 0;
    Tick present_until_ = tick_none;  // while a prediction hides the future: the last tick counted
    float full_h_ = 0;                // the whole legend's height when last drawn
    bool present_valid_ = false;
};

// The tick ruler and its gridlines through the lanes, a line under every
// number of the frame's ruler (its numbers come with the playhead).
void draw_ruler(const FrameContext& ctx, ImDrawList* dl, const TimelineFrame& frame, ImVec2 origin, float ruler_h);
// The ruler's numbers, then the playhead's cell, line and badge.
void draw_playhead(const FrameContext& ctx, ImDrawList* dl, const TimelineFrame& frame, float top, float bottom,
                   float ruler_h);
void draw_span(const FrameContext& ctx, ImDrawList* dl, const DrawSpan& d, float y0, float y1);
// One laid-out word: span words straight on their span, tags on a pill.
void draw_label(const FrameContext& ctx, ImDrawList* dl, const PlacedLabel& pl);
// The one painter of a timeline frame (core/timeline_frame.hpp), for the main
// view and both runs of the compare view: the overlap band, the lanes'
// stripes and titles, spans, overlays, marks and words. What changes with
// the playhead (the resource lane, the candidates' state squares from `snap`
// when given) goes to `live`, the rest to `still` (the main view caches it).
struct FramePaint {
    const LaneModel& model;
    const TimelineFrame& frame;
    const sim::Snapshot* snap = nullptr;
};
void paint_frame(const FrameContext& ctx, const FramePaint& paint, ImDrawList* still, ImDrawList* live);
// Tells the layout probe (--layout-report) every lane title, mark, word and
// tick number of the frame with its rectangle, and how many lanes show in
// the window, and whether its hint and scrollbar say that more lanes scroll.
void probe_frame(const LaneModel& model, const TimelineFrame& frame);
// Redisson's unlock messages between the lanes (TimelineFrame::lane_arrows);
// paint_frame draws them, and the timeline again over its playhead, so that
// the message of the playhead's own tick is not hidden under it.
void paint_lane_arrows(const FrameContext& ctx, const TimelineFrame& frame, ImDrawList* dl);
// The tooltip of what `hit` found in the frame (empty: nothing).
std::string hit_words(const FrameContext& ctx, const FramePaint& paint, const sim::Trace& trace, const FrameHit& hit);
// Text widths in the body and small fonts, for the lane layout.
TextMetrics metrics(const FrameContext& ctx);
// The tooltip of a span (or of several folded into one).
std::string span_words(const FrameContext& ctx, const Span& sp, const Lane& lane, const DrawSpan& d);

}  // namespace leasescope::gui

#pragma once
// Culling and folding of a lane's spans and markers for one frame: only what
// falls in the visible tick range is produced, and items narrower than a few
// pixels are folded together so a 100,000-event timeline stays cheap to draw.
#include <cstdint>
#include <vector>

#include "lanes.hpp"

namespace leasescope::gui {

// The mapping from ticks to horizontal pixels. Tick t's cell spans
// [x_of(t), x_of(t + 1)).
struct TimeAxis {
    double first_tick = 0.0;  // tick shown at the left edge (fractional when panned)
    double px_per_tick = 20.0;
    float left_px = 0.0f;  // screen x of the left edge
    float width_px = 800.0f;

    double x_of(double tick) const { return left_px + (tick - first_tick) * px_per_tick; }
    double tick_at(double x) const { return first_tick + (x - left_px) / px_per_tick; }
    double last_tick() const { return first_tick + width_px / px_per_tick; }
};

// Shows [t0, t1) across `width_px`, with a little margin on both sides.
TimeAxis fit_axis(Tick t0, Tick t1, float left_px, float width_px);
// Zooms by `factor` keeping the tick under screen x `anchor_x` in place.
TimeAxis zoom_axis(const TimeAxis& axis, double factor, float anchor_x, double min_px_per_tick = 0.0005,
                   double max_px_per_tick = 400.0);

struct DrawSpan {
    float x0 = 0, x1 = 0;
    SpanKind kind = SpanKind::idle;
    std::int32_t span = -1;   // index of the first span in the lane's vector
    std::int32_t folded = 1;  // how many spans this item stands for
};

struct DrawMarker {
    float x = 0;
    MarkerKind kind = MarkerKind::start;
    std::int32_t marker = -1;  // index of the most important marker folded here
    std::int32_t folded = 1;
};

// Which kind wins when items fold together: the one a teacher must not hide
// (stale first, then crashed, running, waiting, …).
int span_priority(SpanKind kind);
int marker_priority(MarkerKind kind);

// Appends to `out` the spans that intersect the visible range, folding runs
// of spans narrower than `min_px` into one item of at least `min_px`.
void cull_spans(const std::vector<Span>& spans, const TimeAxis& axis, float min_px, std::vector<DrawSpan>& out);
// Appends the visible markers; markers closer than `min_px` to the previous
// drawn one fold into it.
void cull_markers(const std::vector<Marker>& markers, const TimeAxis& axis, float min_px, std::vector<DrawMarker>& out);

// A "nice" ruler step in ticks (1, 2, 5, 10, …) so labels stay `min_px` apart.
Tick ruler_step(double px_per_tick, float min_px);
// The gridlines' step under labels `label_step` apart (a ruler_step): a fifth
// or a half of it when those stay `min_px` apart, so that every label has its
// line; else the label step itself.
Tick ruler_grid_step(Tick label_step, double px_per_tick, float min_px);

}  // namespace leasescope::gui

// Culling and folding of a lane's spans and markers to the visible tick range (cull.hpp).
#include "cull.hpp"

#include <algorithm>
#include <cmath>

namespace leasescope::gui {

TimeAxis fit_axis(Tick t0, Tick t1, float left_px, float width_px) {
    TimeAxis axis;
    const double span = std::max<double>(1.0, static_cast<double>(t1 - t0));
    const double margin = std::max(0.5, span * 0.02);
    axis.first_tick = static_cast<double>(t0) - margin;
    axis.left_px = left_px;
    axis.width_px = std::max(1.0f, width_px);
    axis.px_per_tick = axis.width_px / (span + 2 * margin);
    return axis;
}

TimeAxis zoom_axis(const TimeAxis& axis, double factor, float anchor_x, double min_px_per_tick,
                   double max_px_per_tick) {
    TimeAxis out = axis;
    const double anchor_tick = axis.tick_at(anchor_x);
    out.px_per_tick = std::clamp(axis.px_per_tick * factor, min_px_per_tick, max_px_per_tick);
    out.first_tick = anchor_tick - (anchor_x - axis.left_px) / out.px_per_tick;
    return out;
}

int span_priority(SpanKind kind) {
    switch (kind) {
        case SpanKind::stale: return 100;
        case SpanKind::crashed: return 90;
        case SpanKind::overlap: return 85;
        case SpanKind::running: return 80;
        case SpanKind::record: return 75;
        case SpanKind::waiting: return 60;
        case SpanKind::holdoff: return 55;
        case SpanKind::paused: return 50;
        case SpanKind::partition_requests:
        case SpanKind::partition_replies: return 45;
        case SpanKind::fence: return 40;
        default: return 0;
    }
}

int marker_priority(MarkerKind kind) {
    switch (kind) {
        case MarkerKind::write_unsafe:
        case MarkerKind::write_lost_update: return 100;
        case MarkerKind::acquire_duplicate:
        case MarkerKind::acquire_regressed: return 98;
        case MarkerKind::write_holder_rejected: return 96;
        case MarkerKind::release_rejected: return 95;
        case MarkerKind::write_stale: return 93;
        case MarkerKind::write_rejected_fence:
        case MarkerKind::write_rejected_token:
        case MarkerKind::write_rejected_recorded: return 90;
        case MarkerKind::crash: return 85;
        case MarkerKind::failover_all: return 84;
        case MarkerKind::failover_leases:
        case MarkerKind::promote: return 83;
        case MarkerKind::refused:
        case MarkerKind::wait_not_synced: return 78;
        case MarkerKind::undecided: return 74;  // a gap in what the capture can tell
        case MarkerKind::believe_leader:
        case MarkerKind::believe_follower: return 68;
        case MarkerKind::link_cut: return 46;
        case MarkerKind::link_restored: return 41;
        case MarkerKind::wait_synced: return 52;
        case MarkerKind::clock_jump: return 82;  // the store's may end leases at once
        case MarkerKind::expire: return 80;
        case MarkerKind::extend_lost: return 75;
        case MarkerKind::acquire_error:
        case MarkerKind::release_error:
        case MarkerKind::extend_error: return 72;
        case MarkerKind::acquire: return 70;
        case MarkerKind::skip: return 65;
        case MarkerKind::write_current: return 60;
        case MarkerKind::release: return 55;
        case MarkerKind::release_left_alone:
        case MarkerKind::release_no_key: return 35;  // tells only that nothing changed on this store
        case MarkerKind::extend: return 50;
        case MarkerKind::pause:
        case MarkerKind::partition: return 45;
        case MarkerKind::resume:
        case MarkerKind::heal: return 40;
        case MarkerKind::op_read: return 30;
        case MarkerKind::unlock_message_lost: return 73;  // why a free lock is not taken (model.md §21.5.3)
        case MarkerKind::unlock_message: return 48;
        case MarkerKind::start: return 20;
        case MarkerKind::acquire_busy: return 22;  // tells more than the run's start at the same tick
        default: return 0;
    }
}

void cull_spans(const std::vector<Span>& spans, const TimeAxis& axis, float min_px, std::vector<DrawSpan>& out) {
    const double t0 = axis.first_tick;
    const double t1 = axis.last_tick();
    // Spans are sorted and disjoint, so their ends are sorted too.
    auto it = std::upper_bound(spans.begin(), spans.end(), t0,
                               [](double t, const Span& s) { return t < static_cast<double>(s.end); });
    bool folding = false;
    DrawSpan acc;
    for (; it != spans.end() && static_cast<double>(it->begin) < t1; ++it) {
        const auto x0 = static_cast<float>(axis.x_of(static_cast<double>(it->begin)));
        const auto x1 = static_cast<float>(axis.x_of(static_cast<double>(it->end)));
        const auto index = static_cast<std::int32_t>(it - spans.begin());
        if (x1 - x0 >= min_px) {
            if (folding) {
                out.push_back(acc);
                folding = false;
            }
            out.push_back(DrawSpan{x0, x1, it->kind, index, 1});
            continue;
        }
        // A narrow span: it joins the open fold when close enough, else starts one.
        if (folding && x0 - acc.x1 <= min_px) {
            acc.x1 = std::max(acc.x1, x1);
            ++acc.folded;
            if (span_priority(it->kind) > span_priority(acc.kind)) {
                acc.kind = it->kind;
                acc.span = index;
            }
        } else {
            if (folding) out.push_back(acc);
            acc = DrawSpan{x0, x1, it->kind, index, 1};
            folding = true;
        }
        if (acc.x1 - acc.x0 >= min_px) {
            out.push_back(acc);
            folding = false;
        }
    }
    if (folding) {
        acc.x1 = std::max(acc.x1, acc.x0 + min_px);
        out.push_back(acc);
    }
}

void cull_markers(const std::vector<Marker>& markers, const TimeAxis& axis, float min_px,
                  std::vector<DrawMarker>& out) {
    const double t0 = std::floor(axis.first_tick) - 1;
    const double t1 = axis.last_tick() + 1;
    auto it = std::lower_bound(markers.begin(), markers.end(), t0,
                               [](const Marker& m, double t) { return static_cast<double>(m.tick) < t; });
    const std::size_t first_out = out.size();
    for (; it != markers.end() && static_cast<double>(it->tick) <= t1; ++it) {
        // Markers sit in the middle of their tick's cell.
        const auto x = static_cast<float>(axis.x_of(static_cast<double>(it->tick) + 0.5));
        const auto index = static_cast<std::int32_t>(it - markers.begin());
        if (out.size() > first_out && x - out.back().x < min_px) {
            DrawMarker& last = out.back();
            ++last.folded;
            if (marker_priority(it->kind) > marker_priority(last.kind)) {
                last.kind = it->kind;
                last.marker = index;
            }
            continue;
        }
        out.push_back(DrawMarker{x, it->kind, index, 1});
    }
}

Tick ruler_step(double px_per_tick, float min_px) {
    Tick step = 1;
    while (static_cast<double>(step) * px_per_tick < min_px) {
        const Tick mant = step;
        // 1, 2, 5, 10, 20, 50, …
        Tick p = 1;
        while (p * 10 <= mant) p *= 10;
        const Tick lead = mant / p;
        step = lead == 1 ? 2 * p : lead == 2 ? 5 * p : 10 * p;
        if (step > (Tick{1} << 60)) break;
    }
    return step;
}

Tick ruler_grid_step(Tick label_step, double px_per_tick, float min_px) {
    for (const Tick parts : {Tick{5}, Tick{2}})
        if (label_step % parts == 0 && static_cast<double>(label_step / parts) * px_per_tick >= min_px)
            return label_step / parts;
    return label_step;
}

}  // namespace leasescope::gui

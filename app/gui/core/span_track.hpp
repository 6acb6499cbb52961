#pragma once
// The parts of lanes read from a trace alone (redlock_lanes.cpp,
// redisson_lanes.cpp): an open span per tracked quantity (a client's state, a
// key, a pause), closed when its value changes; the lanes; the model.
#include <algorithm>
#include <string>
#include <vector>

#include "lanes.hpp"

namespace leasescope::gui::span_track {

struct Open {
    bool open = false;
    Span span;
};

inline Span span_of(SpanKind kind, Tick begin = 0) {
    Span s;
    s.kind = kind;
    s.begin = s.end = begin;
    return s;
}

inline void close_at(Open& o, Tick t, std::vector<Span>& out) {
    if (!o.open) return;
    o.span.end = t;
    if (o.span.end > o.span.begin) out.push_back(o.span);
    o.open = false;
}

// From tick t on, `want` while `on` (the open span goes on while its kind, owner and run stay).
inline void track(Open& o, bool on, const Span& want, Tick t, std::vector<Span>& out) {
    const bool same = o.open && o.span.kind == want.kind && o.span.owner == want.owner && o.span.run == want.run;
    if (same && on) return;
    close_at(o, t, out);
    if (!on) return;
    o.open = true;
    o.span = want;
    o.span.begin = t;
}

inline Lane make_lane(LaneKind kind, const std::string& label, std::int32_t index) {
    Lane lane;
    lane.kind = kind;
    lane.label = label;
    lane.index = index;
    return lane;
}

// The index of candidate `name` in the trace's header, or -1.
inline std::int32_t candidate_index(const sim::TraceHeader& header, const std::string& name) {
    const auto& c = header.candidates;
    const auto it = std::find(c.begin(), c.end(), name);
    return it == c.end() ? -1 : static_cast<std::int32_t>(it - c.begin());
}

// One past the last tick the lanes of `trace` cover: its end, or its last event's tick.
inline Tick trace_end(const sim::Trace& trace) {
    return std::max(trace.summary.end_tick, trace.events.empty() ? Tick{0} : trace.events.back().tick) + 1;
}

// The model of lanes read from `trace`, ending at tick `end` − 1: every write
// accepted (the resource checks nothing, rules 20.6 and 21.6), the clock
// lanes when the scenario is known.
inline LaneModel trace_lane_model(const sim::Trace& trace, const sim::Scenario* scenario, std::vector<Lane> lanes,
                                  std::vector<Span> overlap, Tick end, std::int32_t candidates) {
    LaneModel model;
    model.resource = sim::ResourceMode::off;
    model.end_tick = end - 1;
    model.event_count = trace.events.size();
    model.candidate_lanes = candidates;
    model.clock = tick_clock_of(trace);
    if (scenario != nullptr) model.clocks = clock_tracks(*scenario, model.end_tick);
    model.overlap = std::move(overlap);
    model.lanes = std::move(lanes);
    return model;
}

}  // namespace leasescope::gui::span_track

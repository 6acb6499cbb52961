// Lanes built from a bare trace and the event where a counterexample's violation shows (trace_lanes.hpp).
#include "trace_lanes.hpp"

#include <algorithm>

namespace leasescope::gui {

LaneModel build_trace_lanes(const sim::Trace& trace, sim::ResourceMode mode) {
    LaneModel model;
    model.resource = mode;
    const auto& names = trace.header.candidates;
    for (std::size_t i = 0; i < names.size(); ++i) {
        Lane lane;
        lane.kind = LaneKind::candidate;
        lane.label = names[i];
        lane.index = static_cast<std::int32_t>(i);
        model.lanes.push_back(std::move(lane));
    }
    model.candidate_lanes = static_cast<std::int32_t>(names.size());
    Lane store;
    store.kind = LaneKind::ops;
    store.label = "";  // named by the table ("lane.ops"): events of no candidate
    Tick end = trace.summary.end_tick;
    for (std::size_t k = 0; k < trace.events.size(); ++k) {
        const sim::Event& e = trace.events[k];
        end = std::max(end, e.tick);
        Marker m;
        m.tick = e.tick;
        m.kind = marker_kind_of(e, mode);
        m.event = static_cast<std::int32_t>(k);
        m.fencing = e.fencing;
        const auto it = std::find(names.begin(), names.end(), e.node);
        if (it == names.end())
            store.markers.push_back(m);
        else
            model.lanes[static_cast<std::size_t>(it - names.begin())].markers.push_back(m);
    }
    model.lanes.push_back(std::move(store));
    model.end_tick = end;
    model.clock = tick_clock_of(trace);
    model.event_count = trace.events.size();
    if (trace_has_wire_time(trace)) model.messages = message_track(trace, {});  // no scenario: latencies unknown, 0
    return model;
}

LaneModel interleave_lanes(const LaneModel& sim_lanes, const LaneModel& live_lanes,
                           const std::function<std::string(const Lane&, bool)>& title) {
    LaneModel out;
    out.resource = sim_lanes.resource;
    out.end_tick = std::max(sim_lanes.end_tick, live_lanes.end_tick);
    out.event_count = sim_lanes.event_count;
    out.clock = sim_lanes.clock;
    for (std::size_t li = 0; li < sim_lanes.lanes.size(); ++li) {
        for (const bool live_side : {false, true}) {
            const bool has = !live_side || li < live_lanes.lanes.size();
            Lane lane = has ? (live_side ? live_lanes.lanes[li] : sim_lanes.lanes[li]) : Lane{};
            lane.label = title(sim_lanes.lanes[li], live_side);
            lane.kind = LaneKind::candidate;
            lane.index = static_cast<std::int32_t>(out.lanes.size());
            out.lanes.push_back(std::move(lane));
        }
    }
    out.candidate_lanes = static_cast<std::int32_t>(out.lanes.size());
    return out;
}

std::int64_t violation_event(const sim::Trace& trace, bool unsafe_write, bool fencing_regressed, bool overlap) {
    for (std::size_t k = 0; k < trace.events.size(); ++k) {
        const sim::Event& e = trace.events[k];
        if (unsafe_write && e.op == sim::EventOp::write && e.details.has(sim::Detail::unsafe_write))
            return static_cast<std::int64_t>(k);
        if (fencing_regressed && e.op == sim::EventOp::acquire && e.details.has(sim::Detail::fencing_regressed))
            return static_cast<std::int64_t>(k);
        if (overlap && e.op == sim::EventOp::overlap_begin) return static_cast<std::int64_t>(k);
    }
    return -1;
}

std::int64_t violation_event(const sim::Trace& trace, const sim::Properties& checked) {
    sim::Details marks;
    if (checked.unsafe_write) marks.add(sim::Detail::unsafe_write);
    if (checked.fencing_regressed) marks.add(sim::Detail::fencing_regressed);
    if (checked.stale_after_successor) marks.add(sim::Detail::stale_after_successor);
    if (checked.holder_rejected) marks.add(sim::Detail::holder_rejected);
    if (checked.fencing_duplicate) marks.add(sim::Detail::fencing_duplicate);
    for (std::size_t k = 0; k < trace.events.size(); ++k) {
        const sim::Event& e = trace.events[k];
        if ((e.details.bits() & marks.bits()) != 0) return static_cast<std::int64_t>(k);
        if (checked.overlap && e.op == sim::EventOp::overlap_begin) return static_cast<std::int64_t>(k);
    }
    return -1;
}

}  // namespace leasescope::gui

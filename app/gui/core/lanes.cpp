// The timeline's draw data, read from the one run: lanes, spans and one mark per event (lanes.hpp).
#include "lanes.hpp"

#include "redisson_lanes.hpp"
#include "redlock_lanes.hpp"
#include "leasescope/words/words.hpp"

#include <algorithm>
#include <map>
#include <string_view>
#include <utility>

namespace leasescope::gui {
namespace {

using lane_detail::OpenSpan;
using lane_detail::SlotTracker;

void close_span(OpenSpan& open, Tick t, std::vector<Span>& out) {
    if (!open.open) return;
    open.span.end = t;
    if (open.span.end > open.span.begin) out.push_back(open.span);
    open.open = false;
}

void open_span(OpenSpan& open, Tick t, Span span) {
    span.begin = t;
    open.span = std::move(span);
    open.open = true;
}

bool same_state(const Span& a, const Span& b) {
    return a.kind == b.kind && a.fencing == b.fencing && a.run == b.run && a.owner == b.owner;
}

// Keeps `open` going while the state stays the same, else starts a new span.
// `want` with `has` false means nothing to draw from tick t on.
void track(OpenSpan& open, Tick t, bool has, const Span& want, std::vector<Span>& out) {
    if (open.open && has && same_state(open.span, want)) {
        open.span.expires_at = want.expires_at;
        return;
    }
    close_span(open, t, out);
    if (has) open_span(open, t, want);
}

}  // namespace

SpanKind span_kind_of(sim::NodeStatus status) {
    switch (status) {
        case sim::NodeStatus::idle: return SpanKind::idle;
        case sim::NodeStatus::waiting: return SpanKind::waiting;
        case sim::NodeStatus::running: return SpanKind::running;
        case sim::NodeStatus::stale: return SpanKind::stale;
        case sim::NodeStatus::done: return SpanKind::done;
        case sim::NodeStatus::crashed: return SpanKind::crashed;
    }
    return SpanKind::idle;
}

MarkerKind marker_kind_of(const sim::Event& e, sim::ResourceMode mode) {
    using sim::EventOp;
    using sim::Outcome;
    switch (e.op) {
        case EventOp::pause: return MarkerKind::pause;
        case EventOp::resume: return MarkerKind::resume;
        case EventOp::crash: return MarkerKind::crash;
        case EventOp::partition: return MarkerKind::partition;
        case EventOp::heal: return MarkerKind::heal;
        case EventOp::failover:
            if (e.server) return MarkerKind::promote;  // a replica promoted (model.md §17.3)
            return e.details.has(sim::Detail::all) ? MarkerKind::failover_all : MarkerKind::failover_leases;
        case EventOp::link_cut: return MarkerKind::link_cut;
        case EventOp::link_restored: return MarkerKind::link_restored;
        case EventOp::wait: return e.outcome == Outcome::synced ? MarkerKind::wait_synced : MarkerKind::wait_not_synced;
        case EventOp::expire: return MarkerKind::expire;
        case EventOp::write:
            if (e.details.has(sim::Detail::holder_rejected)) return MarkerKind::write_holder_rejected;
            if (e.outcome == Outcome::rejected)
                return mode == sim::ResourceMode::validate ? MarkerKind::write_rejected_token
                                                           : MarkerKind::write_rejected_fence;
            if (e.details.has(sim::Detail::unsafe_write)) return MarkerKind::write_unsafe;
            if (e.details.has(sim::Detail::stale_after_successor)) return MarkerKind::write_lost_update;
            if (e.details.has(sim::Detail::stale)) return MarkerKind::write_stale;
            return MarkerKind::write_current;
        case EventOp::release:
            if (e.details.has(sim::Detail::no_replicas)) return MarkerKind::refused;
            if (e.outcome == Outcome::not_owner) return MarkerKind::release_rejected;
            if (e.outcome == Outcome::error) return MarkerKind::release_error;
            return MarkerKind::release;
        case EventOp::extend:
            if (e.details.has(sim::Detail::no_replicas)) return MarkerKind::refused;
            if (e.outcome == Outcome::renewed) return MarkerKind::extend;
            if (e.outcome == Outcome::error) return MarkerKind::extend_error;
            return MarkerKind::extend_lost;
        case EventOp::start: return MarkerKind::start;
        case EventOp::acquire:
            if (e.outcome == Outcome::acquired) {
                // A number issued twice says more than one gone backwards (§9.8).
                if (e.details.has(sim::Detail::fencing_duplicate)) return MarkerKind::acquire_duplicate;
                return e.details.has(sim::Detail::fencing_regressed) ? MarkerKind::acquire_regressed
                                                                     : MarkerKind::acquire;
            }
            if (e.details.has(sim::Detail::no_replicas)) return MarkerKind::refused;
            if (e.outcome == Outcome::error) return MarkerKind::acquire_error;
            return MarkerKind::acquire_busy;
        case EventOp::skip: return MarkerKind::skip;
        case EventOp::status:
        case EventOp::validate: return MarkerKind::op_read;
        case EventOp::overlap_begin: return MarkerKind::overlap_begin;
        case EventOp::overlap_end: return MarkerKind::overlap_end;
        case EventOp::clock_jump: return MarkerKind::clock_jump;
        case EventOp::believe:
            return e.outcome == Outcome::leader ? MarkerKind::believe_leader : MarkerKind::believe_follower;
        case EventOp::undecided: return MarkerKind::undecided;
        // A Redlock trace's (model.md §20.8): a store back up is drawn as a
        // node's resume, a count as the acquisition or release it decides.
        case EventOp::restart: return MarkerKind::resume;
        case EventOp::quorum:
            if (e.outcome == Outcome::acquired) return MarkerKind::acquire;
            if (e.outcome == Outcome::busy) return MarkerKind::acquire_busy;
            return e.outcome == Outcome::released ? MarkerKind::release : MarkerKind::release_error;
        // A Redisson trace's unlock message (model.md §21.5.2, 21.5.3): on the waiter's lane.
        case EventOp::message:
            return e.outcome == Outcome::delivered ? MarkerKind::unlock_message : MarkerKind::unlock_message_lost;
    }
    return MarkerKind::start;
}

MarkerKind marker_kind_of(const sim::Event& e) { return marker_kind_of(e, sim::ResourceMode::check); }

MarkerKind marker_kind_of(const sim::Event& e, sim::ResourceMode mode, bool recorded) {
    const MarkerKind k = marker_kind_of(e, mode);
    if (recorded && (k == MarkerKind::write_rejected_fence || k == MarkerKind::write_rejected_token))
        return MarkerKind::write_rejected_recorded;
    return k;
}

bool is_alarm(MarkerKind k) {
    switch (k) {
        case MarkerKind::acquire_error:
        case MarkerKind::acquire_regressed:
        case MarkerKind::acquire_duplicate:
        case MarkerKind::write_lost_update:
        case MarkerKind::write_holder_rejected:
        case MarkerKind::extend_lost:
        case MarkerKind::release_rejected:
        case MarkerKind::write_stale:
        case MarkerKind::write_unsafe:
        case MarkerKind::write_rejected_fence:
        case MarkerKind::write_rejected_token:
        case MarkerKind::write_rejected_recorded:
        case MarkerKind::crash:
        case MarkerKind::failover_leases:
        case MarkerKind::failover_all:
        case MarkerKind::wait_not_synced:
        case MarkerKind::refused:
        case MarkerKind::unlock_message_lost: return true;  // why a free lock stays untaken (model.md §21.5.3)
        default: return false;
    }
}

std::int32_t candidate_lane(const LaneModel& model, std::int32_t node) {
    if (node < 0 || node >= model.candidate_lanes) return -1;
    return node;  // candidate lanes come first, in declared order
}

std::int32_t slot_lane(const LaneModel& model, std::int32_t slot) {
    for (std::size_t i = static_cast<std::size_t>(model.candidate_lanes); i < model.lanes.size(); ++i) {
        const Lane& lane = model.lanes[i];
        if (lane.kind == LaneKind::slot && lane.index == slot) return static_cast<std::int32_t>(i);
    }
    return -1;
}

LaneRecorder::LaneRecorder(const sim::Scenario& scenario)
    : resource_(scenario.resource),
      n_nodes_(static_cast<std::int32_t>(scenario.candidates.size())),
      capacity_(scenario.lock.capacity) {
    for (std::int32_t i = 0; i < n_nodes_; ++i) {
        Lane lane;
        lane.kind = LaneKind::candidate;
        lane.label = scenario.candidates[static_cast<std::size_t>(i)].name;
        lane.index = i;
        node_index_[lane.label] = i;
        lanes_.push_back(std::move(lane));
    }
    first_slot_ = static_cast<std::int32_t>(lanes_.size());
    // With replicas the store's part is one lane per server (and slot) in place of the slot lanes (model.md §17.1).
    if (scenario.lock.replication.replicas > 0) add_server_lanes(scenario.lock.replication.replicas + 1);
    for (std::int32_t s = 0; s < capacity_ && servers_ == 0; ++s) {
        Lane lane;
        lane.kind = LaneKind::slot;
        lane.label = "slot " + std::to_string(s);
        lane.index = s;
        lanes_.push_back(std::move(lane));
    }
    holdoff_lane_ = static_cast<std::int32_t>(lanes_.size());
    lanes_.push_back(Lane{LaneKind::holdoff, "hold-off", 0, {}, {}, {}});
    resource_lane_ = static_cast<std::int32_t>(lanes_.size());
    lanes_.push_back(Lane{LaneKind::resource, "resource", 0, {}, {}, {}});
    if (!scenario.ops.empty()) {
        ops_lane_ = static_cast<std::int32_t>(lanes_.size());
        lanes_.push_back(Lane{LaneKind::ops, words::ops_actors(scenario), 0, {}, {}, {}});
    }
    const auto n = static_cast<std::size_t>(n_nodes_);
    node_open_.resize(n);
    pause_open_.resize(n);
    part_open_.resize(n);
    slots_.resize(static_cast<std::size_t>(capacity_));
}

void LaneRecorder::add_server_lanes(std::int32_t servers) {
    servers_ = servers;
    first_server_ = static_cast<std::int32_t>(lanes_.size());
    for (std::int32_t v = 0; v < servers_; ++v)
        for (std::int32_t s = 0; s < capacity_; ++s) {
            Lane lane;
            lane.kind = LaneKind::server;
            lane.label = "server " + std::to_string(v);
            lane.index = s;
            lane.server = v;
            lane.slots = capacity_;
            lanes_.push_back(std::move(lane));
        }
    const auto n = static_cast<std::size_t>(servers_ * capacity_);
    server_slots_.resize(n);
    cut_open_.resize(n);
}

std::int32_t LaneRecorder::server_lane(std::int32_t server, std::int32_t slot) const {
    if (server < 0 || server >= servers_ || slot < 0 || slot >= capacity_) return -1;
    return first_server_ + server * capacity_ + slot;
}

// Every server's copy at the end of tick t: its records as a slot lane's,
// a cut link as an overlay, its role as it changes; the primary and its
// counter as they change (the promotion's counter before, §17.3 rule 1).
void LaneRecorder::record_servers(const sim::Snapshot& snap) {
    const Tick t = snap.tick;
    for (const sim::ServerSnapshot& sv : snap.servers) {
        if (sv.server < 0 || sv.server >= servers_) continue;
        if (sv.role == sim::ServerRole::primary) {
            if (primaries_.empty() || primaries_.back().second != sv.server) primaries_.emplace_back(t, sv.server);
            if (counters_.empty() || counters_.back().second != sv.counter) counters_.emplace_back(t, sv.counter);
        }
        for (std::int32_t s = 0; s < capacity_; ++s) {
            const std::int32_t li = server_lane(sv.server, s);
            Lane& lane = lane_at(li);
            if (lane.roles.empty() || lane.roles.back().second != sv.role) lane.roles.emplace_back(t, sv.role);
            const auto k = static_cast<std::size_t>(li - first_server_);
            const SlotRecord none;
            record_record(server_slots_[k], li,
                          s < static_cast<std::int32_t>(sv.slots.size()) ? sv.slots[static_cast<std::size_t>(s)] : none,
                          t);
            Span cut;
            cut.kind = SpanKind::cut;
            track(cut_open_[k], t, sv.role == sim::ServerRole::replica && !sv.linked, cut, lane.overlays);
        }
    }
}

std::int32_t LaneRecorder::primary_at(Tick t) const {
    std::int32_t p = 0;
    for (const auto& [from, server] : primaries_)
        if (from <= t) p = server;
    return p;
}

std::optional<Fencing> LaneRecorder::primary_counter_at(Tick t) const {
    std::optional<Fencing> c;
    for (const auto& [from, counter] : counters_)
        if (from <= t) c = counter;
    return c;
}

void LaneRecorder::on_ticks(const sim::Simulation& simulation, const ModelStore& store, Tick first, Tick last) {
    for (Tick t = first; t <= last; ++t) record(sim::take_snapshot(simulation, store, t));
    last_tick_ = last;
}

void LaneRecorder::record(const sim::Snapshot& snap) {
    const Tick t = snap.tick;
    for (std::int32_t i = 0; i < n_nodes_ && i < static_cast<std::int32_t>(snap.nodes.size()); ++i)
        record_node(i, snap.nodes[static_cast<std::size_t>(i)], t);
    for (std::int32_t s = 0; s < capacity_ && servers_ == 0 && s < static_cast<std::int32_t>(snap.slots.size()); ++s)
        record_slot(s, snap.slots[static_cast<std::size_t>(s)], t);
    if (servers_ > 0) record_servers(snap);
    Span hold;
    hold.kind = SpanKind::holdoff;
    hold.expires_at = snap.holdoff_until;
    const bool holding = snap.holdoff_until != tick_none && t < snap.holdoff_until;
    if (holding && hold_open_.open) hold_open_.span.expires_at = snap.holdoff_until;
    track(hold_open_, t, holding, hold, lane_at(holdoff_lane_).spans);
    Span fence;
    fence.kind = SpanKind::fence;
    fence.fencing = snap.resource.highest_accepted;
    track(fence_open_, t, snap.resource.highest_accepted.has_value(), fence, lane_at(resource_lane_).spans);
    Span over;
    over.kind = SpanKind::overlap;
    track(overlap_open_, t, snap.in_overlap, over, overlap_);
}

void LaneRecorder::record_node(std::int32_t i, const sim::NodeSnapshot& node, Tick t) {
    const auto ui = static_cast<std::size_t>(i);
    Span want;
    want.kind = span_kind_of(node.status);
    want.run = node.run;
    const bool executing = want.kind == SpanKind::running || want.kind == SpanKind::stale;
    if (executing) want.fencing = node.fencing;
    const bool drawn = want.kind != SpanKind::idle && want.kind != SpanKind::done;
    track(node_open_[ui], t, drawn, want, lane_at(i).spans);
    Span pause;
    pause.kind = SpanKind::paused;
    track(pause_open_[ui], t, node.paused, pause, lane_at(i).overlays);
    Span part;
    part.kind =
        node.partition == sim::PartitionMode::drop_replies ? SpanKind::partition_replies : SpanKind::partition_requests;
    track(part_open_[ui], t, node.partition.has_value(), part, lane_at(i).overlays);
}

void LaneRecorder::record_slot(std::int32_t s, const SlotRecord& rec, Tick t) {
    record_record(slots_[static_cast<std::size_t>(s)], first_slot_ + s, rec, t);
}

void LaneRecorder::record_record(SlotTracker& tr, std::int32_t li, const SlotRecord& rec, Tick t) {
    const bool has = rec.valid_at(t);
    const bool same = has && tr.open.open && rec.token == tr.token && rec.acquired_at == tr.acquired_at;
    if (same) {
        tr.open.span.expires_at = rec.expires_at;
        return;
    }
    close_span(tr.open, t, lane_at(li).spans);
    if (!has) return;
    Span want;
    want.kind = SpanKind::record;
    want.fencing = rec.fencing;
    const auto owner = node_index_.find(rec.owner);
    want.owner = owner == node_index_.end() ? -1 : owner->second;
    want.expires_at = rec.expires_at;
    want.ttl = rec.expires_at - rec.acquired_at;
    open_span(tr.open, rec.acquired_at <= t ? rec.acquired_at : t, want);
    tr.token = rec.token;
    tr.acquired_at = rec.acquired_at;
}

void LaneRecorder::close_all() {
    const Tick stop = last_tick_ + 1;
    for (std::int32_t i = 0; i < n_nodes_; ++i) {
        const auto ui = static_cast<std::size_t>(i);
        close_span(node_open_[ui], stop, lane_at(i).spans);
        close_span(pause_open_[ui], stop, lane_at(i).overlays);
        close_span(part_open_[ui], stop, lane_at(i).overlays);
    }
    for (std::int32_t s = 0; s < capacity_ && servers_ == 0; ++s)
        close_span(slots_[static_cast<std::size_t>(s)].open, stop, lane_at(first_slot_ + s).spans);
    for (std::size_t k = 0; k < server_slots_.size(); ++k) {
        const std::int32_t li = first_server_ + static_cast<std::int32_t>(k);
        close_span(server_slots_[k].open, stop, lane_at(li).spans);
        close_span(cut_open_[k], stop, lane_at(li).overlays);
    }
    close_span(hold_open_, stop, lane_at(holdoff_lane_).spans);
    close_span(fence_open_, stop, lane_at(resource_lane_).spans);
    close_span(overlap_open_, stop, overlap_);
}

void LaneRecorder::add_marker(const sim::Event& e, const Marker& m) {
    if (servers_ > 0 && add_server_marker(e, m)) return;
    switch (e.op) {
        case sim::EventOp::status:
        case sim::EventOp::validate:
            // A node's own check before a write (phase work, model.md §5.8) is on its lane.
            if (e.phase == sim::Phase::work) {
                auto it = node_index_.find(e.node);
                if (it != node_index_.end()) lane_at(it->second).markers.push_back(m);
            } else if (ops_lane_ >= 0) {
                lane_at(ops_lane_).markers.push_back(m);
            }
            break;
        case sim::EventOp::failover:
            for (std::int32_t s = 0; s < capacity_; ++s) lane_at(first_slot_ + s).markers.push_back(m);
            break;
        case sim::EventOp::clock_jump: {
            // A node's jump on its lane; the store's ("store", model.md §3.3
            // rule 3) on every slot lane, the records its clock expires.
            auto it = node_index_.find(e.node);
            if (it != node_index_.end()) {
                lane_at(it->second).markers.push_back(m);
            } else {
                for (std::int32_t s = 0; s < capacity_; ++s) lane_at(first_slot_ + s).markers.push_back(m);
            }
            break;
        }
        case sim::EventOp::overlap_begin:
        case sim::EventOp::overlap_end: break;  // drawn as the overlap band
        case sim::EventOp::undecided: {
            // On its node's lane; without a node (a gap in the capture) on the record's lanes.
            auto it = node_index_.find(e.node);
            if (it != node_index_.end()) {
                lane_at(it->second).markers.push_back(m);
            } else {
                for (std::int32_t s = 0; s < capacity_; ++s) lane_at(first_slot_ + s).markers.push_back(m);
            }
            break;
        }
        default: {
            auto it = node_index_.find(e.node);
            if (it != node_index_.end()) lane_at(it->second).markers.push_back(m);
            if (e.op == sim::EventOp::write) lane_at(resource_lane_).markers.push_back(m);
            // The store's side of the story on the slot lane: the record
            // expired, or was issued a fencing number that went backwards.
            const bool on_slot = e.op == sim::EventOp::expire || m.kind == MarkerKind::acquire_regressed;
            if (on_slot && e.slot && *e.slot >= 0 && *e.slot < capacity_)
                lane_at(first_slot_ + *e.slot).markers.push_back(m);
            break;
        }
    }
}

// The store's marks on the server lanes (model.md §17): a cut, a restore and
// a promotion on the server's own lanes, an expiry on the lane of the server
// that expired it, a store clock jump on every server; the rest as without
// replicas (false).
bool LaneRecorder::add_server_marker(const sim::Event& e, const Marker& m) {
    const auto on_server = [&](std::int32_t server, std::optional<SlotIndex> slot) {
        for (std::int32_t s = 0; s < capacity_; ++s)
            if (!slot || *slot == s) {
                const std::int32_t li = server_lane(server, s);
                if (li >= 0) lane_at(li).markers.push_back(m);
            }
    };
    switch (e.op) {
        case sim::EventOp::link_cut:
        case sim::EventOp::link_restored: on_server(e.server.value_or(-1), std::nullopt); return true;
        case sim::EventOp::failover: {
            Marker p = m;
            p.counter_before = primary_counter_at(e.tick - 1);
            const std::int32_t server = e.server.value_or(-1);
            for (std::int32_t s = 0; s < capacity_; ++s)
                if (server_lane(server, s) >= 0) lane_at(server_lane(server, s)).markers.push_back(p);
            return true;
        }
        case sim::EventOp::clock_jump:
            if (node_index_.count(e.node)) return false;
            for (std::int32_t v = 0; v < servers_; ++v) on_server(v, std::nullopt);
            return true;
        case sim::EventOp::expire: {
            auto it = node_index_.find(e.node);
            if (it != node_index_.end()) lane_at(it->second).markers.push_back(m);
            on_server(e.server.value_or(primary_at(e.tick)), e.slot);
            return true;
        }
        default: break;
    }
    if (m.kind != MarkerKind::acquire_regressed || !e.slot) return false;
    auto it = node_index_.find(e.node);
    if (it != node_index_.end()) lane_at(it->second).markers.push_back(m);
    on_server(e.server.value_or(primary_at(e.tick)), e.slot);
    return true;
}

LaneModel LaneRecorder::finish(const sim::Timeline& timeline) {
    close_all();
    const sim::Trace& trace = timeline.trace();
    for (std::size_t k = 0; k < trace.events.size(); ++k) {
        const sim::Event& e = trace.events[k];
        Marker m;
        m.tick = e.tick;
        m.kind = marker_kind_of(e, resource_, timeline.replayed());
        m.event = static_cast<std::int32_t>(k);
        m.fencing = e.fencing;
        add_marker(e, m);
    }
    LaneModel model;
    model.resource = resource_;
    model.end_tick = timeline.end_tick();
    model.clock = tick_clock_of(trace);
    model.clocks = clock_tracks(timeline.scenario(), model.end_tick);
    if (trace_has_wire_time(trace) || scenario_has_wire_time(timeline.scenario()))
        model.messages = message_track(trace, node_links(timeline.scenario()));
    model.event_count = trace.events.size();
    model.candidate_lanes = n_nodes_;
    model.lanes = std::move(lanes_);
    model.overlap = std::move(overlap_);
    // The hold-off lane only appears when a hold-off happened.
    if (model.lanes[static_cast<std::size_t>(holdoff_lane_)].spans.empty())
        model.lanes.erase(model.lanes.begin() + holdoff_lane_);
    return model;
}

void LaneRecorder::replay(const sim::Timeline& timeline) {
    const auto& events = timeline.trace().events;
    const Tick end = timeline.end_tick();
    sim::ReplayFold fold(timeline.trace().header);
    std::size_t k = 0;
    Tick t = 0;
    while (t <= end) {
        for (; k < events.size() && events[k].tick <= t; ++k) fold.apply(events[k]);
        const sim::Snapshot snap = fold.at(t);
        record(snap);
        // Nothing changes before the next event or the next record's deadline.
        Tick next = k < events.size() ? std::max(events[k].tick, t + 1) : end + 1;
        for (const SlotRecord& r : snap.slots)
            if (r.valid_at(t) && r.expires_at > t) next = std::min(next, r.expires_at);
        t = next;
    }
    last_tick_ = end;
}

ShownRun replay_trace(sim::Trace trace) {
    ShownRun run;
    const bool redlock = trace.header.format == 5;
    const bool redisson = trace.header.format == 6;
    run.timeline = std::make_unique<sim::Timeline>(std::move(trace));
    if (redlock) {  // a Redlock trace (model.md §20.8): its lanes from its events; no lease known, so no windows
        run.lanes = build_redlock_lanes(run.timeline->trace(), nullptr);
        return run;
    }
    if (redisson) {  // a Redisson trace (model.md §21.9): its lanes from its events, no candidate's options known
        run.lanes = build_redisson_lanes(run.timeline->trace(), nullptr);
        return run;
    }
    LaneRecorder recorder(run.timeline->scenario());
    recorder.replay(*run.timeline);
    run.lanes = recorder.finish(*run.timeline);
    return run;
}

ShownRun run_scenario(sim::Scenario scenario) {
    if (scenario.is_redlock()) {  // model.md §20: the lanes are read from the trace (redlock_lanes.hpp)
        ShownRun run;
        run.timeline = std::make_unique<sim::Timeline>(std::move(scenario));
        run.lanes = build_redlock_lanes(run.timeline->trace(), &run.timeline->scenario());
        return run;
    }
    if (scenario.is_redisson()) {  // model.md §21: the lanes are read from the trace (redisson_lanes.hpp)
        ShownRun run;
        run.timeline = std::make_unique<sim::Timeline>(std::move(scenario));
        run.lanes = build_redisson_lanes(run.timeline->trace(), &run.timeline->scenario());
        return run;
    }
    LaneRecorder recorder(scenario);
    ShownRun run;
    run.timeline = std::make_unique<sim::Timeline>(std::move(scenario), 64, sim::Timeline::default_checkpoint_bytes_max,
                                                   &recorder);
    run.lanes = recorder.finish(*run.timeline);
    return run;
}

}  // namespace leasescope::gui

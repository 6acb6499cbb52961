// A recorded trace replayed without simulating (model.md §19.9): the state at
// a tick folded from the events up to it (ReplayFold), the scenario a replay
// shows, and the Timeline made from a trace.
#include <algorithm>
#include <limits>

#include "leasescope/sim/simulation.hpp"

namespace leasescope::sim {

namespace {

// The farthest a replayed Timeline keeps folds apart is chosen so that at
// most this many are kept: memory stays bounded on an import of
// limits::import_ticks_max ticks, and a seek folds at most one stretch.
constexpr Tick replay_points_max = 4096;

SlotRecord* slot_holding(std::vector<SlotRecord>& slots, const Event& e) {
    if (e.slot && *e.slot >= 0 && static_cast<std::size_t>(*e.slot) < slots.size())
        return &slots[static_cast<std::size_t>(*e.slot)];
    for (SlotRecord& r : slots)
        if (r.occupied && !e.token.empty() && r.token == e.token) return &r;
    return nullptr;
}

// A trace before /4 has no believe events: a node believes it leads from an
// `acquired` answer until it releases or hears `lost` (model.md §19.6.3's
// inferred belief, from the commands alone).
std::optional<bool> inferred_belief(const Event& e) {
    if (e.op == EventOp::acquire && e.outcome == Outcome::acquired) return true;
    if (e.op == EventOp::extend && e.outcome == Outcome::lost) return false;
    if (e.op == EventOp::release && e.outcome != Outcome::error) return false;
    return std::nullopt;
}

}  // namespace

ReplayFold::ReplayFold(const TraceHeader& header) {
    for (const std::string& name : header.candidates) {
        NodeSnapshot node;
        node.name = name;
        state_.nodes.push_back(std::move(node));
    }
    state_.slots.resize(static_cast<std::size_t>(std::max(header.capacity, 1)));
    infer_beliefs_ = header.format < 4;
}

std::int32_t ReplayFold::node_of(const std::string& name) const {
    for (std::size_t i = 0; i < state_.nodes.size(); ++i)
        if (state_.nodes[i].name == name) return static_cast<std::int32_t>(i);
    return -1;
}

void ReplayFold::apply(const Event& e) {
    apply_store(e);
    count_marks(e);
    const std::int32_t i = node_of(e.node);
    if (i >= 0) apply_node(e, state_.nodes[static_cast<std::size_t>(i)]);
}

// The record and the resource: what the store and the resource did.
void ReplayFold::apply_store(const Event& e) {
    std::vector<SlotRecord>& slots = state_.slots;
    SlotRecord* held = slot_holding(slots, e);
    const bool answered = e.outcome == Outcome::acquired || e.outcome == Outcome::renewed || e.outcome == Outcome::kept;
    if (e.op == EventOp::acquire && e.outcome == Outcome::acquired && held) {
        *held = SlotRecord{};
        held->occupied = true;
        held->owner = e.node;
        held->token = e.token;
        held->fencing = e.fencing.value_or(0);
        held->acquired_at = e.tick;
        held->expires_at = e.ttl ? e.tick + *e.ttl : std::numeric_limits<Tick>::max();
        if (e.fencing) state_.counter = std::max(state_.counter, *e.fencing);
    } else if (answered && held && e.ttl) {
        held->expires_at = e.tick + *e.ttl;  // renewed, or a release that kept it shortened
    } else if ((e.op == EventOp::release && e.outcome == Outcome::released) || e.op == EventOp::expire) {
        if (held) *held = SlotRecord{};
    } else if (e.op == EventOp::failover) {
        for (SlotRecord& r : slots) r = SlotRecord{};
    } else if (e.op == EventOp::write && e.outcome == Outcome::accepted) {
        ++state_.resource.accepted;
        if (e.fencing)
            state_.resource.highest_accepted =
                std::max(state_.resource.highest_accepted.value_or(*e.fencing), *e.fencing);
    } else if (e.op == EventOp::write && e.outcome == Outcome::rejected) {
        ++state_.resource.rejected;
    }
}

// What a node is doing and believes.
void ReplayFold::apply_node(const Event& e, NodeSnapshot& node) {
    if (e.run >= 0) node.run = e.run;
    if (!e.token.empty() && e.op != EventOp::expire) node.token = e.token;
    if (e.fencing && (e.op == EventOp::acquire || e.op == EventOp::believe)) node.fencing = e.fencing;
    std::optional<bool> leads;
    if (e.op == EventOp::believe) leads = e.outcome == Outcome::leader;
    if (infer_beliefs_) leads = inferred_belief(e);
    switch (e.op) {
        case EventOp::pause: node.paused = true; break;
        case EventOp::resume: node.paused = false; break;
        case EventOp::crash:
            node.status = NodeStatus::crashed;
            node.believes_leader = false;
            return;
        case EventOp::start:
            if (!node.believes_leader) node.status = NodeStatus::waiting;
            break;
        case EventOp::skip: node.status = NodeStatus::idle; break;
        default: break;
    }
    if (!leads || node.status == NodeStatus::crashed) return;
    node.believes_leader = *leads;
    node.status = *leads ? NodeStatus::running : NodeStatus::idle;
}

void ReplayFold::count_marks(const Event& e) {
    Violations& v = state_.violations;
    if (e.op == EventOp::overlap_begin) {
        ++v.overlap;
        state_.in_overlap = true;
    }
    if (e.op == EventOp::overlap_end) state_.in_overlap = false;
    if (e.details.has(Detail::unsafe_write)) ++v.unsafe_write;
    if (e.details.has(Detail::stale_after_successor)) ++v.stale_after_successor;
    if (e.details.has(Detail::holder_rejected)) ++v.holder_rejected;
    if (e.details.has(Detail::fencing_regressed)) ++v.fencing_regressed;
    if (e.details.has(Detail::fencing_duplicate)) ++v.fencing_duplicate;
}

Snapshot ReplayFold::at(Tick t) const {
    Snapshot snap = state_;
    snap.tick = t;
    // A node that believes it leads while no valid record holds its token
    // acts on a lease it no longer has.
    for (NodeSnapshot& node : snap.nodes) {
        if (node.status != NodeStatus::running) continue;
        const bool holds = std::any_of(snap.slots.begin(), snap.slots.end(),
                                       [&](const SlotRecord& r) { return r.valid_at(t) && r.token == node.token; });
        if (!holds) node.status = NodeStatus::stale;
    }
    return snap;
}

Scenario replay_scenario(const TraceHeader& header, Tick end_tick) {
    Scenario s;
    s.name = header.scenario;
    s.tick_ms = header.tick_ms;
    s.horizon = std::max<Tick>(end_tick, 1);
    s.seed = header.seed;
    s.lock.name = header.lock;
    s.lock.capacity = std::max(header.capacity, 1);
    s.resource = ResourceMode::check;
    for (const std::string& name : header.candidates) {
        Candidate c;
        c.name = name;
        s.candidates.push_back(std::move(c));
    }
    return s;
}

Timeline::Timeline(Trace recorded, Tick checkpoint_every)
    : scenario_(std::make_unique<Scenario>(replay_scenario(recorded.header, recorded.summary.end_tick))),
      trace_(std::move(recorded)),
      replayed_(true),
      checkpoint_every_(checkpoint_every) {
    LS_ASSERT(checkpoint_every_ >= 1);
    while (end_tick() / checkpoint_every_ >= replay_points_max) checkpoint_every_ *= 2;
    ReplayFold fold(trace_.header);
    std::size_t k = 0;
    for (Tick at = 0; at <= end_tick(); at += checkpoint_every_) {
        for (; k < trace_.events.size() && trace_.events[k].tick < at; ++k) fold.apply(trace_.events[k]);
        replay_points_.push_back(fold);
    }
}

Snapshot Timeline::replay_snapshot(Tick t) const {
    const auto index = static_cast<std::size_t>(t / checkpoint_every_);
    LS_ASSERT(index < replay_points_.size());
    ReplayFold fold = replay_points_[index];
    const auto& events = trace_.events;
    for (std::size_t k = first_event_at_or_after(static_cast<Tick>(index) * checkpoint_every_);
         k < events.size() && events[k].tick <= t; ++k)
        fold.apply(events[k]);
    return fold.at(t);
}

}  // namespace leasescope::sim

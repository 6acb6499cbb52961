// The canonical hash of a simulation's whole state at a tick boundary
// (docs/explorer.md, Merging states): every member step() reads, with the
// members that name a fault by its place in the list fed by the fault's
// content instead, so that two schedules whose faults sit at different places
// but reached the same state with the same faults still to come hash alike.
#include "leasescope/sim/simulation.hpp"

namespace leasescope::sim {

namespace {

void hash_fault(const Fault& f, StateHasher& h) {
    h.add(f.kind);
    h.add(f.node);
    h.add(f.at);
    h.add(f.ticks);
    h.add(f.mode);
    h.add(f.lose);
    h.add(f.ms);
    h.add(f.link);
    h.add(f.extra);
    h.add(f.server);
    h.add(f.lag);
    h.add(f.old_primary.has_value());
    if (f.old_primary) {
        h.add(f.old_primary->reachable_by.size());
        for (const NodeIndex n : f.old_primary->reachable_by) h.add(n);
        h.add(f.old_primary->until);
    }
    h.add(f.store);
    h.add(f.persistence);
    h.add(f.stores);
}

template <class T>
void hash_reply(const std::optional<T>& r, StateHasher& h, void (*fields)(const T&, StateHasher&)) {
    h.add(r.has_value());
    if (r) fields(*r, h);
}

void acquire_fields(const AcquireReply& r, StateHasher& h) {
    h.add(r.acquired);
    h.add(r.fresh);
    h.add(r.slot);
    h.add(r.fencing);
    h.add(r.ttl);
    h.add(r.reason);
    h.add(r.remaining);
}

void extend_fields(const ExtendReply& r, StateHasher& h) {
    h.add(r.renewed);
    h.add(r.slot);
    h.add(r.fencing);
}

void release_fields(const ReleaseReply& r, StateHasher& h) {
    h.add(r.outcome);
    h.add(r.slot);
    h.add(r.until);
}

void error_fields(const StoreError& e, StateHasher& h) {
    h.add(e.message);
    h.add(e.connection);
    h.add(e.no_replicas);
}

void hash_violations(const Violations& v, StateHasher& h) {
    h.add(v.overlap);
    h.add(v.unsafe_write);
    h.add(v.fencing_regressed);
    h.add(v.stale_after_successor);
    h.add(v.holder_rejected);
    h.add(v.fencing_duplicate);
}

}  // namespace

void IssuedNumbers::hash_into(StateHasher& h) const {
    h.add(ranges_.size());
    for (const auto& [first, last] : ranges_) {
        h.add(first);
        h.add(last);
    }
}

void Simulation::hash_call(const Call& c, StateHasher& h) {
#if LEASESCOPE_HASH_SIZES_PINNED
    static_assert(sizeof(Call) == 328, "a member was added to Simulation::Call: feed it above, then pin the size");
#endif
    h.add(c.op);
    h.add(c.node);
    h.add(c.run);
    h.add(c.token);
    h.add(c.fencing);
    h.add(c.sent);
    h.add(c.number);
    h.add(c.timeout_at);
    h.add(c.applied);
    h.add(c.reply_at);
    h.add(c.keep_for);
    h.add(c.holding.slot);
    h.add(c.holding.acquisition);
    h.add(c.ended);
    h.add(c.entries);
    hash_reply<AcquireReply>(c.acquire, h, acquire_fields);
    h.add(c.issued.has_value());
    if (c.issued) {
        h.add(c.issued->regressed);
        h.add(c.issued->duplicate);
        h.add(c.issued->acquisition);
    }
    hash_reply<ExtendReply>(c.extend, h, extend_fields);
    hash_reply<ReleaseReply>(c.release, h, release_fields);
    h.add(c.validity);
    hash_reply<StoreError>(c.error, h, error_fields);
    h.add(c.server);
    h.add(c.wait_until);
    h.add(c.wait_count);
    h.add(c.unlock);
}

void Simulation::hash_wire(StateHasher& h) const {
    h.add(latent_.size());
    for (const std::uint8_t l : latent_) h.add(l);
    // The delay faults by content: a message's arrival reads them (§16.2).
    h.add(delays_.size());
    for (const std::int32_t d : delays_) hash_fault(scenario_->faults[static_cast<std::size_t>(d)], h);
    h.add(calls_.size());
    for (const Call& c : calls_) hash_call(c, h);
    h.add(free_calls_.size());
    for (const std::int32_t id : free_calls_) h.add(id);
    for (const std::vector<Arrival>* heap : {&wire_, &deferred_}) {
        h.add(heap->size());
        for (const Arrival& a : *heap) {
            h.add(a.at);
            h.add(a.phase);
            h.add(a.sent);
            h.add(a.number);
            h.add(a.stage);
            h.add(a.call);
        }
    }
    h.add(sends_);
}

void Simulation::hash_faults(StateHasher& h) const {
    h.add(node_faults_.size());
    for (const NodeFaults& f : node_faults_) {
        h.add(f.paused);
        h.add(f.crashed);
        h.add(f.partition);
        h.add(f.pauses_active);
        h.add(f.partitions_active);
    }
    h.add(primary_server_);
    h.add(has_replication_faults_);
    // The failover in split brain, and the cuts ended by a promotion, by content.
    h.add(split_fault_ >= 0);
    if (split_fault_ >= 0) hash_fault(scenario_->faults[static_cast<std::size_t>(split_fault_)], h);
    h.add(old_primary_server_);
    h.add(link_cuts_.size());
    for (const std::int32_t c : link_cuts_) h.add(c);
    for (std::size_t i = 0; i < cut_void_.size(); ++i) {
        if (cut_void_[i] != 0) hash_fault(scenario_->faults[i], h);
    }
    // The edges still to come: the faults to come, relative to nothing but
    // their content and tick (every fault is known: hash_into checks).
    h.add(fault_edges_.size() - next_fault_edge_);
    for (std::size_t i = next_fault_edge_; i < fault_edges_.size(); ++i) {
        const FaultEdge& e = fault_edges_[i];
        const Fault& f = scenario_->faults[static_cast<std::size_t>(e.fault)];
        h.add(e.tick);
        h.add(e.kind);
        // The end of a pause or partition that has begun reads only its
        // kind and node (node_fault_edge): when it began, how long it is and
        // a partition's mode are in the node's faults already. Two runs
        // whose pauses of one node end at the same tick are alike here.
        if (e.kind == EdgeKind::end && (f.kind == FaultKind::pause || f.kind == FaultKind::partition) &&
            f.at < next_tick_) {
            h.add(f.kind);
            h.add(f.node);
        } else {
            hash_fault(f, h);
        }
    }
    h.add(next_op_);
    // The last edge's tick is read only against the tick at hand
    // (quiescent_after: not quiescent before it); once passed, when it was
    // does not matter, so two runs whose last edges passed at different
    // ticks are alike here.
    h.add(last_scheduled_tick_ >= next_tick_ ? last_scheduled_tick_ : tick_none);
}

bool Simulation::hash_into(StateHasher& h, bool events) const {
#if LEASESCOPE_HASH_SIZES_PINNED
    static_assert(sizeof(Simulation) == 1304, "a member was added to Simulation: feed it here, then pin the size");
    static_assert(sizeof(NodeFaults) == 20, "a member was added to NodeFaults: feed it, then pin the size");
    static_assert(sizeof(ResourceState) == 32, "a member was added to ResourceState: feed it, then pin the size");
    static_assert(sizeof(Violations) == 48, "a member was added to Violations: feed it, then pin the size");
    static_assert(sizeof(Fault) == 128, "a member was added to Fault: feed it to hash_fault, then pin the size");
#endif
    if (redlock_ || redisson_ || tokens_ != nullptr || spill_ != nullptr) return false;
    if (faults_known_ != scenario_->faults.size()) return false;
    h.add(next_tick_);
    h.add(end_tick_);
    h.add(finished_);
    h.add(quiesced_);
    if (events) h.add(seq_);  // read by emit() alone, to number the events
    h.add(rng_.state());
    h.add(electors_.size());
    for (const Elector& e : electors_) e.hash_into(h);
    hash_faults(h);
    hash_wire(h);
    h.add(resource_.highest_accepted);
    h.add(resource_.accepted);
    h.add(resource_.rejected);
    hash_violations(violations_, h);
    h.add(in_overlap_);
    h.add(highest_issued_);
    issued_.hash_into(h);
    h.add(acquisitions_);
    h.add(holdings_.size());
    for (const Holding& g : holdings_) {
        h.add(g.slot);
        h.add(g.acquisition);
    }
    h.add(slot_latest_writer_.size());
    for (const std::int64_t w : slot_latest_writer_) h.add(w);
    h.add(executing_.size());
    for (const NodeIndex n : executing_) h.add(n);
    h.add(wake_queue_.size());
    // The pairs the entries stand for, in ascending order: the queue's layout
    // depends on the order of its pushes and pops, which two equal states need
    // not share (a sorted copy costs only the explorer).
    for (const std::uint64_t entry : wake_queue_.sorted_entries()) {
        h.add(wake_tick(entry));
        h.add(wake_node(entry));
    }
    h.add(unfinished_);
    h.add(outcomes_held_);
    return true;
}

std::optional<StateHasher::Digest> state_digest(const Simulation& sim, const ModelStore& store) {
    StateHasher h;
    if (!sim.hash_into(h)) return std::nullopt;
    store.hash_into(h);
    return h.digest();
}

std::optional<StateHasher::Digest> verdict_digest(const Simulation& sim, const ModelStore& store) {
    StateHasher h;
    if (!sim.hash_into(h, false)) return std::nullopt;
    store.hash_into(h);
    return h.digest();
}

}  // namespace leasescope::sim

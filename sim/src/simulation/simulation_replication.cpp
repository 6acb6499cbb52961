// Replication (docs/model.md §17): a primary and its replicas, link cuts, a
// failover that promotes a replica, split brain and WAIT. The servers' copies
// live in the store (ModelStore, or real servers in live mode); this file
// drives them at the right edges and tells what happened.
#include <algorithm>

#include "leasescope/sim/simulation.hpp"

namespace leasescope::sim {

// One edge of a replica_link or of a promoting failover, in phase 1 (§17.2,
// §17.3, §17.5). `emitted` false: the edge changes nothing and tells nothing
// (a lag cut of a link already cut; the end of a cut whose replica was
// promoted meanwhile).
void Simulation::replication_edge(Tick t, const Fault& f, EdgeKind kind, Store& store, EventView& ev, bool& emitted,
                                  std::optional<StoreError>& failure) {
    const auto done = [&](const StoreResult<Unit>& r) {
        if (!r.ok()) failure = r.error();
    };
    ev.node = "store";
    const bool cut = kind == EdgeKind::lag_cut || (f.kind == FaultKind::replica_link && kind == EdgeKind::start);
    if (cut || (f.kind == FaultKind::replica_link && kind == EdgeKind::end)) {
        // A link is cut while any cut holds it, a replica_link's or a lag's
        // (§17.3); a promotion ends every cut of its server.
        if (link_cuts_.empty())
            link_cuts_.assign(static_cast<std::size_t>(scenario_->lock.replication.replicas) + 1, 0);
        // Only the faults whose edges are filed (a forked run's scenario may
        // hold more, appended later: Simulation::append_faults).
        if (cut_void_.empty()) cut_void_.assign(faults_known_, 0);
        const auto index = static_cast<std::size_t>(&f - scenario_->faults.data());
        std::int32_t& holding = link_cuts_[static_cast<std::size_t>(f.server)];
        const bool is_primary = f.server == primary_server_ || f.server == old_primary_server_;
        if (is_primary || (!cut && cut_void_[index] != 0)) {
            emitted = false;
            return;
        }
        holding += cut ? 1 : -1;
        if (holding != (cut ? 1 : 0)) {
            emitted = false;
            return;
        }
        done(cut ? store.cut_link(t, f.server) : store.restore_link(t, f.server));
        ev.op = cut ? EventOp::link_cut : EventOp::link_restored;
        ev.server = f.server;
        return;
    }
    if (kind == EdgeKind::split_end) {
        done(store.end_split(t));
        ev.op = EventOp::link_restored;
        ev.server = old_primary_server_;
        split_fault_ = -1;
        old_primary_server_ = -1;
        return;
    }
    // The promotion (§17.3).
    const SplitBrain* split = f.old_primary ? &*f.old_primary : nullptr;
    const auto counter = store.promote(t, f.server, split);
    if (!counter.ok()) {
        failure = counter.error();
        return;
    }
    if (split != nullptr) {
        split_fault_ = static_cast<std::int32_t>(&f - scenario_->faults.data());
        old_primary_server_ = primary_server_;
    }
    primary_server_ = f.server;
    // The promoted server's cuts end with its promotion: they restore nothing later.
    if (!link_cuts_.empty()) link_cuts_[static_cast<std::size_t>(f.server)] = 0;
    for (std::size_t k = 0; k < cut_void_.size(); ++k) {
        const Fault& c = scenario_->faults[k];
        if (c.kind == FaultKind::replica_link && c.server == f.server && c.at <= t && t < c.end()) cut_void_[k] = 1;
    }
    ev.node = {};
    ev.op = EventOp::failover;
    ev.server = f.server;
    if (counter.value() >= scenario_->lock.fencing_start) ev.fencing = counter.value();
}

std::int32_t Simulation::server_of(NodeIndex node) const {
    if (split_fault_ < 0) return -1;
    const auto& nodes = scenario_->faults[static_cast<std::size_t>(split_fault_)].old_primary->reachable_by;
    return std::binary_search(nodes.begin(), nodes.end(), node) ? old_primary_server_ : -1;
}

// The old primary expires its own records in phase 2, as any primary (§17.5 rule 1).
void Simulation::expire_old_primary(Tick t, Store& store, EventSink& sink, std::optional<StoreError>& failure) {
    const Routed routed(store, old_primary_server_);
    auto records = store.expire(t);
    if (!records.ok()) {
        failure = records.error();
        return;
    }
    for (const ExpiredRecord& r : records.value()) {
        EventView ev = expire_event(t, r);
        ev.server = routed.server();
        emit(sink, ev);
    }
}

// A WAIT after the acquisition applied at c.applied (§17.6 rule 2): answers
// at the first tick at which enough replicas are linked, or at its timeout
// with the count then. False: it blocks on, and is asked again next tick.
bool Simulation::wait_step(Call& c, std::int32_t id, Tick t, Store& store, std::optional<StoreError>& failure) {
    const Elector& e = electors_[static_cast<std::size_t>(c.node)];
    const Routed routed(store, c.server.value_or(-1));
    auto synced = store.synced_replicas(t);
    if (!synced.ok()) {
        failure = synced.error();
        return true;
    }
    if (synced.value() < e.options().wait_replicas && t < c.wait_until) {
        push(Arrival{t + 1, Phase::acquire, c.sent, c.number, Stage::wait, id});
        return false;
    }
    c.wait_count = synced.value();
    return true;
}

// The node learned an acquisition and its WAIT together (§17.6 rules 3-4):
// the wait event, and on too few replicas the unlock of its own record.
void Simulation::answer_wait(Call& c, Tick t, EventSink& sink, Store& store, std::optional<StoreError>& failure) {
    const Elector& e = electors_[static_cast<std::size_t>(c.node)];
    const bool synced = c.wait_count >= e.options().wait_replicas;
    EventView ev = run_event(t, Phase::acquire, EventOp::wait, e, *e.latest_run());
    ev.run = c.run;
    ev.token = c.token;
    ev.fencing = c.acquire->fencing;
    ev.outcome = synced ? Outcome::synced : Outcome::not_synced;
    ev.overlap_count = c.wait_count;
    ev.server = c.server;
    emit(sink, ev);
    if (synced) return;
    // `c` may move: the unlock is a new call.
    const NodeIndex node = c.node;
    const Fencing fencing = c.acquire->fencing;
    send_call(EventOp::release, node, t, 0, store, sink, failure, fencing);
}

}  // namespace leasescope::sim

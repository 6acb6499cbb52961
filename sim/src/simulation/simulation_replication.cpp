// Replication (docs/model.md §17): a primary and its replicas, link cuts, a
// failover that promotes a replica, split brain and WAIT. The servers' copies
// live in the store (ModelStore, or real servers in live mode); this file
// drives them at the right edges and tells what happened.
#include <algorithm>

#include "leasescope/sim/simulation.hpp"

namespace leasescope::sim {

// Without a model (live mode) the simulation cannot ask a store whether a
// link is up; the scenario says it: another replica_link of `server`, or a
// failover's lag cut, in force at `t` (§17.3: an earlier cut stands).
static bool cut_by_another(const Scenario& scenario, const Fault& edge, std::int32_t server, Tick t) {
    for (const Fault& f : scenario.faults) {
        if (&f == &edge || f.server != server) continue;
        if (f.kind == FaultKind::replica_link && f.at <= t && t < f.at + f.ticks) return true;
        if (f.promotes() && f.lag > 0 && f.at - f.lag <= t && t < f.at) return true;
    }
    return false;
}

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
        ModelStore* m = store.model();
        const bool is_primary = f.server == primary_server_ || f.server == old_primary_server_;
        // The model is asked here; a live run, which has none, reads the
        // scenario: a restore always ends a cut, a cut may meet an earlier one.
        const bool linked =
            m != nullptr ? m->server_link(f.server).linked : cut && !cut_by_another(*scenario_, f, f.server, t);
        if (is_primary || (cut && !linked) || (!cut && linked)) {
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
        EventView ev;
        ev.tick = t;
        ev.phase = Phase::expiry;
        ev.op = EventOp::expire;
        ev.node = r.owner;
        ev.token = r.token;
        ev.fencing = r.fencing;
        ev.slot = r.slot;
        ev.ttl = 0;
        ev.outcome = Outcome::expired;
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
    EventView ev;
    ev.tick = t;
    ev.phase = Phase::acquire;
    ev.op = EventOp::wait;
    ev.node = e.owner();
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

// The seven phases of a tick (faults, expiry, work, extend, acquire, ops,
// check) and the partition that stands between a node and the store.
#include <algorithm>
#include <functional>

#include "leasescope/sim/simulation.hpp"

namespace leasescope::sim {
namespace {

// A validate answer as a trace outcome (a node's own check, an auditor's op).
Outcome outcome_of(Validity v) {
    switch (v) {
        case Validity::current: return Outcome::current;
        case Validity::stale: return Outcome::stale;
        case Validity::vacant: break;
    }
    return Outcome::vacant;
}

// The acquired reply an acquire applied, whether or not the node heard it (an
// acquire whose reply was lost shows its orphaned lease); null when none was
// applied.
const AcquireReply* applied_acquire(const StoreResult<AcquireReply>& reply,
                                    const std::optional<AcquireReply>& lost_acquire) {
    if (reply.ok()) return &reply.value();
    if (lost_acquire && lost_acquire->acquired) return &*lost_acquire;
    return nullptr;
}

// The node's way to the store: a partition drops the request (the store never
// sees it) or the reply (the store applied it). Either way the node sees an
// error. For an acquire whose reply was lost, the applied reply is kept so the
// trace can show the orphaned lease.
class PartitionChannel final : public Store {
public:
    PartitionChannel(Store& inner, std::optional<PartitionMode> mode) : inner_(inner), mode_(mode) {}

    std::optional<AcquireReply> lost_acquire;

    StoreResult<AcquireReply> acquire(Tick now, std::string_view owner, std::string_view token, Tick lease) override {
        if (!mode_) return inner_.acquire(now, owner, token, lease);
        if (*mode_ == PartitionMode::drop_requests) return dropped_request();
        auto reply = inner_.acquire(now, owner, token, lease);
        if (!reply.ok()) return reply;
        lost_acquire = reply.value();
        return dropped_reply();
    }
    StoreResult<ExtendReply> extend(Tick now, std::string_view token, Tick lease) override {
        if (!mode_) return inner_.extend(now, token, lease);
        if (*mode_ == PartitionMode::drop_requests) return dropped_request();
        auto reply = inner_.extend(now, token, lease);
        if (!reply.ok()) return reply;
        return dropped_reply();
    }
    // The library reads the record before it sends the release script; under
    // either mode that read fails, so the script is never sent and the record
    // is left to its TTL (model.md §7.2).
    StoreResult<ReleaseReply> release(Tick now, std::string_view token, Tick keep_for, Tick hold_off) override {
        if (!mode_) return inner_.release(now, token, keep_for, hold_off);
        return *mode_ == PartitionMode::drop_requests ? dropped_request() : dropped_reply();
    }
    // Not node calls: the scheduler never routes these through a partition.
    StoreResult<StatusReply> status(Tick now) override { return inner_.status(now); }
    StoreResult<Validity> validate(Tick now, std::string_view token) override { return inner_.validate(now, token); }
    StoreResult<std::vector<ExpiredRecord>> expire(Tick now) override { return inner_.expire(now); }
    StoreResult<Unit> failover(Tick now, FailoverLoss loss) override { return inner_.failover(now, loss); }

private:
    static Err<StoreError> dropped_request() { return Err{StoreError{"partition: request dropped", true}}; }
    static Err<StoreError> dropped_reply() { return Err{StoreError{"partition: reply dropped", true}}; }

    Store& inner_;
    std::optional<PartitionMode> mode_;
};

}  // namespace

EventView Simulation::run_event(Tick t, Phase phase, EventOp op, const Elector& e, const RunRecord& run) {
    EventView ev;
    ev.tick = t;
    ev.phase = phase;
    ev.op = op;
    ev.node = e.owner();
    ev.run = run.run;
    ev.token = run.token;
    return ev;
}

void Simulation::phase_faults(Tick t, Store& store, EventSink& sink, std::optional<StoreError>& failure) {
    while (fault_edge_at(t)) {
        const FaultEdge edge = fault_edges_[next_fault_edge_++];
        const Fault& f = scenario_->faults[static_cast<std::size_t>(edge.fault)];
        EventView ev;
        ev.tick = t;
        ev.phase = Phase::faults;
        if (f.node >= 0) ev.node = scenario_->candidates[static_cast<std::size_t>(f.node)].name;
        switch (f.kind) {
            case FaultKind::pause:
            case FaultKind::partition: node_fault_edge(t, f, edge.kind == EdgeKind::end, ev); break;
            case FaultKind::crash: {
                if (!crash_node(t, f.node)) continue;        // a second crash emits nothing
                if (!deferred_.empty()) undefer(f.node, t);  // its calls end with their replies (§16.4)
                ev.op = EventOp::crash;
                break;
            }
            case FaultKind::replica_link: {
                bool emitted = true;
                replication_edge(t, f, edge.kind, store, ev, emitted, failure);
                if (failure) return;
                if (!emitted) continue;
                break;
            }
            case FaultKind::restart: continue;  // a Redlock store's: RedlockRun has it (model.md §20.3)
            case FaultKind::failover: {
                if (f.promotes()) {
                    bool emitted = true;
                    replication_edge(t, f, edge.kind, store, ev, emitted, failure);
                    if (failure) return;
                    if (!emitted) continue;
                    break;
                }
                auto done = store.failover(t, f.lose);
                if (!done.ok()) {
                    failure = done.error();
                    return;
                }
                ev.op = EventOp::failover;
                ev.details.add(f.lose == FailoverLoss::all ? Detail::all : Detail::leases);
                break;
            }
            case FaultKind::clock_jump: {
                // A node's jump changes no decision of its elector (model.md
                // §3.3 rule 8): only the store's clock is stepped.
                if (f.node < 0) {
                    auto done = store.clock_jump(t, f.ms);
                    if (!done.ok()) {
                        failure = done.error();
                        return;
                    }
                    ev.node = "store";
                }
                ev.op = EventOp::clock_jump;
                ev.clock_ms = f.ms;
                break;
            }
            case FaultKind::delay: LS_ASSERT(false && "a delay has no edges"); break;
        }
        emit(sink, ev);
    }
}

// A pause's or a partition's edge at t (model.md §7.1, §7.2): the node's
// state and the event's op and detail.
void Simulation::node_fault_edge(Tick t, const Fault& f, bool is_end, EventView& ev) {
    auto& nf = node_faults_[static_cast<std::size_t>(f.node)];
    if (f.kind == FaultKind::pause) {
        nf.pauses_active += is_end ? -1 : 1;
        LS_ASSERT(nf.pauses_active >= 0);
        nf.paused = nf.pauses_active > 0;
        ev.op = is_end ? EventOp::resume : EventOp::pause;
        // A due entry met while paused was dropped: file it again,
        // with the answers that came meanwhile (model.md §16.3).
        if (!nf.paused) arm(f.node);
        if (!nf.paused && !deferred_.empty()) undefer(f.node, t);
        return;
    }
    nf.partitions_active += is_end ? -1 : 1;
    LS_ASSERT(nf.partitions_active >= 0);
    if (is_end) {
        // The partition that began at this very tick, if any, stays.
        if (nf.partitions_active == 0) nf.partition.reset();
        ev.op = EventOp::heal;
    } else {
        nf.partition = f.mode;
        ev.op = EventOp::partition;
        ev.details.add(f.mode == PartitionMode::drop_replies ? Detail::drop_replies : Detail::drop_requests);
    }
}

bool Simulation::crash_node(Tick t, NodeIndex n) {
    auto& nf = node_faults_[static_cast<std::size_t>(n)];
    if (nf.crashed) return false;
    nf.crashed = true;
    const auto node = static_cast<std::size_t>(n);
    const bool was_finished = electors_[node].state() == ElectorState::finished;
    if (electors_[node].executing()) {
        auto it = std::lower_bound(executing_.begin(), executing_.end(), n);
        LS_ASSERT(it != executing_.end() && *it == n);
        executing_.erase(it);
    }
    electors_[node].crash(t);
    note_finished(node, was_finished);
    return true;
}

void Simulation::phase_expiry(Tick t, Store& store, EventSink& sink, std::optional<StoreError>& failure) {
    expire_primary(t, store, sink, failure);
    // An old primary living on expires its own records too (model.md §17.5 rule 1).
    if (!failure && split_fault_ >= 0) expire_old_primary(t, store, sink, failure);
}

void Simulation::expire_primary(Tick t, Store& store, EventSink& sink, std::optional<StoreError>& failure) {
    if (model_ != nullptr) {
        // Nothing due: no call, no list (the common tick).
        if (model_->nothing_expires(t)) return;
        expired_.clear();
        model_->do_expire(t, expired_);
        for (const ExpiredRecord& r : expired_) emit_built(sink, [&] { return expire_event(t, r); });
        return;
    }
    StoreResult<std::vector<ExpiredRecord>> from_store = store.expire(t);
    if (!from_store.ok()) {
        failure = from_store.error();
        return;
    }
    for (const ExpiredRecord& r : from_store.value()) emit_built(sink, [&] { return expire_event(t, r); });
}

EventView Simulation::expire_event(Tick t, const ExpiredRecord& r) {
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
    return ev;
}

void Simulation::phase_work(Tick t, Store& store, EventSink& sink, std::optional<StoreError>& failure) {
    // Writes and releases arriving now come before this tick's sends (model.md §16.3).
    if (!wire_.empty()) {
        deliver(t, Phase::work, store, sink, failure);
        if (failure) return;
    }
    // Walks the executing nodes in declared order, keeping those still
    // executing in place (kept = how many so far).
    std::size_t kept = 0;
    std::size_t next = 0;
    struct Compact {
        std::vector<NodeIndex>& list;
        std::size_t& kept;
        std::size_t& next;
        // Also on an early return: the nodes not reached stay executing.
        ~Compact() {
            while (next < list.size()) list[kept++] = list[next++];
            list.resize(kept);
        }
    } compact{executing_, kept, next};
    while (next < executing_.size()) {
        const NodeIndex node = executing_[next++];
        const auto i = static_cast<std::size_t>(node);
        executing_[kept++] = node;
        Elector& e = electors_[i];
        LS_ASSERT(e.executing());
        if (!node_faults_[i].active() || !e.works_at(t)) continue;
        // Most steps of an action only progress: no write, failure or end is
        // due (Elector::quiet_advances, as skip_quiet_ticks uses it).
        if (e.quiet_advances() > 0) {
            e.advance_quietly(1);
            continue;
        }
        WorkEffect effect = e.advance(t);
        if (effect.check) {
            // Check, then act (model.md §5.8): the answer may come later.
            if (call_on_wire(node, t)) {
                send_call(EventOp::validate, node, t, 0, store, sink, failure);
                if (failure) return;
                continue;
            }
            effect = check_now(node, t, store, sink, failure);
            if (failure) return;
        }
        if (work_effect(node, t, effect, store, sink, failure)) --kept;  // no longer executing
        if (failure) return;
    }
}

// The check of a node without time on the wire (model.md §5.8): validate(own
// token) in this tick, through the node's partition, and its event.
WorkEffect Simulation::check_now(NodeIndex node, Tick t, Store& store, EventSink& sink,
                                 std::optional<StoreError>& failure) {
    const auto i = static_cast<std::size_t>(node);
    Elector& e = electors_[i];
    const Routed routed(store, server_of(node));
    StoreResult<Validity> validity = Err{StoreError{"partition", true}};
    if (node_faults_[i].partition) {
        // Either mode: the node hears no answer (the read changes nothing).
    } else if (model_ != nullptr) {
        validity = model_->do_validate(t, e.latest_run()->token);
    } else {
        validity = store.validate(t, e.latest_run()->token);
        if (!validity.ok()) {
            failure = validity.error();
            return WorkEffect{};
        }
    }
    emit_built(sink, [&] {
        EventView ev = check_event(t, e, *e.latest_run(), validity);
        ev.server = routed.server();
        return ev;
    });
    return e.learn_check(t, validity.ok() && validity.value() == Validity::current);
}

// The event of a node's own check (model.md §5.8, §12.3): op validate in the
// work phase, the node itself named in its detail.
EventView Simulation::check_event(Tick t, const Elector& e, const RunRecord& run,
                                  const StoreResult<Validity>& validity) {
    EventView ev = run_event(t, Phase::work, EventOp::validate, e, run);
    ev.named_node = e.owner();
    if (!validity.ok()) {
        ev.outcome = Outcome::error;
        return ev;
    }
    ev.outcome = outcome_of(validity.value());
    return ev;
}

// What one step of the action does at t (model.md §5.3, §5.4): its write,
// then, if the action ends, the release. True when the node no longer
// executes (the caller takes it out of the executing list).
bool Simulation::work_effect(NodeIndex node, Tick t, const WorkEffect& effect, Store& store, EventSink& sink,
                             std::optional<StoreError>& failure) {
    const auto i = static_cast<std::size_t>(node);
    Elector& e = electors_[i];
    const RunRecord& run = *e.latest_run();
    if (effect.write) {
        if (write_on_wire(node, t)) {
            send_write(node, t);
        } else {
            write_arrives(t, call_for(EventOp::write, node, t), store, sink, failure);
            if (failure) return false;
        }
    }
    if (!effect.ended) return false;
    if (call_on_wire(node, t)) {
        // The release takes time: the run ends when its answer comes (§16.4).
        const Tick keep = e.begin_release(t, *effect.ended);
        note_finished(i, false);
        send_call(EventOp::release, node, t, keep, store, sink, failure);
        return true;
    }
    const Fencing fencing = *run.fencing;
    const Routed routed(store, server_of(node));
    auto reply = [&] {
        if (model_ != nullptr && !node_faults_[i].partition) return e.end_action(t, *effect.ended, *model_);
        PartitionChannel channel(store, node_faults_[i].partition);
        return e.end_action(t, *effect.ended, channel);
    }();
    note_finished(i, false);
    arm(node);
    emit_built(sink, [&] {
        EventView ev = release_event(t, e, *e.latest_run(), fencing, reply);
        ev.server = routed.server();
        return ev;
    });
    return true;
}

// A write judged by the resource at its arrival tick t (model.md §8, §16.5):
// the writer's validity then, the verdict (judge_write) and its event.
void Simulation::write_arrives(Tick t, const Call& write, Store& store, EventSink& sink,
                               std::optional<StoreError>& failure) {
    Validity validity_value = Validity::vacant;
    if (model_ != nullptr) {
        validity_value = model_->do_validate(t, write.token);
    } else {
        auto validity = store.validate(t, write.token);
        if (!validity.ok()) {
            failure = validity.error();
            return;
        }
        validity_value = validity.value();
    }
    const WriteVerdict verdict = judge_write(write.holding, write.fencing, validity_value == Validity::current);
    emit_built(sink, [&] {
        EventView ev;
        ev.tick = t;
        ev.phase = Phase::work;
        ev.op = EventOp::write;
        ev.node = electors_[static_cast<std::size_t>(write.node)].owner();
        ev.run = write.run;
        ev.token = write.token;
        ev.fencing = write.fencing;
        ev.outcome = verdict.accepted ? Outcome::accepted : Outcome::rejected;
        if (write.sent != t) ev.sent = write.sent;
        ev.details = verdict.marks;
        return ev;
    });
}

// The protected resource's verdict on one write at its arrival, and its
// marks (model.md §8; §9.3, §9.6, §9.7): the only place that judges a write.
// `current`: the writer's token is current at the arrival tick; `holding`:
// the writer's slot and acquisition when it sent the write.
Simulation::WriteVerdict Simulation::judge_write(const Holding& holding, Fencing fencing, bool current) {
    const auto& highest = resource_.highest_accepted;
    const bool below = highest && fencing < *highest;
    WriteVerdict v;
    switch (scenario_->resource) {
        case ResourceMode::off: v.accepted = true; break;
        case ResourceMode::check: v.accepted = !below; break;
        case ResourceMode::validate: v.accepted = current; break;
    }
    if (!current) v.marks.add(Detail::stale);
    if (!v.accepted) {
        ++resource_.rejected;
        if (current) {
            v.marks.add(Detail::holder_rejected);
            ++violations_.holder_rejected;
        }
        return v;
    }
    // unsafe_write is defined for mode off only: validate does not compare
    // fencing numbers, and check never accepts one below.
    if (below && scenario_->resource == ResourceMode::off) {
        v.marks.add(Detail::unsafe_write);
        ++violations_.unsafe_write;
    }
    // A successor of the writer's slot had a write accepted before: a lost update.
    LS_ASSERT(holding.acquisition >= 0);
    std::int64_t& latest = slot_latest_writer_[static_cast<std::size_t>(holding.slot)];
    if (latest > holding.acquisition) {
        v.marks.add(Detail::stale_after_successor);
        ++violations_.stale_after_successor;
    }
    latest = std::max(latest, holding.acquisition);
    ++resource_.accepted;
    resource_.highest_accepted = highest ? std::max(*highest, fencing) : fencing;
    return v;
}

EventView Simulation::release_event(Tick t, const Elector& e, const RunRecord& run, Fencing fencing,
                                    const StoreResult<ReleaseReply>& reply) {
    EventView ev = run_event(t, Phase::work, EventOp::release, e, run);
    ev.fencing = fencing;
    if (!reply.ok()) {
        ev.outcome = Outcome::error;
        if (reply.error().no_replicas) ev.details.add(Detail::no_replicas);
        return ev;
    }
    const ReleaseReply& r = reply.value();
    switch (r.outcome) {
        case ReleaseOutcome::released:
            ev.outcome = Outcome::released;
            ev.slot = r.slot;
            break;
        case ReleaseOutcome::kept:
            ev.outcome = Outcome::kept;
            ev.slot = r.slot;
            ev.ttl = r.until - t;
            break;
        case ReleaseOutcome::not_owner: ev.outcome = Outcome::not_owner; break;
    }
    return ev;
}

EventView Simulation::extend_event(Tick t, const Elector& e, const RunRecord& run,
                                   const StoreResult<ExtendReply>& reply) {
    EventView ev = run_event(t, Phase::extend, EventOp::extend, e, run);
    ev.fencing = run.fencing;
    if (!reply.ok()) {
        ev.outcome = Outcome::error;
        if (reply.error().no_replicas) ev.details.add(Detail::no_replicas);
    } else if (reply.value().renewed) {
        ev.outcome = Outcome::renewed;
        ev.slot = reply.value().slot;
        ev.ttl = e.options().lease;
    } else {
        ev.outcome = Outcome::lost;
    }
    return ev;
}

void Simulation::phase_extend(Tick t, Store& store, EventSink& sink) {
    // The model store never fails; live mode refuses latencies (sim/live).
    std::optional<StoreError> failure;
    if (!wire_.empty()) deliver(t, Phase::extend, store, sink, failure);
    LS_ASSERT(!failure);
    // Only an executing node has a watchdog.
    for (const NodeIndex node : executing_) {
        const auto i = static_cast<std::size_t>(node);
        Elector& e = electors_[i];
        // Several runs fall in one tick when the period is shorter than a tick.
        while (e.extend_due(t, node_faults_[i].active())) {
            if (call_on_wire(node, t)) {
                e.begin_extend(t);  // the watchdog waits for the answer (§16.4)
                send_call(EventOp::extend, node, t, 0, store, sink, failure);
                LS_ASSERT(!failure);
                break;
            }
            const Routed routed(store, server_of(node));
            auto reply = [&] {
                if (model_ != nullptr && !node_faults_[i].partition) return e.extend(t, *model_);
                PartitionChannel channel(store, node_faults_[i].partition);
                return e.extend(t, channel);
            }();
            emit_built(sink, [&] {
                EventView ev = extend_event(t, e, *e.latest_run(), reply);
                ev.server = routed.server();
                return ev;
            });
        }
    }
}

void Simulation::phase_acquire(Tick t, Store& store, EventSink& sink) {
    std::optional<StoreError> failure;  // never from the model store (see phase_extend)
    if (!wire_.empty()) deliver(t, Phase::acquire, store, sink, failure);
    LS_ASSERT(!failure);
    // Nothing filed at or before t (most ticks): nothing to do.
    if (wake_queue_.empty() || wake_tick(wake_queue_.least()) > t) return;
    // The candidates: every node filed under a tick at or before t. Entries
    // are hints; the elector's predicates decide, as in a scan of all nodes.
    acting_.clear();
    wake_queue_.pop_through(wake_entry(t, wake_node_max),
                            [&](WakeQueue::Entry entry) { acting_.push_back(wake_node(entry)); });
    std::sort(acting_.begin(), acting_.end());
    acting_.erase(std::unique(acting_.begin(), acting_.end()), acting_.end());
    const bool prefetch = electors_.size() >= prefetch_from_nodes;
    if (prefetch) {
        for (const NodeIndex n : acting_) electors_[static_cast<std::size_t>(n)].prefetch();
    }
    acting_.erase(std::remove_if(acting_.begin(), acting_.end(),
                                 [&](NodeIndex n) {
                                     const auto i = static_cast<std::size_t>(n);
                                     const bool active = node_faults_[i].active();
                                     return !(electors_[i].run_due(t, active) || electors_[i].attempt_due(t, active));
                                 }),
                  acting_.end());
    if (prefetch) {
        for (const NodeIndex n : acting_) electors_[static_cast<std::size_t>(n)].prefetch_beyond();
    }
    joined_.clear();
    if (scenario_->order == Order::shuffled) {
        for (std::size_t i = acting_.size(); i-- > 1;) {
            const std::size_t j = static_cast<std::size_t>(rng_.next() % (i + 1));
            std::swap(acting_[i], acting_[j]);
        }
    }
    for (const NodeIndex n : acting_) act_in_acquire_phase(t, n, store, sink);
    join_executing_all();
}

// One node that acts in phase 5: its run may start, then it attempts or gives
// up (model.md §5.2, §6.2); an attempt on the wire is answered later (§16.4).
void Simulation::act_in_acquire_phase(Tick t, NodeIndex n, Store& store, EventSink& sink) {
    std::optional<StoreError> failure;  // never from the model store (see phase_extend)
    const auto i = static_cast<std::size_t>(n);
    Elector& e = electors_[i];
    if (e.run_due(t, true)) {
        Token token = draw_token(rng_);
        if (tokens_ != nullptr) token = tokens_->next_token(token);
        e.begin_run(t, std::move(token));
        ++outcomes_held_;
        emit_built(sink, [&] { return run_event(t, Phase::acquire, EventOp::start, e, *e.latest_run()); });
    }
    std::optional<AcquireReply> lost_acquire;
    const Routed routed(store, server_of(n));
    if (call_on_wire(n, t, EventOp::acquire)) {
        // The request takes time: the answer comes later (§16.4).
        const std::optional<RunResult> gave_up = e.begin_attempt(t);
        if (!gave_up) {
            send_call(EventOp::acquire, n, t, 0, store, sink, failure);
            LS_ASSERT(!failure);
            // A WAIT with every latency 0 may answer in this very phase (§17.6).
            if (e.options().wait_replicas > 0) deliver(t, Phase::acquire, store, sink, failure);
            LS_ASSERT(!failure);
            return;
        }
        AttemptEffect effect;
        effect.ended = gave_up;
        after_attempt(t, n, effect, lost_acquire, routed, sink);
        return;
    }
    // Built in place, not assigned: the reply is a variant with a string in
    // its error, and this is the acquire phase's most frequent path.
    const AttemptEffect effect = [&] {
        if (model_ != nullptr && !node_faults_[i].partition) return e.attempt(t, *model_);
        PartitionChannel channel(store, node_faults_[i].partition);
        AttemptEffect attempted = e.attempt(t, channel);
        lost_acquire = channel.lost_acquire;
        return attempted;
    }();
    after_attempt(t, n, effect, lost_acquire, routed, sink);
}

// What follows an attempt in phase 5, or a run that gave up before one: the
// node joins the executing ones or is armed again, and the events.
void Simulation::after_attempt(Tick t, NodeIndex n, const AttemptEffect& effect,
                               const std::optional<AcquireReply>& lost_acquire, const Routed& routed, EventSink& sink) {
    const auto i = static_cast<std::size_t>(n);
    Elector& e = electors_[i];
    if (e.executing()) {
        joined_.push_back(n);
    } else {
        note_finished(i, false);
        arm(n);
    }
    const RunRecord& run = *e.latest_run();
    if (effect.reply) {
        const std::optional<Issue> judged = note_acquire(e, *effect.reply, lost_acquire);
        emit_built(sink, [&] {
            EventView ev = acquire_event(t, e, run, *effect.reply, lost_acquire, judged);
            ev.server = routed.server();
            return ev;
        });
    }
    if (effect.ended == RunResult::skipped) emit_built(sink, [&] { return skip_event(t, e, run); });
}

// The nodes that acquired in this phase join the executing ones, in declared order.
void Simulation::join_executing_all() {
    if (joined_.empty()) return;
    std::sort(joined_.begin(), joined_.end());
    const auto middle = static_cast<std::ptrdiff_t>(executing_.size());
    executing_.insert(executing_.end(), joined_.begin(), joined_.end());
    std::inplace_merge(executing_.begin(), executing_.begin() + middle, executing_.end());
    joined_.clear();
}

// A fresh acquisition as the store issues it: whether its number is not above
// every number issued before (§9.4) or equal to one (§9.8), and its place in
// the acquisition order (§9.6); the numbers issued so far are updated.
Simulation::Issue Simulation::issue(const AcquireReply& acquired) {
    Issue out;
    out.regressed = highest_issued_ && acquired.fencing <= *highest_issued_;
    // Every fresh acquisition is a new token (model.md §9.8).
    out.duplicate = issued_.contains(acquired.fencing);
    highest_issued_ = highest_issued_ ? std::max(*highest_issued_, acquired.fencing) : acquired.fencing;
    issued_.add(acquired.fencing);
    out.acquisition = acquisitions_++;
    return out;
}

std::optional<Simulation::Issue> Simulation::note_acquire(const Elector& e, const StoreResult<AcquireReply>& reply,
                                                          const std::optional<AcquireReply>& lost_acquire,
                                                          const Issue* issued) {
    const AcquireReply* applied = applied_acquire(reply, lost_acquire);
    if (applied == nullptr || !applied->acquired || !applied->fresh) return std::nullopt;
    const Issue judged = issued != nullptr ? *issued : issue(*applied);
    if (judged.regressed) ++violations_.fencing_regressed;
    if (judged.duplicate) ++violations_.fencing_duplicate;
    // The holder's place in the acquisition order of §9.6.
    const auto node = static_cast<std::size_t>(&e - electors_.data());
    holdings_[node] = Holding{applied->slot, judged.acquisition};
    return judged;
}

// The acquire event of one attempt, with the reply the store applied whether
// or not the node heard it, and the marks of its issue (§9.4, §9.8).
EventView Simulation::acquire_event(Tick t, const Elector& e, const RunRecord& run,
                                    const StoreResult<AcquireReply>& reply,
                                    const std::optional<AcquireReply>& lost_acquire,
                                    const std::optional<Issue>& judged) {
    EventView ev = run_event(t, Phase::acquire, EventOp::acquire, e, run);
    const AcquireReply* applied = applied_acquire(reply, lost_acquire);
    if (!reply.ok()) {
        ev.outcome = Outcome::error;
        if (applied != nullptr) ev.details.add(Detail::reply_lost);
        if (reply.error().no_replicas) ev.details.add(Detail::no_replicas);
        // Only an acquired reply is kept when the node did not hear it.
        if (applied == nullptr) return ev;
    }
    if (applied->acquired) {
        if (reply.ok()) ev.outcome = Outcome::acquired;
        ev.fencing = applied->fencing;
        ev.slot = applied->slot;
        ev.ttl = applied->ttl;
        if (judged && judged->regressed) ev.details.add(Detail::fencing_regressed);
        if (judged && judged->duplicate) ev.details.add(Detail::fencing_duplicate);
    } else {
        ev.outcome = Outcome::busy;
        ev.ttl = applied->remaining;
        if (applied->reason == BusyReason::hold_off) ev.details.add(Detail::hold_off);
    }
    return ev;
}

// A run that gave up without an attempt (model.md §6.2).
EventView Simulation::skip_event(Tick t, const Elector& e, const RunRecord& run) {
    EventView ev = run_event(t, Phase::acquire, EventOp::skip, e, run);
    ev.outcome = Outcome::skipped;
    return ev;
}

void Simulation::phase_ops(Tick t, Store& store, EventSink& sink, std::optional<StoreError>& failure) {
    while (op_at(t)) {
        const Op& op = scenario_->ops[static_cast<std::size_t>(op_order_[next_op_++])];
        EventView ev;
        ev.tick = t;
        ev.phase = Phase::ops;
        ev.node = op.actor;
        if (op.op == OpKind::status) {
            ev.op = EventOp::status;
            auto status = store.status(t);
            if (!status.ok()) {
                failure = status.error();
                return;
            }
            ev.outcome = status.value().held() ? Outcome::held : Outcome::vacant;
        } else {
            ev.op = EventOp::validate;
            const Elector& named = electors_[static_cast<std::size_t>(op.token_of)];
            ev.named_node = named.owner();
            const RunRecord* run = named.latest_run();
            if (run == nullptr) {
                ev.outcome = Outcome::vacant;
            } else {
                ev.token = run->token;
                auto validity = store.validate(t, run->token);
                if (!validity.ok()) {
                    failure = validity.error();
                    return;
                }
                ev.outcome = outcome_of(validity.value());
            }
        }
        emit(sink, ev);
    }
}

void Simulation::phase_check(Tick t, Store& /*store*/, EventSink& sink) {
    const auto executing = static_cast<std::int64_t>(executing_.size());
    const bool over = executing > scenario_->lock.capacity;
    if (over == in_overlap_) return;
    in_overlap_ = over;
    EventView ev;
    ev.tick = t;
    ev.phase = Phase::check;
    if (over) {
        ev.op = EventOp::overlap_begin;
        ev.overlap_count = executing;
        ++violations_.overlap;
    } else {
        ev.op = EventOp::overlap_end;
    }
    emit(sink, ev);
}

}  // namespace leasescope::sim

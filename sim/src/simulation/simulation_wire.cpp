// Messages on the wire (docs/model.md §16): calls whose request and reply take
// ticks, and writes that arrive after they were sent. With every latency 0 and
// no delay none of this runs: the phases take their immediate path.
#include <algorithm>
#include <functional>

#include "leasescope/sim/simulation.hpp"

namespace leasescope::sim {
namespace {

Phase phase_of(EventOp op) {
    switch (op) {
        case EventOp::acquire: return Phase::acquire;
        case EventOp::extend: return Phase::extend;
        default: return Phase::work;  // release, write and a check (model.md §5.8)
    }
}

Err<StoreError> timeout_error() { return Err{StoreError{"command timeout", true}}; }

}  // namespace

Tick Simulation::arrival(NodeIndex node, Link link, Tick sent) const {
    Tick at = sent + scenario_->candidates[static_cast<std::size_t>(node)].network.of(link);
    for (const std::int32_t k : delays_) {
        const Fault& d = scenario_->faults[static_cast<std::size_t>(k)];
        if (d.node == node && d.link == link && d.at <= sent && sent < d.at + d.ticks) at += d.extra;
    }
    return at;
}

// A partitioned call is not on the wire: it fails at once (§16.2).
bool Simulation::call_on_wire(NodeIndex node, Tick t, EventOp op) const {
    const auto i = static_cast<std::size_t>(node);
    if (latent_[i] == 0 || node_faults_[i].partition) return false;
    // An acquire that may WAIT blocks at the store (model.md §17.6 rule 7).
    if (op == EventOp::acquire && electors_[i].options().wait_replicas > 0) return true;
    return arrival(node, Link::request, t) > t || arrival(node, Link::reply, t) > t;
}

bool Simulation::write_on_wire(NodeIndex node, Tick t) const {
    return latent_[static_cast<std::size_t>(node)] != 0 && arrival(node, Link::write, t) > t;
}

std::int32_t Simulation::new_call(EventOp op, NodeIndex node, Tick t) {
    std::int32_t id = 0;
    if (free_calls_.empty()) {
        id = static_cast<std::int32_t>(calls_.size());
        calls_.emplace_back();
    } else {
        id = free_calls_.back();
        free_calls_.pop_back();
        calls_[static_cast<std::size_t>(id)] = Call{};
    }
    Call& c = calls_[static_cast<std::size_t>(id)];
    c = call_for(op, node, t);
    c.number = sends_++;
    c.timeout_at = t + electors_[static_cast<std::size_t>(node)].options().command_timeout_ticks();
    return id;
}

Simulation::Call Simulation::call_for(EventOp op, NodeIndex node, Tick t) const {
    const RunRecord& run = *electors_[static_cast<std::size_t>(node)].latest_run();
    Call c;
    c.op = op;
    c.node = node;
    c.run = run.run;
    c.token = run.token;
    c.fencing = run.fencing.value_or(0);
    c.sent = t;
    if (op == EventOp::write) c.holding = holdings_[static_cast<std::size_t>(node)];
    return c;
}

void Simulation::free_call(std::int32_t id) { free_calls_.push_back(id); }

// A call is done once nothing of it is on the wire and its event is told:
// the node learned its answer and the store applied it (a write: judged).
void Simulation::free_if_done(std::int32_t id) {
    const Call& c = calls_[static_cast<std::size_t>(id)];
    if (c.entries == 0 && c.ended && (c.applied != tick_none || c.op == EventOp::write)) free_call(id);
}

void Simulation::push(const Arrival& a) {
    ++calls_[static_cast<std::size_t>(a.call)].entries;
    wire_.push_back(a);
    std::push_heap(wire_.begin(), wire_.end(), std::greater<>{});
}

void Simulation::send_write(NodeIndex node, Tick t) {
    const std::int32_t id = new_call(EventOp::write, node, t);
    push(Arrival{arrival(node, Link::write, t), Phase::work, t, calls_[static_cast<std::size_t>(id)].number,
                 Stage::write, id});
}

// The request goes out; if it arrives now the store applies it at once, else
// at its arrival. A request slower than the timeout also gets its timeout.
void Simulation::send_call(EventOp op, NodeIndex node, Tick t, Tick keep_for, Store& store, EventSink& sink,
                           std::optional<StoreError>& failure, std::optional<Fencing> unlock) {
    const std::int32_t id = new_call(op, node, t);
    Call& c = calls_[static_cast<std::size_t>(id)];
    c.keep_for = keep_for;
    if (unlock) {
        c.unlock = true;
        c.fencing = *unlock;
    }
    const std::int64_t number = c.number;
    const Tick request_at = arrival(node, Link::request, t);
    if (request_at > c.timeout_at) push(Arrival{c.timeout_at, call_phase(c), t, number, Stage::timeout, id});
    if (request_at == t) {
        apply_request(id, t, store, sink, failure);
    } else {
        push(Arrival{request_at, call_phase(calls_[static_cast<std::size_t>(id)]), t, number, Stage::request, id});
    }
}

// An unlock after a failed WAIT is sent in the acquire phase and answered there (model.md §17.6).
Phase Simulation::call_phase(const Call& c) const { return c.unlock ? Phase::acquire : phase_of(c.op); }

// Handles what arrives at t in `phase`, in (sent, send number) order (§16.3).
void Simulation::deliver(Tick t, Phase phase, Store& store, EventSink& sink, std::optional<StoreError>& failure) {
    // Nothing is ever filed for a tick gone by; `<` only keeps a slip from stalling the wire.
    while (!failure && !wire_.empty() &&
           (wire_.front().at < t || (wire_.front().at == t && wire_.front().phase <= phase))) {
        std::pop_heap(wire_.begin(), wire_.end(), std::greater<>{});
        const Arrival a = wire_.back();
        wire_.pop_back();
        Call& c = calls_[static_cast<std::size_t>(a.call)];
        const NodeFaults& nf = node_faults_[static_cast<std::size_t>(c.node)];
        const bool answer_stage = a.stage == Stage::reply || a.stage == Stage::timeout;
        if (answer_stage && nf.paused && !nf.crashed && !c.ended) {
            deferred_.push_back(a);  // handled at the node's first active tick (still counted in entries)
            continue;
        }
        --c.entries;
        if (a.stage == Stage::request) {
            apply_request(a.call, t, store, sink, failure);
        } else if (a.stage == Stage::wait) {
            // WAIT blocks at the store whoever listens; a timed-out call's WAIT is not asked again.
            if (!c.ended && wait_step(c, a.call, t, store, failure) && !failure) send_reply(a.call, t);
        } else if (a.stage == Stage::write) {
            write_arrives(t, c, store, sink, failure);
            c.ended = true;
        } else if (c.ended) {
            // Already answered (a duplicate after a crash): nothing more to tell.
        } else if (nf.crashed && a.stage == Stage::timeout) {
            // A crashed node waits for nothing: its call ends with the reply.
            if (c.applied != tick_none)
                push(Arrival{std::max(c.reply_at, t), a.phase, a.sent, a.number, Stage::reply, a.call});
        } else {
            answer(a.call, t, a.stage == Stage::timeout, store, sink, failure);
        }
        free_if_done(a.call);
    }
    if (phase == Phase::acquire) join_executing_all();
}

void Simulation::apply_request(std::int32_t id, Tick t, Store& store, EventSink& sink,
                               std::optional<StoreError>& failure) {
    Call& c = calls_[static_cast<std::size_t>(id)];
    const Elector& e = electors_[static_cast<std::size_t>(c.node)];
    c.applied = t;
    const Routed routed(store, server_of(c.node));
    c.server = routed.server();
    // An error reply (-NOREPLICAS, model.md §17.4) is the call's answer; any
    // other store error stops the run.
    const auto take = [&](auto&& r, auto& slot) {
        if (r.ok()) {
            slot = r.value();
        } else if (r.error().no_replicas) {
            c.error = r.error();
        } else {
            failure = r.error();
        }
    };
    if (c.op == EventOp::acquire) {
        take(store.acquire(t, e.owner(), c.token, e.options().lease), c.acquire);
        if (c.acquire && c.acquire->acquired && c.acquire->fresh) c.issued = issue(*c.acquire);
    } else if (c.op == EventOp::extend) {
        take(store.extend(t, c.token, e.options().lease), c.extend);
    } else if (c.op == EventOp::validate) {
        take(store.validate(t, c.token), c.validity);
    } else {
        take(store.release(t, c.token, c.keep_for, c.unlock ? 0 : e.options().hold_off), c.release);
    }
    if (failure) return;
    // WAIT in one batch with a fresh acquisition (§17.6 rule 1): the reply leaves when it answers.
    if (c.acquire && c.issued && e.options().wait_replicas > 0 && !c.ended) {
        c.wait_until = t + e.options().wait_timeout_ticks();
        if (!wait_step(c, id, t, store, failure)) {
            // Blocked: the call's timeout may come first (§16.4).
            if (c.timeout_at < c.wait_until)
                push(Arrival{c.timeout_at, call_phase(c), c.sent, c.number, Stage::timeout, id});
            return;
        }
        if (failure) return;
    }
    if (c.ended) {
        // A check read nothing that changed: nothing more to tell (§16.6).
        if (c.op != EventOp::validate) late_application(id, t, sink);
        return;
    }
    send_reply(id, t);
}

void Simulation::send_reply(std::int32_t id, Tick t) {
    Call& c = calls_[static_cast<std::size_t>(id)];
    c.reply_at = arrival(c.node, Link::reply, t);
    const bool crashed = node_faults_[static_cast<std::size_t>(c.node)].crashed;
    // Past its timeout the call's timeout is already filed (sent with the
    // request, perhaps deferred for a pause): it tells this application.
    if (!crashed && t > c.timeout_at) return;
    const Phase phase = call_phase(c);
    const Arrival at_reply{c.reply_at, phase, c.sent, c.number, Stage::reply, id};
    if (crashed || c.reply_at <= c.timeout_at) {
        push(at_reply);
    } else {
        push(Arrival{c.timeout_at, phase, c.sent, c.number, Stage::timeout, id});
    }
}

void Simulation::undefer(NodeIndex node, Tick t) {
    for (std::size_t k = 0; k < deferred_.size();) {
        if (calls_[static_cast<std::size_t>(deferred_[k].call)].node != node) {
            ++k;
            continue;
        }
        Arrival a = deferred_[k];
        a.at = t;
        wire_.push_back(a);  // still counted in its call's entries
        std::push_heap(wire_.begin(), wire_.end(), std::greater<>{});
        deferred_.erase(deferred_.begin() + static_cast<std::ptrdiff_t>(k));
    }
}

// The node learns the answer at t: the reply, or the timeout (§16.4). A
// crashed node learns nothing; its call is reported as an error.
void Simulation::answer(std::int32_t id, Tick t, bool timed_out, Store& store, EventSink& sink,
                        std::optional<StoreError>& failure) {
    Call& c = calls_[static_cast<std::size_t>(id)];
    LS_ASSERT(!c.ended);
    c.ended = true;
    const bool learned = !node_faults_[static_cast<std::size_t>(c.node)].crashed;
    const bool failed = timed_out || !learned;
    // The answer: the timeout, the store's error reply (§17.4) or its reply.
    const auto result = [&](const auto& value) -> StoreResult<std::decay_t<decltype(*value)>> {
        if (failed) return timeout_error();
        if (c.error) return Err{*c.error};
        return *value;
    };
    switch (c.op) {
        case EventOp::acquire: answer_acquire(c, t, result(c.acquire), learned, sink, store, failure); break;
        case EventOp::extend: answer_extend(c, t, result(c.extend), learned, sink); break;
        case EventOp::validate: answer_check(c, t, result(c.validity), learned, store, sink, failure); break;
        default: answer_release(c, t, result(c.release), learned, sink); break;
    }
}

// The trailing keys of a call's event (model.md §12.1): only when they differ.
static void stamp(EventView& ev, Tick sent, Tick applied) {
    if (sent != ev.tick) ev.sent = sent;
    if (applied != tick_none && applied != ev.tick) ev.applied = applied;
}

void Simulation::stamp_answer(EventView& ev, const Call& c) {
    ev.run = c.run;
    ev.token = c.token;
    stamp(ev, c.sent, c.applied);
    ev.server = c.server;
}

void Simulation::answer_acquire(Call& c, Tick t, const StoreResult<AcquireReply>& reply, bool learned, EventSink& sink,
                                Store& store, std::optional<StoreError>& failure) {
    const NodeIndex node = c.node;
    const auto i = static_cast<std::size_t>(node);
    Elector& e = electors_[i];
    const bool was_finished = e.state() == ElectorState::finished;
    // Too few replicas acknowledged: the client treats the acquisition as failed (model.md §17.6 rule 4).
    const bool unsynced = reply.ok() && c.wait_count >= 0 && c.wait_count < e.options().wait_replicas;
    AttemptEffect effect;
    if (learned) {
        effect = e.learn_acquire(
            t, unsynced ? StoreResult<AcquireReply>(Err{StoreError{"WAIT: too few replicas", false}}) : reply);
    }
    const RunRecord& run = *e.latest_run();
    const std::optional<AcquireReply> lost = reply.ok() ? std::nullopt : c.acquire;
    const std::optional<Issue> judged = note_acquire(e, reply, lost, c.issued ? &*c.issued : nullptr);
    emit_built(sink, [&] {
        EventView ev = acquire_event(t, e, run, reply, lost, judged);
        stamp_answer(ev, c);
        return ev;
    });
    if (learned && reply.ok() && c.wait_count >= 0) answer_wait(c, t, sink, store, failure);  // `c` may move
    if (!learned) return;
    if (e.executing()) {
        joined_.push_back(node);
    } else {
        note_finished(i, was_finished);
        arm(node);
    }
    if (effect.ended == RunResult::skipped) emit_built(sink, [&] { return skip_event(t, e, run); });
}

void Simulation::answer_extend(Call& c, Tick t, const StoreResult<ExtendReply>& reply, bool learned, EventSink& sink) {
    Elector& e = electors_[static_cast<std::size_t>(c.node)];
    const RunRecord& run = *e.latest_run();
    // An answer for a run that has ended changes nothing of the node (§16.6).
    if (learned && run.run == c.run && e.executing()) e.learn_extend(t, c.sent, reply);
    emit_built(sink, [&] {
        EventView ev = extend_event(t, e, run, reply);
        ev.fencing = c.fencing;
        stamp_answer(ev, c);
        return ev;
    });
}

void Simulation::answer_release(Call& c, Tick t, const StoreResult<ReleaseReply>& reply, bool learned,
                                EventSink& sink) {
    Elector& e = electors_[static_cast<std::size_t>(c.node)];
    // An unlock after a failed WAIT is not the end of a run: that run ended already (§17.6 rule 4).
    if (learned && !c.unlock) {
        e.learn_release(t);
        arm(c.node);
    }
    emit_built(sink, [&] {
        EventView ev = release_event(t, e, *e.latest_run(), c.fencing, reply);
        ev.phase = call_phase(c);
        stamp_answer(ev, c);
        return ev;
    });
}

// A check's answer learned at t (model.md §5.8): `current` sends the write
// now, anything else makes the action throw; either may end the action.
void Simulation::answer_check(Call& c, Tick t, const StoreResult<Validity>& reply, bool learned, Store& store,
                              EventSink& sink, std::optional<StoreError>& failure) {
    Elector& e = electors_[static_cast<std::size_t>(c.node)];
    emit_built(sink, [&] {
        EventView ev = check_event(t, e, *e.latest_run(), reply);
        stamp_answer(ev, c);
        return ev;
    });
    // A crashed node learns nothing; its run ended with the crash.
    if (!learned || !e.awaiting_check() || e.latest_run()->run != c.run) return;
    const NodeIndex node = c.node;  // `c` may move: the write and the release are new calls
    const WorkEffect effect = e.learn_check(t, reply.ok() && reply.value() == Validity::current);
    if (!work_effect(node, t, effect, store, sink, failure)) return;
    auto it = std::lower_bound(executing_.begin(), executing_.end(), node);
    LS_ASSERT(it != executing_.end() && *it == node);
    executing_.erase(it);
}

// A request applied after its call timed out: nobody waits for its reply, so
// what it did is reported now (§16.6), an acquire's slot as a lost reply's.
void Simulation::late_application(std::int32_t id, Tick t, EventSink& sink) {
    Call& c = calls_[static_cast<std::size_t>(id)];
    const Elector& e = electors_[static_cast<std::size_t>(c.node)];
    const RunRecord& run = *e.latest_run();
    EventView ev;
    if (c.op == EventOp::acquire) {
        const StoreResult<AcquireReply> timed_out = timeout_error();
        ev = acquire_event(t, e, run, timed_out, c.acquire,
                           note_acquire(e, timed_out, c.acquire, c.issued ? &*c.issued : nullptr));
    } else if (c.op == EventOp::extend) {
        ev = extend_event(t, e, run, timeout_error());
        ev.fencing = c.fencing;
    } else {
        ev = release_event(t, e, run, c.fencing, timeout_error());
        ev.phase = call_phase(c);
    }
    ev.run = c.run;
    ev.token = c.token;
    stamp(ev, c.sent, tick_none);
    emit(sink, ev);
}

}  // namespace leasescope::sim

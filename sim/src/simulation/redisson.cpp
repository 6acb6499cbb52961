// Redisson's RLock on one store, tick by tick (docs/model.md §21): the lock,
// renew and unlock scripts of redisson-parent-3.31.0, tryLock's wait for the
// unlock message or the TTL it was told, the watchdog, and what the resource
// sees. RL is redisson/src/main/java/org/redisson/RedissonLock.java and BL
// RedissonBaseLock.java at that tag.
#include "leasescope/sim/redisson.hpp"

#include <algorithm>
#include <tuple>

#include <fmt/format.h>

#include "client_run.hpp"
#include "leasescope/sim/simulation.hpp"

namespace leasescope::sim {

namespace {

// A client id as Redisson draws one (ServiceManager.java 117: a random
// UUID), from the seed, and the thread id 1 (rule 21.2.1).
Token draw_field(SplitMix64& rng) {
    const std::uint64_t a = rng.next();
    const std::uint64_t b = rng.next();
    return fmt::format("{:08x}-{:04x}-4{:03x}-{:04x}-{:012x}:1", a >> 32, (a >> 16) & 0xffffU, a & 0xfffU,
                       ((b >> 48) & 0x3fffU) | 0x8000U, b & 0xffffffffffffULL);
}

}  // namespace

RedissonRun::RedissonRun(const Scenario& scenario)
    : scenario_(&scenario), rng_(scenario.seed), model_(scenario), nodes_(scenario.candidates.size()) {
    for (std::size_t n = 0; n < nodes_.size(); ++n) {
        nodes_[n].next_run_at = scenario.candidates[n].options.start;
        nodes_[n].field = draw_field(rng_);
    }
    edges_ = client_run::fault_edges(scenario, last_edge_tick_);
}

std::int64_t RedissonRun::now_ms(NodeIndex n, Tick t) const {
    const Candidate& c = scenario_->candidates[static_cast<std::size_t>(n)];
    const DriftClock clock{scenario_->tick_ms, c.options.drift_ppm};
    return client_run::floor_div(clock.reading_at_tick(t) + nodes_[static_cast<std::size_t>(n)].jumps, 2);
}

std::int64_t RedissonRun::lease_ms(NodeIndex n) const {
    const ElectorOptions& o = scenario_->candidates[static_cast<std::size_t>(n)].options;
    return o.auto_extend ? scenario_->redisson.lock_watchdog_timeout_ms : o.lease * scenario_->tick_ms;
}

std::optional<PartitionMode> RedissonRun::partition_of(NodeIndex n, Tick t) const {
    for (const Fault& f : scenario_->faults)
        if (f.kind == FaultKind::partition && f.node == n && f.at <= t && t < f.end()) return f.mode;
    return std::nullopt;
}

EventView RedissonRun::node_event(Tick t, Phase phase, EventOp op, NodeIndex n) const {
    const RedissonNode* node = n >= 0 ? &nodes_[static_cast<std::size_t>(n)] : nullptr;
    return client_run::node_event(*scenario_, t, phase, op, n, node ? node->run : -1, node ? &node->field : nullptr);
}

void RedissonRun::emit(EventSink& sink, EventView& ev) {
    ev.seq = seq_++;
    sink.on_event_view(ev);
}

bool RedissonRun::step(Tick t, EventSink& sink) {
    phase_faults(t, sink);
    phase_expiry(t, sink);
    phase_work(t, sink);
    phase_extend(t, sink);
    phase_acquire(t, sink);
    phase_check(t, sink);
    return t >= scenario_->horizon || quiet_after(t);
}

// ---- Phase 1: faults (rule 21.7) ----

void RedissonRun::phase_faults(Tick t, EventSink& sink) {
    while (next_edge_ < edges_.size() && edges_[next_edge_].tick == t) {
        const FaultEdge& e = edges_[next_edge_++];
        fault_edge(t, scenario_->faults[static_cast<std::size_t>(e.fault)], e.end, sink);
    }
}

void RedissonRun::fault_edge(Tick t, const Fault& f, bool end, EventSink& sink) {
    EventView ev = node_event(t, Phase::faults, EventOp::pause, f.node);
    ev.run = -1;
    ev.token = {};
    switch (f.kind) {
        case FaultKind::pause: {
            RedissonNode& node = nodes_[static_cast<std::size_t>(f.node)];
            if (node.crashed) return;
            node.pauses += end ? -1 : 1;
            ev.op = end ? EventOp::resume : EventOp::pause;
            break;
        }
        case FaultKind::crash: {
            RedissonNode& node = nodes_[static_cast<std::size_t>(f.node)];
            if (node.crashed) return;
            node.crashed = true;
            if (node.state != RedissonState::idle && node.state != RedissonState::finished)
                node.results.back() = RunResult::crashed;
            node.state = RedissonState::finished;
            node.watchdog = false;  // the JVM is gone: nothing unlocks (rule 21.7.2)
            node.subscribed = false;
            ev.op = EventOp::crash;
            break;
        }
        case FaultKind::partition:
            ev.op = end ? EventOp::heal : EventOp::partition;
            if (!end)
                ev.details.add(f.mode == PartitionMode::drop_requests ? Detail::drop_requests : Detail::drop_replies);
            break;
        case FaultKind::clock_jump:
            ev.op = EventOp::clock_jump;
            ev.clock_ms = f.ms;
            if (f.node < 0) {
                // Live mode moves the real hash by the ticks its expiry moves (model.md §13.6 rule 3).
                const bool held = live_ != nullptr && model_.record().held;
                const Tick before = held ? model_.expiry_tick() : 0;
                model_.jump(2 * f.ms);
                if (held) live_->clock_jump((before - model_.expiry_tick()) * scenario_->tick_ms, t);
                ev.node = "store";
            } else {
                nodes_[static_cast<std::size_t>(f.node)].jumps += 2 * f.ms;
            }
            break;
        case FaultKind::failover:
        case FaultKind::replica_link:
        case FaultKind::restart:
        case FaultKind::delay: return;  // refused by the reader (rule 21.1.3)
    }
    emit(sink, ev);
}

// ---- Phase 2: expiry (§3.3 rule 5) ----

// The record the run holds is gone from the store: its TTL ran out.
void RedissonRun::phase_expiry(Tick t, EventSink& sink) {
    const RedissonRecord& record = model_.record();
    if (!record.held || ops().holder(t) == record.field) return;
    EventView ev;
    ev.tick = t;
    ev.phase = Phase::expiry;
    ev.op = EventOp::expire;
    ev.node = scenario_->candidates[static_cast<std::size_t>(record.owner)].name;
    ev.run = record.run;
    ev.token = record.field;
    ev.outcome = Outcome::expired;
    emit(sink, ev);
    model_.forget();
}

// ---- Phase 3: work (rules 21.5, 21.6) ----

void RedissonRun::phase_work(Tick t, EventSink& sink) {
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
        RedissonNode& node = nodes_[i];
        if (node.state != RedissonState::working || node.paused() || node.acquired_at == t) continue;
        const ElectorOptions& o = scenario_->candidates[i].options;
        const auto n = static_cast<NodeIndex>(i);
        ++node.progress;
        if (node.next_write < o.writes.size() && o.writes[node.next_write] == node.progress) {
            ++node.next_write;
            write(n, t, sink);
        }
        if (node.progress >= o.action) unlock(n, t, sink);
    }
}

// A write at the resource (rule 21.6): always accepted; stale when the
// writer's field does not hold the record, unsafe when another's does.
void RedissonRun::write(NodeIndex n, Tick t, EventSink& sink) {
    EventView ev = node_event(t, Phase::work, EventOp::write, n);
    ev.outcome = Outcome::accepted;
    const Token& mine = nodes_[static_cast<std::size_t>(n)].field;
    const std::optional<Token> holder = ops().holder(t);
    if (holder != mine) ev.details.add(Detail::stale);
    if (holder && *holder != mine) {
        ev.details.add(Detail::unsafe_write);
        ++violations_.unsafe_write;
    }
    emit(sink, ev);
}

// The unlock script (RL 344-368, rule 21.5.1). The watchdog stops whatever
// the answer (BL 293-296); the run stays elected (it did its work).
void RedissonRun::unlock(NodeIndex n, Tick t, EventSink& sink) {
    RedissonNode& node = nodes_[static_cast<std::size_t>(n)];
    node.watchdog = false;
    const std::optional<PartitionMode> cut = partition_of(n, t);
    EventView ev = node_event(t, Phase::work, EventOp::release, n);
    bool published = false;
    const RedissonAnswer answer =
        cut == PartitionMode::drop_requests ? RedissonAnswer::error : ops().unlock(node.field, lease_ms(n), t);
    if (live_ != nullptr) model_.follow_unlock(answer, lease_ms(n), t);  // rule 21.9.5
    if (answer == RedissonAnswer::error) {
        ev.outcome = Outcome::error;
    } else if (answer == RedissonAnswer::nil) {
        ev.outcome = Outcome::not_owner;  // nil: IllegalMonitorStateException (BL 304-308)
    } else if (answer == RedissonAnswer::zero) {
        ev.outcome = Outcome::kept;  // pexpire, answer 0
        ev.ttl = (lease_ms(n) + scenario_->tick_ms - 1) / scenario_->tick_ms;
    } else {
        ev.outcome = Outcome::released;  // del, PUBLISH 0, answer 1
        published = true;
    }
    if (cut == PartitionMode::drop_replies) ev.outcome = Outcome::error;
    emit(sink, ev);
    if (published) publish(n, t, sink);
    end_run(n, node.results.back());
}

// PUBLISH redisson_lock__channel:{name} 0 reaches the clients subscribed now
// (rules 21.5.2, 21.5.3): one permit each, or lost to a drop_replies partition.
void RedissonRun::publish(NodeIndex from, Tick t, EventSink& sink) {
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
        RedissonNode& node = nodes_[i];
        const auto n = static_cast<NodeIndex>(i);
        if (n == from || node.crashed || !node.subscribed) continue;
        EventView ev = node_event(t, Phase::work, EventOp::message, n);
        if (partition_of(n, t) == PartitionMode::drop_replies) {
            ev.outcome = Outcome::lost;
        } else {
            ev.outcome = Outcome::delivered;
            ++node.permits;  // LockPubSub.onMessage: getLatch().release() (LP 42-46)
        }
        emit(sink, ev);
    }
}

// ---- Phase 4: extend (rule 21.4) ----

void RedissonRun::phase_extend(Tick t, EventSink& sink) {
    const std::int64_t period = 2 * (scenario_->redisson.lock_watchdog_timeout_ms / 3);  // BL 161, half ms
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
        RedissonNode& node = nodes_[i];
        if (node.paused() || node.crashed) continue;
        const DriftClock clock{scenario_->tick_ms, scenario_->candidates[i].options.drift_ppm};
        while (node.watchdog) {
            const std::int64_t moment = clock.moment_reaching(node.renew_due);
            const Tick due = moment / (2 * scenario_->tick_ms);
            if (due > t) break;
            // On time: at its own moment; late (a pause, or inside the acquisition's tick): at this tick's middle.
            const std::int64_t reading = due == t ? clock.reading(moment) : clock.reading_at_tick(t);
            renew(static_cast<NodeIndex>(i), t, reading + period, sink);
        }
    }
}

// The renew script (BL 183-192) and what its answer does (BL 146-158).
void RedissonRun::renew(NodeIndex n, Tick t, std::int64_t next_due, EventSink& sink) {
    RedissonNode& node = nodes_[static_cast<std::size_t>(n)];
    const std::optional<PartitionMode> cut = partition_of(n, t);
    EventView ev = node_event(t, Phase::extend, EventOp::extend, n);
    const std::int64_t timeout_ms = scenario_->redisson.lock_watchdog_timeout_ms;
    const RedissonAnswer answer =
        cut == PartitionMode::drop_requests ? RedissonAnswer::error : ops().renew(node.field, timeout_ms, t);
    if (live_ != nullptr && answer == RedissonAnswer::one) model_.follow_renew(timeout_ms, t);  // rule 21.9.5
    if (cut || answer == RedissonAnswer::error) {
        ev.outcome = Outcome::error;  // 3.31.0: logged, entry removed, never re-armed (rule 21.4.4)
        node.watchdog = false;
    } else if (answer == RedissonAnswer::one) {
        ev.outcome = Outcome::renewed;
        ev.ttl = (timeout_ms + scenario_->tick_ms - 1) / scenario_->tick_ms;
        node.renew_due = next_due;
    } else {
        ev.outcome = Outcome::lost;  // 0: cancelExpirationRenewal, for good
        node.watchdog = false;
    }
    emit(sink, ev);
}

// ---- Phase 5: acquire (rule 21.3) ----

void RedissonRun::phase_acquire(Tick t, EventSink& sink) {
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
        RedissonNode& node = nodes_[i];
        if (node.crashed || node.paused()) continue;
        const auto n = static_cast<NodeIndex>(i);
        if (node.state == RedissonState::idle && t >= node.next_run_at)
            begin_run(n, t, sink);
        else if (node.state == RedissonState::waiting && (node.permits > 0 || t >= node.wake_at))
            wake(n, t, sink);
    }
}

void RedissonRun::begin_run(NodeIndex n, Tick t, EventSink& sink) {
    RedissonNode& node = nodes_[static_cast<std::size_t>(n)];
    ++node.run;
    node.results.push_back(RunResult::unfinished);
    node.start_ms = now_ms(n, t);  // RL 233
    node.state = RedissonState::waiting;
    EventView ev = node_event(t, Phase::acquire, EventOp::start, n);
    emit(sink, ev);
    attempt_loop(n, t, sink);
}

// waitTime less what the wall clock says has passed (RL 241, 270, 284, 298).
std::int64_t RedissonRun::budget_ms(NodeIndex n, Tick t) const {
    const ElectorOptions& o = scenario_->candidates[static_cast<std::size_t>(n)].options;
    return o.wait * scenario_->tick_ms - (now_ms(n, t) - nodes_[static_cast<std::size_t>(n)].start_ms);
}

// The semaphore's wait ended: a permit (the unlock message) or its timeout
// (RL 293-302). Spent budget gives up without an attempt.
void RedissonRun::wake(NodeIndex n, Tick t, EventSink& sink) {
    RedissonNode& node = nodes_[static_cast<std::size_t>(n)];
    if (node.permits > 0) --node.permits;
    node.wake_at = tick_none;
    if (budget_ms(n, t) <= 0) {
        give_up(n, t, sink);
        return;
    }
    attempt_loop(n, t, sink);
}

// Attempts until acquired, given up, failed, or waiting (RL 235-296).
void RedissonRun::attempt_loop(NodeIndex n, Tick t, EventSink& sink) {
    RedissonNode& node = nodes_[static_cast<std::size_t>(n)];
    while (true) {
        std::int64_t pttl = 0;
        const Answer a = try_lock(n, t, sink, pttl);
        if (a == Answer::error) {
            node.subscribed = false;
            end_run(n, RunResult::acquire_failed);  // the exception propagates from get() (RL 155-157)
            return;
        }
        if (a == Answer::nil) {
            acquired(n, t);
            return;
        }
        const std::int64_t time = budget_ms(n, t);
        if (time <= 0) {
            give_up(n, t, sink);  // RL 242-245, 285-288
            return;
        }
        if (!node.subscribed) {
            node.subscribed = true;  // RL 248-250: a fresh entry, a semaphore with no permits (LE 37)
            node.permits = 0;
            continue;  // RL 270-278: the loop attempts at once
        }
        if (node.permits > 0) {
            --node.permits;  // a permit already there: the wait ends at once
            continue;
        }
        const std::int64_t wait = (pttl >= 0 && pttl < time) ? pttl : time;  // RL 292-296
        const Candidate& c = scenario_->candidates[static_cast<std::size_t>(n)];
        const DriftClock clock{scenario_->tick_ms, c.options.drift_ppm};
        node.wake_at = clock.first_tick_reaching(clock.reading_at_tick(t) + 2 * wait);
        return;
    }
}

// The lock script (RL 218-228, rule 21.2.2): nil when acquired or
// re-entered, else the PTTL; an error under a partition (rule 21.7.3).
RedissonRun::Answer RedissonRun::try_lock(NodeIndex n, Tick t, EventSink& sink, std::int64_t& pttl_ms) {
    RedissonNode& node = nodes_[static_cast<std::size_t>(n)];
    const std::optional<PartitionMode> cut = partition_of(n, t);
    EventView ev = node_event(t, Phase::acquire, EventOp::acquire, n);
    Answer a = Answer::error;
    if (cut != PartitionMode::drop_requests) {
        const RedissonCaller caller{node.field, n, node.run};
        const RedissonLockAnswer r = ops().lock(caller, lease_ms(n), t);
        if (r.error) {
            a = Answer::error;
        } else if (!r.pttl_ms) {
            if (live_ != nullptr) model_.follow_lock(caller, lease_ms(n), t);  // rule 21.9.5
            ev.ttl = (lease_ms(n) + scenario_->tick_ms - 1) / scenario_->tick_ms;
            a = Answer::nil;
        } else {
            pttl_ms = *r.pttl_ms;  // rule 21.2.4: whole ms, up
            ev.ttl = std::max<Tick>(1, (pttl_ms + scenario_->tick_ms - 1) / scenario_->tick_ms);
            a = Answer::busy;
        }
    }
    if (cut == PartitionMode::drop_replies && a == Answer::nil) ev.details.add(Detail::reply_lost);
    if (cut) a = Answer::error;
    ev.outcome = a == Answer::nil ? Outcome::acquired : a == Answer::busy ? Outcome::busy : Outcome::error;
    if (cut == PartitionMode::drop_requests || (cut && !ev.details.has(Detail::reply_lost))) ev.ttl.reset();
    emit(sink, ev);
    return a;
}

// Acquired: unsubscribe (RL 304-306), hold from this tick, and with no lease
// arm the watchdog (RL 199-206, BL 166-181).
void RedissonRun::acquired(NodeIndex n, Tick t) {
    RedissonNode& node = nodes_[static_cast<std::size_t>(n)];
    node.subscribed = false;
    node.permits = 0;
    node.state = RedissonState::working;
    node.acquired_at = t;
    node.progress = 0;
    node.next_write = 0;
    node.results.back() = RunResult::elected;
    const Candidate& c = scenario_->candidates[static_cast<std::size_t>(n)];
    node.watchdog = c.options.auto_extend;
    if (node.watchdog) {
        const DriftClock clock{scenario_->tick_ms, c.options.drift_ppm};
        node.renew_due = clock.reading_at_tick(t) + 2 * (scenario_->redisson.lock_watchdog_timeout_ms / 3);
    }
}

void RedissonRun::give_up(NodeIndex n, Tick t, EventSink& sink) {
    nodes_[static_cast<std::size_t>(n)].subscribed = false;
    EventView ev = node_event(t, Phase::acquire, EventOp::skip, n);
    ev.outcome = Outcome::skipped;  // acquireFailed, return false (BL 217-233)
    emit(sink, ev);
    end_run(n, RunResult::skipped);
}

void RedissonRun::end_run(NodeIndex n, RunResult result) {
    RedissonNode& node = nodes_[static_cast<std::size_t>(n)];
    node.results.back() = result;
    node.state = RedissonState::finished;
    node.wake_at = tick_none;
    const ElectorOptions& o = scenario_->candidates[static_cast<std::size_t>(n)].options;
    if (node.run + 1 < o.runs) {
        node.state = RedissonState::idle;
        node.next_run_at = o.start + static_cast<Tick>(node.run + 1) * o.every;
    }
}

// ---- Phase 7: check (§9.2) ----

void RedissonRun::phase_check(Tick t, EventSink& sink) {
    std::int64_t executing = 0;
    for (const RedissonNode& node : nodes_)
        if (node.state == RedissonState::working && !node.crashed) ++executing;
    client_run::check_overlap(t, executing, in_overlap_, violations_, [&](EventView& ev) { emit(sink, ev); });
}

bool RedissonRun::quiet_after(Tick t) const {
    if (last_edge_tick_ > t || model_.record().held) return false;
    return std::all_of(nodes_.begin(), nodes_.end(),
                       [](const RedissonNode& node) { return node.crashed || node.state == RedissonState::finished; });
}

std::vector<RunSummary> RedissonRun::results() const { return client_run::results(*scenario_, nodes_); }

}  // namespace leasescope::sim

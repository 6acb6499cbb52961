// Redlock over independent stores, tick by tick (docs/model.md §20): the
// npm package redlock 4.2.0's acquire, retry and release (redlock.js at tag
// v4.2.0; the rules cite its lines), N stores with their own clocks and
// restarts, and what the resource sees.
#include "leasescope/sim/redlock.hpp"
#include "leasescope/sim/redlock_validity.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <tuple>

#include "client_run.hpp"
#include "leasescope/sim/simulation.hpp"

namespace leasescope::sim {

namespace {

bool in_mask(std::uint32_t mask, std::int32_t store) { return mask == 0 || ((mask >> store) & 1U) != 0; }

// A uniform draw in [0, 1), as Math.random() gives one (53 bits).
double uniform(SplitMix64& rng) { return static_cast<double>(rng.next() >> 11) * 0x1.0p-53; }

}  // namespace

bool RedlockMessage::operator>(const RedlockMessage& o) const {
    return std::tie(at, phase, sent, number) > std::tie(o.at, o.phase, o.sent, o.number);
}

RedlockRun::RedlockRun(const Scenario& scenario)
    : scenario_(&scenario),
      rng_(scenario.seed),
      model_(scenario),
      nodes_(scenario.candidates.size()),
      deferred_(scenario.candidates.size()) {
    for (std::size_t n = 0; n < nodes_.size(); ++n) nodes_[n].next_run_at = scenario.candidates[n].options.start;
    edges_ = client_run::fault_edges(scenario, last_edge_tick_);  // a delay has none: it changes arrivals (rule 20.7)
}

std::int64_t RedlockRun::now_ms(NodeIndex n, Tick t) const {
    const Candidate& c = scenario_->candidates[static_cast<std::size_t>(n)];
    const DriftClock clock{scenario_->tick_ms, c.options.drift_ppm};
    return client_run::floor_div(clock.reading_at_tick(t) + nodes_[static_cast<std::size_t>(n)].jumps, 2);
}

EventView RedlockRun::node_event(Tick t, Phase phase, EventOp op, NodeIndex n) const {
    const RedlockNode* node = n >= 0 ? &nodes_[static_cast<std::size_t>(n)] : nullptr;
    return client_run::node_event(*scenario_, t, phase, op, n, node ? node->run : -1, node ? &node->token : nullptr);
}

void RedlockRun::emit(EventSink& sink, EventView& ev) {
    ev.seq = seq_++;
    sink.on_event_view(ev);
}

bool RedlockRun::step(Tick t, EventSink& sink) {
    phase_faults(t, sink);
    phase_expiry(t, sink);
    phase_work(t, sink);
    phase_acquire(t, sink);
    phase_check(t, sink);
    return t >= scenario_->horizon || quiet_after(t);
}

// ---- Phase 1: faults (rules 20.2.4, 20.3, 20.5.3, 20.7) ----

void RedlockRun::phase_faults(Tick t, EventSink& sink) {
    // everysec: the fsync of each whole second, before the tick's faults (rule 20.3).
    const std::int64_t ms = scenario_->tick_ms;
    const bool second = t == 0 || (t * ms) / 1000 != ((t - 1) * ms) / 1000;
    if (second) {
        for (std::size_t s = 0; s < model_.size(); ++s)
            if (!model_.at(s).down) model_.at(s).disk = model_.at(s).key;
    }
    while (next_edge_ < edges_.size() && edges_[next_edge_].tick == t) {
        const FaultEdge& e = edges_[next_edge_++];
        fault_edge(t, scenario_->faults[static_cast<std::size_t>(e.fault)], e.end, sink);
    }
}

void RedlockRun::fault_edge(Tick t, const Fault& f, bool end, EventSink& sink) {
    EventView ev = node_event(t, Phase::faults, EventOp::pause, f.node);
    ev.run = -1;
    ev.token = {};
    switch (f.kind) {
        case FaultKind::pause: {
            RedlockNode& node = nodes_[static_cast<std::size_t>(f.node)];
            if (node.crashed) return;
            node.pauses += end ? -1 : 1;
            ev.op = end ? EventOp::resume : EventOp::pause;
            if (end && !node.paused()) {
                // Its held answers are handled in their phases of this tick (§16.3).
                for (RedlockMessage& m : deferred_[static_cast<std::size_t>(f.node)]) {
                    m.at = t;
                    push(std::move(m));
                }
                deferred_[static_cast<std::size_t>(f.node)].clear();
            }
            break;
        }
        case FaultKind::crash: {
            RedlockNode& node = nodes_[static_cast<std::size_t>(f.node)];
            if (node.crashed) return;
            node.crashed = true;
            if (node.state != RedlockState::idle && node.state != RedlockState::finished)
                node.results.back() = RunResult::crashed;
            node.state = RedlockState::finished;
            deferred_[static_cast<std::size_t>(f.node)].clear();
            ev.op = EventOp::crash;
            break;
        }
        case FaultKind::partition: ev.op = end ? EventOp::heal : EventOp::partition; break;
        case FaultKind::clock_jump: {
            ev.op = EventOp::clock_jump;
            ev.clock_ms = f.ms;
            if (f.store >= 0) {
                model_.at(static_cast<std::size_t>(f.store)).jumps += 2 * f.ms;
                // A monotonic store's expiry does not see the jump (rule 20.2.5).
                if (live_ != nullptr && scenario_->stores_clock == StoresClock::wall)
                    live_->clock_jump(static_cast<std::size_t>(f.store), f.ms, t);
                ev.node = scenario_->stores[static_cast<std::size_t>(f.store)];
                ev.server = f.store;
            } else {
                nodes_[static_cast<std::size_t>(f.node)].jumps += 2 * f.ms;
            }
            break;
        }
        case FaultKind::restart: restart_edge(f, end, ev); break;
        case FaultKind::failover:
        case FaultKind::replica_link:
        case FaultKind::delay: return;  // refused by the reader (rule 20.1.3); a delay has no edges
    }
    emit(sink, ev);
}

// A store goes down, or comes back with what its persistence kept (rule 20.3).
void RedlockRun::restart_edge(const Fault& f, bool end, EventView& ev) {
    RedlockStore& st = model_.at(static_cast<std::size_t>(f.store));
    ev.node = scenario_->stores[static_cast<std::size_t>(f.store)];
    ev.server = f.store;
    if (!end) {
        st.down = true;
        ++st.epoch;
        st.kept = st.key;
        st.persistence = f.persistence;
        ev.op = EventOp::crash;
        return;
    }
    const RedlockKey before = st.kept;
    st.down = false;
    st.key = st.persistence == Persistence::always     ? st.kept
             : st.persistence == Persistence::everysec ? st.disk
                                                       : RedlockKey{};
    st.disk = st.key;
    ev.op = EventOp::restart;
    if (before.held) ev.outcome = st.key == before ? Outcome::kept : Outcome::lost;
}

// ---- Phase 2: expiry (rule 20.2.3) ----

void RedlockRun::phase_expiry(Tick t, EventSink& sink) {
    for (std::size_t s = 0; s < model_.size(); ++s) {
        RedlockStore& st = model_.at(s);
        // Gone from the store since the run set it, not by an unlock: expired.
        if (st.down || !st.key.held || ops().value(s, t) == st.key.value) continue;
        EventView ev;
        ev.tick = t;
        ev.phase = Phase::expiry;
        ev.op = EventOp::expire;
        ev.node = scenario_->candidates[static_cast<std::size_t>(st.key.owner)].name;
        ev.run = st.key.run;
        ev.token = st.key.value;
        ev.outcome = Outcome::expired;
        ev.server = static_cast<std::int32_t>(s);
        emit(sink, ev);
        st.key = RedlockKey{};
    }
}

// ---- Messages (rules 20.4.3, 20.7) ----

Tick RedlockRun::arrival(NodeIndex n, std::int32_t store, Link link, Tick sent) const {
    const Candidate& c = scenario_->candidates[static_cast<std::size_t>(n)];
    Tick at = sent + c.network.of(link);
    for (const Fault& f : scenario_->faults) {
        // A delay has no end edge (Fault::end() is tick_none): it holds for what is sent in [at, at + ticks).
        if (f.kind == FaultKind::delay && f.node == n && f.link == link && sent >= f.at && sent < f.at + f.ticks &&
            (link == Link::write || in_mask(f.stores, store)))
            at += f.extra;
    }
    if (link == Link::write) return at;
    // A partition holds what it meets until it ends (rule 20.7).
    for (bool moved = true; moved;) {
        moved = false;
        for (const Fault& f : scenario_->faults) {
            if (f.kind != FaultKind::partition || f.node != n || !in_mask(f.stores, store)) continue;
            if (f.at <= at && sent < f.end() && at < f.end()) {
                at = f.end();
                moved = true;
            }
        }
    }
    return at;
}

void RedlockRun::push(RedlockMessage m) {
    m.number = sends_++;
    wire_.push_back(std::move(m));
    std::push_heap(wire_.begin(), wire_.end(), std::greater<>{});
}

void RedlockRun::send_to_all(NodeIndex n, RedlockMessage::Kind kind, Tick t, Phase phase) {
    RedlockNode& node = nodes_[static_cast<std::size_t>(n)];
    node.waiting = static_cast<std::int32_t>(model_.size());
    node.votes = 0;
    for (std::size_t s = 0; s < model_.size(); ++s) {
        RedlockMessage m;
        m.kind = kind;
        m.phase = phase;
        m.node = n;
        m.run = node.run;
        m.token = node.token;
        m.store = static_cast<std::int32_t>(s);
        m.sent = t;
        m.request_sent = t;
        m.epoch = model_.stores()[s].epoch;
        m.at = arrival(n, m.store, Link::request, t);
        push(std::move(m));
    }
}

void RedlockRun::deliver(Tick t, Phase phase, EventSink& sink) {
    while (!wire_.empty() && wire_.front().at <= t && wire_.front().phase <= phase) {
        std::pop_heap(wire_.begin(), wire_.end(), std::greater<>{});
        RedlockMessage m = std::move(wire_.back());
        wire_.pop_back();
        if (m.kind == RedlockMessage::Kind::write) {
            write_arrives(m, t, sink);
        } else if (!m.reply) {
            apply(std::move(m), t);
        } else {
            RedlockNode& node = nodes_[static_cast<std::size_t>(m.node)];
            if (node.crashed) continue;
            if (node.paused()) {
                deferred_[static_cast<std::size_t>(m.node)].push_back(std::move(m));
                continue;
            }
            answer(m, t, sink);
        }
    }
}

// A store runs a script when its request arrives (rule 20.2.2): the lock
// script `redlock.js` 9-24, the unlock script 26-38.
void RedlockRun::apply(RedlockMessage m, Tick t) {
    const RedlockStore& st = model_.stores()[static_cast<std::size_t>(m.store)];
    const std::size_t s = static_cast<std::size_t>(m.store);
    if (st.down || st.epoch != m.epoch) {
        m.answer = -1;  // the connection is refused or broke (rule 20.3)
    } else if (m.kind == RedlockMessage::Kind::lock) {
        const Tick lease = scenario_->candidates[static_cast<std::size_t>(m.node)].options.lease;
        const RedlockKey key{true, m.token, m.node, m.run, 0};
        m.answer = ops().lock(s, key, lease, t);
        if (live_ != nullptr && m.answer == 1) model_.follow_lock(s, key, lease, t);  // rule 20.9.4
        m.applied = t;
    } else {
        m.answer = ops().unlock(s, m.token, t);
        if (live_ != nullptr && m.answer == 1) model_.follow_unlock(s);
        m.applied = t;
    }
    m.reply = true;
    m.sent = t;
    m.at = arrival(m.node, m.store, Link::reply, t);
    push(std::move(m));
}

// A store's answer reaches its node: one event, then the count (redlock.js
// 408-411 for a lock, 263-275 for an unlock).
void RedlockRun::answer(const RedlockMessage& m, Tick t, EventSink& sink) {
    RedlockNode& node = nodes_[static_cast<std::size_t>(m.node)];
    const bool lock = m.kind == RedlockMessage::Kind::lock;
    EventView ev = node_event(t, m.phase, lock ? EventOp::acquire : EventOp::release, m.node);
    ev.server = m.store;
    if (m.request_sent != t) ev.sent = m.request_sent;
    if (m.applied != tick_none && m.applied != t) ev.applied = m.applied;
    if (m.answer < 0) {
        ev.outcome = Outcome::error;
    } else if (lock) {
        ev.outcome = m.answer == 1 ? Outcome::acquired : Outcome::busy;
        if (m.answer == 1) ev.ttl = scenario_->candidates[static_cast<std::size_t>(m.node)].options.lease;
    } else {
        ev.outcome = m.answer == 1 ? Outcome::released : Outcome::not_owner;
    }
    emit(sink, ev);
    if (m.answer == 1) ++node.votes;
    if (--node.waiting > 0) return;
    switch (m.kind) {
        case RedlockMessage::Kind::lock: decide(m.node, t, sink); break;
        case RedlockMessage::Kind::unlock: unlocked(m.node, t, sink); break;
        case RedlockMessage::Kind::release: released(m.node, t, sink); break;
        case RedlockMessage::Kind::write: break;
    }
}

// ---- The client (rules 20.4, 20.5) ----

void RedlockRun::start_attempt(NodeIndex n, Tick t) {
    RedlockNode& node = nodes_[static_cast<std::size_t>(n)];
    ++node.attempts;
    node.start_ms = now_ms(n, t);  // redlock.js 397
    node.state = RedlockState::locking;
    node.retry_at = tick_none;
    send_to_all(n, RedlockMessage::Kind::lock, t, Phase::acquire);  // 435-437
}

// The last answer of an attempt (redlock.js 413-432).
void RedlockRun::decide(NodeIndex n, Tick t, EventSink& sink) {
    RedlockNode& node = nodes_[static_cast<std::size_t>(n)];
    const Candidate& c = scenario_->candidates[static_cast<std::size_t>(n)];
    const std::int64_t ttl = c.options.lease * scenario_->tick_ms;
    // expiration = start + ttl − drift (415-416), above Date.now() (419).
    const std::int64_t validity =
        redlock_validity_ms(scenario_->redlock.drift_factor, ttl, node.start_ms, now_ms(n, t));
    const bool won = node.votes >= quorum() && validity > 0;
    EventView ev = node_event(t, Phase::acquire, EventOp::quorum, n);
    ev.outcome = won ? Outcome::acquired : Outcome::busy;
    ev.overlap_count = node.votes;
    if (won) ev.ttl = c.options.lease;
    emit(sink, ev);
    if (won) {
        node.state = RedlockState::working;
        node.acquired_at = t;
        node.progress = 0;
        node.next_write = 0;
        node.results.back() = RunResult::elected;
        return;
    }
    // Unlock everywhere, then retry or give up (424-431).
    node.state = RedlockState::unlocking;
    send_to_all(n, RedlockMessage::Kind::unlock, t, Phase::acquire);
}

void RedlockRun::unlocked(NodeIndex n, Tick t, EventSink& sink) {
    RedlockNode& node = nodes_[static_cast<std::size_t>(n)];
    const RedlockOptions& o = scenario_->redlock;
    if (o.retry_count == -1 || node.attempts <= o.retry_count) {  // 427
        // max(0, retryDelay + ⌊(u·2 − 1)·retryJitter⌋) ms (428), on the monotonic clock (rule 20.4.7).
        const double u = uniform(rng_);
        const auto jitter = static_cast<std::int64_t>(std::floor((u * 2 - 1) * static_cast<double>(o.retry_jitter_ms)));
        const std::int64_t delay = std::max<std::int64_t>(0, o.retry_delay_ms + jitter);
        const Candidate& c = scenario_->candidates[static_cast<std::size_t>(n)];
        const DriftClock clock{scenario_->tick_ms, c.options.drift_ppm};
        node.retry_at = std::max(t + 1, clock.first_tick_reaching(clock.reading_at_tick(t) + 2 * delay));
        node.state = RedlockState::retrying;
        return;
    }
    EventView ev = node_event(t, Phase::acquire, EventOp::skip, n);
    ev.outcome = Outcome::skipped;  // as §12.3 has a skip (model.md §20.8 rule 2)
    emit(sink, ev);
    end_run(n, RunResult::skipped);  // 431: "Exceeded retryCount attempts"
}

void RedlockRun::released(NodeIndex n, Tick t, EventSink& sink) {
    RedlockNode& node = nodes_[static_cast<std::size_t>(n)];
    EventView ev = node_event(t, Phase::work, EventOp::quorum, n);
    ev.outcome = node.votes >= quorum() ? Outcome::released : Outcome::error;  // 277-282
    ev.overlap_count = node.votes;
    emit(sink, ev);
    end_run(n, node.results.back());
}

void RedlockRun::end_run(NodeIndex n, RunResult result) {
    RedlockNode& node = nodes_[static_cast<std::size_t>(n)];
    node.results.back() = result;
    node.state = RedlockState::finished;
    const ElectorOptions& o = scenario_->candidates[static_cast<std::size_t>(n)].options;
    if (node.run + 1 < o.runs) {
        node.state = RedlockState::idle;
        node.next_run_at = o.start + static_cast<Tick>(node.run + 1) * o.every;
    }
}

// ---- Phase 3: work (rule 20.5) ----

void RedlockRun::phase_work(Tick t, EventSink& sink) {
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
        RedlockNode& node = nodes_[i];
        if (node.state != RedlockState::working || node.paused() || node.acquired_at == t) continue;
        const ElectorOptions& o = scenario_->candidates[i].options;
        ++node.progress;
        const auto n = static_cast<NodeIndex>(i);
        if (node.next_write < o.writes.size() && o.writes[node.next_write] == node.progress) {
            ++node.next_write;
            RedlockMessage w;
            w.kind = RedlockMessage::Kind::write;
            w.phase = Phase::work;
            w.node = n;
            w.run = node.run;
            w.token = node.token;
            w.sent = t;
            w.at = arrival(n, -1, Link::write, t);
            push(std::move(w));
        }
        if (node.progress >= o.action) {
            node.state = RedlockState::releasing;
            send_to_all(n, RedlockMessage::Kind::release, t, Phase::work);  // 231-261
        }
    }
    deliver(t, Phase::work, sink);
}

// A write at the resource (rule 20.6): accepted; stale without a quorum of
// its token, unsafe when another token holds a quorum.
void RedlockRun::write_arrives(const RedlockMessage& m, Tick t, EventSink& sink) {
    std::int32_t mine = 0;
    std::vector<std::pair<const Token*, std::int32_t>> others;
    // The resource asks every store who holds the key (rule 20.6).
    std::vector<Token> values;
    for (std::size_t s = 0; s < model_.size(); ++s)
        if (std::optional<Token> v = ops().value(s, t)) values.push_back(std::move(*v));
    for (const Token& v : values) {
        if (v == m.token) {
            ++mine;
            continue;
        }
        auto it = std::find_if(others.begin(), others.end(), [&](const auto& p) { return *p.first == v; });
        if (it == others.end())
            others.emplace_back(&v, 1);
        else
            ++it->second;
    }
    const bool other_quorum =
        std::any_of(others.begin(), others.end(), [&](const auto& p) { return p.second >= quorum(); });
    EventView ev;
    ev.tick = t;
    ev.phase = Phase::work;
    ev.op = EventOp::write;
    ev.node = scenario_->candidates[static_cast<std::size_t>(m.node)].name;
    ev.run = m.run;
    ev.token = m.token;
    ev.outcome = Outcome::accepted;
    if (mine < quorum()) ev.details.add(Detail::stale);
    if (other_quorum) {
        ev.details.add(Detail::unsafe_write);
        ++violations_.unsafe_write;
    }
    if (m.sent != t) ev.sent = m.sent;
    emit(sink, ev);
}

// ---- Phase 5: acquire (rule 20.4) ----

void RedlockRun::phase_acquire(Tick t, EventSink& sink) {
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
        RedlockNode& node = nodes_[i];
        if (node.crashed || node.paused()) continue;
        const auto n = static_cast<NodeIndex>(i);
        if (node.state == RedlockState::idle && t >= node.next_run_at) {
            ++node.run;
            node.results.push_back(RunResult::unfinished);
            node.token = draw_token(rng_);
            node.attempts = 0;
            EventView ev = node_event(t, Phase::acquire, EventOp::start, n);
            emit(sink, ev);
            start_attempt(n, t);
        } else if (node.state == RedlockState::retrying && t >= node.retry_at) {
            start_attempt(n, t);
        }
    }
    deliver(t, Phase::acquire, sink);
}

// ---- Phase 7: check (§9.2) ----

void RedlockRun::phase_check(Tick t, EventSink& sink) {
    std::int64_t executing = 0;
    for (const RedlockNode& node : nodes_)
        if (node.state == RedlockState::working && !node.crashed) ++executing;
    client_run::check_overlap(t, executing, in_overlap_, violations_, [&](EventView& ev) { emit(sink, ev); });
}

bool RedlockRun::quiet_after(Tick t) const {
    if (last_edge_tick_ > t || !wire_.empty()) return false;
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
        if (!deferred_[i].empty()) return false;
        if (!nodes_[i].crashed && nodes_[i].state != RedlockState::finished) return false;
    }
    const std::vector<RedlockStore>& stores = model_.stores();
    return std::none_of(stores.begin(), stores.end(), [](const RedlockStore& st) { return st.key.held; });
}

std::vector<RunSummary> RedlockRun::results() const { return client_run::results(*scenario_, nodes_); }

}  // namespace leasescope::sim

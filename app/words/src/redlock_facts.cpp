// The facts of a Redlock trace folded from its events (redlock_facts.hpp).
#include "leasescope/words/redlock_facts.hpp"

#include <algorithm>

#include "leasescope/sim/redlock_validity.hpp"
#include "trace_facts.hpp"

namespace leasescope::words {
namespace {

using sim::Event;
using sim::EventOp;
using sim::Outcome;

std::int32_t index_of(const std::vector<std::string>& names, const std::string& name) {
    const auto it = std::find(names.begin(), names.end(), name);
    return it == names.end() ? -1 : static_cast<std::int32_t>(it - names.begin());
}

// The key gone (released, expired, forgotten); the store's state stays.
void clear_key(RedlockStoreFact& s) {
    s.token.clear();
    s.node.clear();
    s.run = -1;
    s.set_at = tick_none;
    s.ttl_ms = 0;
    s.set_clock_ms = 0;
}

// A store's own event (§20.8: `server` names it).
void apply_store(const Event& e, std::int64_t tick_ms, RedlockStoreFact& s) {
    switch (e.op) {
        case EventOp::acquire:
            if (e.outcome != Outcome::acquired) break;
            s.token = e.token;
            s.node = e.node;
            s.run = e.run;
            s.set_at = e.tick;
            s.ttl_ms = e.ttl.value_or(0) * tick_ms;
            s.set_clock_ms = e.tick * tick_ms + s.jumps_ms;
            break;
        case EventOp::release:
            if (e.outcome == Outcome::released) clear_key(s);
            break;
        case EventOp::expire: clear_key(s); break;
        case EventOp::crash: s.down = true; break;
        case EventOp::restart:
            s.down = false;
            if (e.outcome == Outcome::lost) clear_key(s);
            break;
        case EventOp::clock_jump: s.jumps_ms += e.clock_ms; break;
        default: break;
    }
}

// A client's event: its state as rules 20.4 and 20.5 step it.
void apply_client(const Event& e, std::size_t stores, RedlockClientFact& c, std::size_t& unlock_answers) {
    using S = RedlockClientState;
    switch (e.op) {
        case EventOp::start:
            c.state = S::locking;
            c.run = e.run;
            c.token = e.token;
            c.votes = -1;
            break;
        case EventOp::acquire:
            if (c.state == S::retrying || c.state == S::unlocking) c.state = S::locking;
            break;
        case EventOp::quorum:
            c.votes = static_cast<std::int32_t>(e.overlap_count);
            if (e.phase == sim::Phase::acquire) {
                c.state = e.outcome == Outcome::acquired ? S::working : S::unlocking;
                unlock_answers = 0;
            } else {
                c.state = S::finished;
            }
            break;
        case EventOp::release:
            if (c.state == S::working) c.state = S::releasing;
            if (c.state == S::unlocking && ++unlock_answers >= stores) c.state = S::retrying;
            break;
        case EventOp::skip: c.state = S::finished; break;
        case EventOp::crash: c.state = S::crashed; break;
        case EventOp::pause: c.paused = true; break;
        case EventOp::resume: c.paused = false; break;
        default: break;
    }
}

}  // namespace

const char* to_string(RedlockClientState state) {
    switch (state) {
        case RedlockClientState::idle: return "idle";
        case RedlockClientState::locking: return "locking";
        case RedlockClientState::working: return "working";
        case RedlockClientState::unlocking: return "unlocking";
        case RedlockClientState::retrying: return "retrying";
        case RedlockClientState::releasing: return "releasing";
        case RedlockClientState::finished: return "finished";
        case RedlockClientState::crashed: return "crashed";
    }
    return "idle";
}

RedlockFold::RedlockFold(const sim::TraceHeader& header) : header_(&header) {
    facts_.stores.resize(header.stores.size());
    facts_.clients.resize(header.candidates.size());
    unlock_answers_.assign(header.candidates.size(), 0);
}

void RedlockFold::apply(const Event& e) {
    if (e.server && static_cast<std::size_t>(*e.server) < facts_.stores.size())
        apply_store(e, header_->tick_ms, facts_.stores[static_cast<std::size_t>(*e.server)]);
    if (e.op == EventOp::write) {
        ++facts_.writes;
        facts_.stale += e.details.has(sim::Detail::stale) ? 1 : 0;
        facts_.unsafe += e.details.has(sim::Detail::unsafe_write) ? 1 : 0;
    }
    const std::int32_t n = index_of(header_->candidates, e.node);
    if (n < 0 || (e.server && e.op != EventOp::acquire && e.op != EventOp::release)) return;
    const auto i = static_cast<std::size_t>(n);
    apply_client(e, facts_.stores.size(), facts_.clients[i], unlock_answers_[i]);
}

RedlockFacts redlock_facts_before(const sim::Trace& trace, std::size_t end) {
    RedlockFold fold(trace.header);
    for (std::size_t k = 0; k < end && k < trace.events.size(); ++k) fold.apply(trace.events[k]);
    return fold.facts();
}

RedlockFacts redlock_facts_at(const sim::Trace& trace, Tick t) {
    const auto it = std::upper_bound(trace.events.begin(), trace.events.end(), t,
                                     [](Tick tick, const Event& e) { return tick < e.tick; });
    return redlock_facts_before(trace, static_cast<std::size_t>(it - trace.events.begin()));
}

std::int32_t redlock_holders(const RedlockFacts& facts, const std::string& token) {
    if (token.empty()) return 0;
    std::int32_t n = 0;
    for (const RedlockStoreFact& s : facts.stores) n += !s.down && s.token == token ? 1 : 0;
    return n;
}

std::int64_t redlock_store_clock_ms(const RedlockStoreFact& store, Tick t, std::int64_t tick_ms) {
    return t * tick_ms + store.jumps_ms;
}

std::int64_t redlock_ttl_left_ms(const RedlockStoreFact& store, Tick t, std::int64_t tick_ms) {
    if (store.token.empty()) return 0;
    return std::max<std::int64_t>(0, store.set_clock_ms + store.ttl_ms - redlock_store_clock_ms(store, t + 1, tick_ms));
}

namespace {

// The attempt's tick: its stores' answers are the events just before the count.
Tick attempt_tick(const sim::Trace& trace, std::size_t index) {
    const Event& q = trace.events[index];
    for (std::size_t k = index; k-- > 0;) {
        const Event& p = trace.events[k];
        if (p.op == EventOp::start || (p.op == EventOp::quorum && p.node == q.node)) break;
        if (p.op == EventOp::acquire && p.server && p.node == q.node) {
            if (k == 0 || trace.events[k - 1].op != EventOp::acquire || !trace.events[k - 1].server)
                return p.sent.value_or(p.tick);
        }
    }
    return q.tick;
}

// The client's wall-clock jumps after tick `from`, before event `index` (Date.now(), rule 20.4.2).
std::int64_t node_jumps_ms(const sim::Trace& trace, std::size_t index, Tick from) {
    std::int64_t ms = 0;
    const Event& q = trace.events[index];
    for (std::size_t k = 0; k < index; ++k) {
        const Event& p = trace.events[k];
        if (p.op == EventOp::clock_jump && !p.server && p.node == q.node && p.tick > from) ms += p.clock_ms;
    }
    return ms;
}

}  // namespace

std::optional<RedlockCount> redlock_count(const sim::Scenario* scenario, const sim::Trace& trace, std::size_t index) {
    if (index >= trace.events.size()) return std::nullopt;
    const Event& e = trace.events[index];
    if (e.op != EventOp::quorum || e.phase != sim::Phase::acquire) return std::nullopt;
    const sim::Candidate* c = facts::candidate_of(scenario, e.node);
    if (c == nullptr && !e.ttl) return std::nullopt;
    const std::int64_t tick_ms = trace.header.tick_ms;
    RedlockCount r;
    r.drift_factor_assumed = c == nullptr;
    r.drift_factor = c != nullptr ? scenario->redlock.drift_factor : sim::RedlockOptions{}.drift_factor;
    const double drift_factor = r.drift_factor;
    r.start = attempt_tick(trace, index);
    r.ttl_ms = (c != nullptr ? c->options.lease : *e.ttl) * tick_ms;
    r.drift_ms = sim::redlock_drift_ms(drift_factor, r.ttl_ms);
    r.elapsed_ms = (e.tick - r.start) * tick_ms + node_jumps_ms(trace, index, r.start);
    r.validity_ms = sim::redlock_validity_ms(drift_factor, r.ttl_ms, 0, r.elapsed_ms);
    r.votes = static_cast<std::int32_t>(e.overlap_count);
    r.stores = static_cast<std::int32_t>(trace.header.stores.size());
    r.quorum = r.stores / 2 + 1;
    const std::int64_t end_ms = e.tick * tick_ms + r.validity_ms;
    r.valid_until = end_ms <= 0 ? 0 : (end_ms + tick_ms - 1) / tick_ms;
    return r;
}

}  // namespace leasescope::words

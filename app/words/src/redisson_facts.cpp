// The facts of a Redisson trace folded from its events (redisson_facts.hpp).
#include "leasescope/words/redisson_facts.hpp"

#include <algorithm>

#include "trace_facts.hpp"

namespace leasescope::words {
namespace {

using sim::Event;
using sim::EventOp;
using sim::Outcome;

std::int32_t redisson_index_of(const std::vector<std::string>& names, const std::string& name) {
    const auto it = std::find(names.begin(), names.end(), name);
    return it == names.end() ? -1 : static_cast<std::int32_t>(it - names.begin());
}

// The hash gone (unlocked, expired); the store's clock stays.
void clear_record(RedissonRecordFact& r) {
    const std::int64_t jumps = r.jumps_ms;
    r = RedissonRecordFact{};
    r.jumps_ms = jumps;
}

// Its TTL set again at event e's tick to e's `ttl` (a lock, a renewal, a kept unlock).
void set_ttl(RedissonRecordFact& r, const Event& e, std::int64_t tick_ms) {
    r.set_at = e.tick;
    r.ttl_ms = e.ttl.value_or(0) * tick_ms;
    r.set_clock_ms = e.tick * tick_ms + r.jumps_ms;
}

}  // namespace

const char* to_string(RedissonClientState state) {
    switch (state) {
        case RedissonClientState::idle: return "idle";
        case RedissonClientState::locking: return "locking";
        case RedissonClientState::sleeping: return "sleeping";
        case RedissonClientState::holding: return "holding";
        case RedissonClientState::finished: return "finished";
        case RedissonClientState::crashed: return "crashed";
    }
    return "idle";
}

RedissonFold::RedissonFold(const sim::TraceHeader& header, const sim::Scenario* scenario)
    : header_(&header), scenario_(scenario) {
    facts_.clients.resize(header.candidates.size());
    started_.assign(header.candidates.size(), 0);
}

void RedissonFold::apply(const Event& e) {
    apply_record(e);
    if (e.op == EventOp::write) {
        ++facts_.writes;
        facts_.stale += e.details.has(sim::Detail::stale) ? 1 : 0;
        facts_.unsafe += e.details.has(sim::Detail::unsafe_write) ? 1 : 0;
    }
    const std::int32_t n = redisson_index_of(header_->candidates, e.node);
    if (n >= 0) apply_client(e, static_cast<std::size_t>(n));
}

// The hash as the scripts left it (rules 21.2, 21.4.2, 21.5.1): a lock
// whose reply was lost was applied all the same (rule 21.7.3).
void RedissonFold::apply_record(const Event& e) {
    RedissonRecordFact& r = facts_.record;
    const std::int64_t tick_ms = header_->tick_ms;
    const bool applied = e.outcome == Outcome::acquired || e.details.has(sim::Detail::reply_lost);
    switch (e.op) {
        case EventOp::acquire:
            if (!applied) break;
            r.holds = r.token == e.token ? r.holds + 1 : 1;
            r.token = e.token;
            r.node = e.node;
            r.run = e.run;
            set_ttl(r, e, tick_ms);
            break;
        case EventOp::extend:
            if (e.outcome == Outcome::renewed && r.token == e.token) set_ttl(r, e, tick_ms);
            break;
        case EventOp::release:
            if (e.outcome == Outcome::kept && r.token == e.token) {
                r.holds = std::max<std::int64_t>(1, r.holds - 1);
                if (e.ttl) set_ttl(r, e, tick_ms);
            }
            if (e.outcome == Outcome::released || (e.outcome == Outcome::error && applied)) clear_record(r);
            break;
        case EventOp::expire: clear_record(r); break;
        case EventOp::clock_jump:
            if (redisson_index_of(header_->candidates, e.node) < 0) r.jumps_ms += e.clock_ms;  // the store's clock
            break;
        default: break;
    }
}

// A client's event: its state as rules 21.3–21.5 step it.
void RedissonFold::apply_client(const Event& e, std::size_t i) {
    using S = RedissonClientState;
    RedissonClientFact& c = facts_.clients[i];
    const std::int64_t tick_ms = header_->tick_ms;
    const sim::Candidate* candidate = facts::candidate_of(scenario_, e.node);
    switch (e.op) {
        case EventOp::start:
            c = RedissonClientFact{S::locking, e.run, e.token};
            c.paused = facts_.clients[i].paused;
            started_[i] = e.tick;
            break;
        case EventOp::acquire:
            if (e.outcome == Outcome::acquired) {
                c.state = S::holding;
                c.watchdog = candidate != nullptr && candidate->options.auto_extend;
            } else if (e.outcome == Outcome::busy) {
                c.state = S::sleeping;
                c.told_ttl_ms = e.ttl.value_or(0) * tick_ms;
                c.wake_at = e.tick + e.ttl.value_or(0);
                if (candidate != nullptr) c.wake_at = std::min(c.wake_at, started_[i] + candidate->options.wait);
                c.message_lost = c.woken = false;
            } else {
                c.state = S::finished;
                c.end = RedissonRunEnd::failed;
                c.ended_at = e.tick;
            }
            break;
        case EventOp::message: (e.outcome == Outcome::delivered ? c.woken : c.message_lost) = true; break;
        case EventOp::extend:
            c.watchdog = true;
            if (e.outcome == Outcome::renewed)
                c.renewed_at = e.tick;
            else
                c.renewal_stopped = true;
            break;
        case EventOp::release:
            c.state = S::finished;
            c.end = RedissonRunEnd::unlocked;
            c.ended_at = e.tick;
            break;
        case EventOp::skip:
            c.state = S::finished;
            c.end = RedissonRunEnd::gave_up;
            c.ended_at = e.tick;
            break;
        case EventOp::crash: c.state = S::crashed; break;
        case EventOp::pause: c.paused = true; break;
        case EventOp::resume: c.paused = false; break;
        default: break;
    }
}

RedissonFacts redisson_facts_at(const sim::Trace& trace, const sim::Scenario* scenario, Tick t) {
    RedissonFold fold(trace.header, scenario);
    for (const Event& e : trace.events) {
        if (e.tick > t) break;
        fold.apply(e);
    }
    return fold.facts();
}

std::int64_t redisson_pttl_ms(const RedissonRecordFact& record, Tick t, std::int64_t tick_ms) {
    if (record.token.empty()) return 0;
    const std::int64_t now_ms = t * tick_ms + record.jumps_ms;
    return std::max<std::int64_t>(0, record.set_clock_ms + record.ttl_ms - now_ms);
}

}  // namespace leasescope::words

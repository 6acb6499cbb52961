#pragma once
// The facts of a Redlock trace (model.md §20, `leasescope-trace/5`) at a
// point of it, folded from its events alone: each store's key and whether it
// is down, each client's state, and the count of an attempt (votes, drift,
// validity). The explanation (redlock_explain.cpp) and the app (its store
// lanes, quorum marks and panels) read these, so that what the app draws and
// what Explain says come from one fold. Pure.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "leasescope/sim/scenario.hpp"
#include "leasescope/sim/trace.hpp"

namespace leasescope::words {

// One store's lock key (rule 20.2.1) and its life (rule 20.3).
struct RedlockStoreFact {
    std::string token;  // empty: no key
    std::string node;   // the key's holder
    std::int32_t run = -1;
    bool down = false;
    Tick set_at = tick_none;        // the tick its key was set
    std::int64_t ttl_ms = 0;        // the key's TTL when set
    std::int64_t set_clock_ms = 0;  // the store's clock when set, in ms since tick 0 (jumps included)
    std::int64_t jumps_ms = 0;      // the store's clock's steps so far
};

// What a client is doing (rules 20.4, 20.5), as its events tell.
enum class RedlockClientState : std::uint8_t {
    idle,
    locking,
    working,
    unlocking,
    retrying,
    releasing,
    finished,
    crashed
};
const char* to_string(RedlockClientState state);

struct RedlockClientFact {
    RedlockClientState state = RedlockClientState::idle;
    std::int32_t run = -1;
    std::string token;
    std::int32_t votes = -1;  // the last count's yes answers (-1: none yet)
    bool paused = false;
};

struct RedlockFacts {
    std::vector<RedlockStoreFact> stores;    // in the header's order
    std::vector<RedlockClientFact> clients;  // in the header's candidates' order
    std::int64_t writes = 0, stale = 0, unsafe = 0;
};

// The facts folded one event at a time, in trace order (the app's lanes
// read them after each tick's events).
class RedlockFold {
public:
    explicit RedlockFold(const sim::TraceHeader& header);
    void apply(const sim::Event& e);
    const RedlockFacts& facts() const { return facts_; }

private:
    const sim::TraceHeader* header_;
    RedlockFacts facts_;
    std::vector<std::size_t> unlock_answers_;  // per client: unlock answers since its failed count
};

// The facts after events [0, end) of `trace` (a /5 trace).
RedlockFacts redlock_facts_before(const sim::Trace& trace, std::size_t end);
// The facts at the end of tick `t`: every event up to `t` applied.
RedlockFacts redlock_facts_at(const sim::Trace& trace, Tick t);

// How many stores hold `token`'s key and are up (rule 20.6's count).
std::int32_t redlock_holders(const RedlockFacts& facts, const std::string& token);

// The store's clock at the start of tick `t` in ms since tick 0.
std::int64_t redlock_store_clock_ms(const RedlockStoreFact& store, Tick t, std::int64_t tick_ms);
// The TTL the store's key has left at the end of tick `t` (0 when none or
// past), the moment redlock_facts_at(trace, t) tells: the store's clock at
// the start of tick t + 1. A key set at tick t with a TTL of 10000 ms at
// 50 ms ticks has 9950 ms left then.
std::int64_t redlock_ttl_left_ms(const RedlockStoreFact& store, Tick t, std::int64_t tick_ms);

// An attempt's count (rule 20.4.5) at its `quorum` event: when it began,
// how much time its answers took on the client's clock, the drift, and the
// validity left (negative: too late), sim::redlock_validity_ms.
struct RedlockCount {
    Tick start = 0;
    std::int64_t ttl_ms = 0, drift_ms = 0, elapsed_ms = 0, validity_ms = 0;
    std::int32_t votes = 0, quorum = 0, stores = 0;
    // The tick at which the validity ends, counted on true time (one past
    // the last tick of the window, rounded up).
    Tick valid_until = 0;
    // A trace alone (no scenario names the client): the TTL is the count's
    // `ttl`, but a /5 trace does not carry the client's driftFactor (model.md
    // §20.8), so the package's default (sim::RedlockOptions) is assumed.
    bool drift_factor_assumed = false;
    double drift_factor = 0;
};
// Null when event `index` is not an acquire phase's `quorum`, or when neither
// the scenario names its client (the lease is the candidate's) nor the count
// carries the lease (a trace alone: only a count that locked has its `ttl`).
std::optional<RedlockCount> redlock_count(const sim::Scenario* scenario, const sim::Trace& trace, std::size_t index);

}  // namespace leasescope::words

#pragma once
// The facts of a Redisson trace (model.md §21, `leasescope-trace/6`) at a
// point of it, folded from its events alone: the lock's hash (its field,
// holder, hold count and deadline) and each client's state in Redisson's
// terms (sleeping on the lock's channel until the unlock message or the TTL
// it was told, holding with or without the watchdog, renewal stopped for
// good). The app's lanes and panels read these, so that a simulated run and
// a recorded /6 trace show the same. Pure.
#include <cstdint>
#include <string>
#include <vector>

#include "leasescope/sim/scenario.hpp"
#include "leasescope/sim/trace.hpp"

namespace leasescope::words {

// The hash under the lock's name (rule 21.2.1): one field with its hold count.
struct RedissonRecordFact {
    std::string token;  // the field "<client id>:<thread id>"; empty: no key
    std::string node;   // whose field it is
    std::int32_t run = -1;
    std::int64_t holds = 0;         // the hold count (rule 21.2.3)
    Tick set_at = tick_none;        // the tick its TTL was last set (lock, renewal, kept unlock)
    std::int64_t ttl_ms = 0;        // … to this TTL
    std::int64_t set_clock_ms = 0;  // the store's clock then, ms since tick 0 (jumps included)
    std::int64_t jumps_ms = 0;      // the store's clock's steps so far
};

// What a client is doing (rules 21.3–21.5), as its events tell.
enum class RedissonClientState : std::uint8_t {
    idle,      // no run yet, or between runs
    locking,   // its run has started: an attempt in this tick
    sleeping,  // busy: on the lock's channel until the unlock message or the TTL it was told (21.3.4)
    holding,   // its field holds (or held) the lock: the action runs
    finished,  // its run is over (unlocked, gave up, or failed)
    crashed,
};
const char* to_string(RedissonClientState state);

// How a client's last run ended (finished).
enum class RedissonRunEnd : std::uint8_t { none, unlocked, gave_up, failed };

struct RedissonClientFact {
    RedissonClientState state = RedissonClientState::idle;
    std::int32_t run = -1;
    std::string token;
    // sleeping: the TTL it was told (ms) at its last busy attempt and the tick that TTL runs out
    // (rule 21.3.4: or its waitTime left, if smaller, when the scenario is known).
    std::int64_t told_ttl_ms = 0;
    Tick wake_at = tick_none;
    bool message_lost = false;  // sleeping: an unlock message to it was lost (rule 21.5.3)
    bool woken = false;         // sleeping: an unlock message reached it (rule 21.5.2)
    // holding: the watchdog renews its field every lockWatchdogTimeout / 3 (rule 21.4).
    bool watchdog = false;
    Tick renewed_at = tick_none;   // its last good renewal
    bool renewal_stopped = false;  // a renewal failed or found no field: stopped for good (21.4.3, 21.4.4)
    RedissonRunEnd end = RedissonRunEnd::none;
    Tick ended_at = tick_none;  // finished: the tick its run ended
    bool paused = false;
};

struct RedissonFacts {
    RedissonRecordFact record;
    std::vector<RedissonClientFact> clients;  // in the header's candidates' order
    std::int64_t writes = 0, stale = 0, unsafe = 0;
};

// The facts folded one event at a time, in trace order. `scenario` (may be
// null: a trace alone) says which candidates run the watchdog and their waitTime.
class RedissonFold {
public:
    RedissonFold(const sim::TraceHeader& header, const sim::Scenario* scenario);
    void apply(const sim::Event& e);
    const RedissonFacts& facts() const { return facts_; }

private:
    void apply_record(const sim::Event& e);
    void apply_client(const sim::Event& e, std::size_t i);
    const sim::TraceHeader* header_;
    const sim::Scenario* scenario_;
    RedissonFacts facts_;
    std::vector<Tick> started_;  // per client: its run's start tick (its waitTime's origin)
};

// The facts at the end of tick `t`: every event up to `t` applied.
RedissonFacts redisson_facts_at(const sim::Trace& trace, const sim::Scenario* scenario, Tick t);

// The hash's PTTL in ms at tick `t` on the store's clock (0: gone, or no key): the
// key holds at tick t while this is above 0, as a record is valid before its deadline (§3.3).
std::int64_t redisson_pttl_ms(const RedissonRecordFact& record, Tick t, std::int64_t tick_ms);

}  // namespace leasescope::words

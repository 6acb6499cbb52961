#pragma once
// Live mode (docs/model.md §13): a scenario run in real time against a real Redis,
// by the very scheduler and electors the simulation runs. Only the store (the
// Redis store), the clock (a tick every tick_ms) and the tokens (from the
// operating system) differ. Faults stay emulated by the scheduler: a pause is
// a node not stepped, a partition a call dropped before or after the store,
// a failover deletes this lock's keys.
#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "leasescope/engine/store.hpp"
#include "leasescope/redis/redis_url.hpp"
#include "leasescope/redis/timeouts.hpp"
#include "leasescope/sim/scenario.hpp"
#include "leasescope/sim/trace.hpp"

namespace leasescope::live {

struct LiveOptions {
    // redis://[user:password@]host[:port][/db]
    std::string redis_url = std::string(redis::default_redis_url);
    // The servers given (--redis): a Redlock scenario's stores (model.md rule
    // 20.9.4), one each in the scenario's store order (redis_url is not used
    // then); otherwise empty or redis_url alone.
    std::vector<std::string> store_urls;
    // The scenario's servers 1 ... R (model.md §13.8): replicas of redis_url.
    std::vector<std::string> replica_urls;
    // Permits REPLICAOF and CONFIG SET on the real servers: required by a
    // scenario with replicas (refused without it, exit 2).
    bool allow_failover = false;
    // 0: the scenario's own tick_ms.
    std::int64_t tick_ms = 0;
    redis::Timeouts timeouts;
    // Set from any thread to stop the run within a tick (or 20 ms).
    const std::atomic<bool>* cancel = nullptr;
    // Called with each event as it happens (from the calling thread), for a
    // view that shows the run as it goes.
    std::function<void(const sim::Event&)> on_event;
};

struct TimingFault {
    Tick tick = 0;
    double late_ms = 0;  // how far past the tick's deadline its commands finished
};

struct LiveReport {
    // The live trace: the same format as a simulated one. When the run stopped
    // early (error, cancel) it holds the events so far and a summary of them.
    sim::Trace trace;
    std::int64_t tick_ms = 0;   // the tick length used (the header says it too)
    std::string redis;          // the server, password redacted
    std::int32_t replicas = 0;  // real replicas the run was given (model.md §13.8)
    bool completed = false;     // ran to the end of the scenario
    bool cancelled = false;
    // Ticks whose commands finished after the tick's deadline (its end less
    // timing_margin_ms): their answers may differ from the model's for
    // reasons of time, not of logic.
    std::vector<TimingFault> timing_faults;
    // Bad input (a malformed URL, a lock name live mode cannot use): exit 2.
    std::optional<std::string> input_error;
    // Redis unreachable, failing or gone (exit 3). A Redis error reply or a
    // lost connection stops the run: its answers would not be the model's.
    std::optional<StoreError> backend_error;
    // Set with backend_error when another live run of the same lock holds
    // this server's run-ownership key: this run was refused before it
    // touched any key (or stopped when it lost the key), so that neither run
    // ends with a verdict made of the other's commands.
    bool lock_in_use = false;

    bool ok() const { return completed && !input_error && !backend_error; }
};

// How each fault in the scenario is emulated live, one line per fault kind
// present (empty when there are none). Faults are never real: no process is
// paused, no network cut, no replica promoted.
std::vector<std::string> emulated_faults(const sim::Scenario& scenario);
// Why live mode refuses the scenario (bad input, exit 2), or nothing: a lock
// name it cannot use. Time on the wire (model.md §16) is not refused: the
// scheduler holds every message until its arrival tick, in live mode too.
std::optional<std::string> live_refusal(const sim::Scenario& scenario);

// The error when `given` servers (--redis) do not fit the scenario: one per
// store for a Redlock scenario (model.md rule 20.9.4), one otherwise.
std::optional<std::string> redis_count_error(const sim::Scenario& scenario, std::size_t given);

// Why `scenario` cannot run live, or nothing: a store clock that drifts is
// simulated only, and so is a store's jump for Redisson; the elector's store
// and Redlock's run a jump by moving their keys' deadlines, except with
// replicas or a second jump of one store that is not whole ticks of the
// scenario's tick_ms (model.md §13.6). run_live refuses such a scenario with
// this message as its input error, before it connects.
std::optional<std::string> simulated_only(const sim::Scenario& scenario);

// Runs `scenario` live. A Redlock scenario runs on options.store_urls, one
// server per store (model.md rule 20.9.4): its key must be absent on each at
// the start, and the run deletes at the end only the values it set. Otherwise
// it first claims the lock's run-ownership key on the
// server (a random id with a lease of run_owner_lease_ms(tick_ms), renewed as
// the run goes; refused when another run holds it), then resets the lock's
// namespace, and at the end removes it and releases the key; touches no other
// key. Never throws for an operating error.
LiveReport run_live(const sim::Scenario& scenario, const LiveOptions& options);

// The lease of the run-ownership key: long enough to outlast one tick's wait
// between renewals, short enough that a killed run frees the lock soon.
inline std::int64_t run_owner_lease_ms(std::int64_t tick_ms) { return 5'000 + 3 * tick_ms; }

// The scenario as run live: tick_ms replaced when `tick_ms` > 0.
sim::Scenario with_tick_ms(const sim::Scenario& scenario, std::int64_t tick_ms);

struct Comparison {
    sim::Trace simulated;
    std::optional<sim::Divergence> divergence;  // nullopt: identical
};
// Simulates the scenario at the live run's tick_ms and compares event by
// event, token values ignored.
Comparison compare_with_model(const sim::Scenario& scenario, const LiveReport& live);

// Acquire-plus-release round trips against the Redis store, in a namespace
// of its own (removed afterwards).
struct BenchResult {
    std::int64_t pairs = 0;
    double p50_us = 0;
    double p99_us = 0;
    double mean_us = 0;
    double max_us = 0;
    std::optional<std::string> input_error;
    std::optional<StoreError> backend_error;
};
BenchResult bench_acquire_release(const std::string& redis_url, std::int64_t pairs,
                                  const redis::Timeouts& timeouts = {});

}  // namespace leasescope::live

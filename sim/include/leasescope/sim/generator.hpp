#pragma once
// The scenario generator behind `leasescope-cli generate`, the benchmarks and
// the fuzz seeds: a valid scenario of any size from one seed.
//
// Everything is derived from the seed through splitmix64, and the JSON is
// written by hand in a fixed layout, so the same arguments give the same bytes
// on every compiler and standard library.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "leasescope/engine/types.hpp"
#include "leasescope/sim/limits.hpp"
#include "leasescope/sim/scenario.hpp"

namespace leasescope::sim {

enum class GeneratedClient { elector, redlock };

struct GeneratorOptions {
    std::int64_t candidates = 10;
    Tick horizon = 1'000'000;
    std::uint64_t seed = 1;
    bool shuffled = false;  // order "shuffled" instead of "declared"
    bool faults = true;     // pauses, partitions, a crash and a failover
    // Time on the wire (model.md §16): a top-level "network" of 0-4 ticks
    // and delays on (up to) three nodes. Off, the default: the same bytes as
    // before the option existed (tools/trace_corpus.sh).
    bool latencies = false;
    // Replication (model.md §17): 1-2 replicas, cuts of their links, a
    // failover promoting a replica with lag 0-2 (in place of the failover
    // that loses the leases), sometimes min_replicas_to_write 1 and some
    // nodes with wait_replicas. Drawn from its own generator; off, the
    // default: the same bytes as before the option existed.
    bool replication = false;
    // The client (model.md §5 or §20). With `redlock` the generator draws a
    // Redlock scenario of its own size (generate_redlock_scenario) and
    // candidates, horizon, shuffled, latencies and replication do not apply.
    GeneratedClient client = GeneratedClient::elector;
};

// What the replication option adds, as the scenario will hold it (the JSON
// the generator writes says the same): the store's servers, some nodes'
// WAIT, the cuts and the promoting failover, listed after the other faults.
struct GeneratedReplication {
    std::int32_t replicas = 0;
    std::int32_t min_replicas_to_write = 0;
    std::vector<std::pair<std::int64_t, std::int32_t>> waits;  // (candidate, wait_replicas), by candidate
    std::vector<Fault> faults;                                 // replica_link cuts, then the failover
};
GeneratedReplication generated_replication(const GeneratorOptions& o);

// Limits the generator enforces on its own arguments (the CLI reports them),
// defined with every other limit in limits.hpp.
using limits::generator_candidates_max;
using limits::generator_horizon_max;
using limits::generator_horizon_min;

// The slots of the generated lock: one per 2,000 candidates, at least 1, at
// most 64, so big scenarios keep a few nodes executing at once (a group lock)
// while small ones are the single-leader lock.
std::int32_t generated_capacity(std::int64_t candidates);

// Writes a valid scenario. The load is tuned so that, on average, about 1.5
// nodes per slot want the lock at any tick: enough contention for busy
// replies, skips and retries without every tick being full.
// With `client` redlock, generate_redlock_scenario's.
std::string generate_scenario(const GeneratorOptions& o);

// A Redlock scenario (model.md §20) from `seed` (and `faults`), inside what
// tests/redlock/driver.js runs through the real npm package: 1, 3 or 5
// stores (mostly 5), 1-3 candidates with varied starts, leases, actions,
// writes and second runs; the client's retry_count 0-4, retry_delay_ms a
// multiple of 200, no jitter, a drift_factor; faults: pauses and a crash of
// candidates, restarts of 0-3 stores with persistence none or always,
// sometimes overlapping. Every duration is whole ticks, so it runs at any
// tick_ms; 36 ticks of 200 ms.
std::string generate_redlock_scenario(const GeneratorOptions& o);

}  // namespace leasescope::sim

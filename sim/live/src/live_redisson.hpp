#pragma once
// Redisson live (docs/model.md rule 21.9.5): a Redisson scenario's client
// run, the simulation's RedissonRun, in real time on one real server that
// runs Redisson 3.31.0's own lock, renew and unlock scripts, sent by EVALSHA
// over one hiredis connection.
#include <optional>
#include <string>
#include <vector>

#include "leasescope/live/live_driver.hpp"

namespace leasescope::live {

// How each fault of a Redisson scenario is emulated live, one line per kind present.
std::vector<std::string> redisson_emulated_faults(const sim::Scenario& scenario);

// Why a Redisson scenario cannot run live with these options (a --replica:
// the client runs on one server), or nothing. The store's clock faults are
// simulated_only's.
std::optional<std::string> redisson_live_refusal(const LiveOptions& options);

// The PX live mode sends for a TTL of `ttl_ms`: ⌈ttl / tick⌉ ticks less half
// a tick, so that a key set at a tick's middle is gone half a tick before the
// expiry phase that the model's deadline names (rule 21.9.5).
std::int64_t redisson_live_px_ms(std::int64_t ttl_ms, std::int64_t tick_ms);

// run_live for a Redisson scenario (tick_ms already applied): refuses what
// live mode cannot run, then runs on options.redis_url.
LiveReport run_live_redisson(const sim::Scenario& scenario, const LiveOptions& options);

}  // namespace leasescope::live

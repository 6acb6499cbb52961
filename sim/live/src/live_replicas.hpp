#pragma once
// Live mode on a real primary and real replicas (docs/model.md §13.8): the
// checks before anything is touched, the configuration for the run and the
// restoration of the topology and configuration found.
#include <optional>
#include <string>
#include <vector>

#include "leasescope/live/live_driver.hpp"
#include "leasescope/redis/redis_store.hpp"

namespace leasescope::live {

// The two settings a run changes, as found on one server.
struct FoundConfig {
    std::string min_replicas_to_write;
    std::string min_replicas_max_lag;
};
// What the run found and must leave as it was.
struct FoundTopology {
    std::vector<FoundConfig> configs;  // by server
    bool configured = false;           // CONFIG SET was sent
};

// Bad arguments or a scenario live mode cannot run on real replicas (exit 2),
// decided without a connection; nothing otherwise.
std::optional<std::string> replication_argument_error(const sim::Scenario& scenario, const LiveOptions& options);

// Connects the replicas and checks, touching nothing, that each is an
// up-to-date replica of the primary and that no server is given twice; then
// reads the configs a run changes. False when it failed (reason in `report`).
bool attach_replicas(redis::RedisStore& store, const LiveOptions& options, FoundTopology& found, LiveReport& report);

// CONFIG SET min-replicas-to-write and min-replicas-max-lag on every server
// for the run (model.md §17.4), when the scenario sets min_replicas_to_write.
StoreResult<Unit> configure_min_replicas(redis::RedisStore& store, const sim::Scenario& scenario, FoundTopology& found);

// Puts the configs back as found, removes the run's keys from every server
// that is a primary now and puts the topology back (server 0 the primary,
// every other its linked replica); the caller then removes the run's keys
// once more from server 0.
// Every step is tried; the first failure is the answer.
StoreResult<Unit> restore_topology(redis::RedisStore& store, const FoundTopology& found);

}  // namespace leasescope::live

#pragma once
// What the replication tests share (model.md §17): three nodes whose story a
// failover can change, and the two faults of §17, set in code.
#include <cstdint>

#include "trace_test_helpers.hpp"

namespace repl_test {

namespace sim = leasescope::sim;
using leasescope::Tick;

// node-a acquires at 0 for 4 ticks and works on (a stale holder from tick
// 4); node-b acquires at 4 when a's record expires; node-c starts at 5.
inline sim::Scenario three_nodes(std::int32_t replicas) {
    sim::Scenario s = trace_test::parse(R"({"name": "replication", "horizon": 30, "resource": {"mode": "check"},
      "candidates": [
        {"name": "node-a", "wait": 0, "lease": 4, "action": 12, "writes": [2, 10]},
        {"name": "node-b", "start": 4, "wait": 0, "lease": 3, "action": 1},
        {"name": "node-c", "start": 5, "wait": 6, "lease": 4, "action": 2}]})");
    s.lock.replication.replicas = replicas;
    return s;
}

// failover{at, promote: server, lag} (§17.3).
inline sim::Fault promote(Tick at, std::int32_t server, Tick lag) {
    sim::Fault f;
    f.kind = sim::FaultKind::failover;
    f.at = at;
    f.server = server;
    f.lag = lag;
    return f;
}

// replica_link{replica: server, at, ticks} (§17.2).
inline sim::Fault cut(std::int32_t server, Tick at, Tick ticks) {
    sim::Fault f;
    f.kind = sim::FaultKind::replica_link;
    f.server = server;
    f.at = at;
    f.ticks = ticks;
    return f;
}

}  // namespace repl_test

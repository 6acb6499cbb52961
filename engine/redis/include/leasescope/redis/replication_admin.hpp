#pragma once
// The administration commands live mode sends to a real primary and its
// replicas (docs/model.md §13.8, docs/live-mode.md): INFO replication and
// server, ROLE, REPLICAOF, WAIT and CONFIG, each answering a value or a
// StoreError that names the server.
#include <cstdint>
#include <string>

#include "leasescope/redis/redis_connection.hpp"
#include "leasescope/redis/redis_url.hpp"

namespace leasescope::redis {

// What INFO replication and INFO server say about one server.
struct ReplicationInfo {
    std::string run_id;       // INFO server: run_id
    std::string role;         // "master" or "slave"
    std::string master_host;  // slave only
    std::int64_t master_port = 0;
    bool link_up = false;  // slave only: master_link_status:up
};
Result<ReplicationInfo, StoreError> replication_info(RedisConnection& server);

// Whether `info` names `primary` as its master (host compared loosely for
// loopback: 127.0.0.1 and localhost are one host).
bool is_replica_of(const ReplicationInfo& info, const RedisUrl& primary);

// REPLICAOF NO ONE: the server keeps its data and answers as a primary.
StoreResult<Unit> detach(RedisConnection& server);
// REPLICAOF host port: the server drops its data and resynchronises.
StoreResult<Unit> attach(RedisConnection& server, const RedisUrl& primary);
// Waits (polling every millisecond, at most `bound_ms`) until `replica`
// says master_link_status:up and `primary`'s ROLE lists a replica on
// `replica_port` online, so that WAIT and min-replicas-to-write count it.
StoreResult<Unit> wait_linked(RedisConnection& replica, RedisConnection& primary, int replica_port,
                              std::int64_t bound_ms);
// Waits (at most `bound_ms`) until `primary`'s ROLE no longer lists a replica on `replica_port`.
StoreResult<Unit> wait_unlinked(RedisConnection& primary, int replica_port, std::int64_t bound_ms);
// ROLE on a primary: how many replicas are online.
StoreResult<std::int32_t> online_replicas(RedisConnection& primary);
// WAIT numreplicas timeout_ms.
StoreResult<std::int32_t> wait_replicas(RedisConnection& primary, std::int32_t replicas, std::int64_t timeout_ms);

Result<std::string, StoreError> config_get(RedisConnection& server, const std::string& name);
StoreResult<Unit> config_set(RedisConnection& server, const std::string& name, const std::string& value);

}  // namespace leasescope::redis

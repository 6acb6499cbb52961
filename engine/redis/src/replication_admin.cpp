// INFO, ROLE, REPLICAOF, WAIT and CONFIG for live mode on real replicas (replication_admin.hpp).
#include "leasescope/redis/replication_admin.hpp"

#include <chrono>
#include <thread>

namespace leasescope::redis {
namespace {

Err<StoreError> reply_error(const RedisConnection& server, const std::string& command, const redisReply* r) {
    return Err{
        StoreError{"unexpected reply from " + command + " on " + server.where() + ": " + describe_reply(r), false}};
}

// The value of `key` in INFO's "key:value\r\n" lines, or empty.
std::string info_field(std::string_view text, std::string_view key) {
    std::size_t at = 0;
    while (at < text.size()) {
        std::size_t end = text.find('\n', at);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(at, end - at);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (line.size() > key.size() && line.substr(0, key.size()) == key && line[key.size()] == ':')
            return std::string(line.substr(key.size() + 1));
        at = end + 1;
    }
    return {};
}

Result<std::string, StoreError> info_text(RedisConnection& server, const char* section) {
    auto reply = server.command({"INFO", section});
    if (!reply.ok()) return Err{reply.error()};
    const redisReply* r = reply.value().get();
    if (r->type != REDIS_REPLY_STRING) return reply_error(server, "INFO", r);
    return std::string(r->str, r->len);
}

bool loopback(const std::string& host) { return host == "127.0.0.1" || host == "localhost" || host == "::1"; }

}  // namespace

Result<ReplicationInfo, StoreError> replication_info(RedisConnection& server) {
    auto repl = info_text(server, "replication");
    if (!repl.ok()) return Err{repl.error()};
    auto srv = info_text(server, "server");
    if (!srv.ok()) return Err{srv.error()};
    ReplicationInfo out;
    out.run_id = info_field(srv.value(), "run_id");
    out.role = info_field(repl.value(), "role");
    out.master_host = info_field(repl.value(), "master_host");
    const std::string port = info_field(repl.value(), "master_port");
    out.master_port = port.empty() ? 0 : std::stoll(port);
    out.link_up = info_field(repl.value(), "master_link_status") == "up";
    if (out.run_id.empty() || out.role.empty()) {
        return Err{StoreError{"INFO on " + server.where() + " gave no run_id or role", false}};
    }
    return out;
}

bool is_replica_of(const ReplicationInfo& info, const RedisUrl& primary) {
    if (info.role != "slave" || info.master_port != primary.port) return false;
    return info.master_host == primary.host || (loopback(info.master_host) && loopback(primary.host));
}

StoreResult<Unit> detach(RedisConnection& server) {
    auto reply = server.command({"REPLICAOF", "NO", "ONE"});
    if (!reply.ok()) return Err{reply.error()};
    return Unit{};
}

StoreResult<Unit> attach(RedisConnection& server, const RedisUrl& primary) {
    const std::string port = std::to_string(primary.port);
    auto reply = server.command({"REPLICAOF", primary.host, port});
    if (!reply.ok()) return Err{reply.error()};
    return Unit{};
}

// True when `primary`'s ROLE lists an online replica listening on `port`.
static Result<bool, StoreError> lists_replica(RedisConnection& primary, int port) {
    auto reply = primary.command({"ROLE"});
    if (!reply.ok()) return Err{reply.error()};
    const redisReply* r = reply.value().get();
    if (r->type != REDIS_REPLY_ARRAY || r->elements < 3 || r->element[2]->type != REDIS_REPLY_ARRAY)
        return false;  // not (yet) a primary
    const redisReply* list = r->element[2];
    for (std::size_t i = 0; i < list->elements; ++i) {
        const redisReply* e = list->element[i];
        if (e->type == REDIS_REPLY_ARRAY && e->elements >= 2 && e->element[1]->type == REDIS_REPLY_STRING &&
            std::string(e->element[1]->str, e->element[1]->len) == std::to_string(port))
            return true;
    }
    return false;
}

StoreResult<Unit> wait_linked(RedisConnection& replica, RedisConnection& primary, int replica_port,
                              std::int64_t bound_ms) {
    const auto begin = std::chrono::steady_clock::now();
    for (;;) {
        auto info = replication_info(replica);
        if (!info.ok()) return Err{info.error()};
        if (info.value().link_up) {
            auto listed = lists_replica(primary, replica_port);
            if (!listed.ok()) return Err{listed.error()};
            if (listed.value()) return Unit{};
        }
        if (std::chrono::steady_clock::now() - begin > std::chrono::milliseconds(bound_ms)) {
            return Err{StoreError{"the replica " + replica.where() + " did not link to its primary " + primary.where() +
                                      " within " + std::to_string(bound_ms) +
                                      " ms (master_link_status not up, or the primary's ROLE does not list it)",
                                  false}};
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
}

StoreResult<Unit> wait_unlinked(RedisConnection& primary, int replica_port, std::int64_t bound_ms) {
    const auto begin = std::chrono::steady_clock::now();
    for (;;) {
        auto listed = lists_replica(primary, replica_port);
        if (!listed.ok()) return Err{listed.error()};
        if (!listed.value()) return Unit{};
        if (std::chrono::steady_clock::now() - begin > std::chrono::milliseconds(bound_ms)) {
            return Err{StoreError{primary.where() + " still lists its replica on port " + std::to_string(replica_port) +
                                      " " + std::to_string(bound_ms) + " ms after it was detached",
                                  false}};
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
}

StoreResult<std::int32_t> online_replicas(RedisConnection& primary) {
    auto reply = primary.command({"ROLE"});
    if (!reply.ok()) return Err{reply.error()};
    const redisReply* r = reply.value().get();
    if (r->type != REDIS_REPLY_ARRAY || r->elements < 3 || r->element[2]->type != REDIS_REPLY_ARRAY)
        return reply_error(primary, "ROLE", r);
    return static_cast<std::int32_t>(r->element[2]->elements);
}

StoreResult<std::int32_t> wait_replicas(RedisConnection& primary, std::int32_t replicas, std::int64_t timeout_ms) {
    const std::string n = std::to_string(replicas);
    const std::string ms = std::to_string(timeout_ms);
    auto reply = primary.command({"WAIT", n, ms});
    if (!reply.ok()) return Err{reply.error()};
    const redisReply* r = reply.value().get();
    if (r->type != REDIS_REPLY_INTEGER) return reply_error(primary, "WAIT", r);
    return static_cast<std::int32_t>(r->integer);
}

Result<std::string, StoreError> config_get(RedisConnection& server, const std::string& name) {
    auto reply = server.command({"CONFIG", "GET", name});
    if (!reply.ok()) return Err{reply.error()};
    const redisReply* r = reply.value().get();
    if (r->type == REDIS_REPLY_ARRAY && r->elements == 2) {
        const redisReply* v = r->element[1];
        if (v->type == REDIS_REPLY_STRING) return std::string(v->str, v->len);
    }
    return reply_error(server, "CONFIG GET " + name, r);
}

StoreResult<Unit> config_set(RedisConnection& server, const std::string& name, const std::string& value) {
    auto reply = server.command({"CONFIG", "SET", name, value});
    if (!reply.ok()) return Err{reply.error()};
    return Unit{};
}

}  // namespace leasescope::redis

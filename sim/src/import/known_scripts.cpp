// The scripts LeaseScope recognises in a capture (docs/model.md §19.3.3):
// LeaseScope's own live store, the Kotlin elector the model follows and
// Redisson's RLock. Each body is a quoted fact of real code, kept exactly as
// its client sends it (an EVAL's first argument; the SHA-1 of these bytes is
// what EVALSHA names), with the file and line it was copied from.
#include <string>
#include <string_view>
#include <vector>

#include "leasescope/redis/redisson_scripts.hpp"
#include "leasescope/redis/script_calls.hpp"
#include "leasescope/sim/import.hpp"

namespace leasescope::sim::import {
namespace {

// bluetape4k/bluetape4k-leader 0.4.0 (commit 17ab7f87), module
// leader-redis-lettuce, LettuceLock.kt (LettuceSuspendLock.kt:52/65 holds the
// same bytes). Kotlin raw strings: the body starts with the newline after the
// opening quotes and ends with "end"; the file has LF line ends. The lock
// itself is taken with a plain `SET key token NX PX ms` (LettuceLock.kt:109),
// which rule 19.3.1 reads.
constexpr std::string_view kotlin_unlock = R"lua(
if redis.call('get', KEYS[1]) == ARGV[1] then
  local ttl = tonumber(ARGV[2])
  if ttl and ttl > 0 then
    return redis.call('pexpire', KEYS[1], ttl)
  end
  return redis.call('del', KEYS[1])
else
  return 0
end)lua";

constexpr std::string_view kotlin_extend = R"lua(
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('pexpire', KEYS[1], ARGV[2])
else
  return 0
end)lua";

// redisson/redisson, tag redisson-3.27.2 (commit 87ad36a8). Redisson builds
// its scripts by Java string concatenation: the literals below are the Java
// ones, in order, so the bytes are those it sends (no newlines at all).
// The lock, unlock and renew scripts are live mode's own
// (leasescope/redis/redisson_scripts.hpp, the Java literals of 3.31.0, which
// are 3.27.2's byte for byte), so the importer and live mode name one text.
constexpr std::string_view redisson_try_lock = redis::redisson_lock_script;
constexpr std::string_view redisson_unlock = redis::redisson_unlock_script;
constexpr std::string_view redisson_renew = redis::redisson_renew_script;

constexpr std::string_view redisson_force_unlock =
    "if (redis.call('del', KEYS[1]) == 1) then "
    "redis.call(ARGV[2], KEYS[2], ARGV[1]); "
    "return 1 "
    "else "
    "return 0 "
    "end";

// LeaseScope's own store (model.md §13.2): KEYS are the slots, the counter
// and the hold-off, every one the lock's; ARGV as script_calls.cpp builds
// them. The line is that of the script's definition in lua_scripts.cpp.
void add_leasescope(std::vector<KnownScript>& out) {
    using redis::ScriptId;
    struct Row {
        ScriptId id;
        ScriptOp op;
        std::int32_t token, owner, lease;
        std::string_view source;
    };
    static constexpr Row rows[] = {
        {ScriptId::acquire, ScriptOp::acquire, 2, 1, 3, "engine/redis/src/lua_scripts.cpp:10"},
        {ScriptId::extend, ScriptOp::extend, 1, 0, 2, "engine/redis/src/lua_scripts.cpp:46"},
        {ScriptId::release, ScriptOp::release, 1, 0, 0, "engine/redis/src/lua_scripts.cpp:58"},
        {ScriptId::status, ScriptOp::status, 0, 0, 0, "engine/redis/src/lua_scripts.cpp:87"},
        {ScriptId::validate, ScriptOp::validate, 1, 0, 0, "engine/redis/src/lua_scripts.cpp:101"},
        {ScriptId::expire, ScriptOp::none, 0, 0, 0, "engine/redis/src/lua_scripts.cpp:116"},
        {ScriptId::failover, ScriptOp::none, 0, 0, 0, "engine/redis/src/lua_scripts.cpp:126"},
    };
    for (const Row& row : rows) {
        out.push_back({.library = "leasescope",
                       .name = redis::script_name(row.id),
                       .op = row.op,
                       .body = redis::script_source(row.id),
                       .token_argv = row.token,
                       .owner_argv = row.owner,
                       .lease_argv = row.lease,
                       .lock_key_index = 0,
                       .lock_keys = 0,
                       .source = row.source});
    }
}

// KEYS[1] the lock (a string: the token); ARGV[1] the token; ARGV[2] the
// lease (extend) or what is left of the minimum lease (unlock: 0 deletes).
void add_kotlin(std::vector<KnownScript>& out) {
    out.push_back(
        {.library = "kotlin-elector",
         .name = "UNLOCK_SCRIPT",
         .op = ScriptOp::release,
         .body = kotlin_unlock,
         .token_argv = 1,
         .source = "leader-redis-lettuce/src/main/kotlin/io/bluetape4k/leader/lettuce/lock/LettuceLock.kt:52 (0.4.0)"});
    out.push_back(
        {.library = "kotlin-elector",
         .name = "EXTEND_SCRIPT",
         .op = ScriptOp::extend,
         .body = kotlin_extend,
         .token_argv = 1,
         .lease_argv = 2,
         .source = "leader-redis-lettuce/src/main/kotlin/io/bluetape4k/leader/lettuce/lock/LettuceLock.kt:65 (0.4.0)"});
}

// KEYS[1] the lock (a hash: field uuid:threadId, value the re-entry count);
// the token is that field. tryLock: ARGV[1] lease ms, ARGV[2] token. unlock:
// KEYS[2] the channel, KEYS[3] the unlock latch; ARGV[1] the unlock message
// (0), ARGV[2] the watchdog lease ms, ARGV[3] token, ARGV[4] "PUBLISH" or
// "SPUBLISH", ARGV[5] the latch's ms. renew: ARGV[1] lease ms, ARGV[2] token.
// forceUnlock: KEYS[2] the channel; ARGV[1] the message, ARGV[2] the command.
void add_redisson(std::vector<KnownScript>& out) {
    out.push_back({.library = "redisson",
                   .name = "tryLockInnerAsync",
                   .op = ScriptOp::acquire,
                   .body = redisson_try_lock,
                   .token_argv = 2,
                   .lease_argv = 1,
                   .source = "redisson/src/main/java/org/redisson/RedissonLock.java:214 (3.27.2)"});
    out.push_back({.library = "redisson",
                   .name = "unlockInnerAsync",
                   .op = ScriptOp::release,
                   .body = redisson_unlock,
                   .token_argv = 3,
                   .source = "redisson/src/main/java/org/redisson/RedissonLock.java:339 (3.27.2)"});
    out.push_back({.library = "redisson",
                   .name = "renewExpirationAsync",
                   .op = ScriptOp::extend,
                   .body = redisson_renew,
                   .token_argv = 2,
                   .lease_argv = 1,
                   .source = "redisson/src/main/java/org/redisson/RedissonBaseLock.java:183 (3.27.2)"});
    out.push_back({.library = "redisson",
                   .name = "forceUnlockAsync",
                   .op = ScriptOp::release,
                   .body = redisson_force_unlock,
                   .source = "redisson/src/main/java/org/redisson/RedissonLock.java:327 (3.27.2)"});
}

std::vector<KnownScript> build_known_scripts() {
    std::vector<KnownScript> out;
    add_leasescope(out);
    add_kotlin(out);
    add_redisson(out);
    return out;
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

}  // namespace

const std::vector<KnownScript>& known_scripts() {
    static const std::vector<KnownScript> scripts = build_known_scripts();
    return scripts;
}

std::string normalize_script(std::string_view body) {
    std::string out;
    out.reserve(body.size());
    bool pending_space = false;
    for (char c : body) {
        if (is_space(c)) {
            pending_space = !out.empty();
            continue;
        }
        if (pending_space) out.push_back(' ');
        pending_space = false;
        out.push_back(c);
    }
    return out;
}

}  // namespace leasescope::sim::import

#pragma once
// Redisson's RLock scripts, byte for byte as redisson-parent-3.31.0 sends
// them (docs/model.md rule 21.9.5): Redisson builds each by Java string
// concatenation, so the literals below are the Java ones, in order (no
// newlines at all), and their SHA-1 is that of the bytes Redisson sends
// (the test RedissonLiveArgs.TheScriptsAreRedissonsBytes pins it to the
// real capture tests/data/import/redisson.monitor). The importer
// (sim/src/import/known_scripts.cpp) recognises these very strings. Files
// are under redisson/src/main/java/org/redisson/ at that tag. No hiredis
// (target leasescope::redis_scripts).
#include <string_view>

namespace leasescope::redis {

// RedissonLock.tryLockInnerAsync (RedissonLock.java 220-226): KEYS[1] the
// lock's name, ARGV[1] the lease in ms, ARGV[2] the field "<id>:<thread>".
inline constexpr std::string_view redisson_lock_script =
    "if ((redis.call('exists', KEYS[1]) == 0) "
    "or (redis.call('hexists', KEYS[1], ARGV[2]) == 1)) then "
    "redis.call('hincrby', KEYS[1], ARGV[2], 1); "
    "redis.call('pexpire', KEYS[1], ARGV[1]); "
    "return nil; "
    "end; "
    "return redis.call('pttl', KEYS[1]);";

// RedissonBaseLock.renewExpirationAsync (RedissonBaseLock.java 185-189):
// KEYS[1] the name, ARGV[1] internalLockLeaseTime, ARGV[2] the field.
inline constexpr std::string_view redisson_renew_script =
    "if (redis.call('hexists', KEYS[1], ARGV[2]) == 1) then "
    "redis.call('pexpire', KEYS[1], ARGV[1]); "
    "return 1; "
    "end; "
    "return 0;";

// RedissonLock.unlockInnerAsync (RedissonLock.java 346-364): KEYS the name,
// the channel and the unlock latch; ARGV the unlock message (0),
// internalLockLeaseTime, the field, the publish command and the latch's PX.
inline constexpr std::string_view redisson_unlock_script =
    "local val = redis.call('get', KEYS[3]); "
    "if val ~= false then "
    "return tonumber(val);"
    "end; "

    "if (redis.call('hexists', KEYS[1], ARGV[3]) == 0) then "
    "return nil;"
    "end; "
    "local counter = redis.call('hincrby', KEYS[1], ARGV[3], -1); "
    "if (counter > 0) then "
    "redis.call('pexpire', KEYS[1], ARGV[2]); "
    "redis.call('set', KEYS[3], 0, 'px', ARGV[5]); "
    "return 0; "
    "else "
    "redis.call('del', KEYS[1]); "
    "redis.call(ARGV[4], KEYS[2], ARGV[1]); "
    "redis.call('set', KEYS[3], 1, 'px', ARGV[5]); "
    "return 1; "
    "end; ";

}  // namespace leasescope::redis

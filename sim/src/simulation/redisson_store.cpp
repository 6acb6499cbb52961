// The model's Redisson store (docs/model.md §21.2, redisson_store.hpp): the
// lock, renew and unlock scripts of redisson-parent-3.31.0 on one record
// with a deadline on the store's clock. Pure: the store's clock is the
// tick's moment plus its jumps. RL is RedissonLock.java, BL
// RedissonBaseLock.java (redisson/src/main/java/org/redisson/ at that tag).
#include "leasescope/sim/redisson_store.hpp"

#include "client_run.hpp"

namespace leasescope::sim {

std::int64_t ModelRedissonStore::now_half_ms(Tick t) const { return scenario_->lock.clock.reading_at_tick(t) + jumps_; }

Tick ModelRedissonStore::expiry_tick() const {
    LS_ASSERT(scenario_->lock.clock.drift_ppm == 0);
    // now_half_ms(t) = 2·t·tick_ms + tick_ms + jumps ≥ deadline, the least such t.
    const std::int64_t two_ticks = 2 * scenario_->tick_ms;
    return -client_run::floor_div(-(record_.deadline - jumps_ - scenario_->tick_ms), two_ticks);
}

std::optional<Token> ModelRedissonStore::held_field(Tick t) const {
    if (!record_.held || now_half_ms(t) >= record_.deadline) return std::nullopt;
    return record_.field;
}

// RL 220-226: a free key or the caller's own field is (re-)entered, hincrby
// and pexpire, nil; else the PTTL, in whole ms rounded up (rule 21.2.4).
RedissonLockAnswer ModelRedissonStore::lock(const RedissonCaller& caller, std::int64_t ttl_ms, Tick t) {
    const std::optional<Token> held = held_field(t);
    if (held && *held != caller.field) return {false, (record_.deadline - now_half_ms(t) + 1) / 2};
    follow_lock(caller, ttl_ms, t);
    return {false, std::nullopt};
}

// BL 185-189: pexpire when the hash has the field.
RedissonAnswer ModelRedissonStore::renew(const Token& field, std::int64_t ttl_ms, Tick t) {
    if (held_field(t) != field) return RedissonAnswer::zero;
    follow_renew(ttl_ms, t);
    return RedissonAnswer::one;
}

// RL 351-363: nil without the field; hincrby -1; above 0 pexpire and 0; at
// 0 del (and PUBLISH, which the run delivers, rule 21.5.2) and 1.
RedissonAnswer ModelRedissonStore::unlock(const Token& field, std::int64_t ttl_ms, Tick t) {
    if (held_field(t) != field) return RedissonAnswer::nil;
    const RedissonAnswer answer = record_.holds > 1 ? RedissonAnswer::zero : RedissonAnswer::one;
    follow_unlock(answer, ttl_ms, t);
    return answer;
}

void ModelRedissonStore::follow_lock(const RedissonCaller& caller, std::int64_t ttl_ms, Tick t) {
    if (!held_field(t)) record_ = RedissonRecord{true, caller.field, caller.owner, caller.run, 0, 0};
    ++record_.holds;  // hincrby field 1
    record_.owner = caller.owner;
    record_.run = caller.run;
    record_.deadline = now_half_ms(t) + 2 * ttl_ms;  // pexpire
}

void ModelRedissonStore::follow_unlock(RedissonAnswer answer, std::int64_t ttl_ms, Tick t) {
    if (answer == RedissonAnswer::one) {
        record_ = RedissonRecord{};
    } else if (answer == RedissonAnswer::zero) {
        --record_.holds;
        record_.deadline = now_half_ms(t) + 2 * ttl_ms;
    }
}

}  // namespace leasescope::sim

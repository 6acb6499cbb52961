#pragma once
// What Redisson's one store answers (docs/model.md §21.2, rule 21.9.4):
// RLock's lock, renew and unlock scripts of redisson-parent-3.31.0 and the
// hash's field as HKEYS answers it, behind one interface. The model's store
// (ModelRedissonStore, held by value in RedissonRun, pure and copyable)
// answers in the simulation; live mode's (sim/live, one hiredis connection)
// answers from a real server running Redisson's Lua.
#include <cstdint>
#include <optional>

#include "leasescope/engine/types.hpp"
#include "leasescope/sim/scenario.hpp"

namespace leasescope::sim {

// The lock's hash (rule 21.2.1): one field "<client id>:<thread id>" with its
// hold count, and the key's deadline on the store's clock.
struct RedissonRecord {
    bool held = false;
    Token field;
    NodeIndex owner = -1;
    std::int32_t run = -1;  // the owner's run that last took or entered it
    std::int64_t holds = 0;
    std::int64_t deadline = 0;  // half milliseconds on the store's clock
    bool operator==(const RedissonRecord&) const = default;
};

// Who sends the lock script: its field (ARGV[2]) and, for the record the
// trace names, its candidate and run.
struct RedissonCaller {
    Token field;
    NodeIndex owner = -1;
    std::int32_t run = -1;
};

// The lock script's answer (RL 218-228): nil (acquired or re-entered) or the
// key's PTTL in ms; or an error (a lost connection, an error reply).
struct RedissonLockAnswer {
    bool error = false;
    std::optional<std::int64_t> pttl_ms;  // none: nil
};

// The renew and unlock scripts' answers: nil, the integers 0 and 1, or an error.
enum class RedissonAnswer : std::uint8_t { nil, zero, one, error };

// The four things a Redisson run asks of its store at tick t.
class RedissonStoreOps {
public:
    virtual ~RedissonStoreOps() = default;
    // tryLockInnerAsync's script (RL 218-228) with KEYS[1] the lock's name,
    // ARGV[1] `ttl_ms`, ARGV[2] the caller's field.
    virtual RedissonLockAnswer lock(const RedissonCaller& caller, std::int64_t ttl_ms, Tick t) = 0;
    // renewExpirationAsync's script (BL 183-192): one when the hash has
    // `field` (its TTL set to `ttl_ms`), zero when it has not.
    virtual RedissonAnswer renew(const Token& field, std::int64_t ttl_ms, Tick t) = 0;
    // unlockInnerAsync's script (RL 344-368): nil when the hash has no
    // `field`; zero when its hold count stays above 0 (TTL `ttl_ms`); one
    // when it deleted the hash and published the unlock message.
    virtual RedissonAnswer unlock(const Token& field, std::int64_t ttl_ms, Tick t) = 0;
    // The field holding the hash now: none when it is absent or expired.
    virtual std::optional<Token> holder(Tick t) = 0;
    // The store's clock jumped at tick t: the hash's deadline moves `step_ms`
    // earlier (later when negative). The model keeps its jumps itself and
    // needs nothing here; live mode moves the real key (model.md §13.6).
    virtual void clock_jump(std::int64_t /*step_ms*/, Tick /*t*/) {}

protected:
    RedissonStoreOps() = default;
    RedissonStoreOps(const RedissonStoreOps&) = default;
    RedissonStoreOps& operator=(const RedissonStoreOps&) = default;
};

// The model's store (rules 21.2, 21.5.1, 21.4.2): the record with its
// deadline on the store's clock. In live mode it is the run's record of what
// the real store answered (rule 21.9.5), followed through the follow_ calls.
class ModelRedissonStore final : public RedissonStoreOps {
public:
    explicit ModelRedissonStore(const Scenario& scenario) : scenario_(&scenario) {}

    RedissonLockAnswer lock(const RedissonCaller& caller, std::int64_t ttl_ms, Tick t) override;
    RedissonAnswer renew(const Token& field, std::int64_t ttl_ms, Tick t) override;
    RedissonAnswer unlock(const Token& field, std::int64_t ttl_ms, Tick t) override;
    std::optional<Token> holder(Tick t) override { return held_field(t); }

    // As holder(), for a const caller.
    std::optional<Token> held_field(Tick t) const;
    // The store's clock at tick t, half milliseconds (§3.3 rule 4).
    std::int64_t now_half_ms(Tick t) const;
    // A jump of the store's clock (§3.3), half milliseconds.
    void jump(std::int64_t half_ms) { jumps_ += half_ms; }
    // The first tick whose store moment reaches the record's deadline, given
    // the jumps so far (not limited to the ticks to come): live mode's
    // expiry tick of the real key (model.md §13.6 rule 3). A store without
    // drift only (live mode refuses a drift).
    Tick expiry_tick() const;
    // The record as the store answered: taken or re-entered (nil to a lock),
    // renewed (one), or one hold less (zero to an unlock) or gone (one).
    void follow_lock(const RedissonCaller& caller, std::int64_t ttl_ms, Tick t);
    void follow_renew(std::int64_t ttl_ms, Tick t) { record_.deadline = now_half_ms(t) + 2 * ttl_ms; }
    void follow_unlock(RedissonAnswer answer, std::int64_t ttl_ms, Tick t);
    // The expiry phase found the key gone (§3.3 rule 5).
    void forget() { record_ = RedissonRecord{}; }

    const RedissonRecord& record() const { return record_; }

private:
    const Scenario* scenario_;
    RedissonRecord record_;
    std::int64_t jumps_ = 0;  // half milliseconds: the store clock's steps so far
};

}  // namespace leasescope::sim

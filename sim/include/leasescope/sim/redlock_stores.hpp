#pragma once
// What a Redlock store answers (docs/model.md §20.2, rule 20.9.3): the
// package's lock script, its unlock script and the key's value, behind one
// interface. The model's stores (ModelRedlockStores, held by value in
// RedlockRun, pure and copyable) answer in the simulation; live mode's
// (sim/live, a hiredis connection per store) answer from real servers.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "leasescope/engine/types.hpp"
#include "leasescope/sim/scenario.hpp"

namespace leasescope::sim {

// One store's lock key (rule 20.2.1) and its life (rule 20.3).
struct RedlockKey {
    bool held = false;
    Token value;
    NodeIndex owner = -1;
    std::int32_t run = -1;
    std::int64_t deadline = 0;  // half milliseconds on the store's clock
    bool operator==(const RedlockKey&) const = default;
};

struct RedlockStore {
    RedlockKey key;
    std::int64_t jumps = 0;  // half milliseconds: its clock's steps so far
    bool down = false;
    std::int32_t epoch = 0;                       // times it went down: a connection older than that broke
    RedlockKey disk;                              // everysec: the key as the last whole second's fsync had it
    RedlockKey kept;                              // the key when it went down (always keeps it)
    Persistence persistence = Persistence::none;  // of the restart going on
};

// The three things a client run asks of store s at tick t. An answer of -1
// is an error (a connection refused or broken, rule 20.3).
class RedlockStoreOps {
public:
    virtual ~RedlockStoreOps() = default;
    // The lock script (redlock.js 9-24): SET the key to `key.value` with a
    // lease of `lease` ticks if it does not exist. 1 set, 0 it exists.
    virtual std::int32_t lock(std::size_t s, const RedlockKey& key, Tick lease, Tick t) = 0;
    // The unlock script (redlock.js 26-38): DEL the key if it holds `token`.
    // 1 deleted, 0 it held another value or none.
    virtual std::int32_t unlock(std::size_t s, const Token& token, Tick t) = 0;
    // The key's value as GET answers it now: none when absent or expired.
    virtual std::optional<Token> value(std::size_t s, Tick t) = 0;
    // Store s's clock jumps `ms` at tick t (rule 20.2.4). The model keeps the
    // sum in RedlockStore::jumps and needs nothing here; live mode moves the
    // deadline of the key on that server instead (model.md §13.6).
    virtual void clock_jump(std::size_t /*s*/, std::int64_t /*ms*/, Tick /*t*/) {}

protected:
    RedlockStoreOps() = default;
    RedlockStoreOps(const RedlockStoreOps&) = default;
    RedlockStoreOps& operator=(const RedlockStoreOps&) = default;
};

// The model's stores (rules 20.2, 20.3): keys with deadlines on each store's
// clock. In live mode they are the run's record of what it set, following the
// real stores' answers (rule 20.9.4), as the npm driver's record does.
class ModelRedlockStores final : public RedlockStoreOps {
public:
    explicit ModelRedlockStores(const Scenario& scenario);

    std::int32_t lock(std::size_t s, const RedlockKey& key, Tick lease, Tick t) override;
    std::int32_t unlock(std::size_t s, const Token& token, Tick t) override;
    std::optional<Token> value(std::size_t s, Tick t) override { return held_value(s, t); }

    // As value(), for a const caller.
    std::optional<Token> held_value(std::size_t s, Tick t) const;
    // Store s's clock at tick t, half milliseconds (rule 20.2.5).
    std::int64_t now_half_ms(std::size_t s, Tick t) const;
    // The key as the real store answered: set with the model's deadline
    // (answer 1 to a lock), or cleared (answer 1 to an unlock).
    void follow_lock(std::size_t s, const RedlockKey& key, Tick lease, Tick t);
    void follow_unlock(std::size_t s) { stores_[s].key = RedlockKey{}; }

    const std::vector<RedlockStore>& stores() const { return stores_; }
    RedlockStore& at(std::size_t s) { return stores_[s]; }
    std::size_t size() const { return stores_.size(); }

private:
    const Scenario* scenario_;
    std::vector<RedlockStore> stores_;
};

}  // namespace leasescope::sim

// The model's Redlock stores (docs/model.md §20.2, redlock_stores.hpp): the
// package's lock and unlock scripts on keys with deadlines on each store's
// clock. Pure: the store's clock is the tick's moment plus its jumps.
#include "leasescope/sim/redlock_stores.hpp"

#include "leasescope/engine/clock.hpp"

namespace leasescope::sim {

ModelRedlockStores::ModelRedlockStores(const Scenario& scenario)
    : scenario_(&scenario), stores_(scenario.stores.size()) {}

std::int64_t ModelRedlockStores::now_half_ms(std::size_t s, Tick t) const {
    // A monotonic store's expiry does not see its clock's jumps (rule 20.2.5).
    const std::int64_t jumps = scenario_->stores_clock == StoresClock::monotonic ? 0 : stores_[s].jumps;
    return clock_moment_half_ms(t, scenario_->tick_ms) + jumps;
}

std::optional<Token> ModelRedlockStores::held_value(std::size_t s, Tick t) const {
    const RedlockStore& st = stores_[s];
    if (st.down || !st.key.held || now_half_ms(s, t) >= st.key.deadline) return std::nullopt;
    return st.key.value;
}

// redlock.js 11-15: 0 if the key exists; 17-20: SET it PX ttl.
std::int32_t ModelRedlockStores::lock(std::size_t s, const RedlockKey& key, Tick lease, Tick t) {
    if (held_value(s, t)) return 0;
    follow_lock(s, key, lease, t);
    return 1;
}

// redlock.js 28-34: DEL the key when GET gives this token.
std::int32_t ModelRedlockStores::unlock(std::size_t s, const Token& token, Tick t) {
    const std::optional<Token> v = held_value(s, t);
    if (!v || *v != token) return 0;
    follow_unlock(s);
    return 1;
}

void ModelRedlockStores::follow_lock(std::size_t s, const RedlockKey& key, Tick lease, Tick t) {
    RedlockKey& k = stores_[s].key;
    k = key;
    k.held = true;
    k.deadline = now_half_ms(s, t) + 2 * lease * scenario_->tick_ms;
}

}  // namespace leasescope::sim

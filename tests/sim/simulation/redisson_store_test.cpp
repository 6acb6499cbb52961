// The Redisson store layer (docs/model.md rules 21.9.4, 21.9.5): the model's
// store answers RLock's three scripts as rules 21.2, 21.4.2 and 21.5.1 say,
// and a run whose store answers through the interface from outside (live
// mode's path, here onto a second model) writes the very trace of the plain
// simulation, byte for byte.
#include <gtest/gtest.h>

#include <string>

#include "leasescope/sim/redisson_store.hpp"
#include "leasescope/sim/simulation.hpp"
#include "support/preset_loader.hpp"
#include "support/trace_test_helpers.hpp"

namespace {

using namespace leasescope;
using sim::RedissonAnswer;

// One candidate, tick 10 ms.
sim::Scenario redisson_scenario() {
    return trace_test::parse(
        R"({"name": "rs", "tick_ms": 10, "horizon": 200, "client": "redisson",
            "defaults": {"wait": 0, "lease": 5, "action": 2}, "candidates": [{"name": "a"}]})");
}

sim::RedissonCaller caller(const std::string& field) { return sim::RedissonCaller{field, 0, 0}; }

// Rule 21.2.2: a free key is taken (nil) for the TTL on the store's clock; a
// key held by another field answers its PTTL in whole ms, rounded up.
TEST(RedissonStore, TheLockScriptTakesAFreeKeyOrAnswersThePttl) {
    const sim::Scenario s = redisson_scenario();
    sim::ModelRedissonStore store(s);
    EXPECT_EQ(store.lock(caller("x:1"), 50, 0).pttl_ms, std::nullopt);
    EXPECT_EQ(store.record().deadline, store.now_half_ms(0) + 2 * 50);
    const sim::RedissonLockAnswer busy = store.lock(caller("y:1"), 50, 2);
    EXPECT_FALSE(busy.error);
    EXPECT_EQ(busy.pttl_ms, std::optional<std::int64_t>(30));  // 50 ms set at tick 0, 20 ms gone
    EXPECT_EQ(store.holder(4), std::optional<Token>("x:1"));
    EXPECT_EQ(store.holder(5), std::nullopt);  // its 50 ms have passed
    EXPECT_EQ(store.lock(caller("y:1"), 50, 5).pttl_ms, std::nullopt);
    EXPECT_EQ(store.record().field, "y:1");
    EXPECT_EQ(store.record().holds, 1);
}

// Rules 21.2.3, 21.5.1: the same field re-enters (hold count 2, TTL reset);
// an unlock then keeps the hash (zero), the next deletes it (one); a field
// that does not hold it is nil.
TEST(RedissonStore, ReentranceAndTheUnlockScript) {
    const sim::Scenario s = redisson_scenario();
    sim::ModelRedissonStore store(s);
    ASSERT_EQ(store.lock(caller("x:1"), 50, 0).pttl_ms, std::nullopt);
    ASSERT_EQ(store.lock(caller("x:1"), 50, 3).pttl_ms, std::nullopt);
    EXPECT_EQ(store.record().holds, 2);
    EXPECT_EQ(store.record().deadline, store.now_half_ms(3) + 2 * 50);
    EXPECT_EQ(store.unlock("y:1", 50, 4), RedissonAnswer::nil);
    EXPECT_EQ(store.unlock("x:1", 50, 4), RedissonAnswer::zero);
    EXPECT_EQ(store.record().holds, 1);
    EXPECT_EQ(store.record().deadline, store.now_half_ms(4) + 2 * 50);
    EXPECT_EQ(store.unlock("x:1", 50, 5), RedissonAnswer::one);
    EXPECT_FALSE(store.record().held);
    EXPECT_EQ(store.unlock("x:1", 50, 5), RedissonAnswer::nil);
}

// Rule 21.4.2: the renew script sets the TTL when the hash has the field,
// else answers zero; an expired hash has no field; a store's clock jump
// brings the expiry closer.
TEST(RedissonStore, TheRenewScriptAndTheStoresClock) {
    const sim::Scenario s = redisson_scenario();
    sim::ModelRedissonStore store(s);
    ASSERT_EQ(store.lock(caller("x:1"), 50, 0).pttl_ms, std::nullopt);
    EXPECT_EQ(store.renew("y:1", 50, 3), RedissonAnswer::zero);
    EXPECT_EQ(store.renew("x:1", 50, 3), RedissonAnswer::one);
    EXPECT_EQ(store.holder(7), std::optional<Token>("x:1"));
    store.jump(2 * 20);  // 20 ms ahead
    EXPECT_EQ(store.holder(7), std::nullopt);
    EXPECT_EQ(store.renew("x:1", 50, 7), RedissonAnswer::zero);
}

// Rule 21.9.5: a store answering through the interface from outside (as live
// mode's real server does), the run's record following its answers, gives
// the plain simulation's trace byte for byte, on both presets and on
// scenarios with both partition modes (an orphan lock, a lost unlock), an
// expiry, a crash and reentrance.
TEST(RedissonStore, AStoreAnsweringFromOutsideGivesTheSimulatedTrace) {
    std::vector<sim::Scenario> scenarios{test::load_preset("watchdog-redisson"),
                                         test::load_preset("lost-unlock-redisson")};
    scenarios.push_back(trace_test::parse(
        R"({"name": "rs", "tick_ms": 100, "horizon": 300, "client": "redisson", "seed": 3,
            "redisson": {"lock_watchdog_timeout_ms": 3000},
            "defaults": {"wait": 30, "lease": 10, "action": 25, "auto_extend": true, "runs": 2, "every": 5},
            "candidates": [{"name": "a", "writes": [3, 20]}, {"name": "b", "start": 2}, {"name": "c", "start": 4}],
            "faults": [{"kind": "partition", "node": "a", "mode": "drop_replies", "at": 24, "ticks": 2},
                       {"kind": "partition", "node": "b", "mode": "drop_requests", "at": 30, "ticks": 3},
                       {"kind": "crash", "node": "c", "at": 60}]})"));
    scenarios.push_back(trace_test::parse(  // a re-entered hash, its unlock answering 0 (rule 21.2.3)
        R"({"name": "rs-reenter", "tick_ms": 100, "horizon": 60, "client": "redisson",
            "defaults": {"wait": 20, "lease": 6, "action": 3, "runs": 2, "every": 4},
            "candidates": [{"name": "a", "writes": [2]}, {"name": "b", "start": 1, "runs": 1}],
            "faults": [{"kind": "partition", "node": "a", "mode": "drop_requests", "at": 3, "ticks": 1}]})"));
    for (const sim::Scenario& s : scenarios) {
        SCOPED_TRACE(s.name);
        const sim::Trace simulated = sim::simulate(s);
        sim::ModelRedissonStore outside(s);
        const sim::Trace through =
            trace_test::run_attached(s, [&](sim::Simulation& run) { run.use_redisson_store(&outside); });
        const auto divergence = sim::first_divergence(simulated, through);
        EXPECT_FALSE(divergence.has_value()) << divergence->description;
        EXPECT_EQ(trace_test::trace_bytes(simulated), trace_test::trace_bytes(through));
    }
}

}  // namespace

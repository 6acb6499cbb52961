// The Redlock store layer (docs/model.md rules 20.9.3, 20.9.4): the model's
// stores answer the package's scripts as rules 20.2 and 20.3 say, and a run
// whose stores answer through the interface from outside (live mode's path,
// here onto a second model) writes the very trace of the plain simulation.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "leasescope/sim/redlock_stores.hpp"
#include "leasescope/sim/simulation.hpp"
#include "support/trace_test_helpers.hpp"

namespace {

using namespace leasescope;

// Three stores, tick 10 ms.
sim::Scenario three_redlock_stores(const std::string& extra = "") {
    return trace_test::parse(
        R"({"name": "rl", "tick_ms": 10, "horizon": 200, "client": "redlock", "stores": ["A", "B", "C"],
            "defaults": {"wait": 0, "lease": 5, "action": 2}, "candidates": [{"name": "a"}])" +
        extra + "}");
}

sim::RedlockKey redlock_key_of(const std::string& token) { return sim::RedlockKey{true, token, 0, 0, 0}; }

// Rule 20.2.2: the lock script sets the key when it does not exist, with a
// deadline of the lease on the store's clock; GET sees it until then.
TEST(RedlockStores, TheLockScriptSetsAnAbsentKeyForTheLease) {
    const sim::Scenario s = three_redlock_stores();
    sim::ModelRedlockStores stores(s);
    EXPECT_EQ(stores.lock(0, redlock_key_of("x"), 5, 0), 1);
    EXPECT_EQ(stores.lock(0, redlock_key_of("y"), 5, 0), 0);
    EXPECT_EQ(stores.value(0, 0), std::optional<Token>("x"));
    EXPECT_EQ(stores.value(0, 4), std::optional<Token>("x"));
    EXPECT_EQ(stores.value(0, 5), std::nullopt);  // the lease of 5 ticks has passed
    EXPECT_EQ(stores.value(1, 0), std::nullopt);  // another store has no key
    EXPECT_EQ(stores.lock(0, redlock_key_of("y"), 5, 5), 1);
    EXPECT_EQ(stores.stores()[0].key.value, "y");
    EXPECT_EQ(stores.stores()[0].key.deadline, stores.now_half_ms(0, 5) + 2 * 5 * 10);
}

// Rule 20.2.2: the unlock script deletes the key only when it holds the token.
TEST(RedlockStores, TheUnlockScriptDeletesOnlyItsOwnToken) {
    const sim::Scenario s = three_redlock_stores();
    sim::ModelRedlockStores stores(s);
    ASSERT_EQ(stores.lock(2, redlock_key_of("x"), 5, 0), 1);
    EXPECT_EQ(stores.unlock(2, "y", 1), 0);
    EXPECT_EQ(stores.value(2, 1), std::optional<Token>("x"));
    EXPECT_EQ(stores.unlock(2, "x", 1), 1);
    EXPECT_EQ(stores.value(2, 1), std::nullopt);
    EXPECT_EQ(stores.unlock(2, "x", 1), 0);
    EXPECT_EQ(stores.unlock(2, "x", 9), 0);  // nor an expired key
}

// Rules 20.2.4, 20.2.5: a store's clock jump ends its key early; a
// monotonic store's expiry does not see it; a down store holds nothing.
TEST(RedlockStores, AJumpOrADownStoreEndsTheKey) {
    const sim::Scenario s = three_redlock_stores();
    sim::ModelRedlockStores stores(s);
    ASSERT_EQ(stores.lock(0, redlock_key_of("x"), 5, 0), 1);
    stores.at(0).jumps += 2 * 40;  // 40 ms: the store's clock is at 4.5 ticks' time in tick 0
    EXPECT_EQ(stores.value(0, 0), std::optional<Token>("x"));
    EXPECT_EQ(stores.value(0, 1), std::nullopt);
    const sim::Scenario mono = three_redlock_stores(R"(, "stores_clock": "monotonic")");
    ASSERT_EQ(mono.stores_clock, sim::StoresClock::monotonic);
    sim::ModelRedlockStores m(mono);
    ASSERT_EQ(m.lock(0, redlock_key_of("x"), 5, 0), 1);
    m.at(0).jumps += 2 * 40;
    EXPECT_EQ(m.value(0, 1), std::optional<Token>("x"));
    ASSERT_EQ(stores.lock(1, redlock_key_of("x"), 5, 0), 1);
    stores.at(1).down = true;
    EXPECT_EQ(stores.value(1, 0), std::nullopt);
}

// A scenario file of the source tree.
sim::Scenario load_source_scenario(const std::string& relative) {
    std::ifstream in(std::string(LEASESCOPE_SOURCE_DIR) + "/" + relative);
    std::stringstream text;
    text << in.rdbuf();
    return trace_test::parse(text.str());
}

// Rule 20.9.4: stores answering through the interface from outside (as live
// mode's real servers do), the run's record following their answers, give
// the plain simulation's trace, token for token, on every scenario whose
// faults live mode emulates.
TEST(RedlockStores, StoresAnsweringFromOutsideGiveTheSimulatedTrace) {
    for (const char* file : {"scenarios/redlock-gc-pause.json", "tests/redlock/scenarios/contending.json",
                             "tests/redlock/scenarios/crash.json", "tests/redlock/scenarios/interleaved.json",
                             "tests/redlock/scenarios/one-store.json", "tests/redlock/scenarios/pause-late-write.json",
                             "tests/redlock/scenarios/uncontended.json"}) {
        SCOPED_TRACE(file);
        const sim::Scenario s = load_source_scenario(file);
        const sim::Trace simulated = sim::simulate(s);
        sim::ModelRedlockStores outside(s);
        const sim::Trace through =
            trace_test::run_attached(s, [&](sim::Simulation& run) { run.use_redlock_stores(&outside); });
        const auto divergence = sim::first_divergence(simulated, through);
        EXPECT_FALSE(divergence.has_value()) << divergence->description;
        EXPECT_EQ(trace_test::trace_bytes(simulated), trace_test::trace_bytes(through));
    }
}

}  // namespace

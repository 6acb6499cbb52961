// Redlock live's bad input (docs/model.md rule 20.9.4), decided before any
// connection: the count of servers, a store's restart, a second store clock
// jump that is not whole ticks (§13.6 rule 4);
// and the elector's scenario still takes one server.
#include <gtest/gtest.h>

#include <string>

#include "leasescope/live/live_driver.hpp"
#include "support/trace_test_helpers.hpp"

namespace {

using namespace leasescope;

sim::Scenario redlock_scenario(const std::string& faults = "") {
    return trace_test::parse(
        R"({"name": "rl", "tick_ms": 10, "client": "redlock", "stores": ["A", "B", "C"],
            "defaults": {"wait": 0, "lease": 5, "action": 2}, "candidates": [{"name": "a"}])" +
        faults + "}");
}

live::LiveReport run_on(const sim::Scenario& s, std::size_t servers) {
    live::LiveOptions options;
    for (std::size_t i = 0; i < servers; ++i)
        options.store_urls.push_back("redis://127.0.0.1:" + std::to_string(i + 1));
    return live::run_live(s, options);
}

// One --redis per store, in the stores' order: another count names the count expected and the stores.
TEST(RedlockLiveArgs, OneServerPerStore) {
    const sim::Scenario s = redlock_scenario();
    EXPECT_EQ(live::redis_count_error(s, 3), std::nullopt);
    for (std::size_t given : {0u, 1u, 2u, 5u}) {
        const auto error = live::redis_count_error(s, given);
        ASSERT_TRUE(error.has_value());
        EXPECT_NE(error->find("the scenario has 3 stores (A, B, C, /stores): live mode needs 3 servers"),
                  std::string::npos)
            << *error;
        EXPECT_NE(error->find(std::to_string(given) + " given"), std::string::npos) << *error;
        const live::LiveReport report = run_on(s, given);
        ASSERT_TRUE(report.input_error.has_value());
        EXPECT_EQ(*report.input_error, *error);
        EXPECT_FALSE(report.backend_error.has_value());  // refused before connecting
    }
    const sim::Scenario one = trace_test::parse(R"({"name": "e", "defaults": {"wait": 0, "lease": 5, "action": 2},
                              "candidates": [{"name": "a"}]})");
    EXPECT_EQ(live::redis_count_error(one, 0), std::nullopt);
    EXPECT_EQ(live::redis_count_error(one, 1), std::nullopt);
    ASSERT_TRUE(live::redis_count_error(one, 2).has_value());
    EXPECT_NE(live::redis_count_error(one, 2)->find("the scenario has one store"), std::string::npos);
}

// A store's restart is refused naming its JSON path, and so is a second jump
// of one store's clock that is not whole ticks (§13.6 rule 4); a store's
// clock jump otherwise runs (rules 1-3).
TEST(RedlockLiveArgs, StoreFaultsAreRefusedByPath) {
    const sim::Scenario two_jumps = redlock_scenario(
        R"(, "faults": [{"kind": "pause", "node": "a", "at": 1, "ticks": 2},
                        {"kind": "clock_jump", "clock": "B", "at": 3, "ms": 505},
                        {"kind": "clock_jump", "clock": "C", "at": 3, "ms": -7},
                        {"kind": "clock_jump", "clock": "B", "at": 4, "ms": 500},
                        {"kind": "clock_jump", "clock": "B", "at": 5, "ms": 3}])");
    const live::LiveReport jumped = run_on(two_jumps, 3);
    ASSERT_TRUE(jumped.input_error.has_value());
    EXPECT_NE(jumped.input_error->find("fault 4 (/faults/4) jumps store B's clock by 3 ms, the second jump of that "
                                       "clock that is not whole ticks of 10 ms; that fault is simulated only"),
              std::string::npos)
        << *jumped.input_error;
    sim::Scenario one_each = two_jumps;
    one_each.faults.pop_back();
    EXPECT_EQ(live::simulated_only(one_each), std::nullopt);
    const sim::Scenario restart =
        redlock_scenario(R"(, "faults": [{"kind": "restart", "store": "C", "at": 3, "ticks": 2}])");
    const live::LiveReport restarted = run_on(restart, 3);
    ASSERT_TRUE(restarted.input_error.has_value());
    EXPECT_NE(restarted.input_error->find("fault 0 (/faults/0) restarts a store"), std::string::npos)
        << *restarted.input_error;
    // A pause, a crash, a partition and a delay are emulated: not refused.
    const sim::Scenario emulated = redlock_scenario(
        R"(, "faults": [{"kind": "pause", "node": "a", "at": 1, "ticks": 2},
                        {"kind": "partition", "node": "a", "at": 0, "ticks": 3, "stores": ["C"]}])");
    EXPECT_EQ(live::simulated_only(emulated), std::nullopt);
    const live::LiveReport report = run_on(emulated, 3);
    EXPECT_FALSE(report.input_error.has_value());
    EXPECT_TRUE(report.backend_error.has_value());  // nobody listens on ports 1-3
}

}  // namespace

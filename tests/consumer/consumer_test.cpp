// The consumer's tests: its scenario matches its golden trace (the
// GoogleTest assertion from leasescope/testing.hpp), a changed setting is
// caught with the first divergent event named, and its own code runs
// through run_if_leader against the model store.
#include <algorithm>
#include <string>

#include <gtest/gtest.h>

#include "leasescope/engine/model_store.hpp"
#include "leasescope/engine/run_if_leader.hpp"
#include "leasescope/testing.hpp"

using namespace leasescope;

namespace {

const std::string scenario_file = std::string(CONSUMER_DIR) + "/scenarios/report-lock.json";
const std::string golden_file = std::string(CONSUMER_DIR) + "/golden/report-lock.jsonl";

class LogicalTime final : public TickSource {
public:
    Tick now() override { return now_; }
    void wait_until(Tick t) override { now_ = std::max(now_, t); }

private:
    Tick now_ = 0;
};

}  // namespace

// The scenario kept beside the code still gives its reviewed golden trace.
TEST(Consumer, ScenarioMatchesGolden) { LEASESCOPE_EXPECT_MATCHES_GOLDEN(scenario_file, golden_file); }

// A changed lease is caught, and the message names the first divergent event.
TEST(Consumer, ChangedLeaseIsCaught) {
    auto scenario = sim::parse_scenario(R"({"name": "report-lock", "horizon": 40,
        "lock": {"name": "report:nightly", "elector": "lock"}, "resource": {"mode": "check"},
        "defaults": {"wait": 3, "lease": 20, "action": 8},
        "candidates": [{"name": "worker-1"}, {"name": "worker-2", "start": 2, "writes": [4, 8]}],
        "faults": [{"kind": "pause", "node": "worker-1", "at": 3, "ticks": 12}]})",
                                        "inline");
    ASSERT_TRUE(scenario.ok()) << scenario.error().to_string();
    const ::testing::AssertionResult r =
        leasescope::testing::trace_matches_golden(sim::simulate(scenario.value()), golden_file);
    EXPECT_FALSE(r);
    EXPECT_NE(std::string(r.message()).find("A = golden, B = now"), std::string::npos) << r.message();
    EXPECT_NE(std::string(r.message()).find("first"), std::string::npos) << r.message();
}

// The consumer's job runs under run_if_leader against the model store: the
// first caller is elected with the first fencing number, a second caller
// meanwhile is skipped.
TEST(Consumer, RunIfLeaderOnModelStore) {
    ModelStore store(LockConfig{"report:nightly", 1, 100});
    LogicalTime time;
    SplitMix64 rng(7);
    ElectorOptions options;
    options.wait = 0;
    options.lease = 10;
    int ticks_worked = 0;
    LeaderRun second;
    const LeaderRun first = run_if_leader(store, time, rng, "worker-1", options, [&](const ActionContext& c) {
        ++ticks_worked;
        if (c.progress == 1) {
            second = run_if_leader(store, time, rng, "worker-2", options,
                                   [](const ActionContext&) { return ActionStep::done; });
        }
        return c.progress == 3 ? ActionStep::done : ActionStep::keep_going;
    });
    EXPECT_EQ(first.result, RunResult::elected);
    EXPECT_EQ(first.fencing, 100);
    EXPECT_EQ(ticks_worked, 3);
    EXPECT_EQ(second.result, RunResult::skipped);
    EXPECT_FALSE(second.fencing.has_value());
}

// The installed presets are where the package says.
TEST(Consumer, InstalledPresetsValidate) {
    LEASESCOPE_EXPECT_MATCHES_GOLDEN(std::string(LEASESCOPE_DATA_DIR) + "/scenarios/expiry-takeover.json",
                                     std::string(LEASESCOPE_DATA_DIR) + "/golden/expiry-takeover.jsonl");
}

// The app's Find panel without a window (app.cpp, jobs.cpp): "the smallest
// fault of each kind" runs to its end through the commands the panel's
// buttons push, tells each kind, loads the first kind that breaks, and Show
// loads another kind's counterexample.
#include <gtest/gtest.h>

#include "app_test_support.hpp"

using namespace leasescope;
using namespace leasescope::gui;

namespace {

// gc-pause-no-fencing without its pause (tests/gui/find_test.sh has the same scenario).
const std::string no_faults = std::string(LEASESCOPE_SOURCE_DIR) + "/tests/gui/gc-pause-no-faults.json";

void run_to_end(App& app) {
    for (int frame = 0; app.jobs_busy() && frame < 100000; ++frame) app.poll_jobs();
    ASSERT_FALSE(app.jobs_busy());
}

}  // namespace

TEST(FindApp, TheSmallestFaultOfEachKindLoadsTheFirstAndShowLoadsAnother) {
    auto app = test::open_app(no_faults);
    app->set_find_budget_ms(1);  // many small slices, as frames give them
    app->apply({command::FindToggle{}});
    app->apply({command::FindRun{sim::Properties{}, 2, true}});
    const FindStatus& s = app->find_status();
    EXPECT_TRUE(s.smallest);
    EXPECT_TRUE(s.running);
    EXPECT_FALSE(s.pause_grid);  // 6 ticks: every length
    EXPECT_EQ(s.pause_sizes, (std::vector<Tick>{1, 6}));
    run_to_end(*app);
    ASSERT_TRUE(s.error.empty()) << s.error;
    EXPECT_TRUE(s.finished);
    ASSERT_EQ(s.kinds.size(), 4u);  // pause, partition, crash, failover
    EXPECT_EQ(s.kinds[0].kind, sim::FaultClass::pause);
    EXPECT_EQ(s.kinds[0].threshold, Tick{3});
    EXPECT_EQ(s.kinds[0].held, Tick{2});
    EXPECT_FALSE(s.kinds[1].threshold);  // no partition up to 6 ticks
    EXPECT_EQ(s.kinds[1].held, Tick{6});
    EXPECT_FALSE(s.kinds[2].threshold);  // no crash
    EXPECT_EQ(s.kinds[3].kind, sim::FaultClass::failover);
    EXPECT_TRUE(s.kinds[3].has_counterexample);
    // The pause is on screen: its fault is in the scenario, the playhead on the violation.
    EXPECT_EQ(s.shown, 0);
    ASSERT_EQ(app->timeline()->scenario().faults.size(), 1u);
    EXPECT_EQ(app->timeline()->scenario().faults[0].kind, sim::FaultKind::pause);
    EXPECT_EQ(app->timeline()->scenario().faults[0].ticks, 3);
    EXPECT_EQ(s.violation_tick, 8);
    // Show on the failover loads its counterexample instead.
    app->apply({command::FindShow{3}});
    EXPECT_EQ(s.shown, 3);
    ASSERT_EQ(app->timeline()->scenario().faults.size(), 1u);
    EXPECT_EQ(app->timeline()->scenario().faults[0].kind, sim::FaultKind::failover);
    // A kind without a counterexample, or none at all, changes nothing.
    app->apply({command::FindShow{2}});
    app->apply({command::FindShow{9}});
    EXPECT_EQ(s.shown, 3);
    EXPECT_EQ(app->timeline()->scenario().faults[0].kind, sim::FaultKind::failover);
}

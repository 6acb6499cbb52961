#pragma once
// Field-by-field comparisons of explorer results, shared by the explorer and
// shard tests, so a mismatch names the counter that differs.
#include <gtest/gtest.h>

#include "leasescope/sim/explorer.hpp"

namespace leasescope::test {

inline void expect_same_stats(const sim::SearchStats& a, const sim::SearchStats& b) {
    EXPECT_EQ(a.schedules, b.schedules);
    EXPECT_EQ(a.simulated, b.simulated);
    EXPECT_EQ(a.pruned, b.pruned);
    EXPECT_EQ(a.invalid, b.invalid);
    EXPECT_EQ(a.failing, b.failing);
    EXPECT_EQ(a.ticks, b.ticks);
}

inline void expect_same_report(const sim::ExploreReport& a, const sim::ExploreReport& b) {
    EXPECT_EQ(a.complete, b.complete);
    EXPECT_EQ(a.found, b.found);
    EXPECT_EQ(a.drawn, b.drawn);
    EXPECT_EQ(a.drawn_index, b.drawn_index);
    ASSERT_EQ(a.levels.size(), b.levels.size());
    for (std::size_t i = 0; i < a.levels.size(); ++i) {
        EXPECT_EQ(a.levels[i].faults, b.levels[i].faults);
        expect_same_stats(a.levels[i].stats, b.levels[i].stats);
    }
    expect_same_stats(a.totals, b.totals);
}

}  // namespace leasescope::test

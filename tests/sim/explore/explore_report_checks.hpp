#pragma once
// Field-by-field comparisons of explorer results, shared by the explorer and
// shard tests, so a mismatch names the counter that differs.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "leasescope/sim/explore_shard.hpp"
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

// The result files of a search split into `shards` parts, each searched on
// its own, as explore --shard K/N writes them.
inline std::vector<sim::ShardFile> shard_files(const sim::Explorer& ex, std::uint64_t shards) {
    std::vector<sim::ShardFile> files;
    for (std::uint64_t k = 0; k < shards; ++k) {
        sim::ExploreRun run;
        run.shard = k;
        run.shards = shards;
        const sim::ExploreReport part = sim::explore(ex, run);
        files.push_back(sim::ShardFile{"shard-" + std::to_string(k) + ".json",
                                       sim::shard_result_to_json(ex, run, part, sim::ShardTiming{})});
    }
    return files;
}

}  // namespace leasescope::test

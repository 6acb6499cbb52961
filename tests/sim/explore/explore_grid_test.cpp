// Fault sizes on a grid (--grid kind=LO..HI, docs/explorer.md "Grids"): the
// grid's shape, the errors that name the flag and the nearest whole ticks,
// atoms laid out only at the grid's sizes, --minimize scanning the grid (the
// practitioner's 20 s pause at a tenth of the scale), and shards that carry
// the grid into the merge.
#include "support/preset_loader.hpp"

#include <gtest/gtest.h>

#include "leasescope/sim/explore_shard.hpp"
#include "leasescope/sim/explorer.hpp"

namespace leasescope::sim {
namespace {

Scenario practitioner_small() {
    auto parsed = parse_scenario(test::read_all(test::source_dir + "/tests/data/explore/practitioner-small.json"),
                                 "practitioner-small.json");
    EXPECT_TRUE(parsed.ok());
    return std::move(parsed).value();
}

TEST(ExploreGrid, OneTwoFivePerDecadeBetweenTheBounds) {
    // 100 ms … 50 s at 50 ms ticks: 100 ms, 200 ms, 500 ms, 1 s, 2 s, 5 s, 10 s, 20 s, 50 s.
    EXPECT_EQ(size_grid(2, 1000, 50), (std::vector<Tick>{2, 4, 10, 20, 40, 100, 200, 400, 1000}));
    // Bounds off the 1-2-5 steps are kept; points between are rounded to the nearest tick.
    EXPECT_EQ(size_grid(3, 7, 30), (std::vector<Tick>{3, 7}));
    EXPECT_EQ(size_grid(1, 20, 30), (std::vector<Tick>{1, 2, 3, 7, 17, 20}));  // 30, 50, 100, 200, 500, 600 ms
    EXPECT_EQ(size_grid(5, 5, 50), (std::vector<Tick>{5}));
}

TEST(ExploreGrid, ParsesDurationsAndTicksAndNamesTheFlagOnErrors) {
    SizeGrids grids;
    ASSERT_TRUE(parse_grid("pause=100ms..50s", 50, grids).ok());
    EXPECT_EQ(grids.pause.front(), 2);
    EXPECT_EQ(grids.pause.back(), 1000);
    ASSERT_TRUE(parse_grid("delay=1..8", 50, grids).ok());
    EXPECT_EQ(grids.delay, (std::vector<Tick>{1, 2, 4, 8}));  // 50 ms, 100 ms, 200 ms, 400 ms
    auto off_tick = parse_grid("partition=130ms..1s", 50, grids);
    ASSERT_FALSE(off_tick.ok());
    EXPECT_NE(off_tick.error().find("--grid partition"), std::string::npos) << off_tick.error();
    EXPECT_NE(off_tick.error().find("2 ticks (100ms) and 3 ticks (150ms)"), std::string::npos) << off_tick.error();
    auto unknown = parse_grid("crash=1..2", 50, grids);
    ASSERT_FALSE(unknown.ok());
    EXPECT_NE(unknown.error().find("--grid"), std::string::npos);
    EXPECT_FALSE(parse_grid("pause=5", 50, grids).ok());
    EXPECT_FALSE(parse_grid("pause=5..2", 50, grids).ok());
    // The issue's own grid, a minute at 50 ms ticks (1,200 ticks, past
    // --max-pause's 1,000), is taken: a grid is counted in points.
    ExploreOptions o;
    o.max_faults = 1;
    ASSERT_TRUE(parse_grid("pause=100ms..60s", 50, o.grids).ok());
    EXPECT_EQ(o.grids.pause.back(), 1200);
    EXPECT_TRUE(Explorer::create(practitioner_small(), o).ok());
    // Beyond explore_grid_size_max: refused by the explorer, naming the flag and the limit.
    ASSERT_TRUE(parse_grid("pause=1..100001", 50, o.grids).ok());
    auto too_long = Explorer::create(practitioner_small(), o);
    ASSERT_FALSE(too_long.ok());
    EXPECT_NE(too_long.error().find("--grid pause"), std::string::npos) << too_long.error();
    EXPECT_NE(too_long.error().find("explore_grid_size_max"), std::string::npos) << too_long.error();
}

TEST(ExploreGrid, AtomsTakeOnlyTheGridsSizes) {
    ExploreOptions o;
    o.max_faults = 1;
    o.shuffles = 0;
    o.kinds = parse_fault_kinds("pause,partition").value();
    o.grids.pause = {3, 7, 20};
    const auto ex = Explorer::create(practitioner_small(), o);
    ASSERT_TRUE(ex.ok()) << ex.error();
    std::size_t pauses = 0, partitions = 0;
    for (const Fault& f : ex.value().atoms()) {
        if (f.kind == FaultKind::pause) {
            ++pauses;
            EXPECT_TRUE(f.ticks == 3 || f.ticks == 7 || f.ticks == 20) << f.ticks;
        } else {
            ++partitions;
            EXPECT_LE(f.ticks, o.max_pause);  // no grid for partitions: 1 … max_pause
        }
    }
    EXPECT_GT(pauses, 0u);
    EXPECT_GT(partitions, 0u);
}

// Up to `faults` faults of `kinds`, the base's order only, checking overlap.
ExploreOptions overlap_search(int faults, std::string_view kinds) {
    ExploreOptions o;
    o.max_faults = faults;
    o.shuffles = 0;
    o.kinds = parse_fault_kinds(kinds).value();
    o.properties = parse_properties("overlap").value();
    return o;
}

// The practitioner's question at a tenth of the scale, on a grid: 40 ticks
// (2 s) is the grid's first pause that breaks it, 1 s holds.
TEST(ExploreGrid, MinimizeScansTheGrid) {
    ExploreOptions o = overlap_search(1, "pause");
    ASSERT_TRUE(parse_grid("pause=50ms..3s", 50, o.grids).ok());
    auto m = minimize(practitioner_small(), o, ExploreRun{});
    ASSERT_TRUE(m.ok()) << m.error();
    ASSERT_EQ(m->kinds.size(), 1u);
    const KindThreshold& k = m->kinds[0];
    EXPECT_EQ(k.grid, (std::vector<std::int64_t>{1, 2, 4, 10, 20, 40, 60}));
    ASSERT_TRUE(k.threshold);
    EXPECT_EQ(*k.threshold, 40);
}

// A search on a grid split into shards merges into the whole search.
TEST(ExploreGrid, ShardsCarryTheGrid) {
    ExploreOptions o = overlap_search(2, "pause,crash");
    o.grids.pause = {5, 20, 40};
    o.max_tick = 40;  // faults in the first 2 s: the grid is what is checked, not the breadth
    auto ex = Explorer::create(practitioner_small(), o);
    ASSERT_TRUE(ex.ok());
    const ExploreReport whole = explore(ex.value(), ExploreRun{});
    ASSERT_TRUE(whole.found);  // a pause of 40 ticks lets worker-2 in
    std::vector<ShardFile> files;
    for (std::uint64_t k = 0; k < 3; ++k) {
        ExploreRun run;
        run.shard = k;
        run.shards = 3;
        run.shrink = false;
        files.push_back(
            ShardFile{"shard" + std::to_string(k) + ".json",
                      shard_result_to_json(ex.value(), run, explore(ex.value(), run), ShardTiming{1.0, 1.0, 1})});
    }
    auto merged = merge_shard_results(files);
    ASSERT_TRUE(merged.ok()) << merged.error();
    EXPECT_EQ(merged->explorer.options().grids, o.grids);
    EXPECT_EQ(merged->report.found, whole.found);
    EXPECT_EQ(merged->report.totals.schedules, whole.totals.schedules);
    EXPECT_EQ(merged->report.totals.simulated, whole.totals.simulated);
}

}  // namespace
}  // namespace leasescope::sim

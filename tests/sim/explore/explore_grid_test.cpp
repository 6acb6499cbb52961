// Fault sizes on a grid (--grid kind=LO..HI, docs/explorer.md "Grids"): the
// grid's shape, the errors that name the flag and the nearest whole ticks,
// atoms laid out only at the grid's sizes, --minimize scanning the grid (the
// practitioner's 20 s pause at a tenth of the scale), and shards that carry
// the grid into the merge; and start ticks on a grid (--start-every, "Start
// ticks on a grid"): the same, for when faults start.
#include "support/preset_loader.hpp"

#include <gtest/gtest.h>

#include <tuple>

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

// Sizes scaled to the scenario (docs/explorer.md): up to the longest lease,
// action or wait; every length up to 64 ticks, else the grid from one tick,
// for the kinds searched that have no grid of their own.
TEST(ExploreGrid, SizesScaledToTheScenario) {
    Scenario s = practitioner_small();  // 50 ms ticks; its longest is an action of 120 ticks
    EXPECT_EQ(scaled_size_max(s), 120);
    ExploreOptions o = overlap_search(1, "pause");
    scale_fault_sizes(s, o);
    EXPECT_EQ(o.grids.pause, size_grid(1, 120, 50));
    EXPECT_TRUE(o.grids.partition.empty()) << "partitions are not searched";
    EXPECT_EQ(o.max_pause, 8) << "max_pause stays for what has no grid";

    ExploreOptions all = overlap_search(1, "all");
    ASSERT_TRUE(parse_grid("partition=1..3", 50, all.grids).ok());
    scale_fault_sizes(s, all);
    EXPECT_EQ(all.grids.pause, size_grid(1, 120, 50));
    EXPECT_EQ(all.grids.partition, (std::vector<Tick>{1, 2, 3})) << "a grid given is kept";

    for (Candidate& c : s.candidates) {
        c.options.lease = 30;
        c.options.action = 12;
        c.options.wait = 5;
    }
    s.candidates[1].options.wait = 64;
    EXPECT_EQ(scaled_size_max(s), 64);
    ExploreOptions every = overlap_search(1, "pause");
    scale_fault_sizes(s, every);
    EXPECT_EQ(every.max_pause, 64);
    EXPECT_FALSE(every.grids.any()) << "64 ticks or fewer: every length, no grid";

    s.candidates[0].options.action = 1'000'000;
    EXPECT_EQ(scaled_size_max(s), explore_grid_size_max) << "no size past what a grid may hold";
}

// The search split into three shards, each searched and written as its file.
std::vector<ShardFile> three_shards(const Explorer& ex) {
    std::vector<ShardFile> files;
    for (std::uint64_t k = 0; k < 3; ++k) {
        ExploreRun run;
        run.shard = k;
        run.shards = 3;
        run.shrink = false;
        files.push_back(ShardFile{"shard" + std::to_string(k) + ".json",
                                  shard_result_to_json(ex, run, explore(ex, run), ShardTiming{1.0, 1.0, 1})});
    }
    return files;
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
    const std::vector<ShardFile> files = three_shards(ex.value());
    auto merged = merge_shard_results(files);
    ASSERT_TRUE(merged.ok()) << merged.error();
    EXPECT_EQ(merged->explorer.options().grids, o.grids);
    EXPECT_EQ(merged->report.found, whole.found);
    EXPECT_EQ(merged->report.totals.schedules, whole.totals.schedules);
    EXPECT_EQ(merged->report.totals.simulated, whole.totals.simulated);
}

// --start-every: ticks or a duration of whole ticks, at least one tick; the
// errors name the flag, and the start ticks are written with their step.
TEST(ExploreStartGrid, ParsesDurationsAndTicksAndNamesTheFlagOnErrors) {
    EXPECT_EQ(parse_start_every("500ms", 50).value(), 10);
    EXPECT_EQ(parse_start_every("3", 50).value(), 3);
    EXPECT_EQ(parse_start_every("1s", 1000).value(), 1);
    auto off_tick = parse_start_every("130ms", 50);
    ASSERT_FALSE(off_tick.ok());
    EXPECT_NE(off_tick.error().find("--start-every"), std::string::npos) << off_tick.error();
    EXPECT_NE(off_tick.error().find("2 ticks (100ms) and 3 ticks (150ms)"), std::string::npos) << off_tick.error();
    for (const char* bad : {"0", "0ms", "5x", "", "-1"}) {
        auto refused = parse_start_every(bad, 50);
        ASSERT_FALSE(refused.ok()) << bad;
        EXPECT_EQ(refused.error().rfind("--start-every", 0), 0u) << refused.error();
    }
    EXPECT_EQ(starts_text(3800, 1, 50), "0..3800");
    EXPECT_EQ(starts_text(3800, 10, 50), "0..3800 every 10 ticks (500ms)");
    // The explorer refuses a step out of range as well (a caller that did not parse).
    ExploreOptions o = overlap_search(1, "pause");
    o.start_every = 0;
    auto created = Explorer::create(practitioner_small(), o);
    ASSERT_FALSE(created.ok());
    EXPECT_NE(created.error().find("--start-every"), std::string::npos) << created.error();
}

// Faults by what the search varies (Fault has no ==): kind, node, start, size, mode.
std::vector<std::tuple<FaultKind, NodeIndex, Tick, Tick, PartitionMode>> shapes(const std::vector<Fault>& faults) {
    std::vector<std::tuple<FaultKind, NodeIndex, Tick, Tick, PartitionMode>> out;
    for (const Fault& f : faults) out.emplace_back(f.kind, f.node, f.at, f.ticks, f.mode);
    return out;
}

// The atoms with a start grid are those of every tick whose start is a
// multiple of the step, in the same order; random draws start on it too.
TEST(ExploreStartGrid, AtomsAndDrawsStartOnlyOnTheGrid) {
    ExploreOptions every = overlap_search(2, "pause,partition,crash");
    every.max_tick = 100;
    ExploreOptions stepped = every;
    stepped.start_every = 7;
    const auto all = Explorer::create(practitioner_small(), every);
    const auto some = Explorer::create(practitioner_small(), stepped);
    ASSERT_TRUE(all.ok() && some.ok());
    std::vector<Fault> expected;
    for (const Fault& f : all->atoms()) {
        if (f.at % 7 == 0) expected.push_back(f);
    }
    EXPECT_EQ(shapes(some->atoms()), shapes(expected));
    EXPECT_LT(some->atoms().size(), all->atoms().size());
    EXPECT_EQ(some->atoms().back().at, 98);  // the last multiple of 7 up to --max-tick 100
    for (std::uint64_t i = 0; i < 200; ++i) {
        for (const std::int32_t a : some->draw(5, i).atoms)
            EXPECT_EQ(some->atoms()[static_cast<std::size_t>(a)].at % 7, 0);
    }
    // A step of one tick is the search without it, draw for draw.
    ExploreOptions one = every;
    one.start_every = 1;
    const auto same = Explorer::create(practitioner_small(), one);
    ASSERT_TRUE(same.ok());
    EXPECT_EQ(shapes(same->atoms()), shapes(all->atoms()));
    for (std::uint64_t i = 0; i < 50; ++i) EXPECT_EQ(same->draw(5, i), all->draw(5, i));
}

// The practitioner's question at a tenth of the scale with faults starting
// every 10 ticks: the renewal the 40-tick pause must stop is due at tick 20,
// a start on the grid, so the threshold is the same; the failing pause starts
// on the grid, and a budget too large names --start-every as a lever.
TEST(ExploreStartGrid, MinimizeOnAStartGridFindsTheSameThreshold) {
    ExploreOptions o = overlap_search(1, "pause");
    o.max_pause = 60;
    o.start_every = 10;
    auto m = minimize(practitioner_small(), o, ExploreRun{});
    ASSERT_TRUE(m.ok()) << m.error();
    EXPECT_EQ(m->start_every, 10);
    ASSERT_EQ(m->kinds.size(), 1u);
    const KindThreshold& k = m->kinds[0];
    ASSERT_TRUE(k.threshold && k.step && k.found);
    EXPECT_EQ(*k.threshold, 40);
    for (const std::int32_t a : k.found->atoms) EXPECT_EQ(k.step->atoms()[static_cast<std::size_t>(a)].at % 10, 0);

    // Pauses and partitions of up to 1,000 ticks starting in 20,000 ticks:
    // 9,000 single faults a start tick, far past explore_atoms_max.
    Scenario long_run = practitioner_small();
    long_run.horizon = 100000;
    ExploreOptions huge = overlap_search(1, "pause,partition");
    huge.max_pause = explore_pause_max;
    huge.max_tick = 20000;
    auto refused = Explorer::create(long_run, huge);
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.error().find("raise --start-every"), std::string::npos) << refused.error();
    // The largest --max-tick it names for a step of 25 fits, one more does not.
    huge.start_every = 25;
    refused = Explorer::create(long_run, huge);
    ASSERT_FALSE(refused.ok());
    const std::string said = refused.error();
    const auto fits_at = said.find(" fits)");
    ASSERT_NE(fits_at, std::string::npos) << said;
    const auto number_at = said.rfind("--max-tick ", fits_at) + std::string("--max-tick ").size();
    huge.max_tick = std::stoll(said.substr(number_at, fits_at - number_at));
    EXPECT_TRUE(Explorer::create(long_run, huge).ok()) << said;
    *huge.max_tick += 1;
    EXPECT_FALSE(Explorer::create(long_run, huge).ok()) << said;
}

// Shards carry the start grid into the merge, which equals the whole search;
// a file written without one (every tick) reads as a step of one.
TEST(ExploreStartGrid, ShardsCarryTheStartGrid) {
    ExploreOptions o = overlap_search(2, "pause,crash");
    o.max_pause = 40;  // a pause of 40 ticks at tick 20 lets worker-2 in
    o.max_tick = 40;
    o.start_every = 10;
    auto ex = Explorer::create(practitioner_small(), o);
    ASSERT_TRUE(ex.ok());
    const ExploreReport whole = explore(ex.value(), ExploreRun{});
    ASSERT_TRUE(whole.found);
    const std::vector<ShardFile> files = three_shards(ex.value());
    EXPECT_NE(files[0].text.find("\"start_every\""), std::string::npos);
    auto merged = merge_shard_results(files);
    ASSERT_TRUE(merged.ok()) << merged.error();
    EXPECT_EQ(merged->explorer.options().start_every, 10);
    EXPECT_EQ(shapes(merged->explorer.atoms()), shapes(ex->atoms()));
    EXPECT_EQ(merged->report.found, whole.found);
    EXPECT_EQ(merged->report.totals.schedules, whole.totals.schedules);
    EXPECT_EQ(merged->report.totals.failing, whole.totals.failing);

    ExploreOptions plain = o;
    plain.start_every = 1;
    auto every_tick = Explorer::create(practitioner_small(), plain);
    ASSERT_TRUE(every_tick.ok());
    ExploreRun run;
    run.shards = 1;
    run.shrink = false;
    const std::string text =
        shard_result_to_json(every_tick.value(), run, explore(every_tick.value(), run), ShardTiming{1.0, 1.0, 1});
    EXPECT_EQ(text.find("\"start_every\""), std::string::npos);  // its fingerprint is as before
    auto read = merge_shard_results({ShardFile{"all.json", text}});
    ASSERT_TRUE(read.ok()) << read.error();
    EXPECT_EQ(read->explorer.options().start_every, 1);
}

}  // namespace
}  // namespace leasescope::sim

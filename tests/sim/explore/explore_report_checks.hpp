#pragma once
// Field-by-field comparisons of explorer results, shared by the explorer and
// shard tests, so a mismatch names the counter that differs.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "leasescope/sim/explore_shard.hpp"
#include "leasescope/sim/explorer.hpp"
#include "leasescope/sim/generator.hpp"

namespace leasescope::test {

// The ticks run, the runs merged and the states kept depend on how the work
// was cut into chunks once states are merged (each chunk has its own memo,
// docs/explorer.md, Merging states): they are compared only where neither
// search kept a state.
inline void expect_same_stats(const sim::SearchStats& a, const sim::SearchStats& b) {
    EXPECT_EQ(a.schedules, b.schedules);
    EXPECT_EQ(a.simulated, b.simulated);
    EXPECT_EQ(a.pruned, b.pruned);
    EXPECT_EQ(a.invalid, b.invalid);
    EXPECT_EQ(a.failing, b.failing);
    if (a.states == 0 && b.states == 0) {
        EXPECT_EQ(a.ticks, b.ticks);
        EXPECT_EQ(a.merged, 0u);
        EXPECT_EQ(b.merged, 0u);
    }
}

// The answer and the counters that do not depend on how the search ran
// (forking, merging, chunks): per level, schedules, simulated, pruned,
// invalid and failing; and the counterexample.
inline void expect_same_answer(const sim::ExploreReport& a, const sim::ExploreReport& b, const std::string& label) {
    ASSERT_EQ(a.levels.size(), b.levels.size()) << label;
    for (std::size_t i = 0; i < a.levels.size(); ++i) {
        const sim::SearchStats& x = a.levels[i].stats;
        const sim::SearchStats& y = b.levels[i].stats;
        EXPECT_EQ(x.schedules, y.schedules) << label << " level " << i;
        EXPECT_EQ(x.simulated, y.simulated) << label << " level " << i;
        EXPECT_EQ(x.pruned, y.pruned) << label << " level " << i;
        EXPECT_EQ(x.invalid, y.invalid) << label << " level " << i;
        EXPECT_EQ(x.failing, y.failing) << label << " level " << i;
    }
    EXPECT_EQ(a.found, b.found) << label;
    EXPECT_EQ(a.complete, b.complete) << label;
}

// A generated scenario (docs/generator.md) of `candidates` nodes and
// `horizon` ticks, parsed.
inline sim::Scenario generated_scenario(std::uint64_t seed, std::int64_t candidates, leasescope::Tick horizon,
                                        bool latencies, bool replication) {
    sim::GeneratorOptions g;
    g.seed = seed;
    g.candidates = candidates;
    g.horizon = horizon;
    g.latencies = latencies;
    g.replication = replication;
    auto parsed = sim::parse_scenario(sim::generate_scenario(g), "generated.json");
    EXPECT_TRUE(parsed.ok()) << seed << ": " << (parsed.ok() ? "" : parsed.error().to_string());
    return std::move(parsed).value();
}

// The small search the preset tests make: up to two faults, pauses up to 4
// ticks, faults starting at ticks 0..40, one shuffled order, every property.
inline sim::ExploreOptions preset_search_options() {
    sim::ExploreOptions o;
    o.max_faults = 2;
    o.max_pause = 4;
    o.shuffles = 1;
    o.max_tick = 40;
    o.properties = sim::parse_properties("all").value();
    return o;
}

// The small search the generated-scenario tests make on seed `seed`: one or
// (every third seed) two faults, pauses up to 3 ticks, delays of 1 tick on
// even seeds, faults starting at ticks 0..60, every property.
inline sim::ExploreOptions generated_search_options(std::uint64_t seed) {
    sim::ExploreOptions o;
    o.max_faults = seed % 3 == 0 ? 2 : 1;
    o.max_pause = 3;
    o.shuffles = 0;
    o.max_tick = 60;
    o.max_delay = seed % 2 == 0 ? 1 : 0;
    o.properties = sim::parse_properties("all").value();
    return o;
}

// Searches `base` twice, with options `plain` and `other`, in chunks of
// `chunk` units; both must be valid.
inline std::pair<sim::ExploreReport, sim::ExploreReport> explore_both(const sim::Scenario& base,
                                                                      const sim::ExploreOptions& plain,
                                                                      const sim::ExploreOptions& other,
                                                                      std::uint64_t chunk) {
    auto a = sim::Explorer::create(base, plain);
    auto b = sim::Explorer::create(base, other);
    EXPECT_TRUE(a.ok() && b.ok()) << (a.ok() ? "" : a.error()) << (b.ok() ? "" : b.error());
    if (!a.ok() || !b.ok()) return {};
    sim::ExploreRun run;
    run.chunk = chunk;
    return {sim::explore(a.value(), run), sim::explore(b.value(), run)};
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

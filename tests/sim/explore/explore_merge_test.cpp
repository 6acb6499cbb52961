// Merging states (docs/explorer.md, Merging states): the search that stops a
// run at a state another run of its chunk reached, and takes that run's
// verdict, gives the same answer and counters (but the ticks, merged and
// states) as the search that runs every schedule to its end, on every elector
// preset and on generated scenarios; merging does happen; and a memo at its
// cap keeps no more states and still gives the same answer.
#include "support/preset_loader.hpp"
#include "explore_report_checks.hpp"

#include <gtest/gtest.h>

#include "leasescope/sim/explorer.hpp"

namespace leasescope::sim {
namespace {

using test::preset_names;
using test::read_preset;

struct Figures {
    std::uint64_t merged = 0;
    std::uint64_t plain_ticks = 0;
    std::uint64_t merged_ticks = 0;
};

// Searches `base` with and without merging (chunks of `chunk` units) and
// expects the same answer and counters; adds the merging figures to `f`.
void expect_merged_equals_plain(const Scenario& base, ExploreOptions o, const std::string& label, Figures& f,
                                std::uint64_t chunk = 64) {
    ExploreOptions without = o;
    without.merge = false;
    o.merge = true;
    const auto [plain, merged] = test::explore_both(base, without, o, chunk);
    if (::testing::Test::HasFailure()) return;
    test::expect_same_answer(plain, merged, label);
    EXPECT_EQ(plain.totals.merged, 0u) << label;
    EXPECT_EQ(plain.totals.states, 0u) << label;
    EXPECT_LE(merged.totals.merged, merged.totals.simulated) << label;
    f.merged += merged.totals.merged;
    f.plain_ticks += plain.totals.ticks;
    f.merged_ticks += merged.totals.ticks;
}

TEST(ExploreMerge, MergedSearchEqualsPlainSearchOnPresets) {
    Figures f;
    for (const std::string& name : preset_names()) {
        auto parsed = parse_scenario(read_preset(name), name + ".json");
        ASSERT_TRUE(parsed.ok()) << name;
        if (parsed->is_redlock() || parsed->is_redisson()) continue;  // never merged (not hashed)
        for (const int faults : {1, 2}) {
            ExploreOptions o = test::preset_search_options();
            o.max_faults = faults;
            expect_merged_equals_plain(parsed.value(), o, name + " at " + std::to_string(faults), f);
            if (HasFatalFailure()) return;
        }
    }
    RecordProperty("merged", static_cast<int>(f.merged));
    EXPECT_GT(f.merged, 1000u);                // merging happens: the check is not empty
    EXPECT_LT(f.merged_ticks, f.plain_ticks);  // and saves ticks
}

Scenario generated(std::uint64_t seed) {
    return test::generated_scenario(seed, 2 + static_cast<std::int64_t>(seed % 3), 200, seed % 2 == 0, seed % 4 == 0);
}

TEST(ExploreMerge, MergedSearchEqualsPlainSearchOnGeneratedScenarios) {
    Figures f;
    for (std::uint64_t seed = 1; seed <= 24; ++seed) {
        const ExploreOptions o = test::generated_search_options(seed);
        expect_merged_equals_plain(generated(seed), o, "generated seed " + std::to_string(seed), f);
        if (HasFatalFailure()) return;
    }
    EXPECT_GT(f.merged, 0u);
}

// Chunks of one unit, and of many: merging never changes the answer, only
// how much it saves (each chunk has its own memo).
TEST(ExploreMerge, AnyChunkSizeGivesTheSameAnswer) {
    auto parsed = parse_scenario(read_preset("watchdog-elector"), "watchdog-elector.json");
    ASSERT_TRUE(parsed.ok());
    for (const std::uint64_t chunk : {1u, 7u, 1000u}) {
        Figures f;
        expect_merged_equals_plain(parsed.value(), test::preset_search_options(), "chunk " + std::to_string(chunk), f,
                                   chunk);
        if (HasFatalFailure()) return;
        // A chunk of one unit (at one fault, one schedule) has no run to meet.
        if (chunk > 1) {
            EXPECT_GT(f.merged, 0u) << chunk;
        }
    }
}

// A memo at its cap keeps no more states: each chunk holds at most the cap,
// and the search still gives the plain answer (with fewer merges).
TEST(ExploreMerge, AMemoAtItsCapKeepsNoMoreAndStaysExact) {
    auto parsed = parse_scenario(read_preset("watchdog-elector"), "watchdog-elector.json");
    ASSERT_TRUE(parsed.ok());
    ExploreOptions o = test::preset_search_options();
    ExploreOptions capped = o;
    capped.merge_states_max = 16;
    auto full = Explorer::create(parsed.value(), o);
    auto small = Explorer::create(parsed.value(), capped);
    ASSERT_TRUE(full.ok() && small.ok());
    ExploreRun run;
    run.chunk = 1000000;  // one chunk per level: the states counted are one memo's
    const ExploreReport a = explore(full.value(), run);
    const ExploreReport b = explore(small.value(), run);
    for (const LevelReport& level : b.levels) EXPECT_LE(level.stats.states, 16u) << level.faults;
    EXPECT_GT(a.totals.states, b.totals.states);
    EXPECT_GT(a.totals.merged, b.totals.merged);
    EXPECT_EQ(a.found, b.found);
    EXPECT_EQ(a.totals.simulated, b.totals.simulated);
    EXPECT_EQ(a.totals.failing, b.totals.failing);
    Figures f;
    expect_merged_equals_plain(parsed.value(), capped, "capped", f, run.chunk);
}

}  // namespace
}  // namespace leasescope::sim

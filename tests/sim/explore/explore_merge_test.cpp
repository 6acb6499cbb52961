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

// Up to two pauses of 1 … 8 ticks, in the base's order only.
ExploreOptions two_pauses_of_up_to_8(std::string_view property) {
    ExploreOptions o;
    o.max_faults = 2;
    o.kinds = parse_fault_kinds("pause").value();
    o.max_pause = 8;
    o.shuffles = 0;
    o.properties = parse_properties(property).value();
    return o;
}

// Sharing subtrees (docs/explorer.md): at two faults, a prefix whose state
// meets one a prefix before it reached (same tick, nothing failing below)
// takes that prefix's counters instead of searching its children. On
// practitioner-small, where pauses of the holder of one length in one quiet
// stretch all meet, the answer and counters are those of the merging search
// without sharing (which the tests above hold to the plain search's, with
// sharing on); sharing skips a third of the ticks even with faults in the
// first 40 ticks only.
TEST(ExploreMerge, PrefixesThatMeetShareTheirSubtrees) {
    auto parsed = parse_scenario(test::read_all(test::source_dir + "/tests/data/explore/practitioner-small.json"),
                                 "practitioner-small.json");
    ASSERT_TRUE(parsed.ok());
    ExploreOptions o = two_pauses_of_up_to_8("overlap");
    o.max_tick = 40;
    ExploreOptions unshared = o;
    unshared.share = false;
    const auto [alone, shared] = test::explore_both(parsed.value(), unshared, o, 16);
    if (HasFailure()) return;
    test::expect_same_answer(alone, shared, "shared against unshared");
    ASSERT_EQ(shared.levels.size(), 3u);
    EXPECT_EQ(shared.levels[2].stats.failing, 0u);
    RecordProperty("merged", static_cast<int>(shared.totals.merged));
    EXPECT_GT(shared.totals.merged, alone.totals.merged) << shared.totals.simulated;
    EXPECT_LT(shared.totals.ticks * 3, alone.totals.ticks * 2) << shared.totals.ticks << " " << alone.totals.ticks;
}

// A subtree in which a schedule failed is never shared: its failures are
// counted again under every prefix that meets it (and the best of them
// ranked). Here node-a's write comes after its lease only when two pauses
// add up to more than 13 ticks, so one pause never fails and many pairs do;
// two pauses of node-a of one length while it only makes progress leave one
// state behind, so prefixes meet above subtrees with failures.
TEST(ExploreMerge, ASubtreeWithAFailureIsNeverShared) {
    auto parsed = parse_scenario(R"({
      "name": "two-pauses", "tick_ms": 50, "horizon": 200, "seed": 1,
      "lock": { "name": "job", "capacity": 1 }, "resource": { "mode": "off" },
      "defaults": { "wait": 150, "lease": 40, "auto_extend": false },
      "candidates": [
        { "name": "node-a", "start": 0, "action": 30, "writes": [29] },
        { "name": "node-b", "start": 1, "action": 10, "writes": [1] }
      ]
    })",
                                 "two-pauses.json");
    ASSERT_TRUE(parsed.ok());
    const ExploreOptions o = two_pauses_of_up_to_8("unsafe_write");
    ExploreOptions unshared = o;
    unshared.share = false;
    for (const std::uint64_t chunk : {1u, 16u, 1000u}) {
        const auto [alone, shared] = test::explore_both(parsed.value(), unshared, o, chunk);
        if (HasFailure()) return;
        test::expect_same_answer(alone, shared, "chunk " + std::to_string(chunk));
        ASSERT_EQ(shared.levels.size(), 3u);
        EXPECT_EQ(shared.levels[1].stats.failing, 0u);
        EXPECT_GT(shared.levels[2].stats.failing, 1000u);
        EXPECT_GT(shared.totals.merged, alone.totals.merged) << chunk;
        Figures f;
        expect_merged_equals_plain(parsed.value(), o, "plain, chunk " + std::to_string(chunk), f, chunk);
    }
    // At its cap (merge_states_max, its own beside the memo's) the subtree
    // memo keeps no more, and the answer stays the plain search's.
    ExploreOptions capped = o;
    capped.merge_states_max = 16;
    const auto [alone, small] = test::explore_both(parsed.value(), unshared, capped, 1000000);
    test::expect_same_answer(alone, small, "capped");
    for (const LevelReport& level : small.levels) EXPECT_LE(level.stats.states, 32u) << level.faults;
}

}  // namespace
}  // namespace leasescope::sim

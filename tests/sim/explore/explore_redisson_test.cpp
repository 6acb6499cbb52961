// The explorer on Redisson (docs/model.md §21, docs/explorer.md "On
// Redisson"): its fault kinds are Redisson's own, a fencing property or a
// delay is refused, and from watchdog-redisson without its pause the search
// finds the pause that outlives the watchdog's TTL, gives the same answer
// without pruning and split into shards, minimizes it to 20 s on the grid,
// and tells the write that landed beside the holder.
#include <gtest/gtest.h>

#include "explore_report_checks.hpp"
#include "leasescope/sim/explore_shard.hpp"
#include "leasescope/sim/explorer.hpp"
#include "leasescope/sim/simulation.hpp"
#include "support/preset_loader.hpp"
#include "support/test_files.hpp"

namespace leasescope::sim {
namespace {

Scenario watchdog_base() {
    const std::string path = test::source_dir + "/tests/sim/explore/redisson/watchdog-redisson-base.json";
    auto p = parse_scenario(test::read_all(path), path);
    EXPECT_TRUE(p.ok()) << (p.ok() ? "" : p.error().to_string());
    return std::move(p).value();
}

// Pauses on the grid 100 ms … 60 s (1-2-5 a decade), at most one, starting
// at ticks 0 … 300 (the first 15 s, while node-a holds the lock).
ExploreOptions grid_pauses() {
    ExploreOptions o;
    o.kinds = parse_fault_kinds("pause").value();
    o.max_faults = 1;
    o.max_tick = 300;
    o.properties = parse_properties("unsafe_write,liveness").value();
    EXPECT_TRUE(parse_grid("pause=100ms..60s", 50, o.grids).ok());
    return o;
}

Explorer make(const Scenario& base, const ExploreOptions& options) {
    auto created = Explorer::create(base, options);
    EXPECT_TRUE(created.ok()) << (created.ok() ? "" : created.error());
    return std::move(created).value();
}

}  // namespace

// "all" on Redisson is pause, partition (both modes, rule 21.7.3), crash and
// the store's clock jumps with a budget: no failover, link cut, delay or
// restart (§21.1 rules 3-4); one order (no shuffles).
TEST(ExploreRedisson, KindsAreRedissons) {
    ExploreOptions o;
    o.kinds = parse_fault_kinds("all").value();
    o.max_faults = 1;
    o.max_pause = 2;
    o.max_tick = 3;
    o.max_clock_jump_ms = 100;
    o.properties = parse_properties("unsafe_write,liveness").value();
    const Explorer ex = make(watchdog_base(), o);
    EXPECT_EQ(to_string(ex.options().kinds), "pause,partition,crash,clock_jump");
    EXPECT_EQ(ex.variant_count(), 1);
    std::size_t partitions = 0;
    for (const Fault& f : ex.atoms()) {
        EXPECT_TRUE(f.kind == FaultKind::pause || f.kind == FaultKind::partition || f.kind == FaultKind::crash ||
                    f.kind == FaultKind::clock_jump)
            << static_cast<int>(f.kind);
        if (f.kind == FaultKind::partition) ++partitions;
    }
    EXPECT_EQ(partitions, 4u * 2 * 2 * 2);  // ticks 0..3, two nodes, two modes, 1..2 ticks
}

// Redisson's lock issues no fencing number (§21.6): a fencing property is an
// error naming the client, as is a delay (§21.1 rule 3 refuses them).
TEST(ExploreRedisson, RefusesWhatCannotHappen) {
    ExploreOptions o = grid_pauses();
    o.properties = parse_properties("safety").value();
    auto fencing = Explorer::create(watchdog_base(), o);
    ASSERT_FALSE(fencing.ok());
    EXPECT_NE(fencing.error().find("can never fail on a Redisson scenario"), std::string::npos) << fencing.error();
    EXPECT_NE(fencing.error().find("§21.6"), std::string::npos) << fencing.error();
    o = grid_pauses();
    o.kinds = parse_fault_kinds("all").value();
    o.max_delay = 2;
    auto delays = Explorer::create(watchdog_base(), o);
    ASSERT_FALSE(delays.ok());
    EXPECT_NE(delays.error().find("no delays to a Redisson scenario"), std::string::npos) << delays.error();
}

// watchdog-redisson's lesson found from its base: the smallest pause on the
// grid that lets node-b in is 20 s, node-a paused at 10 s just as its
// watchdog was due (the key, renewed at 0 s, dies at 30 s when node-a wakes),
// and node-a's write at 40 s lands while node-b holds the lock. Without
// pruning the answer and the schedule count are the same (nothing is pruned
// in the first 15 s, while both nodes still act), and three shards merge to
// the whole.
TEST(ExploreRedisson, FindsThePauseThatOutlivesTheWatchdog) {
    const Scenario base = watchdog_base();
    const Explorer ex = make(base, grid_pauses());
    const ExploreReport report = explore(ex, ExploreRun{});
    ASSERT_TRUE(report.found);
    ASSERT_EQ(report.found->atoms.size(), 1u);
    const Fault& f = ex.atoms().at(static_cast<std::size_t>(report.found->atoms[0]));
    EXPECT_EQ(f.kind, FaultKind::pause);
    EXPECT_EQ(f.node, 0);
    EXPECT_EQ(f.ticks, 400);
    EXPECT_EQ(f.at, 200);

    ExploreOptions unpruned = grid_pauses();
    unpruned.prune = false;
    const ExploreReport every = explore(make(base, unpruned), ExploreRun{});
    EXPECT_EQ(every.found, report.found);
    EXPECT_EQ(every.totals.pruned, 0u);
    EXPECT_EQ(every.totals.schedules, report.totals.schedules);

    auto merged = merge_shard_results(test::shard_files(ex, 3));
    ASSERT_TRUE(merged.ok()) << merged.error();
    EXPECT_EQ(merged.value().report.found, report.found);
    EXPECT_EQ(merged.value().report.totals.schedules, report.totals.schedules);

    const Counterexample cx = make_counterexample(ex, *report.found);
    ASSERT_EQ(cx.facts.failures.size(), 1u);
    const Failure& failure = cx.facts.failures[0];
    EXPECT_EQ(failure.property, Failure::Property::unsafe_write);
    EXPECT_TRUE(failure.record);
    EXPECT_FALSE(failure.quorum);
    EXPECT_EQ(failure.late.node, "node-a");
    EXPECT_EQ(failure.late.tick, 800);
    EXPECT_EQ(failure.earlier.node, "node-b");
    EXPECT_EQ(failure.earlier.tick, 760);
    auto again = parse_scenario(scenario_to_json(cx.scenario), "counterexample.json");
    ASSERT_TRUE(again.ok()) << again.error().to_string();
    EXPECT_EQ(simulate(again.value()).summary.violations.unsafe_write, 1);
}

// --minimize scans the grid: 20 s breaks it, and no pause of 100 ms … 10 s
// does (each checked at every tick 0 … 300).
TEST(ExploreRedisson, MinimizeScansTheGrid) {
    auto m = minimize(watchdog_base(), grid_pauses(), ExploreRun{});
    ASSERT_TRUE(m.ok()) << m.error();
    ASSERT_EQ(m.value().kinds.size(), 1u);
    const KindThreshold& k = m.value().kinds[0];
    EXPECT_EQ(k.kind, FaultClass::pause);
    ASSERT_TRUE(k.threshold);
    EXPECT_EQ(*k.threshold, 400);
    ExploreOptions below = grid_pauses();
    below.grids = SizeGrids{};
    ASSERT_TRUE(parse_grid("pause=100ms..10s", 50, below.grids).ok());
    EXPECT_FALSE(explore(make(watchdog_base(), below), ExploreRun{}).found);
}

// The lost unlock message (lost-unlock-redisson, rule 21.5.3): with one
// pause, partition or crash of up to 8 ticks, pruned and unpruned searches
// count the same schedules and agree on the answer.
TEST(ExploreRedisson, PruningIsSoundOnTheLostUnlock) {
    ExploreOptions o;
    o.kinds = parse_fault_kinds("pause,partition,crash").value();
    o.max_faults = 1;
    o.max_pause = 8;
    o.properties = parse_properties("overlap,unsafe_write,liveness").value();
    const Scenario base = test::load_preset("lost-unlock-redisson");
    const ExploreReport pruned = explore(make(base, o), ExploreRun{});
    o.prune = false;
    const ExploreReport every = explore(make(base, o), ExploreRun{});
    EXPECT_EQ(pruned.found, every.found);
    EXPECT_EQ(pruned.totals.schedules, every.totals.schedules);
    EXPECT_GT(pruned.totals.pruned, 0u);
}

}  // namespace leasescope::sim

// The explorer's faults of time (issue 25): delays of messages on the wire
// (model.md §7.6, §16) and jumps of the store's clock (§7.5, §3.3). What it
// finds with them, what it proves absent, that their counterexamples replay
// from the written file, that pruning and the default budget are unchanged,
// and that a grid too large is refused naming its flag.
#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "leasescope/sim/explore_shard.hpp"
#include "leasescope/sim/explorer.hpp"
#include "leasescope/sim/simulation.hpp"
#include "leasescope/words/counterexample_words.hpp"
#include "support/preset_loader.hpp"
#include "support/string_tables.hpp"

namespace leasescope::sim {
// Named rather than anonymous: in a unity batch, explorer_test.cpp's helpers
// of the same names share the anonymous namespace.
namespace explore_wire {

Scenario preset(const std::string& name, const std::vector<Override>& overrides = {}) {
    auto parsed = parse_scenario(test::read_preset(name), name + ".json", overrides);
    EXPECT_TRUE(parsed.ok()) << (parsed.ok() ? "" : parsed.error().to_string());
    return std::move(parsed).value();
}

Explorer make(const Scenario& base, const ExploreOptions& options) {
    auto created = Explorer::create(base, options);
    EXPECT_TRUE(created.ok()) << (created.ok() ? "" : created.error());
    return std::move(created).value();
}

Properties only_property(std::string_view name) { return parse_properties(name).value(); }

// The delayed-write preset without its own delay, searched for lost updates
// with delays only.
ExploreOptions delay_budget(int max_faults) {
    ExploreOptions options;
    options.max_faults = max_faults;
    options.max_delay = 8;
    options.kinds = parse_fault_kinds("delay").value();
    options.properties = only_property("stale_after_successor");
    return options;
}

// Writes the counterexample out as the CLI does, parses it back and runs it:
// the file alone must show the violation.
Violations replay(const Explorer& ex, const Schedule& schedule) {
    Counterexample cx = make_counterexample(ex, schedule);
    words::title_counterexample(cx, ex.base(), test::string_tables());
    auto reparsed = parse_scenario(scenario_to_json(cx.scenario), "counterexample.json");
    EXPECT_TRUE(reparsed.ok()) << (reparsed.ok() ? "" : reparsed.error().to_string());
    return simulate(reparsed.value()).summary.violations;
}

// One delay is enough for a lost update with mode off, and the search finds
// two stories. The smallest (docs/explorer.md, Ranking) is the preset's own:
// node-a's write, sent at tick 4 while it held the lock, held 3 ticks until
// after node-b's write at tick 6. With only replies delayed, a larger one:
// the reply to node-a's acquire held 8 ticks, so node-a counts its lease from
// the reply while the store counted it from tick 0 (§16.4): it writes after
// the record expired and node-b wrote.
void expect_the_late_write(const Scenario& base, const ExploreOptions& writes);

TEST(ExplorerWire, OneDelayIsALostUpdateWithResourceOff) {
    const Scenario base = preset("delayed-write", {{"faults", "[]"}});
    ExploreOptions replies = delay_budget(2);
    replies.kinds = parse_fault_kinds("delay:reply").value();
    const Explorer ex = make(base, replies);
    const ExploreReport report = explore(ex, ExploreRun{});
    ASSERT_TRUE(report.complete);
    ASSERT_TRUE(report.found);
    ASSERT_EQ(report.levels.size(), 2u);  // nothing without a fault; one delay suffices
    ASSERT_EQ(report.found->atoms.size(), 1u);
    const Fault& reply = ex.atoms()[static_cast<std::size_t>(report.found->atoms[0])];
    EXPECT_EQ(reply.kind, FaultKind::delay);
    EXPECT_EQ(reply.link, Link::reply);
    EXPECT_EQ(reply.at, 0);
    EXPECT_EQ(reply.extra, 8);
    EXPECT_EQ(reply.ticks, 1);  // the explorer's windows are one tick
    EXPECT_GT(replay(ex, *report.found).stale_after_successor, 0);

    // Every link: the write held 3 ticks is smaller than the reply held 8,
    // so it ranks first although it starts later; with only writes, the same.
    for (const char* kinds : {"delay", "delay:write"}) {
        SCOPED_TRACE(kinds);
        ExploreOptions writes = delay_budget(2);
        writes.kinds = parse_fault_kinds(kinds).value();
        expect_the_late_write(base, writes);
    }
}

// node-a's write sent at tick 4, held 3 ticks, lands after node-b's.
void expect_the_late_write(const Scenario& base, const ExploreOptions& writes) {
    const Explorer wx = make(base, writes);
    const ExploreReport found = explore(wx, ExploreRun{});
    ASSERT_TRUE(found.found);
    ASSERT_EQ(found.found->atoms.size(), 1u);
    const Fault& f = wx.atoms()[static_cast<std::size_t>(found.found->atoms[0])];
    EXPECT_EQ(base.candidates[static_cast<std::size_t>(f.node)].name, "node-a");
    EXPECT_EQ(f.at, 4);     // the tick node-a sends its write
    EXPECT_EQ(f.extra, 3);  // arriving at 7, after node-b's write at 6
    const Counterexample cx = make_counterexample(wx, *found.found);
    ASSERT_EQ(cx.facts.failures.size(), 1u);
    EXPECT_EQ(cx.facts.failures[0].property, Failure::Property::stale_after_successor);
    EXPECT_EQ(cx.facts.failures[0].late.node, "node-a");
    EXPECT_EQ(cx.facts.failures[0].earlier.node, "node-b");
    EXPECT_EQ(words::fault_lines(cx.facts, test::string_tables()).at(0),
              "delay node-a's write to the resource sent at tick 4 by 3 more ticks");
    EXPECT_GT(replay(wx, *found.found).stale_after_successor, 0);
}

// Mode check judges a write at its arrival by the highest number it has
// accepted, and rejects a lower one arriving after a higher: a delay can
// reorder the writes but not get the older holder's accepted. Without a
// number issued twice (no failover here) there is no lost update in the
// same budget.
TEST(ExplorerWire, CheckRejectsALowerNumberArrivingAfterAHigherOne) {
    const Scenario base = preset("delayed-write", {{"faults", "[]"}, {"resource.mode", "\"check\""}});
    const Explorer ex = make(base, delay_budget(2));
    const ExploreReport report = explore(ex, ExploreRun{});
    ASSERT_TRUE(report.complete);
    EXPECT_FALSE(report.found);
    ASSERT_EQ(report.levels.size(), 3u);
    EXPECT_GT(report.totals.simulated, 1000u);  // the budget was really searched
}

// A forward jump of Redis's clock ends the watchdog's lease at once (§3.3
// rule 5): node-b takes the lock while node-a still works. Without a jump the
// watchdog keeps the lease and nobody overlaps.
TEST(ExplorerWire, StoreClockJumpForwardEndsTheLeaseEarly) {
    const Scenario base = preset("watchdog-pause", {{"faults", "[]"}});
    ExploreOptions options;
    options.max_faults = 2;
    options.max_clock_jump_ms = 300;
    options.kinds = parse_fault_kinds("clock_jump").value();
    options.properties = only_property("overlap");
    const Explorer ex = make(base, options);
    const ExploreReport report = explore(ex, ExploreRun{});
    ASSERT_TRUE(report.found);
    ASSERT_EQ(report.levels.size(), 2u);
    EXPECT_EQ(report.levels[0].stats.failing, 0u);
    ASSERT_EQ(report.found->atoms.size(), 1u);
    const Fault& f = ex.atoms()[static_cast<std::size_t>(report.found->atoms[0])];
    EXPECT_EQ(f.kind, FaultKind::clock_jump);
    EXPECT_EQ(f.node, -1);  // the store's clock
    EXPECT_GT(f.ms, 0);     // forward: a jump back only keeps records longer
    EXPECT_EQ(f.ms % base.tick_ms, 0);
    const Counterexample cx = make_counterexample(ex, *report.found);
    EXPECT_EQ(words::fault_lines(cx.facts, test::string_tables()).at(0),
              "jump the store's clock " + std::to_string(f.ms) + " ms forward at tick " + std::to_string(f.at));
    EXPECT_GT(replay(ex, *report.found).overlap, 0);
}

// Skipping a delay or a jump that provably changes nothing never changes the
// answer, nor how many levels the search went through.
TEST(ExplorerWire, PruningNeverChangesTheCounterexample) {
    struct Case {
        const char* preset;
        std::vector<Override> overrides;
        const char* properties;
        const char* kinds;
    };
    const std::vector<Case> cases = {
        {"delayed-write", {{"faults", "[]"}}, "stale_after_successor,unsafe_write", "delay,pause"},
        {"late-reply", {}, "overlap,liveness", "delay,clock_jump"},
        {"store-clock-jump", {{"faults", "[]"}}, "holder_rejected,overlap", "clock_jump,crash"},
        {"watchdog-pause", {{"faults", "[]"}}, "overlap", "clock_jump:back,delay:reply"},
        {"contention", {}, "unsafe_write,liveness", "delay:request,delay:write"},
    };
    std::uint64_t pruned_total = 0;
    for (const Case& c : cases) {
        SCOPED_TRACE(c.preset);
        ExploreOptions options;
        options.max_faults = 2;
        options.max_pause = 2;
        options.max_delay = 3;
        options.max_clock_jump_ms = 150;
        options.max_tick = 14;
        options.shuffles = 0;
        options.kinds = parse_fault_kinds(c.kinds).value();
        options.properties = only_property(c.properties);
        const Scenario base = preset(c.preset, c.overrides);
        const ExploreReport pruned = explore(make(base, options), ExploreRun{});
        options.prune = false;
        const ExploreReport full = explore(make(base, options), ExploreRun{});
        EXPECT_EQ(pruned.found, full.found);
        EXPECT_EQ(pruned.levels.size(), full.levels.size());
        EXPECT_EQ(full.totals.pruned, 0u);
        pruned_total += pruned.totals.pruned;
    }
    EXPECT_GT(pruned_total, 0u);  // the rules did skip something
}

// Delays and jumps are off unless their budget is given: "all" then means the
// kinds of the search before they existed, atom for atom.
TEST(ExplorerWire, OffWithoutTheirBudget) {
    const Scenario base = preset("contention");
    ExploreOptions all;
    const Explorer ex = make(base, all);
    EXPECT_EQ(to_string(ex.options().kinds), "pause,partition,crash,failover");
    for (const Fault& f : ex.atoms()) {
        EXPECT_NE(f.kind, FaultKind::delay);
        EXPECT_NE(f.kind, FaultKind::clock_jump);
    }
    ExploreOptions wire = all;
    wire.max_delay = 2;
    wire.max_clock_jump_ms = 100;
    const Explorer with = make(base, wire);
    EXPECT_EQ(to_string(with.options().kinds), "pause,partition,crash,failover,delay,clock_jump");
    // Per tick: 3 nodes × 3 links × 2 extras, and ±50, ±100 ms.
    const auto at0 = std::count_if(with.atoms().begin(), with.atoms().end(), [](const Fault& f) {
        return f.at == 0 && (f.kind == FaultKind::delay || f.kind == FaultKind::clock_jump);
    });
    EXPECT_EQ(at0, 3 * 3 * 2 + 4);
    // Only clock jumps asked for, without a budget for them: nothing to add.
    ExploreOptions jumps_only;
    jumps_only.kinds = parse_fault_kinds("clock_jump").value();
    EXPECT_FALSE(Explorer::create(base, jumps_only).ok());
}

// One delay per node, link and sent tick: the base's own delay of node-a's
// write at tick 4 leaves no atom that would add to it, and two added delays
// of one message, or two jumps in one tick, are invalid rather than searched.
TEST(ExplorerWire, OneDelayPerMessageAndOneJumpPerTick) {
    const Scenario base = preset("delayed-write");
    ExploreOptions options = delay_budget(2);
    options.kinds = parse_fault_kinds("delay,clock_jump").value();
    options.max_clock_jump_ms = 100;
    const Explorer ex = make(base, options);
    for (const Fault& f : ex.atoms()) {
        EXPECT_FALSE(f.kind == FaultKind::delay && f.node == 0 && f.link == Link::write && f.at == 4) << f.extra;
    }
    // fencing_duplicate needs a failover, so nothing fails and every level is searched.
    ExploreOptions pairs = options;
    pairs.properties = only_property("fencing_duplicate");
    pairs.shuffles = 0;
    const Explorer px = make(base, pairs);
    const ExploreReport report = explore(px, ExploreRun{});
    EXPECT_FALSE(report.found);
    ASSERT_EQ(report.levels.size(), 3u);
    const SearchStats& two = report.levels[2].stats;
    EXPECT_GT(two.invalid, 0u);
    EXPECT_EQ(two.schedules, px.level_schedules(2));
    EXPECT_EQ(two.schedules, two.simulated + two.pruned + two.invalid);
}

// Random mode draws delays and jumps too; every draw is a valid scenario, and
// shrinking makes a delay's extra ticks and a jump's size as small as still
// fails.
TEST(ExplorerWire, DrawsAreValidAndShrinkToTheSmallestDelay) {
    const Scenario base = preset("delayed-write", {{"faults", "[]"}});
    ExploreOptions options = delay_budget(3);
    options.kinds = FaultMenu{};
    options.max_clock_jump_ms = 200;
    const Explorer ex = make(base, options);
    bool saw_delay = false, saw_jump = false;
    for (std::uint64_t i = 0; i < 300; ++i) {
        const Schedule s = ex.draw(11, i);
        for (const std::int32_t a : s.atoms) {
            saw_delay = saw_delay || ex.atoms()[static_cast<std::size_t>(a)].kind == FaultKind::delay;
            saw_jump = saw_jump || ex.atoms()[static_cast<std::size_t>(a)].kind == FaultKind::clock_jump;
        }
        auto reparsed = parse_scenario(scenario_to_json(ex.to_scenario(s)), "draw.json");
        ASSERT_TRUE(reparsed.ok()) << "draw " << i << ": " << reparsed.error().to_string();
    }
    EXPECT_TRUE(saw_delay);
    EXPECT_TRUE(saw_jump);
    // node-b writes at tick 6 (its acquire at 5, the write at progress 1), so
    // node-a's write sent at 4 must arrive at 7 or later: 3 extra ticks.
    Fault big{FaultKind::delay, 0, 4, 1, {}, {}, 0, Link::write, 8};
    const auto it = std::find_if(ex.atoms().begin(), ex.atoms().end(), [&](const Fault& f) {
        return f.kind == big.kind && f.node == big.node && f.at == big.at && f.link == big.link && f.extra == big.extra;
    });
    ASSERT_NE(it, ex.atoms().end());
    const Schedule shrunk = ex.shrink(Schedule{0, {static_cast<std::int32_t>(it - ex.atoms().begin())}});
    ASSERT_EQ(shrunk.atoms.size(), 1u);
    const Fault& small = ex.atoms()[static_cast<std::size_t>(shrunk.atoms[0])];
    EXPECT_EQ(small.kind, FaultKind::delay);
    EXPECT_LT(small.extra, 8);
    EXPECT_TRUE(ex.check(shrunk).fails());
}

// A grid too large, or out of range, is refused with the flag to change.
TEST(ExplorerWire, BudgetErrorsNameTheFlag) {
    const Scenario base = preset("contention", {{"horizon", "5000"}});
    ExploreOptions delays;
    delays.max_delay = 1000;
    delays.max_tick = 400;
    auto created = Explorer::create(base, delays);
    ASSERT_FALSE(created.ok());
    EXPECT_NE(created.error().find("budget too large"), std::string::npos) << created.error();
    EXPECT_NE(created.error().find("--max-delay 1000"), std::string::npos) << created.error();
    // It names the largest --max-tick that fits: that one is taken, one more is not.
    const std::string said = created.error();
    const std::string marker = "--max-tick ";
    const auto fits_at = said.find(" fits)");
    ASSERT_NE(fits_at, std::string::npos) << said;
    const auto number_at = said.rfind(marker, fits_at) + marker.size();
    const Tick fits = std::stoll(said.substr(number_at, fits_at - number_at));
    delays.max_tick = fits;
    EXPECT_TRUE(Explorer::create(base, delays).ok()) << fits;
    delays.max_tick = fits + 1;
    EXPECT_FALSE(Explorer::create(base, delays).ok()) << fits;
    delays.max_tick = 400;

    ExploreOptions jumps;
    jumps.max_clock_jump_ms = 1000 * base.tick_ms;
    jumps.max_tick = 1500;
    created = Explorer::create(base, jumps);
    ASSERT_FALSE(created.ok());
    EXPECT_NE(created.error().find("--max-clock-jump-ms"), std::string::npos) << created.error();

    ExploreOptions too_long;
    too_long.max_delay = explore_delay_max + 1;
    created = Explorer::create(base, too_long);
    ASSERT_FALSE(created.ok());
    EXPECT_EQ(created.error().rfind("--max-delay:", 0), 0u) << created.error();

    ExploreOptions too_fine;
    too_fine.max_clock_jump_ms = base.tick_ms - 1;
    created = Explorer::create(base, too_fine);
    ASSERT_FALSE(created.ok());
    EXPECT_EQ(created.error().rfind("--max-clock-jump-ms:", 0), 0u) << created.error();

    ExploreOptions too_many_steps;
    too_many_steps.max_clock_jump_ms = (explore_clock_jump_steps_max + 1) * base.tick_ms;
    created = Explorer::create(base, too_many_steps);
    ASSERT_FALSE(created.ok());
    EXPECT_EQ(created.error().rfind("--max-clock-jump-ms:", 0), 0u) << created.error();
}

// A search with delays split in shards merges to the unsplit answer: the
// result files carry the new budget.
TEST(ExplorerWire, ShardsCarryTheNewBudget) {
    const Scenario base = preset("delayed-write", {{"faults", "[]"}});
    const Explorer ex = make(base, delay_budget(1));
    const ExploreReport whole = explore(ex, ExploreRun{});
    std::vector<ShardFile> files;
    for (std::uint64_t k = 0; k < 2; ++k) {
        ExploreRun run;
        run.shard = k;
        run.shards = 2;
        const ExploreReport part = explore(ex, run);
        files.push_back(
            ShardFile{"shard-" + std::to_string(k) + ".json", shard_result_to_json(ex, run, part, ShardTiming{})});
    }
    auto merged = merge_shard_results(files);
    ASSERT_TRUE(merged.ok()) << (merged.ok() ? "" : merged.error());
    EXPECT_EQ(merged.value().explorer.options().max_delay, 8);
    EXPECT_EQ(merged.value().report.found, whole.found);
    EXPECT_EQ(merged.value().report.totals.schedules, whole.totals.schedules);
}

}  // namespace explore_wire
}  // namespace leasescope::sim

// The explorer: the teaching results it must find (or prove absent
// within a budget), and the promises of its search: the answer does not
// depend on chunks or threads, random mode replays from its seed, pruning
// never changes the counterexample, and every schedule stays a valid scenario.
#include "support/preset_loader.hpp"
#include <algorithm>
#include <atomic>
#include <fstream>
#include <limits>
#include <sstream>
#include <thread>

#include <gtest/gtest.h>

#include "leasescope/sim/explorer.hpp"
#include "leasescope/sim/simulation.hpp"
#include "leasescope/words/counterexample_words.hpp"
#include "explore_report_checks.hpp"
#include "support/string_tables.hpp"

namespace leasescope::sim {
namespace {

using test::read_preset;

// A preset with overrides applied, e.g. {"faults", "[]"} to take its own faults out.
Scenario preset(const std::string& name, const std::vector<Override>& overrides = {}) {
    auto parsed = parse_scenario(read_preset(name), name + ".json", overrides);
    EXPECT_TRUE(parsed.ok()) << (parsed.ok() ? "" : parsed.error().to_string());
    return std::move(parsed).value();
}

using test::string_tables;

Properties only(bool overlap, bool unsafe_write, bool fencing_regressed, bool liveness) {
    return Properties{overlap, unsafe_write, fencing_regressed, liveness};
}

FaultMenu kinds(std::string_view text) {
    auto menu = parse_fault_kinds(text);
    EXPECT_TRUE(menu.ok());
    return menu.value();
}

Explorer make(const Scenario& base, const ExploreOptions& options) {
    auto created = Explorer::create(base, options);
    EXPECT_TRUE(created.ok()) << (created.ok() ? "" : created.error());
    return std::move(created).value();
}

// Runs chunks on `threads` threads, handing them out from a shared counter
// (so which thread runs which chunk varies from run to run).
ChunkRunner threaded(unsigned threads) {
    return [threads](std::size_t count, const std::function<void(std::size_t)>& run_chunk) {
        std::atomic<std::size_t> next{0};
        auto work = [&] {
            for (std::size_t c; (c = next.fetch_add(1)) < count;) run_chunk(c);
        };
        std::vector<std::thread> pool;
        for (unsigned i = 0; i < threads; ++i) pool.emplace_back(work);
        for (auto& t : pool) t.join();
    };
}

using test::expect_same_report;
using test::expect_same_stats;

// Kleppmann's story, found rather than told: from the unfenced GC-pause
// preset with its pause taken out, the shortest schedule that makes a stale
// write land is a single pause of the first holder.
TEST(Explorer, OnePauseIsEnoughForAnUnsafeWriteWithoutFencing) {
    const Scenario base = preset("gc-pause-no-fencing", {{"faults", "[]"}});
    ExploreOptions options;
    options.max_faults = 2;
    options.properties = only(false, true, false, false);
    const Explorer ex = make(base, options);
    const ExploreReport report = explore(ex, ExploreRun{});
    ASSERT_TRUE(report.complete);
    ASSERT_TRUE(report.found);
    ASSERT_EQ(report.levels.size(), 2u);  // nothing without a fault; one fault suffices
    EXPECT_EQ(report.levels[0].stats.failing, 0u);
    ASSERT_EQ(report.found->atoms.size(), 1u);
    const Fault& f = ex.atoms()[static_cast<std::size_t>(report.found->atoms[0])];
    EXPECT_EQ(f.kind, FaultKind::pause);
    EXPECT_EQ(base.candidates[static_cast<std::size_t>(f.node)].name, "node-a");
    // node-a (lease 5, write at progress 5) must still be writing after
    // node-b writes at tick 7: the earliest such pause starts at tick 1 and
    // lasts 3 ticks.
    EXPECT_EQ(f.at, 1);
    EXPECT_EQ(f.ticks, 3);
    EXPECT_EQ(report.found->variant, 0);

    Counterexample cx = make_counterexample(ex, *report.found);
    EXPECT_EQ(cx.scenario.name, "gc-pause-no-fencing-counterexample");
    // The facts: node-a's late write (fencing 33) after node-b's (34).
    ASSERT_EQ(cx.facts.failures.size(), 1u);
    const Failure& failure = cx.facts.failures[0];
    EXPECT_EQ(failure.property, Failure::Property::unsafe_write);
    EXPECT_EQ(failure.late.node, "node-a");
    EXPECT_EQ(failure.late.fencing, 33);
    EXPECT_EQ(failure.earlier.node, "node-b");
    EXPECT_EQ(failure.earlier.fencing, 34);
    // The same in words, from the string tables.
    const words::Strings tables = string_tables();
    EXPECT_EQ(words::fault_lines(cx.facts, tables).at(0), "pause node-a for 3 ticks at tick 1");
    const std::string why = words::explanation_words(cx.facts, tables);
    EXPECT_NE(why.find("node-a's write with fencing 33"), std::string::npos) << why;
    EXPECT_NE(why.find("node-b's write with fencing 34"), std::string::npos) << why;
    words::title_counterexample(cx, base, tables);
    EXPECT_FALSE(cx.scenario.title.ko.empty());
    EXPECT_FALSE(cx.scenario.summary.ko.empty());
    // The file opens as it is, and its trace shows the violation.
    auto reparsed = parse_scenario(scenario_to_json(cx.scenario), "counterexample.json");
    ASSERT_TRUE(reparsed.ok()) << reparsed.error().to_string();
    EXPECT_GT(simulate(reparsed.value()).summary.violations.unsafe_write, 0);
}

// The fence is what keeps the data safe: the same base with a resource that
// checks fencing numbers survives every schedule of up to two faults of
// every kind, shuffled orders included.
TEST(Explorer, NoScheduleInTheBudgetBreaksAFencedResource) {
    const Scenario base = preset("gc-pause-no-fencing", {{"faults", "[]"}, {"resource.mode", "\"check\""}});
    ExploreOptions options;
    options.max_faults = 2;
    options.properties = only(false, true, false, false);
    const Explorer ex = make(base, options);
    const ExploreReport report = explore(ex, ExploreRun{});
    ASSERT_TRUE(report.complete);
    EXPECT_FALSE(report.found);
    ASSERT_EQ(report.levels.size(), 3u);
    EXPECT_GT(report.totals.simulated, 1000u);  // the budget was really searched
}

// A failover that loses the leases but keeps the counter breaks mutual
// exclusion, not the fence: with a checking resource no unsafe write and no
// regressed fencing number appears, whatever else goes wrong alongside.
TEST(Explorer, FailoverLosingLeasesKeepsFencingSafe) {
    const Scenario base = preset("failover-lost-lock", {{"faults", "[]"}});
    ASSERT_EQ(base.resource, ResourceMode::check);
    ExploreOptions options;
    options.max_faults = 2;
    options.shuffles = 1;
    options.kinds = kinds("pause,crash,failover:leases");
    options.properties = only(false, true, true, false);
    const Explorer ex = make(base, options);
    const ExploreReport report = explore(ex, ExploreRun{});
    ASSERT_TRUE(report.complete);
    EXPECT_FALSE(report.found);
    EXPECT_GT(report.totals.simulated, 100u);
}

// A failover that loses everything, the counter included, issues a fencing
// number again: one such failover is the whole counterexample.
TEST(Explorer, FailoverLosingAllRegressesFencing) {
    const Scenario base = preset("failover-lost-lock", {{"faults", "[]"}});
    ExploreOptions options;
    options.max_faults = 2;
    options.kinds = kinds("failover:all");
    options.properties = only(false, true, true, false);
    const Explorer ex = make(base, options);
    const ExploreReport report = explore(ex, ExploreRun{});
    ASSERT_TRUE(report.found);
    ASSERT_EQ(report.found->atoms.size(), 1u);
    const Fault& f = ex.atoms()[static_cast<std::size_t>(report.found->atoms[0])];
    EXPECT_EQ(f.kind, FaultKind::failover);
    EXPECT_EQ(f.lose, FailoverLoss::all);
    const Verdict v = ex.check(*report.found);
    EXPECT_TRUE(v.failed.fencing_regressed);
    EXPECT_GT(v.violations.fencing_regressed, 0);
    const Counterexample cx = make_counterexample(ex, *report.found);
    ASSERT_EQ(cx.facts.failures.size(), 1u);
    EXPECT_EQ(cx.facts.failures[0].property, Failure::Property::fencing_regressed);
    const std::string why = words::explanation_words(cx.facts, string_tables());
    EXPECT_NE(why.find("fencing_regressed"), std::string::npos) << why;
}

// The answer, and every counter, is the same however the work is cut into
// chunks and however many threads run them.
TEST(Explorer, SameResultWhateverChunksAndThreads) {
    const Scenario base = preset("contention");
    ExploreOptions options;
    options.max_faults = 2;
    options.max_pause = 3;
    options.shuffles = 1;
    options.kinds = kinds("pause,crash,failover");
    options.properties = only(false, true, false, false);
    const Explorer ex = make(base, options);
    ExploreRun one;
    one.chunk = 1;
    const ExploreReport reference = explore(ex, one);
    ASSERT_TRUE(reference.found);  // contention has no fence: a failover plus a pause breaks it
    for (const std::uint64_t chunk : {std::uint64_t{7}, std::uint64_t{1000}}) {
        ExploreRun run;
        run.chunk = chunk;
        expect_same_report(reference, explore(ex, run));
    }
    for (const unsigned threads : {2u, 3u}) {
        ExploreRun run;
        run.chunk = 3;
        run.runner = threaded(threads);
        expect_same_report(reference, explore(ex, run));
    }
}

// A search advanced a few units at a time (the app's frame loop) reaches
// the same report as one run in a go, in both modes.
TEST(Explorer, SessionStepsReachTheSameReport) {
    const Scenario base = preset("gc-pause-no-fencing", {{"faults", "[]"}, {"resource.mode", "\"check\""}});
    ExploreOptions options;
    options.max_faults = 2;
    options.max_pause = 3;
    options.shuffles = 0;
    options.properties = only(false, true, true, false);
    const Explorer ex = make(base, options);
    for (const ExploreMode mode : {ExploreMode::exhaustive, ExploreMode::random}) {
        ExploreRun run;
        run.mode = mode;
        run.seed = 11;
        run.draws = 500;
        const ExploreReport whole = explore(ex, run);
        ExploreSession session(ex, run);
        int steps = 0;
        while (!session.step(37)) ++steps;
        EXPECT_GT(steps, 3);
        EXPECT_TRUE(session.done());
        expect_same_report(whole, session.report());
    }
}

// Random mode is a pure function of its seed: the same seed gives the same
// draws, the same failure and the same shrunk counterexample, on any number
// of threads.
TEST(Explorer, RandomModeReplaysFromItsSeed) {
    const Scenario base = preset("gc-pause-no-fencing", {{"faults", "[]"}});
    ExploreOptions options;
    options.max_faults = 3;
    options.properties = only(false, true, true, false);
    const Explorer ex = make(base, options);
    ExploreRun run;
    run.mode = ExploreMode::random;
    run.seed = 20261129;
    run.draws = 3000;
    const ExploreReport first = explore(ex, run);
    ASSERT_TRUE(first.found);
    ASSERT_TRUE(first.drawn);
    EXPECT_EQ(*first.drawn, ex.draw(run.seed, first.drawn_index));
    EXPECT_TRUE(ex.check(*first.found).fails());
    EXPECT_LE(first.found->atoms.size(), first.drawn->atoms.size());
    expect_same_report(first, explore(ex, run));
    run.runner = threaded(3);
    run.chunk = 5;
    expect_same_report(first, explore(ex, run));
    // Shrinking gets to a single fault here: one is known to be enough.
    EXPECT_EQ(first.found->atoms.size(), 1u);
}

// Pruning only skips schedules that provably behave like one with fewer
// faults, so it never changes the counterexample.
TEST(Explorer, PruningNeverChangesTheCounterexample) {
    struct Case {
        const char* preset;
        std::vector<Override> overrides;
        Properties properties;
        int max_faults;
        const char* kinds;
    };
    const std::vector<Case> cases = {
        {"gc-pause-no-fencing", {{"faults", "[]"}}, only(false, true, false, false), 1, "all"},
        {"contention", {}, only(false, true, false, false), 2, "pause,crash,failover"},
        {"expiry-takeover", {}, only(false, true, true, true), 1, "all"},
        {"hold-off-handover", {}, only(true, false, false, false), 1, "all"},
        {"auto-extension", {}, only(false, false, false, true), 1, "all"},
        {"watchdog-pause", {{"faults", "[]"}}, only(false, true, false, false), 2, "pause,partition:drop_replies"},
        // Keeps its own partition of node-a: added faults that abut it.
        {"lost-reply-orphan", {}, only(true, false, false, false), 2, "pause,partition:drop_requests"},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.preset);
        ExploreOptions options;
        options.max_faults = c.max_faults;
        options.max_pause = 3;
        options.max_tick = 20;
        options.shuffles = c.max_faults > 1 ? 0 : 1;
        options.kinds = kinds(c.kinds);
        options.properties = c.properties;
        const Scenario base = preset(c.preset, c.overrides);
        const ExploreReport pruned = explore(make(base, options), ExploreRun{});
        options.prune = false;
        const ExploreReport full = explore(make(base, options), ExploreRun{});
        EXPECT_EQ(pruned.found, full.found);
        EXPECT_EQ(pruned.levels.size(), full.levels.size());
        EXPECT_EQ(full.totals.pruned, 0u);
    }
}

// Every schedule in the budget is accounted for: simulated, pruned or
// invalid, adding up to the number of fault combinations.
TEST(Explorer, CountersCoverTheWholeBudget) {
    const Scenario base = preset("gc-pause-fencing");  // keeps its own pause, so some added pauses clash
    ExploreOptions options;
    options.max_faults = 2;
    options.max_pause = 3;
    options.shuffles = 1;
    options.properties = only(false, true, false, false);
    const Explorer ex = make(base, options);
    const ExploreReport report = explore(ex, ExploreRun{});
    ASSERT_TRUE(report.complete);
    EXPECT_FALSE(report.found);
    ASSERT_EQ(report.levels.size(), 3u);
    for (const LevelReport& level : report.levels) {
        SCOPED_TRACE(level.faults);
        EXPECT_EQ(level.stats.schedules, ex.level_schedules(level.faults));
        EXPECT_EQ(level.stats.schedules, level.stats.simulated + level.stats.pruned + level.stats.invalid);
    }
    EXPECT_GT(report.levels[2].stats.invalid, 0u);  // two pauses of one node that overlap
    EXPECT_GT(report.levels[2].stats.pruned, 0u);
    // No atom clashes with the base's own pause of node-a (ticks 2..11).
    for (const Fault& f : ex.atoms()) {
        if (f.kind == FaultKind::pause && f.node == 0) {
            EXPECT_TRUE(f.end() <= 2 || f.at >= 12) << f.at;
        }
    }
}

// Added faults keep the scenario valid: every drawn schedule, written as a
// scenario file, parses back (no overlapping pauses or partitions).
TEST(Explorer, SchedulesStayValidScenarios) {
    const Scenario base = preset("gc-pause-no-fencing");
    ExploreOptions options;
    options.max_faults = 4;
    options.max_pause = 6;
    const Explorer ex = make(base, options);
    for (std::uint64_t i = 0; i < 500; ++i) {
        const Schedule s = ex.draw(7, i);
        EXPECT_TRUE(std::is_sorted(s.atoms.begin(), s.atoms.end()));
        auto reparsed = parse_scenario(scenario_to_json(ex.to_scenario(s)), "draw.json");
        ASSERT_TRUE(reparsed.ok()) << "draw " << i << ": " << reparsed.error().to_string();
    }
}

// The ranking (docs/explorer.md, Ranking): fewer faults first, then the
// smaller total magnitude, then earlier ticks, then the base's own order.
TEST(Explorer, RanksFewerThenSmallerThenEarlierFaultsFirst) {
    std::vector<Fault> atoms(3);
    for (Fault& f : atoms) f.ticks = 2;
    atoms[0].at = 1;
    atoms[1].at = 2;
    atoms[2].at = 5;
    const std::int64_t tick_ms = 50;
    EXPECT_TRUE(Explorer::ranks_before(Schedule{0, {2}}, Schedule{0, {0, 1}}, atoms, tick_ms));
    EXPECT_TRUE(Explorer::ranks_before(Schedule{0, {0}}, Schedule{0, {1}}, atoms, tick_ms));
    EXPECT_TRUE(Explorer::ranks_before(Schedule{1, {0}}, Schedule{0, {2}}, atoms, tick_ms));
    EXPECT_TRUE(Explorer::ranks_before(Schedule{0, {1}}, Schedule{1, {1}}, atoms, tick_ms));
    EXPECT_FALSE(Explorer::ranks_before(Schedule{0, {1}}, Schedule{0, {1}}, atoms, tick_ms));
    // A shorter pause later ranks before a longer one earlier, even in
    // a shuffled order: size comes before tick and variant.
    atoms[0].ticks = 3;
    EXPECT_TRUE(Explorer::ranks_before(Schedule{2, {2}}, Schedule{0, {0}}, atoms, tick_ms));
    EXPECT_FALSE(Explorer::ranks_before(Schedule{0, {0}}, Schedule{2, {2}}, atoms, tick_ms));
    // Fewer faults still come first, however small the more numerous ones.
    atoms[0].ticks = 9;
    EXPECT_TRUE(Explorer::ranks_before(Schedule{0, {0}}, Schedule{0, {1, 2}}, atoms, tick_ms));
}

// Each kind's size, in ticks: lengths, a delay's extra ticks, a jump's |ms|
// over tick_ms (rounded up), a promotion's lag; nothing for a crash or a
// failover that loses.
TEST(Explorer, FaultMagnitudesAreTicksOfEachKind) {
    const std::int64_t tick_ms = 50;
    Fault pause{FaultKind::pause, 0, 3, 7, {}, {}};
    EXPECT_EQ(fault_magnitude(pause, tick_ms), 7);
    Fault partition{FaultKind::partition, 0, 3, 4, PartitionMode::drop_replies, {}};
    EXPECT_EQ(fault_magnitude(partition, tick_ms), 4);
    Fault delay{FaultKind::delay, 0, 3, 1, {}, {}, 0, Link::write, 5};
    EXPECT_EQ(fault_magnitude(delay, tick_ms), 5);
    Fault back{FaultKind::clock_jump, -1, 3, 0, {}, {}, -150, {}, 0};
    EXPECT_EQ(fault_magnitude(back, tick_ms), 3);
    back.ms = -120;  // off the grid: rounded up
    EXPECT_EQ(fault_magnitude(back, tick_ms), 3);
    Fault crash{FaultKind::crash, 1, 3, 0, {}, {}};
    EXPECT_EQ(fault_magnitude(crash, tick_ms), 0);
    Fault lose{FaultKind::failover, -1, 3, 0, {}, FailoverLoss::all};
    EXPECT_EQ(fault_magnitude(lose, tick_ms), 0);
    Fault promote = lose;
    promote.server = 1;
    promote.lag = 2;
    EXPECT_EQ(fault_magnitude(promote, tick_ms), 2);
    Fault cut{FaultKind::replica_link, -1, 3, 6, {}, {}};
    cut.server = 1;
    EXPECT_EQ(fault_magnitude(cut, tick_ms), 6);
}

// A search can be stopped from another thread; a stopped search says so.
TEST(Explorer, CancelStopsTheSearch) {
    const Scenario base = preset("contention");
    ExploreOptions options;
    options.properties = only(false, true, false, false);
    const Explorer ex = make(base, options);
    ExploreControl control;
    control.cancel = true;
    const ExploreReport report = explore(ex, ExploreRun{}, &control);
    EXPECT_FALSE(report.complete);
    EXPECT_FALSE(report.found);
}

// A search stopped part way through a level keeps the failing schedule it
// found there (explore --time-limit reports it): it fails, though one of as
// many faults that ranks before it may lie in the part not searched.
TEST(Explorer, AStoppedSearchKeepsWhatFailedSoFar) {
    const Scenario base = preset("contention");
    ExploreOptions options;
    options.properties = only(false, true, false, false);
    const Explorer ex = make(base, options);
    const ExploreReport whole = explore(ex, ExploreRun{});
    ASSERT_TRUE(whole.found);
    const std::size_t level = whole.found->atoms.size();
    ASSERT_GE(level, 1u);
    constexpr std::uint64_t all = std::numeric_limits<std::uint64_t>::max();
    ExploreControl control;
    ExploreSession session(ex, ExploreRun{}, &control);
    while (static_cast<std::size_t>(session.level()) < level) ASSERT_FALSE(session.step(all));
    ASSERT_GT(session.total(), 1u);
    ASSERT_FALSE(session.step(session.total() - 1));  // every unit of the level but its last
    control.cancel = true;
    ASSERT_TRUE(session.step(all));
    const ExploreReport& stopped = session.report();
    EXPECT_FALSE(stopped.complete);
    ASSERT_EQ(stopped.levels.size(), level + 1);
    ASSERT_TRUE(stopped.found);
    EXPECT_EQ(stopped.found->atoms.size(), level);
    EXPECT_TRUE(ex.check(*stopped.found).fails());
}

// Budgets and lists from the command line are checked, with errors that name
// what was expected.
TEST(Explorer, OptionsAreChecked) {
    EXPECT_TRUE(parse_properties("overlap,liveness").ok());
    EXPECT_EQ(
        to_string(parse_properties("all").value()),
        "overlap,unsafe_write,fencing_regressed,liveness,stale_after_successor,holder_rejected,fencing_duplicate");
    EXPECT_EQ(to_string(parse_properties("holder_rejected, fencing_duplicate").value()),
              "holder_rejected,fencing_duplicate");
    EXPECT_FALSE(parse_properties("unsafe_writes").ok());
    EXPECT_EQ(to_string(parse_fault_kinds("pause, failover:all").value()), "pause,failover:all");
    // "all" names delays and clock jumps too; the explorer adds them only
    // with their budget (explore_wire_test.cpp), and a Redlock store's
    // restart only on Redlock (explore_redlock_test.cpp).
    EXPECT_EQ(to_string(parse_fault_kinds("all").value()),
              "pause,partition,crash,failover,delay,clock_jump,replica_link,restart");
    EXPECT_EQ(to_string(parse_fault_kinds("failover:promote,replica_link").value()), "failover:promote,replica_link");
    EXPECT_EQ(to_string(parse_fault_kinds("delay:reply,clock_jump:back").value()), "delay:reply,clock_jump:back");
    EXPECT_FALSE(parse_fault_kinds("gc").ok());
    const Scenario base = preset("contention");
    ExploreOptions too_many;
    too_many.max_faults = explore_faults_max + 1;
    EXPECT_FALSE(Explorer::create(base, too_many).ok());
    ExploreOptions nothing;
    nothing.properties = only(false, false, false, false);
    EXPECT_FALSE(Explorer::create(base, nothing).ok());
}

}  // namespace
}  // namespace leasescope::sim

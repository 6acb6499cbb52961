// The explorer on Redlock (docs/model.md §20, docs/explorer.md "On Redlock"):
// from the presets' bases without their fault it finds Kleppmann's forward
// jump of one store's clock and the restart without persistence, finds none
// when a restart keeps its key (`always`), gives the same answer without
// pruning, split into shards, minimized and drawn at random, and refuses the
// properties and kinds a Redlock run cannot have; it lays out partitions
// and delays per store and finds the late write.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "explore_report_checks.hpp"
#include "leasescope/sim/explore_shard.hpp"
#include "leasescope/sim/exercise.hpp"
#include "leasescope/sim/explorer.hpp"
#include "leasescope/sim/simulation.hpp"
#include "support/test_files.hpp"

namespace leasescope::sim {
namespace {

Scenario redlock_base(const std::string& name) {
    const std::string path = test::source_dir + "/tests/sim/explore/redlock/" + name + "-base.json";
    auto p = parse_scenario(test::read_all(path), path);
    EXPECT_TRUE(p.ok()) << (p.ok() ? "" : p.error().to_string());
    return std::move(p).value();
}

ExploreOptions redlock_searching(std::string_view kinds, Tick max_tick) {
    ExploreOptions o;
    o.kinds = parse_fault_kinds(kinds).value();
    o.max_faults = 1;
    o.max_pause = 2;
    o.max_tick = max_tick;
    o.properties = parse_properties("unsafe_write,liveness").value();
    return o;
}

Explorer redlock_make(const Scenario& base, const ExploreOptions& options) {
    auto created = Explorer::create(base, options);
    EXPECT_TRUE(created.ok()) << (created.ok() ? "" : created.error());
    return std::move(created).value();
}

const Fault& found_fault(const Explorer& ex, const ExploreReport& report) {
    EXPECT_TRUE(report.found);
    EXPECT_EQ(report.found->atoms.size(), 1u);
    return ex.atoms().at(static_cast<std::size_t>(report.found->atoms.at(0)));
}

// "all" on Redlock is pause, partition (one form: it holds, §20.7), crash,
// clock jumps of each store with a budget, and restarts of each store with
// each persistence; one order (§20.1 rule 3), so no shuffles.
TEST(ExploreRedlock, KindsAreRedlocksOwn) {
    ExploreOptions o = redlock_searching("all", 3);
    o.max_clock_jump_ms = 100;
    const Explorer ex = redlock_make(redlock_base("redlock-restart"), o);
    EXPECT_EQ(to_string(ex.options().kinds), "pause,partition:drop_requests,crash,clock_jump,restart");
    EXPECT_EQ(ex.variant_count(), 1);
    std::size_t restarts = 0, jumps = 0;
    for (const Fault& f : ex.atoms()) {
        EXPECT_NE(f.kind, FaultKind::failover);
        EXPECT_NE(f.kind, FaultKind::delay);
        if (f.kind == FaultKind::restart) ++restarts;
        if (f.kind == FaultKind::clock_jump) {
            EXPECT_GE(f.store, 0);
            ++jumps;
        }
    }
    // Ticks 0..3 less the ticks where D's and E's own restarts (0..29) clash.
    EXPECT_EQ(restarts, 4u * 3 * 3 * 2);  // A, B, C; three persistences; 1..2 ticks
    EXPECT_EQ(jumps, 4u * 5 * 4);         // every store; ±50, ±100 ms
}

// A Redlock run issues no fencing number (§20.6): a fencing property is an
// error, not a green that means nothing; delays are not laid out there.
TEST(ExploreRedlock, RefusesWhatCannotHappen) {
    const Scenario base = redlock_base("redlock-restart");
    ExploreOptions o = redlock_searching("restart", 40);
    o.properties = parse_properties("unsafe_write,fencing_regressed").value();
    auto fencing = Explorer::create(base, o);
    ASSERT_FALSE(fencing.ok());
    EXPECT_NE(fencing.error().find("fencing_regressed can never fail on a Redlock scenario"), std::string::npos);
}

// A partition from every store or from one, and a delay of a node's
// requests to every store or one, of the replies from them, or of its write
// (model.md §20.7): the store sets are laid out in that order, each faithful
// to the scenario file the counterexample would be (the set survives JSON).
TEST(ExploreRedlock, PartitionsAndDelaysComeForEveryStoreAndEachOne) {
    const Scenario base = redlock_base("redlock-restart");
    ExploreOptions o = redlock_searching("partition,delay", 0);
    o.max_pause = 1;
    o.max_delay = 1;
    const Explorer ex = redlock_make(base, o);
    std::vector<std::uint32_t> partitions, requests, replies, writes;
    for (const Fault& f : ex.atoms()) {
        if (f.node != 0) continue;
        if (f.kind == FaultKind::partition) partitions.push_back(f.stores);
        if (f.kind == FaultKind::delay && f.link == Link::request) requests.push_back(f.stores);
        if (f.kind == FaultKind::delay && f.link == Link::reply) replies.push_back(f.stores);
        if (f.kind == FaultKind::delay && f.link == Link::write) writes.push_back(f.stores);
    }
    const std::vector<std::uint32_t> sets{0, 1, 2, 4, 8, 16};
    EXPECT_EQ(partitions, sets);
    EXPECT_EQ(requests, sets);
    EXPECT_EQ(replies, sets);
    EXPECT_EQ(writes, std::vector<std::uint32_t>{0});
    for (std::int32_t a = 0; a < static_cast<std::int32_t>(ex.atoms().size()); ++a) {
        const Scenario s = ex.to_scenario(Schedule{0, {a}});
        auto again = parse_scenario(scenario_to_json(s), "atom.json");
        ASSERT_TRUE(again.ok()) << again.error().to_string();
        EXPECT_EQ(again.value().faults.back().stores, ex.atoms()[static_cast<std::size_t>(a)].stores);
    }
}

// The late message on Redlock (redlock-gc-pause without its pause): a write
// client-1 sends at 2.1 s, delayed 10 s, lands at 12.1 s while client-2
// holds a quorum (it locked at 11 s); nothing smaller and nothing earlier
// does it, and the search without pruning agrees.
TEST(ExploreRedlock, FindsTheLateWrite) {
    const Scenario base = redlock_base("redlock-gc-pause");
    ExploreOptions o = redlock_searching("delay", 60);
    ASSERT_TRUE(parse_grid("delay=1..400", base.tick_ms, o.grids).ok());
    const Explorer ex = redlock_make(base, o);
    const ExploreReport report = explore(ex, ExploreRun{});
    const Fault& f = found_fault(ex, report);
    EXPECT_EQ(f.kind, FaultKind::delay);
    EXPECT_EQ(f.link, Link::write);
    EXPECT_EQ(f.node, 0);
    EXPECT_EQ(f.at, 42);
    EXPECT_EQ(f.extra, 200);
    const Counterexample cx = make_counterexample(ex, *report.found);
    ASSERT_EQ(cx.facts.failures.size(), 1u);
    EXPECT_TRUE(cx.facts.failures[0].quorum);
    EXPECT_EQ(cx.facts.failures[0].late.tick, 242);
    EXPECT_EQ(cx.facts.failures[0].earlier.node, "client-2");
    ExploreOptions unpruned = o;
    unpruned.prune = false;
    const ExploreReport every = explore(redlock_make(base, unpruned), ExploreRun{});
    EXPECT_EQ(every.found, report.found);
    EXPECT_EQ(every.totals.schedules, report.totals.schedules);
}

// redlock-restart without C's restart: a restart without persistence of one
// of the stores client-1 holds (A, B or C) lets client-2 take a quorum.
TEST(ExploreRedlock, FindsTheRestartWithoutPersistence) {
    const Scenario base = redlock_base("redlock-restart");
    const Explorer ex = redlock_make(base, redlock_searching("restart", 40));
    const ExploreReport report = explore(ex, ExploreRun{});
    const Fault& f = found_fault(ex, report);
    EXPECT_EQ(f.kind, FaultKind::restart);
    EXPECT_EQ(f.persistence, Persistence::none);
    EXPECT_LE(f.store, 2);
    EXPECT_EQ(f.ticks, 1);
    EXPECT_TRUE(ex.check(*report.found).failed.unsafe_write);
    // The pruning is sound: without it, the same counterexample.
    ExploreOptions unpruned = redlock_searching("restart", 40);
    unpruned.prune = false;
    const Explorer all = redlock_make(base, unpruned);
    const ExploreReport every = explore(all, ExploreRun{});
    EXPECT_EQ(every.found, report.found);
    EXPECT_EQ(every.totals.pruned, 0u);
    EXPECT_EQ(every.totals.schedules, report.totals.schedules);
}

// The lesson: a store that keeps its key (`always`) cannot be made to
// forget it, with one restart or two.
TEST(ExploreRedlock, AlwaysKeepsItSafe) {
    const Scenario base = redlock_base("redlock-restart");
    const ExploreReport one = explore(redlock_make(base, redlock_searching("restart:always", 132)), ExploreRun{});
    EXPECT_FALSE(one.found);
    ExploreOptions two = redlock_searching("restart:always", 60);
    two.max_faults = 2;
    two.max_pause = 1;
    const ExploreReport both = explore(redlock_make(base, two), ExploreRun{});
    EXPECT_FALSE(both.found);
    EXPECT_EQ(both.levels.size(), 3u);
    // everysec loses a key set after the last whole second's fsync.
    const Explorer ex = redlock_make(base, redlock_searching("restart:everysec", 40));
    EXPECT_EQ(found_fault(ex, explore(ex, ExploreRun{})).persistence, Persistence::everysec);
}

ExploreOptions jumps_forward(Tick max_tick) {
    ExploreOptions o = redlock_searching("clock_jump:forward", max_tick);
    o.max_clock_jump_ms = 6000;
    return o;
}

// redlock-clock-jump without its jump: a forward jump of the clock of a store
// client-1 holds drops its key early, and client-2 gets a quorum while
// client-1 still writes (Kleppmann's first scenario). The smallest is
// 5550 ms; the search with pruning and without agree.
TEST(ExploreRedlock, FindsTheForwardClockJump) {
    const Scenario base = redlock_base("redlock-clock-jump");
    const Explorer ex = redlock_make(base, jumps_forward(4));
    const ExploreReport report = explore(ex, ExploreRun{});
    const Fault& f = found_fault(ex, report);
    EXPECT_EQ(f.kind, FaultKind::clock_jump);
    EXPECT_LE(f.store, 2);
    EXPECT_EQ(f.ms, 5550);
    ExploreOptions unpruned = jumps_forward(4);
    unpruned.prune = false;
    EXPECT_EQ(explore(redlock_make(base, unpruned), ExploreRun{}).found, report.found);

    const Counterexample cx = make_counterexample(ex, *report.found);
    ASSERT_EQ(cx.facts.failures.size(), 1u);
    const Failure& failure = cx.facts.failures[0];
    EXPECT_EQ(failure.property, Failure::Property::unsafe_write);
    EXPECT_TRUE(failure.quorum);
    EXPECT_EQ(failure.late.node, "client-1");
    EXPECT_EQ(failure.earlier.node, "client-2");
    EXPECT_EQ(cx.facts.faults.at(0).node, base.stores.at(static_cast<std::size_t>(f.store)));
    // The counterexample file reads back and fails the same way.
    auto again = parse_scenario(scenario_to_json(cx.scenario), "counterexample.json");
    ASSERT_TRUE(again.ok()) << again.error().to_string();
    EXPECT_EQ(simulate(again.value()).summary.violations.unsafe_write, 1);
}

// --minimize: 5550 ms breaks it and no jump of 50 … 5500 ms does.
TEST(ExploreRedlock, MinimizeGivesTheSmallestJump) {
    const Scenario base = redlock_base("redlock-clock-jump");
    auto m = minimize(base, jumps_forward(4), ExploreRun{});
    ASSERT_TRUE(m.ok()) << m.error();
    ASSERT_EQ(m.value().kinds.size(), 1u);
    const KindThreshold& k = m.value().kinds[0];
    EXPECT_EQ(k.kind, FaultClass::clock_jump);
    EXPECT_EQ(k.threshold, 111);  // ticks of 50 ms
    ExploreOptions below = jumps_forward(4);
    below.max_clock_jump_ms = 5500;
    EXPECT_FALSE(explore(redlock_make(base, below), ExploreRun{}).found);
}

// Split into three shards and merged, the search gives what it gives whole.
TEST(ExploreRedlock, ShardsMergeToTheWhole) {
    const Scenario base = redlock_base("redlock-restart");
    const Explorer ex = redlock_make(base, redlock_searching("restart", 40));
    const ExploreReport whole = explore(ex, ExploreRun{});
    auto merged = merge_shard_results(test::shard_files(ex, 3));
    ASSERT_TRUE(merged.ok()) << merged.error();
    EXPECT_EQ(merged.value().report.found, whole.found);
    EXPECT_EQ(merged.value().report.totals.schedules, whole.totals.schedules);
    EXPECT_EQ(merged.value().report.totals.simulated, whole.totals.simulated);
}

// Random mode draws restarts and store clock jumps and shrinks what fails.
TEST(ExploreRedlock, RandomDrawsAndShrinks) {
    const Scenario base = redlock_base("redlock-restart");
    ExploreOptions o = redlock_searching("restart,clock_jump", 60);
    o.max_clock_jump_ms = 1000;
    o.max_faults = 2;
    const Explorer ex = redlock_make(base, o);
    ExploreRun run;
    run.mode = ExploreMode::random;
    run.seed = 7;
    run.draws = 400;
    const ExploreReport report = explore(ex, run);
    ASSERT_TRUE(report.found);
    ASSERT_EQ(report.found->atoms.size(), 1u);
    const Fault& f = ex.atoms().at(static_cast<std::size_t>(report.found->atoms[0]));
    EXPECT_EQ(f.kind, FaultKind::restart);
    EXPECT_EQ(f.ticks, 1);
    EXPECT_TRUE(ex.check(*report.found).fails());
}

// A find_fault exercise on a Redlock scenario (model.md §18.4) runs the
// explorer's layout: its budget lists the restart, a restart that keeps the
// key does not meet the goal, and the smallest that does is a one-tick
// restart without persistence.
TEST(ExploreRedlock, FindFaultTakesARestart) {
    const std::string path = test::source_dir + "/tests/sim/explore/redlock/redlock-restart-base.json";
    nlohmann::json file = nlohmann::json::parse(test::read_all(path));
    file["exercises"] =
        nlohmann::json::array({{{"kind", "find_fault"},
                                {"faults", "restart"},
                                {"max_ticks", 4},
                                {"goal", {{"fails", "overlap"}}},
                                {"prompt", {{"en", "Restart a store."}, {"ko", "저장소를 재시작하세요."}}},
                                {"hint", {{"en", "Which?"}, {"ko", "어느 것일까요?"}}}}});
    auto base = exercise_base(file.dump(), "find-fault.json");
    ASSERT_TRUE(base.ok()) << base.error().to_string();
    auto budget = fault_budget(base.value(), 0);
    ASSERT_TRUE(budget.ok()) << budget.error().to_string();
    EXPECT_EQ(budget.value().kinds, std::vector<FaultKind>{FaultKind::restart});
    Fault always{FaultKind::restart, -1, 30, 2, {}, {}};
    always.store = 1;
    always.persistence = Persistence::always;
    auto kept = try_fault(base.value(), 0, always);
    ASSERT_TRUE(kept.ok()) << kept.error();
    EXPECT_FALSE(kept.value().result.met);
    const auto smallest = smallest_fault(base.value(), 0);
    ASSERT_TRUE(smallest);
    EXPECT_EQ(smallest->kind, FaultKind::restart);
    EXPECT_EQ(smallest->ticks, 1);
    EXPECT_EQ(smallest->persistence, Persistence::none);
    // A failover cannot be added to Redlock: the file is refused.
    file["exercises"][0]["faults"] = "failover";
    EXPECT_FALSE(exercise_base(file.dump(), "find-fault.json").ok());
}

}  // namespace
}  // namespace leasescope::sim

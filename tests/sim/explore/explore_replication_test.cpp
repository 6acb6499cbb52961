// The explorer on a store with replicas (docs/model.md §17, docs/explorer.md):
// it searches cuts of a replica's link and failovers that promote a replica
// with a lag, finds the duplicated fencing number a lagging promotion makes,
// keeps every schedule a valid set of servers' roles, and leaves a search
// without replicas as it was.
#include <algorithm>

#include <gtest/gtest.h>

#include "../../support/trace_test_helpers.hpp"
#include "explore_report_checks.hpp"
#include "leasescope/sim/explorer.hpp"
#include "leasescope/sim/simulation.hpp"

namespace leasescope::sim {
namespace {

// node-a acquires at 0 for 4 ticks; node-b asks from tick 4, node-c from 5
// (replication_test.cpp's setup, with no fault of its own).
Scenario replicated(std::int32_t replicas) {
    Scenario s = trace_test::parse(R"({"name": "replication", "horizon": 30, "resource": {"mode": "check"},
      "candidates": [
        {"name": "node-a", "wait": 0, "lease": 4, "action": 12, "writes": [2, 10]},
        {"name": "node-b", "start": 4, "wait": 0, "lease": 3, "action": 1},
        {"name": "node-c", "start": 5, "wait": 6, "lease": 4, "action": 2}]})");
    s.lock.replication.replicas = replicas;
    return s;
}

ExploreOptions repl_searching(std::string_view kinds, int max_faults) {
    ExploreOptions o;
    auto menu = parse_fault_kinds(kinds);
    EXPECT_TRUE(menu.ok());
    o.kinds = menu.value();
    o.max_faults = max_faults;
    o.shuffles = 0;
    o.properties = Properties{false, false, false, false, false, false, true};  // fencing_duplicate
    return o;
}

Explorer repl_make(const Scenario& base, const ExploreOptions& options) {
    auto created = Explorer::create(base, options);
    EXPECT_TRUE(created.ok()) << (created.ok() ? "" : created.error());
    return std::move(created).value();
}

std::size_t repl_count_atoms(const Explorer& ex, FaultKind kind) {
    return static_cast<std::size_t>(std::count_if(ex.atoms().begin(), ex.atoms().end(),
                                                  [&](const Fault& f) { return f.kind == kind; }));
}

// Without replicas nothing of §17 is added and "all" means what it meant.
TEST(ExploreReplication, OffWithoutReplicas) {
    const Explorer ex = repl_make(replicated(0), repl_searching("all", 1));
    EXPECT_FALSE(ex.options().kinds.replica_link);
    EXPECT_FALSE(ex.options().kinds.failover_promote);
    EXPECT_TRUE(ex.options().kinds.failover_leases);
    EXPECT_EQ(to_string(ex.options().kinds), "pause,partition,crash,failover");
    EXPECT_EQ(repl_count_atoms(ex, FaultKind::replica_link), 0u);
    for (const Fault& f : ex.atoms()) EXPECT_FALSE(f.promotes());
}

// With replicas every failover promotes (§17.3 rule 5): no failover that
// loses, a promotion of each server with each lag up to its tick, and a cut
// of each server's link of each length.
TEST(ExploreReplication, WithReplicasAFailoverPromotes) {
    ExploreOptions o = repl_searching("all", 1);
    o.max_lag = 2;
    o.max_link_cut = 3;
    o.max_tick = 5;
    const Explorer ex = repl_make(replicated(2), o);
    EXPECT_EQ(to_string(ex.options().kinds), "pause,partition,crash,failover:promote,replica_link");
    std::size_t promotions = 0;
    for (const Fault& f : ex.atoms()) {
        if (f.kind == FaultKind::failover) {
            EXPECT_TRUE(f.promotes());
            EXPECT_LE(f.lag, std::min<Tick>(2, f.at));
            ++promotions;
        }
    }
    // Ticks 0..5, 3 servers: lags {0}, {0,1}, then {0,1,2} four times.
    EXPECT_EQ(promotions, 3u * (1 + 2 + 3 * 4));
    EXPECT_EQ(repl_count_atoms(ex, FaultKind::replica_link), 6u * 3 * 3);
}

// §17.3 rule 1: the replica promoted at tick 1 had not received node-a's
// acquisition of tick 0 (lag 1), so node-b is issued 1 again. It is the
// earliest failure; with lag 0 the linked replica has everything.
TEST(ExploreReplication, FindsTheDuplicateALaggingPromotionMakes) {
    ExploreOptions o = repl_searching("failover:promote", 2);
    const Explorer ex = repl_make(replicated(1), o);
    const ExploreReport report = explore(ex, ExploreRun{});
    ASSERT_TRUE(report.found);
    ASSERT_EQ(report.found->atoms.size(), 1u);
    const Fault& f = ex.atoms()[static_cast<std::size_t>(report.found->atoms[0])];
    EXPECT_TRUE(f.promotes());
    EXPECT_EQ(f.at, 1);
    EXPECT_EQ(f.server, 1);
    EXPECT_EQ(f.lag, 1);
    const Counterexample cx = make_counterexample(ex, *report.found);
    EXPECT_TRUE(cx.verdict.failed.fencing_duplicate);
    ASSERT_EQ(cx.facts.failures.size(), 1u);
    EXPECT_EQ(cx.facts.failures[0].property, Failure::Property::fencing_duplicate);
    EXPECT_EQ(cx.facts.failures[0].late.fencing, cx.facts.failures[0].earlier.fencing);
    ASSERT_EQ(cx.scenario.faults.size(), 1u);
    EXPECT_EQ(cx.scenario.faults[0].server, 1);
    EXPECT_EQ(cx.scenario.faults[0].lag, 1);
}

// With lag 0 the duplicate needs a cut link (§17.2 rule 1, "the earlier cut
// stands"): two faults, the cut and the promotion of the cut server.
TEST(ExploreReplication, ACutLinkThenAPromotionWithNoLag) {
    ExploreOptions o = repl_searching("replica_link,failover:promote", 2);
    o.max_lag = 0;
    o.max_link_cut = 4;
    const Explorer ex = repl_make(replicated(1), o);
    const ExploreReport report = explore(ex, ExploreRun{});
    ASSERT_TRUE(report.found);
    ASSERT_EQ(report.found->atoms.size(), 2u);
    const Fault& cut = ex.atoms()[static_cast<std::size_t>(report.found->atoms[0])];
    const Fault& promote = ex.atoms()[static_cast<std::size_t>(report.found->atoms[1])];
    EXPECT_EQ(cut.kind, FaultKind::replica_link);
    EXPECT_EQ(cut.server, 1);
    EXPECT_EQ(cut.at, 0);
    EXPECT_TRUE(promote.promotes());
    EXPECT_EQ(promote.server, 1);
    EXPECT_EQ(promote.lag, 0);
    EXPECT_TRUE(ex.check(*report.found).failed.fencing_duplicate);
    // Level 1 holds no failure: neither a cut alone nor a linked promotion.
    ASSERT_EQ(report.levels.size(), 3u);
    EXPECT_EQ(report.levels[1].stats.failing, 0u);
}

// §17.2 rule 3: a cut names a replica. With no failover server 0 stays the
// primary, so each cut of its link is an invalid schedule, not simulated.
TEST(ExploreReplication, ACutOfThePrimaryIsInvalid) {
    ExploreOptions o = repl_searching("replica_link", 1);
    o.max_link_cut = 2;
    const Explorer ex = repl_make(replicated(1), o);
    const std::size_t of_primary = static_cast<std::size_t>(std::count_if(
        ex.atoms().begin(), ex.atoms().end(), [](const Fault& f) { return f.server == 0; }));
    ASSERT_GT(of_primary, 0u);
    const ExploreReport report = explore(ex, ExploreRun{});
    ASSERT_EQ(report.levels.size(), 2u);
    EXPECT_EQ(report.levels[1].stats.invalid, of_primary);
    // After a promotion of server 1, server 0 is a replica and its cut counts.
    ExploreOptions both = repl_searching("replica_link,failover:promote", 2);
    both.max_link_cut = 2;
    both.max_lag = 0;
    const Explorer ex2 = repl_make(replicated(1), both);
    std::int32_t promote1 = -1, cut0 = -1;
    for (std::size_t i = 0; i < ex2.atoms().size(); ++i) {
        const Fault& f = ex2.atoms()[i];
        if (f.promotes() && f.server == 1 && f.at == 1 && promote1 < 0) promote1 = static_cast<std::int32_t>(i);
        if (f.kind == FaultKind::replica_link && f.server == 0 && f.at == 3 && cut0 < 0)
            cut0 = static_cast<std::int32_t>(i);
    }
    ASSERT_GE(promote1, 0);
    ASSERT_GE(cut0, 0);
    const Trace t = simulate(ex2.to_scenario(Schedule{0, {promote1, cut0}}));
    const auto cuts = trace_test::find(t, "store", EventOp::link_cut);
    ASSERT_EQ(cuts.size(), 1u);
    EXPECT_EQ(cuts[0].server, 0);
}

// Pruning, chunks and random draws keep their promises with the new kinds:
// the same answer with and without pruning, every drawn schedule valid.
TEST(ExploreReplication, PruningAndDrawsKeepTheirPromises) {
    ExploreOptions o = repl_searching("replica_link,failover:promote,crash", 2);
    o.max_link_cut = 3;
    o.max_lag = 1;
    o.max_tick = 8;
    const Explorer pruned = repl_make(replicated(2), o);
    o.prune = false;
    const Explorer full = repl_make(replicated(2), o);
    const ExploreReport a = explore(pruned, ExploreRun{});
    const ExploreReport b = explore(full, ExploreRun{});
    EXPECT_EQ(a.found, b.found);
    ASSERT_EQ(a.levels.size(), b.levels.size());
    for (std::size_t i = 0; i < a.levels.size(); ++i) {
        EXPECT_EQ(a.levels[i].stats.schedules, b.levels[i].stats.schedules);
        EXPECT_EQ(a.levels[i].stats.invalid, b.levels[i].stats.invalid);
    }
    ExploreRun chunked;
    chunked.chunk = 3;
    test::expect_same_report(a, explore(pruned, chunked));
    ExploreRun random;
    random.mode = ExploreMode::random;
    random.seed = 7;
    random.draws = 300;
    const ExploreReport r = explore(pruned, random);
    ASSERT_TRUE(r.found);
    EXPECT_TRUE(pruned.check(*r.found).fails());
    EXPECT_LE(r.found->atoms.size(), r.drawn->atoms.size());
}

// A budget too large names the flags that make it so.
TEST(ExploreReplication, BudgetErrorsNameTheFlags) {
    ExploreOptions o = repl_searching("replica_link,failover:promote", 1);
    o.max_link_cut = explore_link_cut_max + 1;
    auto created = Explorer::create(replicated(1), o);
    ASSERT_FALSE(created.ok());
    EXPECT_NE(created.error().find("--max-link-cut"), std::string::npos);
    o.max_link_cut = 8;
    o.max_lag = explore_lag_max + 1;
    created = Explorer::create(replicated(1), o);
    ASSERT_FALSE(created.ok());
    EXPECT_NE(created.error().find("--max-lag"), std::string::npos);
    Scenario big = replicated(8);
    big.horizon = 100'000;
    o.max_lag = 1'000;
    o.max_link_cut = 1'000;
    o.max_tick = 90'000;
    created = Explorer::create(big, o);
    ASSERT_FALSE(created.ok());
    EXPECT_NE(created.error().find("budget too large"), std::string::npos);
    EXPECT_NE(created.error().find("--max-link-cut"), std::string::npos);
    EXPECT_NE(created.error().find("--max-lag"), std::string::npos);
}

}  // namespace
}  // namespace leasescope::sim

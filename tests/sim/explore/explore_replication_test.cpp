// The explorer on a store with replicas (docs/model.md §17, docs/explorer.md):
// it searches cuts of a replica's link and failovers that promote a replica
// with a lag, finds the duplicated fencing number a lagging promotion makes,
// keeps every schedule a valid set of servers' roles, and leaves a search
// without replicas as it was.
#include <algorithm>

#include <gtest/gtest.h>

#include "../../support/replication_test_helpers.hpp"
#include "../../support/trace_test_helpers.hpp"
#include "explore_report_checks.hpp"
#include "leasescope/sim/explore_shard.hpp"
#include "leasescope/sim/explorer.hpp"
#include "leasescope/sim/simulation.hpp"

namespace leasescope::sim {
namespace {

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
    return static_cast<std::size_t>(
        std::count_if(ex.atoms().begin(), ex.atoms().end(), [&](const Fault& f) { return f.kind == kind; }));
}

// Without replicas nothing of §17 is added and "all" means what it meant.
TEST(ExploreReplication, OffWithoutReplicas) {
    const Explorer ex = repl_make(repl_test::three_nodes(0), repl_searching("all", 1));
    EXPECT_FALSE(ex.options().kinds.replica_link);
    EXPECT_FALSE(ex.options().kinds.failover_promote);
    EXPECT_TRUE(ex.options().kinds.failover_leases);
    EXPECT_EQ(to_string(ex.options().kinds), "pause,partition,crash,failover");
    EXPECT_EQ(repl_count_atoms(ex, FaultKind::replica_link), 0u);
    for (const Fault& f : ex.atoms()) EXPECT_FALSE(f.promotes());
}

// With replicas every failover promotes (§17.3 rule 5): no failover that
// loses, a promotion of each server with each lag up to its tick, and a cut
// of each server's link of each length (with two faults a schedule, any
// server may be a replica by then).
TEST(ExploreReplication, WithReplicasAFailoverPromotes) {
    ExploreOptions o = repl_searching("all", 2);
    o.max_lag = 2;
    o.max_link_cut = 3;
    o.max_tick = 5;
    const Explorer ex = repl_make(repl_test::three_nodes(2), o);
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
    const Explorer ex = repl_make(repl_test::three_nodes(1), o);
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
    const Explorer ex = repl_make(repl_test::three_nodes(1), o);
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

// §17.2 rule 3: a cut names a replica. With no failover to add, server 0
// stays the primary, so no cut of its link is an atom at all; with
// promotions and two faults it is (after a promotion of another server),
// and alone it counts as an invalid schedule.
TEST(ExploreReplication, ACutOfThePrimaryIsInvalid) {
    ExploreOptions o = repl_searching("replica_link", 2);
    o.max_link_cut = 2;
    const Explorer ex = repl_make(repl_test::three_nodes(1), o);
    ASSERT_GT(repl_count_atoms(ex, FaultKind::replica_link), 0u);
    for (const Fault& f : ex.atoms()) EXPECT_NE(f.server, 0);
    ExploreOptions searched = repl_searching("replica_link,failover:promote", 1);
    searched.max_link_cut = 2;
    searched.max_lag = 0;
    const Explorer one = repl_make(repl_test::three_nodes(1), searched);
    for (const Fault& f : one.atoms()) EXPECT_NE(f.server, 0);  // nor a promotion of the primary
    searched.max_faults = 2;
    const Explorer two = repl_make(repl_test::three_nodes(1), searched);
    const std::size_t of_primary = static_cast<std::size_t>(
        std::count_if(two.atoms().begin(), two.atoms().end(), [](const Fault& f) { return f.server == 0; }));
    ASSERT_GT(of_primary, 0u);
    const ExploreReport report = explore(two, ExploreRun{});
    ASSERT_GE(report.levels.size(), 2u);
    EXPECT_EQ(report.levels[1].stats.invalid, of_primary);
    // After a promotion of server 1, server 0 is a replica and its cut counts.
    ExploreOptions both = repl_searching("replica_link,failover:promote", 2);
    both.max_link_cut = 2;
    both.max_lag = 0;
    const Explorer ex2 = repl_make(repl_test::three_nodes(1), both);
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
    const Explorer pruned = repl_make(repl_test::three_nodes(2), o);
    o.prune = false;
    const Explorer full = repl_make(repl_test::three_nodes(2), o);
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
    auto created = Explorer::create(repl_test::three_nodes(1), o);
    ASSERT_FALSE(created.ok());
    EXPECT_NE(created.error().find("--max-link-cut"), std::string::npos);
    o.max_link_cut = 8;
    o.max_lag = explore_lag_max + 1;
    created = Explorer::create(repl_test::three_nodes(1), o);
    ASSERT_FALSE(created.ok());
    EXPECT_NE(created.error().find("--max-lag"), std::string::npos);
    Scenario big = repl_test::three_nodes(8);
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

// A search with replicas split into shards: each file carries the base with
// its replicas and the two budgets, and the merge gives the whole search.
TEST(ExploreReplication, ShardsMergeIntoTheWholeSearch) {
    ExploreOptions o = repl_searching("replica_link,failover:promote", 2);
    o.max_link_cut = 3;
    o.max_lag = 1;
    const Explorer ex = repl_make(repl_test::three_nodes(2), o);
    const ExploreReport whole = explore(ex, ExploreRun{});
    ASSERT_TRUE(whole.found);
    std::vector<ShardFile> files;
    for (std::uint64_t k = 0; k < 3; ++k) {
        ExploreRun part;
        part.shard = k;
        part.shards = 3;
        const ExploreReport report = explore(ex, part);
        const std::string text = shard_result_to_json(ex, part, report, ShardTiming{});
        EXPECT_NE(text.find(R"("max_link_cut")"), std::string::npos);
        EXPECT_NE(text.find(R"("max_lag")"), std::string::npos);
        files.push_back(ShardFile{"shard-" + std::to_string(k), text});
    }
    auto merged = merge_shard_results(files);
    ASSERT_TRUE(merged.ok()) << merged.error();
    EXPECT_EQ(merged.value().explorer.options().max_link_cut, 3);
    EXPECT_EQ(merged.value().explorer.options().max_lag, 1);
    EXPECT_EQ(merged.value().explorer.base().lock.replication.replicas, 2);
    test::expect_same_report(whole, merged.value().report);
}

// Every schedule the explorer runs is a scenario the reader accepts (its
// roles are stricter than the reader's): random draws of up to 4 faults, on
// two replicas, written back and read again.
TEST(ExploreReplication, EveryDrawIsAScenarioTheReaderAccepts) {
    ExploreOptions o = repl_searching("replica_link,failover:promote,pause", 4);
    o.max_link_cut = 6;
    o.max_lag = 2;
    o.max_tick = 12;
    const Explorer ex = repl_make(repl_test::three_nodes(2), o);
    std::size_t faults = 0, promotions = 0, cuts = 0;
    for (std::uint64_t i = 0; i < 3000; ++i) {
        const Schedule drawn = ex.draw(11, i);
        const Scenario s = ex.to_scenario(drawn);
        auto again = parse_scenario(scenario_to_json(s), "drawn.json");
        ASSERT_TRUE(again.ok()) << "draw " << i << ": " << again.error().to_string();
        faults += drawn.atoms.size();
        for (const Fault& f : s.faults) {
            promotions += f.promotes();
            cuts += f.kind == FaultKind::replica_link;
        }
    }
    EXPECT_GT(promotions, 500u);
    EXPECT_GT(cuts, 500u);
    EXPECT_GT(faults, 3000u * 2);
}

// A cut that would end where the base's own cut of the same server starts
// is left out (its end would cancel the base's cut); one of another server
// is not.
TEST(ExploreReplication, ACutEndingWhereTheBasesStartsIsLeftOutForItsServerOnly) {
    Scenario base = repl_test::three_nodes(2);
    Fault own;
    own.kind = FaultKind::replica_link;
    own.server = 1;
    own.at = 5;
    own.ticks = 2;
    base.faults.push_back(own);
    ExploreOptions o = repl_searching("replica_link", 1);
    o.max_link_cut = 3;
    const Explorer ex = repl_make(base, o);
    auto has = [&](std::int32_t server, Tick at, Tick ticks) {
        return std::any_of(ex.atoms().begin(), ex.atoms().end(), [&](const Fault& f) {
            return f.kind == FaultKind::replica_link && f.server == server && f.at == at && f.ticks == ticks;
        });
    };
    EXPECT_FALSE(has(1, 3, 2));  // ends at 5 where the base's starts
    EXPECT_FALSE(has(1, 4, 2));  // overlaps it
    EXPECT_TRUE(has(1, 2, 2));   // ends at 4
    EXPECT_TRUE(has(2, 3, 2));   // another server's link
}

// Pruning a store clock jump looks at every server's copy: in split brain
// the old primary holds node-a's record and the new primary (promoted
// lagging) does not, so a jump forward at tick 3 or 4 ends it early on the
// old primary and node-c, routed there too, overlaps node-a. A pruned
// schedule behaves like a passing one with fewer faults, so no failing
// schedule may be pruned: the failing counts are those of --no-prune (the
// check read only the primary's and cut replicas' copies, and pruned 10 of
// these 20).
TEST(ExploreReplication, PruningSeesTheOldPrimarysRecords) {
    Scenario base = trace_test::parse(R"({"name": "split", "horizon": 40, "resource": {"mode": "check"},
      "candidates": [
        {"name": "node-a", "wait": 0, "lease": 6, "action": 5},
        {"name": "node-c", "start": 1, "wait": 20, "lease": 6, "action": 3}]})");
    base.lock.replication.replicas = 1;
    Fault failover;
    failover.kind = FaultKind::failover;
    failover.at = 2;
    failover.server = 1;
    failover.lag = 2;
    failover.old_primary = SplitBrain{{0, 1}, 30};
    base.faults.push_back(failover);
    ExploreOptions o = repl_searching("clock_jump", 1);
    o.max_clock_jump_ms = 300;
    o.properties = Properties{true, false, false, false};  // overlap
    const Explorer pruned = repl_make(base, o);
    o.prune = false;
    const Explorer full = repl_make(base, o);
    const ExploreReport a = explore(pruned, ExploreRun{});
    const ExploreReport b = explore(full, ExploreRun{});
    ASSERT_TRUE(b.found);
    EXPECT_EQ(a.found, b.found);
    ASSERT_EQ(a.levels.size(), 2u);
    ASSERT_EQ(b.levels.size(), 2u);
    EXPECT_EQ(a.levels[1].stats.failing, b.levels[1].stats.failing);
    EXPECT_GT(a.levels[1].stats.pruned, 0u);
}

}  // namespace
}  // namespace leasescope::sim

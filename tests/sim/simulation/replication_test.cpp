// Replication (docs/model.md §17): one test per rule, on scenarios whose
// servers and faults are set in code (the rules of the simulator, apart from
// how a file spells them).
#include <gtest/gtest.h>

#include "../../support/replication_test_helpers.hpp"
#include "../../support/trace_test_helpers.hpp"
#include "leasescope/sim/simulation.hpp"

namespace {

namespace sim = leasescope::sim;
using leasescope::Tick;
using sim::EventOp;

TEST(Replication, ATraceWithReplicasHasFormatThree) {
    EXPECT_EQ(sim::simulate(repl_test::three_nodes(1)).header.format, 3);
    EXPECT_EQ(sim::simulate(repl_test::three_nodes(0)).header.format, 2);
    const std::string bytes = trace_test::trace_bytes(sim::simulate(repl_test::three_nodes(1)));
    EXPECT_NE(bytes.find(R"("format":"leasescope-trace/3")"), std::string::npos);
}

// §17.3 rule 1 with lag 1: the replica missed node-b's acquisition of tick
// 4, so the counter goes back from 2 to 1 and node-c is issued 2 again.
TEST(Replication, APromotedReplicaThatMissedAnAcquisitionIssuesItsNumberAgain) {
    sim::Scenario s = repl_test::three_nodes(1);
    s.faults.push_back(repl_test::promote(5, 1, 1));
    const sim::Trace t = sim::simulate(s);
    const auto cuts = trace_test::find(t, "store", EventOp::link_cut);
    ASSERT_EQ(cuts.size(), 1u);
    EXPECT_EQ(cuts[0].tick, 4);
    EXPECT_EQ(cuts[0].server, 1);
    const auto failovers = trace_test::find(t, "", EventOp::failover);
    ASSERT_EQ(failovers.size(), 1u);
    EXPECT_EQ(failovers[0].server, 1);
    EXPECT_EQ(failovers[0].fencing, 1);  // the promoted counter: node-a's number only
    const auto b = trace_test::find(t, "node-b", EventOp::acquire);
    ASSERT_FALSE(b.empty());
    EXPECT_EQ(b[0].fencing, 2);
    const auto c = trace_test::find(t, "node-c", EventOp::acquire);
    ASSERT_FALSE(c.empty());
    const sim::Event& issued = c.back();
    EXPECT_EQ(issued.outcome, sim::Outcome::acquired);
    EXPECT_EQ(issued.fencing, 2);
    EXPECT_TRUE(issued.details.has(sim::Detail::fencing_duplicate));
    EXPECT_TRUE(issued.details.has(sim::Detail::fencing_regressed));
    EXPECT_EQ(t.summary.violations.fencing_duplicate, 1);
}

// §17.3 with lag 0 and the link up: the replica has everything, node-b's
// record survives the failover with its deadline, nothing is issued twice.
TEST(Replication, ALinkedReplicaPromotedWithNoLagLosesNothing) {
    sim::Scenario s = repl_test::three_nodes(1);
    s.faults.push_back(repl_test::promote(5, 1, 0));
    const sim::Trace t = sim::simulate(s);
    EXPECT_TRUE(trace_test::find(t, "store", EventOp::link_cut).empty());
    EXPECT_EQ(trace_test::find(t, "", EventOp::failover).at(0).fencing, 2);
    EXPECT_EQ(t.summary.violations.fencing_duplicate, 0);
    // node-b's record (acquired at 4) survived the failover: its release at 5 finds it.
    const auto released = trace_test::find(t, "node-b", EventOp::release);
    ASSERT_EQ(released.size(), 1u);
    EXPECT_EQ(released[0].tick, 5);
    EXPECT_EQ(released[0].outcome, sim::Outcome::released);
    std::vector<leasescope::Fencing> issued;
    for (const sim::Event& e : trace_test::find(t, "node-c", EventOp::acquire)) {
        if (e.outcome == sim::Outcome::acquired) issued.push_back(*e.fencing);
    }
    EXPECT_EQ(issued, std::vector<leasescope::Fencing>{3});
}

// §17.2 and §17.3 rule 2: a replica cut at 3 holds node-a's record (its
// deadline 4 passed by the failover at 6): the new primary expires it itself
// in phase 2 of tick 6, and its counter is 1.
TEST(Replication, ACutReplicaHoldsWhatItHadAndExpiresItOncePromoted) {
    sim::Scenario s = repl_test::three_nodes(1);
    s.faults.push_back(repl_test::cut(1, 3, 10));
    s.faults.push_back(repl_test::promote(6, 1, 0));
    const sim::Trace t = sim::simulate(s);
    const auto expired = trace_test::find(t, "node-a", EventOp::expire);
    ASSERT_EQ(expired.size(), 2u);  // once on the old primary at 4, once on the new one at 6
    EXPECT_EQ(expired[0].tick, 4);
    EXPECT_EQ(expired[1].tick, 6);
    EXPECT_EQ(trace_test::find(t, "", EventOp::failover).at(0).fencing, 1);
    // The cut outlived its replica's promotion: no link_restored (§17.3 rule 4).
    EXPECT_TRUE(trace_test::find(t, "store", EventOp::link_restored).empty());
}

// §17.2 rule 2: once restored, the replica has everything again.
TEST(Replication, ARestoredLinkResynchronises) {
    sim::Scenario s = repl_test::three_nodes(1);
    s.faults.push_back(repl_test::cut(1, 2, 3));  // cut at 2, restored at 5
    s.faults.push_back(repl_test::promote(6, 1, 0));
    const sim::Trace t = sim::simulate(s);
    EXPECT_EQ(trace_test::find(t, "store", EventOp::link_restored).at(0).tick, 5);
    // node-c acquired 3 in tick 5, after the resync: the replica has it too.
    EXPECT_EQ(trace_test::find(t, "", EventOp::failover).at(0).fencing, 3);
    EXPECT_EQ(t.summary.violations.fencing_duplicate, 0);
}

// §17.3: cuts add up; a replica_link that ends inside the lag window does
// not restore the link, so the replica misses node-b's acquisition at 4.
TEST(Replication, ACutEndingInsideTheLagWindowRestoresNothing) {
    sim::Scenario s = repl_test::three_nodes(1);
    s.faults.push_back(repl_test::cut(1, 2, 2));      // cut at 2, would end at 4
    s.faults.push_back(repl_test::promote(5, 1, 2));  // lag window 3 ... 5
    const sim::Trace t = sim::simulate(s);
    EXPECT_EQ(trace_test::find(t, "store", EventOp::link_cut).size(), 1u);
    EXPECT_TRUE(trace_test::find(t, "store", EventOp::link_restored).empty());
    EXPECT_EQ(trace_test::find(t, "", EventOp::failover).at(0).fencing, 1);
    EXPECT_EQ(t.summary.violations.fencing_duplicate, 1);
}

// §17.3: a cut ends with its server's promotion; its end restores nothing
// even after a second failover made the server a replica again.
TEST(Replication, APromotionEndsItsServersCuts) {
    sim::Scenario s = repl_test::three_nodes(2);
    s.faults.push_back(repl_test::cut(1, 2, 20));
    s.faults.push_back(repl_test::promote(5, 1, 0));
    s.faults.push_back(repl_test::promote(8, 2, 0));
    const sim::Trace t = sim::simulate(s);
    EXPECT_TRUE(trace_test::find(t, "store", EventOp::link_restored).empty());
    const sim::Timeline tl(s);
    EXPECT_TRUE(tl.snapshot_at(9).servers[1].linked);
    EXPECT_TRUE(tl.snapshot_at(25).servers[1].linked);
}

TEST(Replication, SnapshotsShowEachServersCopy) {
    sim::Scenario s = repl_test::three_nodes(2);
    s.faults.push_back(repl_test::cut(2, 3, 10));
    s.faults.push_back(repl_test::promote(8, 1, 0));
    const sim::Timeline tl(s);
    const sim::Snapshot at5 = tl.snapshot_at(5);
    ASSERT_EQ(at5.servers.size(), 3u);
    EXPECT_EQ(at5.servers[0].role, sim::ServerRole::primary);
    EXPECT_EQ(at5.servers[0].counter, 3);  // node-c acquired 3 in tick 5
    EXPECT_EQ(at5.servers[0].good_replicas, 1);
    EXPECT_TRUE(at5.servers[1].linked);
    EXPECT_EQ(at5.servers[1].counter, 3);
    EXPECT_FALSE(at5.servers[2].linked);
    EXPECT_EQ(at5.servers[2].counter, 1);
    const sim::Snapshot at8 = tl.snapshot_at(8);
    EXPECT_EQ(at8.servers[1].role, sim::ServerRole::primary);
    EXPECT_EQ(at8.servers[0].role, sim::ServerRole::replica);
    EXPECT_TRUE(at8.servers[0].linked);
    EXPECT_FALSE(at8.servers[2].linked);
}

// §17.4: one replica required, its link cut: acquisitions are refused with
// no_replicas and end the run acquire_failed; a busy acquire is not refused.
TEST(Replication, MinReplicasToWriteRefusesWhatWouldWrite) {
    sim::Scenario s = repl_test::three_nodes(1);
    s.lock.replication.min_replicas_to_write = 1;
    s.faults.push_back(repl_test::cut(1, 4, 10));
    const sim::Trace t = sim::simulate(s);
    const auto a = trace_test::find(t, "node-a", EventOp::acquire);
    EXPECT_EQ(a.at(0).outcome, sim::Outcome::acquired);  // before the cut
    const auto b = trace_test::find(t, "node-b", EventOp::acquire);
    ASSERT_FALSE(b.empty());
    EXPECT_EQ(b[0].outcome, sim::Outcome::error);
    EXPECT_TRUE(b[0].details.has(sim::Detail::no_replicas));
    EXPECT_EQ(trace_test::result_of(t, "node-b"), "acquire_failed");
    // node-a's release at the end of its action (tick 12) writes nothing: its
    // token no longer holds the record, so it answers not_owner.
    const auto rel = trace_test::find(t, "node-a", EventOp::release);
    ASSERT_FALSE(rel.empty());
    EXPECT_EQ(rel[0].outcome, sim::Outcome::not_owner);
}

// §17.4 rule 3: a refused extend stops the watchdog for good.
TEST(Replication, ARefusedExtendStopsTheWatchdog) {
    sim::Scenario s = trace_test::parse(R"({"name": "watchdog", "horizon": 30,
      "candidates": [{"name": "node-a", "wait": 0, "lease": 6, "action": 20, "auto_extend": true}]})");
    s.lock.replication.replicas = 1;
    s.lock.replication.min_replicas_to_write = 1;
    s.faults.push_back(repl_test::cut(1, 3, 2));  // restored at 5: the watchdog does not come back
    const sim::Trace t = sim::simulate(s);
    const auto ext = trace_test::find(t, "node-a", EventOp::extend);
    ASSERT_FALSE(ext.empty());
    std::size_t refused = 0;
    for (const sim::Event& e : ext) {
        if (e.details.has(sim::Detail::no_replicas)) ++refused;
        if (refused > 0) {
            EXPECT_TRUE(e.details.has(sim::Detail::no_replicas)) << "an extend after the refusal";
        }
    }
    EXPECT_EQ(refused, 1u);
    EXPECT_EQ(ext.back().tick, 4);
}

// §17.6: WAIT 1 with the replica linked answers synced at once; with its
// link cut it times out, the node unlocks its record and fails.
TEST(Replication, WaitCountsTheLinkedReplicas) {
    sim::Scenario s = repl_test::three_nodes(1);
    for (auto& c : s.candidates) c.options.wait_replicas = 1;
    s.candidates[1].options.wait_timeout = 2;
    s.faults.push_back(repl_test::cut(1, 4, 10));
    const sim::Trace t = sim::simulate(s);
    const auto wa = trace_test::find(t, "node-a", EventOp::wait);
    ASSERT_EQ(wa.size(), 1u);
    EXPECT_EQ(wa[0].tick, 0);
    EXPECT_EQ(wa[0].outcome, sim::Outcome::synced);
    EXPECT_EQ(wa[0].overlap_count, 1);
    const auto wb = trace_test::find(t, "node-b", EventOp::wait);
    ASSERT_EQ(wb.size(), 1u);
    EXPECT_EQ(wb[0].tick, 6);  // applied at 4, blocked for 2 ticks
    EXPECT_EQ(wb[0].outcome, sim::Outcome::not_synced);
    EXPECT_EQ(wb[0].overlap_count, 0);
    EXPECT_EQ(trace_test::result_of(t, "node-b"), "acquire_failed");
    const auto rel = trace_test::find(t, "node-b", EventOp::release);
    ASSERT_EQ(rel.size(), 1u);
    EXPECT_EQ(rel[0].tick, 6);
    EXPECT_EQ(rel[0].outcome, sim::Outcome::released);  // its record (until 7) is gone before it expired
    const auto acq = trace_test::find(t, "node-b", EventOp::acquire);
    EXPECT_EQ(acq.at(0).tick, 6);
    EXPECT_EQ(acq.at(0).applied, 4);
}

// §17.6 rule 2: a link restored while WAIT blocks counts at its tick.
TEST(Replication, WaitAnswersWhenTheLinkComesBack) {
    sim::Scenario s = repl_test::three_nodes(1);
    s.candidates[1].options.wait_replicas = 1;
    s.candidates[1].options.wait_timeout = 5;
    s.faults.push_back(repl_test::cut(1, 4, 2));  // restored at 6
    const sim::Trace t = sim::simulate(s);
    const auto wb = trace_test::find(t, "node-b", EventOp::wait);
    ASSERT_EQ(wb.size(), 1u);
    EXPECT_EQ(wb[0].tick, 6);
    EXPECT_EQ(wb[0].outcome, sim::Outcome::synced);
    EXPECT_EQ(trace_test::result_of(t, "node-b"), "elected");
}

// §17.5: node-a keeps the old primary until 12; each primary issues numbers
// from its own counter, and the old one's events carry its number.
TEST(Replication, SplitBrainKeepsTheOldPrimaryForItsNodes) {
    sim::Scenario s = trace_test::parse(R"({"name": "split", "horizon": 30, "resource": {"mode": "check"},
      "candidates": [
        {"name": "node-a", "wait": 0, "lease": 20, "action": 15, "writes": [12]},
        {"name": "node-b", "start": 3, "wait": 0, "lease": 20, "action": 4, "writes": [2]}]})");
    s.lock.replication.replicas = 1;
    sim::Fault f = repl_test::promote(2, 1, 2);  // the replica's link was cut before node-a acquired
    f.old_primary = leasescope::SplitBrain{{0}, 12};
    s.faults.push_back(f);
    const sim::Trace t = sim::simulate(s);
    const auto b = trace_test::find(t, "node-b", EventOp::acquire);
    ASSERT_FALSE(b.empty());
    EXPECT_EQ(b[0].outcome, sim::Outcome::acquired);  // the new primary never had node-a's record
    EXPECT_EQ(b[0].fencing, 1);
    EXPECT_TRUE(b[0].details.has(sim::Detail::fencing_duplicate));
    EXPECT_FALSE(b[0].server.has_value());
    const auto restored = trace_test::find(t, "store", EventOp::link_restored);
    ASSERT_EQ(restored.size(), 1u);
    EXPECT_EQ(restored[0].tick, 12);
    EXPECT_EQ(restored[0].server, 0);
    EXPECT_EQ(trace_test::result_of(t, "node-a"), "elected");
}

// §17.5 rule 2: the old primary counts its silent replicas for
// min_replicas_max_lag ticks, then refuses.
TEST(Replication, AnOldPrimaryRefusesOnceItsReplicasFellSilentLongEnough) {
    sim::Scenario s = trace_test::parse(R"({"name": "split", "horizon": 30,
      "candidates": [
        {"name": "node-a", "wait": 0, "lease": 3, "action": 12, "auto_extend": true, "extend_every": 1}]})");
    s.lock.replication.replicas = 1;
    s.lock.replication.min_replicas_to_write = 1;
    s.lock.replication.min_replicas_max_lag = 4;
    sim::Fault f = repl_test::promote(2, 1, 0);
    f.old_primary = leasescope::SplitBrain{{0}, 20};
    s.faults.push_back(f);
    const sim::Trace t = sim::simulate(s);
    const auto ext = trace_test::find(t, "node-a", EventOp::extend);
    ASSERT_FALSE(ext.empty());
    Tick first_refused = -1;
    for (const sim::Event& e : ext) {
        if (e.details.has(sim::Detail::no_replicas) && first_refused < 0) first_refused = e.tick;
        if (e.tick >= 2) {
            EXPECT_EQ(e.server, 0);
        }
    }
    EXPECT_EQ(first_refused, 6);
}

TEST(Replication, TheSameScenarioGivesTheSameBytes) {
    sim::Scenario s = repl_test::three_nodes(2);
    s.faults.push_back(repl_test::cut(2, 1, 4));
    s.faults.push_back(repl_test::promote(5, 2, 2));
    for (auto& c : s.candidates) c.options.wait_replicas = 1;
    EXPECT_EQ(trace_test::trace_bytes(sim::simulate(s)), trace_test::trace_bytes(sim::simulate(s)));
}

}  // namespace

// Pins the scenario keys of a store with replicas (model.md §17): what
// store.replicas, min_replicas_to_write, min_replicas_max_lag, wait_replicas,
// wait_timeout, replica_link, promote, lag and old_primary fill in; every
// rule that restricts them, each error at its path; the write-back and --set.
#include "support/scenario_test_helpers.hpp"

#include "leasescope/engine/store.hpp"

namespace {

using namespace scenario_test;
using leasescope::SplitBrain;

// A store with two replicas and two candidates, to bend.
json replicated() {
    json doc = base();
    doc["store"] = {{"replicas", 2}};
    return doc;
}

json failover(std::int64_t at, std::int64_t promote) {
    return json{{"kind", "failover"}, {"at", at}, {"promote", promote}};
}
json link_cut(std::int64_t replica, std::int64_t at, std::int64_t ticks) {
    return json{{"kind", "replica_link"}, {"replica", replica}, {"at", at}, {"ticks", ticks}};
}
json with_faults(json doc, std::vector<json> faults) {
    doc["faults"] = json(std::move(faults));
    return doc;
}

TEST(ScenarioReplication, KeysFillTheScenario) {
    // Every key lands in its field; min_replicas_max_lag and wait_timeout stay 0 when absent.
    json doc = replicated();
    doc["store"]["min_replicas_to_write"] = 1;
    doc["defaults"]["wait_replicas"] = 2;
    doc["candidates"][1]["wait_timeout"] = 7;
    json split = failover(6, 1);
    split["lag"] = 2;
    split["old_primary"] = {{"reachable_by", {"node-b", "node-a"}}, {"until", 9}};
    doc = with_faults(doc, {link_cut(2, 1, 3), split});
    const auto s = accepted(doc);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->lock.replication.replicas, 2);
    EXPECT_EQ(s->lock.replication.min_replicas_to_write, 1);
    EXPECT_EQ(s->lock.replication.min_replicas_max_lag, 0);
    EXPECT_EQ(s->candidates[0].options.wait_replicas, 2);
    EXPECT_EQ(s->candidates[0].options.wait_timeout, 0);
    EXPECT_EQ(s->candidates[0].options.wait_timeout_ticks(), leasescope::library_wait_timeout(50));
    EXPECT_EQ(s->candidates[0].options.wait_timeout_ticks(), 20);
    EXPECT_EQ(s->candidates[1].options.wait_timeout_ticks(), 7);
    const sim::Fault& cut = s->faults[0];
    EXPECT_EQ(cut.kind, sim::FaultKind::replica_link);
    EXPECT_EQ(cut.server, 2);
    EXPECT_EQ(cut.end(), 4);
    const sim::Fault& f = s->faults[1];
    EXPECT_TRUE(f.promotes());
    EXPECT_EQ(f.server, 1);
    EXPECT_EQ(f.lag, 2);
    ASSERT_TRUE(f.old_primary);
    EXPECT_EQ(f.old_primary->reachable_by, (std::vector<leasescope::NodeIndex>{0, 1}));  // sorted
    EXPECT_EQ(f.old_primary->until, 9);
    doc["store"]["min_replicas_max_lag"] = 3;
    EXPECT_EQ(accepted(doc)->lock.replication.min_replicas_max_lag, 3);
}

TEST(ScenarioReplication, FailoverKeysAgainstReplicas) {
    // Without replicas promote, lag and old_primary are refused; with them lose is, and promote is required.
    const json plain = base();
    EXPECT_TRUE(
        rejected(with_faults(plain, {failover(3, 1)}), "/faults/0/promote", {"store.replicas is 0", "only \"lose\""}));
    EXPECT_TRUE(rejected(with_faults(plain, {{{"kind", "failover"}, {"at", 3}, {"lag", 1}}}), "/faults/0/lag",
                         {"needs a store with replicas"}));
    EXPECT_TRUE(rejected(
        with_faults(plain,
                    {{{"kind", "failover"}, {"at", 3}, {"old_primary", {{"reachable_by", {"node-a"}}, {"until", 5}}}}}),
        "/faults/0/old_primary", {"needs a store with replicas"}));
    json lose = failover(3, 1);
    lose["lose"] = "leases";
    EXPECT_TRUE(rejected(with_faults(replicated(), {lose}), "/faults/0/lose", {"give \"promote\" instead"}));
    EXPECT_TRUE(rejected(with_faults(replicated(), {{{"kind", "failover"}, {"at", 3}}}), "/faults/0",
                         {"missing \"promote\"", "0 to 2"}));
    EXPECT_TRUE(rejected(with_faults(replicated(), {failover(3, 3)}), "/faults/0/promote",
                         {"unknown server 3", "servers 0 to 2"}));
    EXPECT_TRUE(rejected(with_faults(replicated(), {link_cut(3, 3, 1)}), "/faults/0/replica", {"unknown server 3"}));
    EXPECT_TRUE(rejected(with_faults(base(), {link_cut(1, 3, 1)}), "/faults/0/replica", {"store.replicas is 0"}));
    EXPECT_TRUE(rejected(with(replicated(), "/store/replicas", 9), "/store/replicas", {range(0, 8)}));
}

TEST(ScenarioReplication, ThePrimaryAtEachTick) {
    // Server 0 first, then each failover's promote: neither a failover nor a link cut may name the primary.
    EXPECT_TRUE(rejected(with_faults(replicated(), {failover(3, 0)}), "/faults/0/promote",
                         {"server 0 is the primary at tick 3"}));
    // Tick order, not file order: server 2 is the primary from tick 3, so tick 5 may promote 0 but not 2.
    EXPECT_TRUE(accepted(with_faults(replicated(), {failover(5, 0), failover(3, 2)})));
    EXPECT_TRUE(rejected(with_faults(replicated(), {failover(5, 2), failover(3, 2)}), "/faults/0/promote",
                         {"server 2 is the primary at tick 5"}));
    EXPECT_TRUE(rejected(with_faults(replicated(), {link_cut(0, 2, 3)}), "/faults/0/replica",
                         {"server 0 is the primary at tick 2"}));
    // At the failover's own tick the promoted server is the primary; the old one is a replica.
    EXPECT_TRUE(rejected(with_faults(replicated(), {failover(3, 1), link_cut(1, 3, 2)}), "/faults/1/replica",
                         {"server 1 is the primary at tick 3"}));
    EXPECT_TRUE(accepted(with_faults(replicated(), {failover(3, 1), link_cut(0, 3, 2)})));
    EXPECT_TRUE(rejected(with_faults(replicated(), {failover(3, 1), failover(3, 2)}), "/faults/1",
                         {"a second failover at tick 3", "/faults/0"}));
}

TEST(ScenarioReplication, LagReachesBackWhileAReplica) {
    // lag <= at; the lag's cut names a server that was a replica from at - lag on.
    json f = failover(3, 1);
    f["lag"] = 3;
    EXPECT_TRUE(accepted(with_faults(replicated(), {f})));
    f["lag"] = 4;
    EXPECT_TRUE(rejected(with_faults(replicated(), {f}), "/faults/0/lag", {"reaches before tick 0", "at most 3"}));
    json back = failover(8, 0);
    back["lag"] = 6;
    EXPECT_TRUE(rejected(with_faults(replicated(), {failover(3, 1), back}), "/faults/1/lag",
                         {"cuts server 0's link at tick 2", "primary"}));
    back["lag"] = 5;  // cut at 3, when server 1 took over: server 0 is a replica from then on
    EXPECT_TRUE(accepted(with_faults(replicated(), {failover(3, 1), back})));
    // Primary in between: server 1 from tick 3 to 5, then a replica of server 2, promoted again at 10.
    json again = failover(10, 1);
    again["lag"] = 8;
    EXPECT_TRUE(rejected(with_faults(replicated(), {failover(3, 1), failover(6, 2), again}), "/faults/2/lag",
                         {"cuts server 1's link at tick 2, but server 1 is the primary at tick 3"}));
    again["lag"] = 4;
    EXPECT_TRUE(accepted(with_faults(replicated(), {failover(3, 1), failover(6, 2), again})));
}

TEST(ScenarioReplication, LinkCutsOfOneServerMustNotOverlap) {
    // As pauses (§7.4): one may end at the tick the next begins; other servers' cuts are independent.
    EXPECT_TRUE(accepted(with_faults(replicated(), {link_cut(1, 2, 3), link_cut(1, 5, 2), link_cut(2, 3, 4)})));
    EXPECT_TRUE(rejected(with_faults(replicated(), {link_cut(1, 2, 4), link_cut(1, 5, 2)}), "/faults/1",
                         {"this replica_link of server 1 (ticks 5..6) overlaps the one at /faults/0 (ticks 2..5)"}));
}

TEST(ScenarioReplication, SplitBrain) {
    // reachable_by: candidates, each once, at least one; until after at and not after the next failover.
    auto split = [](json reachable_by, std::int64_t until) {
        json f = failover(3, 1);
        f["old_primary"] = {{"reachable_by", std::move(reachable_by)}, {"until", until}};
        return f;
    };
    EXPECT_TRUE(accepted(with_faults(replicated(), {split({"node-a"}, 6), failover(6, 2)})));
    EXPECT_TRUE(rejected(with_faults(replicated(), {split({"node-a"}, 7), failover(6, 2)}),
                         "/faults/0/old_primary/until", {"after the next failover, at tick 6", "/faults/1"}));
    EXPECT_TRUE(rejected(with_faults(replicated(), {split({"node-a"}, 3)}), "/faults/0/old_primary/until",
                         {"until 3 must be after the failover's tick 3"}));
    EXPECT_TRUE(rejected(with_faults(replicated(), {split(json::array(), 5)}), "/faults/0/old_primary/reachable_by",
                         {"an empty array"}));
    EXPECT_TRUE(rejected(with_faults(replicated(), {split({"node-bb"}, 5)}), "/faults/0/old_primary/reachable_by/0",
                         {"unknown node \"node-bb\"", "did you mean \"node-b\"?"}));
    EXPECT_TRUE(rejected(with_faults(replicated(), {split({"node-b", "node-a", "node-b"}, 5)}),
                         "/faults/0/old_primary/reachable_by/2", {"appears twice", "reachable_by/0"}));
    json missing = failover(3, 1);
    missing["old_primary"] = {{"reachable_by", {"node-a"}}};
    EXPECT_TRUE(rejected(with_faults(replicated(), {missing}), "/faults/0/old_primary", {"missing \"until\""}));
    missing["old_primary"] = {{"reachable_by", {"node-a"}}, {"untill", 5}};
    EXPECT_TRUE(
        rejected(with_faults(replicated(), {missing}), "/faults/0/old_primary/untill", {"did you mean \"until\"?"}));
    // The old primary lives on until then: it is no replica whose link could be cut.
    EXPECT_TRUE(rejected(with_faults(replicated(), {split({"node-b"}, 8), link_cut(0, 5, 2)}), "/faults/1/replica",
                         {"old primary of split brain"}));
    EXPECT_TRUE(accepted(with_faults(replicated(), {split({"node-b"}, 8), link_cut(0, 8, 2)})));
}

TEST(ScenarioReplication, ReplicaCountsAgainstReplicas) {
    // wait_replicas and min_replicas_to_write at most store.replicas, reported where they were written.
    EXPECT_TRUE(rejected(with(replicated(), "/defaults/wait_replicas", 3), "/defaults/wait_replicas",
                         {"wait_replicas 3 is more than store.replicas 2"}));
    EXPECT_TRUE(accepted(with(replicated(), "/candidates/1/wait_replicas", 2)));
    EXPECT_TRUE(rejected(with(base(), "/candidates/1/wait_replicas", 1), "/candidates/1/wait_replicas",
                         {"store.replicas is 0"}));
    EXPECT_TRUE(rejected(with(base(), "/defaults/wait_replicas", 0), "/defaults/wait_replicas", {range(1, 8)}));
    EXPECT_TRUE(rejected(with(base(), "/defaults/wait_timeout", 0), "/defaults/wait_timeout", {range(1, 100000000)}));
    EXPECT_TRUE(rejected(with(replicated(), "/store/min_replicas_to_write", 3), "/store/min_replicas_to_write",
                         {"min_replicas_to_write 3 must not exceed replicas 2"}));
    EXPECT_TRUE(rejected(with(replicated(), "/store/min_replicas_max_lag", 0), "/store/min_replicas_max_lag",
                         {range(1, 100000000)}));
    EXPECT_TRUE(rejected(with(replicated(), "/store/replika", 1), "/store/replika", {"did you mean \"replicas\"?"}));
}

TEST(ScenarioReplication, EveryErrorOnceAndNoneFromABadReplicaCount) {
    // Independent errors all come out; with store.replicas itself wrong, nothing is checked against it.
    json doc = with_faults(replicated(), {failover(3, 0), link_cut(1, 2, 1)});
    doc["defaults"]["wait_replicas"] = 3;
    doc["store"]["min_replicas_to_write"] = 3;
    auto all = sim::parse_scenario_all_errors(text_of(doc), test_file);
    ASSERT_FALSE(all.ok());
    std::vector<std::string> wheres;
    for (const auto& e : all.error()) wheres.push_back(e.where);
    // File order: text_of writes the keys sorted (defaults, faults, store).
    EXPECT_EQ(wheres, (std::vector<std::string>{"/defaults/wait_replicas", "/faults/0/promote",
                                                "/store/min_replicas_to_write"}));
    doc["store"]["replicas"] = "two";
    all = sim::parse_scenario_all_errors(text_of(doc), test_file);
    ASSERT_FALSE(all.ok());
    ASSERT_EQ(all.error().size(), 1u);
    EXPECT_EQ(all.error()[0].where, "/store/replicas");
}

TEST(ScenarioReplication, WrittenBackMinimalAndEqual) {
    // scenario_to_json writes the replication keys only when set, never lose with promote, and reads back equal.
    json doc = replicated();
    doc["store"]["min_replicas_to_write"] = 1;
    doc["store"]["min_replicas_max_lag"] = 4;
    doc["candidates"][0]["wait_replicas"] = 1;
    doc["candidates"][0]["wait_timeout"] = 3;
    json split = failover(6, 2);
    split["lag"] = 1;
    split["old_primary"] = {{"reachable_by", {"node-b", "node-a"}}, {"until", 8}};
    doc = with_faults(doc, {link_cut(1, 2, 2), split, failover(9, 0)});
    const auto first = accepted(doc);
    ASSERT_TRUE(first);
    const std::string written = sim::scenario_to_json(*first);
    const auto second = accepted(written);
    ASSERT_TRUE(second);
    expect_same_scenario(*first, *second);
    EXPECT_EQ(sim::scenario_to_json(*second), written);
    const json back = json::parse(written);
    EXPECT_EQ(back["store"], json::parse(R"({"replicas":2,"min_replicas_to_write":1,"min_replicas_max_lag":4})"));
    EXPECT_EQ(back["faults"][1], json::parse(R"({"kind":"failover","at":6,"promote":2,"lag":1,
        "old_primary":{"reachable_by":["node-a","node-b"],"until":8}})"));
    EXPECT_EQ(back["faults"][2], json::parse(R"({"kind":"failover","at":9,"promote":0})"));
    EXPECT_EQ(back["faults"][0], json::parse(R"({"kind":"replica_link","replica":1,"at":2,"ticks":2})"));
    EXPECT_EQ(back["candidates"][0]["wait_replicas"], 1);
    EXPECT_EQ(back["candidates"][0]["wait_timeout"], 3);
    EXPECT_FALSE(back["candidates"][1].contains("wait_replicas"));
    EXPECT_FALSE(json::parse(sim::scenario_to_json(*accepted(base()))).contains("store"));
}

TEST(ScenarioReplication, SetReachesTheNewKeys) {
    // --set store.replicas=2 and faults/0/lag=1 are read as if written in the file.
    const json doc = with_faults(base(), {{{"kind", "failover"}, {"at", 3}}});
    EXPECT_TRUE(rejected(doc, "/faults/0", {"missing \"promote\""}, sets({"store.replicas=2"})));
    const auto s = accepted(doc, sets({"store.replicas=2", "faults/0/promote=1", "faults/0/lag=1",
                                       "defaults.wait_replicas=2", "store.min_replicas_to_write=1"}));
    ASSERT_TRUE(s);
    EXPECT_EQ(s->lock.replication.replicas, 2);
    EXPECT_EQ(s->lock.replication.min_replicas_to_write, 1);
    EXPECT_EQ(s->faults[0].server, 1);
    EXPECT_EQ(s->faults[0].lag, 1);
    EXPECT_EQ(s->candidates[1].options.wait_replicas, 2);
    EXPECT_TRUE(rejected(doc, "/faults/0/lag", {"reaches before tick 0"},
                         sets({"store.replicas=1", "faults/0/promote=1", "faults/0/lag=4"})));
}

}  // namespace

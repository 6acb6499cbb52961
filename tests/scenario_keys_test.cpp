// Pins unknown, misspelt and duplicate keys, enum words, and the faults and
// ops of a scenario: each error at its path, with "did you mean" where a
// known word is near; and that docs/scenario-format.md's candidate table is
// the parser's key table.
#include "scenario_test_helpers.hpp"

#include "leasescope/sim/candidate_keys.hpp"

namespace {

using namespace scenario_test;

// ---------------------------------------------------------------- unknown keys

struct UnknownKeyCase {
    std::string pointer;  // the misspelt key's path
    json value;
    std::string hint;  // the suggestion or list the message must carry
};

TEST(ScenarioKeys, UnknownKeysAtEveryLevelSuggestTheNearestKnownOne) {
    // A misspelt key is an error at its own path with "did you mean" and the intended key.
    const std::vector<UnknownKeyCase> cases = {
        {"/candidate", json::array(), "did you mean \"candidates\"?"},
        {"/horizn", 40, "did you mean \"horizon\"?"},
        {"/default", json::object(), "did you mean \"defaults\"?"},
        {"/lock/capacty", 2, "did you mean \"capacity\"?"},
        {"/lock/fencing", 2, "expected one of: name, capacity, fencing_start"},
        {"/resource/mdoe", "check", "did you mean \"mode\"?"},
        {"/defaults/leese", 6, "did you mean \"lease\"?"},
        {"/defaults/autoextend", true, "did you mean \"auto_extend\"?"},
        {"/candidates/1/leese", 6, "did you mean \"lease\"?"},
        {"/candidates/0/write", json::array({1}), "did you mean \"writes\"?"},
        {"/title/kr", "x", "did you mean \"ko\"?"},
        {"/faults/0/tick", 3, "did you mean \"ticks\"?"},
        {"/ops/0/tokenof", "node-a", "did you mean \"token_of\"?"},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.pointer);
        const std::string key = c.pointer.substr(c.pointer.rfind('/') + 1);
        EXPECT_TRUE(rejected(with(base_with_fault_and_op(), c.pointer, c.value), c.pointer,
                             {"unknown key \"" + key + "\"", c.hint}));
    }
}

TEST(ScenarioKeys, FarOffUnknownKeyListsTheKnownKeys) {
    // A key close to nothing known gets the list of keys that are allowed there.
    EXPECT_TRUE(rejected(with(base(), "/colour", "red"), "/colour",
                         {"unknown key \"colour\"", "expected one of:", "candidates", "horizon"}));
    EXPECT_TRUE(rejected(with(base(), "/lock/region", "eu"), "/lock/region",
                         {"expected one of: name, capacity, fencing_start"}));
}

TEST(ScenarioKeys, NameIsNotADefaultsKey) {
    // defaults takes every candidate key but name.
    EXPECT_TRUE(rejected(with(base(), "/defaults/name", "n"), "/defaults/name", {"unknown key \"name\""}));
}

TEST(ScenarioKeys, KeysAreCaseSensitive) {
    // "Lease" is not "lease".
    EXPECT_TRUE(rejected(with(base(), "/candidates/0/Lease", 3), "/candidates/0/Lease", {"did you mean \"lease\"?"}));
}

TEST(ScenarioKeys, FaultKeysDependOnTheKind) {
    // Each fault kind takes only its own keys: node on failover, ticks on crash, mode on pause are unknown.
    json doc = base();
    doc["faults"] = json::array({{{"kind", "failover"}, {"at", 3}, {"node", "node-a"}}});
    EXPECT_TRUE(rejected(doc, "/faults/0/node", {"unknown key \"node\""}));
    doc["faults"] = json::array({{{"kind", "crash"}, {"node", "node-a"}, {"at", 3}, {"ticks", 2}}});
    EXPECT_TRUE(rejected(doc, "/faults/0/ticks", {"unknown key \"ticks\""}));
    doc["faults"] =
        json::array({{{"kind", "pause"}, {"node", "node-a"}, {"at", 3}, {"ticks", 2}, {"mode", "drop_replies"}}});
    EXPECT_TRUE(rejected(doc, "/faults/0/mode", {"unknown key \"mode\""}));
    doc["faults"] = json::array({{{"kind", "pause"}, {"node", "node-a"}, {"at", 3}, {"ticks", 2}, {"lose", "all"}}});
    EXPECT_TRUE(rejected(doc, "/faults/0/lose", {"unknown key \"lose\""}));
}

TEST(ScenarioKeys, StatusOpTakesNoTokenOf) {
    // A status op reads the record only; token_of on it is an unknown key.
    json doc = with(base(), "/ops",
                    json::array({{{"at", 1}, {"actor", "auditor"}, {"op", "status"}, {"token_of", "node-a"}}}));
    EXPECT_TRUE(rejected(doc, "/ops/0/token_of", {"unknown key \"token_of\""}));
}

// ---------------------------------------------------------------- enums

struct EnumCase {
    std::string pointer;
    json value;
    std::string hint;
};

TEST(ScenarioEnums, UnknownEnumValuesSuggestOrList) {
    // An unknown word for order, resource.mode, kind, partition mode, lose or op names the near one or lists all.
    json doc = base();
    doc["faults"] = json::array(
        {{{"kind", "partition"}, {"node", "node-a"}, {"at", 2}, {"ticks", 3}}, {{"kind", "failover"}, {"at", 3}}});
    doc["ops"] = json::array({{{"at", 1}, {"actor", "auditor"}, {"op", "status"}}});
    const std::vector<EnumCase> cases = {
        {"/order", "shufled", "did you mean \"shuffled\"?"},
        {"/order", "random", "expected one of: declared, shuffled"},
        {"/resource/mode", "chek", "did you mean \"check\"?"},
        {"/resource/mode", "fencing", "expected one of: off, check, validate"},
        {"/faults/0/kind", "partiton", "did you mean \"partition\"?"},
        {"/faults/0/kind", "reboot", "expected one of: pause, partition, crash, failover"},
        {"/faults/0/mode", "drop_request", "did you mean \"drop_requests\"?"},
        {"/faults/0/mode", "both", "expected one of: drop_requests, drop_replies"},
        {"/faults/1/lose", "lease", "did you mean \"leases\"?"},
        {"/faults/1/lose", "nothing", "expected one of: leases, all"},
        {"/ops/0/op", "stauts", "did you mean \"status\"?"},
        {"/ops/0/op", "release", "expected one of: status, validate"},
        {"/ops/0/op", "Status", "did you mean \"status\"?"},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.pointer + " = " + c.value.dump());
        EXPECT_TRUE(rejected(with(doc, c.pointer, c.value), c.pointer,
                             {"unknown value \"" + c.value.get<std::string>() + "\"", c.hint}));
    }
}

// ---------------------------------------------------------------- faults and ops

TEST(ScenarioFaults, EveryFaultNeedsItsKeys) {
    // A fault without kind, or without a key its kind requires, is rejected at the fault's path.
    auto fault = [](json f) { return with(base(), "/faults", json::array({std::move(f)})); };
    EXPECT_TRUE(rejected(fault({{"node", "node-a"}, {"at", 1}}), "/faults/0", {"missing \"kind\""}));
    EXPECT_TRUE(rejected(fault({{"kind", "pause"}, {"node", "node-a"}, {"at", 1}}), "/faults/0",
                         {"missing \"ticks\"", "pause"}));
    EXPECT_TRUE(rejected(fault({{"kind", "partition"}, {"at", 1}, {"ticks", 2}}), "/faults/0", {"missing \"node\""}));
    EXPECT_TRUE(rejected(fault({{"kind", "crash"}, {"node", "node-a"}}), "/faults/0", {"missing \"at\"", "crash"}));
    EXPECT_TRUE(rejected(fault({{"kind", "failover"}}), "/faults/0", {"missing \"at\"", "failover"}));
}

TEST(ScenarioFaults, UnknownNodeInAFaultSuggestsACandidate) {
    // A fault on a node that is not a candidate names the nearest candidate, or lists them.
    auto fault = [](const std::string& node) {
        return with(base(), "/faults", json::array({{{"kind", "crash"}, {"node", node}, {"at", 1}}}));
    };
    EXPECT_TRUE(rejected(fault("node-x"), "/faults/0/node", {"unknown node \"node-x\"", "did you mean \"node-a\"?"}));
    EXPECT_TRUE(rejected(fault("nodeb"), "/faults/0/node", {"did you mean \"node-b\"?"}));
    EXPECT_TRUE(rejected(fault("auditor-service"), "/faults/0/node", {"expected one of: node-a, node-b"}));
}

TEST(ScenarioFaults, PauseAndPartitionTicksMustBePositive) {
    // A pause or partition of 0 ticks covers nothing and is rejected at its ticks.
    json doc = with(base(), "/faults", json::array({{{"kind", "pause"}, {"node", "node-a"}, {"at", 2}, {"ticks", 0}}}));
    EXPECT_TRUE(rejected(doc, "/faults/0/ticks", {range(1, limits::duration_max)}));
    doc = with(base(), "/faults", json::array({{{"kind", "partition"}, {"node", "node-a"}, {"at", 2}, {"ticks", 0}}}));
    EXPECT_TRUE(rejected(doc, "/faults/0/ticks", {range(1, limits::duration_max)}));
}

TEST(ScenarioFaults, OverlappingPausesOnOneNodeAreRejected) {
    // Two pauses of one node sharing a tick are rejected at the later one, naming the earlier one and both spans.
    json doc = with(base(), "/faults",
                    json::array({{{"kind", "pause"}, {"node", "node-a"}, {"at", 2}, {"ticks", 3}},
                                 {{"kind", "pause"}, {"node", "node-a"}, {"at", 4}, {"ticks", 2}}}));
    EXPECT_TRUE(rejected(doc, "/faults/1", {"overlaps", "/faults/0", "node-a", "2..4", "4..5"}));
    // One inside the other overlaps too.
    doc = with(base(), "/faults",
               json::array({{{"kind", "pause"}, {"node", "node-b"}, {"at", 0}, {"ticks", 10}},
                            {{"kind", "crash"}, {"node", "node-a"}, {"at", 1}},
                            {{"kind", "pause"}, {"node", "node-b"}, {"at", 3}, {"ticks", 1}}}));
    EXPECT_TRUE(rejected(doc, "/faults/2", {"overlaps", "/faults/0"}));
}

TEST(ScenarioFaults, OverlappingPartitionsOnOneNodeAreRejectedWhateverTheirModes) {
    // Two partitions of one node sharing a tick are rejected even when one drops requests and the other replies.
    json doc = with(
        base(), "/faults",
        json::array({{{"kind", "partition"}, {"node", "node-b"}, {"at", 5}, {"ticks", 4}},
                     {{"kind", "partition"}, {"node", "node-b"}, {"at", 1}, {"ticks", 5}, {"mode", "drop_replies"}}}));
    EXPECT_TRUE(rejected(doc, "/faults/1", {"partition", "overlaps", "/faults/0"}));
}

TEST(ScenarioFaults, AdjacentOrOtherNodeOrOtherKindIsNoOverlap) {
    // Back-to-back pauses, pauses of different nodes, and a pause overlapping a partition are all fine.
    json doc = with(base(), "/faults",
                    json::array({{{"kind", "pause"}, {"node", "node-a"}, {"at", 2}, {"ticks", 3}},
                                 {{"kind", "pause"}, {"node", "node-a"}, {"at", 5}, {"ticks", 3}},
                                 {{"kind", "pause"}, {"node", "node-b"}, {"at", 2}, {"ticks", 6}},
                                 {{"kind", "partition"}, {"node", "node-a"}, {"at", 1}, {"ticks", 9}},
                                 {{"kind", "partition"}, {"node", "node-b"}, {"at", 1}, {"ticks", 9}},
                                 {{"kind", "crash"}, {"node", "node-a"}, {"at", 4}},
                                 {{"kind", "crash"}, {"node", "node-a"}, {"at", 6}},
                                 {{"kind", "failover"}, {"at", 3}},
                                 {{"kind", "failover"}, {"at", 3}, {"lose", "all"}}}));
    auto s = accepted(doc);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->faults.size(), 9u);
}

TEST(ScenarioFaults, FaultsResolveNodesAndDefaults) {
    // Faults keep their order; nodes become indices; partition mode defaults to drop_requests and lose to leases.
    json doc = with(base(), "/faults",
                    json::array({{{"kind", "partition"}, {"node", "node-b"}, {"at", 1}, {"ticks", 2}},
                                 {{"kind", "failover"}, {"at", 3}},
                                 {{"kind", "crash"}, {"node", "node-a"}, {"at", 7}}}));
    auto s = accepted(doc);
    ASSERT_TRUE(s);
    ASSERT_EQ(s->faults.size(), 3u);
    EXPECT_EQ(s->faults[0].kind, sim::FaultKind::partition);
    EXPECT_EQ(s->faults[0].node, 1);
    EXPECT_EQ(s->faults[0].mode, sim::PartitionMode::drop_requests);
    EXPECT_EQ(s->faults[0].end(), 3);
    EXPECT_EQ(s->faults[1].kind, sim::FaultKind::failover);
    EXPECT_EQ(s->faults[1].node, -1);
    EXPECT_EQ(s->faults[1].lose, FailoverLoss::leases);
    EXPECT_EQ(s->faults[2].node, 0);
    EXPECT_EQ(s->faults[2].at, 7);
}

TEST(ScenarioOps, ValidateNeedsTokenOfAndEveryOpNeedsAtActorOp) {
    // A validate op without token_of, or any op without at, actor or op, is rejected at the op's path.
    auto op = [](json o) { return with(base(), "/ops", json::array({std::move(o)})); };
    EXPECT_TRUE(rejected(op({{"at", 1}, {"actor", "auditor"}, {"op", "validate"}}), "/ops/0",
                         {"missing \"token_of\"", "validate"}));
    EXPECT_TRUE(rejected(op({{"at", 1}, {"actor", "auditor"}}), "/ops/0", {"missing \"op\""}));
    EXPECT_TRUE(rejected(op({{"actor", "auditor"}, {"op", "status"}}), "/ops/0", {"missing \"at\""}));
    EXPECT_TRUE(rejected(op({{"at", 1}, {"op", "status"}}), "/ops/0", {"missing \"actor\""}));
    EXPECT_TRUE(rejected(op({{"at", 1}, {"actor", ""}, {"op", "status"}}), "/ops/0/actor", {"non-empty"}));
}

TEST(ScenarioOps, UnknownTokenOfNodeSuggestsACandidate) {
    // validate of an unknown node's token names the nearest candidate.
    json doc = with(base(), "/ops",
                    json::array({{{"at", 1}, {"actor", "auditor"}, {"op", "validate"}, {"token_of", "node-c"}}}));
    EXPECT_TRUE(rejected(doc, "/ops/0/token_of", {"unknown node \"node-c\"", "did you mean \"node-a\"?"}));
}

TEST(ScenarioOps, OpsResolveInOrder) {
    // Ops keep their order; the actor need not be a candidate; token_of becomes an index.
    json doc = with(base(), "/ops",
                    json::array({{{"at", 9}, {"actor", "proxy"}, {"op", "status"}},
                                 {{"at", 2}, {"actor", "node-a"}, {"op", "validate"}, {"token_of", "node-b"}}}));
    auto s = accepted(doc);
    ASSERT_TRUE(s);
    ASSERT_EQ(s->ops.size(), 2u);
    EXPECT_EQ(s->ops[0].op, sim::OpKind::status);
    EXPECT_EQ(s->ops[0].actor, "proxy");
    EXPECT_EQ(s->ops[0].at, 9);
    EXPECT_EQ(s->ops[0].token_of, -1);
    EXPECT_EQ(s->ops[1].op, sim::OpKind::validate);
    EXPECT_EQ(s->ops[1].token_of, 1);
}

TEST(ScenarioKeys, DuplicateKeysAreErrorsWithTheirPath) {
    // A key written twice in one object is an error naming where, not a silent "last one wins".
    EXPECT_TRUE(rejected(std::string(R"({"name":"t","horizon":5,"horizon":7,"defaults":{"wait":1,"lease":2,"action":1},
                          "candidates":[{"name":"a"}]})"),
                         "/horizon", {"appears twice"}));
    EXPECT_TRUE(rejected(std::string(R"({"name":"t","defaults":{"wait":1,"lease":2,"action":1},
                          "candidates":[{"name":"a"},{"name":"b","start":1,"start":2}]})"),
                         "/candidates/1/start", {"appears twice"}));
    EXPECT_TRUE(rejected(std::string(R"({"name":"t","defaults":{"wait":1,"lease":2,"action":1},
                          "candidates":[{"name":"a","writes":[1]}],
                          "faults":[{"kind":"crash","node":"a","at":1},{"kind":"pause","node":"a","at":1,"ticks":1,"at":2}]})"),
                         "/faults/1/at", {"appears twice"}));
}

TEST(ScenarioKeys, SuggestionsCountASwapAsOneEditAndStayClose) {
    // "mdoe" suggests "mode" (a swap is one edit); "node" on a failover does not suggest "lose".
    EXPECT_TRUE(
        rejected(std::string(R"({"name":"t","resource":{"mdoe":"check"},"defaults":{"wait":1,"lease":2,"action":1},
                          "candidates":[{"name":"a"}]})"),
                 "/resource/mdoe", {"did you mean \"mode\"?"}));
    auto r = leasescope::sim::parse_scenario(R"({"name":"t","defaults":{"wait":1,"lease":2,"action":1},
        "candidates":[{"name":"a"}],"faults":[{"kind":"failover","node":"a","at":1}]})",
                                             "f.json");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().where, "/faults/0/node");
    EXPECT_EQ(r.error().message.find("did you mean"), std::string::npos) << r.error().message;
}

}  // namespace

// ------------------------------------------------- the documented key table

namespace {

// The rows of the markdown table under `heading` in docs/scenario-format.md,
// each split into its cells (backticks kept).
std::vector<std::vector<std::string>> doc_table(const std::string& heading) {
    std::ifstream in(std::string(LEASESCOPE_SOURCE_DIR) + "/docs/scenario-format.md");
    std::vector<std::vector<std::string>> rows;
    std::string line;
    bool in_section = false;
    while (std::getline(in, line)) {
        if (line.rfind("## ", 0) == 0) in_section = line == heading;
        if (!in_section || line.rfind("| `", 0) != 0) continue;
        std::vector<std::string> cells;
        std::size_t from = 1;
        for (std::size_t bar = line.find(" |", from); bar != std::string::npos; bar = line.find(" |", from)) {
            cells.push_back(line.substr(from + 1, bar - from - 1));
            from = bar + 2;
        }
        rows.push_back(cells);
    }
    return rows;
}

const char* doc_type(leasescope::sim::KeyKind kind) {
    switch (kind) {
        case leasescope::sim::KeyKind::name: return "string";
        case leasescope::sim::KeyKind::integer: return "integer";
        case leasescope::sim::KeyKind::flag: return "boolean";
        case leasescope::sim::KeyKind::offsets: return "array of integers";
        case leasescope::sim::KeyKind::network: return "object";
    }
    return "?";
}

}  // namespace

// docs/scenario-format.md's candidate table lists the parser's key table
// (sim/candidate_keys.hpp): the same keys in the same order, each with its
// type, **required** exactly where the parser requires it, the value the
// parser takes when it is absent, and its lower bound.
TEST(ScenarioKeys, DocumentedCandidateTableIsTheKeyTable) {
    using leasescope::sim::KeyKind;
    using leasescope::sim::Need;
    const auto rows = doc_table("## Candidates and defaults");
    const auto keys = leasescope::sim::candidate_keys();
    ASSERT_EQ(rows.size(), keys.size());
    for (std::size_t i = 0; i < keys.size(); ++i) {
        const auto& k = *keys[i];
        const auto& row = rows[i];
        ASSERT_EQ(row.size(), 5u) << k.name;
        EXPECT_EQ(row[0], "`" + std::string(k.name) + "`");
        EXPECT_EQ(row[1], doc_type(k.kind)) << k.name;
        const bool required = row[2].rfind("**required**", 0) == 0;
        EXPECT_EQ(required, k.need == Need::required) << k.name;
        EXPECT_EQ(row[3].find("**required** when `runs` > 1") != std::string::npos, k.need == Need::required_to_repeat)
            << k.name;
        if (leasescope::sim::has_schema_default(k)) {
            const std::string fallback =
                k.kind == KeyKind::flag ? (k.fallback != 0 ? "`true`" : "`false`") : std::to_string(k.fallback);
            EXPECT_EQ(row[2], fallback) << k.name;
        } else if (!required) {
            EXPECT_TRUE(row[2].rfind("none", 0) == 0 || row[2] == "`[action]`") << k.name << ": " << row[2];
        }
        if (k.kind == KeyKind::integer) {
            const std::string lo = std::to_string(k.lo) + " … ";
            EXPECT_EQ(row[3].rfind(lo, 0), 0u) << k.name << ": " << row[3];
            EXPECT_EQ(row[3].find("`action`") != std::string::npos, k.within_action) << k.name;
        }
    }
}

// Pins unknown, misspelt and duplicate keys, enum words, and the faults and
// ops of a scenario: each error at its path, with "did you mean" where a
// known word is near; and that docs/scenario-format.md's key tables are the
// parser's key tables (every key's errors, defaults and documented row come
// from leasescope/sim/scenario_keys.hpp).
#include "support/scenario_test_helpers.hpp"

#include <map>

#include "leasescope/sim/candidate_keys.hpp"
#include "leasescope/sim/scenario_keys.hpp"

namespace {

// A name as the docs' tables write it, in backquotes (built by append: GCC 12
// at -O3 gave false -Wstringop-overflow warnings on "`" + … + "`").
std::string backquoted(std::string_view name) { return std::string("`").append(name).append("`"); }

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
        case leasescope::sim::KeyKind::clock: return "object";
        case leasescope::sim::KeyKind::network: return "object";
        case leasescope::sim::KeyKind::choice: return "string";
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
        EXPECT_EQ(row[0], backquoted(k.name));
        EXPECT_EQ(row[1], doc_type(k.kind)) << k.name;
        const bool required = row[2].rfind("**required**", 0) == 0;
        EXPECT_EQ(required, k.need == Need::required) << k.name;
        EXPECT_EQ(row[3].find("**required** when `runs` > 1") != std::string::npos, k.need == Need::required_to_repeat)
            << k.name;
        if (leasescope::sim::has_schema_default(k)) {
            const std::string fallback =
                k.kind == KeyKind::flag ? (k.fallback != 0 ? "`true`" : "`false`")
                : k.kind == KeyKind::choice
                    ? "`\"" + std::string(k.choices[static_cast<std::size_t>(k.fallback)]) + "\"`"
                    : std::to_string(k.fallback);
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

// ------------------------------------------------- the one table of every key

namespace {

using leasescope::sim::keys_of;
using leasescope::sim::ScenarioKey;
using leasescope::sim::Section;
using leasescope::sim::ValueType;

// The markdown tables under `heading` in docs/scenario-format.md, in order;
// each is its data rows ("| `…"), each row split into its cells.
std::vector<std::vector<std::vector<std::string>>> doc_tables(const std::string& heading) {
    std::ifstream in(std::string(LEASESCOPE_SOURCE_DIR) + "/docs/scenario-format.md");
    std::vector<std::vector<std::vector<std::string>>> tables;
    std::string line;
    bool in_section = false;
    bool in_table = false;
    while (std::getline(in, line)) {
        if (line.rfind("## ", 0) == 0) in_section = line == heading;
        const bool table_line = in_section && line.rfind("|", 0) == 0;
        if (table_line && !in_table) tables.emplace_back();
        in_table = table_line;
        if (!table_line || line.rfind("| `", 0) != 0) continue;
        std::vector<std::string> cells;
        std::size_t from = 1;
        for (std::size_t bar = line.find(" |", from); bar != std::string::npos; bar = line.find(" |", from)) {
            cells.push_back(line.substr(from + 1, bar - from - 1));
            from = bar + 2;
        }
        tables.back().push_back(cells);
    }
    return tables;
}

const char* doc_type(ValueType type) {
    switch (type) {
        case ValueType::identifier: return "identifier";
        case ValueType::name:
        case ValueType::string:
        case ValueType::choice: return "string";
        case ValueType::localized: return "text object";
        case ValueType::integer:
        case ValueType::unsigned64: return "integer";
        case ValueType::boolean: return "boolean";
        case ValueType::number: return "number";
        case ValueType::object: return "object";
        case ValueType::array: return "array";
    }
    return "?";
}

// The default column as the document writes a JSON default: a number as
// it is, anything else in backticks.
std::string doc_default(const char* fallback) {
    const json value = json::parse(fallback);
    return value.is_number() ? value.dump() : "`" + value.dump() + "`";
}

// One documented row against its key: name, type, **required**, default,
// the lower bound and limit constant of its range, its words.
void expect_documented(const ScenarioKey& k, const std::vector<std::string>& row) {
    SCOPED_TRACE(k.name);
    ASSERT_EQ(row.size(), 5u);
    EXPECT_EQ(row[0], backquoted(k.name));
    EXPECT_EQ(row[1], doc_type(k.type));
    const bool required = row[2].rfind("**required**", 0) == 0;
    EXPECT_EQ(required, k.need == leasescope::sim::Need::required) << row[2];
    if (k.fallback != nullptr) {
        EXPECT_EQ(row[2], doc_default(k.fallback));
    }
    if (k.type == ValueType::integer) {
        EXPECT_EQ(row[3].rfind(std::to_string(k.lo) + " … ", 0), 0u) << row[3];
    }
    if (k.hi_name != nullptr) {
        EXPECT_NE(row[3].find(backquoted(k.hi_name)), std::string::npos) << row[3];
    }
    for (const char* word : k.choices) EXPECT_NE(row[3].find(backquoted(word)), std::string::npos);
}

// "`node`, `at`, `ticks`": a fault kind's or an op's keys as its row lists them.
std::string doc_key_list(Section section, const char* variant, const char* chooser) {
    std::string list;
    for (const ScenarioKey* k : keys_of(section, variant)) {
        if (std::string(k->name) == chooser) continue;
        list += (list.empty() ? "`" : ", `") + std::string(k->name) + "`";
    }
    return list;
}

}  // namespace

// docs/scenario-format.md's tables of the top level, "lock" and "store" list the
// key table (leasescope/sim/scenario_keys.hpp): the same keys in the same
// order, each with its type, **required** where the parser requires it, the
// default the parser takes, and the bounds of its range.
TEST(ScenarioKeys, DocumentedTopLevelAndLockTablesAreTheKeyTable) {
    const auto tables = doc_tables("## Top level");
    ASSERT_EQ(tables.size(), 3u);
    const Section sections[] = {Section::top, Section::lock, Section::store};
    for (std::size_t t = 0; t < 3; ++t) {
        const auto keys = keys_of(sections[t]);
        ASSERT_EQ(tables[t].size(), keys.size()) << "table " << t;
        for (std::size_t i = 0; i < keys.size(); ++i) expect_documented(*keys[i], tables[t][i]);
    }
}

// The table of the redlock client's options (docs/scenario-format.md,
// "Redlock: independent stores"; model.md §20.1) is the key table's.
TEST(ScenarioKeys, DocumentedRedlockTableIsTheKeyTable) {
    const auto tables = doc_tables("## Redlock: independent stores");
    ASSERT_EQ(tables.size(), 1u);
    const auto keys = keys_of(Section::redlock);
    ASSERT_EQ(tables[0].size(), keys.size());
    for (std::size_t i = 0; i < keys.size(); ++i) expect_documented(*keys[i], tables[0][i]);
}

// The table of Redisson's options (docs/scenario-format.md, "Redisson:
// RLock"; model.md §21.1) is the key table's.
TEST(ScenarioKeys, DocumentedRedissonTableIsTheKeyTable) {
    const auto tables = doc_tables("## Redisson: RLock");
    ASSERT_EQ(tables.size(), 1u);
    const auto keys = keys_of(Section::redisson);
    ASSERT_EQ(tables[0].size(), keys.size());
    for (std::size_t i = 0; i < keys.size(); ++i) expect_documented(*keys[i], tables[0][i]);
}

// The fault and op tables name, for each kind and op of the key table, the
// keys the parser allows it, in the table's order.
TEST(ScenarioKeys, DocumentedFaultAndOpTablesAreTheKeyTable) {
    struct Part {
        const char* heading;
        Section section;
        const char* chooser;
        const char* skipped;  // a key the row does not list
    };
    for (const Part& part :
         {Part{"## Faults", Section::fault, "kind", "kind"}, Part{"## Ops", Section::op, "op", ""}}) {
        SCOPED_TRACE(part.heading);
        const auto tables = doc_tables(part.heading);
        ASSERT_EQ(tables.size(), 1u);
        const ScenarioKey& chooser = leasescope::sim::scenario_key(part.section, part.chooser);
        ASSERT_EQ(tables[0].size(), chooser.choices.size());
        for (std::size_t i = 0; i < chooser.choices.size(); ++i) {
            EXPECT_EQ(tables[0][i][0], backquoted(chooser.choices[i]));
            EXPECT_EQ(tables[0][i][1], doc_key_list(part.section, chooser.choices[i], part.skipped));
        }
    }
}

// Every object's unknown-key error lists exactly the table's keys for it, in
// the table's order: the reader keeps no list of its own.
TEST(ScenarioKeys, UnknownKeyErrorsListTheKeyTable) {
    struct Case {
        std::string pointer;
        Section section;
        const char* variant;
    };
    json doc = base();
    doc["title"] = json::object();
    doc["lock"] = json::object();
    doc["resource"] = json::object();
    doc["faults"] = json::array({{{"kind", "pause"}, {"node", "node-a"}, {"at", 1}, {"ticks", 2}},
                                 {{"kind", "partition"}, {"node", "node-a"}, {"at", 1}, {"ticks", 2}},
                                 {{"kind", "crash"}, {"node", "node-a"}, {"at", 1}},
                                 {{"kind", "failover"}, {"at", 1}}});
    doc["ops"] = json::array({{{"at", 1}, {"actor", "auditor"}, {"op", "status"}},
                              {{"at", 1}, {"actor", "auditor"}, {"op", "validate"}, {"token_of", "node-a"}}});
    ASSERT_TRUE(accepted(doc));
    const std::vector<Case> cases = {{"", Section::top, ""},
                                     {"/lock", Section::lock, ""},
                                     {"/resource", Section::resource, ""},
                                     {"/title", Section::text, ""},
                                     {"/ops/0", Section::op, "status"},
                                     {"/ops/1", Section::op, "validate"},
                                     {"/faults/0", Section::fault, "pause"},
                                     {"/faults/1", Section::fault, "partition"},
                                     {"/faults/2", Section::fault, "crash"},
                                     {"/faults/3", Section::fault, "failover"}};
    for (const Case& c : cases) {
        SCOPED_TRACE(c.pointer);
        std::string list;
        for (const std::string& name : leasescope::sim::key_names_of(c.section, c.variant))
            list += (list.empty() ? "" : ", ") + name;
        EXPECT_TRUE(rejected(with(doc, c.pointer + "/zzzzzzzzzz", 1), c.pointer + "/zzzzzzzzzz",
                             {"unknown key \"zzzzzzzzzz\"; expected one of: " + list}));
    }
}

// The value the parser takes for each key a file leaves out is the table's
// default.
TEST(ScenarioKeys, AbsentKeysTakeTheTablesDefaults) {
    json doc = base();
    doc["faults"] = json::array(
        {{{"kind", "partition"}, {"node", "node-a"}, {"at", 1}, {"ticks", 2}}, {{"kind", "failover"}, {"at", 4}}});
    // An exercise of each kind with a defaulted key (model.md §18).
    const json prompt = {{"en", "Q"}, {"ko", "질문"}};
    doc["exercises"] =
        json::array({{{"kind", "find_fault"}, {"prompt", prompt}, {"max_ticks", 2}, {"goal", {{"fails", "liveness"}}}},
                     {{"kind", "goal"},
                      {"prompt", prompt},
                      {"knobs", json::array({{{"set", "defaults.lease"}, {"range", {4, 8}}}})},
                      {"goal", {{"holds", "overlap"}}}}});
    const auto s = accepted(doc);
    ASSERT_TRUE(s);
    // A Redlock scenario (model.md §20) with a restart, for the keys only it has.
    json rl = base();
    rl["client"] = "redlock";
    rl["stores"] = json::array({"A", "B", "C"});
    rl["redlock"] = json::object();
    rl["faults"] = json::array({{{"kind", "restart"}, {"store", "B"}, {"at", 1}, {"ticks", 2}}});
    const auto redlock = accepted(rl);
    ASSERT_TRUE(redlock);
    // A Redisson scenario (model.md §21) with an empty "redisson".
    json rs = base();
    rs["client"] = "redisson";
    rs["redisson"] = json::object();
    const auto redisson = accepted(rs);
    ASSERT_TRUE(redisson);
    const std::map<std::string, json> parsed = {
        {"tick_ms", s->tick_ms},
        {"horizon", s->horizon},
        {"seed", s->seed},
        {"order", sim::to_string(s->order)},
        {"defaults", json::object()},
        {"faults", json::array()},
        {"ops", json::array()},
        {"lock/name", s->lock.name},
        {"lock/capacity", s->lock.capacity},
        {"lock/fencing_start", s->lock.fencing_start},
        {"resource/mode", sim::to_string(s->resource)},
        {"fault/mode", sim::to_string(s->faults[0].mode)},
        {"fault/lose", sim::to_string(s->faults[1].lose)},
        {"fault/lag", s->faults[1].lag},
        {"store/replicas", s->lock.replication.replicas},
        {"store/min_replicas_to_write", s->lock.replication.min_replicas_to_write},
        {"store", json::object()},
        {"store/clock", json::object()},
        {"clock/drift_ppm", s->lock.clock.drift_ppm},
        {"network", json::object()},
        {"network/request", s->network.request},
        {"network/reply", s->network.reply},
        {"network/write", s->network.write},
        {"exercises", json::array()},
        {"exercise/faults", s->exercises[0].faults},
        {"knob/step", s->exercises[1].knobs[0].step},
        {"client", sim::to_string(s->client)},
        {"redlock", json::object()},
        {"stores_clock", sim::to_string(redlock->stores_clock)},
        {"redlock/retry_count", redlock->redlock.retry_count},
        {"redlock/retry_delay_ms", redlock->redlock.retry_delay_ms},
        {"redlock/retry_jitter_ms", redlock->redlock.retry_jitter_ms},
        {"redlock/drift_factor", redlock->redlock.drift_factor},
        {"fault/persistence", sim::to_string(redlock->faults[0].persistence)},
        {"redisson", json::object()},
        {"redisson/lock_watchdog_timeout_ms", redisson->redisson.lock_watchdog_timeout_ms},
    };
    std::size_t checked = 0;
    for (const ScenarioKey& k : leasescope::sim::scenario_keys()) {
        if (k.fallback == nullptr || k.section == Section::candidate) continue;
        const char* prefix[] = {"",      "lock/",  "resource/", "text/",    "candidate/",   "fault/",
                                "op/",   "store/", "clock/",    "network/", "old_primary/", "exercise/",
                                "knob/", "goal/",  "redlock/",  "redisson/"};
        const std::string name = prefix[static_cast<int>(k.section)] + std::string(k.name);
        ASSERT_EQ(parsed.count(name), 1u) << name << " has a default the test does not read";
        EXPECT_EQ(parsed.at(name), json::parse(k.fallback)) << name;
        ++checked;
    }
    EXPECT_EQ(checked, parsed.size());
}

// `--set` takes the paths of the key table: each value key that has a
// default can be set to it by its dotted path (the reader checks what was
// set), and a path the table does not have is refused with its nearest key.
TEST(ScenarioKeys, SetAcceptsTheTablesPaths) {
    const std::string text = text_of(base());
    const char* prefix[] = {"", "lock.", "resource.", "", "", "", "", "store.", "", "network.", "", "", "", "", ""};
    std::size_t checked = 0;
    for (const ScenarioKey& k : leasescope::sim::scenario_keys()) {
        const bool settable = k.section == Section::top || k.section == Section::lock || k.section == Section::resource;
        // "defaults" is an object of its own: setting it to {} would drop the base's values.
        if (k.fallback == nullptr || !settable || k.type == ValueType::object) continue;
        // Redlock's store clock needs the redlock client (its own test sets it on one).
        if (std::string_view(k.name) == "stores_clock") continue;
        const std::string path = prefix[static_cast<int>(k.section)] + std::string(k.name);
        SCOPED_TRACE(path);
        EXPECT_TRUE(accepted(text, sets({path + "=" + k.fallback})));
        ++checked;
    }
    EXPECT_GE(checked, 10u);
    EXPECT_TRUE(rejected(text, "/lock/capasity", {"did you mean \"capacity\"?"}, sets({"lock.capasity=2"})));
}

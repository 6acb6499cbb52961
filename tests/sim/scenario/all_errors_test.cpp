// parse_scenario_all_errors reports every independent error of a file, in
// file order, without errors that only follow from another; and the
// GoogleTest helper of leasescope/testing.hpp passes on a matching golden
// trace and names the first divergence otherwise.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "leasescope/sim/scenario.hpp"
#include "leasescope/testing.hpp"

using namespace leasescope;

namespace {

std::vector<std::string> wheres(const std::string& text) {
    auto r = sim::parse_scenario_all_errors(text, "t.json");
    std::vector<std::string> out;
    if (r.ok()) return out;
    for (const auto& e : r.error()) out.push_back(e.where);
    return out;
}

}  // namespace

// Three independent mistakes, the faults written first: three errors, in file order.
TEST(AllErrors, ThreeMistakesInFileOrder) {
    const std::string text = R"({
      "faults": [ { "kind": "pause", "node": "c", "at": 1, "ticks": 2 } ],
      "name": "bad name",
      "defaults": { "wait": 1, "lease": 5, "action": 3 },
      "candidates": [ { "name": "a", "leese": 4 }, { "name": "b" } ] })";
    EXPECT_EQ(wheres(text), (std::vector<std::string>{"/faults/0/node", "/name", "/candidates/0/leese"}));
    // parse_scenario gives the first of them.
    auto first = sim::parse_scenario(text, "t.json");
    ASSERT_FALSE(first.ok());
    EXPECT_EQ(first.error().where, "/faults/0/node");
}

// Several bad values of one candidate are all reported; a relation between
// values is checked only when both values are good.
TEST(AllErrors, PerKeyWithinACandidate) {
    EXPECT_EQ(wheres(R"({"name": "x", "candidates": [ {"name": "a", "wait": -1, "lease": "5", "action": 3,
                         "min_lease": 9, "hold_off": true} ]})"),
              (std::vector<std::string>{"/candidates/0/wait", "/candidates/0/lease", "/candidates/0/hold_off"}));
    EXPECT_EQ(wheres(R"({"name": "x", "candidates": [ {"name": "a", "wait": 1, "lease": 5, "action": 3,
                         "min_lease": 9} ]})"),
              (std::vector<std::string>{"/candidates/0/min_lease"}));
}

// A bad default is reported once, not once per candidate using it.
TEST(AllErrors, BadDefaultOnce) {
    EXPECT_EQ(wheres(R"({"name": "x", "defaults": {"wait": 1, "lease": 0, "action": 3},
                         "candidates": [ {"name": "a"}, {"name": "b"}, {"name": "c"} ]})"),
              (std::vector<std::string>{"/defaults/lease"}));
}

// A syntax error is the only error.
TEST(AllErrors, SyntaxStopsAtTheFirst) {
    auto r = sim::parse_scenario_all_errors(R"({"name": "x",, "candidates": [,]})", "t.json");
    ASSERT_FALSE(r.ok());
    ASSERT_EQ(r.error().size(), 1u);
    EXPECT_EQ(r.error()[0].where, "1:14");
}

// Candidates that are not an array: faults and ops naming nodes are not
// checked against nothing, but their other errors still are.
TEST(AllErrors, NoNodeErrorsWithoutCandidates) {
    EXPECT_EQ(wheres(R"({"name": "x", "candidates": {}, "tick_ms": 0,
                         "faults": [ {"kind": "crash", "node": "a", "at": 1} ]})"),
              (std::vector<std::string>{"/candidates", "/tick_ms"}));
}

// "$schema" is accepted as a string and nothing else.
TEST(AllErrors, SchemaKey) {
    EXPECT_TRUE(wheres(R"({"$schema": "s.json", "name": "x", "defaults": {"wait": 1, "lease": 5, "action": 3},
                           "candidates": [ {"name": "a"} ]})")
                    .empty());
    EXPECT_EQ(wheres(R"({"$schema": 3, "name": "x", "defaults": {"wait": 1, "lease": 5, "action": 3},
                         "candidates": [ {"name": "a"} ]})"),
              (std::vector<std::string>{"/$schema"}));
}

// Every unknown key of every nested object is reported, not only the first
// of each: /lock, /resource, /title, a fault and an op each have two. The
// lock's known values are still checked; a fault or an op with an unknown
// key is not checked further (a misspelt key also makes a required one look
// missing).
TEST(AllErrors, EveryUnknownKeyInNestedObjects) {
    EXPECT_EQ(wheres(R"({"name": "x", "defaults": {"wait": 1, "lease": 5, "action": 3},
                         "title": {"en": "t", "de": "t", "fr": "t"},
                         "lock": {"nmae": "l", "capacity": 0, "fencing": 1},
                         "resource": {"mdoe": "check", "strict": true},
                         "candidates": [ {"name": "a"} ],
                         "faults": [ {"kind": "pause", "node": "a", "at": 1, "tciks": 2, "for": 3} ],
                         "ops": [ {"op": "status", "at": 1, "actor": "a", "who": 1, "when": 2} ]})"),
              (std::vector<std::string>{"/title/de", "/title/fr", "/lock/nmae", "/lock/capacity", "/lock/fencing",
                                        "/resource/mdoe", "/resource/strict", "/faults/0/tciks", "/faults/0/for",
                                        "/ops/0/who", "/ops/0/when"}));
}

// The GoogleTest helper: a preset matches its golden trace; another
// scenario's golden does not, and the message names the divergence as
// `check` does.
TEST(TestingHeader, MatchesAndDiverges) {
    const std::string src = LEASESCOPE_SOURCE_DIR;
    EXPECT_TRUE(leasescope::testing::scenario_matches_golden(src + "/scenarios/expiry-takeover.json",
                                                             src + "/tests/golden/expiry-takeover.jsonl"));
    const ::testing::AssertionResult r = leasescope::testing::scenario_matches_golden(
        src + "/scenarios/expiry-takeover.json", src + "/tests/golden/contention.jsonl");
    EXPECT_FALSE(r);
    EXPECT_NE(std::string(r.message()).find("(A = golden, B = now)"), std::string::npos) << r.message();
    const ::testing::AssertionResult missing = leasescope::testing::scenario_matches_golden(
        src + "/scenarios/expiry-takeover.json", src + "/tests/golden/no-such.jsonl");
    EXPECT_FALSE(missing);
    EXPECT_NE(std::string(missing.message()).find("LEASESCOPE_UPDATE_GOLDEN=1"), std::string::npos);
}

// Pins the scenario parser and validator (DESIGN §11): what a bad file is
// told, where (line:column for syntax, a JSON path for meaning), the defaults
// it resolves, the --set overrides and the round trip through scenario_to_json.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "leasescope/sim/limits.hpp"
#include "leasescope/sim/scenario.hpp"
#include "leasescope/sim/simulation.hpp"

namespace {

namespace fs = std::filesystem;
namespace sim = leasescope::sim;
namespace limits = leasescope::limits;
using json = nlohmann::json;
using leasescope::Elector;
using leasescope::ElectorKind;
using leasescope::ElectorOptions;
using leasescope::FailoverLoss;

const std::string test_file = "test.json";

// A small valid scenario that the tests bend into bad ones.
json base() {
    return json::parse(R"({
      "name": "t",
      "defaults": { "wait": 2, "lease": 6, "action": 4 },
      "candidates": [ { "name": "node-a" }, { "name": "node-b", "start": 3 } ]
    })");
}

// `doc` with the value at JSON pointer `pointer` replaced (or added).
json with(json doc, const std::string& pointer, json value) {
    doc[json::json_pointer(pointer)] = std::move(value);
    return doc;
}

json without(json doc, const std::string& pointer) {
    const json::json_pointer p(pointer);
    doc[p.parent_pointer()].erase(p.back());
    return doc;
}

sim::ScenarioResult parse(const std::string& text, const std::vector<sim::Override>& overrides = {}) {
    return sim::parse_scenario(text, test_file, overrides);
}

// The document goes through its text, as a file would: numbers are re-read
// by the parser (a 0 written here comes back as an unsigned 0).
std::string text_of(const json& doc) { return doc.dump(); }

// Rejected with this `where` and a message containing every word.
::testing::AssertionResult rejected(const std::string& text, const std::string& where,
                                    const std::vector<std::string>& words,
                                    const std::vector<sim::Override>& overrides = {}) {
    auto result = parse(text, overrides);
    if (result.ok()) return ::testing::AssertionFailure() << "accepted; expected an error at " << where << " in\n" << text;
    const sim::ScenarioError& e = result.error();
    if (e.file != test_file) return ::testing::AssertionFailure() << "file is \"" << e.file << "\"";
    if (e.where != where)
        return ::testing::AssertionFailure() << "where is \"" << e.where << "\", expected \"" << where
                                             << "\"; message: " << e.message;
    for (const auto& word : words) {
        if (e.message.find(word) == std::string::npos)
            return ::testing::AssertionFailure() << "message \"" << e.message << "\" lacks \"" << word << "\"";
    }
    return ::testing::AssertionSuccess();
}

::testing::AssertionResult rejected(const json& doc, const std::string& where, const std::vector<std::string>& words,
                                    const std::vector<sim::Override>& overrides = {}) {
    return rejected(text_of(doc), where, words, overrides);
}

// Parses a scenario that must be valid; a failure names the error.
std::optional<sim::Scenario> accepted(const std::string& text, const std::vector<sim::Override>& overrides = {}) {
    auto result = parse(text, overrides);
    if (!result.ok()) {
        ADD_FAILURE() << "rejected: " << result.error().to_string() << "\nin\n" << text;
        return std::nullopt;
    }
    return std::move(result).value();
}

std::optional<sim::Scenario> accepted(const json& doc, const std::vector<sim::Override>& overrides = {}) {
    return accepted(text_of(doc), overrides);
}

std::vector<sim::Override> sets(const std::vector<std::string>& texts) {
    std::vector<sim::Override> out;
    for (const auto& t : texts) {
        auto o = sim::parse_override(t);
        EXPECT_TRUE(o.ok()) << t;
        if (o.ok()) out.push_back(o.value());
    }
    return out;
}

std::string read_text(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream buffer;
    buffer << in.rdbuf();
    return buffer.str();
}

std::vector<fs::path> preset_paths() {
    std::vector<fs::path> paths;
    for (const auto& entry : fs::directory_iterator(fs::path(LEASESCOPE_SOURCE_DIR) / "scenarios")) {
        if (entry.path().extension() == ".json") paths.push_back(entry.path());
    }
    std::sort(paths.begin(), paths.end());
    return paths;
}

std::string range(std::int64_t lo, std::int64_t hi) {
    return "expected an integer from " + std::to_string(lo) + " to " + std::to_string(hi);
}

// Field by field: ElectorOptions has no operator==.
void expect_same_options(const ElectorOptions& a, const ElectorOptions& b, const std::string& who) {
    SCOPED_TRACE(who);
    EXPECT_EQ(a.start, b.start);
    EXPECT_EQ(a.wait, b.wait);
    EXPECT_EQ(a.lease, b.lease);
    EXPECT_EQ(a.min_lease, b.min_lease);
    EXPECT_EQ(a.auto_extend, b.auto_extend);
    EXPECT_EQ(a.extend_every, b.extend_every);
    EXPECT_EQ(a.retry_every, b.retry_every);
    EXPECT_EQ(a.action, b.action);
    EXPECT_EQ(a.writes, b.writes);
    EXPECT_EQ(a.fail_at, b.fail_at);
    EXPECT_EQ(a.hold_off, b.hold_off);
    EXPECT_EQ(a.runs, b.runs);
    EXPECT_EQ(a.every, b.every);
}

void expect_same_scenario(const sim::Scenario& a, const sim::Scenario& b) {
    EXPECT_EQ(a.name, b.name);
    EXPECT_EQ(a.title.en, b.title.en);
    EXPECT_EQ(a.title.ko, b.title.ko);
    EXPECT_EQ(a.summary.en, b.summary.en);
    EXPECT_EQ(a.summary.ko, b.summary.ko);
    EXPECT_EQ(a.tick_ms, b.tick_ms);
    EXPECT_EQ(a.horizon, b.horizon);
    EXPECT_EQ(a.seed, b.seed);
    EXPECT_EQ(a.order, b.order);
    EXPECT_EQ(a.lock.name, b.lock.name);
    EXPECT_EQ(a.lock.capacity, b.lock.capacity);
    EXPECT_EQ(a.lock.fencing_start, b.lock.fencing_start);
    EXPECT_EQ(a.resource, b.resource);
    ASSERT_EQ(a.candidates.size(), b.candidates.size());
    for (std::size_t i = 0; i < a.candidates.size(); ++i) {
        EXPECT_EQ(a.candidates[i].name, b.candidates[i].name);
        expect_same_options(a.candidates[i].options, b.candidates[i].options, a.candidates[i].name);
    }
    ASSERT_EQ(a.faults.size(), b.faults.size());
    for (std::size_t i = 0; i < a.faults.size(); ++i) {
        SCOPED_TRACE("fault " + std::to_string(i));
        EXPECT_EQ(a.faults[i].kind, b.faults[i].kind);
        EXPECT_EQ(a.faults[i].node, b.faults[i].node);
        EXPECT_EQ(a.faults[i].at, b.faults[i].at);
        EXPECT_EQ(a.faults[i].ticks, b.faults[i].ticks);
        EXPECT_EQ(a.faults[i].mode, b.faults[i].mode);
        EXPECT_EQ(a.faults[i].lose, b.faults[i].lose);
    }
    ASSERT_EQ(a.ops.size(), b.ops.size());
    for (std::size_t i = 0; i < a.ops.size(); ++i) {
        SCOPED_TRACE("op " + std::to_string(i));
        EXPECT_EQ(a.ops[i].at, b.ops[i].at);
        EXPECT_EQ(a.ops[i].actor, b.ops[i].actor);
        EXPECT_EQ(a.ops[i].op, b.ops[i].op);
        EXPECT_EQ(a.ops[i].token_of, b.ops[i].token_of);
    }
}

// ---------------------------------------------------------------- syntax

TEST(ScenarioSyntax, ErrorNamesLineAndColumnOfTheOffendingCharacter) {
    // A JSON syntax error is reported as "line:column" of the byte where parsing stopped, 1-based.
    const std::string text = "{\n  \"name\": \"x\",\n  \"horizon\": ,\n}\n";
    EXPECT_TRUE(rejected(text, "3:14", {"JSON syntax error", "unexpected ','"}));
}

TEST(ScenarioSyntax, LinesAreCountedThroughComments) {
    // Comments are skipped, but the lines they occupy still count for the position of a later error.
    const std::string text =
        "// A scenario with a mistake.\n"
        "/* a block comment\n"
        "   over two lines */\n"
        "{\n"
        "  \"name\": \"x\", // trailing comment\n"
        "  \"horizon\": ,\n"
        "}\n";
    EXPECT_TRUE(rejected(text, "6:14", {"JSON syntax error"}));
}

TEST(ScenarioSyntax, CommentsAreAllowedAnywhereBetweenTokens) {
    // Line and block comments are accepted before, inside and after the document.
    const std::string text =
        "// leading\n"
        "{ /* before a key */ \"name\": \"c\", // after a member\n"
        "  \"defaults\": { \"wait\": 1, /* inline */ \"lease\": 3, \"action\": 2 },\n"
        "  \"candidates\": [ { \"name\": \"a\" } /* after an item */ ]\n"
        "}\n"
        "// trailing\n";
    auto s = accepted(text);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->name, "c");
    EXPECT_EQ(s->candidates.at(0).options.lease, 3);
}

TEST(ScenarioSyntax, TrailingCommaIsASyntaxError) {
    // JSON with comments is still strict JSON: a trailing comma stops the parser at the closing brace.
    EXPECT_TRUE(rejected(std::string("{\"name\": \"x\",}"), "1:14", {"JSON syntax error", "'}'"}));
}

TEST(ScenarioSyntax, MissingCommaBetweenMembersPointsAtTheNextMember) {
    // A missing comma is reported on the line of the member that follows, within that member's key.
    auto r = parse("{\n  \"name\": \"x\"\n  \"horizon\": 3\n}\n");
    ASSERT_FALSE(r.ok());
    const std::string& where = r.error().where;
    ASSERT_EQ(where.rfind("3:", 0), 0u) << where;
    const int column = std::stoi(where.substr(2));
    EXPECT_GE(column, 3);
    EXPECT_LE(column, 11);
    EXPECT_NE(r.error().message.find("JSON syntax error"), std::string::npos);
}

TEST(ScenarioSyntax, UnterminatedBlockCommentIsASyntaxError) {
    // A block comment without "*/" is an error at the end of the input that mentions the comment.
    EXPECT_TRUE(rejected(std::string("{\"name\": \"x\", /* never closed\n"), "2:1", {"comment"}));
}

TEST(ScenarioSyntax, EmptyAndCommentOnlyFilesAreSyntaxErrors) {
    // A file with no JSON value in it is an "unexpected end of input" at its end.
    EXPECT_TRUE(rejected(std::string(""), "1:1", {"end of input"}));
    EXPECT_TRUE(rejected(std::string("// nothing but a comment\n"), "2:1", {"end of input"}));
}

TEST(ScenarioSyntax, SecondDocumentAfterTheFirstIsASyntaxError) {
    // Only one JSON value per file: anything after it is reported where it starts.
    EXPECT_TRUE(rejected(std::string("{\"name\": \"x\"}\n{\"name\": \"y\"}"), "2:1", {"end of input"}));
}

TEST(ScenarioSyntax, SingleQuotedStringsAreSyntaxErrors) {
    // Single quotes are not JSON; the column counts a tab as one character.
    EXPECT_TRUE(rejected(std::string("{\n\t\"name\": 'x'\n}"), "2:10", {"invalid literal"}));
}

TEST(ScenarioSyntax, WindowsLineEndingsCountOneLineEach) {
    // CRLF files get the same line numbers as LF files (a '\r' never starts a line).
    EXPECT_TRUE(rejected(std::string("{\r\n  \"name\": \"x\",\r\n  \"horizon\": ,\r\n}\r\n"), "3:14", {"unexpected ','"}));
}

TEST(ScenarioSyntax, ByteOrderMarkIsSkipped) {
    // A UTF-8 byte order mark, as some Windows editors write, does not make the file invalid.
    auto s = accepted(std::string("\xEF\xBB\xBF") + text_of(base()));
    ASSERT_TRUE(s);
    EXPECT_EQ(s->name, "t");
}

TEST(ScenarioSyntax, ErrorToStringJoinsFileAndPosition) {
    // to_string writes "file:line:col: message" for syntax and "file: /path: message" for meaning.
    auto syntax = parse("{\n  \"name\": \"x\",\n  \"horizon\": ,\n}\n");
    ASSERT_FALSE(syntax.ok());
    EXPECT_EQ(syntax.error().to_string().rfind("test.json:3:14: JSON syntax error", 0), 0u)
        << syntax.error().to_string();
    auto meaning = parse(text_of(with(base(), "/candidates/1/lease", "six")));
    ASSERT_FALSE(meaning.ok());
    EXPECT_EQ(meaning.error().to_string().rfind("test.json: /candidates/1/lease: expected an integer", 0), 0u)
        << meaning.error().to_string();
}

TEST(ScenarioSyntax, FileLargerThanTheByteLimitIsRefusedBeforeParsing) {
    // A file over scenario_bytes_max is refused as a whole, with no position.
    const std::string huge(static_cast<std::size_t>(limits::scenario_bytes_max) + 1, ' ');
    EXPECT_TRUE(rejected(huge, "", {"larger than", std::to_string(limits::scenario_bytes_max)}));
}

// ---------------------------------------------------------------- shape and required keys

TEST(ScenarioShape, TopLevelMustBeAnObject) {
    // An array, string or number at the top level is rejected at "/" and says what it found.
    EXPECT_TRUE(rejected(std::string("[1, 2]"), "/", {"expected an object", "an array"}));
    EXPECT_TRUE(rejected(std::string("\"expiry\""), "/", {"expected an object", "the string \"expiry\""}));
    EXPECT_TRUE(rejected(std::string("42"), "/", {"expected an object", "42"}));
    EXPECT_TRUE(rejected(std::string("null"), "/", {"expected an object", "null"}));
}

TEST(ScenarioShape, NameIsRequired) {
    // A scenario without "name" is rejected at "/".
    EXPECT_TRUE(rejected(without(base(), "/name"), "/", {"missing \"name\""}));
}

TEST(ScenarioShape, CandidatesAreRequired) {
    // A scenario without "candidates" is rejected at "/".
    EXPECT_TRUE(rejected(without(base(), "/candidates"), "/", {"missing \"candidates\""}));
}

TEST(ScenarioShape, CandidatesMustBeANonEmptyArray) {
    // An empty array, an object or a string for "candidates" is rejected at /candidates.
    EXPECT_TRUE(rejected(with(base(), "/candidates", json::array()), "/candidates", {"one or more", "an empty array"}));
    EXPECT_TRUE(rejected(with(base(), "/candidates", json::object()), "/candidates", {"one or more", "an object"}));
    EXPECT_TRUE(rejected(with(base(), "/candidates", "node-a"), "/candidates", {"one or more", "the string"}));
}

TEST(ScenarioShape, TooManyCandidatesIsALimitError) {
    // More than candidates_max candidates is rejected at /candidates before any is read.
    // The text is built by hand: a JSON document of this size is slow to build in a Debug build.
    std::string text = R"({"name":"t","defaults":{"wait":1,"lease":2,"action":1},"candidates":[)";
    for (std::int64_t i = 0; i <= limits::candidates_max; ++i)
        text += (i == 0 ? "" : ",") + std::string(R"({"name":"n)") + std::to_string(i) + "\"}";
    text += "]}";
    EXPECT_TRUE(rejected(text, "/candidates",
                         {"at most " + std::to_string(limits::candidates_max), std::to_string(limits::candidates_max + 1)}));
}

TEST(ScenarioShape, EachCandidateMustBeAnObjectWithAName) {
    // A candidate that is not an object, or has no name, is rejected at its index.
    EXPECT_TRUE(rejected(with(base(), "/candidates/1", "node-b"), "/candidates/1", {"expected an object"}));
    EXPECT_TRUE(rejected(with(base(), "/candidates/1", json{{"start", 3}}), "/candidates/1", {"missing \"name\""}));
}

TEST(ScenarioShape, WaitLeaseAndActionAreRequiredPerCandidate) {
    // Without wait, lease or action in the candidate or in defaults, the candidate's path names the missing key.
    for (const std::string key : {"wait", "lease", "action"}) {
        SCOPED_TRACE(key);
        EXPECT_TRUE(rejected(without(base(), "/defaults/" + key), "/candidates/0",
                             {"missing \"" + key + "\"", "defaults"}));
        // Given to the first candidate only: the second one still misses it.
        json doc = with(without(base(), "/defaults/" + key), "/candidates/0/" + key, 3);
        EXPECT_TRUE(rejected(doc, "/candidates/1", {"missing \"" + key + "\""}));
    }
}

TEST(ScenarioShape, DefaultsSatisfyRequiredKeys) {
    // wait, lease and action given only in defaults are enough for every candidate.
    auto s = accepted(base());
    ASSERT_TRUE(s);
    ASSERT_EQ(s->candidates.size(), 2u);
    for (const auto& c : s->candidates) {
        EXPECT_EQ(c.options.wait, 2);
        EXPECT_EQ(c.options.lease, 6);
        EXPECT_EQ(c.options.action, 4);
    }
}

TEST(ScenarioShape, RequiredKeysWithoutAnyDefaults) {
    // A scenario with no defaults object at all is valid when each candidate carries its own keys.
    auto s = accepted(std::string(
        R"({"name":"x","candidates":[{"name":"a","wait":0,"lease":1,"action":1}]})"));
    ASSERT_TRUE(s);
    EXPECT_EQ(s->candidates.at(0).options.wait, 0);
}

TEST(ScenarioShape, DuplicateCandidateNamesAreRejected) {
    // A repeated candidate name is rejected at the later one's name, naming the earlier index.
    json doc = base();
    doc["candidates"].push_back({{"name", "node-a"}});
    EXPECT_TRUE(rejected(doc, "/candidates/2/name", {"duplicate", "\"node-a\"", "/candidates/0"}));
}

// ---------------------------------------------------------------- types

TEST(ScenarioTypes, StringWhereAnIntegerIsExpected) {
    // A quoted number is a string, not an integer, and the message quotes what it found.
    EXPECT_TRUE(rejected(with(base(), "/candidates/1/lease", "6"), "/candidates/1/lease",
                         {range(1, limits::duration_max), "the string \"6\""}));
    EXPECT_TRUE(rejected(with(base(), "/horizon", "40"), "/horizon", {"expected an integer", "the string"}));
}

TEST(ScenarioTypes, FloatWhereAnIntegerIsExpected) {
    // Ticks are integers: 6.5 and even 6.0 are rejected as numbers that are not integers.
    EXPECT_TRUE(rejected(with(base(), "/defaults/lease", 6.5), "/defaults/lease", {"expected an integer", "6.5"}));
    EXPECT_TRUE(rejected(std::string(R"({"name":"x","defaults":{"wait":1,"lease":6.0,"action":2},)"
                                     R"("candidates":[{"name":"a"}]})"),
                         "/defaults/lease", {"expected an integer", "the number 6.0"}));
    EXPECT_TRUE(rejected(with(base(), "/tick_ms", 1e3), "/tick_ms", {"expected an integer"}));
}

TEST(ScenarioTypes, BoolAndNullWhereAnIntegerIsExpected) {
    // true and null are not integers either.
    EXPECT_TRUE(rejected(with(base(), "/candidates/0/start", true), "/candidates/0/start", {"expected an integer", "true"}));
    EXPECT_TRUE(rejected(with(base(), "/candidates/0/wait", nullptr), "/candidates/0/wait", {"expected an integer", "null"}));
}

TEST(ScenarioTypes, AutoExtendMustBeABool) {
    // auto_extend takes true or false only; 1 and "yes" are rejected.
    EXPECT_TRUE(rejected(with(base(), "/defaults/auto_extend", "yes"), "/defaults/auto_extend", {"expected true or false"}));
    EXPECT_TRUE(rejected(with(base(), "/candidates/1/auto_extend", 1), "/candidates/1/auto_extend",
                         {"expected true or false", "1"}));
}

TEST(ScenarioTypes, ObjectsMustBeObjects) {
    // title, summary, lock, resource and defaults must be objects.
    for (const std::string key : {"title", "summary", "lock", "resource", "defaults"}) {
        SCOPED_TRACE(key);
        EXPECT_TRUE(rejected(with(base(), "/" + key, "text"), "/" + key, {"expected an object", "the string"}));
    }
}

TEST(ScenarioTypes, FaultsAndOpsMustBeArraysOfObjects) {
    // faults and ops must be arrays, and every item an object.
    EXPECT_TRUE(rejected(with(base(), "/faults", json::object()), "/faults", {"expected an array of faults"}));
    EXPECT_TRUE(rejected(with(base(), "/ops", 3), "/ops", {"expected an array of ops"}));
    EXPECT_TRUE(rejected(with(base(), "/faults", json::array({"pause"})), "/faults/0", {"expected an object"}));
    EXPECT_TRUE(rejected(with(base(), "/ops", json::array({json::array()})), "/ops/0", {"expected an object", "an array"}));
}

TEST(ScenarioTypes, NamesAndTextsMustBeStrings) {
    // Names, actors and title texts must be strings.
    EXPECT_TRUE(rejected(with(base(), "/name", 7), "/name", {"expected a string"}));
    EXPECT_TRUE(rejected(with(base(), "/candidates/0/name", 7), "/candidates/0/name", {"expected a string"}));
    EXPECT_TRUE(rejected(with(base(), "/lock", json{{"name", false}}), "/lock/name", {"expected a string"}));
    EXPECT_TRUE(rejected(with(base(), "/title", json{{"en", 1}}), "/title/en", {"expected a string"}));
    json doc = with(base(), "/ops", json::array({{{"at", 1}, {"actor", 5}, {"op", "status"}}}));
    EXPECT_TRUE(rejected(doc, "/ops/0/actor", {"expected a string"}));
}

TEST(ScenarioTypes, EnumValuesMustBeStrings) {
    // An enum given as a number or bool lists the accepted words.
    EXPECT_TRUE(rejected(with(base(), "/order", 1), "/order", {"expected one of declared, shuffled"}));
    EXPECT_TRUE(rejected(with(base(), "/resource", json{{"mode", true}}), "/resource/mode",
                         {"expected one of off, check, validate"}));
}

TEST(ScenarioTypes, SeedIsANonNegativeIntegerUpTo64Bits) {
    // seed takes 0 … 2^64−1; negative, float, string and 2^64 (read as a float) are rejected.
    auto s = accepted(with(base(), "/seed", 18446744073709551615ull));
    ASSERT_TRUE(s);
    EXPECT_EQ(s->seed, 18446744073709551615ull);
    EXPECT_TRUE(rejected(with(base(), "/seed", -1), "/seed", {"expected an integer from 0 to 18446744073709551615"}));
    EXPECT_TRUE(rejected(with(base(), "/seed", 1.5), "/seed", {"expected an integer"}));
    EXPECT_TRUE(rejected(with(base(), "/seed", "1"), "/seed", {"expected an integer"}));
    EXPECT_TRUE(rejected(std::string(R"({"name":"x","seed":18446744073709551616,"defaults":{"wait":1,"lease":2,)"
                                     R"("action":1},"candidates":[{"name":"a"}]})"),
                         "/seed", {"expected an integer"}));
}

// ---------------------------------------------------------------- ranges

// A scenario with one fault and one op, so their numbers can be bent too.
json base_with_fault_and_op() {
    json doc = base();
    doc["faults"] = json::array({{{"kind", "pause"}, {"node", "node-a"}, {"at", 2}, {"ticks", 3}}});
    doc["ops"] = json::array({{{"at", 1}, {"actor", "auditor"}, {"op", "validate"}, {"token_of", "node-b"}}});
    return doc;
}

struct RangeCase {
    std::string pointer;  // where the bad value goes (and where it must be reported)
    json value;
    std::string words;  // in the message
};

void expect_range_cases(const std::vector<RangeCase>& cases) {
    for (const auto& c : cases) {
        SCOPED_TRACE(c.pointer + " = " + c.value.dump());
        EXPECT_TRUE(rejected(with(base_with_fault_and_op(), c.pointer, c.value), c.pointer, {c.words}));
    }
}

TEST(ScenarioRanges, ZeroIsRejectedWhereTheMinimumIsOne) {
    // Every number whose range starts at 1 rejects 0 (written as a plain "0", which JSON readers store as unsigned).
    const std::int64_t d = limits::duration_max;
    expect_range_cases({
        {"/tick_ms", 0, range(limits::tick_ms_min, limits::tick_ms_max)},
        {"/lock/capacity", 0, range(1, limits::capacity_max)},
        {"/lock/fencing_start", 0, range(1, limits::fencing_start_max)},
        {"/defaults/lease", 0, range(1, d)},
        {"/defaults/action", 0, range(1, d)},
        {"/defaults/retry_every", 0, range(1, d)},
        {"/defaults/extend_every", 0, range(1, d)},
        {"/defaults/runs", 0, range(1, limits::runs_max)},
        {"/defaults/every", 0, range(1, d)},
        // A default is checked on its own first; the bound by each candidate's action comes after.
        {"/defaults/fail_at", 0, range(1, d)},
        {"/faults/0/ticks", 0, range(1, d)},
    });
}

TEST(ScenarioRanges, WritesZeroIsReportedAtTheItem) {
    // A write at progress 0 is outside [1, action] and is reported at its own index.
    EXPECT_TRUE(rejected(with(base(), "/candidates/0/writes", json::array({0})), "/candidates/0/writes/0",
                         {range(1, 4)}));
}

TEST(ScenarioRanges, NegativeNumbersAreRejected) {
    // Numbers whose range starts at 0 reject -1, at the path where the value was written.
    const std::int64_t d = limits::duration_max;
    expect_range_cases({
        {"/horizon", -1, range(0, limits::horizon_max)},
        {"/tick_ms", -1, range(limits::tick_ms_min, limits::tick_ms_max)},
        {"/lock/capacity", -1, range(1, limits::capacity_max)},
        {"/defaults/wait", -1, range(0, d)},
        {"/defaults/lease", -6, range(1, d)},
        {"/defaults/min_lease", -1, range(0, d)},
        {"/defaults/hold_off", -1, range(0, d)},
        {"/candidates/1/start", -3, range(0, limits::horizon_max)},
        {"/faults/0/at", -1, range(0, limits::horizon_max)},
        {"/faults/0/ticks", -1, range(1, d)},
        {"/ops/0/at", -1, range(0, limits::horizon_max)},
    });
}

TEST(ScenarioRanges, NumbersAboveTheirNamedLimitsAreRejected) {
    // One past each named limit in limits.hpp is rejected, and the message names the limit.
    const std::int64_t d = limits::duration_max;
    expect_range_cases({
        {"/tick_ms", limits::tick_ms_max + 1, range(limits::tick_ms_min, limits::tick_ms_max)},
        {"/horizon", limits::horizon_max + 1, range(0, limits::horizon_max)},
        {"/lock/capacity", limits::capacity_max + 1, range(1, limits::capacity_max)},
        {"/lock/fencing_start", limits::fencing_start_max + 1, range(1, limits::fencing_start_max)},
        {"/defaults/wait", d + 1, range(0, d)},
        {"/defaults/lease", d + 1, range(1, d)},
        {"/defaults/action", d + 1, range(1, d)},
        {"/defaults/min_lease", d + 1, range(0, d)},
        {"/defaults/retry_every", d + 1, range(1, d)},
        {"/defaults/extend_every", d + 1, range(1, d)},
        {"/defaults/hold_off", d + 1, range(0, d)},
        {"/defaults/runs", limits::runs_max + 1, range(1, limits::runs_max)},
        {"/defaults/every", d + 1, range(1, d)},
        {"/candidates/0/start", limits::horizon_max + 1, range(0, limits::horizon_max)},
        {"/faults/0/at", limits::horizon_max + 1, range(0, limits::horizon_max)},
        {"/faults/0/ticks", d + 1, range(1, d)},
        {"/ops/0/at", limits::horizon_max + 1, range(0, limits::horizon_max)},
        // Too large for a signed 64-bit integer: still a range error, not a wrap-around.
        {"/defaults/lease", 18446744073709551615ull, range(1, d)},
    });
}

TEST(ScenarioRanges, NumbersAtTheirLimitsAreAccepted) {
    // The limits themselves are inside the ranges.
    json doc = base();
    doc["tick_ms"] = limits::tick_ms_max;
    doc["horizon"] = limits::horizon_max;
    doc["lock"] = {{"capacity", limits::capacity_max}, {"fencing_start", limits::fencing_start_max}};
    doc["defaults"] = {{"wait", limits::duration_max}, {"lease", limits::duration_max},
                       {"action", limits::duration_max}, {"runs", limits::runs_max}, {"every", limits::duration_max},
                       {"min_lease", limits::duration_max}};
    auto s = accepted(doc);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->lock.capacity, limits::capacity_max);
    EXPECT_EQ(s->candidates.at(0).options.runs, limits::runs_max);
    EXPECT_EQ(s->candidates.at(0).options.min_lease, limits::duration_max);
}

TEST(ScenarioRanges, SmallestMeaningfulValuesAreAccepted) {
    // wait 0 (one attempt), horizon 0 (only tick 0), lease 1 and action 1 are legal.
    json doc = base();
    doc["horizon"] = 0;
    doc["tick_ms"] = limits::tick_ms_min;
    doc["defaults"] = {{"wait", 0}, {"lease", 1}, {"action", 1}, {"start", 0}};
    auto s = accepted(doc);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->horizon, 0);
    EXPECT_EQ(s->candidates.at(0).options.wait, 0);
    EXPECT_EQ(s->candidates.at(0).options.extend_every, 0);  // the library's period
}

TEST(ScenarioRanges, TooManyWritesIsALimitError) {
    // More than writes_max writes for one candidate is rejected at the writes array.
    json writes = json::array();
    for (std::int64_t k = 1; k <= limits::writes_max + 1; ++k) writes.push_back(k);
    json doc = with(base(), "/defaults/action", limits::writes_max + 1);
    doc["candidates"][0]["writes"] = writes;
    EXPECT_TRUE(rejected(doc, "/candidates/0/writes", {"at most " + std::to_string(limits::writes_max)}));
    writes.erase(writes.end() - 1);
    doc["candidates"][0]["writes"] = writes;
    EXPECT_TRUE(accepted(doc));
}

TEST(ScenarioRanges, TooManyFaultsOrOpsIsALimitError) {
    // More than faults_max faults or ops_max ops is rejected at the array.
    const std::string head = R"({"name":"t","defaults":{"wait":1,"lease":2,"action":1},"candidates":[{"name":"a"}],)";
    std::string faults = head + R"("faults":[)";
    for (std::int64_t i = 0; i <= limits::faults_max; ++i)
        faults += (i == 0 ? "" : ",") + std::string(R"({"kind":"crash","node":"a","at":)") + std::to_string(i) + "}";
    faults += "]}";
    EXPECT_TRUE(rejected(faults, "/faults", {"at most " + std::to_string(limits::faults_max)}));
    std::string ops = head + R"("ops":[)";
    for (std::int64_t i = 0; i <= limits::ops_max; ++i)
        ops += (i == 0 ? "" : ",") + std::string(R"({"at":)") + std::to_string(i) + R"(,"actor":"x","op":"status"})";
    ops += "]}";
    EXPECT_TRUE(rejected(ops, "/ops", {"at most " + std::to_string(limits::ops_max)}));
}

TEST(ScenarioRanges, TextsAndNamesHaveLengthLimits) {
    // Names over name_length_max bytes and titles over text_length_max bytes are rejected.
    const std::string long_name(static_cast<std::size_t>(limits::name_length_max) + 1, 'n');
    EXPECT_TRUE(rejected(with(base(), "/name", long_name), "/name",
                         {"at most " + std::to_string(limits::name_length_max) + " bytes"}));
    EXPECT_TRUE(rejected(with(base(), "/candidates/1/name", long_name), "/candidates/1/name", {"at most"}));
    const std::string long_text(static_cast<std::size_t>(limits::text_length_max) + 1, 't');
    EXPECT_TRUE(rejected(with(base(), "/title", json{{"en", long_text}}), "/title/en",
                         {"at most " + std::to_string(limits::text_length_max) + " bytes"}));
    EXPECT_TRUE(rejected(with(base(), "/summary", json{{"ko", long_text}}), "/summary/ko", {"at most"}));
    EXPECT_TRUE(accepted(with(base(), "/name", long_name.substr(1))));
}

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
    doc["faults"] = json::array({{{"kind", "pause"}, {"node", "node-a"}, {"at", 3}, {"ticks", 2}, {"mode", "drop_replies"}}});
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
    doc["faults"] = json::array({{{"kind", "partition"}, {"node", "node-a"}, {"at", 2}, {"ticks", 3}},
                                 {{"kind", "failover"}, {"at", 3}}});
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
    json doc = with(base(), "/faults",
                    json::array({{{"kind", "partition"}, {"node", "node-b"}, {"at", 5}, {"ticks", 4}},
                                 {{"kind", "partition"}, {"node", "node-b"}, {"at", 1}, {"ticks", 5},
                                  {"mode", "drop_replies"}}}));
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

// ---------------------------------------------------------------- candidate rules

TEST(ScenarioCandidates, MinLeaseAboveLeaseIsReportedWhereMinLeaseCameFrom) {
    // min_lease > lease names the candidate's min_lease, or /defaults/min_lease when it came from there.
    EXPECT_TRUE(rejected(with(base(), "/candidates/1/min_lease", 7), "/candidates/1/min_lease",
                         {"min_lease 7", "lease 6"}));
    json doc = with(base(), "/defaults/min_lease", 5);
    doc["candidates"][1]["lease"] = 3;
    EXPECT_TRUE(rejected(doc, "/defaults/min_lease", {"min_lease 5", "lease 3"}));
    EXPECT_TRUE(accepted(with(base(), "/defaults/min_lease", 6)));
}

TEST(ScenarioCandidates, WritesMustBeStrictlyIncreasing) {
    // A write offset equal to or below the previous one is rejected at its index.
    EXPECT_TRUE(rejected(with(base(), "/candidates/0/writes", json::array({2, 2})), "/candidates/0/writes/1",
                         {"strictly increasing", "2 follows 2"}));
    EXPECT_TRUE(rejected(with(base(), "/candidates/1/writes", json::array({1, 3, 2})), "/candidates/1/writes/2",
                         {"strictly increasing", "2 follows 3"}));
}

TEST(ScenarioCandidates, WritesMustLieWithinTheAction) {
    // Offsets are in [1, action]; the range uses the candidate's final action.
    EXPECT_TRUE(rejected(with(base(), "/candidates/0/writes", json::array({1, 5})), "/candidates/0/writes/1",
                         {range(1, 4), "5"}));
    json doc = with(base(), "/defaults/writes", json::array({2, 4}));
    doc["candidates"][1]["action"] = 3;
    EXPECT_TRUE(rejected(doc, "/defaults/writes/1", {range(1, 3)}));
}

TEST(ScenarioCandidates, WritesMustBeAnArrayOfIntegers) {
    // writes given as a number or containing a non-integer is rejected.
    EXPECT_TRUE(rejected(with(base(), "/candidates/0/writes", 4), "/candidates/0/writes",
                         {"expected an array of progress offsets", "4"}));
    EXPECT_TRUE(rejected(with(base(), "/defaults/writes", json::array({1, "2"})), "/defaults/writes/1",
                         {"expected an integer"}));
}

TEST(ScenarioCandidates, EmptyWritesMeansNoWrites) {
    // writes: [] is legal and means the action never writes (not the default [action]).
    auto s = accepted(with(base(), "/candidates/0/writes", json::array()));
    ASSERT_TRUE(s);
    EXPECT_TRUE(s->candidates[0].options.writes.empty());
    EXPECT_TRUE(s->candidates[0].writes_given);
    EXPECT_EQ(s->candidates[1].options.writes, std::vector<leasescope::Tick>{4});
    EXPECT_FALSE(s->candidates[1].writes_given);
}

TEST(ScenarioCandidates, FailAtMustLieWithinTheAction) {
    // fail_at is in [1, action]; fail_at = action and writes after fail_at are legal.
    EXPECT_TRUE(rejected(with(base(), "/candidates/0/fail_at", 5), "/candidates/0/fail_at", {range(1, 4)}));
    json doc = with(base(), "/candidates/0/fail_at", 4);
    doc["candidates"][1]["fail_at"] = 1;
    doc["candidates"][1]["writes"] = json::array({2, 3});
    auto s = accepted(doc);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->candidates[0].options.fail_at, 4);
    EXPECT_EQ(s->candidates[1].options.fail_at, 1);
}

TEST(ScenarioCandidates, RunsAboveOneNeedEvery) {
    // runs > 1 without every is rejected at the candidate; every in defaults satisfies it; every with runs 1 is kept.
    EXPECT_TRUE(rejected(with(base(), "/candidates/1/runs", 3), "/candidates/1", {"missing \"every\""}));
    json doc = with(base(), "/defaults/every", 10);
    doc["candidates"][1]["runs"] = 3;
    auto s = accepted(doc);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->candidates[1].options.runs, 3);
    EXPECT_EQ(s->candidates[1].options.every, 10);
    EXPECT_EQ(s->candidates[0].options.runs, 1);
    EXPECT_EQ(s->candidates[0].options.every, 10);
}

TEST(ScenarioCandidates, AutoExtendNeedsExtendEveryBelowLease) {
    // With auto_extend, extend_every >= lease is rejected where extend_every came from.
    json doc = with(base(), "/defaults/auto_extend", true);
    EXPECT_TRUE(rejected(with(doc, "/candidates/0/extend_every", 6), "/candidates/0/extend_every",
                         {"extend_every (6) must be less than lease (6)"}));
    EXPECT_TRUE(rejected(with(doc, "/defaults/extend_every", 9), "/defaults/extend_every", {"less than lease"}));
    EXPECT_TRUE(accepted(with(doc, "/defaults/extend_every", 5)));
}

TEST(ScenarioCandidates, AutoExtendWithALeaseOfOneIsAccepted) {
    // Without extend_every the watchdog runs on the library's period in ms
    // (max(lease_ms / 3, 25)), which needs no relation to the lease in ticks.
    json doc = with(base(), "/defaults/auto_extend", true);
    auto s = accepted(with(doc, "/defaults/lease", 1));
    ASSERT_TRUE(s);
    EXPECT_EQ(s->candidates[0].options.extend_every, 0);
    EXPECT_EQ(Elector("x", s->candidates[0].options).watchdog_period_ms(), 25);
}

TEST(ScenarioCandidates, ExtendEveryWithoutAutoExtendIsIgnoredNotRejected) {
    // extend_every >= lease is legal when auto_extend is off: it is never used.
    auto s = accepted(with(base(), "/candidates/0/extend_every", 50));
    ASSERT_TRUE(s);
    EXPECT_EQ(s->candidates[0].options.extend_every, 50);
    EXPECT_TRUE(s->candidates[0].extend_every_given);
}

TEST(ScenarioCandidates, CandidateNamesMayHoldSpacesButNoControlCharacters) {
    // A candidate name is shown, not used in keys: spaces are fine, empty names and control characters are not.
    auto s = accepted(with(base(), "/candidates/0/name", "node a (primary)"));
    ASSERT_TRUE(s);
    EXPECT_EQ(s->candidates[0].name, "node a (primary)");
    EXPECT_TRUE(rejected(with(base(), "/candidates/0/name", "node\ta"), "/candidates/0/name", {"control characters"}));
    EXPECT_TRUE(rejected(with(base(), "/candidates/1/name", ""), "/candidates/1/name", {"non-empty"}));
}

TEST(ScenarioCandidates, BadDefaultIsReportedEvenWhenEveryCandidateOverridesIt) {
    // A value in defaults is checked for type and range even if no candidate ends up using it.
    json doc = with(base(), "/defaults/hold_off", "soon");
    doc["candidates"][0]["hold_off"] = 1;
    doc["candidates"][1]["hold_off"] = 2;
    EXPECT_TRUE(rejected(doc, "/defaults/hold_off", {"expected an integer"}));
    doc = with(base(), "/defaults/retry_every", -4);
    doc["candidates"][0]["retry_every"] = 1;
    doc["candidates"][1]["retry_every"] = 1;
    EXPECT_TRUE(rejected(doc, "/defaults/retry_every", {range(1, limits::duration_max)}));
}

// ---------------------------------------------------------------- names used as identifiers

TEST(ScenarioNames, ScenarioAndLockNamesAreRestrictedToSafeCharacters) {
    // Scenario and lock names become file names and Redis keys: letters, digits, '-', '_', '.', ':' only.
    for (const std::string bad : {"expiry takeover", "../etc/passwd", "a/b", "lock{1}", "naïve", "a*b"}) {
        SCOPED_TRACE(bad);
        EXPECT_TRUE(rejected(with(base(), "/name", bad), "/name", {"letters, digits", "'-', '_', '.' or ':'"}));
        EXPECT_TRUE(rejected(with(base(), "/lock", json{{"name", bad}}), "/lock/name", {"letters, digits"}));
    }
    EXPECT_TRUE(rejected(with(base(), "/name", ""), "/name", {"non-empty"}));
    EXPECT_TRUE(rejected(with(base(), "/lock", json{{"name", ""}}), "/lock/name", {"non-empty"}));
    json doc = with(base(), "/name", "Job_2.daily:v-1");
    doc["lock"] = {{"name", "billing:invoice-close.v2_x"}};
    auto s = accepted(doc);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->name, "Job_2.daily:v-1");
    EXPECT_EQ(s->lock.name, "billing:invoice-close.v2_x");
}

// ---------------------------------------------------------------- defaults

TEST(ScenarioDefaults, TopLevelDefaultsFollowTheDesign) {
    // Unwritten top-level keys take DESIGN §11's defaults.
    auto s = accepted(base());
    ASSERT_TRUE(s);
    EXPECT_EQ(s->tick_ms, 50);
    EXPECT_EQ(s->horizon, 1000);
    EXPECT_EQ(s->seed, 0u);
    EXPECT_EQ(s->order, sim::Order::declared);
    EXPECT_EQ(s->lock.name, "lock");
    EXPECT_EQ(s->lock.capacity, 1);
    EXPECT_EQ(s->lock.fencing_start, 1);
    EXPECT_EQ(s->resource, sim::ResourceMode::off);
    EXPECT_TRUE(s->faults.empty());
    EXPECT_TRUE(s->ops.empty());
    EXPECT_TRUE(s->title.en.empty());
    EXPECT_TRUE(s->summary.ko.empty());
}

TEST(ScenarioDefaults, CandidateDefaultsFollowTheDesign) {
    // Unwritten candidate keys: start 0, min_lease 0, no auto_extend, retry_every 1, writes [action], no fail_at, runs 1.
    auto s = accepted(base());
    ASSERT_TRUE(s);
    const ElectorOptions& o = s->candidates[0].options;
    EXPECT_EQ(o.start, 0);
    EXPECT_EQ(o.min_lease, 0);
    EXPECT_FALSE(o.auto_extend);
    EXPECT_EQ(o.retry_every, 1);
    EXPECT_EQ(o.writes, std::vector<leasescope::Tick>{4});
    EXPECT_EQ(o.fail_at, 0);
    EXPECT_EQ(o.hold_off, 0);
    EXPECT_EQ(o.runs, 1);
    EXPECT_EQ(o.every, 0);
    EXPECT_FALSE(s->candidates[0].extend_every_given);
    EXPECT_FALSE(s->candidates[0].writes_given);
    EXPECT_EQ(s->candidates[1].options.start, 3);
}

TEST(ScenarioDefaults, AbsentExtendEveryIsTheLibraryPeriodInMilliseconds) {
    // Without extend_every the period is max(floor(lease * tick_ms / 3), 25) ms,
    // from the candidate's own lease if it has one.
    json doc = with(base(), "/defaults/lease", 10);
    doc["candidates"][1]["lease"] = 2;
    doc["candidates"].push_back({{"name", "node-c"}, {"lease", 8}});
    doc["candidates"].push_back({{"name", "node-d"}, {"lease", 1}});
    auto s = accepted(doc);
    ASSERT_TRUE(s);
    std::vector<std::int64_t> periods;
    for (const auto& c : s->candidates) {
        EXPECT_EQ(c.options.extend_every, 0);
        EXPECT_EQ(c.options.tick_ms, 50);
        periods.push_back(Elector(c.name, c.options).watchdog_period_ms());
    }
    EXPECT_EQ(periods, (std::vector<std::int64_t>{166, 33, 133, 25}));
}

TEST(ScenarioLock, ElectorDefaultsFollowCapacity) {
    // "lock" (the single-leader elector) for capacity 1, "group" for more.
    auto one = accepted(base());
    ASSERT_TRUE(one);
    EXPECT_EQ(one->elector, ElectorKind::lock);
    EXPECT_EQ(one->candidates[0].options.elector, ElectorKind::lock);
    auto three = accepted(with(base(), "/lock/capacity", 3));
    ASSERT_TRUE(three);
    EXPECT_EQ(three->elector, ElectorKind::group);
    EXPECT_EQ(three->candidates[1].options.elector, ElectorKind::group);
}

TEST(ScenarioLock, GroupOfOneIsAllowedLockOfManyIsNot) {
    auto group_of_one = accepted(with(base(), "/lock/elector", "group"));
    ASSERT_TRUE(group_of_one);
    EXPECT_EQ(group_of_one->elector, ElectorKind::group);
    EXPECT_EQ(group_of_one->candidates[0].options.elector, ElectorKind::group);
    json many = with(base(), "/lock/capacity", 2);
    EXPECT_TRUE(rejected(with(many, "/lock/elector", "lock"), "/lock/elector",
                         {"needs capacity 1, found capacity 2", "use \"group\""}));
    EXPECT_TRUE(rejected(with(base(), "/lock/elector", "semaphore"), "/lock/elector", {"unknown value"}));
    EXPECT_TRUE(rejected(with(base(), "/lock/elector", 1), "/lock/elector", {"expected one of lock, group"}));
}

TEST(ScenarioLock, ElectorSurvivesWriteBack) {
    auto s = accepted(with(base(), "/lock/elector", "group"));
    ASSERT_TRUE(s);
    auto back = sim::parse_scenario(sim::scenario_to_json(*s), "back.json");
    ASSERT_TRUE(back.ok()) << back.error().to_string();
    EXPECT_EQ(back.value().elector, ElectorKind::group);
}

TEST(ScenarioDefaults, WritesDefaultToTheFinalAction) {
    // Without writes anywhere, a candidate writes once, at the end of its own action.
    json doc = with(base(), "/candidates/1/action", 9);
    auto s = accepted(doc);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->candidates[0].options.writes, std::vector<leasescope::Tick>{4});
    EXPECT_EQ(s->candidates[1].options.writes, std::vector<leasescope::Tick>{9});
}

TEST(ScenarioDefaults, CandidateKeysWinOverDefaults) {
    // Every key a candidate writes replaces the one in defaults; the rest still come from defaults.
    json doc = base();
    doc["defaults"] = {{"start", 1},  {"wait", 2},       {"lease", 6},     {"min_lease", 1}, {"auto_extend", true},
                       {"extend_every", 2}, {"retry_every", 2}, {"action", 4}, {"writes", json::array({1, 4})}, {"fail_at", 3},
                       {"hold_off", 1}, {"runs", 2},     {"every", 20}};
    doc["candidates"][1] = {{"name", "node-b"}, {"start", 5},  {"wait", 0},    {"lease", 9},     {"min_lease", 9},
                            {"auto_extend", false}, {"extend_every", 4}, {"retry_every", 3}, {"action", 7},
                            {"writes", json::array({7})}, {"fail_at", 6}, {"hold_off", 0}, {"runs", 1}, {"every", 3}};
    auto s = accepted(doc);
    ASSERT_TRUE(s);
    const ElectorOptions& a = s->candidates[0].options;
    EXPECT_EQ(a.start, 1);
    EXPECT_EQ(a.wait, 2);
    EXPECT_EQ(a.lease, 6);
    EXPECT_EQ(a.min_lease, 1);
    EXPECT_TRUE(a.auto_extend);
    EXPECT_EQ(a.extend_every, 2);
    EXPECT_EQ(a.retry_every, 2);
    EXPECT_EQ(a.action, 4);
    EXPECT_EQ(a.writes, (std::vector<leasescope::Tick>{1, 4}));
    EXPECT_EQ(a.fail_at, 3);
    EXPECT_EQ(a.hold_off, 1);
    EXPECT_EQ(a.runs, 2);
    EXPECT_EQ(a.every, 20);
    const ElectorOptions& b = s->candidates[1].options;
    EXPECT_EQ(b.start, 5);
    EXPECT_EQ(b.wait, 0);
    EXPECT_EQ(b.lease, 9);
    EXPECT_EQ(b.min_lease, 9);
    EXPECT_FALSE(b.auto_extend);
    EXPECT_EQ(b.extend_every, 4);
    EXPECT_EQ(b.retry_every, 3);
    EXPECT_EQ(b.action, 7);
    EXPECT_EQ(b.writes, std::vector<leasescope::Tick>{7});
    EXPECT_EQ(b.fail_at, 6);
    EXPECT_EQ(b.hold_off, 0);
    EXPECT_EQ(b.runs, 1);
    EXPECT_EQ(b.every, 3);
}

TEST(ScenarioDefaults, TitleAndSummaryTakeOptionalLanguages) {
    // title and summary are objects with optional "en" and "ko"; a missing language is empty.
    json doc = with(base(), "/title", json{{"ko", "만료"}});
    doc["summary"] = json::object();
    auto s = accepted(doc);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->title.ko, "만료");
    EXPECT_TRUE(s->title.en.empty());
    EXPECT_TRUE(s->summary.en.empty());
}

// ---------------------------------------------------------------- overrides

TEST(ScenarioOverrides, ParseOverrideSplitsAtTheFirstEquals) {
    // PATH=VALUE splits at the first '='; the value may be empty or hold more '='.
    auto a = sim::parse_override("defaults.lease=8");
    ASSERT_TRUE(a.ok());
    EXPECT_EQ(a.value().path, "defaults.lease");
    EXPECT_EQ(a.value().value, "8");
    auto b = sim::parse_override("title.en=a=b");
    ASSERT_TRUE(b.ok());
    EXPECT_EQ(b.value().path, "title.en");
    EXPECT_EQ(b.value().value, "a=b");
    auto c = sim::parse_override("name=");
    ASSERT_TRUE(c.ok());
    EXPECT_EQ(c.value().value, "");
}

TEST(ScenarioOverrides, MalformedOverrideIsRejected) {
    // Text without '=' or with nothing before it is an error naming the expected PATH=VALUE form.
    for (const std::string bad : {"defaults.lease", "=8", ""}) {
        SCOPED_TRACE(bad);
        auto r = sim::parse_override(bad);
        ASSERT_FALSE(r.ok());
        EXPECT_NE(r.error().find("expected PATH=VALUE"), std::string::npos) << r.error();
    }
}

TEST(ScenarioOverrides, DotAndSlashPathsBothWork) {
    // defaults.lease, candidates/1/start and a mix of both address the same kind of place.
    auto s = accepted(base(), sets({"defaults.lease=8", "candidates/1/start=9", "candidates.0/wait=5"}));
    ASSERT_TRUE(s);
    EXPECT_EQ(s->candidates[0].options.lease, 8);
    EXPECT_EQ(s->candidates[1].options.lease, 8);
    EXPECT_EQ(s->candidates[1].options.start, 9);
    EXPECT_EQ(s->candidates[0].options.wait, 5);
    EXPECT_EQ(s->candidates[1].options.wait, 2);
}

TEST(ScenarioOverrides, MissingObjectsAreCreated) {
    // --set defaults.x creates "defaults" (and lock.name creates "lock") when the file has none.
    auto s = accepted(
        std::string(R"({"name":"x","candidates":[{"name":"a","wait":1,"lease":6,"action":2}]})"),
        sets({"defaults.hold_off=3", "lock.name=jobs", "resource.mode=check"}));
    ASSERT_TRUE(s);
    EXPECT_EQ(s->candidates[0].options.hold_off, 3);
    EXPECT_EQ(s->lock.name, "jobs");
    EXPECT_EQ(s->resource, sim::ResourceMode::check);
}

TEST(ScenarioOverrides, ValuesAreJsonOrElsePlainStrings) {
    // A value that parses as JSON is JSON (numbers, bools, arrays, quoted strings); anything else is a plain string.
    auto s = accepted(base(), sets({"order=shuffled", "lock.name=\"quoted\"", "defaults.auto_extend=true",
                                    "candidates/0/writes=[1,3]", "title.en=Hello world", "seed=42"}));
    ASSERT_TRUE(s);
    EXPECT_EQ(s->order, sim::Order::shuffled);
    EXPECT_EQ(s->lock.name, "quoted");
    EXPECT_TRUE(s->candidates[0].options.auto_extend);
    EXPECT_EQ(s->candidates[0].options.writes, (std::vector<leasescope::Tick>{1, 3}));
    EXPECT_EQ(s->title.en, "Hello world");
    EXPECT_EQ(s->seed, 42u);
}

TEST(ScenarioOverrides, ANumberLookingValueIsANumber) {
    // lock.name=123 sets the number 123, which is not a name; quoting it ("123") sets the string.
    EXPECT_TRUE(rejected(base(), "/lock/name", {"expected a string"}, sets({"lock.name=123"})));
    auto s = accepted(base(), sets({"lock.name=\"123\""}));
    ASSERT_TRUE(s);
    EXPECT_EQ(s->lock.name, "123");
}

TEST(ScenarioOverrides, LaterOverridesWin) {
    // Overrides apply in the order given.
    auto s = accepted(base(), sets({"defaults.lease=8", "defaults.lease=9"}));
    ASSERT_TRUE(s);
    EXPECT_EQ(s->candidates[0].options.lease, 9);
}

TEST(ScenarioOverrides, IndexOutOfRangeIsAnOverrideError) {
    // An array index past the end is reported against the --set text, naming the array's size.
    EXPECT_TRUE(rejected(base(), "--set candidates/5/start=1", {"/candidates/5", "out of range", "2 items"},
                         sets({"candidates/5/start=1"})));
    EXPECT_TRUE(rejected(base(), "--set candidates.first.start=1", {"is an array", "expected an index"},
                         sets({"candidates.first.start=1"})));
}

TEST(ScenarioOverrides, PathThroughANonObjectIsAnOverrideError) {
    // A path that walks into a string or number is reported against the --set text.
    EXPECT_TRUE(rejected(base(), "--set name.x=1", {"/name is not an object or array"}, sets({"name.x=1"})));
    EXPECT_TRUE(rejected(base(), "--set defaults.lease.value=1", {"/defaults/lease is not an object"},
                         sets({"defaults.lease.value=1"})));
}

TEST(ScenarioOverrides, EmptyPathComponentIsAnOverrideError) {
    // Two separators in a row leave an empty component, which is rejected.
    EXPECT_TRUE(rejected(base(), "--set defaults..lease=1", {"empty path component"}, sets({"defaults..lease=1"})));
}

TEST(ScenarioOverrides, InvalidOverriddenValuesAreReportedByTheValidatorWithTheJsonPath) {
    // An override is checked like the file: a bad value or misspelt key is reported at its JSON path.
    EXPECT_TRUE(rejected(base(), "/defaults/lease", {range(1, limits::duration_max), "-1"}, sets({"defaults.lease=-1"})));
    EXPECT_TRUE(rejected(base(), "/defaults/lease", {"the string \"abc\""}, sets({"defaults.lease=abc"})));
    EXPECT_TRUE(rejected(base(), "/candidates/1/leese", {"did you mean \"lease\"?"}, sets({"candidates/1/leese=3"})));
    EXPECT_TRUE(rejected(base(), "/order", {"did you mean \"shuffled\"?"}, sets({"order=shufled"})));
}

TEST(ScenarioOverrides, OverrideErrorToStringNamesFileAndSetText) {
    // An override error prints as "file: --set PATH=VALUE: message".
    auto r = parse(text_of(base()), sets({"name.x=1"}));
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().to_string().rfind("test.json: --set name.x=1: ", 0), 0u) << r.error().to_string();
}

TEST(ScenarioOverrides, SyntaxErrorsComeBeforeOverrides) {
    // A file that is not JSON is reported with line:column even when overrides are given.
    EXPECT_TRUE(rejected(std::string("{\"name\": }"), "1:10", {"JSON syntax error"}, sets({"defaults.lease=8"})));
}

TEST(ScenarioOverrides, OverrideChangesTheSimulation) {
    // The preset expiry-takeover with a longer lease gives a different trace.
    const fs::path path = fs::path(LEASESCOPE_SOURCE_DIR) / "scenarios" / "expiry-takeover.json";
    auto plain = accepted(read_text(path));
    auto longer = accepted(read_text(path), sets({"defaults.lease=8"}));
    ASSERT_TRUE(plain);
    ASSERT_TRUE(longer);
    EXPECT_EQ(longer->candidates[0].options.lease, 8);
    EXPECT_NE(sim::simulate(*plain).summary.trace_sha256, sim::simulate(*longer).summary.trace_sha256);
}

// ---------------------------------------------------------------- presets and round trips

TEST(ScenarioPresets, EveryPresetParsesAndIsNamedLikeItsFile) {
    // Each scenarios/*.json is valid, its name is its file stem, and it has an English and a Korean title.
    const auto paths = preset_paths();
    ASSERT_FALSE(paths.empty());
    for (const auto& path : paths) {
        SCOPED_TRACE(path.string());
        auto result = sim::parse_scenario(read_text(path), path.string());
        ASSERT_TRUE(result.ok()) << result.error().to_string();
        const sim::Scenario& s = result.value();
        EXPECT_EQ(s.name, path.stem().string());
        EXPECT_FALSE(s.title.en.empty());
        EXPECT_FALSE(s.title.ko.empty());
        EXPECT_FALSE(s.summary.en.empty());
        EXPECT_FALSE(s.summary.ko.empty());
    }
}

TEST(ScenarioPresets, EveryPresetRoundTripsThroughScenarioToJson) {
    // scenario_to_json of a preset parses back to an equal scenario that simulates to the same trace hash.
    for (const auto& path : preset_paths()) {
        SCOPED_TRACE(path.string());
        auto first = sim::parse_scenario(read_text(path), path.string());
        ASSERT_TRUE(first.ok()) << first.error().to_string();
        const std::string written = sim::scenario_to_json(first.value());
        ASSERT_FALSE(written.empty());
        EXPECT_EQ(written.back(), '\n');
        auto second = sim::parse_scenario(written, "written.json");
        ASSERT_TRUE(second.ok()) << second.error().to_string() << "\n" << written;
        expect_same_scenario(first.value(), second.value());
        EXPECT_EQ(first.value().candidates.size(), second.value().candidates.size());
        for (std::size_t i = 0; i < first.value().candidates.size(); ++i) {
            EXPECT_EQ(first.value().candidates[i].writes_given, second.value().candidates[i].writes_given);
            EXPECT_EQ(first.value().candidates[i].extend_every_given, second.value().candidates[i].extend_every_given);
        }
        EXPECT_EQ(sim::simulate(first.value()).summary.trace_sha256, sim::simulate(second.value()).summary.trace_sha256);
        // Writing the re-read scenario gives the same bytes: the output is a fixed point.
        EXPECT_EQ(sim::scenario_to_json(second.value()), written);
    }
}

TEST(ScenarioPresets, HandMadeScenarioWithEveryFeatureRoundTrips) {
    // Every key, fault kind and op kind survives scenario_to_json, including empty writes and a title in one language.
    json doc = json::parse(R"({
      "name": "all-features", "title": { "en": "Everything" },
      "tick_ms": 20, "horizon": 60, "seed": 7, "order": "shuffled",
      "lock": { "name": "jobs:nightly", "capacity": 2, "fencing_start": 40 },
      "resource": { "mode": "validate" },
      "defaults": { "wait": 3, "lease": 9, "action": 6, "auto_extend": true },
      "candidates": [
        { "name": "a", "extend_every": 4, "writes": [], "hold_off": 2, "min_lease": 3 },
        { "name": "b", "start": 2, "runs": 3, "every": 15, "fail_at": 5, "writes": [1, 5, 6], "retry_every": 2 },
        { "name": "c", "auto_extend": false, "extend_every": 12, "every": 4 }
      ],
      "faults": [
        { "kind": "pause", "node": "a", "at": 2, "ticks": 4 },
        { "kind": "partition", "node": "b", "at": 3, "ticks": 2, "mode": "drop_replies" },
        { "kind": "partition", "node": "c", "at": 3, "ticks": 2 },
        { "kind": "failover", "at": 10, "lose": "all" },
        { "kind": "crash", "node": "c", "at": 20 }
      ],
      "ops": [
        { "at": 4, "actor": "proxy", "op": "status" },
        { "at": 5, "actor": "auditor", "op": "validate", "token_of": "b" }
      ]
    })");
    auto first = accepted(doc);
    ASSERT_TRUE(first);
    auto second = accepted(sim::scenario_to_json(*first));
    ASSERT_TRUE(second);
    expect_same_scenario(*first, *second);
    EXPECT_TRUE(second->candidates[0].options.writes.empty());
    EXPECT_EQ(second->title.en, "Everything");
    EXPECT_TRUE(second->title.ko.empty());
    EXPECT_TRUE(second->summary.en.empty());
    EXPECT_EQ(sim::simulate(*first).summary.trace_sha256, sim::simulate(*second).summary.trace_sha256);
}

}  // namespace

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
    EXPECT_TRUE(rejected(std::string(R"({"name":"t","resource":{"mdoe":"check"},"defaults":{"wait":1,"lease":2,"action":1},
                          "candidates":[{"name":"a"}]})"),
                         "/resource/mdoe", {"did you mean \"mode\"?"}));
    auto r = leasescope::sim::parse_scenario(R"({"name":"t","defaults":{"wait":1,"lease":2,"action":1},
        "candidates":[{"name":"a"}],"faults":[{"kind":"failover","node":"a","at":1}]})", "f.json");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().where, "/faults/0/node");
    EXPECT_EQ(r.error().message.find("did you mean"), std::string::npos) << r.error().message;
}

TEST(ScenarioOverrides, APathCopiedFromAnErrorWithItsLeadingSlashWorks) {
    // --set /defaults/lease=8 is the same as --set defaults/lease=8.
    const std::string text = R"({"name":"t","defaults":{"wait":1,"lease":2,"action":1},"candidates":[{"name":"a"}]})";
    auto r = leasescope::sim::parse_scenario(text, "f.json", {{"/defaults/lease", "8"}});
    ASSERT_TRUE(r.ok()) << r.error().to_string();
    EXPECT_EQ(r.value().candidates[0].options.lease, 8);
}

// Pins what a scenario file with bad syntax or a bad shape is told: the line
// and column of a syntax error, the limits checked before parsing, and the
// required keys (docs/scenario-format.md).
#include "support/scenario_test_helpers.hpp"

namespace {

using namespace scenario_test;

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
    EXPECT_TRUE(
        rejected(std::string("{\r\n  \"name\": \"x\",\r\n  \"horizon\": ,\r\n}\r\n"), "3:14", {"unexpected ','"}));
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
    EXPECT_EQ(meaning.error().to_string().rfind("test.json: /candidates/1/lease: \"six\" is not a duration", 0), 0u)
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
    // Appended piece by piece: GCC 12 at -O3 gives a false -Wstringop-overflow on a chain of +.
    for (std::int64_t i = 0; i <= limits::candidates_max; ++i)
        text.append(i == 0 ? "" : ",").append(R"({"name":"n)").append(std::to_string(i)).append("\"}");
    text += "]}";
    EXPECT_TRUE(
        rejected(text, "/candidates",
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
        EXPECT_TRUE(
            rejected(without(base(), "/defaults/" + key), "/candidates/0", {"missing \"" + key + "\"", "defaults"}));
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
    auto s = accepted(std::string(R"({"name":"x","candidates":[{"name":"a","wait":0,"lease":1,"action":1}]})"));
    ASSERT_TRUE(s);
    EXPECT_EQ(s->candidates.at(0).options.wait, 0);
}

TEST(ScenarioShape, DuplicateCandidateNamesAreRejected) {
    // A repeated candidate name is rejected at the later one's name, naming the earlier index.
    json doc = base();
    doc["candidates"].push_back({{"name", "node-a"}});
    EXPECT_TRUE(rejected(doc, "/candidates/2/name", {"duplicate", "\"node-a\"", "/candidates/0"}));
}

}  // namespace

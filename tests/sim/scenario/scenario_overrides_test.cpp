// Pins `--set path=value`: how the text splits, the path forms, values as
// JSON or plain strings, and the errors of a bad path or value.
#include "support/scenario_test_helpers.hpp"

namespace {

using namespace scenario_test;

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
    auto s = accepted(std::string(R"({"name":"x","candidates":[{"name":"a","wait":1,"lease":6,"action":2}]})"),
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
    EXPECT_TRUE(
        rejected(base(), "/defaults/lease", {range(1, limits::duration_max), "-1"}, sets({"defaults.lease=-1"})));
    EXPECT_TRUE(rejected(base(), "/defaults/lease", {"\"abc\" is not a duration"}, sets({"defaults.lease=abc"})));
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

TEST(ScenarioOverrides, APathCopiedFromAnErrorWithItsLeadingSlashWorks) {
    // --set /defaults/lease=8 is the same as --set defaults/lease=8.
    const std::string text = R"({"name":"t","defaults":{"wait":1,"lease":2,"action":1},"candidates":[{"name":"a"}]})";
    auto r = leasescope::sim::parse_scenario(text, "f.json", {{"/defaults/lease", "8"}});
    ASSERT_TRUE(r.ok()) << r.error().to_string();
    EXPECT_EQ(r.value().candidates[0].options.lease, 8);
}

}  // namespace

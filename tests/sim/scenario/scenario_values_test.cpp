// Pins the types and ranges of a scenario's values: an integer where one is
// expected, each number within its named limit, and the limits on lengths
// and counts (docs/scenario-format.md "Limits").
#include "support/scenario_test_helpers.hpp"

namespace {

using namespace scenario_test;

// ---------------------------------------------------------------- types

TEST(ScenarioTypes, StringWhereAnIntegerIsExpected) {
    // A quoted number is a string: a duration without a unit (model.md
    // §11.7), and the message quotes it and says how ticks are written.
    EXPECT_TRUE(rejected(with(base(), "/candidates/1/lease", "6"), "/candidates/1/lease",
                         {"\"6\" is not a duration", "it has no unit: write ticks as a number (6)"}));
    EXPECT_TRUE(rejected(with(base(), "/horizon", "40"), "/horizon", {"\"40\" is not a duration", "(40)"}));
}

TEST(ScenarioTypes, FloatWhereAnIntegerIsExpected) {
    // Ticks are integers: 6.5 and even 6.0 are rejected as numbers that are not integers.
    EXPECT_TRUE(rejected(with(base(), "/defaults/lease", 6.5), "/defaults/lease",
                         {"expected ticks (an integer from 1 to " + std::to_string(limits::duration_max) + ")", "6.5",
                          "ticks are whole numbers"}));
    EXPECT_TRUE(rejected(std::string(R"({"name":"x","defaults":{"wait":1,"lease":6.0,"action":2},)"
                                     R"("candidates":[{"name":"a"}]})"),
                         "/defaults/lease", {"expected ticks (an integer", "the number 6.0"}));
    EXPECT_TRUE(rejected(with(base(), "/tick_ms", 1e3), "/tick_ms", {"expected an integer"}));
}

TEST(ScenarioTypes, BoolAndNullWhereAnIntegerIsExpected) {
    // true and null are not integers either.
    EXPECT_TRUE(rejected(with(base(), "/candidates/0/start", true), "/candidates/0/start",
                         {"expected ticks (an integer", "true"}));
    EXPECT_TRUE(rejected(with(base(), "/candidates/0/wait", nullptr), "/candidates/0/wait",
                         {"expected ticks (an integer", "null"}));
}

TEST(ScenarioTypes, AutoExtendMustBeABool) {
    // auto_extend takes true or false only; 1 and "yes" are rejected.
    EXPECT_TRUE(
        rejected(with(base(), "/defaults/auto_extend", "yes"), "/defaults/auto_extend", {"expected true or false"}));
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
    EXPECT_TRUE(
        rejected(with(base(), "/ops", json::array({json::array()})), "/ops/0", {"expected an object", "an array"}));
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
    EXPECT_TRUE(
        rejected(with(base(), "/candidates/0/writes", json::array({0})), "/candidates/0/writes/0", {range(1, 4)}));
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
    doc["defaults"] = {{"wait", limits::duration_max},   {"lease", limits::duration_max},
                       {"action", limits::duration_max}, {"runs", limits::runs_max},
                       {"every", limits::duration_max},  {"min_lease", limits::duration_max}};
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
        faults.append(i == 0 ? "" : ",")
            .append(R"({"kind":"crash","node":"a","at":)")
            .append(std::to_string(i))
            .append("}");
    faults += "]}";
    EXPECT_TRUE(rejected(faults, "/faults", {"at most " + std::to_string(limits::faults_max)}));
    std::string ops = head + R"("ops":[)";
    for (std::int64_t i = 0; i <= limits::ops_max; ++i)
        ops.append(i == 0 ? "" : ",")
            .append(R"({"at":)")
            .append(std::to_string(i))
            .append(R"(,"actor":"x","op":"status"})");
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

}  // namespace

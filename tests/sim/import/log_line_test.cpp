// Application log lines (docs/model.md §19.6.1–2): what parse_log_line reads,
// each error it names ("FILE:LINE: …" with the key and what was expected),
// and the JSON Schema of a line.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include <utility>
#include <vector>

#include "leasescope/sim/import.hpp"

namespace {

using namespace leasescope::sim::import;

std::optional<LogEntry> parse(std::string_view text, std::string& error, std::int64_t shift_ms = 0) {
    return parse_log_line(text, "app.jsonl", 2, 3, shift_ms, error);
}

std::string error_of(std::string_view text) {
    std::string error;
    EXPECT_FALSE(parse(text, error).has_value()) << text;
    return error;
}

// 2026-12-04T09:15:02Z in seconds since the epoch.
constexpr std::int64_t t0_s = 1'796'375'702;

TEST(LogLine, ReadsEveryKeyWithSourceAndLine) {
    std::string error;
    auto e = parse(R"({"ts":"2026-12-04T09:15:02.123456Z","node":"node-a","event":"write","token":"t1",)"
                   R"("fencing":7,"resource":"db","value":"x=1"})",
                   error);
    ASSERT_TRUE(e.has_value()) << error;
    EXPECT_EQ(e->wall_us, t0_s * 1'000'000 + 123'456);
    EXPECT_EQ(e->node, "node-a");
    EXPECT_EQ(e->event, LogEvent::write);
    EXPECT_EQ(e->token, "t1");
    EXPECT_EQ(e->fencing, 7);
    EXPECT_EQ(e->resource, "db");
    EXPECT_EQ(e->value, "x=1");
    EXPECT_EQ(e->source, 2);
    EXPECT_EQ(e->line, 3);
}

TEST(LogLine, OffsetsFractionsEpochMillisecondsAndShiftGiveTheSameInstant) {
    const std::int64_t want = t0_s * 1'000'000 + 500'000;
    for (const char* text : {R"({"ts":"2026-12-04T18:15:02.5+09:00","node":"a","event":"lost"})",
                             R"({"ts":"2026-12-04T04:45:02.500-04:30","node":"a","event":"lost"})",
                             R"({"ts":"2026-12-04t09:15:02.5000009z","node":"a","event":"lost"})",
                             R"({"ts":1796375702500,"node":"a","event":"lost"})"}) {
        std::string error;
        auto e = parse(text, error);
        ASSERT_TRUE(e.has_value()) << text << ": " << error;
        EXPECT_EQ(e->wall_us, want) << text;
    }
    std::string error;
    auto shifted = parse(R"({"ts":1796375702500,"node":"a","event":"lost"})", error, -3'600'000);
    ASSERT_TRUE(shifted.has_value());
    EXPECT_EQ(shifted->wall_us, want - 3'600'000'000LL);
}

// Rule 19.6.5: a time is a window as wide as the digits it was written with.
TEST(LogLine, ATimesResolutionIsTheWidthItsDigitsGive) {
    const std::vector<std::pair<const char*, std::int64_t>> cases = {
        {R"({"ts":"2026-12-04T09:15:02.432Z","node":"a","event":"lost"})", 1000},
        {R"({"ts":"2026-12-04T09:15:02Z","node":"a","event":"lost"})", 1'000'000},
        {R"({"ts":"2026-12-04T09:15:02.5+09:00","node":"a","event":"lost"})", 100'000},
        {R"({"ts":"2026-12-04T09:15:02.432540Z","node":"a","event":"lost"})", 1},
        {R"({"ts":"2026-12-04T09:15:02.4325409Z","node":"a","event":"lost"})", 1},
        {R"({"ts":1796375702432,"node":"a","event":"lost"})", 1000}};
    for (const auto& [text, want] : cases) {
        std::string error;
        auto e = parse(text, error);
        ASSERT_TRUE(e.has_value()) << text << ": " << error;
        EXPECT_EQ(e->resolution_us, want) << text;
    }
}

TEST(LogLine, LeapDayAndEndOfMonthAreChecked) {
    std::string error;
    EXPECT_TRUE(parse(R"({"ts":"2024-02-29T00:00:00Z","node":"a","event":"lost"})", error).has_value());
    EXPECT_EQ(error_of(R"({"ts":"2026-02-29T00:00:00Z","node":"a","event":"lost"})"),
              "app.jsonl:3: \"ts\" is \"2026-02-29T00:00:00Z\": no such date or time of day");
    EXPECT_NE(error_of(R"({"ts":"2026-04-31T00:00:00Z","node":"a","event":"lost"})").find("no such date"),
              std::string::npos);
}

TEST(LogLine, AnEmptyLineIsSkippedWithoutAnError) {
    std::string error = "old";
    EXPECT_FALSE(parse("", error).has_value());
    EXPECT_EQ(error, "");
    EXPECT_FALSE(parse("  \r", error).has_value());
    EXPECT_EQ(error, "");
}

TEST(LogLine, ATimeWithoutAZoneIsRefusedWithTheFix) {
    EXPECT_EQ(error_of(R"({"ts":"2026-12-04T09:15:02.123","node":"a","event":"lost"})"),
              "app.jsonl:3: \"ts\" has no zone: add Z or an offset such as +09:00");
}

TEST(LogLine, EachBadValueNamesItsKeyAndWhatWasExpected) {
    EXPECT_EQ(error_of(R"({"ts":"yesterday","node":"a","event":"lost"})"),
              "app.jsonl:3: \"ts\" is \"yesterday\": expected an RFC 3339 time such as "
              "\"2026-12-04T09:15:02.123Z\" or epoch milliseconds");
    EXPECT_EQ(error_of(R"({"ts":1.5,"node":"a","event":"lost"})").substr(0, 28), "app.jsonl:3: \"ts\" is the num");
    EXPECT_EQ(error_of(R"({"ts":-1,"node":"a","event":"lost"})").substr(0, 24), "app.jsonl:3: \"ts\" is -1:");
    EXPECT_EQ(error_of(R"({"ts":"2026-12-04T09:15:02+9","node":"a","event":"lost"})"),
              "app.jsonl:3: \"ts\" \"2026-12-04T09:15:02+9\": the zone at column 20 should be Z or an offset "
              "such as +09:00");
    EXPECT_EQ(error_of(R"({"ts":0,"node":"","event":"lost"})"),
              "app.jsonl:3: \"node\" is the string \"\": expected a non-empty string");
    EXPECT_EQ(error_of(R"({"ts":0,"event":"lost"})"), "app.jsonl:3: \"node\" is missing: expected a string");
    EXPECT_EQ(error_of(R"({"node":"a","event":"lost"})").substr(0, 30), "app.jsonl:3: \"ts\" is missing: ");
    EXPECT_EQ(error_of(R"({"ts":0,"node":"a","event":"aquired"})"),
              "app.jsonl:3: \"event\" is \"aquired\"; did you mean \"acquired\"?");
    EXPECT_EQ(error_of(R"({"ts":0,"node":"a","event":"x"})"),
              "app.jsonl:3: \"event\" is \"x\"; expected one of: acquired, extended, lost, released, write, "
              "write_rejected, pause_start, pause_end, crashed");
    EXPECT_EQ(error_of(R"({"ts":0,"node":"a","event":"lost","fencing":-2})"),
              "app.jsonl:3: \"fencing\" is the number -2: expected an integer >= 0");
    EXPECT_EQ(error_of(R"({"ts":0,"node":"a","event":"lost","token":5})"),
              "app.jsonl:3: \"token\" is the number 5: expected a string");
}

TEST(LogLine, UnknownKeysAreRefusedWithDidYouMean) {
    EXPECT_EQ(error_of(R"({"ts":0,"nod":"a","event":"lost"})"),
              "app.jsonl:3: unknown key \"nod\"; did you mean \"node\"?");
    EXPECT_EQ(error_of(R"({"ts":0,"node":"a","event":"lost","level":"info"})"),
              "app.jsonl:3: unknown key \"level\"; expected one of: ts, node, event, token, fencing, resource, value");
}

TEST(LogLine, NotAnObjectIsNamed) {
    EXPECT_EQ(error_of(R"({"ts":0,)"), "app.jsonl:3: expected one JSON object on the line (not valid JSON)");
    EXPECT_EQ(error_of("[1]"), "app.jsonl:3: the line is an array: expected a JSON object");
}

TEST(LogLine, EveryEventWordReadsBack) {
    for (const LogEvent e :
         {LogEvent::acquired, LogEvent::extended, LogEvent::lost, LogEvent::released, LogEvent::write,
          LogEvent::write_rejected, LogEvent::pause_start, LogEvent::pause_end, LogEvent::crashed}) {
        std::string error;
        auto entry = parse(std::string(R"({"ts":0,"node":"a","event":")") + to_string(e) + "\"}", error);
        ASSERT_TRUE(entry.has_value()) << error;
        EXPECT_EQ(entry->event, e);
    }
}

TEST(LogSchema, IsDraft2020ObjectWithTheKeysAndWordsTheReaderTakes) {
    const auto schema = nlohmann::json::parse(log_schema_json());
    EXPECT_EQ(schema["$schema"], "https://json-schema.org/draft/2020-12/schema");
    EXPECT_EQ(schema["additionalProperties"], false);
    EXPECT_EQ(schema["required"], nlohmann::json::array({"ts", "node", "event"}));
    std::vector<std::string> keys;
    for (const auto& [k, v] : schema["properties"].items()) keys.push_back(k);
    EXPECT_EQ(keys.size(), 7u);
    const auto& words = schema["properties"]["event"]["enum"];
    ASSERT_EQ(words.size(), 9u);
    EXPECT_EQ(words[0], "acquired");
    EXPECT_EQ(words[8], "crashed");
}

}  // namespace

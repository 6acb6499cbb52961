// Every reader respects every limit of limits.hpp: an input at a limit is not
// refused for it, an input one past it is refused with an error that names
// the limit, and hostile inputs (deep, long, NUL bytes, wrapped numbers) are
// refused quickly. The writer's half is io_test.cpp.
#include <chrono>
#include <functional>
#include <string>

#include <fmt/format.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "leasescope/sim/limits.hpp"
#include "leasescope/sim/scenario.hpp"
#include "leasescope/sim/simulation.hpp"
#include "leasescope/sim/trace.hpp"

namespace leasescope {
namespace {

using nlohmann::json;

constexpr std::string_view small_scenario = R"({
  "name": "small", "horizon": 40,
  "defaults": { "wait": 2, "lease": 6, "action": 4 },
  "candidates": [ { "name": "a" }, { "name": "b", "start": 1 } ]
})";

std::string error_of(std::string_view text, const std::vector<sim::Override>& sets = {}) {
    auto parsed = sim::parse_scenario(text, "t.json", sets);
    return parsed.ok() ? std::string() : parsed.error().to_string();
}

// `[[[ ... ]]]` nested `depth` deep, as the value of "x" in an object.
std::string nested(std::int64_t depth) {
    return "{\"x\":" + std::string(static_cast<std::size_t>(depth - 1), '[') +
           std::string(static_cast<std::size_t>(depth - 1), ']') + "}";
}

TEST(Limits, DepthAtTheLimitIsParsedOnePastIsRefusedByName) {
    // The object is level 1, so depth - 1 arrays inside it make `depth`.
    const std::string at = error_of(nested(limits::json_depth_max));
    EXPECT_EQ(at.find("json_depth_max"), std::string::npos) << at;
    EXPECT_NE(at.find("unknown key"), std::string::npos) << at;  // it got as far as validation
    const std::string past = error_of(nested(limits::json_depth_max + 1));
    EXPECT_NE(past.find("json_depth_max"), std::string::npos) << past;
}

TEST(Limits, DeepNestingIsRefusedQuicklyAndInLittleMemory) {
    // 100,000 levels took 11 s and 11 GB before the structure pass.
    const std::string deep = std::string(100'000, '[') + std::string(100'000, ']');
    const auto start = std::chrono::steady_clock::now();
    const std::string error = error_of(deep);
    const auto took = std::chrono::steady_clock::now() - start;
    EXPECT_NE(error.find("json_depth_max"), std::string::npos) << error;
    EXPECT_LT(took, std::chrono::seconds(2));
    // An unclosed deep input is refused for its depth too, before its end.
    EXPECT_NE(error_of(std::string(1'000'000, '{')).find("expected"), std::string::npos);
    EXPECT_NE(error_of(std::string(1'000'000, '[')).find("json_depth_max"), std::string::npos);
}

TEST(Limits, StringsAndKeysAtTheLimitAreReadOnePastAreRefusedByName) {
    const auto max = static_cast<std::size_t>(limits::json_string_bytes_max);
    const std::string at_value = error_of("{\"name\": \"x\", \"order\": \"" + std::string(max, 'k') + "\"}");
    EXPECT_NE(at_value.find("unknown value"), std::string::npos) << at_value.substr(0, 300);
    const std::string past_value = error_of("{\"name\": \"x\", \"order\": \"" + std::string(max + 1, 'k') + "\"}");
    EXPECT_NE(past_value.find("json_string_bytes_max"), std::string::npos) << past_value.substr(0, 300);
    EXPECT_NE(past_value.find("/order"), std::string::npos) << past_value.substr(0, 300);

    const std::string at_key = error_of("{\"" + std::string(max, 'k') + "\": 1}");
    EXPECT_NE(at_key.find("unknown key"), std::string::npos) << at_key.substr(0, 300);
    const std::string past_key = error_of("{\"" + std::string(max + 1, 'k') + "\": 1}");
    EXPECT_NE(past_key.find("json_string_bytes_max"), std::string::npos) << past_key.substr(0, 300);
}

TEST(Limits, ErrorLinesQuoteAtMostAFewBytesOfWhatTheUserWrote) {
    // A 60 MB key made a 120 MB error line (and a 7 GB distance table).
    const auto max = static_cast<std::size_t>(limits::json_string_bytes_max);
    for (const std::string& text :
         {"{\"" + std::string(max, 'k') + "\": 1}", "{\"name\": \"x\", \"order\": \"" + std::string(max, 'q') + "\"}",
          "{\"" + std::string(max + 10, 'k') + "\": 1}",
          // nlohmann quotes the token it was reading in a syntax error
          "{\"name\": \"x\", \"order\": \"" + std::string(max, 'q') + "\x01\"}",
          "{\"name\": \"x\", \"order\": \"" + std::string(max, 'q')}) {
        const std::string error = error_of(text);
        EXPECT_FALSE(error.empty());
        EXPECT_LT(error.size(), 600u) << error.substr(0, 300);
    }
    // A close word still gets its suggestion.
    EXPECT_NE(error_of(R"({"name": "x", "order": "shufled"})").find("did you mean \"shuffled\""), std::string::npos);
}

TEST(Limits, KeysPerObjectAtTheLimitAreReadOnePastAreRefusedByName) {
    auto object_with = [](std::int64_t keys) {
        std::string text = "{\"name\": \"x\", \"title\": {";
        for (std::int64_t k = 0; k < keys; ++k) text += fmt::format("{}\"k{}\": 1", k == 0 ? "" : ",", k);
        return text + "}}";
    };
    const std::string at = error_of(object_with(limits::json_object_keys_max));
    EXPECT_NE(at.find("unknown key"), std::string::npos) << at;
    const std::string past = error_of(object_with(limits::json_object_keys_max + 1));
    EXPECT_NE(past.find("json_object_keys_max"), std::string::npos) << past;
    EXPECT_NE(past.find("/title"), std::string::npos) << past;
}

TEST(Limits, ValuesAtTheLimitAreReadOnePastAreRefusedByName) {
    // The object and its array are 2 values; the rest are zeros.
    auto with_values = [](std::int64_t values) {
        std::string text = "{\"x\": [";
        for (std::int64_t k = 0; k < values - 2; ++k) text += k == 0 ? "0" : ",0";
        return text + "]}";
    };
    const std::string at = error_of(with_values(limits::json_values_max));
    EXPECT_EQ(at.find("json_values_max"), std::string::npos) << at;
    EXPECT_NE(at.find("unknown key"), std::string::npos) << at;
    const std::string past = error_of(with_values(limits::json_values_max + 1));
    EXPECT_NE(past.find("json_values_max"), std::string::npos) << past;
}

TEST(Limits, FileSizeIsCheckedBeforeParsing) {
    const std::string huge(static_cast<std::size_t>(limits::scenario_bytes_max) + 1, ' ');
    const std::string error = error_of(huge);
    EXPECT_NE(error.find("scenario_bytes_max"), std::string::npos) << error;
}

TEST(Limits, ANulByteIsAnErrorNotTheEndOfTheFile) {
    // nlohmann's reader stops at a NUL: a valid object followed by a NUL and
    // anything at all was accepted.
    std::string text(small_scenario);
    text += std::string("\0 trailing garbage {", 20);
    const std::string error = error_of(text);
    EXPECT_NE(error.find("NUL"), std::string::npos) << error;
    EXPECT_NE(error.find("t.json:5:"), std::string::npos) << error;  // line and column of the NUL
    std::string inside(small_scenario);
    inside.insert(10, 1, '\0');
    EXPECT_NE(error_of(inside).find("NUL"), std::string::npos);
}

TEST(Limits, SetValuesFollowTheRulesOfFiles) {
    // Duplicate keys inside a --set value were accepted.
    const std::string dup = error_of(small_scenario, {{"lock", R"({"name": "a", "name": "b"})"}});
    EXPECT_NE(dup.find("appears twice"), std::string::npos) << dup;
    EXPECT_NE(dup.find("--set lock="), std::string::npos) << dup;
    const std::string nul = error_of(small_scenario, {{"lock.name", std::string("ab\0cd", 5)}});
    EXPECT_NE(nul.find("NUL"), std::string::npos) << nul;
    const std::string deep =
        error_of(small_scenario, {{"lock", std::string(100'000, '[') + std::string(100'000, ']')}});
    EXPECT_NE(deep.find("json_depth_max"), std::string::npos) << deep;
    // The path counts towards the depth.
    std::string long_path = "a";
    for (int k = 0; k < 100; ++k) long_path += ".a";
    const std::string path_error = error_of(small_scenario, {{long_path, "1"}});
    EXPECT_NE(path_error.find("json_depth_max"), std::string::npos) << path_error;
    const std::string long_plain = error_of(
        small_scenario, {{"lock.name", std::string(static_cast<std::size_t>(limits::json_string_bytes_max) + 1, 'x')}});
    EXPECT_NE(long_plain.find("json_string_bytes_max"), std::string::npos) << long_plain.substr(0, 300);
    EXPECT_LT(long_plain.size(), 600u);
}

TEST(Limits, RunsThatWouldNotFitInMemoryAreRefusedAtValidation) {
    // 1,000 candidates repeating every tick for 10^8 ticks: 10^9 runs grew
    // memory by 18 MB/s until the OOM killer.
    json doc = json::parse(small_scenario);
    doc["horizon"] = limits::horizon_max;
    doc["candidates"] = json::array();
    for (int i = 0; i < 1'000; ++i)
        doc["candidates"].push_back({{"name", fmt::format("n{}", i)}, {"runs", limits::runs_max}, {"every", 1}});
    const std::string error = error_of(doc.dump());
    EXPECT_NE(error.find("runs_total_max"), std::string::npos) << error;
    EXPECT_NE(error.find("1000000000"), std::string::npos) << error;

    // Exactly at the limit: accepted. 20 candidates of runs_max runs each.
    json at = json::parse(small_scenario);
    at["horizon"] = limits::horizon_max;
    at["candidates"] = json::array();
    const std::int64_t n = limits::runs_total_max / limits::runs_max;
    for (std::int64_t i = 0; i < n; ++i)
        at["candidates"].push_back({{"name", fmt::format("n{}", i)}, {"runs", limits::runs_max}, {"every", 10}});
    EXPECT_EQ(error_of(at.dump()), "");
    at["candidates"][0]["start"] = 0;
    at["candidates"].push_back({{"name", "one-more"}});
    EXPECT_NE(error_of(at.dump()).find("runs_total_max"), std::string::npos);

    // Runs that cannot start before the horizon do not count.
    json late = json::parse(small_scenario);
    late["horizon"] = 100;
    late["candidates"] = json::array();
    for (int i = 0; i < 100; ++i)
        late["candidates"].push_back({{"name", fmt::format("n{}", i)}, {"runs", limits::runs_max}, {"every", 1}});
    EXPECT_EQ(error_of(late.dump()), "");
}

// ---- traces ----

// The trace of a small scenario, with one event line changed by `edit` and the
// summary's count and hash made to match again, so the reader's semantic
// checks are what is tested.
std::string edited_trace(const std::function<void(nlohmann::ordered_json&)>& edit, std::size_t event = 1) {
    auto scenario = sim::parse_scenario(small_scenario, "t.json");
    EXPECT_TRUE(scenario.ok());
    const sim::Trace trace = sim::simulate(scenario.value());
    std::vector<std::string> events;
    for (const auto& e : trace.events) events.push_back(sim::event_line(e));
    auto j = nlohmann::ordered_json::parse(events.at(event));
    edit(j);
    events[event] = j.dump();
    sim::TraceHasher hasher;
    for (const auto& line : events) hasher.add_line(line);
    sim::TraceSummary summary = trace.summary;
    summary.trace_sha256 = hasher.hex();
    std::string out = sim::header_line(trace.header) + "\n";
    for (const auto& line : events) out += line + "\n";
    return out + sim::summary_line(summary) + "\n";
}

std::string trace_error(const std::string& text) {
    auto parsed = sim::parse_trace(text, "t.jsonl");
    return parsed.ok() ? std::string() : parsed.error().to_string();
}

TEST(Limits, TheTraceReaderRefusesNumbersOutsideEachFieldsRange) {
    EXPECT_EQ(trace_error(edited_trace([](auto&) {})), "");
    struct Case {
        const char* key;
        nlohmann::ordered_json value;
    };
    const Case cases[] = {
        {"slot", 4294967296ULL},           // read as slot 0 before
        {"slot", limits::capacity_max},    // beyond any lock
        {"slot", 1},                       // beyond this lock's one slot
        {"tick", 9223372036854775808ULL},  // read as a negative tick before
        {"tick", -1},
        {"tick", limits::horizon_max + 1},
        {"fencing", 0},
        {"fencing", -3},
        {"fencing", limits::fencing_max + 1},
        {"run", -1},
        {"run", 4294967296ULL},
        {"ttl", -1},
        {"seq", -1},
    };
    for (const Case& c : cases) {
        const std::string error = trace_error(edited_trace([&](auto& j) { j[c.key] = c.value; }));
        EXPECT_NE(error.find(std::string("\"") + c.key + "\""), std::string::npos)
            << c.key << " " << c.value << ": " << error;
        EXPECT_NE(error.find("t.jsonl:3:"), std::string::npos) << error;  // the line
    }
    // At the ends of the ranges the field is accepted (other checks may still apply).
    EXPECT_EQ(trace_error(edited_trace([](auto& j) { j["slot"] = 0; })), "");
    EXPECT_EQ(trace_error(edited_trace([](auto& j) { j["fencing"] = limits::fencing_max; })), "");
}

TEST(Limits, TheTraceReaderRefusesLongStringsDepthAndNulBytes) {
    const std::string long_token = trace_error(edited_trace(
        [](auto& j) { j["token"] = std::string(static_cast<std::size_t>(limits::token_length_max) + 1, 't'); }));
    EXPECT_NE(long_token.find("\"token\""), std::string::npos) << long_token;
    const std::string long_node = trace_error(edited_trace(
        [](auto& j) { j["node"] = std::string(static_cast<std::size_t>(limits::name_length_max) + 1, 'n'); }));
    EXPECT_NE(long_node.find("\"node\""), std::string::npos) << long_node;

    std::string text = edited_trace([](auto&) {});
    const std::size_t second = text.find('\n') + 1;
    std::string deep = text;
    deep.insert(second, std::string(100'000, '[') + std::string(100'000, ']') + "\n");
    EXPECT_NE(trace_error(deep).find("json_depth_max"), std::string::npos);
    std::string nul = text;
    nul[second + 5] = '\0';
    EXPECT_NE(trace_error(nul).find("NUL"), std::string::npos);
}

TEST(Limits, ATraceLineWithManyKeysIsRefusedBeforeItIsParsed) {
    // Found by the structure fuzzer: 40,813 keys in one line took over 10 s
    // (the reader's ordered objects look every key up one by one).
    std::string text = edited_trace([](auto&) {});
    const std::size_t second = text.find('\n') + 1;
    std::string line = "{";
    for (int k = 0; k < 40'813; ++k) line += (k ? ",\"" : "\"") + std::to_string(k) + "\":0";
    line += "}\n";
    text.insert(second, line);
    const auto start = std::chrono::steady_clock::now();
    const std::string error = trace_error(text);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
    EXPECT_NE(error.find("json_object_keys_max"), std::string::npos) << error;
    EXPECT_NE(error.find("t.jsonl:2:"), std::string::npos) << error;
}

TEST(Limits, ATraceLineWithTooManyValuesIsRefusedBeforeItIsParsed) {
    // Found by the structure fuzzer: an array of 8 million numbers in one
    // line made the reader ask for a 256 MB block.
    std::string text = edited_trace([](auto&) {});
    const std::size_t second = text.find('\n') + 1;
    std::string line = "[0";
    for (std::int64_t k = 1; k <= limits::json_values_max; ++k) line += ",0";
    text.insert(second, line + "]\n");
    const std::string error = trace_error(text);
    EXPECT_NE(error.find("json_values_max"), std::string::npos) << error.substr(0, 300);
    EXPECT_NE(error.find("t.jsonl:2:"), std::string::npos) << error.substr(0, 300);
}

TEST(Limits, TheTraceReaderChecksTheFileSizeFirst) {
    const std::string huge(static_cast<std::size_t>(limits::trace_bytes_max) + 1, '\n');
    EXPECT_NE(trace_error(huge).find("trace_bytes_max"), std::string::npos);
}

}  // namespace
}  // namespace leasescope

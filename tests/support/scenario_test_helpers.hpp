#pragma once
// What the scenario parser's tests share: a small valid scenario to bend, its
// edits, and checks that a text is rejected (where, with which words) or
// accepted, and that two scenarios are equal field by field.
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
#include "support/test_files.hpp"

namespace scenario_test {

namespace fs = std::filesystem;
namespace sim = leasescope::sim;
namespace limits = leasescope::limits;
using json = nlohmann::json;
using leasescope::Elector;
using leasescope::ElectorKind;
using leasescope::ElectorOptions;
using leasescope::FailoverLoss;

inline const std::string test_file = "test.json";

// A small valid scenario that the tests bend into bad ones.
inline json base() {
    return json::parse(R"({
      "name": "t",
      "defaults": { "wait": 2, "lease": 6, "action": 4 },
      "candidates": [ { "name": "node-a" }, { "name": "node-b", "start": 3 } ]
    })");
}

// `doc` with the value at JSON pointer `pointer` replaced (or added).
inline json with(json doc, const std::string& pointer, json value) {
    doc[json::json_pointer(pointer)] = std::move(value);
    return doc;
}

inline json without(json doc, const std::string& pointer) {
    const json::json_pointer p(pointer);
    doc[p.parent_pointer()].erase(p.back());
    return doc;
}

inline sim::ScenarioResult parse(const std::string& text, const std::vector<sim::Override>& overrides = {}) {
    return sim::parse_scenario(text, test_file, overrides);
}

// The document goes through its text, as a file would: numbers are re-read
// by the parser (a 0 written here comes back as an unsigned 0).
inline std::string text_of(const json& doc) { return doc.dump(); }

// Rejected with this `where` and a message containing every word.
inline ::testing::AssertionResult rejected(const std::string& text, const std::string& where,
                                           const std::vector<std::string>& words,
                                           const std::vector<sim::Override>& overrides = {}) {
    auto result = parse(text, overrides);
    if (result.ok())
        return ::testing::AssertionFailure() << "accepted; expected an error at " << where << " in\n" << text;
    const sim::ScenarioError& e = result.error();
    if (e.file != test_file) return ::testing::AssertionFailure() << "file is \"" << e.file << "\"";
    if (e.where != where)
        return ::testing::AssertionFailure()
               << "where is \"" << e.where << "\", expected \"" << where << "\"; message: " << e.message;
    for (const auto& word : words) {
        if (e.message.find(word) == std::string::npos)
            return ::testing::AssertionFailure() << "message \"" << e.message << "\" lacks \"" << word << "\"";
    }
    return ::testing::AssertionSuccess();
}

inline ::testing::AssertionResult rejected(const json& doc, const std::string& where,
                                           const std::vector<std::string>& words,
                                           const std::vector<sim::Override>& overrides = {}) {
    return rejected(text_of(doc), where, words, overrides);
}

// Parses a scenario that must be valid; a failure names the error.
inline std::optional<sim::Scenario> accepted(const std::string& text,
                                             const std::vector<sim::Override>& overrides = {}) {
    auto result = parse(text, overrides);
    if (!result.ok()) {
        ADD_FAILURE() << "rejected: " << result.error().to_string() << "\nin\n" << text;
        return std::nullopt;
    }
    return std::move(result).value();
}

inline std::optional<sim::Scenario> accepted(const json& doc, const std::vector<sim::Override>& overrides = {}) {
    return accepted(text_of(doc), overrides);
}

inline std::vector<sim::Override> sets(const std::vector<std::string>& texts) {
    std::vector<sim::Override> out;
    for (const auto& t : texts) {
        auto o = sim::parse_override(t);
        EXPECT_TRUE(o.ok()) << t;
        if (o.ok()) out.push_back(o.value());
    }
    return out;
}

inline std::string read_text(const fs::path& path) { return leasescope::test::read_all(path.string()); }

inline std::vector<fs::path> preset_paths() {
    std::vector<fs::path> paths;
    for (const auto& entry : fs::directory_iterator(fs::path(LEASESCOPE_SOURCE_DIR) / "scenarios")) {
        if (entry.path().extension() == ".json") paths.push_back(entry.path());
    }
    std::sort(paths.begin(), paths.end());
    return paths;
}

inline std::string range(std::int64_t lo, std::int64_t hi) {
    return "expected an integer from " + std::to_string(lo) + " to " + std::to_string(hi);
}

// Field by field: ElectorOptions has no operator==.
inline void expect_same_options(const ElectorOptions& a, const ElectorOptions& b, const std::string& who) {
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
    EXPECT_EQ(a.wait_replicas, b.wait_replicas);
    EXPECT_EQ(a.wait_timeout, b.wait_timeout);
}

inline void expect_same_scenario(const sim::Scenario& a, const sim::Scenario& b) {
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
    EXPECT_EQ(a.lock.replication, b.lock.replication);
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
        EXPECT_EQ(a.faults[i].server, b.faults[i].server);
        EXPECT_EQ(a.faults[i].lag, b.faults[i].lag);
        ASSERT_EQ(a.faults[i].old_primary.has_value(), b.faults[i].old_primary.has_value());
        if (a.faults[i].old_primary) {
            EXPECT_EQ(a.faults[i].old_primary->reachable_by, b.faults[i].old_primary->reachable_by);
            EXPECT_EQ(a.faults[i].old_primary->until, b.faults[i].old_primary->until);
        }
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

// A scenario with one fault and one op, so their numbers can be bent too.
inline json base_with_fault_and_op() {
    json doc = base();
    doc["faults"] = json::array({{{"kind", "pause"}, {"node", "node-a"}, {"at", 2}, {"ticks", 3}}});
    doc["ops"] = json::array({{{"at", 1}, {"actor", "auditor"}, {"op", "validate"}, {"token_of", "node-b"}}});
    return doc;
}

}  // namespace scenario_test

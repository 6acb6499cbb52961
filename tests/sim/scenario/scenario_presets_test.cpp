// Pins the presets and the write-back: every preset parses and is named like
// its file, and scenario_to_json reads back to an equal scenario with the
// same trace hash.
#include "support/scenario_test_helpers.hpp"

namespace {

using namespace scenario_test;

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
        EXPECT_EQ(sim::simulate(first.value()).summary.trace_sha256,
                  sim::simulate(second.value()).summary.trace_sha256);
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

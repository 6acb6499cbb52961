// Real captures of redis-server 7.0.15 (tests/data/import/), read by the
// CaptureReader and built into a history (docs/model.md §19.5–§19.8): the
// trace reads back, and the live run of a preset gives the simulated run's
// acquisitions, fencing numbers and expiries in the same order.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "capture_support.hpp"
#include "leasescope/sim/scenario.hpp"
#include "leasescope/sim/simulation.hpp"

namespace leasescope::sim::import {
namespace {

std::vector<std::string> real_lines(const std::string& name) {
    std::ifstream in(std::string(LEASESCOPE_SOURCE_DIR) + "/tests/data/import/" + name);
    EXPECT_TRUE(in) << name;
    std::vector<std::string> lines;
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    return lines;
}

std::optional<ImportedHistory> history_of(const std::string& name, ImportOptions options, std::string& error) {
    const test::Read r = test::read_capture({{name, real_lines(name)}}, options);
    if (!r.observations) {
        error = r.error;
        return std::nullopt;
    }
    return build_history(*r.observations, r.report, {}, {}, options, error);
}

std::vector<std::string> acquisitions(const Trace& t) {
    std::vector<std::string> out;
    for (const Event& e : t.events) {
        if (e.op == EventOp::expire) out.push_back(e.node + " expired");
        if (e.op != EventOp::acquire || e.outcome != Outcome::acquired) continue;
        out.push_back(e.node + " acquired " + std::to_string(e.fencing.value_or(-1)));
    }
    return out;
}

TEST(HistoryReal, TwoRedisCliClientsBecomeATraceThatReadsBack) {
    std::string error;
    auto h = history_of("plain-7.0.15.txt", {}, error);
    ASSERT_TRUE(h) << error;
    const Trace& t = h->trace;
    EXPECT_EQ(t.header.candidates, (std::vector<std::string>{"node-a", "node-b"}));
    EXPECT_EQ(t.header.lock, "job:lock");
    auto back = parse_trace(trace_to_jsonl(t), "plain.jsonl");
    ASSERT_TRUE(back.ok()) << back.error().to_string();
    EXPECT_EQ(back.value().events, t.events);
    // node-a, node-b and node-a again: each acquisition a run.
    ASSERT_EQ(t.summary.results.size(), 3u);
    EXPECT_EQ(t.summary.results[0].result, "elected");
    EXPECT_EQ(t.summary.results[2].node, "node-b");
    EXPECT_TRUE(parse_scenario(h->draft_json, "draft.json").ok()) << h->draft_json;
}

TEST(HistoryReal, ALiveRunOfAPresetImportedHasTheSimulatedAcquisitions) {
    ImportOptions options;
    options.lock = "leasescope:{invoice-close}:slot:0";
    options.tick_ms = 50;
    std::string error;
    auto h = history_of("live-expiry-takeover-7.0.15.txt", options, error);
    ASSERT_TRUE(h) << error;
    auto back = parse_trace(trace_to_jsonl(h->trace), "live.jsonl");
    ASSERT_TRUE(back.ok()) << back.error().to_string();
    std::ifstream in(std::string(LEASESCOPE_SOURCE_DIR) + "/scenarios/expiry-takeover.json");
    std::stringstream text;
    text << in.rdbuf();
    auto scenario = parse_scenario(text.str(), "expiry-takeover.json");
    ASSERT_TRUE(scenario.ok());
    const Trace sim = simulate(scenario.value());
    EXPECT_EQ(acquisitions(h->trace), acquisitions(sim));
    // Beliefs are inferred: node-a leads from tick 0 until its release,
    // node-b from its acquisition: one overlap, as the simulation's.
    EXPECT_EQ(h->trace.summary.violations.overlap, sim.summary.violations.overlap);
}

}  // namespace
}  // namespace leasescope::sim::import

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

#include "support/capture_generator.hpp"

namespace leasescope::sim::import {
namespace {

// Generated captures (both lock styles, many seeds), read by the CaptureReader
// and built into a history: the trace reads back with the trace reader, its
// draft parses, and building it twice gives the same bytes.
TEST(HistoryReal, GeneratedCapturesBecomeTracesThatReadBack) {
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
        capture_gen::CaptureSpec spec;
        spec.seed = seed;
        spec.lines = 2'000;
        spec.lock_calls = 60;
        spec.style = seed % 2 == 0 ? capture_gen::LockStyle::plain : capture_gen::LockStyle::store;
        std::vector<std::string> lines;
        for (auto& l : capture_gen::generate_capture(spec)) lines.push_back(std::move(l.text));
        const test::Read r = test::read_capture({{"gen.txt", lines}});
        ASSERT_TRUE(r.observations) << "seed " << seed << ": " << r.error;
        std::string error;
        auto a = build_history(*r.observations, r.report, {}, {}, {}, error);
        ASSERT_TRUE(a) << "seed " << seed << ": " << error;
        auto back = parse_trace(trace_to_jsonl(a->trace), "gen.jsonl");
        ASSERT_TRUE(back.ok()) << "seed " << seed << ": " << back.error().to_string();
        EXPECT_TRUE(parse_scenario(a->draft_json, "draft.json").ok()) << "seed " << seed;
        auto b = build_history(*r.observations, r.report, {}, {}, {}, error);
        ASSERT_TRUE(b);
        EXPECT_EQ(trace_to_jsonl(b->trace), trace_to_jsonl(a->trace)) << "seed " << seed;
    }
}

}  // namespace
}  // namespace leasescope::sim::import

#pragma once
// The fuzzers' entry points, shared by the libFuzzer targets (tests/fuzz/*.cpp) and
// by the regression test that replays every checked-in input
// (tests/fuzz_regression_test.cpp). Each takes arbitrary bytes, must never
// crash, hang or trip a sanitizer, and checks a few properties that hold for
// every input (a violated property aborts through LS_ASSERT, which libFuzzer
// reports as a crash with the input).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "leasescope/engine/assert.hpp"
#include "leasescope/sim/scenario.hpp"
#include "leasescope/sim/simulation.hpp"
#include "leasescope/sim/trace.hpp"

namespace leasescope::fuzz {

// Fuzz inputs can name horizons of 100,000,000 ticks and 100,000 candidates;
// the simulator must stay fast on those, but one fuzz iteration must stay
// short, so the simulation stops after this tick.
inline constexpr Tick simulate_until = 200;
// Scenarios bigger than this are parsed but not simulated (time, not safety).
inline constexpr std::size_t simulate_candidates_max = 64;

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
    return {reinterpret_cast<const char*>(data), size};
}

// The summary line as nlohmann's dump() writes the ordered_json built in
// DESIGN's key order: the definition that sim::summary_line (written by hand,
// for speed) must match byte for byte.
inline std::string summary_line_reference(const sim::TraceSummary& s) {
    nlohmann::ordered_json j;
    j["type"] = "summary";
    j["end_tick"] = s.end_tick;
    nlohmann::ordered_json results = nlohmann::ordered_json::array();
    for (const sim::RunSummary& r : s.results) {
        nlohmann::ordered_json item;
        item["node"] = r.node;
        item["run"] = r.run;
        item["result"] = r.result;
        item["fencing"] = r.fencing ? nlohmann::ordered_json(*r.fencing) : nlohmann::ordered_json(nullptr);
        results.push_back(std::move(item));
    }
    j["results"] = std::move(results);
    nlohmann::ordered_json v;
    v["overlap"] = s.violations.overlap;
    v["unsafe_write"] = s.violations.unsafe_write;
    v["fencing_regressed"] = s.violations.fencing_regressed;
    j["violations"] = std::move(v);
    j["events"] = s.events;
    j["trace_sha256"] = s.trace_sha256;
    return j.dump();
}

// A scenario that validated must be safe to simulate (the electors' and the
// store's assertions hold) and must survive a write-back: scenario_to_json
// parses back to a scenario that gives the same trace.
inline void check_valid_scenario(const sim::Scenario& scenario) {
    const std::string written = sim::scenario_to_json(scenario);
    auto again = sim::parse_scenario(written, "<written back>");
    LS_ASSERT(again.ok());
    if (scenario.candidates.size() > simulate_candidates_max) return;
    const sim::Trace first = sim::simulate(scenario, simulate_until);
    LS_ASSERT(sim::summary_line(first.summary) == summary_line_reference(first.summary));
    const sim::Trace second = sim::simulate(again.value(), simulate_until);
    LS_ASSERT(first.summary.trace_sha256 == second.summary.trace_sha256);
    // The canonical trace reads back.
    LS_ASSERT(sim::parse_trace(sim::trace_to_jsonl(first), "<fuzz trace>").ok());
}

// sim::parse_scenario on arbitrary bytes (the file a user opens).
inline int scenario_one_input(const std::uint8_t* data, std::size_t size) {
    auto parsed = sim::parse_scenario(as_text(data, size), "<fuzz>");
    if (parsed.ok()) {
        check_valid_scenario(parsed.value());
    } else {
        LS_ASSERT(!parsed.error().message.empty());
        (void)parsed.error().to_string();
    }
    return 0;
}

// sim::parse_trace on arbitrary bytes (a trace file given to diff or check).
inline int trace_one_input(const std::uint8_t* data, std::size_t size) {
    auto parsed = sim::parse_trace(as_text(data, size), "<fuzz>");
    if (!parsed.ok()) {
        (void)parsed.error().to_string();
        return 0;
    }
    const sim::Trace& trace = parsed.value();
    LS_ASSERT(sim::summary_line(trace.summary) == summary_line_reference(trace.summary));
    // What was accepted writes back and reads back to the same trace.
    auto again = sim::parse_trace(sim::trace_to_jsonl(trace), "<written back>");
    LS_ASSERT(again.ok());
    LS_ASSERT(!sim::first_divergence(trace, again.value()).has_value());
    (void)sim::trace_to_text(trace);
    return 0;
}

// The scenario the override fuzzer edits when its input brings none: small,
// with every section, so paths like faults/0/ticks or ops/0/token_of exist.
inline constexpr std::string_view override_base_scenario = R"({
  "name": "override-base", "horizon": 40, "seed": 3, "order": "shuffled",
  "lock": { "name": "base", "capacity": 2, "fencing_start": 5 },
  "resource": { "mode": "check" },
  "defaults": { "wait": 2, "lease": 6, "min_lease": 1, "action": 5, "auto_extend": true },
  "candidates": [ { "name": "a", "start": 0, "writes": [2, 5] },
                  { "name": "b", "start": 1, "runs": 3, "every": 7 },
                  { "name": "c", "start": 2, "fail_at": 3, "hold_off": 2 } ],
  "faults": [ { "kind": "pause", "node": "a", "at": 3, "ticks": 4 },
              { "kind": "partition", "node": "b", "at": 5, "ticks": 2, "mode": "drop_replies" },
              { "kind": "crash", "node": "c", "at": 20 },
              { "kind": "failover", "at": 12, "lose": "all" } ],
  "ops": [ { "at": 7, "actor": "auditor", "op": "validate", "token_of": "a" },
           { "at": 8, "actor": "auditor", "op": "status" } ]
})";

// `--set` overrides: each input line is one PATH=VALUE text given to
// sim::parse_override; the accepted ones are applied to the base scenario. A
// line "---" ends the overrides and the rest is the scenario text instead.
inline int override_one_input(const std::uint8_t* data, std::size_t size) {
    std::string_view text = as_text(data, size);
    std::string_view scenario = override_base_scenario;
    std::vector<sim::Override> overrides;
    while (!text.empty()) {
        const std::size_t end = text.find('\n');
        const std::string_view line = text.substr(0, end);
        text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
        if (line == "---") {
            scenario = text;
            break;
        }
        auto o = sim::parse_override(line);
        if (o.ok()) overrides.push_back(std::move(o).value());
        if (overrides.size() >= 16) break;
    }
    auto parsed = sim::parse_scenario(scenario, "<fuzz>", overrides);
    if (parsed.ok()) {
        check_valid_scenario(parsed.value());
    } else {
        (void)parsed.error().to_string();
    }
    return 0;
}

}  // namespace leasescope::fuzz

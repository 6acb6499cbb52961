#pragma once
// GoogleTest assertions for projects that keep LeaseScope scenarios and their
// golden traces next to their code. Header-only: include it in a test that
// links GTest and LeaseScope::sim.
//
//   LEASESCOPE_EXPECT_MATCHES_GOLDEN("scenarios/my-lock.json", "golden/my-lock.jsonl");
//
// On a difference the failure names the first divergent event with a few
// events of context, as `leasescope-cli diff` and `check` do (A = golden,
// B = now). With LEASESCOPE_UPDATE_GOLDEN=1 in the environment the golden
// file is written instead (review it with git diff).
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "leasescope/sim/scenario.hpp"
#include "leasescope/sim/simulation.hpp"
#include "leasescope/sim/trace.hpp"

namespace leasescope::testing {

namespace detail {
inline bool read_whole(const std::string& path, std::string& out) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    std::ostringstream buffer;
    buffer << in.rdbuf();
    out = std::move(buffer).str();
    return !in.bad();
}
}  // namespace detail

// A simulated trace against a golden JSONL file.
inline ::testing::AssertionResult trace_matches_golden(const sim::Trace& trace, const std::string& golden_path) {
    if (const char* update = std::getenv("LEASESCOPE_UPDATE_GOLDEN"); update != nullptr && std::string(update) == "1") {
        std::ofstream out(golden_path, std::ios::binary | std::ios::trunc);
        out << sim::trace_to_jsonl(trace);
        if (!out) return ::testing::AssertionFailure() << "cannot write the golden trace " << golden_path;
        return ::testing::AssertionSuccess() << "updated " << golden_path;
    }
    std::string text;
    if (!detail::read_whole(golden_path, text))
        return ::testing::AssertionFailure()
               << "no golden trace at " << golden_path << "; create it with LEASESCOPE_UPDATE_GOLDEN=1 and review it";
    auto golden = sim::parse_trace(text, golden_path);
    if (!golden.ok()) return ::testing::AssertionFailure() << golden.error().to_string();
    if (auto d = sim::first_divergence(golden.value(), trace)) {
        return ::testing::AssertionFailure()
               << trace.header.scenario << " differs from " << golden_path << " (A = golden, B = now)\n"
               << d->description;
    }
    return ::testing::AssertionSuccess() << trace.summary.events << " events, sha256 " << trace.summary.trace_sha256;
}

// A scenario file, simulated, against a golden JSONL file.
inline ::testing::AssertionResult scenario_matches_golden(const std::string& scenario_path,
                                                          const std::string& golden_path) {
    std::string text;
    if (!detail::read_whole(scenario_path, text))
        return ::testing::AssertionFailure() << "cannot read the scenario " << scenario_path;
    auto scenario = sim::parse_scenario(text, scenario_path);
    if (!scenario.ok()) return ::testing::AssertionFailure() << scenario.error().to_string();
    return trace_matches_golden(sim::simulate(scenario.value()), golden_path);
}

}  // namespace leasescope::testing

#define LEASESCOPE_EXPECT_MATCHES_GOLDEN(scenario_path, golden_path) \
    EXPECT_TRUE(::leasescope::testing::scenario_matches_golden((scenario_path), (golden_path)))
#define LEASESCOPE_ASSERT_MATCHES_GOLDEN(scenario_path, golden_path) \
    ASSERT_TRUE(::leasescope::testing::scenario_matches_golden((scenario_path), (golden_path)))

#pragma once
// Shared by the live tests that run a scenario live and compare it with its
// simulation: a preset by name, and the comparison that tolerates a machine
// that could not keep time.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "leasescope/live/live_driver.hpp"
#include "leasescope/sim/simulation.hpp"

namespace leasescope::live_test {

// scenarios/NAME.json, parsed; a parse error fails the test.
inline sim::Scenario load_preset(const std::string& name) {
    const std::string path = std::string(LEASESCOPE_SOURCE_DIR) + "/scenarios/" + name + ".json";
    std::ifstream in(path);
    std::stringstream bytes;
    bytes << in.rdbuf();
    auto parsed = sim::parse_scenario(bytes.str(), path);
    if (!parsed.ok()) {
        ADD_FAILURE() << parsed.error().to_string();
        return {};
    }
    return parsed.value();
}

// Runs `s` live at 50 ms and expects it identical to its simulation; a run
// the machine could not keep in time is run again, at most three times in
// all, and never counted as agreement or disagreement.
inline void expect_live_equals_simulation(const sim::Scenario& s, const std::string& url_text) {
    live::LiveOptions options;
    options.redis_url = url_text;
    options.tick_ms = 50;
    bool compared = false;
    for (int attempt = 0; attempt < 3 && !compared; ++attempt) {
        const live::LiveReport report = live::run_live(s, options);
        ASSERT_FALSE(report.input_error) << *report.input_error;
        ASSERT_FALSE(report.backend_error) << report.backend_error->message;
        if (!report.timing_faults.empty()) continue;
        const auto comparison = live::compare_with_model(s, report);
        EXPECT_FALSE(comparison.divergence) << comparison.divergence->description;
        compared = true;
    }
    EXPECT_TRUE(compared) << "three live runs in a row could not keep time";
}

}  // namespace leasescope::live_test

#pragma once
// A generated scenario, parsed as a user's file would be (sim/generator.hpp):
// what the simulation's tests over many generated scenarios share. A parse
// error fails the test that asked and names the generator's options.
#include <gtest/gtest.h>

#include "leasescope/sim/generator.hpp"
#include "leasescope/sim/scenario.hpp"

namespace leasescope::test {

inline sim::Scenario generated_scenario(const sim::GeneratorOptions& o) {
    auto parsed = sim::parse_scenario(sim::generate_scenario(o), "generated.json");
    EXPECT_TRUE(parsed.ok()) << "generated: " << o.candidates << " candidates, horizon " << o.horizon << ", seed "
                             << o.seed << (parsed.ok() ? "" : ": " + parsed.error().to_string());
    return parsed.ok() ? parsed.value() : sim::Scenario{};
}

}  // namespace leasescope::test

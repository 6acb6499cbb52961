// Scenarios with many nodes (Simulation::prefetch_from_nodes and more) take
// the paths that ask for memory before reading it: phase 5's hints for the
// electors due, the wake queue's for its heap's lower levels. Hints change
// nothing: such a run gives the events the simulator gave before they
// existed (event hashes pinned from leasescope-cli at 32e257a).
#include <gtest/gtest.h>

#include <string>

#include "leasescope/sim/simulation.hpp"
#include "support/generated_scenario.hpp"

using namespace leasescope;
using namespace leasescope::sim;

TEST(ManyNodes, DeclaredOrderGivesTheEventsOfTheCodeWithoutHints) {
    // leasescope-cli generate --candidates 5000 --horizon 1500 --seed 11
    GeneratorOptions o;
    o.candidates = 5000;
    o.horizon = 1500;
    o.seed = 11;
    const Scenario scenario = test::generated_scenario(o);
    ASSERT_GE(scenario.candidates.size(), Simulation::prefetch_from_nodes);
    const Trace trace = simulate(scenario);
    EXPECT_EQ(trace.events.size(), 25'391U);
    EXPECT_EQ(trace.summary.trace_sha256, "5ab083cc7968c040c26cd0f344d252c26e37349afa1a669c6cbe9168c13fb002");
}

TEST(ManyNodes, ShuffledOrderWithReplicasGivesTheEventsOfTheCodeWithoutHints) {
    // leasescope-cli generate --candidates 6000 --horizon 1200 --seed 12 --order 1 --replication
    GeneratorOptions o;
    o.candidates = 6000;
    o.horizon = 1200;
    o.seed = 12;
    o.shuffled = true;
    o.replication = true;
    const Scenario scenario = test::generated_scenario(o);
    ASSERT_GE(scenario.candidates.size(), Simulation::prefetch_from_nodes);
    const Trace trace = simulate(scenario);
    EXPECT_EQ(trace.events.size(), 30'738U);
    EXPECT_EQ(trace.summary.trace_sha256, "9b58f5c675105844fa0c398d9dbe90399a6b957735d1e3f737e6207fd2f491cc");
}

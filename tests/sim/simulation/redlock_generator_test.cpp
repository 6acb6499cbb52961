// The Redlock scenario generator (`leasescope-cli generate --client redlock`,
// model.md §20.9 item 2): every scenario it writes is valid, simulates, stays
// inside what tests/redlock/driver.js runs through the real package, and is
// the same bytes for the same seed; over many seeds it reaches every kind of
// scenario it promises.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "leasescope/sim/generator.hpp"
#include "leasescope/sim/simulation.hpp"
#include "support/trace_test_helpers.hpp"

namespace {

using namespace leasescope;
using sim::FaultKind;

constexpr std::uint64_t generated_seeds = 500;

std::string redlock_text(std::uint64_t seed, bool faults = true) {
    sim::GeneratorOptions o;
    o.seed = seed;
    o.faults = faults;
    o.client = sim::GeneratedClient::redlock;
    return sim::generate_scenario(o);
}

// What a generated scenario offers the comparison with the real package.
struct Reach {
    std::set<std::size_t> store_counts;
    std::set<std::size_t> candidate_counts;
    std::set<double> drift_factors;
    std::set<std::string> outcomes;  // "skipped", "elected", …
    int pauses = 0, crashes = 0, restarts_none = 0, restarts_always = 0, overlapping_restarts = 0;
    int second_runs = 0, unsafe_writes = 0;
};

// The driver's subset (driver.js loadScenario, checkClientOptions): no
// jitter, a retry delay of whole ticks at 100 and 200 ms, a lease of at
// least 2 ticks (the validity far from 0), restarts with none or always,
// one restart per store, no ops, no network.
void expect_driver_subset(const sim::Scenario& s, std::uint64_t seed) {
    SCOPED_TRACE(seed);
    EXPECT_TRUE(s.is_redlock());
    EXPECT_TRUE(s.stores.size() == 1 || s.stores.size() == 3 || s.stores.size() == 5);
    EXPECT_EQ(s.redlock.retry_jitter_ms, 0);
    EXPECT_EQ(s.redlock.retry_delay_ms % 200, 0);
    EXPECT_GE(s.redlock.retry_delay_ms, 200);
    EXPECT_GE(s.redlock.retry_count, 0);
    EXPECT_TRUE(s.ops.empty());
    for (const sim::Candidate& c : s.candidates) EXPECT_GE(c.options.lease, 2);
    std::set<std::int32_t> restarted;
    for (const sim::Fault& f : s.faults) {
        EXPECT_TRUE(f.kind == FaultKind::pause || f.kind == FaultKind::crash || f.kind == FaultKind::restart);
        if (f.kind != FaultKind::restart) continue;
        EXPECT_NE(f.persistence, sim::Persistence::everysec);
        EXPECT_TRUE(restarted.insert(f.store).second) << "one restart per store";
    }
}

void count_faults(const sim::Scenario& s, Reach& r) {
    const sim::Fault* first_restart = nullptr;
    for (const sim::Fault& f : s.faults) {
        r.pauses += f.kind == FaultKind::pause;
        r.crashes += f.kind == FaultKind::crash;
        if (f.kind != FaultKind::restart) continue;
        (f.persistence == sim::Persistence::none ? r.restarts_none : r.restarts_always)++;
        if (first_restart && f.at < first_restart->at + first_restart->ticks) r.overlapping_restarts++;
        if (!first_restart) first_restart = &f;
    }
}

// Every seed: a valid scenario (the parser's every rule), simulated at its
// own 200 ms ticks and at 100 ms (tools/full.sh's), within the driver's
// subset; over the 500 seeds, every size and fault the generator promises.
TEST(RedlockGenerator, EverySeedValidatesSimulatesAndStaysInTheDriversSubset) {
    Reach r;
    for (std::uint64_t seed = 1; seed <= generated_seeds; ++seed) {
        const sim::Scenario s = trace_test::parse(redlock_text(seed));
        expect_driver_subset(s, seed);
        r.store_counts.insert(s.stores.size());
        r.candidate_counts.insert(s.candidates.size());
        r.drift_factors.insert(s.redlock.drift_factor);
        for (const sim::Candidate& c : s.candidates) r.second_runs += c.options.runs > 1;
        count_faults(s, r);
        const sim::Trace t = sim::simulate(s);
        for (const sim::RunSummary& run : t.summary.results) r.outcomes.insert(run.result);
        r.unsafe_writes += t.summary.violations.unsafe_write > 0;
        auto at_100 = sim::parse_scenario(redlock_text(seed), "generated.json", {{"tick_ms", "100"}});
        ASSERT_TRUE(at_100.ok()) << seed << ": " << at_100.error().to_string();
        EXPECT_GT(sim::simulate(at_100.value()).summary.end_tick, 0) << seed;
    }
    EXPECT_EQ(r.store_counts, (std::set<std::size_t>{1, 3, 5}));
    EXPECT_EQ(r.candidate_counts, (std::set<std::size_t>{1, 2, 3}));
    EXPECT_GE(r.drift_factors.size(), 6u);
    EXPECT_TRUE(r.drift_factors.count(1.0));
    EXPECT_TRUE(r.outcomes.count("elected"));
    EXPECT_TRUE(r.outcomes.count("skipped"));
    EXPECT_GT(r.pauses, 50);
    EXPECT_GT(r.crashes, 20);
    EXPECT_GT(r.restarts_none, 50);
    EXPECT_GT(r.restarts_always, 50);
    EXPECT_GT(r.overlapping_restarts, 10);
    EXPECT_GT(r.second_runs, 50);
    EXPECT_GT(r.unsafe_writes, 5);
}

// Determinism (model.md §10): one seed, one text, and so one trace.
TEST(RedlockGenerator, TheSameSeedGivesTheSameBytes) {
    for (std::uint64_t seed = 1; seed <= 50; ++seed) {
        const std::string text = redlock_text(seed);
        EXPECT_EQ(text, redlock_text(seed));
        EXPECT_EQ(trace_test::trace_bytes(sim::simulate(trace_test::parse(text))),
                  trace_test::trace_bytes(sim::simulate(trace_test::parse(redlock_text(seed)))));
    }
    EXPECT_NE(redlock_text(1), redlock_text(2));
}

// --no-faults leaves out the faults and nothing else: the same stores,
// options and candidates.
TEST(RedlockGenerator, WithoutFaultsOnlyTheFaultsGo) {
    const sim::Scenario with = trace_test::parse(redlock_text(9));
    const sim::Scenario without = trace_test::parse(redlock_text(9, false));
    EXPECT_TRUE(without.faults.empty());
    EXPECT_EQ(with.stores, without.stores);
    EXPECT_EQ(with.redlock, without.redlock);
    ASSERT_EQ(with.candidates.size(), without.candidates.size());
    for (std::size_t i = 0; i < with.candidates.size(); ++i)
        EXPECT_EQ(with.candidates[i].options.lease, without.candidates[i].options.lease);
}

// The elector's generator is untouched by the option: its bytes are the
// elector's whatever the Redlock generator does.
TEST(RedlockGenerator, TheElectorsGeneratorIsUnchanged) {
    sim::GeneratorOptions o;
    o.candidates = 3;
    o.horizon = 200;
    const std::string elector = sim::generate_scenario(o);
    EXPECT_EQ(elector.find("\"stores\""), std::string::npos);
    EXPECT_NE(elector.find("\"generated-3x200-s1\""), std::string::npos);
}

}  // namespace

// The outcome spill of a streamed run (sim/outcome_spill.hpp): a run that
// hands its finished runs' outcomes out of memory writes the same summary
// line as one that keeps them, and a spill that fails stops the run.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "leasescope/sim/generator.hpp"
#include "leasescope/sim/simulation.hpp"
#include "support/generated_scenario.hpp"
#include "support/preset_loader.hpp"

using namespace leasescope;
using namespace leasescope::sim;

namespace {

// Keeps each spill in memory and checks the order of the calls: nodes
// increasing within a spill and within a reading pass.
class MemorySpill final : public OutcomeSpill {
public:
    bool put(NodeIndex node, std::span<const RunOutcome> outcomes) override {
        EXPECT_TRUE(current_.empty() || current_.back().first < node);
        EXPECT_FALSE(outcomes.empty());
        current_.emplace_back(node, std::vector<RunOutcome>(outcomes.begin(), outcomes.end()));
        return ++puts_ != fail_at_put;
    }
    bool end() override {
        spills_.push_back(std::move(current_));
        current_.clear();
        return true;
    }
    bool rewind() override {
        last_read_ = -1;
        return true;
    }
    bool read(NodeIndex node, const std::function<void(std::span<const RunOutcome>)>& each) override {
        EXPECT_LT(last_read_, node);
        last_read_ = node;
        for (const auto& spill : spills_) {
            for (const auto& [n, outcomes] : spill) {
                // In pieces of one, as a reader with a small buffer would.
                if (n == node)
                    for (const RunOutcome& o : outcomes) each(std::span<const RunOutcome>(&o, 1));
            }
        }
        return true;
    }
    std::size_t spills() const { return spills_.size(); }
    std::int64_t fail_at_put = -1;

private:
    std::vector<std::pair<NodeIndex, std::vector<RunOutcome>>> current_;
    std::vector<std::vector<std::pair<NodeIndex, std::vector<RunOutcome>>>> spills_;
    std::int64_t puts_ = 0;
    NodeIndex last_read_ = -1;
};

struct Ran {
    std::string summary;
    std::string events_sha256;
    std::int64_t spills = 0;
};

// The summary line of a streamed run of `scenario`, spilling past `held_max`
// outcomes (none when held_max is 0).
Ran run(const Scenario& scenario, std::size_t held_max) {
    Simulation sim(scenario);
    ModelStore store(scenario.lock);
    MemorySpill spill;
    if (held_max > 0) sim.set_outcome_spill(&spill, held_max);
    NullSink sink;
    auto summary = run_to_end(sim, store, sink, {}, std::nullopt, /*keep_results=*/false);
    EXPECT_TRUE(summary.ok());
    Ran out;
    EXPECT_TRUE(write_summary_line(sim, summary.value(), [&](std::string_view piece) { out.summary += piece; }));
    out.events_sha256 = summary.value().trace_sha256;
    out.spills = sim.spills();
    EXPECT_EQ(static_cast<std::size_t>(out.spills), spill.spills());
    return out;
}

Scenario generated(std::int64_t candidates, Tick horizon, std::uint64_t seed) {
    return test::generated_scenario({candidates, horizon, seed, seed % 2 == 0, true});
}

}  // namespace

TEST(OutcomeSpill, TinyThresholdGivesTheSameSummaryAsNone) {
    for (const std::uint64_t seed : {1u, 2u, 3u}) {
        const Scenario scenario = generated(40, 30'000, seed);
        const Ran kept = run(scenario, 0);
        // The summary of a run kept whole, built from every run's record.
        const Trace whole = simulate(scenario);
        EXPECT_EQ(kept.summary, summary_line(whole.summary));
        for (const std::size_t held_max : {std::size_t{1}, std::size_t{41}, std::size_t{500}}) {
            const Ran spilled = run(scenario, held_max);
            EXPECT_GT(spilled.spills, 0) << "held_max " << held_max;
            EXPECT_EQ(spilled.summary, kept.summary) << "seed " << seed << ", held_max " << held_max;
            EXPECT_EQ(spilled.events_sha256, kept.events_sha256);
        }
    }
}

TEST(OutcomeSpill, PresetsSpillingEveryTickAreUnchanged) {
    for (const std::string& name : test::preset_names()) {
        const Scenario scenario = test::load_preset(name);
        EXPECT_EQ(run(scenario, 1).summary, run(scenario, 0).summary) << name;
    }
}

TEST(OutcomeSpill, AFailedSpillStopsTheRunAndKeepsTheOutcomes) {
    const Scenario scenario = generated(20, 50'000, 7);
    Simulation sim(scenario);
    ModelStore store(scenario.lock);
    MemorySpill spill;
    spill.fail_at_put = 30;
    sim.set_outcome_spill(&spill, 1);
    NullSink sink;
    auto summary = run_to_end(sim, store, sink, {}, std::nullopt, /*keep_results=*/false);
    ASSERT_TRUE(summary.ok());
    EXPECT_TRUE(sim.spill_failed());
    EXPECT_FALSE(sim.finished());  // stopped early, not at the end
    // Outcomes of the failed spill were not let go: held plus spilled is every run.
    std::int64_t held = 0, runs = 0;
    for (const Elector& e : sim.electors()) {
        held += static_cast<std::int64_t>(e.outcomes().size());
        runs += e.run_count();
        EXPECT_EQ(e.first_held_run() + static_cast<std::int32_t>(e.outcomes().size()), e.run_count());
    }
    EXPECT_GT(held, 1);
    EXPECT_GT(runs, held);
}

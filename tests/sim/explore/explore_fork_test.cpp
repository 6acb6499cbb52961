// Forking (docs/model.md §7.7, docs/explorer.md "Forking from checkpoints"):
// a simulation stopped before tick t and given a fault that starts at or
// after t continues exactly as the whole scenario run from tick 0 (same
// events, same summary); and the exhaustive search that forks gives the same
// answer and counters as the one that runs every schedule from tick 0.
#include "support/preset_loader.hpp"
#include "explore_report_checks.hpp"

#include <gtest/gtest.h>

#include "leasescope/engine/prng.hpp"
#include "leasescope/sim/explorer.hpp"
#include "leasescope/sim/generator.hpp"
#include "leasescope/sim/simulation.hpp"

namespace leasescope::sim {
namespace {

using test::preset_names;
using test::read_preset;

class Collect final : public EventSink {
public:
    void on_event(const Event& e) override { events.push_back(e); }
    std::vector<Event> events;
};

// Runs `base` up to tick `at` (or its end, if sooner), copies the state as
// the explorer's checkpoints do, adds `f` and runs the copy to its end: the
// events and summary must be those of base + f from tick 0.
void expect_fork_equals_whole(const Scenario& base, const Fault& f, Tick at, const std::string& label) {
    Scenario with = base;
    with.faults.push_back(f);
    const Trace whole = simulate(with);
    Simulation sim(base);
    ModelStore store(base.lock);
    Collect sink;
    while (!sim.finished() && sim.next_tick() < at) {
        sim.skip_quiet_ticks(store, at);
        if (sim.next_tick() >= at) break;
        ASSERT_TRUE(sim.step(store, sink).ok());
    }
    Simulation fork = sim;
    ModelStore fork_store = store;
    ASSERT_TRUE(fork.append_faults(with)) << label;
    auto rest = run_to_end(fork, fork_store, sink);
    ASSERT_TRUE(rest.ok());
    ASSERT_EQ(sink.events.size(), whole.events.size()) << label;
    for (std::size_t i = 0; i < whole.events.size(); ++i)
        ASSERT_EQ(event_line(sink.events[i]), event_line(whole.events[i])) << label << " event " << i;
    EXPECT_EQ(rest.value().results, whole.summary.results) << label;
    EXPECT_EQ(rest.value().violations, whole.summary.violations) << label;
    EXPECT_EQ(rest.value().end_tick, whole.summary.end_tick) << label;
}

// Single faults the explorer would add to `base` (so valid beside its own):
// every kind but the replication ones, whose validity depends on the roles.
std::vector<Fault> single_faults(const Scenario& base) {
    ExploreOptions o;
    o.max_faults = 1;
    o.kinds = parse_fault_kinds("pause,partition,crash,failover,delay,clock_jump").value();
    o.max_pause = 12;
    o.max_delay = 2;
    o.max_clock_jump_ms = 2 * base.tick_ms;
    o.shuffles = 0;
    auto explorer = Explorer::create(base, o);
    if (!explorer.ok()) return {};
    return explorer.value().atoms();
}

// Checks `count` faults picked from the base's single faults, each forked at
// a tick picked between 0 and its first tick.
int check_forks(const Scenario& base, std::uint64_t seed, int count, const std::string& label) {
    const std::vector<Fault> faults = single_faults(base);
    if (faults.empty()) return 0;
    SplitMix64 rng(seed);
    for (int k = 0; k < count; ++k) {
        const Fault& f = faults[static_cast<std::size_t>(rng.next() % faults.size())];
        const Tick first = Simulation::fault_first_tick(f);
        const Tick at = static_cast<Tick>(rng.next() % static_cast<std::uint64_t>(first + 1));
        expect_fork_equals_whole(base, f, at, label + " fault " + std::to_string(k) + " at " + std::to_string(at));
        if (::testing::Test::HasFatalFailure()) return k;
    }
    return count;
}

TEST(ExploreFork, ForkedRunEqualsWholeRunOnEveryPreset) {
    int checked = 0;
    for (const std::string& name : preset_names()) {
        auto parsed = parse_scenario(read_preset(name), name + ".json");
        ASSERT_TRUE(parsed.ok()) << name;
        const Scenario& base = parsed.value();
        if (base.is_redlock() || base.is_redisson()) {
            // Their clients copy the faults when built: forking is refused.
            Scenario with = base;
            with.faults.push_back(Fault{FaultKind::crash, 0, 1, 0, {}, {}});
            Simulation sim(base);
            EXPECT_FALSE(sim.append_faults(with)) << name;
            continue;
        }
        checked += check_forks(base, 7, 6, name);
        if (HasFatalFailure()) return;
    }
    EXPECT_GT(checked, 100);
}

// A generated scenario of `candidates` nodes and `horizon` ticks, with time
// on the wire on even seeds and replicas on every `replication_every`-th.
Scenario generated(std::uint64_t seed, std::int64_t candidates, Tick horizon, std::uint64_t replication_every) {
    return test::generated_scenario(seed, candidates, horizon, seed % 2 == 0, seed % replication_every == 0);
}

TEST(ExploreFork, ForkedRunEqualsWholeRunOnGeneratedScenarios) {
    int checked = 0;
    for (std::uint64_t seed = 1; seed <= 200; ++seed) {
        const Scenario base = generated(seed, 2 + static_cast<std::int64_t>(seed % 4), 300, 5);
        checked += check_forks(base, seed, 2, "generated seed " + std::to_string(seed));
        if (HasFatalFailure()) return;
    }
    EXPECT_GE(checked, 300);
}

// A fault that starts before the simulation's next tick cannot be added.
TEST(ExploreFork, RefusesAFaultBeforeTheNextTick) {
    auto parsed = parse_scenario(read_preset("contention"), "contention.json");
    ASSERT_TRUE(parsed.ok());
    const Scenario& base = parsed.value();
    Simulation sim(base);
    ModelStore store(base.lock);
    NullSink sink;
    for (int i = 0; i < 5; ++i) ASSERT_TRUE(sim.step(store, sink).ok());
    Scenario with = base;
    with.faults.push_back(Fault{FaultKind::crash, 0, 4, 0, {}, {}});
    EXPECT_FALSE(sim.append_faults(with));
    with.faults.back().at = 5;
    EXPECT_TRUE(sim.append_faults(with));
}

// The search that forks equals the one that runs every schedule from tick 0:
// the answer, the counterexample and every counter but the simulated ticks.
// Adds each search's simulated ticks to `ticks` (plain, forked).
void expect_fork_search_equals_plain(const Scenario& base, ExploreOptions o, const std::string& label,
                                     std::pair<std::uint64_t, std::uint64_t>& ticks) {
    o.merge = false;  // the ticks compared are forking's alone (merging has its own test)
    ExploreOptions from_zero = o;
    from_zero.fork = false;
    o.fork = true;
    const auto [plain, forked] = test::explore_both(base, from_zero, o, 5);
    if (::testing::Test::HasFailure()) return;
    test::expect_same_answer(plain, forked, label);
    for (std::size_t i = 0; i < plain.levels.size() && i < forked.levels.size(); ++i)
        EXPECT_LE(forked.levels[i].stats.ticks, plain.levels[i].stats.ticks) << label << " level " << i;
    ticks.first += plain.totals.ticks;
    ticks.second += forked.totals.ticks;
}

TEST(ExploreFork, ForkingSearchEqualsPlainSearchOnPresets) {
    std::pair<std::uint64_t, std::uint64_t> ticks;
    for (const std::string& name : preset_names()) {
        auto parsed = parse_scenario(read_preset(name), name + ".json");
        ASSERT_TRUE(parsed.ok()) << name;
        if (parsed->is_redlock() || parsed->is_redisson()) continue;  // they never fork
        expect_fork_search_equals_plain(parsed.value(), test::preset_search_options(), name, ticks);
        if (HasFatalFailure()) return;
    }
    EXPECT_LT(ticks.second, ticks.first);  // forking is the point: fewer ticks run
}

TEST(ExploreFork, ForkingSearchEqualsPlainSearchOnGeneratedScenarios) {
    std::pair<std::uint64_t, std::uint64_t> ticks;
    for (std::uint64_t seed = 1; seed <= 24; ++seed) {
        const Scenario base = generated(seed, 2 + static_cast<std::int64_t>(seed % 3), 200, 4);
        const ExploreOptions o = test::generated_search_options(seed);
        expect_fork_search_equals_plain(base, o, "generated seed " + std::to_string(seed), ticks);
        if (HasFatalFailure()) return;
    }
    EXPECT_LT(ticks.second, ticks.first);
}

}  // namespace
}  // namespace leasescope::sim

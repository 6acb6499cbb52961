// The explorer's simulated ticks per CPU second: the exhaustive search of
// `leasescope-cli explore scenarios/auto-extension.json --max-faults 2
// --fault-kinds pause,crash --property fencing_regressed --jobs 1`, which
// finds nothing and so covers its whole budget; and the same base with
// messages delayed and the store's clock jumped (`--fault-kinds
// delay,clock_jump --max-delay 2 --max-clock-jump-ms 100 --property
// fencing_duplicate`, also nothing found), whose runs take the wire's path.
#include <benchmark/benchmark.h>

#include <fstream>
#include <sstream>

#include "leasescope/sim/explorer.hpp"
#include "leasescope/sim/scenario.hpp"

namespace {

using namespace leasescope;

void explore_ticks(benchmark::State& state, const sim::ExploreOptions& options) {
    std::ifstream in(std::string(LEASESCOPE_SOURCE_DIR) + "/scenarios/auto-extension.json");
    std::stringstream text;
    text << in.rdbuf();
    auto scenario = sim::parse_scenario(text.str(), "auto-extension.json");
    LS_ASSERT(scenario.ok());
    auto explorer = sim::Explorer::create(scenario.value(), options);
    LS_ASSERT(explorer.ok());
    std::uint64_t ticks = 0;
    for (auto _ : state) {
        const sim::ExploreReport report = sim::explore(explorer.value(), sim::ExploreRun{});
        ticks = report.totals.ticks;
        benchmark::DoNotOptimize(report.found);
    }
    state.counters["ticks/s"] =
        benchmark::Counter(static_cast<double>(ticks), benchmark::Counter::kIsIterationInvariantRate);
    state.counters["ticks"] = static_cast<double>(ticks);
}

void BM_ExploreTicks(benchmark::State& state) {
    sim::ExploreOptions options;
    options.max_faults = 2;
    options.kinds = sim::parse_fault_kinds("pause,crash").value();
    options.properties = sim::parse_properties("fencing_regressed").value();
    explore_ticks(state, options);
}
BENCHMARK(BM_ExploreTicks)->Unit(benchmark::kMillisecond);

void BM_ExploreWireTicks(benchmark::State& state) {
    sim::ExploreOptions options;
    options.max_faults = 2;
    options.max_delay = 2;
    options.max_clock_jump_ms = 100;
    options.kinds = sim::parse_fault_kinds("delay,clock_jump").value();
    options.properties = sim::parse_properties("fencing_duplicate").value();
    explore_ticks(state, options);
}
BENCHMARK(BM_ExploreWireTicks)->Unit(benchmark::kMillisecond);

}  // namespace

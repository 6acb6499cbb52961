// Scenario parsing and validation (sim::parse_scenario) on generated files.
#include <benchmark/benchmark.h>

#include "bench_common.hpp"

namespace {

using namespace leasescope;

void BM_ParseScenario(benchmark::State& state) {
    const std::string text = sim::generate_scenario({state.range(0), 1'000'000, 1, false, true});
    for (auto _ : state) {
        auto parsed = sim::parse_scenario(text, "<generated>");
        LS_ASSERT(parsed.ok());
        benchmark::DoNotOptimize(parsed);
    }
    state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(text.size()));
}
BENCHMARK(BM_ParseScenario)->Arg(10)->Arg(1'000)->Arg(10'000)->Unit(benchmark::kMillisecond);

void BM_GenerateScenario(benchmark::State& state) {
    for (auto _ : state) benchmark::DoNotOptimize(sim::generate_scenario({state.range(0), 1'000'000, 1, false, true}));
}
BENCHMARK(BM_GenerateScenario)->Arg(1'000)->Unit(benchmark::kMillisecond);

}  // namespace

// The scheduler on generated scenarios of 10, 1,000 and 100,000 candidates
// whose runs repeat over 1,000,000 ticks: simulated events and ticks per
// second. One iteration is one whole simulation.
#include <benchmark/benchmark.h>

#include <limits>

#include "bench_common.hpp"
#include "leasescope/engine/model_store.hpp"

namespace {

using namespace leasescope;

void report(benchmark::State& state, std::int64_t events, Tick ticks) {
    state.counters["events/s"] =
        benchmark::Counter(static_cast<double>(events), benchmark::Counter::kIsIterationInvariantRate);
    state.counters["ticks/s"] =
        benchmark::Counter(static_cast<double>(ticks), benchmark::Counter::kIsIterationInvariantRate);
    state.counters["events"] = static_cast<double>(events);
}

// Simulation::step alone, events counted and dropped: the scheduler's own cost.
void BM_SimulateCore(benchmark::State& state) {
    const sim::Scenario& scenario = bench::generated(state.range(0), bench::bench_horizon());
    std::int64_t events = 0;
    Tick ticks = 0;
    for (auto _ : state) {
        sim::Simulation simulation(scenario);
        ModelStore store(scenario.lock);
        sim::CountingSink sink;
        while (!simulation.finished()) {
            // As run_to_end does: quiet ticks are passed over at once, then
            // the next tick is stepped.
            simulation.skip_quiet_ticks(store, std::numeric_limits<Tick>::max());
            auto stepped = simulation.step(store, sink);
            LS_ASSERT(stepped.ok());
        }
        events = sink.count;
        ticks = simulation.end_tick() + 1;
    }
    report(state, events, ticks);
}
BENCHMARK(BM_SimulateCore)->Arg(10)->Arg(1'000)->Arg(100'000)->Unit(benchmark::kMillisecond);

// run_to_end: every event line built and hashed (SHA-256), and the summary
// line, as `run` does.
void BM_SimulateHashed(benchmark::State& state) {
    const sim::Scenario& scenario = bench::generated(state.range(0), bench::bench_horizon());
    std::int64_t events = 0;
    Tick ticks = 0;
    for (auto _ : state) {
        sim::Simulation simulation(scenario);
        ModelStore store(scenario.lock);
        sim::CountingSink sink;
        // As `run` does: the summary's results written in pieces from the
        // electors' outcomes rather than kept as one record per run.
        auto summary = sim::run_to_end(simulation, store, sink, {}, std::nullopt, /*keep_results=*/false);
        LS_ASSERT(summary.ok());
        std::size_t summary_bytes = 0;
        sim::write_summary_line(simulation, summary.value(),
                                [&](std::string_view piece) { summary_bytes += piece.size(); });
        benchmark::DoNotOptimize(summary_bytes);
        events = sink.count;
        ticks = summary.value().end_tick + 1;
    }
    report(state, events, ticks);
}
BENCHMARK(BM_SimulateHashed)->Arg(10)->Arg(1'000)->Arg(100'000)->Unit(benchmark::kMillisecond);

// A Timeline (every event kept, checkpoints for seeking) and 100 seeks.
void BM_TimelineSeek(benchmark::State& state) {
    const sim::Scenario& scenario = bench::generated(state.range(0), 20'000);
    const sim::Timeline timeline(scenario);
    const Tick end = timeline.end_tick();
    Tick t = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(timeline.snapshot_at(t));
        t = (t + end / 100 + 1) % (end + 1);
    }
    state.counters["events"] = static_cast<double>(timeline.trace().events.size());
}
BENCHMARK(BM_TimelineSeek)->Arg(10)->Arg(1'000)->Unit(benchmark::kMicrosecond);

}  // namespace

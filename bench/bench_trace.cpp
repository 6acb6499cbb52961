// Trace bytes: canonical JSONL written, read back and checked, in bytes/s.
#include <benchmark/benchmark.h>

#include "bench_common.hpp"

namespace {

using namespace leasescope;

const sim::Trace& sample_trace() {
    static const sim::Trace trace = sim::simulate(bench::generated(1'000, 200'000));
    return trace;
}

void BM_TraceWrite(benchmark::State& state) {
    const sim::Trace& trace = sample_trace();
    std::int64_t bytes = 0;
    for (auto _ : state) {
        const std::string jsonl = sim::trace_to_jsonl(trace);
        bytes = static_cast<std::int64_t>(jsonl.size());
        benchmark::DoNotOptimize(jsonl.data());
    }
    state.SetBytesProcessed(state.iterations() * bytes);
    state.counters["events"] = static_cast<double>(trace.events.size());
}
BENCHMARK(BM_TraceWrite)->Unit(benchmark::kMillisecond);

void BM_TraceRead(benchmark::State& state) {
    const std::string jsonl = sim::trace_to_jsonl(sample_trace());
    for (auto _ : state) {
        auto back = sim::parse_trace(jsonl, "<bench>");
        LS_ASSERT(back.ok());
        benchmark::DoNotOptimize(back);
    }
    state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(jsonl.size()));
}
BENCHMARK(BM_TraceRead)->Unit(benchmark::kMillisecond);

// One event line built and hashed: the per-event cost of run_to_end.
void BM_EventLineHash(benchmark::State& state) {
    const sim::Trace& trace = sample_trace();
    sim::TraceHasher hasher;
    std::string line;
    std::size_t i = 0;
    for (auto _ : state) {
        line.clear();
        sim::append_event_line(line, trace.events[i]);
        hasher.add_line(line);
        i = (i + 1) % trace.events.size();
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_EventLineHash);

}  // namespace

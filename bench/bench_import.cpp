// Importing a capture (docs/model.md §19.2.3, docs/performance.md "Importing
// a capture"): 1,000,000 generated MONITOR lines (tests/support/
// capture_generator.hpp: three clients contending for one lock with our
// store's scripts among lines of other keys) through CaptureReader and
// finish, then build_history, on one core: lines/s and bytes/s. And bounded
// memory: the peak RSS of a child process that imports 1 M and 4 M lines
// from a generated file line by line, as the CLI does, must be about the same
// (the lines of other keys are never kept; the lock's lines are the same in
// both: they fall among the first million lines).
#include <benchmark/benchmark.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "leasescope/sim/import.hpp"
#include "support/capture_generator.hpp"

namespace {

namespace imp = leasescope::sim::import;

constexpr std::int64_t bench_lines = 1'000'000;
constexpr std::int64_t bench_lock_calls = 20'000;  // about 100,000 lines of the lock

capture_gen::CaptureSpec bench_spec(std::int64_t lines) {
    capture_gen::CaptureSpec spec;
    spec.lines = lines;
    spec.lock_calls = bench_lock_calls;
    spec.lock_span_lines = bench_lines;  // a longer capture adds only lines of other keys
    spec.lease_ms = 30;
    spec.seed = 2026;
    return spec;
}

// The capture's bytes, generated once per process.
const std::string& capture_text() {
    static const std::string text = [] {
        std::string out;
        capture_gen::CaptureGenerator gen(bench_spec(bench_lines));
        capture_gen::CaptureLine line;
        while (gen.next(line)) {
            out += line.text;
            out += '\n';
        }
        return out;
    }();
    return text;
}

// Every line of `text` through one reader; nullopt when it fails (it must not).
std::optional<std::vector<imp::Observation>> read_capture(imp::CaptureReader& reader, std::string_view text) {
    reader.begin_source("bench.monitor");
    for (std::size_t at = 0; at < text.size();) {
        const std::size_t end = text.find('\n', at);
        if (!reader.add_line(text.substr(at, end - at))) return std::nullopt;
        at = end + 1;
    }
    return reader.finish();
}

void report_rates(benchmark::State& state, std::size_t observations) {
    const auto& text = capture_text();
    state.SetItemsProcessed(state.iterations() * bench_lines);
    state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(text.size()));
    state.counters["observations"] = static_cast<double>(observations);
    state.counters["lines/s"] =
        benchmark::Counter(static_cast<double>(state.iterations() * bench_lines), benchmark::Counter::kIsRate);
}

// The child: reads `path` line by line into a reader and finishes; its exit
// status says whether the import went through.
[[noreturn]] void import_file_and_exit(const std::string& path) {
    imp::CaptureReader reader(imp::ImportOptions{});
    reader.begin_source(path);
    std::ifstream in(path, std::ios::binary);
    std::string line;
    bool ok = true;
    while (ok && std::getline(in, line)) ok = reader.add_line(line);
    ok = ok && reader.finish().has_value();
    std::fflush(nullptr);
    _exit(ok ? 0 : 1);
}

// Peak RSS in MiB of a fresh child importing `lines` generated lines from a
// file; -1 when the import failed.
double child_peak_rss_mib(const std::string& path) {
    const pid_t pid = fork();
    if (pid == 0) import_file_and_exit(path);
    int status = 0;
    rusage usage{};
    if (pid < 0 || wait4(pid, &status, 0, &usage) != pid) return -1;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return -1;
    return static_cast<double>(usage.ru_maxrss) / 1024.0;  // Linux: KiB
}

// Peak RSS of importing 1 M or 4 M lines (the argument, in millions): it
// stays about the same, the bounded memory of rule 19.2.3. Registered first:
// the child is a fork of the process before the in-memory capture of the
// benchmarks below exists, so its peak is the import's.
void BM_ImportPeakRss(benchmark::State& state) {
    const std::int64_t lines = state.range(0) * 1'000'000;
    const auto path =
        (std::filesystem::temp_directory_path() / ("leasescope-bench-import-" + std::to_string(getpid()) + ".monitor"))
            .string();
    capture_gen::WrittenCapture written;
    {
        std::ofstream out(path, std::ios::binary);
        written = capture_gen::write_capture(out, bench_spec(lines));
    }
    double rss = 0;
    for (auto _ : state) rss = child_peak_rss_mib(path);
    std::filesystem::remove(path);
    if (rss < 0) {
        state.SkipWithError("the child's import failed");
        return;
    }
    state.counters["peak_rss_MiB"] = rss;
    state.counters["file_MB"] = static_cast<double>(written.bytes) / 1e6;
    state.counters["lock_lines"] = static_cast<double>(written.lock_lines);
    state.counters["lines"] = static_cast<double>(lines);
}
BENCHMARK(BM_ImportPeakRss)->Arg(1)->Arg(4)->Iterations(1)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_ImportCapture(benchmark::State& state) {
    const auto& text = capture_text();
    std::size_t observations = 0;
    for (auto _ : state) {
        imp::CaptureReader reader(imp::ImportOptions{});
        auto seen = read_capture(reader, text);
        if (!seen) {
            state.SkipWithError(reader.error().c_str());
            return;
        }
        observations = seen->size();
        benchmark::DoNotOptimize(seen->data());
    }
    report_rates(state, observations);
}
BENCHMARK(BM_ImportCapture)->Unit(benchmark::kMillisecond);

void BM_ImportHistory(benchmark::State& state) {
    const auto& text = capture_text();
    std::size_t events = 0;
    for (auto _ : state) {
        imp::CaptureReader reader(imp::ImportOptions{});
        auto seen = read_capture(reader, text);
        std::string error = seen ? "" : reader.error();
        std::optional<imp::ImportedHistory> history;
        if (seen) history = imp::build_history(*seen, reader.report(), {}, {}, imp::ImportOptions{}, error);
        if (!history) {
            state.SkipWithError(error.c_str());
            return;
        }
        events = history->trace.events.size();
        benchmark::DoNotOptimize(history->trace.events.data());
    }
    report_rates(state, events);
    state.counters.erase("observations");
    state.counters["events"] = static_cast<double>(events);
}
BENCHMARK(BM_ImportHistory)->Unit(benchmark::kMillisecond);

}  // namespace

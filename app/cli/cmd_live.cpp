// `leasescope-cli live`: a scenario in real time against a real Redis, by the
// same scheduler and electors as the simulation; optionally compared with the
// simulation event by event (token values ignored).
#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <memory>

#include <fmt/format.h>

#include "common.hpp"
#include "leasescope/io/files.hpp"
#include "leasescope/io/signals.hpp"
#include "leasescope/live/live_driver.hpp"
#include "leasescope/live/tick_pacer.hpp"
#include "leasescope/redis/redis_url.hpp"
#include "leasescope/sim/limits.hpp"

namespace leasescope::cli {
namespace {

// Ctrl-C or SIGTERM asks the run to stop, so that it still removes its keys;
// a second one ends the process at once (removing any temporary file first).
// A signal handler can only reach a global.
std::atomic<bool> interrupted{false};
std::atomic<int> interrupt_signal{0};
extern "C" void on_interrupt(int signal_number) {
    interrupt_signal.store(signal_number);
    if (interrupted.exchange(true)) {
        io::remove_temporaries_now();
        std::signal(signal_number, SIG_DFL);
        std::raise(signal_number);
    }
}

// Installs on_interrupt for SIGINT and SIGTERM while it lives; restores the
// handlers that were there before.
class InterruptHandlers {
public:
    InterruptHandlers() {
        struct sigaction action = {};
        action.sa_handler = on_interrupt;
        sigemptyset(&action.sa_mask);
        ::sigaction(SIGINT, &action, &old_int_);
        ::sigaction(SIGTERM, &action, &old_term_);
    }
    ~InterruptHandlers() {
        ::sigaction(SIGINT, &old_int_, nullptr);
        ::sigaction(SIGTERM, &old_term_, nullptr);
    }
    InterruptHandlers(const InterruptHandlers&) = delete;
    InterruptHandlers& operator=(const InterruptHandlers&) = delete;

private:
    struct sigaction old_int_ = {};
    struct sigaction old_term_ = {};
};

struct LiveArgs {
    std::string scenario_path;
    std::vector<std::string> redis_urls;  // none: $LEASESCOPE_REDIS_URL or the default
    std::vector<std::string> replica_urls;
    bool allow_failover = false;
    std::int64_t tick_ms = 0;
    bool compare = false;
    std::string trace_path;
    std::vector<std::string> sets;
    std::string format = "summary";
    std::int64_t bench_pairs = 0;
    TextFilterArgs filter;
};

std::string timing_fault_list(const std::vector<live::TimingFault>& faults) {
    std::string out;
    for (const auto& f : faults) {
        if (!out.empty()) out += ", ";
        out += fmt::format("{} (+{:.1f} ms)", f.tick, f.late_ms);
    }
    return out;
}

int run_bench(const LiveArgs& args) {
    if (args.redis_urls.size() > 1) {
        fmt::print(stderr, "error: --bench measures one server: give one --redis ({} given)\n", args.redis_urls.size());
        return exit_bad_input;
    }
    const auto bench = live::bench_acquire_release(
        args.redis_urls.empty() ? redis::redis_url_from_env() : args.redis_urls[0], args.bench_pairs);
    if (bench.input_error) {
        fmt::print(stderr, "error: {}\n", *bench.input_error);
        return exit_bad_input;
    }
    if (bench.backend_error) {
        fmt::print(stderr, "error: Redis failed: {}\n", bench.backend_error->message);
        return exit_backend;
    }
    fmt::print("acquire+release round trips: {} pairs, p50 {:.1f} us, p99 {:.1f} us, mean {:.1f} us, max {:.1f} us\n",
               bench.pairs, bench.p50_us, bench.p99_us, bench.mean_us, bench.max_us);
    return exit_ok;
}

// The exit code of a live run that did not complete (said on stderr), or
// exit_ok when it did.
int live_failure(const live::LiveReport& report) {
    if (report.input_error) {
        fmt::print(stderr, "error: {}\n", *report.input_error);
        return exit_bad_input;
    }
    if (report.lock_in_use) {
        fmt::print(stderr, "error: {}\n", report.backend_error->message);
        return exit_backend;
    }
    if (report.backend_error) {
        fmt::print(stderr, "error: Redis failed: {}\n", report.backend_error->message);
        if (!report.trace.events.empty()) {
            fmt::print(stderr, "the live run stopped after {} events (tick {}); no trace was written\n",
                       report.trace.events.size(), report.trace.events.back().tick);
        }
        return exit_backend;
    }
    if (report.cancelled) {
        const int signal_number = interrupt_signal.load();
        fmt::print(stderr, "interrupted ({}) at tick {}; the lock's keys were removed{}; no trace was written\n",
                   signal_number == SIGTERM ? "SIGTERM" : "SIGINT", report.trace.summary.end_tick,
                   report.replicas > 0 ? ", the replication topology and configs found were restored" : "");
        // As a shell reports a process ended by the signal: 128 + its number.
        return 128 + (signal_number == 0 ? SIGINT : signal_number);
    }
    LS_ASSERT(report.completed);
    return exit_ok;
}

// What a completed run shows: the trace on stdout (jsonl, text) and the
// notes (a summary line, the emulated faults, timing faults).
void print_live_run(const LiveArgs& args, const sim::Scenario& scenario, const live::LiveReport& report,
                    const sim::TextFilter& filter, std::FILE* notes) {
    if (args.format == "jsonl") {
        const std::string out = sim::trace_to_jsonl(report.trace);
        std::fwrite(out.data(), 1, out.size(), stdout);
    } else if (args.format == "text") {
        const std::string out = sim::trace_to_text(report.trace, filter);
        std::fwrite(out.data(), 1, out.size(), stdout);
    }
    fmt::print(notes, "live: {} against {}, tick {} ms: {} events, ended at tick {}\n", scenario.name, report.redis,
               report.tick_ms, report.trace.summary.events, report.trace.summary.end_tick);
    for (const auto& line : live::emulated_faults(scenario)) fmt::print(notes, "  {}\n", line);
    if (!report.timing_faults.empty()) {
        fmt::print(stderr,
                   "warning: timing fault: the commands of tick(s) {} finished after their deadline (the tick's "
                   "end less {} ms); those ticks' answers may differ from the model's\n",
                   timing_fault_list(report.timing_faults), live::timing_margin_ms);
    }
}

// --compare: the live run against the simulation, event by event.
int compare_live_run(const sim::Scenario& scenario, const live::LiveReport& report, std::FILE* notes) {
    const live::Comparison comparison = live::compare_with_model(scenario, report);
    if (!comparison.divergence) {
        fmt::print(notes, "identical\n");
        return exit_ok;
    }
    if (!report.timing_faults.empty()) {
        // A late tick is a fault of the clock, never a divergence of logic.
        fmt::print(stderr,
                   "error: the live run did not keep time (timing faults at ticks {}), so the comparison is void; "
                   "try a longer --tick-ms or a less loaded machine\n",
                   timing_fault_list(report.timing_faults));
        return exit_backend;
    }
    fmt::print(notes, "live run differs from the simulation (A = simulated, B = live):\n{}\n",
               comparison.divergence->description);
    return exit_check_failed;
}

int run_live_command(const LiveArgs& args) {
    if (args.bench_pairs > 0) {
        if (!args.scenario_path.empty()) {
            fmt::print(stderr, "error: --bench measures the server and takes no SCENARIO\n");
            return exit_bad_input;
        }
        return run_bench(args);
    }
    if (args.scenario_path.empty()) {
        fmt::print(stderr, "error: live needs a SCENARIO (or --bench N)\n");
        return exit_bad_input;
    }
    auto scenario = load_scenario(args.scenario_path, args.sets);
    if (!scenario) return exit_bad_input;
    const std::optional<sim::TextFilter> filter = text_filter_for(args.filter, *scenario, args.format == "text");
    if (!filter) return exit_bad_input;

    // The trace file is opened before the run (an unwritable path fails
    // before any key is touched) and put in place only after it.
    std::unique_ptr<io::OutputFile> trace_file;
    if (!open_output_file(args.trace_path, trace_file)) return exit_write_failed;

    live::LiveOptions options;
    options.redis_url = args.redis_urls.empty() ? redis::redis_url_from_env() : args.redis_urls[0];
    // One --redis per store for a Redlock scenario, one server otherwise (run_live checks the count).
    options.store_urls = args.redis_urls;
    options.replica_urls = args.replica_urls;
    options.allow_failover = args.allow_failover;
    options.tick_ms = args.tick_ms;
    options.cancel = &interrupted;
    live::LiveReport report;
    {
        const InterruptHandlers handlers;
        report = live::run_live(*scenario, options);
    }
    if (const int status = live_failure(report); status != exit_ok) return status;
    if (trace_file) {
        trace_file->write(sim::trace_to_jsonl(report.trace));
        if (!commit_output_file(*trace_file)) return exit_write_failed;
    }
    // Diagnostics go to stderr when stdout carries the trace.
    std::FILE* notes = args.format == "summary" ? stdout : stderr;
    print_live_run(args, *scenario, report, *filter, notes);
    return args.compare ? compare_live_run(*scenario, report, notes) : exit_ok;
}

}  // namespace

void add_live_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<LiveArgs>();
    auto* live = app.add_subcommand(
        "live",
        "Run a scenario in real time against a real Redis (same elector code), a Redlock scenario on one real "
        "server per store (--redis once per store, in the scenario's store order), or a Redisson scenario on one "
        "server running Redisson 3.31.0's own lock, renew and unlock scripts.\n"
        "Exit codes: 0 ok, 1 differs from the simulation (--compare), 2 bad input, 3 Redis failed, a --replica is not "
        "a linked replica of --redis, another live run of the same lock holds it, or a Redlock store or Redisson's "
        "server already holds the lock's key, 4 an output could not be written, "
        "130/143 interrupted by SIGINT/SIGTERM.");
    live->add_option("SCENARIO", args->scenario_path, "Scenario file (JSON with comments)");
    live->add_option("--redis", args->redis_urls,
                     "redis://[user:password@]host[:port][/db] (default: $LEASESCOPE_REDIS_URL or " +
                         std::string(redis::default_redis_url) +
                         "); a Redlock scenario takes one per store, in its store order, and no default")
        ->allow_extra_args(false);  // --redis URL SCENARIO: the scenario is not a second URL
    live->add_option("--replica", args->replica_urls,
                     "A replica of --redis, once per replica: the scenario's server 1, 2, ... (store.replicas of "
                     "them; checked with INFO replication before anything is touched)");
    live->add_flag("--allow-failover", args->allow_failover,
                   "Permit REPLICAOF and CONFIG SET on the --redis and --replica servers, which a scenario with "
                   "replicas needs; the topology and configs found are restored at the end, on an error and on "
                   "SIGINT/SIGTERM");
    live->add_option("--tick-ms", args->tick_ms, "Milliseconds per tick (default: the scenario's tick_ms)")
        ->check(integer_in(limits::tick_ms_min, limits::tick_ms_max));
    live->add_flag("--compare", args->compare,
                   "Also simulate and compare event by event, token values ignored: prints identical or the first "
                   "divergence (exit 1)");
    live->add_option("--trace", args->trace_path,
                     "Write the live JSONL trace to FILE (whole or not at all; checked before the run starts)");
    live->add_option("--set", args->sets, "Override a value: PATH=VALUE, e.g. defaults.lease=8 or defaults.lease=30s");
    live->add_option("--format", args->format,
                     "What stdout shows: summary (a line, and the comparison), text (the table) or jsonl (the trace)")
        ->check(CLI::IsMember({"summary", "text", "jsonl"}));
    add_text_filter_options(live, args->filter);
    live->add_option("--bench", args->bench_pairs,
                     "Measure N acquire+release round trips (p50, p99) against the server instead of running a "
                     "scenario")
        ->check(integer_in(1, 10'000'000));
    live->callback([args, &exit_code] { exit_code = run_live_command(*args); });
}

}  // namespace leasescope::cli

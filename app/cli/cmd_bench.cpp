// `leasescope-cli generate` and `leasescope-cli bench`: a scenario generator
// and a measurement a user can run without Google Benchmark (bench/ holds the
// fine-grained benchmarks). Wall-clock time and getrusage live here, in app/,
// never in engine/ or sim/.
#include <sys/resource.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <limits>
#include <optional>
#include <map>
#include <memory>
#include <cstdio>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common.hpp"
#include "leasescope/engine/model_store.hpp"
#include "leasescope/sim/explorer.hpp"
#include "leasescope/sim/generator.hpp"
#include "leasescope/sim/simulation.hpp"

namespace leasescope::cli {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// CPU time of this process: on a machine shared with other work, rates per
// CPU second are the stable figure; wall-clock rates are printed beside them.
double cpu_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

struct Stopwatch {
    Clock::time_point wall = Clock::now();
    double cpu = cpu_seconds();
    double wall_s() const { return seconds_since(wall); }
    double cpu_s() const { return cpu_seconds() - cpu; }
};

// Peak resident set of this process so far, in MiB (Linux reports KiB).
double peak_rss_mib() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

// Serialises every event as the streaming `run` does, without the I/O.
class LineSink final : public sim::EventSink {
public:
    void on_event(const sim::Event& e) override {
        line_.clear();
        sim::append_event_line(line_, e);
        line_ += '\n';
        bytes += static_cast<std::int64_t>(line_.size());
        ++count;
    }
    std::int64_t count = 0;
    std::int64_t bytes = 0;

private:
    std::string line_;
};

int cmd_generate(const sim::GeneratorOptions& options) {
    const std::string text = sim::generate_scenario(options);
    // The generator's promise: what it prints is a valid scenario.
    auto parsed = sim::parse_scenario(text, "<generated>");
    if (!parsed.ok()) {
        // Sizes the generator accepts can still ask for more work than a
        // scenario may (runs_total_max): bad input, named by the limit.
        fmt::print(stderr, "error: --candidates {} --horizon {}: the generated scenario would be refused: {}\n",
                   options.candidates, options.horizon, parsed.error().to_string());
        return exit_bad_input;
    }
    std::fwrite(text.data(), 1, text.size(), stdout);
    return exit_ok;
}

// Operations per second of the model store: an acquire, an extend, a validate
// and a release per round, over `capacity` slots.
double bench_store(double budget_s) {
    ModelStore store(LockConfig{"bench", 4, 1});
    const std::string tokens[4] = {"tokenAAA", "tokenBBB", "tokenCCC", "tokenDDD"};
    std::int64_t ops = 0;
    Tick now = 0;
    Stopwatch watch;
    double elapsed = 0;
    do {
        for (int round = 0; round < 10'000; ++round, ++now) {
            const std::string& token = tokens[now % 4];
            auto a = store.do_acquire(now, "node", token, 8);
            auto e = store.do_extend(now, token, 8);
            auto v = store.do_validate(now, token);
            auto r = store.do_release(now, token, 0, 0);
            ops += 4;
            if (!a.acquired || !e.renewed || v != Validity::current || r.outcome != ReleaseOutcome::released) {
                fmt::print(stderr, "internal error: unexpected store reply in the benchmark\n");
                return 0;
            }
        }
        elapsed = watch.cpu_s();
    } while (elapsed < budget_s);
    return static_cast<double>(ops) / elapsed;
}

// SHA-256 on its own over the bytes a hashed run hashes (every event line
// and its newline): run_to_end hands each line over, the lines are gathered
// into blocks of 1 MiB, and only the digest updates of those blocks are
// timed (CPU), so the figure is the hash's speed over the very same bytes.
class Sha256BlockSink final : public sim::EventSink {
public:
    Sha256BlockSink() { block_.reserve(block_bytes + 4096); }
    void on_event(const sim::Event& e) override {
        sim::append_event_line(block_, e);
        block_ += '\n';
        after_line();
    }
    void on_event_view(const sim::EventView& e) override {
        sim::append_event_line(block_, e);
        block_ += '\n';
        after_line();
    }
    void on_event_line(const sim::EventView&, std::string_view line) override {
        block_.append(line);
        after_line();
    }
    // Hashes what is left and returns the digest, as the summary writes it.
    std::string finish() {
        hash_block();
        return hasher_.hex();
    }
    std::int64_t bytes = 0;
    double hash_s = 0;

private:
    static constexpr std::size_t block_bytes = std::size_t{1} << 20;
    void after_line() {
        if (block_.size() >= block_bytes) hash_block();
    }
    void hash_block() {
        const double start = cpu_seconds();
        hasher_.add_lines(block_);
        hash_s += cpu_seconds() - start;
        bytes += static_cast<std::int64_t>(block_.size());
        block_.clear();
    }
    sim::TraceHasher hasher_;
    std::string block_;
};

struct SimFigures {
    double parse_s = 0;
    std::int64_t scenario_bytes = 0;
    std::int64_t events = 0;
    Tick ticks = 0;
    double core_s = 0;       // Simulation::step with a counting sink (CPU), the fastest pass
    double core_wall_s = 0;  // that pass's wall-clock time
    int core_passes = 0;
    double hashed_s = 0;  // run_to_end: every event line built and hashed (CPU)
    double hashed_wall_s = 0;
    std::int64_t hashed_bytes = 0;  // the event lines the hashed run hashed
    double sha256_s = 0;            // SHA-256 alone over those bytes (CPU)
};

// SHA-256's own time over the bytes run_to_end hashes, from a third run;
// false when its digest is not the run's (the bytes would not be the same).
bool bench_sha256(const sim::Scenario& scenario, SimFigures& f) {
    sim::Simulation simulation(scenario);
    ModelStore store(scenario.lock);
    Sha256BlockSink sink;
    auto summary = sim::run_to_end(simulation, store, sink, {}, std::nullopt, /*keep_results=*/false);
    if (!summary.ok() || sink.finish() != summary.value().trace_sha256) return false;
    f.hashed_bytes = sink.bytes;
    f.sha256_s = sink.hash_s;
    return true;
}

// The core loop, Simulation::step with a counting sink. A pass shorter
// than the budget is run again, up to core_passes_max passes in all, and
// the fastest is kept: at 10 candidates a pass is about 50 ms, and one such
// pass on a shared machine measures its neighbours as much as the loop.
bool bench_core(const sim::Scenario& scenario, SimFigures& f) {
    constexpr int core_passes_max = 5;
    constexpr double core_budget_s = 1.0;
    double spent = 0;
    f.core_passes = 0;
    while (f.core_passes < core_passes_max && spent < core_budget_s) {
        sim::Simulation simulation(scenario);
        ModelStore store(scenario.lock);
        sim::CountingSink sink;
        Stopwatch watch;
        while (!simulation.finished()) {
            // As run_to_end does: quiet ticks are passed over at once, then
            // the next tick is stepped.
            simulation.skip_quiet_ticks(store, std::numeric_limits<Tick>::max());
            auto stepped = simulation.step(store, sink);
            if (!stepped.ok()) return false;
        }
        const double cpu = watch.cpu_s();
        const double wall = watch.wall_s();
        spent += cpu;
        if (f.core_passes == 0 || cpu < f.core_s) {
            f.core_s = cpu;
            f.core_wall_s = wall;
        }
        ++f.core_passes;
        f.events = sink.count;
        f.ticks = simulation.end_tick() + 1;
    }
    return true;
}

bool bench_simulation(std::int64_t candidates, Tick horizon, std::uint64_t seed, SimFigures& f) {
    std::string text = sim::generate_scenario({candidates, horizon, seed, false, true});
    f.scenario_bytes = static_cast<std::int64_t>(text.size());
    Stopwatch parse_watch;
    auto parsed = sim::parse_scenario(text, "<generated>");
    f.parse_s = parse_watch.cpu_s();
    std::string().swap(text);  // the file's bytes (14 MB for 100,000 candidates) are not needed past here
    if (!parsed.ok()) {
        fmt::print(stderr, "internal error: {}\n", parsed.error().to_string());
        return false;
    }
    const sim::Scenario& scenario = parsed.value();
    if (!bench_core(scenario, f)) return false;
    {
        sim::Simulation simulation(scenario);
        ModelStore store(scenario.lock);
        sim::CountingSink sink;
        Stopwatch watch;
        // As `run` does: the results written in pieces from the electors'
        // outcomes, not kept as one record per run.
        auto summary = sim::run_to_end(simulation, store, sink, {}, std::nullopt, /*keep_results=*/false);
        std::size_t summary_bytes = 0;
        if (summary.ok()) {
            sim::write_summary_line(simulation, summary.value(),
                                    [&](std::string_view piece) { summary_bytes += piece.size(); });
        }
        f.hashed_s = watch.cpu_s();
        if (summary_bytes == 0) return false;
        f.hashed_wall_s = watch.wall_s();
        if (!summary.ok() || sink.count != f.events) return false;
    }
    return bench_sha256(scenario, f);
}

// Trace bytes written (canonical JSONL) and read back (parse_trace checks
// keys, order, count and hash) per second.
struct TraceIoFigures {
    double write_mb_s = 0;
    double read_mb_s = 0;
    std::size_t events = 0;
    double megabytes = 0;
};

TraceIoFigures bench_trace_io(std::uint64_t seed, double budget_s) {
    TraceIoFigures out;
    auto parsed = sim::parse_scenario(sim::generate_scenario({1'000, 200'000, seed, false, true}), "<generated>");
    if (!parsed.ok()) return out;
    const sim::Trace trace = sim::simulate(parsed.value());
    std::string jsonl;
    std::int64_t written = 0;
    Stopwatch write_watch;
    double elapsed = 0;
    do {
        jsonl = sim::trace_to_jsonl(trace);
        written += static_cast<std::int64_t>(jsonl.size());
        elapsed = write_watch.cpu_s();
    } while (elapsed < budget_s);
    const double write_mb_s = static_cast<double>(written) / 1e6 / elapsed;
    std::int64_t read = 0;
    Stopwatch read_watch;
    do {
        auto back = sim::parse_trace(jsonl, "<bench>");
        if (!back.ok()) {
            fmt::print(stderr, "internal error: {}\n", back.error().to_string());
            return out;
        }
        read += static_cast<std::int64_t>(jsonl.size());
        elapsed = read_watch.cpu_s();
    } while (elapsed < budget_s);
    const double read_mb_s = static_cast<double>(read) / 1e6 / elapsed;
    out.write_mb_s = write_mb_s;
    out.read_mb_s = read_mb_s;
    out.events = trace.events.size();
    out.megabytes = static_cast<double>(jsonl.size()) / 1e6;
    return out;
}

// One simulation's figures: its row of the JSON document, printed as a
// line of text unless `json`.
nlohmann::ordered_json simulation_row(std::int64_t n, const SimFigures& f, bool json) {
    const auto events = static_cast<double>(f.events);
    const double hashed_mb = static_cast<double>(f.hashed_bytes) / 1e6;
    nlohmann::ordered_json row = {{"candidates", n},
                                  {"events", f.events},
                                  {"ticks", f.ticks},
                                  {"core_events_per_cpu_s", events / f.core_s},
                                  {"core_ticks_per_cpu_s", static_cast<double>(f.ticks) / f.core_s},
                                  {"core_events_per_wall_s", events / f.core_wall_s},
                                  {"core_passes", f.core_passes},
                                  {"hashed_events_per_cpu_s", events / f.hashed_s},
                                  {"hashed_events_per_wall_s", events / f.hashed_wall_s},
                                  {"hashed_mb", hashed_mb},
                                  {"sha256_mb_per_cpu_s", hashed_mb / f.sha256_s},
                                  {"hashed_to_sha256", f.sha256_s / f.hashed_s},
                                  {"scenario_bytes", f.scenario_bytes},
                                  {"parse_cpu_s", f.parse_s},
                                  {"peak_rss_mib", peak_rss_mib()}};
    if (json) return row;
    fmt::print(
        "simulate    {:>7} candidates: {:>10} events, {:>8} ticks | core {:>6.2f} M events/s, "
        "{:>6.2f} M ticks/s (wall {:.2f}, {:.2f}; best of {}) | hashed {:>6.2f} M events/s (wall {:.2f}), {:.0f} MB/s "
        "= {:.2f} of SHA-256 alone ({:.0f} MB/s over the same {:.0f} MB) | parse "
        "{:.1f} MB in {:.3f} s | peak RSS {:.0f} MiB\n",
        n, f.events, f.ticks, events / f.core_s / 1e6, static_cast<double>(f.ticks) / f.core_s / 1e6,
        events / f.core_wall_s / 1e6, static_cast<double>(f.ticks) / f.core_wall_s / 1e6, f.core_passes,
        events / f.hashed_s / 1e6, events / f.hashed_wall_s / 1e6, hashed_mb / f.hashed_s, f.sha256_s / f.hashed_s,
        hashed_mb / f.sha256_s, hashed_mb, static_cast<double>(f.scenario_bytes) / 1e6, f.parse_s, peak_rss_mib());
    return row;
}

// One exhaustive search (docs/explorer.md, Merging states): the generated
// scenario of 3 candidates over 1,000 ticks (seed `seed`, no faults of its
// own), up to 2 added pauses of 1..8 ticks starting at ticks 0..max_tick,
// unsafe_write and fencing_regressed checked. Its runs last the whole
// horizon and mostly meet, so it shows what merging states does. Null when
// the scenario or the search is refused (it is not, for any seed so far).
std::optional<nlohmann::ordered_json> bench_explore(std::uint64_t seed, Tick max_tick) {
    sim::GeneratorOptions g;
    g.seed = seed;
    g.candidates = 3;
    g.horizon = 1'000;
    g.faults = false;
    auto scenario = sim::parse_scenario(sim::generate_scenario(g), "generated.json");
    if (!scenario.ok()) return std::nullopt;
    sim::ExploreOptions o;
    o.max_faults = 2;
    o.kinds = sim::parse_fault_kinds("pause").value();
    o.max_pause = 8;
    o.max_tick = max_tick;
    o.shuffles = 0;
    o.properties = sim::parse_properties("unsafe_write,fencing_regressed").value();
    auto explorer = sim::Explorer::create(scenario.value(), o);
    if (!explorer.ok()) return std::nullopt;
    const Stopwatch watch;
    const sim::ExploreReport report = sim::explore(explorer.value(), sim::ExploreRun{});
    const double cpu = std::max(watch.cpu_s(), 1e-9);
    const sim::SearchStats& t = report.totals;
    nlohmann::ordered_json row = {{"schedules", t.schedules},
                                  {"simulated", t.simulated},
                                  {"merged", t.merged},
                                  {"states", t.states},
                                  {"ticks", t.ticks},
                                  {"schedules_per_cpu_s", static_cast<double>(t.schedules) / cpu},
                                  {"simulated_per_cpu_s", static_cast<double>(t.simulated) / cpu},
                                  {"states_per_cpu_s", static_cast<double>(t.states) / cpu}};
    return row;
}

// The build the figures come from: its type, and whether the simulator was
// compiled with a profile (cmake/pgo.cmake, tools/pgo.sh) or instrumented to
// write one (whose figures say little).
struct BuildKind {
    std::string type = LEASESCOPE_BUILD_TYPE;
    // "off", "use" or "generate", whatever spelling of OFF CMake was given.
    std::string pgo = std::string_view(LEASESCOPE_PGO_BUILD) == "use"        ? "use"
                      : std::string_view(LEASESCOPE_PGO_BUILD) == "generate" ? "generate"
                                                                             : "off";
    std::string words() const {
        std::string out = (type.empty() ? std::string("no build type") : type) + " build";
        if (pgo == "use") out += ", profile-guided (tools/pgo.sh)";
        if (pgo == "generate") out += ", instrumented for a profile (not representative)";
        return out;
    }
};

int cmd_bench(const std::vector<std::int64_t>& sizes, Tick horizon, std::uint64_t seed, bool quick,
              const std::string& format) {
    const bool json = format == "json";
    const double budget_s = quick ? 0.2 : 1.0;
    if (quick) horizon = std::min<Tick>(horizon, 100'000);
    nlohmann::ordered_json doc;
    const BuildKind build;
    doc["command"] = "bench";
    doc["build"] = {{"type", build.type}, {"pgo", build.pgo}};
    doc["seed"] = seed;
    doc["horizon"] = horizon;
    if (!json)
        fmt::print(
            "leasescope-cli bench: {}; seed {}, horizon {} ticks, one thread; rates per CPU second "
            "(wall-clock rates in parentheses)\n",
            build.words(), seed, horizon);
    const double store_ops = bench_store(budget_s);
    doc["store_ops_per_cpu_s"] = store_ops;
    if (!json)
        fmt::print("store       {:>12.0f} operations/s  (acquire, extend, validate, release on 4 slots)\n", store_ops);
    nlohmann::ordered_json simulations = nlohmann::ordered_json::array();
    for (const std::int64_t n : sizes) {
        if (n < 1 || n > sim::generator_candidates_max) {
            fmt::print(stderr, "error: --candidates {}: expected 1 to {}\n", n, sim::generator_candidates_max);
            return exit_bad_input;
        }
        SimFigures f;
        if (!bench_simulation(n, horizon, seed, f)) {
            fmt::print(stderr, "error: the simulation of {} candidates failed\n", n);
            return exit_check_failed;
        }
        simulations.push_back(simulation_row(n, f, json));
    }
    doc["simulations"] = std::move(simulations);
    const TraceIoFigures io = bench_trace_io(seed, budget_s);
    doc["trace_write_mb_per_cpu_s"] = io.write_mb_s;
    doc["trace_read_mb_per_cpu_s"] = io.read_mb_s;
    doc["trace_events"] = io.events;
    doc["trace_mb"] = io.megabytes;
    const std::optional<nlohmann::ordered_json> explored = bench_explore(seed, quick ? 20 : 40);
    if (!explored) {
        fmt::print(stderr, "internal error: the explore benchmark's search was refused\n");
        return exit_check_failed;
    }
    doc["explore"] = *explored;
    doc["peak_rss_mib"] = peak_rss_mib();
    if (json) {
        const std::string text = doc.dump(2) + "\n";
        std::fwrite(text.data(), 1, text.size(), stdout);
        return exit_ok;
    }
    fmt::print("trace write {:>12.1f} MB/s  ({} events, {:.1f} MB of JSONL)\n", io.write_mb_s, io.events, io.megabytes);
    fmt::print("trace read  {:>12.1f} MB/s  (parse_trace: keys, order, count and SHA-256 checked)\n", io.read_mb_s);
    const nlohmann::ordered_json& e = *explored;
    fmt::print(
        "explore     {:>12.0f} schedules/s, {:.0f} simulated/s, {:.0f} distinct states/s  ({} schedules, {} "
        "simulated, {} of them merged, {} states; 3 candidates, up to 2 pauses)\n",
        e["schedules_per_cpu_s"].get<double>(), e["simulated_per_cpu_s"].get<double>(),
        e["states_per_cpu_s"].get<double>(), e["schedules"].get<std::uint64_t>(), e["simulated"].get<std::uint64_t>(),
        e["merged"].get<std::uint64_t>(), e["states"].get<std::uint64_t>());
    fmt::print("peak RSS    {:>12.0f} MiB (getrusage ru_maxrss, whole bench)\n", peak_rss_mib());
    return exit_ok;
}

}  // namespace

void add_bench_commands(CLI::App& app, int& exit_code) {
    // CLI11 binds options by reference; the values live in shared state that
    // the callbacks own, as long as the app does.
    struct Options {
        sim::GeneratorOptions generate;
        std::vector<std::int64_t> sizes = {10, 1'000, 100'000};
        Tick horizon = 1'000'000;
        std::uint64_t seed = 1;
        bool quick = false;
        std::string format = "text";
    };
    auto o = std::make_shared<Options>();

    auto* generate = app.add_subcommand(
        "generate", "Print a generated, valid scenario (JSON) to stdout: repeating runs, faults, varied starts");
    auto* candidates = generate->add_option("--candidates", o->generate.candidates, "Number of candidates")
                           ->check(integer_in(1, sim::generator_candidates_max))
                           ->capture_default_str();
    auto* horizon = generate->add_option("--horizon", o->generate.horizon, "Last tick")
                        ->check(integer_in(sim::generator_horizon_min, sim::generator_horizon_max))
                        ->capture_default_str();
    generate->add_option("--seed", o->generate.seed, "Seed: the same arguments give the same bytes")
        ->check(unsigned_integer())
        ->capture_default_str();
    generate->add_option("--order", o->generate.shuffled, "Phase-5 order: declared (default) or shuffled")
        ->transform(CLI::CheckedTransformer(std::map<std::string, bool>{{"declared", false}, {"shuffled", true}}));
    generate->add_flag_callback(
        "--no-faults", [o] { o->generate.faults = false; }, "Leave out faults");
    generate->add_flag_callback(
        "--replication", [o] { o->generate.replication = true; },
        "A store with 1-2 replicas (model.md §17): cuts of their links, a failover promoting a replica with lag "
        "0-2, sometimes min_replicas_to_write and wait_replicas");
    generate
        ->add_option("--client", o->generate.client,
                     "elector (default) or redlock: a Redlock scenario (model.md §20) inside what "
                     "tests/redlock/driver.js runs through the real npm package: 1, 3 or 5 stores, 1-3 clients, "
                     "pauses, a crash, store restarts (none/always), 36 ticks; it draws its own size, so "
                     "--candidates, --horizon, --order and --replication do not apply")
        ->transform(CLI::CheckedTransformer(std::map<std::string, sim::GeneratedClient>{
            {"elector", sim::GeneratedClient::elector}, {"redlock", sim::GeneratedClient::redlock}}));
    generate->callback([o, candidates, horizon, &exit_code] {
        const bool elector_only =
            candidates->count() > 0 || horizon->count() > 0 || o->generate.shuffled || o->generate.replication;
        if (o->generate.client == sim::GeneratedClient::redlock && elector_only) {
            fmt::print(stderr,
                       "error: --client redlock draws its own stores, clients and 36 ticks: --candidates, "
                       "--horizon, --order shuffled and --replication are for the elector\n");
            exit_code = exit_bad_input;
            return;
        }
        exit_code = cmd_generate(o->generate);
    });

    auto* bench = app.add_subcommand(
        "bench", "Measure store, simulator, parser and trace speed, and one exhaustive search, on generated scenarios");
    bench->add_option("--candidates", o->sizes, "Scenario sizes to simulate (repeat or separate with commas)")
        ->delimiter(',')
        ->check(integer_in(1, sim::generator_candidates_max))
        ->capture_default_str();
    bench->add_option("--horizon", o->horizon, "Ticks each generated scenario covers")
        ->check(integer_in(sim::generator_horizon_min, sim::generator_horizon_max))
        ->capture_default_str();
    bench->add_option("--seed", o->seed, "Generator seed")->check(unsigned_integer())->capture_default_str();
    bench->add_flag("--quick", o->quick, "Short budgets and a horizon of at most 100,000: a smoke test");
    bench
        ->add_option("--format", o->format,
                     "What stdout shows: text, or json (one document; fields in docs/cli-json.md)")
        ->check(CLI::IsMember({"text", "json"}));
    bench->callback([o, &exit_code] { exit_code = cmd_bench(o->sizes, o->horizon, o->seed, o->quick, o->format); });
}

}  // namespace leasescope::cli

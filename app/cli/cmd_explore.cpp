// `leasescope-cli explore`: searches fault schedules added to a scenario for
// a broken property and writes the shortest counterexample as a scenario.
// The search itself is pure (sim/explorer); this file owns the threads and
// the clock, which sim/ must not touch.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <ctime>
#include <memory>
#include <random>
#include <thread>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "common.hpp"
#include "leasescope/sim/limits.hpp"
#include "leasescope/sim/explorer.hpp"

namespace leasescope::cli {
namespace {

struct ExploreArgs {
    std::string path;
    std::vector<std::string> sets;
    bool exhaustive = false;
    std::optional<std::uint64_t> seeds;
    std::optional<std::uint64_t> seed;
    int max_faults = 2;
    std::string fault_kinds = "all";
    Tick max_pause = 8;
    std::optional<Tick> max_tick;
    int shuffles = 2;
    std::string properties = "unsafe_write,fencing_regressed,liveness";
    unsigned jobs = 0;
    std::string out;
    std::uint64_t chunk = 16;
    bool no_prune = false;
    std::string format = "text";
};

// Human lines on stdout, left out with --format json (which prints one document at the end).
template <typename... T>
void say(bool quiet, fmt::format_string<T...> format, T&&... args) {
    if (!quiet) fmt::print(format, std::forward<T>(args)...);
}

// Hands chunks to `jobs` threads from a shared counter, so a thread that drew
// cheap chunks takes more. Which thread ran which chunk does not matter: the
// explorer merges the chunks in index order.
sim::ChunkRunner thread_runner(unsigned jobs) {
    return [jobs](std::size_t count, const std::function<void(std::size_t)>& run_chunk) {
        std::atomic<std::size_t> next{0};
        auto work = [&] {
            for (;;) {
                const std::size_t c = next.fetch_add(1, std::memory_order_relaxed);
                if (c >= count) return;
                run_chunk(c);
            }
        };
        const std::size_t extra = std::min<std::size_t>(jobs, count) > 0 ? std::min<std::size_t>(jobs, count) - 1 : 0;
        std::vector<std::thread> threads;
        threads.reserve(extra);
        for (std::size_t j = 0; j < extra; ++j) threads.emplace_back(work);
        work();
        for (auto& t : threads) t.join();
    };
}

std::string count_of(std::uint64_t n, const char* one, const char* many) {
    return fmt::format("{} {}", n, n == 1 ? one : many);
}

std::string stats_line(const sim::SearchStats& s) {
    return fmt::format("{}: {} simulated, {} pruned, {} invalid, {} failing",
                       count_of(s.schedules, "schedule", "schedules"), s.simulated, s.pruned, s.invalid, s.failing);
}

// A number per second, readable: 1234567 -> "1.23 M".
std::string rate(double per_second) {
    if (per_second >= 1e6) return fmt::format("{:.2f} M", per_second / 1e6);
    if (per_second >= 1e3) return fmt::format("{:.1f} k", per_second / 1e3);
    return fmt::format("{:.0f}", per_second);
}

int cmd_explore(const ExploreArgs& args) {
    const bool json = args.format == "json";
    auto scenario = load_scenario(args.path, args.sets);
    if (!scenario) return exit_bad_input;

    sim::ExploreOptions options;
    options.max_faults = args.max_faults;
    options.max_pause = args.max_pause;
    options.max_tick = args.max_tick;
    options.shuffles = args.shuffles;
    options.prune = !args.no_prune;
    auto kinds = sim::parse_fault_kinds(args.fault_kinds);
    if (!kinds.ok()) {
        fmt::print(stderr, "error: --fault-kinds: {}\n", kinds.error());
        return exit_bad_input;
    }
    options.kinds = kinds.value();
    auto properties = sim::parse_properties(args.properties);
    if (!properties.ok()) {
        fmt::print(stderr, "error: --property: {}\n", properties.error());
        return exit_bad_input;
    }
    options.properties = properties.value();

    sim::ExploreRun run;
    run.chunk = std::max<std::uint64_t>(args.chunk, 1);
    const bool random = args.seeds.has_value() || args.seed.has_value();
    if (random) {
        run.mode = sim::ExploreMode::random;
        run.draws = args.seeds.value_or(10'000);
        if (run.draws > sim::explore_draws_max) {
            fmt::print(stderr, "error: --seeds: expected at most {}, found {}\n", sim::explore_draws_max, run.draws);
            return exit_bad_input;
        }
        if (args.seed) {
            run.seed = *args.seed;
        } else {
            // The only nondeterminism, and it is printed first: the run
            // replays exactly with --seed.
            std::random_device device;
            run.seed = (static_cast<std::uint64_t>(device()) << 32) ^ device();
        }
        say(json, "seed {} (replay with --seed {})\n", run.seed, run.seed);
        std::fflush(stdout);
    }

    auto created = sim::Explorer::create(*scenario, options);
    if (!created.ok()) {
        fmt::print(stderr, "error: {}\n", created.error());
        return exit_bad_input;
    }
    const sim::Explorer& explorer = created.value();
    const unsigned jobs = args.jobs > 0 ? args.jobs : std::max(1u, std::thread::hardware_concurrency());
    if (jobs > 1) run.runner = thread_runner(jobs);

    say(json, "exploring {}: {}, base ends at tick {}; faults start at ticks 0..{}\n", scenario->name,
               count_of(scenario->candidates.size(), "candidate", "candidates"), explorer.base_end_tick(),
               explorer.max_tick());
    say(json, "  budget: up to {} of {}; pauses and partitions 1..{} ticks; orders: as given{}; {} single faults\n",
               count_of(static_cast<std::uint64_t>(options.max_faults), "fault", "faults"),
               sim::to_string(options.kinds), options.max_pause,
               options.shuffles > 0 ? fmt::format(" + {} shuffled", options.shuffles) : std::string(),
               explorer.atoms().size());
    say(json, "  checking: {}; mode: {}\n", sim::to_string(options.properties),
               random ? fmt::format("random, {} draws", run.draws) : std::string("exhaustive"));
    std::fflush(stdout);

    // Wall time for the rates, and the process's CPU time (all threads) for
    // a per-core figure that does not depend on how busy the machine is.
    const auto started = std::chrono::steady_clock::now();
    const std::clock_t cpu_started = std::clock();
    const sim::ExploreReport report = sim::explore(explorer, run);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    const double cpu_seconds = static_cast<double>(std::clock() - cpu_started) / CLOCKS_PER_SEC;

    for (const sim::LevelReport& level : report.levels) {
        say(json, "  {}: {}\n", count_of(static_cast<std::uint64_t>(level.faults), "fault", "faults"),
                   stats_line(level.stats));
    }
    if (random) say(json, "  draws: {}\n", stats_line(report.totals));

    int status = exit_ok;
    nlohmann::ordered_json counterexample;  // null when none was found
    if (!report.found) {
        if (random) {
            say(json, "no counterexample in {} of seed {}\n", count_of(run.draws, "draw", "draws"), run.seed);
        } else {
            say(json, "no counterexample: every schedule with up to {} holds ({} checked)\n",
                       count_of(static_cast<std::uint64_t>(options.max_faults), "added fault", "added faults"),
                       sim::to_string(options.properties));
        }
    } else {
        status = exit_check_failed;
        const sim::Counterexample cx = sim::make_counterexample(explorer, *report.found);
        if (random) {
            // The draw as it came, then the shrunk schedule below.
            std::vector<std::string> drawn;
            if (report.drawn->variant != 0) drawn.push_back(sim::describe_variant(explorer, report.drawn->variant).en);
            for (const std::int32_t a : report.drawn->atoms) {
                drawn.push_back(sim::describe_fault(explorer.base(), explorer.atoms()[static_cast<std::size_t>(a)]).en);
            }
            say(json, "draw {} of seed {} fails: {}\n", report.drawn_index, run.seed,
                       drawn.empty() ? std::string("no added fault") : fmt::format("{}", fmt::join(drawn, "; ")));
            if (*report.drawn != *report.found) say(json, "shrunk while it still fails to:\n");
        }
        say(json, "counterexample ({}):\n", count_of(report.found->atoms.size(), "added fault", "added faults"));
        if (cx.faults.empty()) say(json, "  (none: the scenario fails as it is)\n");
        for (const sim::Localized& f : cx.faults) say(json, "  {}\n", f.en);
        say(json, "  => {}\n", cx.explanation.en);
        const std::string out_path = args.out.empty() ? cx.scenario.name + ".json" : args.out;
        const std::string bytes = sim::scenario_to_json(cx.scenario);
        // The file must open as it is: parse what is about to be written.
        auto reparsed = sim::parse_scenario(bytes, out_path);
        if (!reparsed.ok()) {
            fmt::print(stderr, "error: the counterexample does not parse back: {}\n", reparsed.error().to_string());
            return exit_bad_input;
        }
        if (!write_file_atomic(out_path, bytes)) return exit_write_failed;
        nlohmann::ordered_json faults = nlohmann::ordered_json::array();
        for (const sim::Localized& f : cx.faults) faults.push_back(f.en);
        counterexample = {{"faults", faults}, {"explanation", cx.explanation.en}, {"file", out_path}};
        say(json, "written {} (open it in the app, or: leasescope-cli run {} --format text)\n", out_path, out_path);
    }

    const sim::SearchStats& t = report.totals;
    const double safe_seconds = std::max(seconds, 1e-9);
    const double ticks_per_second = static_cast<double>(t.ticks) / safe_seconds;
    const double ticks_per_cpu_second = static_cast<double>(t.ticks) / std::max(cpu_seconds, 1e-9);
    say(json, "bench: {} schedules ({} simulated) in {:.3f} s with {}: {} schedules/s, {} simulated/s; "
               "{} simulated ticks: {} ticks/s; {:.3f} s of CPU: {} ticks per CPU second (per core)\n",
               t.schedules, t.simulated, seconds, count_of(jobs, "job", "jobs"),
               rate(static_cast<double>(t.schedules) / safe_seconds),
               rate(static_cast<double>(t.simulated) / safe_seconds), t.ticks, rate(ticks_per_second), cpu_seconds,
               rate(ticks_per_cpu_second));
    if (json) {
        auto stats = [](const sim::SearchStats& st) {
            return nlohmann::ordered_json{{"schedules", st.schedules}, {"simulated", st.simulated},
                                          {"pruned", st.pruned},       {"invalid", st.invalid},
                                          {"failing", st.failing},     {"ticks", st.ticks}};
        };
        nlohmann::ordered_json doc;
        doc["command"] = "explore";
        doc["scenario"] = args.path;
        doc["name"] = scenario->name;
        doc["mode"] = random ? "random" : "exhaustive";
        doc["seed"] = random ? nlohmann::ordered_json(run.seed) : nlohmann::ordered_json();
        doc["draws"] = random ? nlohmann::ordered_json(run.draws) : nlohmann::ordered_json();
        doc["max_faults"] = options.max_faults;
        doc["properties"] = sim::to_string(options.properties);
        nlohmann::ordered_json levels = nlohmann::ordered_json::array();
        for (const sim::LevelReport& level : report.levels) {
            nlohmann::ordered_json l = stats(level.stats);
            l["faults"] = level.faults;
            levels.push_back(std::move(l));
        }
        doc["levels"] = std::move(levels);
        doc["totals"] = stats(report.totals);
        doc["found"] = report.found.has_value();
        doc["counterexample"] = counterexample;
        doc["seconds"] = seconds;
        doc["cpu_seconds"] = cpu_seconds;
        doc["jobs"] = jobs;
        doc["exit_code"] = status;
        const std::string text = doc.dump(2) + "\n";
        std::fwrite(text.data(), 1, text.size(), stdout);
    }
    return status;
}

}  // namespace

void add_explore_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<ExploreArgs>();
    auto* cmd = app.add_subcommand(
        "explore",
        "Add fault schedules to a scenario, look for a broken property and write the shortest counterexample.\n"
        "Exit codes: 1 a counterexample was found, 0 none within the budget, 2 bad input, 4 the counterexample "
        "(or standard output) could not be written.");
    cmd->add_option("SCENARIO", args->path, "Base scenario file (its own faults stay in every schedule)")->required();
    auto* exhaustive = cmd->add_flag("--exhaustive", args->exhaustive,
                                     "Cover every schedule in the budget, fewest faults first (the default)");
    cmd->add_option("--seeds", args->seeds, "Random mode: evaluate N drawn schedules instead")
        ->check(CLI::PositiveNumber)
        ->check(unsigned_integer())
        ->excludes(exhaustive);
    cmd->add_option("--seed", args->seed, "Random mode: the seed of the draws (default: printed, fresh each run)")
        ->check(unsigned_integer())
        ->excludes(exhaustive);
    cmd->add_option("--max-faults", args->max_faults, "Added faults per schedule (0 to 4)")->check(integer_in(0, std::int64_t{2147483647}))->capture_default_str();
    cmd->add_option("--fault-kinds", args->fault_kinds,
                    "Kinds to add: pause,partition,crash,failover, or narrowed: partition:drop_requests, "
                    "partition:drop_replies, failover:leases, failover:all")
        ->capture_default_str();
    cmd->add_option("--max-pause", args->max_pause, "Longest pause or partition, in ticks")
        ->check(integer_in(0, limits::duration_max))->capture_default_str();
    cmd->add_option("--max-tick", args->max_tick,
                    "Last tick at which a fault may start (default: the base's end tick + --max-pause × --max-faults, "
                    "within the horizon)")
        ->check(integer_in(0, limits::horizon_max));
    cmd->add_option("--shuffles", args->shuffles,
                    "Also try order=shuffled with this many seeds (the base's seed + 1, + 2, ...)")
        ->check(integer_in(0, std::int64_t{2147483647}))
        ->capture_default_str();
    cmd->add_option("--property", args->properties,
                    "Properties to check: overlap,unsafe_write,fencing_regressed,liveness or all")
        ->capture_default_str();
    cmd->add_option("--jobs", args->jobs, "Threads (default: one per core); the result does not depend on it")
        ->check(integer_in(0, 4096));
    cmd->add_option("--out", args->out, "Where to write the counterexample (default: NAME-counterexample.json)");
    cmd->add_option("--set", args->sets, "Override a value of the base: PATH=VALUE, e.g. resource.mode=check");
    cmd->add_option("--chunk", args->chunk, "Work units per chunk handed to a thread (tuning; no effect on the result)")
        ->check(unsigned_integer())
        ->capture_default_str();
    cmd->add_flag("--no-prune", args->no_prune,
                  "Simulate every schedule, even those with a fault that provably changes nothing (to check the "
                  "pruning; same counterexample, slower)");
    cmd->add_option("--format", args->format,
                    "What stdout shows: text, or json (one document at the end; fields in docs/cli-json.md)")
        ->check(CLI::IsMember({"text", "json"}));
    cmd->callback([args, &exit_code] { exit_code = cmd_explore(*args); });
}

}  // namespace leasescope::cli

// `leasescope-cli explore` and `explore-merge`: search fault schedules added
// to a scenario for a broken property, whole or one shard at a time, and write
// the smallest counterexample as a scenario (or, with --minimize, the smallest
// single fault of each kind). The search itself is pure
// (sim/explorer); this file owns the threads, the clock and the files.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <initializer_list>
#include <ctime>
#include <memory>
#include <limits>
#include <random>
#include <thread>

#include <unistd.h>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "common.hpp"
#include "explore_watch.hpp"
#include "leasescope/sim/durations.hpp"
#include "leasescope/sim/explore_shard.hpp"
#include "leasescope/sim/limits.hpp"
#include "leasescope/sim/explorer.hpp"
#include "leasescope/words/counterexample_words.hpp"

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
    Tick max_delay = 0;
    std::int64_t max_clock_jump_ms = 0;
    Tick max_link_cut = 8;
    Tick max_lag = 2;
    std::optional<Tick> max_tick;
    std::vector<std::string> grids;  // --grid kind=LO..HI, any number
    std::string start_every;         // --start-every, ticks or a duration; empty: every tick
    int shuffles = 2;
    std::string properties = "unsafe_write,fencing_regressed,liveness";
    unsigned jobs = 0;
    std::string out;
    std::uint64_t chunk = 16;
    bool no_prune = false;
    bool no_merge = false;
    std::string shard;  // "K/N"
    std::string assets;
    std::string format = "text";
    bool minimize = false;
    std::string time_limit;         // --time-limit, a duration ("10m"); empty: none
    bool max_faults_given = false;  // --max-faults on the command line (--minimize refuses other than 1)
    bool max_pause_given = false;   // --max-pause on the command line (--minimize scales the sizes without it)
    bool property_given = false;    // --property on the command line (a Redlock base has its own default)
};

struct MergeArgs {
    std::vector<std::string> results;
    std::string out;
    std::string assets;
    std::string format = "text";
};

// "K/N" with 0 <= K < N <= explore_shards_max.
std::optional<std::pair<std::uint64_t, std::uint64_t>> parse_shard(const std::string& text) {
    const std::size_t slash = text.find('/');
    if (slash == std::string::npos || slash == 0 || slash + 1 == text.size()) return std::nullopt;
    const std::string k = text.substr(0, slash), n = text.substr(slash + 1);
    auto digits = [](const std::string& t) {
        return t.size() <= 6 && std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; });
    };
    if (!digits(k) || !digits(n)) return std::nullopt;
    const std::uint64_t index = std::stoull(k), count = std::stoull(n);
    if (count < 1 || count > sim::explore_shards_max || index >= count) return std::nullopt;
    return std::pair{index, count};
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

struct Timing {
    double seconds = 0;
    double cpu_seconds = 0;
    std::uint64_t jobs = 0;
};

// The delays', clock jumps' and replication's part of the budget line, empty without them.
std::string wire_budget(const sim::ExploreOptions& options, std::int64_t tick_ms) {
    std::string out;
    if (options.kinds.delays() && options.grids.delay.empty())
        out += fmt::format("; delays 1..{} ticks on messages sent in one tick", options.max_delay);
    if (options.kinds.clock_jumps() && options.grids.clock_jump.empty()) {
        const std::int64_t top = options.max_clock_jump_ms / tick_ms * tick_ms;
        const char* sign = options.kinds.clock_jump_forward && options.kinds.clock_jump_back ? "±"
                           : options.kinds.clock_jump_back                                   ? "-"
                                                                                             : "+";
        out += fmt::format("; store clock jumps {}{}..{}{} ms by {} ms", sign, tick_ms, sign, top, tick_ms);
    }
    if (options.kinds.replica_link) out += fmt::format("; replica links cut 1..{} ticks", options.max_link_cut);
    if (options.kinds.failover_promote) out += fmt::format("; promotions lagging 0..{} ticks", options.max_lag);
    // A grid (--grid) replaces its kind's range above (docs/explorer.md, Grids).
    if (options.grids.any()) out += "; on the grid " + sim::to_string(options.grids, tick_ms);
    return out;
}

// "a, b or c" from "a,b,c" (the properties, for the proved line).
std::string or_list(const std::string& comma_separated) {
    std::vector<std::string> items;
    for (std::size_t from = 0; from <= comma_separated.size();) {
        const std::size_t comma = std::min(comma_separated.find(',', from), comma_separated.size());
        items.push_back(comma_separated.substr(from, comma - from));
        from = comma + 1;
    }
    if (items.size() == 1) return items[0];
    const std::string last = items.back();
    items.pop_back();
    return fmt::format("{} or {}", fmt::join(items, ", "), last);
}

// "; pauses and partitions 1..8 ticks": the kinds searched that last 1 …
// --max-pause ticks (a Redlock store's restart too), leaving out a kind on a
// grid (its sizes are the grid's, named at the end) and a kind not searched;
// empty when none is left.
std::string lengths_text(const sim::ExploreOptions& options) {
    const sim::FaultMenu& k = options.kinds;
    std::vector<std::string> kinds;
    if (k.pause && options.grids.pause.empty()) kinds.emplace_back("pauses");
    if ((k.partition_drop_requests || k.partition_drop_replies) && options.grids.partition.empty())
        kinds.emplace_back("partitions");
    if (k.restarts()) kinds.emplace_back("restarts");
    if (kinds.empty()) return {};
    const std::string last = kinds.back();
    kinds.pop_back();
    const std::string named = kinds.empty() ? last : fmt::format("{} and {}", fmt::join(kinds, ", "), last);
    return fmt::format("; {} 1..{} ticks", named, options.max_pause);
}

// The orders searched: "as given" and the shuffles.
std::string orders_text(const sim::ExploreOptions& options) {
    return fmt::format("orders: as given{}",
                       options.shuffles > 0 ? fmt::format(" + {} shuffled", options.shuffles) : std::string());
}

// The budget in the proved line's parentheses: what the search covered
// (docs/explorer.md, What was proved).
std::string budget_text(const sim::Explorer& explorer) {
    const sim::ExploreOptions& options = explorer.options();
    const std::int64_t tick_ms = explorer.base().tick_ms;
    return fmt::format("{}{}{}; faults starting at ticks {}; {}", sim::to_string(options.kinds), lengths_text(options),
                       wire_budget(options, tick_ms),
                       sim::starts_text(explorer.max_tick(), options.start_every, tick_ms), orders_text(options));
}

// "no schedule with at most 1 added fault (…budget…) leads to X", or with
// none "no schedule with no added fault (orders: …) leads to X".
std::string none_with_at_most(const sim::Explorer& explorer, std::uint64_t faults, const std::string& checked) {
    if (faults == 0)
        return fmt::format("no schedule with no added fault ({}) leads to {}", orders_text(explorer.options()),
                           checked);
    return fmt::format("no schedule with at most {} ({}) leads to {}", count_of(faults, "added fault", "added faults"),
                       budget_text(explorer), checked);
}

// What an exhaustive search stopped part way proved (docs/explorer.md, Long
// searches): the levels it finished, and the failing schedule it found in
// the level it was stopped in, if any, which others of that level may
// outrank.
std::string stopped_proved_line(const sim::Explorer& explorer, const sim::ExploreReport& report,
                                const std::string& checked, const sim::Properties& failed) {
    const std::uint64_t finished = report.levels.empty() ? 0 : report.levels.size() - 1;
    const std::string part = fmt::format("schedules with {} were searched only in part (the search was stopped)",
                                         count_of(finished, "added fault", "added faults"));
    if (report.found && report.found->atoms.empty())
        return fmt::format("proved: the base leads to {} with no added fault", or_list(sim::to_string(failed)));
    if (report.found)
        return fmt::format(
            "proved: {} of total magnitude {} leads to {} (the counterexample above); {}; {}, so one that ranks "
            "before it may exist",
            count_of(report.found->atoms.size(), "added fault", "added faults"),
            count_of(static_cast<std::uint64_t>(explorer.magnitude(*report.found)), "tick", "ticks"),
            or_list(sim::to_string(failed)), none_with_at_most(explorer, finished - 1, checked), part);
    if (finished == 0) return "proved: nothing (the search was stopped before its end)";
    return fmt::format("proved: {}; {}", none_with_at_most(explorer, finished - 1, checked), part);
}

// The one line that says what the search proved, and only that
// (docs/explorer.md, What was proved). `failed`: what the counterexample
// breaks, when there is one.
std::string proved_line(const sim::Explorer& explorer, const sim::ExploreRun& run, const sim::ExploreReport& report,
                        const sim::Properties& failed) {
    const std::string checked = or_list(sim::to_string(explorer.options().properties));
    if (!report.complete && run.mode == sim::ExploreMode::random)
        return "proved: nothing (the search was stopped before its end)";
    if (!report.complete) return stopped_proved_line(explorer, report, checked, failed);
    if (run.mode == sim::ExploreMode::random) {
        if (!report.found)
            return fmt::format(
                "proved: no counterexample among {} drawn schedules (seed {}); the rest of the budget was not "
                "searched",
                run.draws, run.seed);
        return fmt::format(
            "proved: draw {} of {} (seed {}) leads to {}, shrunk to {}; smaller schedules were not all searched",
            report.drawn_index, run.draws, run.seed, or_list(sim::to_string(failed)),
            count_of(report.found->atoms.size(), "added fault", "added faults"));
    }
    const int max_faults = explorer.options().max_faults;
    if (!report.found)
        return fmt::format("proved: no schedule with at most {} ({}) leads to {}",
                           count_of(static_cast<std::uint64_t>(max_faults), "added fault", "added faults"),
                           budget_text(explorer), checked);
    const std::size_t k = report.found->atoms.size();
    if (k == 0) return fmt::format("proved: the base leads to {} with no added fault", or_list(sim::to_string(failed)));
    return fmt::format(
        "proved: {} of total magnitude {} leads to {} (the counterexample above); no schedule with fewer added "
        "faults, and none with {} that ranks before it (fewer crashes and losing failovers, then a smaller total "
        "magnitude), leads to {} ({})",
        count_of(k, "added fault", "added faults"),
        count_of(static_cast<std::uint64_t>(explorer.magnitude(*report.found)), "tick", "ticks"),
        or_list(sim::to_string(failed)), k, checked, budget_text(explorer));
}

// What is searched: the base, the budget, the properties, the mode.
void print_header(std::FILE* o, const sim::Explorer& explorer, const sim::ExploreRun& run) {
    const sim::Scenario& base = explorer.base();
    const sim::ExploreOptions& options = explorer.options();
    const bool random = run.mode == sim::ExploreMode::random;
    fmt::print(o, "exploring {}: {}, base ends at tick {}; faults start at ticks {}\n", base.name,
               count_of(base.candidates.size(), "candidate", "candidates"), explorer.base_end_tick(),
               sim::starts_text(explorer.max_tick(), options.start_every, base.tick_ms));
    fmt::print(o, "  budget: up to {} of {}{}{}; orders: as given{}; {} single faults\n",
               count_of(static_cast<std::uint64_t>(options.max_faults), "fault", "faults"),
               sim::to_string(options.kinds), lengths_text(options), wire_budget(options, base.tick_ms),
               options.shuffles > 0 ? fmt::format(" + {} shuffled", options.shuffles) : std::string(),
               explorer.atoms().size());
    fmt::print(o, "  checking: {}; mode: {}\n", sim::to_string(options.properties),
               random ? fmt::format("random, {} draws", run.draws) : std::string("exhaustive"));
    std::fflush(o);
}

// The counters of an exhaustive search's levels from `printed` on, each
// printed as its level ends; the last marked when the search was stopped in it.
void print_levels(std::FILE* o, const sim::ExploreReport& report, std::size_t& printed) {
    for (; printed < report.levels.size(); ++printed) {
        const sim::LevelReport& level = report.levels[printed];
        const bool in_part = !report.complete && printed + 1 == report.levels.size();
        fmt::print(o, "  {}{}: {}\n", count_of(static_cast<std::uint64_t>(level.faults), "fault", "faults"),
                   in_part ? ", searched in part" : "", stats_line(level.stats));
    }
    std::fflush(o);
}

// The counters, the counterexample (written to `out`, or NAME-counterexample.json)
// or its absence; returns the exit code.
int print_outcome(std::FILE* o, const sim::Explorer& explorer, const sim::ExploreRun& run,
                  const sim::ExploreReport& report, const std::string& out, const words::Strings& strings,
                  nlohmann::ordered_json& found, std::string& proved) {
    const bool random = run.mode == sim::ExploreMode::random;
    const sim::ExploreOptions& options = explorer.options();
    if (random) fmt::print(o, "  draws: {}\n", stats_line(report.totals));

    if (!report.found) {
        if (random) {
            fmt::print(o, "no counterexample in {} of seed {}\n", count_of(run.draws, "draw", "draws"), run.seed);
        } else if (!report.complete) {
            fmt::print(o, "no counterexample in the part searched\n");
        } else {
            // With replicas, and on Redlock and Redisson, the line names the kinds searched (the others' line is as it was).
            const std::string of_kinds = explorer.base().lock.replication.replicas > 0 ||
                                                 explorer.base().is_redlock() || explorer.base().is_redisson()
                                             ? fmt::format(" of {}", sim::to_string(options.kinds))
                                             : std::string();
            fmt::print(o, "no counterexample: every schedule with up to {}{} holds ({} checked)\n",
                       count_of(static_cast<std::uint64_t>(options.max_faults), "added fault", "added faults"),
                       of_kinds, sim::to_string(options.properties));
        }
        proved = proved_line(explorer, run, report, sim::Properties{});
        return report.complete ? exit_ok : exit_incomplete;
    }
    sim::Counterexample cx = sim::make_counterexample(explorer, *report.found);
    proved = proved_line(explorer, run, report, cx.verdict.failed);
    words::title_counterexample(cx, explorer.base(), strings);
    if (random) {
        // The draw as it came, then the shrunk schedule below.
        const std::vector<std::string> drawn =
            words::fault_lines(sim::schedule_facts(explorer, *report.drawn), strings);
        fmt::print(o, "draw {} of seed {} fails: {}\n", report.drawn_index, run.seed,
                   drawn.empty() ? std::string("no added fault") : fmt::format("{}", fmt::join(drawn, "; ")));
        if (*report.drawn != *report.found) fmt::print(o, "shrunk while it still fails to:\n");
    }
    fmt::print(o, "counterexample ({}):\n", count_of(report.found->atoms.size(), "added fault", "added faults"));
    const std::vector<std::string> faults = words::fault_lines(cx.facts, strings);
    if (faults.empty()) fmt::print(o, "  (none: the scenario fails as it is)\n");
    for (const std::string& f : faults) fmt::print(o, "  {}\n", f);
    fmt::print(o, "  => {}\n", words::explanation_words(cx.facts, strings));
    const std::string out_path = out.empty() ? cx.scenario.name + ".json" : out;
    const std::string bytes = sim::scenario_to_json(cx.scenario);
    // The file must open as it is: parse what is about to be written.
    auto reparsed = sim::parse_scenario(bytes, out_path);
    if (!reparsed.ok()) {
        fmt::print(stderr, "error: the counterexample does not parse back: {}\n", reparsed.error().to_string());
        return exit_bad_input;
    }
    if (!write_file_atomic(out_path, bytes)) return exit_write_failed;
    found = {{"faults", faults}, {"explanation", words::explanation_words(cx.facts, strings)}, {"file", out_path}};
    // Every client's counterexample opens in the app, Redisson's too (docs/model.md §21.9).
    fmt::print(o, "written {} (open it in the app, or: leasescope-cli run {} --format text)\n", out_path, out_path);
    return exit_check_failed;
}

void print_bench(std::FILE* o, const sim::SearchStats& t, const Timing& timing) {
    const double seconds = timing.seconds;
    const double cpu_seconds = timing.cpu_seconds;
    const double safe_seconds = std::max(seconds, 1e-9);
    const double ticks_per_second = static_cast<double>(t.ticks) / safe_seconds;
    const double ticks_per_cpu_second = static_cast<double>(t.ticks) / std::max(cpu_seconds, 1e-9);
    fmt::print(o,
               "bench: {} schedules ({} simulated, {} merged) in {:.3f} s with {}: {} schedules/s, {} simulated/s, "
               "{} distinct states/s ({} states); {} simulated ticks: {} ticks/s; {:.3f} s of CPU: {} ticks per CPU "
               "second (per core)\n",
               t.schedules, t.simulated, t.merged, seconds, count_of(timing.jobs, "job", "jobs"),
               rate(static_cast<double>(t.schedules) / safe_seconds),
               rate(static_cast<double>(t.simulated) / safe_seconds),
               rate(static_cast<double>(t.states) / safe_seconds), t.states, t.ticks, rate(ticks_per_second),
               cpu_seconds, rate(ticks_per_cpu_second));
}

// A search's counters as --format json writes them (docs/cli-json.md).
nlohmann::ordered_json stats_json(const sim::SearchStats& st) {
    nlohmann::ordered_json j = nlohmann::ordered_json::object();
    for (const auto& [name, field] : sim::search_stats_fields) j[std::string(name)] = st.*field;
    return j;
}

// explore --format json: one document on stdout (fields in docs/cli-json.md);
// the human lines then go to stderr.
// explore-merge's has the same fields, `command` "explore-merge", `scenario`
// null (the shards name only the scenario's name) and `shards`.
void print_json(const char* command, const sim::Explorer& explorer, const sim::ExploreRun& run,
                const sim::ExploreReport& report, const nlohmann::ordered_json& path,
                const nlohmann::ordered_json& found, const std::string& proved, const nlohmann::ordered_json& stopped,
                const Timing& timing, int status, std::optional<std::uint64_t> shards = std::nullopt) {
    const bool random = run.mode == sim::ExploreMode::random;
    nlohmann::ordered_json doc;
    doc["command"] = command;
    doc["scenario"] = path;
    doc["name"] = explorer.base().name;
    doc["mode"] = random ? "random" : "exhaustive";
    doc["seed"] = random ? nlohmann::ordered_json(run.seed) : nlohmann::ordered_json();
    doc["draws"] = random ? nlohmann::ordered_json(run.draws) : nlohmann::ordered_json();
    doc["max_faults"] = explorer.options().max_faults;
    doc["properties"] = sim::to_string(explorer.options().properties);
    nlohmann::ordered_json levels = nlohmann::ordered_json::array();
    for (const sim::LevelReport& level : report.levels) {
        nlohmann::ordered_json l = stats_json(level.stats);
        l["faults"] = level.faults;
        levels.push_back(std::move(l));
    }
    doc["levels"] = std::move(levels);
    doc["totals"] = stats_json(report.totals);
    doc["found"] = report.found.has_value();
    doc["counterexample"] = found;
    doc["proved"] = proved;
    doc["complete"] = report.complete;
    doc["stopped"] = stopped;
    doc["minimize"] = nullptr;
    doc["seconds"] = timing.seconds;
    doc["cpu_seconds"] = timing.cpu_seconds;
    doc["jobs"] = timing.jobs;
    if (shards) doc["shards"] = *shards;
    doc["exit_code"] = status;
    const std::string text = doc.dump(2) + "\n";
    std::fwrite(text.data(), 1, text.size(), stdout);
}

// A shard's end: its own counters, then its result file for explore-merge.
int finish_shard(const sim::Explorer& explorer, const sim::ExploreRun& run, const sim::ExploreReport& report,
                 const std::string& out, const Timing& timing) {
    const std::string label = fmt::format("shard {}/{}", run.shard, run.shards);
    for (const sim::LevelReport& level : report.levels) {
        fmt::print("  {}, {}: {}\n", label, count_of(static_cast<std::uint64_t>(level.faults), "fault", "faults"),
                   stats_line(level.stats));
    }
    if (run.mode == sim::ExploreMode::random) fmt::print("  {}, draws: {}\n", label, stats_line(report.totals));
    const std::string path =
        out.empty() ? fmt::format("{}.shard-{}-of-{}.json", explorer.base().name, run.shard, run.shards) : out;
    const std::string bytes = sim::shard_result_to_json(
        explorer, run, report, sim::ShardTiming{timing.seconds, timing.cpu_seconds, timing.jobs});
    if (!write_file_atomic(path, bytes)) return exit_write_failed;
    fmt::print("written {} ({} of search {}); merge all {} with: leasescope-cli explore-merge FILE...\n", path, label,
               sim::search_fingerprint(explorer, run).substr(0, 12), run.shards);
    print_bench(stdout, report.totals, timing);
    return exit_ok;
}

// The kinds a refusal names, each with the part of a menu it stands for.
struct KindClass {
    const char* name;
    bool (*in)(const sim::FaultMenu&);
};
constexpr KindClass failover_class{
    "failover", [](const sim::FaultMenu& m) { return m.failover_leases || m.failover_all || m.failover_promote; }};
constexpr KindClass delay_class{"delay", [](const sim::FaultMenu& m) { return m.delays(); }};
constexpr KindClass link_class{"replica_link", [](const sim::FaultMenu& m) { return m.replica_link; }};
constexpr KindClass restart_class{"restart", [](const sim::FaultMenu& m) { return m.restarts(); }};
constexpr KindClass promote_class{"failover:promote", [](const sim::FaultMenu& m) { return m.failover_promote; }};
constexpr KindClass leases_class{"failover:leases", [](const sim::FaultMenu& m) { return m.failover_leases; }};
constexpr KindClass all_class{"failover:all", [](const sim::FaultMenu& m) { return m.failover_all; }};

// The name of the first of `classes` that an item refused by the base asks
// for (an item nothing of which the base allows: sim::fault_kinds_for, the
// one statement of those rules; "all" is never refused), or null. The name,
// a string literal, outlives the list; the list's elements do not.
const char* refused_class(const std::vector<sim::FaultKindItem>& items, const sim::Scenario& base,
                          std::initializer_list<KindClass> classes) {
    for (const KindClass& c : classes) {
        for (const sim::FaultKindItem& item : items) {
            if (!item.all && c.in(item.menu) && !sim::fault_kinds_for(base, item.menu).any()) return c.name;
        }
    }
    return nullptr;
}

// Kinds asked for by name that the base cannot have are an error rather
// than a search without them: on Redisson a failover, delay, replica link or
// restart (docs/model.md §21.1 rule 4); a restart without Redlock's stores
// (§20.3); on Redlock a failover or replica link (docs/explorer.md, On
// Redlock); the replication kinds without replicas, a failover that loses
// with them (§17.3 rule 5: with replicas every failover promotes).
int kinds_fit(const std::vector<sim::FaultKindItem>& items, const sim::Scenario& base) {
    if (base.is_redisson()) {
        if (const char* c = refused_class(items, base, {failover_class, delay_class, link_class, restart_class})) {
            fmt::print(stderr,
                       "error: --fault-kinds: the explorer adds no {} to a Redisson scenario (docs/model.md §21.1 "
                       "rule 4); it adds pause, partition, crash and clock_jump\n",
                       c);
            return exit_bad_input;
        }
    }
    if (!base.is_redlock() && refused_class(items, base, {restart_class})) {
        fmt::print(stderr,
                   "error: --fault-kinds: restart is a Redlock store's fault (docs/model.md §20.3); the scenario "
                   "has no \"stores\"\n");
        return exit_bad_input;
    }
    if (base.is_redlock()) {
        if (const char* c = refused_class(items, base, {failover_class, link_class})) {
            fmt::print(stderr,
                       "error: --fault-kinds: the explorer adds no {} to a Redlock scenario (docs/explorer.md, "
                       "On Redlock); it adds pause, partition, crash, delay, clock_jump and restart\n",
                       c);
            return exit_bad_input;
        }
        return exit_ok;
    }
    const std::int32_t replicas = base.lock.replication.replicas;
    if (const char* c = refused_class(items, base, {link_class, promote_class}); c && replicas == 0) {
        fmt::print(stderr, "error: --fault-kinds: {} needs a store with replicas (store.replicas 1 or more)\n", c);
        return exit_bad_input;
    }
    if (const char* c = refused_class(items, base, {leases_class, all_class}); c && replicas > 0) {
        fmt::print(stderr,
                   "error: --fault-kinds: {} is for a store without replicas; with store.replicas {} a failover "
                   "promotes a replica (failover:promote, model.md §17.3)\n",
                   c, replicas);
        return exit_bad_input;
    }
    return exit_ok;
}

// Whether an item of the list (not "all") asks for a kind of `c`.
bool names_kind(const std::vector<sim::FaultKindItem>& items, const KindClass& c) {
    return std::any_of(items.begin(), items.end(),
                       [&](const sim::FaultKindItem& item) { return !item.all && c.in(item.menu); });
}

// The search's options from the command line; exit_bad_input (said on
// stderr) when a list does not parse.
int explore_options(const ExploreArgs& args, const sim::Scenario& base, sim::ExploreOptions& options) {
    options.max_faults = args.max_faults;
    options.max_pause = args.max_pause;
    options.max_delay = args.max_delay;
    options.max_clock_jump_ms = args.max_clock_jump_ms;
    options.max_link_cut = args.max_link_cut;
    options.max_lag = args.max_lag;
    options.max_tick = args.max_tick;
    if (!args.start_every.empty()) {
        auto every = sim::parse_start_every(args.start_every, base.tick_ms);
        if (!every.ok()) {
            fmt::print(stderr, "error: {}\n", every.error());
            return exit_bad_input;
        }
        options.start_every = every.value();
    }
    options.shuffles = args.shuffles;
    options.prune = !args.no_prune;
    options.merge = !args.no_merge;
    for (const std::string& grid : args.grids) {
        auto parsed = sim::parse_grid(grid, base.tick_ms, options.grids);
        if (!parsed.ok()) {
            fmt::print(stderr, "error: {}\n", parsed.error());
            return exit_bad_input;
        }
    }
    auto kinds = sim::parse_fault_kinds(args.fault_kinds);
    auto items = sim::fault_kind_items(args.fault_kinds);
    if (!kinds.ok() || !items.ok()) {
        fmt::print(stderr, "error: --fault-kinds: {}\n", kinds.ok() ? items.error() : kinds.error());
        return exit_bad_input;
    }
    options.kinds = kinds.value();
    // Asked for by name, a kind without its budget would silently add nothing.
    if (names_kind(items.value(), delay_class) && args.max_delay == 0 && options.grids.delay.empty()) {
        fmt::print(stderr, "error: --fault-kinds: delay needs --max-delay (the most extra ticks, 1 or more)\n");
        return exit_bad_input;
    }
    constexpr KindClass jump_class{"clock_jump", [](const sim::FaultMenu& m) { return m.clock_jumps(); }};
    if (names_kind(items.value(), jump_class) && args.max_clock_jump_ms == 0 && options.grids.clock_jump.empty()) {
        fmt::print(stderr,
                   "error: --fault-kinds: clock_jump needs --max-clock-jump-ms (the largest jump of the "
                   "store's clock, in ms)\n");
        return exit_bad_input;
    }
    if (const int status = kinds_fit(items.value(), base); status != exit_ok) return status;
    // Redlock's and Redisson's default: the properties such a run can break
    // (overlap is opt-in as on the elector); a fencing property there is refused.
    const bool fenceless = base.is_redlock() || base.is_redisson();
    const std::string& property_text =
        fenceless && !args.property_given ? std::string("unsafe_write,liveness") : args.properties;
    auto properties = sim::parse_properties(property_text);
    if (!properties.ok()) {
        fmt::print(stderr, "error: --property: {}\n", properties.error());
        return exit_bad_input;
    }
    options.properties = properties.value();
    return exit_ok;
}

// How the search runs: a shard of it, random draws (the seed printed first)
// or every schedule; exit_bad_input (said on stderr) for a bad combination.
int explore_run(const ExploreArgs& args, std::FILE* human, sim::ExploreRun& run,
                std::optional<std::pair<std::uint64_t, std::uint64_t>>& shard) {
    run.chunk = std::max<std::uint64_t>(args.chunk, 1);
    const bool random = args.seeds.has_value() || args.seed.has_value();
    if (!args.shard.empty()) {
        shard = parse_shard(args.shard);
        if (!shard) {
            fmt::print(stderr, "error: --shard: expected K/N with 0 <= K < N <= {}, found \"{}\"\n",
                       sim::explore_shards_max, args.shard);
            return exit_bad_input;
        }
        if (random && !args.seed) {
            fmt::print(stderr, "error: --shard in random mode needs --seed: every shard must draw from one stream\n");
            return exit_bad_input;
        }
        run.shard = shard->first;
        run.shards = shard->second;
        run.shrink = false;  // explore-merge shrinks the best failing draw of all shards, once
    }
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
        fmt::print(human, "seed {} (replay with --seed {})\n", run.seed, run.seed);
        std::fflush(human);
    }
    return exit_ok;
}

// A duration in ticks as time: "20 s", "1.5 s", "250 ms".
std::string time_text(std::int64_t ticks, std::int64_t tick_ms) {
    const std::int64_t ms = ticks * tick_ms;
    if (ms % 1000 == 0) return fmt::format("{} s", ms / 1000);
    if (ms >= 1000) return fmt::format("{:g} s", static_cast<double>(ms) / 1000.0);
    return fmt::format("{} ms", ms);
}

// A size of one kind in its unit (docs/explorer.md, The smallest fault):
// ticks, a delay's extra ticks, a clock jump's ms, a promotion's lag.
std::string size_text(sim::FaultClass kind, std::int64_t size, std::int64_t tick_ms) {
    switch (kind) {
        case sim::FaultClass::delay: return fmt::format("{} extra", count_of(size, "tick", "ticks"));
        case sim::FaultClass::clock_jump: return fmt::format("{} ms", size * tick_ms);
        case sim::FaultClass::failover_promote: return fmt::format("lag {}", count_of(size, "tick", "ticks"));
        default: return count_of(static_cast<std::uint64_t>(size), "tick", "ticks");
    }
}

// The sizes lo..hi of a kind in its unit, for the proved line.
std::string sizes_text(sim::FaultClass kind, std::int64_t lo, std::int64_t hi, std::int64_t tick_ms) {
    if (lo == hi)
        return kind == sim::FaultClass::failover_promote ? fmt::format("lagging {} ticks", lo)
                                                         : fmt::format("of {}", size_text(kind, lo, tick_ms));
    switch (kind) {
        case sim::FaultClass::delay: return fmt::format("of {}..{} extra ticks", lo, hi);
        case sim::FaultClass::clock_jump: return fmt::format("of {}..{} ms, either way", lo * tick_ms, hi * tick_ms);
        case sim::FaultClass::failover_promote: return fmt::format("lagging {}..{} ticks", lo, hi);
        default: return fmt::format("of {}..{} ticks", lo, hi);
    }
}

// Where a larger size would come from, when none in the budget breaks it:
// on a grid, its upper bound; else the kind's maximum.
std::string larger_hint(sim::FaultClass kind, bool on_grid) {
    if (on_grid) return " (longer ones: a --grid with a larger upper bound)";
    switch (kind) {
        case sim::FaultClass::pause:
        case sim::FaultClass::partition: return " (longer ones: raise --max-pause)";
        case sim::FaultClass::delay: return " (longer ones: raise --max-delay)";
        case sim::FaultClass::clock_jump: return " (larger ones: raise --max-clock-jump-ms)";
        case sim::FaultClass::replica_link: return " (longer ones: raise --max-link-cut)";
        case sim::FaultClass::failover_promote: return " (more lag: raise --max-lag)";
        case sim::FaultClass::restart: return " (longer ones: raise --max-pause)";
        case sim::FaultClass::crash:
        case sim::FaultClass::failover: return "";
    }
    return "";
}

// One kind's proved line on a grid (--grid): the grid's sizes below the
// threshold hold, so the threshold lies between two grid points.
std::string grid_proved(const sim::KindThreshold& k, const std::string& where, const std::string& checked,
                        std::int64_t tick_ms) {
    const std::string name(sim::to_string(k.kind));
    const auto time = [&](std::int64_t size) { return sim::duration_text(size * tick_ms * 1000); };
    std::vector<std::int64_t> held;
    for (const std::int64_t size : k.grid)
        if (!k.threshold || size < *k.threshold) held.push_back(size);
    if (held.empty())
        return fmt::format("proved: {} is the grid's smallest {} (no smaller size was searched)", time(*k.threshold),
                           name);
    std::vector<std::string> sizes;
    for (const std::int64_t size : held) sizes.push_back(time(size));
    std::string line = fmt::format("proved: no {} of the grid's sizes {} ({}) leads to {}", name,
                                   fmt::join(sizes, ", "), where, checked);
    if (k.threshold)
        line += fmt::format(
            "; on the grid the threshold lies between {} (holds) and {} (breaks): sizes between "
            "grid points were not searched",
            time(held.back()), time(*k.threshold));
    return line;
}

// One kind's proved line: what the scan of its sizes covered.
std::string kind_proved(const sim::KindThreshold& k, const sim::MinimizeReport& m, const std::string& checked,
                        std::int64_t tick_ms) {
    const std::string name(sim::to_string(k.kind));
    const std::string where =
        fmt::format("faults starting at ticks {}; {}", sim::starts_text(m.max_tick, m.start_every, tick_ms),
                    orders_text(m.explorer->options()));
    if (!k.sized) {
        if (k.found) return fmt::format("proved: a single {} is enough ({} has no size)", name, name);
        return fmt::format("proved: no single {} ({}) leads to {}", name, where, checked);
    }
    if (!k.grid.empty()) return grid_proved(k, where, checked, tick_ms);
    const std::int64_t top = k.threshold ? *k.threshold - 1 : k.largest;
    if (top < k.smallest)
        return fmt::format("proved: no smaller {} is in the budget (sizes start at {})", name,
                           size_text(k.kind, k.smallest, tick_ms));
    return fmt::format("proved: no {} {} ({}) leads to {}", name, sizes_text(k.kind, k.smallest, top, tick_ms), where,
                       checked);
}

// One kind's answer in text, and as a json object.
nlohmann::ordered_json print_kind(std::FILE* o, const sim::KindThreshold& k, const sim::MinimizeReport& m,
                                  const words::Strings& strings, const std::string& checked, std::int64_t tick_ms) {
    const std::string name(sim::to_string(k.kind));
    const std::string proved = kind_proved(k, m, checked, tick_ms);
    nlohmann::ordered_json j{{"kind", name}, {"sized", k.sized}, {"smallest", k.smallest}, {"largest", k.largest}};
    if (!k.grid.empty()) j["grid"] = k.grid;
    j["threshold"] = k.threshold ? nlohmann::ordered_json(*k.threshold) : nlohmann::ordered_json();
    j["threshold_ms"] = k.threshold ? nlohmann::ordered_json(*k.threshold * tick_ms) : nlohmann::ordered_json();
    j["counterexample"] = nullptr;
    if (k.found) {
        const sim::Counterexample cx = sim::make_counterexample(*k.step, *k.found);
        const std::vector<std::string> faults = words::fault_lines(cx.facts, strings);
        const std::string why = words::explanation_words(cx.facts, strings);
        // Sizes in ticks are shown as time too; a jump is in ms already.
        // A crash or a losing failover has no size: one breaks it or none does.
        std::string size = k.sized ? size_text(k.kind, *k.threshold, tick_ms) : std::string("one (it has no size)");
        if (k.sized && k.kind != sim::FaultClass::clock_jump)
            size += fmt::format(" ({})", time_text(*k.threshold, tick_ms));
        fmt::print(o, "  {}: {} breaks it: {}\n    => {}\n", name, size, fmt::join(faults, "; "), why);
        j["counterexample"] = {{"faults", faults}, {"explanation", why}};
    } else {
        fmt::print(o, "  {}: none in the budget breaks it{}\n", name, larger_hint(k.kind, !k.grid.empty()));
    }
    fmt::print(o, "    {}\n    {}\n", stats_line(k.stats), proved);
    j["proved"] = proved;
    j["schedules"] = k.stats.schedules;
    j["simulated"] = k.stats.simulated;
    return j;
}

// explore --minimize --format json: explore's fields (docs/cli-json.md),
// mode "minimize", no levels, and `minimize`, one entry per kind.
void print_minimize_json(const ExploreArgs& args, const sim::Scenario& scenario, const sim::MinimizeReport& m,
                         const nlohmann::ordered_json& kinds, const std::string& proved, const Timing& timing,
                         int status) {
    nlohmann::ordered_json doc{
        {"command", "explore"},  {"scenario", args.path},
        {"name", scenario.name}, {"mode", "minimize"},
        {"seed", nullptr},       {"draws", nullptr},
        {"max_faults", 1},       {"properties", sim::to_string(m.explorer->options().properties)}};
    doc["levels"] = nlohmann::ordered_json::array();
    doc["totals"] = stats_json(m.totals);
    doc["found"] = status == exit_check_failed;
    doc["counterexample"] = nullptr;
    doc["proved"] = proved;
    doc["complete"] = m.complete;
    doc["stopped"] = nullptr;
    doc["minimize"] = m.base_fails ? nlohmann::ordered_json() : kinds;
    doc["seconds"] = timing.seconds;
    doc["cpu_seconds"] = timing.cpu_seconds;
    doc["jobs"] = timing.jobs;
    doc["exit_code"] = status;
    const std::string text = doc.dump(2) + "\n";
    std::fwrite(text.data(), 1, text.size(), stdout);
}

// What --minimize searches, printed before the search (which can take
// minutes): the bare base's explorer gives the end tick and max_tick.
// False (said on stderr) for a bad budget.
bool print_minimize_header(std::FILE* o, const sim::Scenario& scenario, const sim::ExploreOptions& options,
                           bool scaled) {
    sim::ExploreOptions bare = options;
    bare.max_faults = 0;  // the default max_tick of one fault, no atoms (as sim::minimize)
    auto created = sim::Explorer::create(scenario, bare);
    if (!created.ok()) {
        fmt::print(stderr, "error: {}\n", created.error());
        return false;
    }
    const sim::Explorer& ex = created.value();
    fmt::print(o, "exploring {}: {}, base ends at tick {}; faults start at ticks {}\n", scenario.name,
               count_of(scenario.candidates.size(), "candidate", "candidates"), ex.base_end_tick(),
               sim::starts_text(ex.max_tick(), options.start_every, scenario.tick_ms));
    fmt::print(o, "  budget: one fault at a time of {}{}{}; {}\n", sim::to_string(ex.options().kinds),
               lengths_text(ex.options()), wire_budget(ex.options(), scenario.tick_ms), orders_text(ex.options()));
    if (scaled) {
        const Tick longest = sim::scaled_size_max(scenario);
        fmt::print(o,
                   "  sizes: scaled to the scenario, pauses and partitions up to its longest lease, action or wait "
                   "({}, {}){}; --max-pause or --grid sets them\n",
                   sim::duration_text(longest * scenario.tick_ms * 1000),
                   count_of(static_cast<std::uint64_t>(longest), "tick", "ticks"),
                   longest <= sim::scaled_every_size_max ? ", every length" : ", on the grid");
    }
    fmt::print(o, "  checking: {}; mode: minimize\n", sim::to_string(ex.options().properties));
    std::fflush(o);
    return true;
}

// explore --minimize: the base alone, then per kind the smallest single
// fault that breaks a checked property (sim::minimize); returns the exit code.
int run_minimize(const ExploreArgs& args, const sim::Scenario& scenario, const sim::ExploreOptions& options,
                 const sim::ExploreRun& run, const words::Strings& strings, std::FILE* human, bool scaled) {
    if (!print_minimize_header(human, scenario, options, scaled)) return exit_bad_input;
    const auto started = std::chrono::steady_clock::now();
    const std::clock_t cpu_started = std::clock();
    auto minimized = sim::minimize(scenario, options, run);
    if (!minimized.ok()) {
        fmt::print(stderr, "error: {}\n", minimized.error());
        return exit_bad_input;
    }
    const sim::MinimizeReport& m = minimized.value();
    const Timing timing{std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(),
                        static_cast<double>(std::clock() - cpu_started) / CLOCKS_PER_SEC,
                        args.jobs > 0 ? args.jobs : std::max(1u, std::thread::hardware_concurrency())};
    const sim::Explorer& ex = *m.explorer;
    const std::string checked = or_list(sim::to_string(ex.options().properties));
    const std::int64_t tick_ms = scenario.tick_ms;
    fmt::print(human, "  0 faults: {}\n", stats_line(m.base));
    nlohmann::ordered_json kinds = nlohmann::ordered_json::array();
    std::string proved;
    bool any = false;
    if (m.base_fails) {
        const sim::Counterexample cx = sim::make_counterexample(ex, *m.base_fails);
        fmt::print(human, "the base fails with no added fault: {}\n", words::explanation_words(cx.facts, strings));
        proved =
            fmt::format("proved: the base leads to {} with no added fault", or_list(sim::to_string(cx.verdict.failed)));
        any = true;
    } else {
        fmt::print(human, "minimize: the smallest single fault of each kind that leads to {}\n", checked);
        std::vector<std::string> answers;
        for (const sim::KindThreshold& k : m.kinds) {
            kinds.push_back(print_kind(human, k, m, strings, checked, tick_ms));
            any = any || k.found.has_value();
            answers.push_back(fmt::format("{} {}", sim::to_string(k.kind),
                                          !k.found  ? std::string("none in the budget")
                                          : k.sized ? size_text(k.kind, *k.threshold, tick_ms)
                                                    : std::string("breaks it")));
        }
        proved =
            fmt::format("proved: the smallest single fault of each kind that leads to {}: {} (each line's proof above)",
                        checked, fmt::join(answers, ", "));
    }
    const int status = any ? exit_check_failed : exit_ok;
    print_bench(human, m.totals, timing);
    fmt::print(human, "{}\n", proved);
    if (args.format == "json") print_minimize_json(args, scenario, m, kinds, proved, timing, status);
    return status;
}

// --minimize's combinations: exhaustive, unsplit, one fault at a time.
int minimize_fits(const ExploreArgs& args) {
    const char* refused = nullptr;
    if (args.seeds || args.seed) refused = "random mode (--seeds, --seed): it proves nothing, and --minimize proves";
    if (!args.shard.empty()) refused = "--shard: a minimize search is not split";
    if (refused != nullptr) {
        fmt::print(stderr, "error: --minimize cannot be combined with {}\n", refused);
        return exit_bad_input;
    }
    if (args.max_faults_given && args.max_faults != 1) {
        fmt::print(stderr,
                   "error: --minimize searches one added fault at a time (the smallest single fault of each kind); "
                   "expected --max-faults 1 or none, found --max-faults {}\n",
                   args.max_faults);
        return exit_bad_input;
    }
    return exit_ok;
}

// --time-limit as a duration; exit_bad_input (said on stderr) when it is not
// one, or comes with a search it does not stop.
int parse_time_limit(const ExploreArgs& args, std::optional<std::chrono::milliseconds>& limit) {
    if (args.time_limit.empty()) return exit_ok;
    const sim::DurationTicks ms = sim::duration_ticks(args.time_limit, 1);
    if (!ms.error.empty() || ms.ticks <= 0) {
        fmt::print(stderr, "error: --time-limit: expected a duration above zero such as 90s, 10m or 2h, found \"{}\"\n",
                   args.time_limit);
        return exit_bad_input;
    }
    const char* refused = args.minimize             ? "--minimize"
                          : !args.shard.empty()     ? "--shard (a shard's result must be whole)"
                          : args.seeds || args.seed ? "random mode (its budget is --seeds)"
                                                    : nullptr;
    if (refused != nullptr) {
        fmt::print(stderr, "error: --time-limit stops an exhaustive search; it cannot be combined with {}\n", refused);
        return exit_bad_input;
    }
    if (!SearchWatch::can_time()) {
        fmt::print(stderr,
                   "error: --time-limit: this build has no threads to keep time (the Node.js build); use the "
                   "native leasescope-cli\n");
        return exit_bad_input;
    }
    limit = std::chrono::milliseconds(ms.ticks);
    return exit_ok;
}

// An exhaustive search of the whole budget under a watch (the time limit,
// Ctrl-C, the progress line on a terminal), each level's counters printed as
// it ends; when stopped, the line that says where and how far it came.
sim::ExploreReport watched_search(std::FILE* human, const sim::Explorer& explorer, const sim::ExploreRun& run,
                                  const ExploreArgs& args, std::optional<std::chrono::milliseconds> limit,
                                  nlohmann::ordered_json& stopped) {
    SearchWatch watch(explorer, limit, isatty(fileno(stderr)) != 0 ? stderr : nullptr);
    sim::ExploreSession session(explorer, run, watch.control());
    constexpr std::uint64_t all = std::numeric_limits<std::uint64_t>::max();
    std::size_t printed = 0;
    watch.level_started(session.level());
    while (!session.step(all)) {
        {
            const auto hold = watch.hold_output();
            print_levels(human, session.report(), printed);
        }
        watch.level_started(session.level());
    }
    const sim::ExploreReport& report = session.report();
    const bool timed_out = watch.reason() == StopReason::time_limit;
    const LevelPace pace = watch.pace(report.levels.empty() ? 0 : report.levels.back().stats.schedules);
    const auto hold = watch.hold_output();  // the watch's own calls lock it too: none below
    print_levels(human, report, printed);
    if (!report.complete && !report.levels.empty()) {
        stopped = timed_out ? "time_limit" : "interrupt";
        fmt::print(human, "stopped {} while searching {}: {}\n",
                   timed_out ? fmt::format("at the time limit ({})", args.time_limit) : std::string("by Ctrl-C"),
                   count_of(static_cast<std::uint64_t>(report.levels.back().faults), "fault", "faults"),
                   pace_text(pace));
        fmt::print(human,
                   "  to search all of it: --shard K/N on N machines (or cores), then explore-merge "
                   "(docs/explorer.md, Searching across machines)\n");
        std::fflush(human);
    }
    return report;
}

int cmd_explore(const ExploreArgs& args) {
    // With --format json the human lines go to stderr and stdout holds one document.
    const bool json = args.format == "json";
    std::FILE* human = json ? stderr : stdout;
    auto scenario = load_scenario(args.path, args.sets);
    if (!scenario) return exit_bad_input;
    sim::ExploreOptions options;
    if (const int status = explore_options(args, *scenario, options); status != exit_ok) return status;
    if (args.minimize) {
        if (const int status = minimize_fits(args); status != exit_ok) return status;
    }
    sim::ExploreRun run;
    std::optional<std::pair<std::uint64_t, std::uint64_t>> shard;
    std::optional<std::chrono::milliseconds> limit;  // checked before random mode prints its seed
    if (const int status = parse_time_limit(args, limit); status != exit_ok) return status;
    if (const int status = explore_run(args, human, run, shard); status != exit_ok) return status;

    // The counterexample is told in the string tables' English; a shard tells nothing.
    words::Strings strings;
    if (!shard && !read_string_tables(find_assets_dir(args.assets), strings)) return exit_bad_input;
    if (args.minimize) {
        options.max_faults = 1;
        // No size of pause or partition given: sizes scaled to the scenario,
        // as the app's Find panel has them (docs/explorer.md, Sizes scaled
        // to the scenario), not 1..8 ticks, which at 50 ms ticks is 400 ms.
        const bool scaled = !args.max_pause_given && options.grids.pause.empty() && options.grids.partition.empty();
        if (scaled) sim::scale_fault_sizes(*scenario, options);
        const unsigned minimize_jobs = args.jobs > 0 ? args.jobs : std::max(1u, std::thread::hardware_concurrency());
        if (minimize_jobs > 1) run.runner = thread_runner(minimize_jobs);
        return run_minimize(args, *scenario, options, run, strings, human, scaled);
    }

    auto created = sim::Explorer::create(*scenario, options);
    if (!created.ok()) {
        fmt::print(stderr, "error: {}\n", created.error());
        return exit_bad_input;
    }
    const sim::Explorer& explorer = created.value();
    const unsigned jobs = args.jobs > 0 ? args.jobs : std::max(1u, std::thread::hardware_concurrency());
    if (jobs > 1) run.runner = thread_runner(jobs);

    print_header(human, explorer, run);

    // Wall time for the rates, and the process's CPU time (all threads) for
    // a per-core figure that does not depend on how busy the machine is.
    const auto started = std::chrono::steady_clock::now();
    const std::clock_t cpu_started = std::clock();
    nlohmann::ordered_json stopped;  // null unless the search was stopped
    const sim::ExploreReport report = shard || run.mode == sim::ExploreMode::random
                                          ? sim::explore(explorer, run)
                                          : watched_search(human, explorer, run, args, limit, stopped);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    const double cpu_seconds = static_cast<double>(std::clock() - cpu_started) / CLOCKS_PER_SEC;

    if (shard) return finish_shard(explorer, run, report, args.out, {seconds, cpu_seconds, jobs});
    nlohmann::ordered_json found;  // null when none was found
    std::string proved;
    const int status = print_outcome(human, explorer, run, report, args.out, strings, found, proved);
    print_bench(human, report.totals, {seconds, cpu_seconds, jobs});
    if (!proved.empty()) fmt::print(human, "{}\n", proved);
    if (json)
        print_json("explore", explorer, run, report, args.path, found, proved, stopped, {seconds, cpu_seconds, jobs},
                   status);
    return status;
}

// Reads the shards' result files, checks they are the whole of one search,
// and prints (and writes) what the search unsplit prints (and writes).
int cmd_explore_merge(const MergeArgs& args) {
    words::Strings strings;
    if (!read_string_tables(find_assets_dir(args.assets), strings)) return exit_bad_input;
    std::vector<sim::ShardFile> files;
    for (const std::string& path : args.results) {
        auto text = read_file(path, limits::scenario_bytes_max, "scenario_bytes_max");
        if (!text) return exit_bad_input;
        files.push_back(sim::ShardFile{path, std::move(*text)});
    }
    auto merged = sim::merge_shard_results(files);
    if (!merged.ok()) {
        fmt::print(stderr, "error: {}\n", merged.error());
        return exit_bad_input;
    }
    const sim::MergedSearch& m = merged.value();
    // With --format json the human lines go to stderr and stdout holds one document.
    const bool json = args.format == "json";
    std::FILE* human = json ? stderr : stdout;
    if (m.run.mode == sim::ExploreMode::random) {
        fmt::print(human, "seed {} (replay with --seed {})\n", m.run.seed, m.run.seed);
    }
    print_header(human, m.explorer, m.run);
    std::size_t printed = 0;
    print_levels(human, m.report, printed);
    nlohmann::ordered_json found;
    std::string proved;
    const int status = print_outcome(human, m.explorer, m.run, m.report, args.out, strings, found, proved);
    // Wall time: the slowest shard's; CPU time and threads: all shards'.
    const Timing timing{m.timing.seconds, m.timing.cpu_seconds, m.timing.jobs};
    print_bench(human, m.report.totals, timing);
    if (!proved.empty()) fmt::print(human, "{}\n", proved);
    if (json)
        print_json("explore-merge", m.explorer, m.run, m.report, nullptr, found, proved, nullptr, timing, status,
                   m.shards);
    return status;
}

// --property's help: every property parse_properties knows (docs/explorer.md).
constexpr const char* property_help =
    "Properties to check: overlap,unsafe_write,fencing_regressed,liveness,stale_after_successor,holder_rejected,"
    "fencing_duplicate, safety (all of them but overlap and liveness) or all. On a Redlock or Redisson scenario only "
    "overlap, unsafe_write and liveness can fail (default there: unsafe_write,liveness)";

// The budgets of delays, store clock jumps, link cuts and promotions.
void add_wire_budget_options(CLI::App* cmd, ExploreArgs* args) {
    cmd->add_option("--max-delay", args->max_delay,
                    "Add delays (model.md §7.6) of 1 to this many extra ticks to what one node sends on one link "
                    "(request, reply, write) in one tick; 0: none")
        ->check(integer_in(0, limits::duration_max))
        ->capture_default_str();
    cmd->add_option("--max-clock-jump-ms", args->max_clock_jump_ms,
                    "Add jumps of the store's clock (model.md §7.5; on Redlock, of each store's), forward and "
                    "back, of one tick's ms, two ticks', ... up to this many ms; 0: none")
        ->check(integer_in(0, limits::clock_jump_ms_max))
        ->capture_default_str();
    cmd->add_option("--max-link-cut", args->max_link_cut,
                    "With replicas (model.md §17.2): cuts of a replica's link last 1 to this many ticks")
        ->check(integer_in(1, limits::explore_link_cut_max))
        ->capture_default_str();
    cmd->add_option("--max-lag", args->max_lag,
                    "With replicas (model.md §17.3): a failover promotes any replica lagging 0 to this many "
                    "ticks (at most its tick)")
        ->check(integer_in(0, limits::explore_lag_max))
        ->capture_default_str();
}

// explore's options of the search itself: the mode, the faults added, the
// properties and the threads.
void add_search_options(CLI::App* cmd, ExploreArgs* args) {
    auto* exhaustive = cmd->add_flag("--exhaustive", args->exhaustive,
                                     "Cover every schedule in the budget, fewest faults first (the default)");
    cmd->add_option("--seeds", args->seeds, "Random mode: evaluate N drawn schedules instead")
        ->check(CLI::PositiveNumber)
        ->check(unsigned_integer())
        ->excludes(exhaustive);
    cmd->add_option("--seed", args->seed, "Random mode: the seed of the draws (default: printed, fresh each run)")
        ->check(unsigned_integer())
        ->excludes(exhaustive);
    cmd->add_option("--max-faults", args->max_faults, "Added faults per schedule (0 to 4)")
        ->check(integer_in(0, std::int64_t{2147483647}))
        ->capture_default_str();
    cmd->add_option("--fault-kinds", args->fault_kinds,
                    "Kinds to add: pause,partition,crash,failover,delay,clock_jump,replica_link, or narrowed: "
                    "partition:drop_requests, partition:drop_replies, failover:leases, failover:all, "
                    "failover:promote, delay:request, delay:reply, delay:write, clock_jump:forward, "
                    "clock_jump:back. Delays and clock jumps are added only with --max-delay and "
                    "--max-clock-jump-ms; replica_link and failover:promote only with store.replicas >= 1 "
                    "(where every failover promotes), failover:leases and failover:all only without. On a Redlock "
                    "scenario: pause, partition (of a node from every store, or from one), crash, delay (of a "
                    "node's requests to every store or one, the replies from them, or its write), clock_jump (of "
                    "one store's clock) and restart (of one store, for 1 to --max-pause ticks; narrowed: restart:none, "
                    "restart:everysec, restart:always). On a Redisson scenario: pause, partition, crash and "
                    "clock_jump")
        ->capture_default_str();
    cmd->add_option("--max-pause", args->max_pause,
                    "Longest pause or partition (and on Redlock a store's restart), in ticks; with --minimize "
                    "and no --max-pause or --grid of pauses or partitions, sizes scaled to the scenario (up to "
                    "its longest lease, action or wait)")
        ->check(integer_in(0, limits::duration_max))
        ->capture_default_str();
    cmd->add_option("--grid", args->grids,
                    "Fault sizes on a grid instead of every tick up to the maximum: kind=LO..HI with kind pause, "
                    "partition, delay or clock_jump, LO and HI ticks or durations (\"100ms\", \"60s\") of whole "
                    "ticks; the sizes are LO, HI and 1, 2 and 5 times each power of ten ms between, rounded to the "
                    "nearest tick (docs/explorer.md, Grids). Repeat it for more kinds");
    add_wire_budget_options(cmd, args);
    cmd->add_option(
           "--max-tick", args->max_tick,
           "Last tick at which a fault may start (default: the base's end tick + --max-faults × the "
           "longest of --max-pause, --max-delay, a jump back in ticks and --max-link-cut with link cuts, within the "
           "horizon)")
        ->check(integer_in(0, limits::horizon_max));
    cmd->add_option("--start-every", args->start_every,
                    "Faults start only every this many ticks, from 0 to --max-tick: ticks or a duration of whole "
                    "ticks (\"500ms\", \"1s\"; default: every tick). A coarser search: what it proves holds for "
                    "those start ticks alone, and the proved line says so (docs/explorer.md, Start ticks on a grid)");
    cmd->add_option("--shuffles", args->shuffles,
                    "Also try order=shuffled with this many seeds (the base's seed + 1, + 2, ...); none on a Redlock "
                    "or Redisson scenario, which runs in declared order")
        ->check(integer_in(0, std::int64_t{2147483647}))
        ->capture_default_str();
    cmd->add_option("--property", args->properties, property_help)->capture_default_str();
    cmd->add_option("--jobs", args->jobs, "Threads (default: one per core); the result does not depend on it")
        ->check(integer_in(0, 4096));
}

void add_explore_merge_command(CLI::App& app, int& exit_code) {
    auto margs = std::make_shared<MergeArgs>();
    auto* merge = app.add_subcommand(
        "explore-merge",
        "Combine the result files of explore --shard K/N, for K = 0 … N-1, into what explore prints and writes "
        "for the whole search.\n"
        "Exit codes: 1 a counterexample was found, 0 none within the budget, 2 bad input (a shard missing, "
        "given twice, of another search, or not a result file).");
    merge->add_option("RESULTS", margs->results, "The N result files, in any order")->required();
    merge->add_option("--out", margs->out, "Where to write the counterexample (default: NAME-counterexample.json)");
    merge->add_option("--assets", margs->assets, "Folder with i18n/en.json (as for explore)");
    merge
        ->add_option("--format", margs->format,
                     "text, or json: one document on stdout at the end (the fields of explore's, with \"shards\"; "
                     "docs/cli-json.md), the human lines on stderr")
        ->check(CLI::IsMember({"text", "json"}));
    merge->callback([margs, &exit_code] { exit_code = cmd_explore_merge(*margs); });
}

}  // namespace

void add_explore_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<ExploreArgs>();
    auto* cmd = app.add_subcommand(
        "explore",
        "Add fault schedules to a scenario, look for a broken property and write the smallest counterexample "
        "(fewest faults, then smallest faults, then earliest; docs/explorer.md).\n"
        "Exit codes: 1 a counterexample was found, 0 none within the budget, 2 bad input, 4 the counterexample "
        "(or standard output) could not be written, 6 stopped (--time-limit, Ctrl-C) before the end with none "
        "found in the part searched; with --shard, 0 once the shard's result file is written.");
    cmd->add_option("SCENARIO", args->path, "Base scenario file (its own faults stay in every schedule)")->required();
    add_search_options(cmd, args.get());
    cmd->add_option("--out", args->out,
                    "Where to write the counterexample (default: NAME-counterexample.json), or with --shard the "
                    "shard's result (default: NAME.shard-K-of-N.json)");
    cmd->add_option("--set", args->sets, "Override a value of the base: PATH=VALUE, e.g. resource.mode=check");
    cmd->add_option("--chunk", args->chunk,
                    "Work units per chunk handed to a thread (tuning; no effect on the result; at 2 faults and "
                    "more, where subtrees are shared, a level is cut into at most 16 chunks)")
        ->check(unsigned_integer())
        ->capture_default_str();
    cmd->add_flag("--no-prune", args->no_prune,
                  "Simulate every schedule, even those with a fault that provably changes nothing (to check the "
                  "pruning; same counterexample, slower)");
    cmd->add_flag("--no-merge", args->no_merge,
                  "Run every schedule to its end, even when it reaches a state another run has reached, and "
                  "share no subtrees (to check the merging; same counterexample and counters but ticks, merged "
                  "and states)");
    cmd->add_option("--assets", args->assets,
                    "Folder with i18n/en.json, the words of the counterexample (default: $LEASESCOPE_ASSETS, "
                    "./assets, or the source tree's)");
    cmd->add_option("--shard", args->shard,
                    "Search only shard K of N (0 <= K < N), e.g. 2/8: every N-th work unit or draw from K on. "
                    "Writes a result file instead of a counterexample and exits 0; random mode needs --seed. "
                    "Combine all N with explore-merge");
    cmd->add_option("--format", args->format,
                    "text, or json: one document on stdout at the end (fields in docs/cli-json.md), the human "
                    "lines on stderr")
        ->check(CLI::IsMember({"text", "json"}));
    cmd->add_option("--time-limit", args->time_limit,
                    "Stop an exhaustive search after this long (a duration: 90s, 10m, 2h) and report what it "
                    "covered: the levels it finished, how far it came in the one it was stopped in, and how long "
                    "the rest would take at that pace (exit 6 when it found no counterexample). Ctrl-C stops it the "
                    "same way");
    cmd->add_flag("--minimize", args->minimize,
                  "Per fault kind, the smallest single fault that breaks a checked property, and the proof that "
                  "no smaller one of that kind does (one fault at a time: --max-faults 1; exhaustive only; writes "
                  "no file)");
    cmd->callback([args, cmd, &exit_code] {
        args->max_faults_given = cmd->get_option("--max-faults")->count() > 0;
        args->max_pause_given = cmd->get_option("--max-pause")->count() > 0;
        args->property_given = cmd->get_option("--property")->count() > 0;
        exit_code = cmd_explore(*args);
    });
    add_explore_merge_command(app, exit_code);
}

}  // namespace leasescope::cli

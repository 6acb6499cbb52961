// Result files of a split search and their merge (see explore_shard.hpp): the
// JSON of one part, and the checks that a merge gets every part of one search
// exactly once.
#include "leasescope/sim/explore_shard.hpp"

#include <algorithm>
#include <map>
#include <optional>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "leasescope/sim/trace.hpp"

namespace leasescope::sim {
namespace {

using nlohmann::json;

constexpr const char* format_name = "leasescope-explore-shard";
constexpr int format_version = 2;  // 2: stats carry merged and states

const char* mode_name(ExploreMode mode) { return mode == ExploreMode::random ? "random" : "exhaustive"; }

// The search as the fingerprint sees it: everything that decides its result,
// nothing about how it is split or run.
json search_json(const Explorer& ex, const ExploreRun& run) {
    const ExploreOptions& o = ex.options();
    json options = {{"max_faults", o.max_faults},
                    {"fault_kinds", to_string(o.kinds)},
                    {"max_pause", o.max_pause},
                    {"max_tick", o.max_tick ? json(*o.max_tick) : json(nullptr)},
                    {"shuffles", o.shuffles},
                    {"properties", to_string(o.properties)},
                    {"prune", o.prune}};
    // Written only when on, so that a search without them keeps its fingerprint.
    if (o.max_delay > 0) options["max_delay"] = o.max_delay;
    if (o.start_every != 1) options["start_every"] = o.start_every;
    if (o.max_clock_jump_ms > 0) options["max_clock_jump_ms"] = o.max_clock_jump_ms;
    if (o.kinds.replica_link) options["max_link_cut"] = o.max_link_cut;
    if (o.kinds.failover_promote) options["max_lag"] = o.max_lag;
    if (o.grids.any()) {
        options["grids"] = {{"pause", o.grids.pause},
                            {"partition", o.grids.partition},
                            {"delay", o.grids.delay},
                            {"clock_jump", o.grids.clock_jump}};
    }
    return json{{"base", json::parse(scenario_to_json(ex.base()))},
                {"options", std::move(options)},
                {"mode", mode_name(run.mode)},
                {"seed", run.mode == ExploreMode::random ? run.seed : 0},
                {"draws", run.mode == ExploreMode::random ? run.draws : 0}};
}

// nlohmann's default object keeps its keys sorted, so the dump is canonical.
std::string fingerprint_of(const json& search) {
    TraceHasher hasher;
    hasher.add_line(search.dump());
    return hasher.hex();
}

json stats_json(const SearchStats& s) {
    json j = json::object();
    for (const auto& [name, field] : search_stats_fields) j[std::string(name)] = s.*field;
    return j;
}

json schedule_json(const Schedule& s) { return json{{"variant", s.variant}, {"atoms", s.atoms}}; }

// Reading: every accessor throws json::exception on a wrong type, which the
// caller turns into an error naming the file; `bad` does the same for a value
// of the right type that makes no sense.
struct Bad {
    std::string what;
};
[[noreturn]] void bad(std::string what) { throw Bad{std::move(what)}; }

SearchStats read_stats(const json& j) {
    SearchStats s;
    for (const auto& [name, field] : search_stats_fields) s.*field = j.at(std::string(name)).get<std::uint64_t>();
    return s;
}

Schedule read_schedule(const json& j, const Explorer& ex) {
    Schedule s;
    s.variant = j.at("variant").get<std::int32_t>();
    s.atoms = j.at("atoms").get<std::vector<std::int32_t>>();
    if (s.variant < 0 || s.variant >= ex.variant_count()) bad(fmt::format("variant {} does not exist", s.variant));
    for (std::size_t i = 0; i < s.atoms.size(); ++i) {
        if (s.atoms[i] < 0 || static_cast<std::size_t>(s.atoms[i]) >= ex.atoms().size())
            bad(fmt::format("fault {} does not exist", s.atoms[i]));
        if (i > 0 && s.atoms[i] <= s.atoms[i - 1]) bad("faults out of order");
    }
    return s;
}

// The part of a search one file holds, checked against the rebuilt explorer:
// its counters, and its failure, which must fail here and belong to its part.
ExploreReport read_report(const json& j, const Explorer& ex, const ExploreRun& run, std::uint64_t shard,
                          std::uint64_t shards) {
    ExploreReport r;
    if (run.mode == ExploreMode::random) {
        r.totals = read_stats(j.at("totals"));
        const json& drawn = j.at("drawn");
        if (!drawn.is_null()) {
            r.drawn = read_schedule(drawn, ex);
            r.drawn_index = drawn.at("draw").get<std::uint64_t>();
            if (r.drawn_index >= run.draws || r.drawn_index % shards != shard)
                bad(fmt::format("draw {} is not one of this shard's", r.drawn_index));
            if (ex.draw(run.seed, r.drawn_index) != *r.drawn)
                bad(fmt::format("draw {} is not what the seed draws", r.drawn_index));
            if (!ex.check(*r.drawn).fails()) bad(fmt::format("draw {} does not fail", r.drawn_index));
        }
        return r;
    }
    const json& levels = j.at("levels");
    const auto max_faults = static_cast<std::size_t>(ex.options().max_faults);
    if (!levels.is_array() || levels.empty() || levels.size() > max_faults + 1)
        bad(fmt::format("expected 1 to {} levels", max_faults + 1));
    for (std::size_t i = 0; i < levels.size(); ++i) {
        if (levels[i].at("faults").get<std::size_t>() != i) bad(fmt::format("level {} is out of place", i));
        r.levels.push_back(LevelReport{static_cast<int>(i), read_stats(levels[i])});
        r.totals.add(r.levels.back().stats);
    }
    const json& found = j.at("found");
    if (found.is_null()) {
        if (levels.size() != max_faults + 1) bad("levels stop without a counterexample");
        return r;
    }
    r.found = read_schedule(found, ex);
    const std::size_t level = levels.size() - 1;
    if (r.found->atoms.size() != level) bad("the counterexample is not of the last level");
    const std::uint64_t unit = level == 0 ? static_cast<std::uint64_t>(r.found->variant)
                                          : static_cast<std::uint64_t>(r.found->variant) * ex.atoms().size() +
                                                static_cast<std::uint64_t>(r.found->atoms.front());
    if (unit % shards != shard) bad("the counterexample is not in this shard");
    if (!ex.check(*r.found).fails()) bad("the counterexample does not fail");
    return r;
}

// One file, read far enough to be matched with the others.
struct Part {
    const ShardFile* file = nullptr;
    json doc;
    std::string fingerprint;
    std::uint64_t shard = 0;
    std::uint64_t shards = 0;
};

Result<Part, std::string> read_part(const ShardFile& file) {
    Part p;
    p.file = &file;
    try {
        p.doc = json::parse(file.text);
        if (!p.doc.is_object() || p.doc.value("format", std::string()) != format_name)
            return Err{
                fmt::format("{}: not an explorer shard result (\"format\" is not \"{}\")", file.name, format_name)};
        if (p.doc.at("version").get<int>() != format_version)
            return Err{fmt::format("{}: result format version {}, expected {}", file.name, p.doc.at("version").dump(),
                                   format_version)};
        p.fingerprint = p.doc.at("fingerprint").get<std::string>();
        p.shard = p.doc.at("shard").get<std::uint64_t>();
        p.shards = p.doc.at("shards").get<std::uint64_t>();
        if (p.shards < 1 || p.shards > explore_shards_max || p.shard >= p.shards)
            return Err{fmt::format("{}: shard {}/{} does not exist", file.name, p.shard, p.shards)};
        if (fingerprint_of(p.doc.at("search")) != p.fingerprint)
            return Err{fmt::format("{}: its fingerprint does not match the search it holds (edited?)", file.name)};
    } catch (const json::exception& e) {
        return Err{fmt::format("{}: not an explorer shard result: {}", file.name, e.what())};
    }
    return p;
}

// Rebuilds the explorer and the run from a file's "search".
Result<MergedSearch, std::string> rebuild(const Part& part) {
    const json& search = part.doc.at("search");
    const std::string& name = part.file->name;
    auto base = parse_scenario(search.at("base").dump(), name + " (base)");
    if (!base.ok()) return Err{fmt::format("{}: {}", name, base.error().to_string())};
    const json& o = search.at("options");
    ExploreOptions options;
    options.max_faults = o.at("max_faults").get<int>();
    const auto kinds_text = o.at("fault_kinds").get<std::string>();
    if (kinds_text.empty()) {
        options.kinds = FaultMenu::none();
    } else {
        auto kinds = parse_fault_kinds(kinds_text);
        if (!kinds.ok()) return Err{fmt::format("{}: {}", name, kinds.error())};
        options.kinds = kinds.value();
    }
    options.max_pause = o.at("max_pause").get<Tick>();
    if (o.contains("max_delay")) options.max_delay = o.at("max_delay").get<Tick>();
    if (o.contains("max_clock_jump_ms")) options.max_clock_jump_ms = o.at("max_clock_jump_ms").get<std::int64_t>();
    if (o.contains("max_link_cut")) options.max_link_cut = o.at("max_link_cut").get<Tick>();
    if (o.contains("max_lag")) options.max_lag = o.at("max_lag").get<Tick>();
    if (o.contains("grids")) {
        const json& g = o.at("grids");
        options.grids.pause = g.at("pause").get<std::vector<Tick>>();
        options.grids.partition = g.at("partition").get<std::vector<Tick>>();
        options.grids.delay = g.at("delay").get<std::vector<Tick>>();
        options.grids.clock_jump = g.at("clock_jump").get<std::vector<Tick>>();
    }
    if (!o.at("max_tick").is_null()) options.max_tick = o.at("max_tick").get<Tick>();
    if (o.contains("start_every")) options.start_every = o.at("start_every").get<Tick>();
    options.shuffles = o.at("shuffles").get<int>();
    auto properties = parse_properties(o.at("properties").get<std::string>());
    if (!properties.ok()) return Err{fmt::format("{}: {}", name, properties.error())};
    options.properties = properties.value();
    options.prune = o.at("prune").get<bool>();
    ExploreRun run;
    const auto mode = search.at("mode").get<std::string>();
    if (mode != "exhaustive" && mode != "random") return Err{fmt::format("{}: unknown mode \"{}\"", name, mode)};
    run.mode = mode == "random" ? ExploreMode::random : ExploreMode::exhaustive;
    run.seed = search.at("seed").get<std::uint64_t>();
    run.draws = search.at("draws").get<std::uint64_t>();
    if (run.draws > explore_draws_max) return Err{fmt::format("{}: too many draws ({})", name, run.draws)};
    auto created = Explorer::create(base.value(), options);
    if (!created.ok()) return Err{fmt::format("{}: {}", name, created.error())};
    return MergedSearch{std::move(created).value(), run, ExploreReport{}, ShardTiming{}, part.shards};
}

}  // namespace

std::string search_fingerprint(const Explorer& explorer, const ExploreRun& run) {
    return fingerprint_of(search_json(explorer, run));
}

std::string shard_result_to_json(const Explorer& ex, const ExploreRun& run, const ExploreReport& report,
                                 const ShardTiming& timing) {
    LS_ASSERT(report.complete);
    LS_ASSERT(!ex.options().only_magnitude);  // not in the file's options: a minimize step is never split
    LS_ASSERT(!run.shrink || run.mode == ExploreMode::exhaustive);
    json search = search_json(ex, run);
    json doc = {{"format", format_name},
                {"version", format_version},
                {"fingerprint", fingerprint_of(search)},
                {"shard", run.shard},
                {"shards", run.shards},
                {"search", std::move(search)},
                {"bench", {{"seconds", timing.seconds}, {"cpu_seconds", timing.cpu_seconds}, {"jobs", timing.jobs}}}};
    if (run.mode == ExploreMode::random) {
        doc["totals"] = stats_json(report.totals);
        json drawn = nullptr;
        if (report.drawn) {
            drawn = schedule_json(*report.drawn);
            drawn["draw"] = report.drawn_index;
        }
        doc["drawn"] = std::move(drawn);
    } else {
        json levels = json::array();
        for (const LevelReport& level : report.levels) {
            json l = stats_json(level.stats);
            l["faults"] = level.faults;
            levels.push_back(std::move(l));
        }
        doc["levels"] = std::move(levels);
        doc["found"] = report.found ? schedule_json(*report.found) : json(nullptr);
    }
    return doc.dump(1) + "\n";
}

Result<MergedSearch, std::string> merge_shard_results(const std::vector<ShardFile>& files) {
    if (files.empty()) return Err{std::string("no result files to merge")};
    std::vector<Part> parts;
    for (const ShardFile& file : files) {
        auto part = read_part(file);
        if (!part.ok()) return Err{part.error()};
        parts.push_back(std::move(part).value());
    }
    const Part& first = parts.front();
    std::map<std::uint64_t, const Part*> by_shard;
    for (const Part& p : parts) {
        if (p.fingerprint != first.fingerprint)
            return Err{fmt::format("{} is a shard of another search than {} (fingerprint {}…, not {}…)", p.file->name,
                                   first.file->name, p.fingerprint.substr(0, 12), first.fingerprint.substr(0, 12))};
        if (p.shards != first.shards)
            return Err{fmt::format("{} is shard {}/{} but {} is shard {}/{}: the shards must come from one split",
                                   p.file->name, p.shard, p.shards, first.file->name, first.shard, first.shards)};
        auto [at, inserted] = by_shard.emplace(p.shard, &p);
        if (!inserted)
            return Err{
                fmt::format("{} and {} are both shard {}/{}", at->second->file->name, p.file->name, p.shard, p.shards)};
    }
    if (by_shard.size() != first.shards) {
        std::vector<std::string> missing;
        for (std::uint64_t k = 0; k < first.shards && missing.size() < 20; ++k) {
            if (by_shard.count(k) == 0) missing.push_back(fmt::format("{}/{}", k, first.shards));
        }
        const std::uint64_t count = first.shards - by_shard.size();
        return Err{fmt::format("{} missing: shard{} {}{}",
                               count == 1 ? "a shard is" : fmt::format("{} shards are", count), count == 1 ? "" : "s",
                               fmt::join(missing, ", "), count > missing.size() ? ", …" : "")};
    }

    auto rebuilt = [&]() -> Result<MergedSearch, std::string> {
        try {
            return rebuild(first);
        } catch (const json::exception& e) {
            return Err{fmt::format("{}: not an explorer shard result: {}", first.file->name, e.what())};
        }
    }();
    if (!rebuilt.ok()) return rebuilt;
    MergedSearch merged = std::move(rebuilt).value();
    std::vector<ExploreReport> reports;
    for (const auto& [shard, p] : by_shard) {
        try {
            reports.push_back(read_report(p->doc, merged.explorer, merged.run, shard, merged.shards));
            const json& bench = p->doc.at("bench");
            merged.timing.seconds = std::max(merged.timing.seconds, bench.at("seconds").get<double>());
            merged.timing.cpu_seconds += bench.at("cpu_seconds").get<double>();
            merged.timing.jobs += bench.at("jobs").get<std::uint64_t>();
        } catch (const json::exception& e) {
            return Err{fmt::format("{}: not an explorer shard result: {}", p->file->name, e.what())};
        } catch (const Bad& e) {
            return Err{fmt::format("{}: {}", p->file->name, e.what)};
        }
    }
    merged.report = merge_shard_reports(merged.explorer, merged.run, reports);
    return merged;
}

}  // namespace leasescope::sim

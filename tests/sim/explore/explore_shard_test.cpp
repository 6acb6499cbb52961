// A search split into shards (explore --shard K/N, explore-merge): merged, the
// shards give exactly what the unsplit search gives (counterexample, counters,
// the written scenario) in both modes and for any number of shards, and a
// merge that lacks a shard, has one twice or mixes searches is refused with
// an error that names the file.
#include "support/preset_loader.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "leasescope/sim/explore_shard.hpp"
#include "leasescope/sim/explorer.hpp"
#include "leasescope/sim/trace.hpp"
#include "explore_report_checks.hpp"

namespace leasescope::sim {
namespace {

Scenario shard_preset(const std::string& name, const std::vector<Override>& overrides = {}) {
    auto parsed = parse_scenario(test::read_preset(name), name + ".json", overrides);
    EXPECT_TRUE(parsed.ok()) << (parsed.ok() ? "" : parsed.error().to_string());
    return std::move(parsed).value();
}

Explorer make_shard_explorer(const Scenario& base, const ExploreOptions& options) {
    auto created = Explorer::create(base, options);
    EXPECT_TRUE(created.ok()) << (created.ok() ? "" : created.error());
    return std::move(created).value();
}

using test::expect_same_report;
using test::expect_same_stats;

// The result files of every shard of a search, as explore --shard writes them.
std::vector<ShardFile> shard_files(const Explorer& ex, const ExploreRun& whole, std::uint64_t shards,
                                   std::vector<ExploreReport>* reports = nullptr) {
    std::vector<ShardFile> files;
    for (std::uint64_t k = 0; k < shards; ++k) {
        ExploreRun run = whole;
        run.shard = k;
        run.shards = shards;
        run.shrink = false;
        const ExploreReport part = explore(ex, run);
        if (reports != nullptr) reports->push_back(part);
        files.push_back(ShardFile{"shard" + std::to_string(k) + ".json",
                                  shard_result_to_json(ex, run, part, ShardTiming{1.5, 1.0, 2})});
    }
    return files;
}

// The fingerprint as the result files compute it: SHA-256 of the search's dump.
std::string fingerprint_of_search(const nlohmann::json& search) {
    TraceHasher hasher;
    hasher.add_line(search.dump());
    return hasher.hex();
}

struct ShardCase {
    const char* preset;
    std::vector<Override> overrides;
    Properties properties;
    int max_faults;
    const char* kinds;
    int shuffles;
    ExploreMode mode;
    std::uint64_t seed;
    std::uint64_t draws;
};

// Merged shards equal the unsplit search: the report, every counter, and the
// counterexample scenario byte for byte, for 1, 2, 3 and 7 shards. In
// exhaustive mode a shard stops after its own first failing level; one case
// at least must have a shard that went past the level where the merge stops,
// so that summing only up to that level is tested.
TEST(ExplorerShards, MergeEqualsTheWholeSearch) {
    const Properties unsafe{false, true, false, false};
    const Properties safety{false, true, true, false};
    const std::vector<ShardCase> cases = {
        {"gc-pause-no-fencing", {{"faults", "[]"}}, unsafe, 2, "all", 2, ExploreMode::exhaustive, 0, 0},
        {"gc-pause-no-fencing",
         {{"faults", "[]"}, {"resource.mode", "\"check\""}},
         unsafe,
         2,
         "all",
         1,
         ExploreMode::exhaustive,
         0,
         0},
        {"contention", {}, unsafe, 2, "pause,crash,failover", 1, ExploreMode::exhaustive, 0, 0},
        {"failover-lost-lock", {{"faults", "[]"}}, safety, 3, "failover:all,crash", 0, ExploreMode::exhaustive, 0, 0},
        {"hold-off-handover", {}, Properties{true, false, false, false}, 1, "all", 1, ExploreMode::exhaustive, 0, 0},
        {"gc-pause-no-fencing", {{"faults", "[]"}}, safety, 3, "all", 2, ExploreMode::random, 20261129, 3000},
        {"contention", {}, Properties{false, true, false, true}, 4, "all", 2, ExploreMode::random, 5, 400},
        {"gc-pause-no-fencing",
         {{"faults", "[]"}, {"resource.mode", "\"check\""}},
         unsafe,
         2,
         "all",
         2,
         ExploreMode::random,
         3,
         300},
    };
    bool a_shard_went_further = false;
    int found = 0;
    for (const ShardCase& c : cases) {
        SCOPED_TRACE(c.preset);
        ExploreOptions options;
        options.max_faults = c.max_faults;
        options.max_pause = 3;
        options.shuffles = c.shuffles;
        options.kinds = parse_fault_kinds(c.kinds).value();
        options.properties = c.properties;
        const Explorer ex = make_shard_explorer(shard_preset(c.preset, c.overrides), options);
        ExploreRun run;
        run.mode = c.mode;
        run.seed = c.seed;
        run.draws = c.draws;
        const ExploreReport whole = explore(ex, run);
        found += whole.found ? 1 : 0;
        for (const std::uint64_t shards : {1u, 2u, 3u, 7u}) {
            SCOPED_TRACE(shards);
            std::vector<ExploreReport> parts;
            const std::vector<ShardFile> files = shard_files(ex, run, shards, &parts);
            expect_same_report(whole, merge_shard_reports(ex, run, parts));
            for (const ExploreReport& part : parts) {
                a_shard_went_further = a_shard_went_further || part.levels.size() > whole.levels.size();
                if (c.mode == ExploreMode::random) {
                    EXPECT_FALSE(part.found);  // shrunk once, at the merge
                }
            }
            // Any order of the files.
            std::vector<ShardFile> reversed(files.rbegin(), files.rend());
            auto merged = merge_shard_results(reversed);
            ASSERT_TRUE(merged.ok()) << merged.error();
            expect_same_report(whole, merged.value().report);
            EXPECT_EQ(merged.value().shards, shards);
            EXPECT_EQ(search_fingerprint(merged.value().explorer, merged.value().run), search_fingerprint(ex, run));
            EXPECT_EQ(merged.value().timing.cpu_seconds, 1.0 * static_cast<double>(shards));
            EXPECT_EQ(merged.value().timing.seconds, 1.5);
            if (whole.found) {
                EXPECT_EQ(scenario_to_json(make_counterexample(ex, *whole.found).scenario),
                          scenario_to_json(
                              make_counterexample(merged.value().explorer, *merged.value().report.found).scenario));
            }
        }
    }
    EXPECT_TRUE(a_shard_went_further);
    EXPECT_GE(found, 5);  // most cases have a counterexample to compare
}

// The ranking by size survives the split: on watchdog-pause without its
// pause, the smallest pause that makes two nodes execute at once (4 ticks at
// tick 2) is not the earliest failing one (a longer pause from tick 1), and
// every split, merged, picks the same smallest one, in either mode.
TEST(ExplorerShards, MergeKeepsTheSmallestCounterexample) {
    ExploreOptions options;
    options.max_faults = 2;
    options.max_pause = 8;
    options.shuffles = 1;
    options.kinds = parse_fault_kinds("pause").value();
    options.properties = Properties{true, false, false, false};  // overlap
    const Explorer ex = make_shard_explorer(shard_preset("watchdog-pause", {{"faults", "[]"}}), options);
    ExploreRun run;
    const ExploreReport whole = explore(ex, run);
    ASSERT_TRUE(whole.found);
    ASSERT_EQ(whole.found->atoms.size(), 1u);
    const Fault& f = ex.atoms()[static_cast<std::size_t>(whole.found->atoms[0])];
    EXPECT_EQ(f.ticks, 4);
    EXPECT_EQ(f.at, 2);
    // A longer pause that starts earlier fails too: size ranked before tick.
    bool earlier_fails = false;
    for (std::int32_t a = 0; a < static_cast<std::int32_t>(ex.atoms().size()) && !earlier_fails; ++a) {
        const Fault& g = ex.atoms()[static_cast<std::size_t>(a)];
        if (g.at < f.at && g.ticks > f.ticks) earlier_fails = ex.check(Schedule{0, {a}}).fails();
    }
    EXPECT_TRUE(earlier_fails);
    for (const std::uint64_t shards : {2u, 3u, 7u}) {
        SCOPED_TRACE(shards);
        std::vector<ExploreReport> parts;
        const std::vector<ShardFile> files = shard_files(ex, run, shards, &parts);
        expect_same_report(whole, merge_shard_reports(ex, run, parts));
        auto merged = merge_shard_results(files);
        ASSERT_TRUE(merged.ok()) << merged.error();
        expect_same_report(whole, merged.value().report);
    }
    run.mode = ExploreMode::random;
    run.seed = 29;
    run.draws = 500;
    const ExploreReport drawn = explore(ex, run);
    ASSERT_TRUE(drawn.found);
    for (const std::uint64_t shards : {2u, 7u}) {
        std::vector<ExploreReport> parts;
        shard_files(ex, run, shards, &parts);
        expect_same_report(drawn, merge_shard_reports(ex, run, parts));
    }
}

// Files that are not the shards of one search, each shard once, are refused,
// and the error names the file (or the shard) at fault.
TEST(ExplorerShards, MergeNamesAMissingDuplicatedOrForeignShard) {
    ExploreOptions options;
    options.max_faults = 1;
    options.max_pause = 3;
    options.properties = Properties{false, true, false, false};
    const Scenario base = shard_preset("gc-pause-no-fencing", {{"faults", "[]"}});
    const Explorer ex = make_shard_explorer(base, options);
    const std::vector<ShardFile> files = shard_files(ex, ExploreRun{}, 3);
    ASSERT_TRUE(merge_shard_results(files).ok());

    auto error_of = [](const std::vector<ShardFile>& given) {
        auto merged = merge_shard_results(given);
        EXPECT_FALSE(merged.ok());
        return merged.ok() ? std::string() : merged.error();
    };
    EXPECT_EQ(error_of({files[0], files[2]}), "a shard is missing: shard 1/3");
    EXPECT_EQ(error_of({files[1]}), "2 shards are missing: shards 0/3, 2/3");
    EXPECT_EQ(error_of({files[0], files[1], files[2], files[1]}), "shard1.json and shard1.json are both shard 1/3");
    ShardFile renamed = files[2];
    renamed.name = "copy.json";
    EXPECT_EQ(error_of({files[0], files[1], files[2], renamed}), "shard2.json and copy.json are both shard 2/3");
    EXPECT_EQ(error_of({}), "no result files to merge");

    // A shard of another search: another base, or the same base with other options.
    options.max_pause = 2;
    std::vector<ShardFile> other = shard_files(make_shard_explorer(base, options), ExploreRun{}, 3);
    other[1].name = "other.json";
    const std::string foreign = error_of({files[0], other[1], files[2]});
    EXPECT_EQ(foreign.rfind("other.json is a shard of another search than shard0.json", 0), 0u) << foreign;
    // The same search split another way.
    std::vector<ShardFile> split = shard_files(ex, ExploreRun{}, 2);
    split[1].name = "half.json";
    EXPECT_EQ(error_of({files[0], split[1], files[2]}),
              "half.json is shard 1/2 but shard0.json is shard 0/3: the shards must come from one split");
    // Random mode with another seed is another search too.
    ExploreRun random;
    random.mode = ExploreMode::random;
    random.seed = 1;
    random.draws = 50;
    std::vector<ShardFile> seed1 = shard_files(ex, random, 2);
    random.seed = 2;
    std::vector<ShardFile> seed2 = shard_files(ex, random, 2);
    ASSERT_TRUE(merge_shard_results(seed1).ok());
    seed2[1].name = "seed2.json";
    EXPECT_NE(error_of({seed1[0], seed2[1]}).find("seed2.json is a shard of another search"), std::string::npos);

    // A file that is not a result, and a result whose search was edited.
    EXPECT_EQ(error_of({files[0], ShardFile{"notes.txt", "hello"}}).rfind("notes.txt: not an explorer shard result", 0),
              0u);
    // A search whose fingerprint matches but whose options are not options.
    {
        ShardFile crafted = shard_files(ex, ExploreRun{}, 1).at(0);
        crafted.name = "crafted.json";
        auto doc = nlohmann::json::parse(crafted.text);
        doc["search"]["options"]["max_faults"] = "two";
        doc["fingerprint"] = fingerprint_of_search(doc["search"]);
        crafted.text = doc.dump();
        const std::string error = error_of({crafted});
        EXPECT_EQ(error.rfind("crafted.json: not an explorer shard result", 0), 0u) << error;
    }
    ShardFile edited = files[1];
    const std::size_t at = edited.text.find("\"max_pause\": 3");
    ASSERT_NE(at, std::string::npos);
    edited.text.replace(at, 14, "\"max_pause\": 4");
    EXPECT_EQ(error_of({files[0], edited, files[2]}),
              "shard1.json: its fingerprint does not match the search it holds (edited?)");
}

}  // namespace
}  // namespace leasescope::sim

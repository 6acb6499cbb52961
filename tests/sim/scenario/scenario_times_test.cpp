// Times with units (model.md §11.7): every time key takes ticks or a duration
// such as "30s"; a duration that is not whole ticks names the nearest; the
// documented list of time keys is the key table's; and every preset written
// with durations in place of its ticks is the same scenario.
#include "support/scenario_test_helpers.hpp"

#include <regex>
#include <set>

#include "leasescope/sim/scenario_keys.hpp"

namespace {

using namespace scenario_test;

TEST(ScenarioTimes, EachUnitAndADecimalBecomeTheirTicks) {
    // tick_ms 50: 1 tick = 50ms; "0.25s" = 5 ticks; "2m" = 2400; "1h" = 72000.
    json doc = with(base(), "/tick_ms", 50);
    doc = with(doc, "/horizon", "1h");
    doc = with(doc, "/defaults/wait", "100ms");
    doc = with(doc, "/defaults/lease", "2m");
    doc = with(doc, "/defaults/action", "0.25s");
    doc = with(doc, "/candidates/1/start", "1.5s");
    const auto s = accepted(doc);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->horizon, 72000);
    EXPECT_EQ(s->candidates[0].options.wait, 2);
    EXPECT_EQ(s->candidates[0].options.lease, 2400);
    EXPECT_EQ(s->candidates[0].options.action, 5);
    EXPECT_EQ(s->candidates[1].options.start, 30);
}

TEST(ScenarioTimes, ADurationThatIsNotWholeTicksNamesTheNearestTwo) {
    const json doc = with(base(), "/defaults/lease", "1025ms");
    EXPECT_TRUE(rejected(doc, "/defaults/lease",
                         {"\"1025ms\" is not a whole number of 50 ms ticks: the nearest are 20 ticks (1s) and 21 "
                          "ticks (1.05s)"}));
    EXPECT_TRUE(rejected(with(base(), "/defaults/lease", "10ms"), "/defaults/lease",
                         {"the nearest are 0 ticks (0s) and 1 ticks (50ms)"}));
}

TEST(ScenarioTimes, OtherValuesOfATimeKeySayBothForms) {
    EXPECT_TRUE(rejected(with(base(), "/defaults/lease", "30x"), "/defaults/lease",
                         {"\"30x\" is not a duration", "the unit is ms, s, m or h"}));
    EXPECT_TRUE(rejected(with(base(), "/defaults/lease", "-3s"), "/defaults/lease", {"is not a duration"}));
    EXPECT_TRUE(rejected(with(base(), "/defaults/lease", "3 s"), "/defaults/lease", {"the unit is ms, s, m or h"}));
    EXPECT_TRUE(rejected(with(base(), "/defaults/lease", "1.s"), "/defaults/lease", {"a digit must follow the point"}));
    EXPECT_TRUE(rejected(with(base(), "/defaults/lease", "0.0000001s"), "/defaults/lease",
                         {"at most as fine as a microsecond"}));
    EXPECT_TRUE(
        rejected(with(base(), "/defaults/lease", "1234567890123456ms"), "/defaults/lease", {"at most 15 digits"}));
    EXPECT_TRUE(rejected(with(base(), "/defaults/lease", 1.5), "/defaults/lease",
                         {"expected ticks (an integer from 1 to 100000000) or a duration", "ticks are whole numbers"}));
    EXPECT_TRUE(rejected(with(base(), "/defaults/lease", true), "/defaults/lease", {"or a duration such as"}));
    EXPECT_TRUE(rejected(with(base(), "/defaults/lease", "9999h"), "/defaults/lease",
                         {"\"9999h\" is 719928000 ticks of 50 ms; expected 1 to 100000000 ticks"}));
    EXPECT_TRUE(rejected(with(base(), "/defaults/lease", "0s"), "/defaults/lease", {"expected 1 to 100000000 ticks"}));
}

TEST(ScenarioTimes, FaultsOpsNetworkAndWritesTakeDurationsAndSetDoesToo) {
    json doc = with(base(), "/tick_ms", 10);
    doc = with(doc, "/defaults/action", "1s");
    doc = with(doc, "/candidates/0/writes", json::array({"200ms", "1s"}));
    doc = with(doc, "/network", json{{"request", "20ms"}});
    doc = with(doc, "/faults",
               json::array({json{{"kind", "pause"}, {"node", "node-a"}, {"at", "0.1s"}, {"ticks", "2s"}}}));
    doc = with(doc, "/ops", json::array({json{{"at", "3s"}, {"actor", "x"}, {"op", "status"}}}));
    const auto s = accepted(doc, sets({"defaults.lease=1.5s"}));
    ASSERT_TRUE(s);
    EXPECT_EQ(s->candidates[0].options.writes, (std::vector<leasescope::Tick>{20, 100}));
    EXPECT_EQ(s->network.request, 2);
    EXPECT_EQ(s->faults.at(0).at, 10);
    EXPECT_EQ(s->faults.at(0).ticks, 200);
    EXPECT_EQ(s->ops.at(0).at, 300);
    EXPECT_EQ(s->candidates[1].options.lease, 150);
    // --set tick_ms changes what every duration means, and is applied first.
    EXPECT_TRUE(rejected(doc, "/candidates/0/writes/0", {"\"200ms\" is not a whole number of 7 ms ticks"},
                         sets({"tick_ms=7"})));
}

TEST(ScenarioTimes, ABadTickMsIsTheOnlyErrorReported) {
    const json doc = with(with(base(), "/tick_ms", "fast"), "/defaults/lease", "30s");
    const auto all = sim::parse_scenario_all_errors(text_of(doc), test_file);
    ASSERT_FALSE(all.ok());
    ASSERT_EQ(all.error().size(), 1u) << all.error().at(1).where << ": " << all.error().at(1).message;
    EXPECT_EQ(all.error().front().where, "/tick_ms");
}

TEST(ScenarioTimes, ClockJumpMsAndTickMsStayMilliseconds) {
    // Neither is a time key: a duration there is the reader's plain error.
    EXPECT_TRUE(rejected(with(base(), "/tick_ms", "50ms"), "/tick_ms", {"expected an integer from 1 to 60000"}));
    const json jump{{"kind", "clock_jump"}, {"clock", "store"}, {"at", 2}, {"ms", "2s"}};
    EXPECT_TRUE(rejected(with(base(), "/faults", json::array({jump})), "/faults/0/ms", {"expected an integer"}));
}

// The time keys the docs list (docs/scenario-format.md, "Times with units")
// are exactly the key table's.
TEST(ScenarioTimes, TheDocumentedTimeKeysAreTheTablesTimeKeys) {
    std::set<std::string> table;
    for (const sim::ScenarioKey& k : sim::scenario_keys())
        if (k.time) table.insert(k.name);
    const std::string doc = read_text(fs::path(leasescope::test::source_dir) / "docs/scenario-format.md");
    const std::size_t from = doc.find("## Times with units");
    const std::size_t to = doc.find("\n## ", from + 1);
    ASSERT_NE(from, std::string::npos);
    const std::string section = doc.substr(from, to - from);
    const std::size_t list_from = section.find("The time keys are");
    const std::size_t list_to = section.find("`tick_ms` itself");
    ASSERT_NE(list_from, std::string::npos);
    std::set<std::string> documented;
    const std::string list = section.substr(list_from, list_to - list_from);
    for (std::size_t p = list.find('`'); p != std::string::npos; p = list.find('`', list.find('`', p + 1) + 1)) {
        std::string name = list.substr(p + 1, list.find('`', p + 1) - p - 1);
        if (const auto dot = name.rfind('.'); dot != std::string::npos) name = name.substr(dot + 1);
        if (name != "network" && name != "old_primary") documented.insert(name);
    }
    EXPECT_EQ(documented, table);
}

// Every integer of every time key of `doc` (per the key table, section by
// section), written as milliseconds: "N ms" with N = ticks × tick_ms.
void to_durations(json& v, sim::Section section, std::int64_t tick_ms, int& changed) {
    if (!v.is_object()) return;
    for (auto it = v.begin(); it != v.end(); ++it) {
        for (const sim::ScenarioKey* k : sim::keys_of(section)) {
            if (it.key() != k->name) continue;
            json& value = it.value();
            const auto as_ms = [&](json& x) {
                if (!x.is_number_integer()) return;
                x = std::to_string(x.get<std::int64_t>() * tick_ms) + "ms";
                ++changed;
            };
            if (k->type == sim::ValueType::object) {
                to_durations(value, k->opens, tick_ms, changed);
            } else if (k->type == sim::ValueType::array && value.is_array()) {
                const std::string item = k->item != nullptr ? k->item : "";
                for (json& x : value) {
                    if (k->time) {
                        as_ms(x);
                    } else if (item == "candidate" || item == "fault" || item == "op" || item == "exercise") {
                        const sim::Section s = item == "candidate" ? sim::Section::candidate
                                               : item == "fault"   ? sim::Section::fault
                                               : item == "op"      ? sim::Section::op
                                                                   : sim::Section::exercise;
                        to_durations(x, s, tick_ms, changed);
                    }
                }
            } else if (k->time) {
                as_ms(value);
            }
            break;
        }
    }
}

TEST(ScenarioTimes, EveryPresetWithDurationsForItsTicksIsTheSameScenario) {
    for (const fs::path& path : preset_paths()) {
        SCOPED_TRACE(path.string());
        const std::string text = read_text(path);
        const auto ticks = parse(text);
        ASSERT_TRUE(ticks.ok()) << ticks.error().to_string();
        json doc = json::parse(text, nullptr, true, /*ignore_comments=*/true);
        int changed = 0;
        to_durations(doc, sim::Section::top, ticks.value().tick_ms, changed);
        // A preset written with durations already (redlock-clock-jump) has few ticks left to change.
        const std::regex duration("\"[0-9.]+(ms|s|m)\"");
        const auto written = std::distance(std::sregex_iterator(text.begin(), text.end(), duration), {});
        EXPECT_GT(changed + written, 3);
        const auto durations = parse(text_of(doc));
        ASSERT_TRUE(durations.ok()) << durations.error().to_string();
        expect_same_scenario(ticks.value(), durations.value());
        EXPECT_EQ(sim::simulate(ticks.value()).summary.trace_sha256,
                  sim::simulate(durations.value()).summary.trace_sha256);
    }
}

}  // namespace

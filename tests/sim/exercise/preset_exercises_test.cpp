// Pins the exercises of the lesson presets (model.md §18, issue 30): every
// preset asks at least one question, every question passes the checks of
// `validate` and `exercise check` (§18.6), the kinds are mixed, the answers
// the lessons rest on are what the trace shows, and the Korean texts keep to
// the glossary's words.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "leasescope/sim/exercise.hpp"
#include "leasescope/sim/limits.hpp"
#include "support/test_files.hpp"

// Named, so that its helpers meet no other test's in a unity batch.
namespace preset_exercises_test {

namespace fs = std::filesystem;
namespace sim = leasescope::sim;
namespace limits = leasescope::limits;
using leasescope::test::read_all;
using leasescope::test::source_dir;

std::vector<fs::path> preset_files() {
    std::vector<fs::path> paths;
    for (const auto& entry : fs::directory_iterator(fs::path(source_dir) / "scenarios")) {
        if (entry.path().extension() == ".json") paths.push_back(entry.path());
    }
    std::sort(paths.begin(), paths.end());
    return paths;
}

std::optional<sim::ExerciseBase> base_of(const fs::path& path) {
    auto base = sim::exercise_base(read_all(path.string()), path.string());
    EXPECT_TRUE(base.ok()) << (base.ok() ? "" : base.error().to_string());
    if (!base.ok()) return std::nullopt;
    return std::move(base.value());
}

std::optional<sim::ExerciseBase> preset(const std::string& name) {
    return base_of(fs::path(source_dir) / "scenarios" / (name + ".json"));
}

TEST(PresetExercises, EveryPresetAsksAndEveryExercisePassesItsChecks) {
    // Each preset has 1 … exercises_max exercises, and check_exercises finds no problem in any.
    const auto paths = preset_files();
    ASSERT_FALSE(paths.empty());
    for (const auto& path : paths) {
        SCOPED_TRACE(path.string());
        auto base = base_of(path);
        ASSERT_TRUE(base.has_value());
        const auto count = static_cast<std::int64_t>(base->scenario.exercises.size());
        EXPECT_GE(count, 1);
        EXPECT_LE(count, limits::exercises_max);
        for (const auto& problem : sim::check_exercises(*base)) ADD_FAILURE() << problem.to_string();
    }
}

TEST(PresetExercises, TheKindsAndQuestionsAreMixed) {
    // Across the presets every kind (predict, goal, find_fault) and every predict question is asked.
    std::set<sim::ExerciseKind> kinds;
    std::set<sim::Question> questions;
    for (const auto& path : preset_files()) {
        auto base = base_of(path);
        ASSERT_TRUE(base.has_value());
        for (const auto& e : base->scenario.exercises) {
            kinds.insert(e.kind);
            if (e.kind == sim::ExerciseKind::predict) questions.insert(e.ask);
        }
    }
    EXPECT_EQ(kinds.size(), 3u);
    EXPECT_EQ(questions.size(), 4u);
}

TEST(PresetExercises, TheFailoverRepeatsAFencingNumberAndTheStudentIsAskedWhich) {
    // failover-fencing-tie, exercise 1: node-c is issued 2 in tick 5, the number node-b was issued in tick 4.
    auto base = preset("failover-fencing-tie");
    ASSERT_TRUE(base.has_value());
    ASSERT_EQ(base->scenario.exercises.at(0).ask, sim::Question::fencing);
    auto p = sim::predict(*base, 0);
    ASSERT_TRUE(p.ok()) << p.error().to_string();
    EXPECT_EQ(p.value().choices.at(static_cast<std::size_t>(p.value().right)), "2");
    EXPECT_GE(p.value().choices.size(), 2u);
    bool issued_before = false;
    for (const auto& ev : base->trace.events) {
        if (ev.tick < 5 && ev.op == sim::EventOp::acquire && ev.fencing == 2) issued_before = true;
    }
    EXPECT_TRUE(issued_before);
}

TEST(PresetExercises, ShowMeGivesTheLongestPauseTheWatchdogSurvives) {
    // watchdog-pause, exercise 3: of pauses 1 … 8 from tick 3, the nearest to the file's 8 without an overlap is 4.
    auto base = preset("watchdog-pause");
    ASSERT_TRUE(base.has_value());
    const auto& knob = base->scenario.exercises.at(2).knobs.at(0);
    auto solved = sim::solve_knobs(*base, 2);
    ASSERT_TRUE(solved.has_value());
    EXPECT_EQ(knob.values.at(static_cast<std::size_t>(solved->at(0))), "4");
}

TEST(PresetExercises, ShowMeGivesTheFenceForTheLostUpdate) {
    // gc-pause-no-fencing, exercise 2: the nearest mode to "off" that turns node-a's late write away is "check".
    auto base = preset("gc-pause-no-fencing");
    ASSERT_TRUE(base.has_value());
    const auto& knob = base->scenario.exercises.at(1).knobs.at(0);
    auto solved = sim::solve_knobs(*base, 1);
    ASSERT_TRUE(solved.has_value());
    EXPECT_EQ(knob.values.at(static_cast<std::size_t>(solved->at(0))), "\"check\"");
}

TEST(PresetExercises, APauseOfNodeABreaksTheWatchdog) {
    // auto-extension, exercise 2: the smallest fault that makes an overlap is a pause of node-a (the watchdog's node).
    auto base = preset("auto-extension");
    ASSERT_TRUE(base.has_value());
    auto fault = sim::smallest_fault(*base, 1);
    ASSERT_TRUE(fault.has_value());
    EXPECT_EQ(fault->kind, sim::FaultKind::pause);
    EXPECT_EQ(fault->node, 0);
    auto attempt = sim::try_fault(*base, 1, *fault);
    ASSERT_TRUE(attempt.ok()) << attempt.error();
    EXPECT_TRUE(attempt.value().result.met);
    EXPECT_GE(attempt.value().after.overlap, 1);
}

TEST(PresetExercises, RedissonsWatchdogKeepsThePauseOnlyWithTheElectorsTimeout) {
    // watchdog-redisson, exercise 2: of lockWatchdogTimeout 20 000 … 90 000 ms, the nearest to the file's
    // 30 000 that keeps node-a's lock through its 35 s pause is 60 000, the elector's default leaseTime.
    auto base = preset("watchdog-redisson");
    ASSERT_TRUE(base.has_value());
    const auto& knob = base->scenario.exercises.at(1).knobs.at(0);
    auto solved = sim::solve_knobs(*base, 1);
    ASSERT_TRUE(solved.has_value());
    EXPECT_EQ(knob.values.at(static_cast<std::size_t>(solved->at(0))), "60000");
}

// The first event of `node` with `op` in a preset's trace, or null.
const sim::Event* first_event(const sim::ExerciseBase& base, const std::string& node, sim::EventOp op,
                              sim::Outcome outcome) {
    for (const auto& ev : base.trace.events)
        if (ev.node == node && ev.op == op && ev.outcome == outcome) return &ev;
    return nullptr;
}

TEST(PresetExercises, TheRedissonPairsTellTheirStoriesAtTheirTicks) {
    // The same pause: Redisson's node-b takes the lock at tick 800 (40 s), the elector's gives up at 860.
    auto wd_redisson = preset("watchdog-redisson");
    auto wd_elector = preset("watchdog-elector");
    ASSERT_TRUE(wd_redisson.has_value());
    ASSERT_TRUE(wd_elector.has_value());
    const auto* taken = first_event(*wd_redisson, "node-b", sim::EventOp::acquire, sim::Outcome::acquired);
    ASSERT_NE(taken, nullptr);
    EXPECT_EQ(taken->tick, 800);
    EXPECT_EQ(first_event(*wd_elector, "node-b", sim::EventOp::acquire, sim::Outcome::acquired), nullptr);
    const auto* gave_up = first_event(*wd_elector, "node-b", sim::EventOp::skip, sim::Outcome::skipped);
    ASSERT_NE(gave_up, nullptr);
    EXPECT_EQ(gave_up->tick, 860);
    // The same one-tick partition at tick 40: Redisson loses the message and locks at tick 200;
    // the elector's poll in it errors (its reply lost) and node-b never holds.
    auto lu_redisson = preset("lost-unlock-redisson");
    auto lu_elector = preset("lost-unlock-elector");
    ASSERT_TRUE(lu_redisson.has_value());
    ASSERT_TRUE(lu_elector.has_value());
    const auto* lost = first_event(*lu_redisson, "node-b", sim::EventOp::message, sim::Outcome::lost);
    ASSERT_NE(lost, nullptr);
    EXPECT_EQ(lost->tick, 40);
    const auto* late = first_event(*lu_redisson, "node-b", sim::EventOp::acquire, sim::Outcome::acquired);
    ASSERT_NE(late, nullptr);
    EXPECT_EQ(late->tick, 200);
    const auto* failed = first_event(*lu_elector, "node-b", sim::EventOp::acquire, sim::Outcome::error);
    ASSERT_NE(failed, nullptr);
    EXPECT_EQ(failed->tick, 40);
    EXPECT_EQ(first_event(*lu_elector, "node-b", sim::EventOp::acquire, sim::Outcome::acquired), nullptr);
}

// Every Korean text of every exercise, with where it is.
std::map<std::string, std::string> korean_texts() {
    std::map<std::string, std::string> out;
    for (const auto& path : preset_files()) {
        auto base = base_of(path);
        if (!base) continue;
        const auto& list = base->scenario.exercises;
        for (std::size_t i = 0; i < list.size(); ++i) {
            const std::string where = path.stem().string() + "/exercises/" + std::to_string(i);
            out[where + "/prompt"] = list[i].prompt.ko;
            if (!list[i].hint.ko.empty()) out[where + "/hint"] = list[i].hint.ko;
        }
    }
    return out;
}

TEST(PresetExercises, KoreanTextsUseTheGlossarysWords) {
    // No Korean prompt or hint uses a word that assets/i18n/glossary.ko.json rejects ("not"), and each ends politely.
    const auto glossary = nlohmann::json::parse(read_all(source_dir + "/assets/i18n/glossary.ko.json"));
    const auto texts = korean_texts();
    ASSERT_FALSE(texts.empty());
    for (const auto& [where, text] : texts) {
        SCOPED_TRACE(where);
        // Polite endings, as in the presets' summaries: "…니다." or "…요?" / "…세요."
        EXPECT_TRUE(text.find("니다") != std::string::npos || text.find("요") != std::string::npos) << text;
        for (const auto& idea : glossary.at("ideas")) {
            for (const auto& rejected : idea.at("not")) {
                EXPECT_EQ(text.find(rejected.get<std::string>()), std::string::npos)
                    << "uses \"" << rejected.get<std::string>() << "\"; the glossary's word is "
                    << idea.at("ko").get<std::string>();
            }
        }
    }
}

}  // namespace preset_exercises_test

// Exercises in words (exercise_words.hpp) are claims about the trace. For
// every exercise of every file in scenarios/ and tests/data/exercises/good.json,
// in English and Korean:
//   - the feedback for every choice of a predict, right and wrong, renders
//     whole (no key, field or particle left unfilled), names the tick asked
//     and the node of the deciding event, and says right only for the right one;
//   - solve_knobs' combination, tried, is met, and its lines (and those of a
//     try of the file's own values) name the tick of the evidence event and of
//     the first change;
//   - smallest_fault's fault, tried, is met, and its words name its tick and node.
// And every condition, choice label and fault kind renders in both languages.
#include <gtest/gtest.h>

#include "support/string_tables.hpp"
#include "support/test_files.hpp"

#include <filesystem>
#include <set>

#include "leasescope/sim/exercise.hpp"
#include "leasescope/words/exercise_words.hpp"

using namespace leasescope;
using namespace leasescope::words;

namespace {

using leasescope::test::read_all;
using leasescope::test::source_dir;

Strings in(Lang lang) { return leasescope::test::string_tables(lang); }

// Whole: no {field}, no key shown in place of its text, no particle pair left.
void expect_whole(const std::string& text, const std::string& where) {
    EXPECT_FALSE(text.empty()) << where;
    EXPECT_EQ(text.find('{'), std::string::npos) << where << ": " << text;
    EXPECT_EQ(text.find('}'), std::string::npos) << where << ": " << text;
    EXPECT_EQ(text.find("exercise."), std::string::npos) << where << ": " << text;
    EXPECT_EQ(text.find("explore."), std::string::npos) << where << ": " << text;
    for (const char* pair : {"(이)가", "(은)는", "(을)를", "(으)로", "(과)와"})
        EXPECT_EQ(text.find(pair), std::string::npos) << where << ": " << text;
}

// "tick 6" in English, "6틱" in Korean.
std::string tick_words(Tick tick, Lang lang) {
    return lang == Lang::ko ? std::to_string(tick) + "틱" : "tick " + std::to_string(tick);
}

std::vector<std::string> exercise_files() {
    std::vector<std::string> files{source_dir + "/tests/data/exercises/good.json"};
    for (const auto& entry : std::filesystem::directory_iterator(source_dir + "/scenarios"))
        if (entry.path().extension() == ".json") files.push_back(entry.path().string());
    return files;
}

void check_predict(const sim::ExerciseBase& base, std::size_t k, const std::string& where) {
    auto p = sim::predict(base, k);
    ASSERT_TRUE(p.ok()) << where << ": " << p.error().to_string();
    const sim::Exercise& ex = base.scenario.exercises[k];
    for (const Lang lang : {Lang::en, Lang::ko}) {
        const Strings s = in(lang);
        const std::string right_prefix = s.tr("exercise.predict.right", {{"fact", ""}});
        for (std::size_t c = 0; c < p.value().choices.size(); ++c) {
            const auto chosen = static_cast<std::int32_t>(c);
            const std::string text = prediction_feedback(base, k, p.value(), chosen, s);
            const std::string at = where + " choice " + p.value().choices[c] + " (" + lang_code(lang) + ")";
            expect_whole(text, at);
            EXPECT_NE(text.find(tick_words(ex.at, lang)), std::string::npos) << at << ": " << text;
            if (p.value().deciding) {
                const std::string& node = base.trace.events.at(*p.value().deciding).node;
                EXPECT_NE(text.find(node), std::string::npos) << at << ": " << text;
            }
            EXPECT_EQ(text.rfind(right_prefix, 0) == 0, chosen == p.value().right) << at << ": " << text;
            if (chosen != p.value().right) {
                EXPECT_NE(text.find(choice_words(p.value().choices[c], s)), std::string::npos) << at << ": " << text;
            }
        }
    }
}

void check_attempt_lines(const sim::ExerciseBase& base, std::size_t k, const sim::Attempt& a,
                         const std::string& where) {
    for (const Lang lang : {Lang::en, Lang::ko}) {
        const Strings s = in(lang);
        const std::vector<std::string> lines = attempt_lines(base, k, a, s);
        ASSERT_EQ(lines.size(), 4u) << where;
        for (const std::string& line : lines) expect_whole(line, where);
        const char* verdict = a.result.met ? "exercise.goal_met" : "exercise.goal_not_met";
        EXPECT_EQ(lines[0], s.tr(verdict, {{"condition", condition_words(base.scenario.exercises[k].goal, s)}}))
            << where;
        if (a.result.evidence) {
            const Tick tick = a.trace.events.at(*a.result.evidence).tick;
            EXPECT_NE(lines[1].find(tick_words(tick, lang)), std::string::npos) << where << ": " << lines[1];
        }
        if (a.divergence && *a.divergence < a.trace.events.size()) {
            const Tick tick = a.trace.events.at(*a.divergence).tick;
            EXPECT_NE(lines[2].find(tick_words(tick, lang)), std::string::npos) << where << ": " << lines[2];
        }
    }
}

void check_goal(const sim::ExerciseBase& base, std::size_t k, const std::string& where) {
    const auto values = sim::solve_knobs(base, k);
    ASSERT_TRUE(values.has_value()) << where << ": a sound goal is reachable";
    auto a = sim::try_knobs(base, k, *values);
    ASSERT_TRUE(a.ok()) << where << ": " << a.error();
    ASSERT_TRUE(a.value().result.met) << where;
    check_attempt_lines(base, k, a.value(), where);
    // The file's own values (or the nearest): a try that may well not meet the goal.
    auto own = sim::try_knobs(base, k, sim::written_knobs(base, k));
    ASSERT_TRUE(own.ok()) << where << ": " << own.error();
    check_attempt_lines(base, k, own.value(), where + " (the file's own values)");
    for (const Lang lang : {Lang::en, Lang::ko}) {
        const std::string text = solution_words(base, k, values, in(lang));
        expect_whole(text, where);
        for (const sim::Knob& knob : base.scenario.exercises[k].knobs)
            EXPECT_NE(text.find(knob.set), std::string::npos) << where << ": " << text;
    }
}

void check_find_fault(const sim::ExerciseBase& base, std::size_t k, const std::string& where) {
    const auto fault = sim::smallest_fault(base, k);
    ASSERT_TRUE(fault.has_value()) << where << ": a sound find_fault is reachable";
    auto a = sim::try_fault(base, k, *fault);
    ASSERT_TRUE(a.ok()) << where << ": " << a.error();
    ASSERT_TRUE(a.value().result.met) << where;
    check_attempt_lines(base, k, a.value(), where);
    for (const Lang lang : {Lang::en, Lang::ko}) {
        const std::string text = smallest_fault_words(base, fault, in(lang));
        expect_whole(text, where);
        EXPECT_NE(text.find(tick_words(fault->at, lang)), std::string::npos) << where << ": " << text;
        if (fault->node >= 0) {
            const std::string& node = base.scenario.candidates.at(static_cast<std::size_t>(fault->node)).name;
            EXPECT_NE(text.find(node), std::string::npos) << where << ": " << text;
        }
    }
}

}  // namespace

TEST(ExerciseWords, EveryExerciseOfEveryFileRendersTrueFeedback) {
    std::size_t checked = 0;
    for (const std::string& path : exercise_files()) {
        auto base = sim::exercise_base(read_all(path), path);
        ASSERT_TRUE(base.ok()) << base.error().to_string();
        const auto& exercises = base.value().scenario.exercises;
        for (std::size_t k = 0; k < exercises.size(); ++k) {
            const std::string where = path + " exercise " + std::to_string(k + 1);
            for (const Lang lang : {Lang::en, Lang::ko}) {
                expect_whole(exercise_text(exercises[k].prompt, in(lang)), where);
                expect_whole(condition_words(exercises[k].goal, in(lang)), where);
            }
            switch (exercises[k].kind) {
                case sim::ExerciseKind::predict: check_predict(base.value(), k, where); break;
                case sim::ExerciseKind::goal: check_goal(base.value(), k, where); break;
                case sim::ExerciseKind::find_fault: check_find_fault(base.value(), k, where); break;
            }
            ++checked;
        }
    }
    EXPECT_GE(checked, 6u);  // good.json's six at least: the loop still finds exercises
}

TEST(ExerciseWords, EveryConditionChoiceAndFaultKindRendersInBothLanguages) {
    using sim::ConditionKind;
    using sim::GoalProperty;
    std::vector<sim::Condition> conditions;
    for (const ConditionKind kind : {ConditionKind::holds, ConditionKind::fails}) {
        for (int p = 0; p <= static_cast<int>(GoalProperty::stale_write); ++p)
            conditions.push_back({kind, static_cast<GoalProperty>(p), {}});
    }
    for (const ConditionKind kind :
         {ConditionKind::acquires, ConditionKind::never_acquires, ConditionKind::write_rejected})
        conditions.push_back({kind, GoalProperty::overlap, "node-b"});
    sim::FaultBudget budget;
    for (int f = 0; f <= static_cast<int>(sim::FaultKind::replica_link); ++f)
        budget.kinds.push_back(static_cast<sim::FaultKind>(f));
    for (const Lang lang : {Lang::en, Lang::ko}) {
        const Strings s = in(lang);
        std::set<std::string> seen;
        for (const sim::Condition& c : conditions) {
            const std::string text = condition_words(c, s);
            expect_whole(text, sim::to_string(c.kind));
            EXPECT_TRUE(seen.insert(text).second) << "two conditions read the same: " << text;
            if (!c.node.empty()) {
                EXPECT_NE(text.find("node-b"), std::string::npos) << text;
            }
        }
        for (const char* value : {"nobody", "accepted", "rejected", "released", "not_released"})
            expect_whole(choice_words(value, s), value);
        for (const sim::ExerciseKind kind :
             {sim::ExerciseKind::predict, sim::ExerciseKind::goal, sim::ExerciseKind::find_fault})
            expect_whole(exercise_kind_words(kind, s), sim::to_string(kind));
        expect_whole(fault_kinds_words(budget, s), "fault kinds");
        EXPECT_EQ(progress_words(2, 5, s), lang == Lang::en ? "2 of 5 done" : "5개 중 2개 완료");
    }
}

// A find_fault exercise on Redisson (model.md §21): its faults are
// Redisson's own ("delay" is refused at its JSON path), the explorer lays
// them out with the properties a fenceless run can break, and the feedback
// tells a late write in Redisson's words: another client's field holds the
// lock, and no fencing number is spoken of (there is none, §21.6).
TEST(ExerciseWords, RedissonFindFaultTellsTheWriteInRedissonsWords) {
    const std::string path = source_dir + "/tests/sim/explore/redisson/watchdog-redisson-base.json";
    std::string text = read_all(path);
    const std::size_t end = text.rfind('}');
    ASSERT_NE(end, std::string::npos);
    const auto with_faults = [&](const std::string& faults) {
        return text.substr(0, end) + R"(, "exercises": [{"kind": "find_fault", "faults": ")" + faults +
               R"(", "max_ticks": 500, "goal": {"fails": "unsafe_write"}, "prompt": {"en": "p", "ko": "p"}}]})";
    };
    auto refused = sim::exercise_base(with_faults("delay"), "redisson.json");
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.error().to_string().find("/exercises/0/faults"), std::string::npos)
        << refused.error().to_string();
    EXPECT_NE(refused.error().to_string().find("cannot be added to a Redisson scenario"), std::string::npos);

    auto base = sim::exercise_base(with_faults("pause"), "redisson.json");
    ASSERT_TRUE(base.ok()) << base.error().to_string();
    ASSERT_TRUE(sim::fault_budget(base.value(), 0).ok());
    sim::Fault pause{sim::FaultKind::pause, 0, 200, 400, {}, {}};
    auto a = sim::try_fault(base.value(), 0, pause);
    ASSERT_TRUE(a.ok()) << a.error();
    ASSERT_TRUE(a.value().result.met);
    for (const Lang lang : {Lang::en, Lang::ko}) {
        std::string all;
        for (const std::string& line : attempt_lines(base.value(), 0, a.value(), in(lang))) all += line + "\n";
        expect_whole(all, "redisson find_fault");
        EXPECT_EQ(all.find("fencing"), std::string::npos) << all;
        EXPECT_EQ(all.find("펜싱"), std::string::npos) << all;
        EXPECT_NE(all.find("Redisson"), std::string::npos) << all;
        if (lang == Lang::en) {
            EXPECT_NE(all.find("node-a writes and the resource accepts it while another client's field holds the lock"),
                      std::string::npos)
                << all;
        }
    }
}

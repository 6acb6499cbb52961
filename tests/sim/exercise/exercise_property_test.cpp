// Properties of exercises (docs/model.md §18) on generated scenarios: a
// predict's right choice is what an independent reading of the trace's
// JSON lines shows; solve_knobs' combination meets the goal when the file is
// re-parsed with those values and simulated from scratch, and no nearer one
// does; smallest_fault meets the goal and no pause with fewer ticks does.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "leasescope/engine/prng.hpp"
#include "leasescope/sim/exercise.hpp"
#include "support/fault_test_helpers.hpp"
#include "leasescope/sim/generator.hpp"
#include "leasescope/sim/simulation.hpp"

namespace {

namespace sim = leasescope::sim;
using json = nlohmann::json;

const json prompt = {{"en", "Q"}, {"ko", "질문"}};

json generated(std::uint64_t seed, bool faults) {
    sim::GeneratorOptions o;
    o.candidates = 3;
    o.horizon = 100;
    o.seed = seed;
    o.faults = faults;
    return json::parse(sim::generate_scenario(o));
}

std::optional<sim::ExerciseBase> base_of(json doc, std::vector<json> exercises) {
    doc["exercises"] = std::move(exercises);
    auto base = sim::exercise_base(doc.dump(), "generated.json");
    if (!base.ok()) {
        ADD_FAILURE() << base.error().to_string();
        return std::nullopt;
    }
    return std::move(base).value();
}

// The trace's events as its JSON lines say them.
std::vector<json> lines_of(const sim::Trace& t) {
    std::vector<json> out;
    for (const sim::Event& e : t.events) out.push_back(json::parse(sim::event_line(e)));
    return out;
}

// The right answer read from the lines alone (model.md §18.2).
std::string read_answer(const std::vector<json>& lines, const json& exercise) {
    const std::int64_t at = exercise["at"];
    const std::string ask = exercise["ask"];
    for (const json& l : lines) {
        if (l["tick"] != at) continue;
        if ((ask == "acquirer" || ask == "fencing") && l["op"] == "acquire" && l["outcome"] == "acquired")
            return ask == "acquirer" ? l["node"].get<std::string>() : l["fencing"].dump();
        if (ask == "write" && l["op"] == "write" && l["node"] == exercise["node"]) return l["outcome"];
        if (ask == "release" && l["op"] == "release" && l["node"] == exercise["node"])
            return l["outcome"] == "released" ? "released" : "not_released";
    }
    return "nobody";
}

// Exercises about ticks where something happens: each acquire, write and
// release of the trace, asked the way its kind allows.
std::vector<json> predicts_for(const sim::Trace& t, std::uint64_t seed) {
    leasescope::SplitMix64 rng(seed);
    std::vector<json> out;
    for (const sim::Event& e : t.events) {
        // `at` is 0 … horizon - 1 (model.md §18.2), though tick `horizon` is simulated too.
        if (out.size() >= 32 || e.tick >= 100 || rng.next() % 4 != 0) continue;
        json x = {{"kind", "predict"}, {"prompt", prompt}, {"at", e.tick}};
        if (e.op == sim::EventOp::acquire) {
            x["ask"] = e.outcome == sim::Outcome::acquired && rng.next() % 2 == 0 ? "fencing" : "acquirer";
        } else if (e.op == sim::EventOp::write || e.op == sim::EventOp::release) {
            x["ask"] = e.op == sim::EventOp::write ? "write" : "release";
            x["node"] = e.node;
        } else {
            continue;
        }
        out.push_back(x);
    }
    return out;
}

// A predict about any acquire, write or release of a generated run: its
// right choice is what the JSON lines show, and it is among the choices once.
TEST(ExerciseProperty, PredictsRightChoiceIsWhatTheLinesShow) {
    std::size_t checked = 0;
    for (std::uint64_t seed = 1; seed <= 12; ++seed) {
        const json doc = generated(seed, true);
        const auto plain = base_of(doc, {});
        ASSERT_TRUE(plain);
        const std::vector<json> exercises = predicts_for(plain->trace, seed);
        const auto base = base_of(doc, exercises);
        ASSERT_TRUE(base);
        const std::vector<json> lines = lines_of(base->trace);
        for (std::size_t i = 0; i < exercises.size(); ++i) {
            SCOPED_TRACE("seed " + std::to_string(seed) + ": " + exercises[i].dump());
            const auto p = sim::predict(*base, i);
            // Every exercise asks about an event of the trace: the fact exists.
            ASSERT_TRUE(p.ok()) << p.error().to_string();
            const auto& choices = p.value().choices;
            EXPECT_EQ(choices[static_cast<std::size_t>(p.value().right)], read_answer(lines, exercises[i]));
            EXPECT_EQ(std::count(choices.begin(), choices.end(), choices[static_cast<std::size_t>(p.value().right)]),
                      1);
            ++checked;
        }
    }
    EXPECT_GE(checked, 50u);
}

// The values of each knob as --set takes them.
const std::vector<std::vector<std::string>> knob_values = {{"2", "5", "8", "11", "14"},
                                                           {"\"off\"", "\"check\"", "\"validate\""}};

// solve_knobs' answer meets the goal when the file is parsed anew with its
// values and simulated; no combination nearer the file's own does; with no
// answer, none does.
TEST(ExerciseProperty, SolvedCombinationMeetsTheGoalFromScratchAndNoNearerOneDoes) {
    const json knobs = {{{"set", "defaults.lease"}, {"range", {2, 14}}, {"step", 3}},
                        {{"set", "resource.mode"}, {"values", {"off", "check", "validate"}}}};
    const json goals[] = {{{"fails", "overlap"}}, {{"fails", "unsafe_write"}}, {{"holds", "overlap"}}};
    std::size_t solved = 0;
    for (std::uint64_t seed = 1; seed <= 8; ++seed) {
        for (const json& goal : goals) {
            SCOPED_TRACE("seed " + std::to_string(seed) + " goal " + goal.dump());
            const json exercise = {{"kind", "goal"}, {"prompt", prompt}, {"knobs", knobs}, {"goal", goal}};
            const auto base = base_of(generated(seed, true), {exercise});
            ASSERT_TRUE(base);
            const auto answer = sim::solve_knobs(*base, 0);
            const auto from = sim::written_knobs(*base, 0);
            // From scratch: the file's bytes, the values as --set, a new run.
            const auto meets = [&](const std::vector<std::int32_t>& v) {
                std::vector<sim::Override> sets;
                for (std::size_t k = 0; k < v.size(); ++k)
                    sets.push_back({knobs[k]["set"], knob_values[k][static_cast<std::size_t>(v[k])]});
                auto s = sim::parse_scenario(base->text, base->file, sets);
                if (!s.ok()) return false;
                return sim::evaluate(base->scenario.exercises[0].goal, s.value(), sim::simulate(s.value())).met;
            };
            const auto distance = [&](const std::vector<std::int32_t>& v) {
                return std::abs(v[0] - from[0]) + std::abs(v[1] - from[1]);
            };
            for (std::int32_t a = 0; a < 5; ++a) {
                for (std::int32_t b = 0; b < 3; ++b) {
                    const std::vector<std::int32_t> v{a, b};
                    if (!answer || distance(v) < distance(*answer)) {
                        EXPECT_FALSE(meets(v)) << a << "," << b;
                    }
                }
            }
            if (!answer) continue;
            EXPECT_TRUE(meets(*answer));
            ++solved;
        }
    }
    EXPECT_GE(solved, 8u);
}

// smallest_fault's pause meets the goal; no pause with fewer ticks, on any
// node at any tick, does; with no answer, no pause in the budget does.
TEST(ExerciseProperty, SmallestFaultMeetsTheGoalAndNoShorterPauseDoes) {
    const json goals[] = {{{"fails", "overlap"}}, {{"never_acquires", "node-000001"}}};
    std::size_t found = 0;
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
        for (const json& goal : goals) {
            SCOPED_TRACE("seed " + std::to_string(seed) + " goal " + goal.dump());
            const json exercise = {
                {"kind", "find_fault"}, {"prompt", prompt}, {"faults", "pause"}, {"max_ticks", 6}, {"goal", goal}};
            const auto base = base_of(generated(seed, false), {exercise});
            ASSERT_TRUE(base);
            if (sim::evaluate(base->scenario.exercises[0].goal, base->scenario, base->trace).met) continue;
            const auto f = sim::smallest_fault(*base, 0);
            const leasescope::Tick longest = f ? f->ticks - 1 : 6;
            for (leasescope::NodeIndex node = 0; node < 3; ++node) {
                for (leasescope::Tick at = 0; at < 100; ++at) {
                    for (leasescope::Tick ticks = 1; ticks <= longest; ++ticks) {
                        const auto t = sim::try_fault(*base, 0, fault_test::pause(node, at, ticks));
                        ASSERT_TRUE(t.ok()) << t.error();
                        EXPECT_FALSE(t.value().result.met) << node << " " << at << " " << ticks;
                    }
                }
            }
            if (!f) continue;
            const auto t = sim::try_fault(*base, 0, *f);
            ASSERT_TRUE(t.ok()) << t.error();
            EXPECT_TRUE(t.value().result.met);
            ++found;
        }
    }
    EXPECT_GE(found, 3u);
}

}  // namespace

// Pins the form of a scenario's `exercises` (docs/model.md §18.1–§18.5):
// every form error at its JSON path, unknown keys with "did you mean", a
// range expanded into its values, and the write-back as written.
#include "support/scenario_test_helpers.hpp"

#include "leasescope/sim/scenario_keys.hpp"

namespace {

using namespace scenario_test;

const json prompt = {{"en", "Who acquires?"}, {"ko", "누가 획득합니까?"}};

json predict_one() { return {{"kind", "predict"}, {"prompt", prompt}, {"at", 3}, {"ask", "acquirer"}}; }
json goal_one() {
    return {{"kind", "goal"},
            {"prompt", prompt},
            {"knobs", json::array({{{"set", "defaults.lease"}, {"range", {2, 10}}, {"step", 2}}})},
            {"goal", {{"holds", "overlap"}}}};
}
json find_fault_one() {
    return {{"kind", "find_fault"}, {"prompt", prompt}, {"max_ticks", 3}, {"goal", {{"fails", "liveness"}}}};
}

json with_exercises(std::vector<json> list) {
    json doc = base();
    doc["horizon"] = 40;
    doc["exercises"] = list;
    return doc;
}

// Each kind reads its own keys into Exercise; find_fault's faults default to "pause".
TEST(ExerciseForm, EachKindParsesWithItsKeys) {
    json fencing = predict_one();
    fencing["ask"] = "fencing";
    fencing["choices"] = {1, 2, 3};
    json write = predict_one();
    write["ask"] = "write";
    write["node"] = "node-b";
    const auto s = accepted(with_exercises({predict_one(), fencing, write, goal_one(), find_fault_one()}));
    ASSERT_TRUE(s);
    ASSERT_EQ(s->exercises.size(), 5u);
    EXPECT_EQ(s->exercises[0].kind, sim::ExerciseKind::predict);
    EXPECT_EQ(s->exercises[0].at, 3);
    EXPECT_EQ(s->exercises[1].choices, (std::vector<std::string>{"1", "2", "3"}));
    EXPECT_EQ(s->exercises[2].node, "node-b");
    EXPECT_EQ(s->exercises[3].goal.kind, sim::ConditionKind::holds);
    EXPECT_EQ(s->exercises[3].goal.property, sim::GoalProperty::overlap);
    EXPECT_EQ(s->exercises[4].faults, "pause");
    EXPECT_EQ(s->exercises[4].max_ticks, 3);
}

// A range [lo, hi] with a step expands into lo, lo + step, … ≤ hi.
TEST(ExerciseForm, ARangeExpandsIntoKnobValues) {
    json g = goal_one();
    g["knobs"][0] = {{"set", "defaults.lease"}, {"range", {3, 10}}, {"step", 3}};
    g["knobs"].push_back({{"set", "resource.mode"}, {"values", {"off", "check"}}});
    const auto s = accepted(with_exercises({g}));
    ASSERT_TRUE(s);
    const sim::Knob& k = s->exercises[0].knobs[0];
    EXPECT_TRUE(k.ranged);
    EXPECT_EQ(k.values, (std::vector<std::string>{"3", "6", "9"}));
    EXPECT_EQ(s->exercises[0].knobs[1].values, (std::vector<std::string>{"\"off\"", "\"check\""}));
    EXPECT_FALSE(s->exercises[0].knobs[1].ranged);
}

struct FormCase {
    std::string pointer;  // set at this path…
    json value;           // …to this value
    std::string where;
    std::string words;
};

// Each form error is at its JSON path and says what was expected.
TEST(ExerciseForm, FormErrorsNameTheirPath) {
    const std::vector<FormCase> cases = {
        {"/exercises/0/kind", "guess", "/exercises/0/kind", "unknown value \"guess\""},
        {"/exercises/0/prompt/ko", "", "/exercises/0/prompt/ko", "non-empty Korean"},
        {"/exercises/0/prompt/en", "", "/exercises/0/prompt/en", "non-empty English"},
        {"/exercises/0/hint", {{"en", "h"}}, "/exercises/0/hint/ko", "non-empty Korean"},
        {"/exercises/0/at", 40, "/exercises/0/at", "from 0 to 39"},
        {"/exercises/0/ask", "who", "/exercises/0/ask", "unknown value \"who\""},
        {"/exercises/0/node", "node-a", "/exercises/0/node", "belongs to ask write or release"},
        {"/exercises/0/choices", {"node-a"}, "/exercises/0/choices", "expected 2 to 8 choices"},
        {"/exercises/0/choices", {"node-a", "node-z"}, "/exercises/0/choices/1", "unknown node \"node-z\""},
        {"/exercises/1/goal", "holds", "/exercises/1/goal",
         "expected one of holds, fails, acquires, never_acquires, write_rejected"},
        {"/exercises/1/goal", {{"holds", "overlap"}, {"fails", "liveness"}}, "/exercises/1/goal", "exactly one key"},
        {"/exercises/1/goal", {{"fails", "overlapp"}}, "/exercises/1/goal/fails", "did you mean \"overlap\"?"},
        {"/exercises/1/goal", {{"acquires", "node-q"}}, "/exercises/1/goal/acquires", "unknown node \"node-q\""},
        {"/exercises/1/goal", {{"acquire", "node-a"}}, "/exercises/1/goal/acquire", "did you mean \"acquires\"?"},
        {"/exercises/1/knobs", json::array(), "/exercises/1/knobs", "expected 1 to 4 knobs"},
        {"/exercises/1/knobs/0/range", {5, 2}, "/exercises/1/knobs/0/range", "lo <= hi"},
        {"/exercises/1/knobs/0/range", {1, 2, 3}, "/exercises/1/knobs/0/range", "expected 2 to 2"},
        {"/exercises/1/knobs/0/range", {0, 100000}, "/exercises/1/knobs/0/range", "exercise_tries_max"},
        {"/exercises/1/knobs/0/step", 0, "/exercises/1/knobs/0/step", "from 1"},
        {"/exercises/1/knobs/0/values", {1, 2}, "/exercises/1/knobs/0", "either \"range\" or \"values\", found both"},
        {"/exercises/1/knobs/0/sett", "x", "/exercises/1/knobs/0/sett", "did you mean \"set\"?"},
        {"/exercises/2/faults", "pauze", "/exercises/2/faults", "pauze"},
        {"/exercises/2/faults", "replica_link", "/exercises/2/faults", "needs a store with replicas"},
        {"/exercises/2/max_ticks", 0, "/exercises/2/max_ticks", "from 1"},
        {"/exercises/2/knobs", json::array(), "/exercises/2/knobs", "unknown key \"knobs\""},
        {"/exercises/0/max_tick", 1, "/exercises/0/max_tick", "unknown key \"max_tick\""},
    };
    for (const FormCase& c : cases) {
        SCOPED_TRACE(c.pointer + " = " + c.value.dump());
        EXPECT_TRUE(rejected(with(with_exercises({predict_one(), goal_one(), find_fault_one()}), c.pointer, c.value),
                             c.where, {c.words}));
    }
}

// A kind's required keys are named when missing; the list, the node of
// write and release, and the combinations are bounded.
TEST(ExerciseForm, RequiredKeysAndLimits) {
    EXPECT_TRUE(rejected(with_exercises({without(predict_one(), "/ask")}), "/exercises/0",
                         {"missing \"ask\" (required for a predict exercise)"}));
    EXPECT_TRUE(
        rejected(with_exercises({without(find_fault_one(), "/max_ticks")}), "/exercises/0", {"missing \"max_ticks\""}));
    json write = predict_one();
    write["ask"] = "release";
    EXPECT_TRUE(rejected(with_exercises({write}), "/exercises/0", {"missing \"node\""}));
    EXPECT_TRUE(rejected(with_exercises(std::vector<json>(33, predict_one())), "/exercises",
                         {"at most 32 exercises (exercises_max)"}));
    // Three knobs of 30 values: 27 000 combinations, more than exercise_tries_max.
    json g = goal_one();
    g["knobs"] = json::array();
    for (const char* path : {"defaults.lease", "defaults.wait", "defaults.action"})
        g["knobs"].push_back({{"set", path}, {"range", {1, 30}}});
    EXPECT_TRUE(rejected(with_exercises({g}), "/exercises/0/knobs", {"more than 20000 combinations"}));
}

// Unknown keys list the key table's keys for the exercise's kind.
TEST(ExerciseForm, UnknownKeysListTheKindsKeys) {
    const std::pair<json, const char*> kinds[] = {
        {predict_one(), "predict"}, {goal_one(), "goal"}, {find_fault_one(), "find_fault"}};
    for (const auto& [exercise, kind] : kinds) {
        std::string list;
        for (const std::string& name : sim::key_names_of(sim::Section::exercise, kind))
            list += (list.empty() ? "" : ", ") + name;
        EXPECT_TRUE(rejected(with(with_exercises({exercise}), "/exercises/0/zzzzzzzzzz", 1), "/exercises/0/zzzzzzzzzz",
                             {"unknown key \"zzzzzzzzzz\"; expected one of: " + list}));
    }
}

// scenario_to_json writes the list back as written: a range as a range, and
// the text parses back to equal exercises; no list, no key.
TEST(ExerciseForm, WriteBackKeepsTheExercisesAsWritten) {
    json fencing = predict_one();
    fencing["ask"] = "fencing";
    fencing["choices"] = {1, 2, 3};
    fencing["hint"] = {{"en", "Count."}, {"ko", "세어 보세요."}};
    json g = goal_one();
    g["knobs"].push_back({{"set", "resource.mode"}, {"values", {"off", "check"}}});
    json f = find_fault_one();
    f["faults"] = "pause,partition:drop_requests";
    f["goal"] = {{"write_rejected", "node-a"}};
    const auto s = accepted(with_exercises({predict_one(), fencing, g, f}));
    ASSERT_TRUE(s);
    const std::string text = sim::scenario_to_json(*s);
    const json written = json::parse(text);
    EXPECT_EQ(written["exercises"][2]["knobs"][0], (json{{"set", "defaults.lease"}, {"range", {2, 10}}, {"step", 2}}));
    EXPECT_EQ(written["exercises"][1]["choices"], (json{1, 2, 3}));
    EXPECT_EQ(written["exercises"][2]["knobs"][1]["values"], (json{"off", "check"}));
    const auto again = accepted(text);
    ASSERT_TRUE(again);
    EXPECT_EQ(again->exercises, s->exercises);
    EXPECT_EQ(sim::scenario_to_json(*again), text);
    const auto plain = accepted(base());
    ASSERT_TRUE(plain);
    EXPECT_FALSE(json::parse(sim::scenario_to_json(*plain)).contains("exercises"));
}

}  // namespace

namespace {

// Every exercise is read on its own: the errors of two bad ones are both
// listed, in file order.
TEST(ExerciseForm, EveryBadExerciseIsListed) {
    json bad_kind = predict_one();
    bad_kind["kind"] = "quiz";
    json bad_goal = goal_one();
    bad_goal["goal"] = {{"holds", "overlapp"}};
    const auto all =
        sim::parse_scenario_all_errors(text_of(with_exercises({bad_kind, predict_one(), bad_goal})), test_file);
    ASSERT_FALSE(all.ok());
    ASSERT_EQ(all.error().size(), 2u);
    EXPECT_EQ(all.error()[0].where, "/exercises/0/kind");
    EXPECT_EQ(all.error()[1].where, "/exercises/2/goal/holds");
}

}  // namespace

namespace {

// At horizon 0 no tick is from 0 to horizon - 1: an error at the prediction's
// tick, where the validator used to stop on an empty range (an abort).
TEST(ExerciseForm, APredictionAtHorizonZeroIsAnErrorNotACrash) {
    json doc = with_exercises({predict_one()});
    doc["horizon"] = 0;
    EXPECT_TRUE(
        rejected(doc, "/exercises/0/at", {"a prediction needs a tick from 0 to horizon - 1; the horizon is 0"}));
}

}  // namespace

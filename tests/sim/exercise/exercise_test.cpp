// Pins the answers of exercises (docs/model.md §18): predict's choices and
// right answer per ask kind, each condition's verdict and evidence, knob
// tries, the file's own values and the nearest combination, the smallest
// fault, and each check's error at its JSON path.
#include <gtest/gtest.h>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "leasescope/sim/exercise.hpp"
#include "support/fault_test_helpers.hpp"
#include "leasescope/sim/simulation.hpp"
#include "support/test_files.hpp"

namespace {

namespace sim = leasescope::sim;
using json = nlohmann::json;

const json prompt = {{"en", "Q"}, {"ko", "질문"}};

json predict_of(leasescope::Tick at, const char* ask, const char* node = nullptr) {
    json e = {{"kind", "predict"}, {"prompt", prompt}, {"at", at}, {"ask", ask}};
    if (node != nullptr) e["node"] = node;
    return e;
}
// A vector, not a json: `{mode_knob(…)}` is then a list of one knob under
// every compiler (Clang reads a braced json of one json as a copy of it).
json goal_of(std::vector<json> knobs, json goal) {
    return {{"kind", "goal"}, {"prompt", prompt}, {"knobs", std::move(knobs)}, {"goal", std::move(goal)}};
}
json find_fault_of(const char* faults, std::int64_t max_ticks, json goal) {
    return {{"kind", "find_fault"},
            {"prompt", prompt},
            {"faults", faults},
            {"max_ticks", max_ticks},
            {"goal", std::move(goal)}};
}

// gc-pause-fencing (events: 1 node-a acquires 33 at 0, 5 node-b acquires 34
// at 5, 6 overlap_begin, 7 node-b's write accepted at 7, 8 its release at 9,
// 11 node-a's write rejected at 15, 12 its release refused at 16) with `exercises`.
sim::ExerciseBase gc_pause(std::vector<json> exercises) {
    json doc =
        json::parse(leasescope::test::read_all(leasescope::test::source_dir + "/scenarios/gc-pause-fencing.json"),
                    nullptr, true, true);
    doc["exercises"] = exercises;
    auto base = sim::exercise_base(doc.dump(), "gc.json");
    EXPECT_TRUE(base.ok()) << (base.ok() ? "" : base.error().to_string());
    return std::move(base).value();
}

// Two nodes one after the other, no faults, resource off: nothing overlaps.
sim::ExerciseBase handover(std::vector<json> exercises) {
    json doc = json::parse(R"({"name": "ff", "horizon": 40, "seed": 33,
      "lock": {"fencing_start": 33}, "defaults": {"wait": 2, "lease": 5},
      "candidates": [{"name": "node-a", "action": 3, "writes": [2]},
                     {"name": "node-b", "start": 4, "action": 3, "writes": [2]}]})");
    doc["exercises"] = exercises;
    auto base = sim::exercise_base(doc.dump(), "ff.json");
    EXPECT_TRUE(base.ok()) << (base.ok() ? "" : base.error().to_string());
    return std::move(base).value();
}

// acquirer: every candidate then "nobody"; right is the first acquisition
// of the tick, or nobody when the tick has none.
TEST(ExercisePredict, AcquirerIsTheFirstAcquisitionOfTheTickElseNobody) {
    const auto base = gc_pause({predict_of(5, "acquirer"), predict_of(3, "acquirer")});
    const auto p = sim::predict(base, 0);
    ASSERT_TRUE(p.ok());
    EXPECT_EQ(p.value().choices, (std::vector<std::string>{"node-a", "node-b", "nobody"}));
    EXPECT_EQ(p.value().right, 1);
    EXPECT_EQ(p.value().deciding, std::optional<std::size_t>(5));
    EXPECT_EQ(p.value().events, (std::vector<std::size_t>{3, 4, 5, 6}));
    const auto q = sim::predict(base, 1);
    ASSERT_TRUE(q.ok());
    EXPECT_EQ(q.value().choices[static_cast<std::size_t>(q.value().right)], "nobody");
    EXPECT_FALSE(q.value().deciding);
}

// Built fencing choices: h - 1 … h + 2 around the highest number issued
// before the tick (33 before tick 5), at least fencing_start (33): a number
// the lock never issues is no choice.
TEST(ExercisePredict, FencingChoicesAreBuiltAroundTheHighestIssued) {
    const auto base = gc_pause({predict_of(5, "fencing"), predict_of(0, "fencing")});
    const auto p = sim::predict(base, 0);
    ASSERT_TRUE(p.ok());
    EXPECT_EQ(p.value().choices, (std::vector<std::string>{"33", "34", "35", "36"}));
    EXPECT_EQ(p.value().right, 1);
    // Nothing issued before tick 0: h = fencing_start - 1 = 32; 31 and 32 are below fencing_start.
    const auto first = sim::predict(base, 1);
    ASSERT_TRUE(first.ok());
    EXPECT_EQ(first.value().choices, (std::vector<std::string>{"33", "34", "35", "36"}));
    EXPECT_EQ(first.value().right, 0);
}

// The author's fencing choices replace the built ones, in their order.
TEST(ExercisePredict, AuthorsFencingChoicesAreKept) {
    json e = predict_of(5, "fencing");
    e["choices"] = {33, 34};
    const auto p = sim::predict(gc_pause({e}), 0);
    ASSERT_TRUE(p.ok());
    EXPECT_EQ(p.value().choices, (std::vector<std::string>{"33", "34"}));
    EXPECT_EQ(p.value().right, 1);
}

// write: the resource's outcome of the node's write; release: released, or
// not_released for any other outcome (a stale token's release here).
TEST(ExercisePredict, WriteAndReleaseReadTheResourcesAnswer) {
    const auto base = gc_pause({predict_of(15, "write", "node-a"), predict_of(7, "write", "node-b"),
                                predict_of(9, "release", "node-b"), predict_of(16, "release", "node-a")});
    const auto right = [&](std::size_t i) {
        const auto p = sim::predict(base, i);
        EXPECT_TRUE(p.ok());
        return p.ok() ? p.value().choices[static_cast<std::size_t>(p.value().right)] : std::string();
    };
    EXPECT_EQ(right(0), "rejected");
    EXPECT_EQ(right(1), "accepted");
    EXPECT_EQ(right(2), "released");
    EXPECT_EQ(right(3), "not_released");
    EXPECT_EQ(sim::predict(base, 3).value().choices, (std::vector<std::string>{"released", "not_released"}));
}

// Each problem of a predict exercise at its JSON path (§18.6 item 2).
TEST(ExercisePredict, MissingFactsRepeatsAndAbsentAnswersAreErrors) {
    json repeats = predict_of(5, "acquirer");
    repeats["choices"] = {"node-b", "nobody", "node-b"};
    json absent = predict_of(5, "acquirer");
    absent["choices"] = {"node-a", "nobody"};
    const auto base = gc_pause({predict_of(3, "fencing"), predict_of(3, "write", "node-a"), repeats, absent});
    const auto errors = sim::check_exercises(base);
    ASSERT_EQ(errors.size(), 4u);
    EXPECT_EQ(errors[0].where, "/exercises/0/at");
    EXPECT_NE(errors[0].message.find("no acquisition"), std::string::npos);
    EXPECT_EQ(errors[1].where, "/exercises/1/at");
    EXPECT_NE(errors[1].message.find("no write of node-a"), std::string::npos);
    EXPECT_EQ(errors[2].where, "/exercises/2/choices/2");
    EXPECT_EQ(errors[3].where, "/exercises/3/choices");
    EXPECT_NE(errors[3].message.find("node-b"), std::string::npos);
    EXPECT_EQ(errors[0].file, "gc.json");
}

sim::Condition condition(sim::ConditionKind kind, sim::GoalProperty p, std::string node = "") {
    return sim::Condition{kind, p, std::move(node)};
}

// Each condition kind on gc-pause-fencing, with the event that shows it.
TEST(ExerciseConditions, EachConditionOnARealTrace) {
    using K = sim::ConditionKind;
    using P = sim::GoalProperty;
    const auto base = gc_pause({});
    const auto eval = [&](const sim::Condition& c) { return sim::evaluate(c, base.scenario, base.trace); };
    EXPECT_TRUE(eval(condition(K::fails, P::overlap)).met);
    EXPECT_EQ(eval(condition(K::fails, P::overlap)).evidence, std::optional<std::size_t>(6));
    EXPECT_FALSE(eval(condition(K::holds, P::overlap)).met);
    EXPECT_TRUE(eval(condition(K::holds, P::unsafe_write)).met);
    EXPECT_FALSE(eval(condition(K::holds, P::unsafe_write)).evidence);
    EXPECT_TRUE(eval(condition(K::holds, P::liveness)).met);
    EXPECT_FALSE(eval(condition(K::fails, P::stale_write)).met);
    EXPECT_TRUE(eval(condition(K::acquires, P::overlap, "node-b")).met);
    EXPECT_EQ(eval(condition(K::acquires, P::overlap, "node-b")).evidence, std::optional<std::size_t>(5));
    EXPECT_FALSE(eval(condition(K::never_acquires, P::overlap, "node-b")).met);
    EXPECT_TRUE(eval(condition(K::write_rejected, P::overlap, "node-a")).met);
    EXPECT_EQ(eval(condition(K::write_rejected, P::overlap, "node-a")).evidence, std::optional<std::size_t>(11));
    EXPECT_FALSE(eval(condition(K::write_rejected, P::overlap, "node-b")).met);
}

// Liveness fails when no run ends elected (evidence: the last event); a
// stale write is one the resource accepted marked stale.
TEST(ExerciseConditions, LivenessAndStaleWriteOnMadeTraces) {
    using K = sim::ConditionKind;
    using P = sim::GoalProperty;
    sim::Trace t;
    t.events.resize(3);
    t.events[1].op = sim::EventOp::write;
    t.events[1].outcome = sim::Outcome::accepted;
    t.events[1].details = sim::Details{sim::Detail::stale};
    t.summary.results = {sim::RunSummary{"node-a", 0, "acquire_failed", std::nullopt}};
    const sim::Scenario s;
    EXPECT_TRUE(sim::evaluate(condition(K::fails, P::liveness), s, t).met);
    EXPECT_EQ(sim::evaluate(condition(K::fails, P::liveness), s, t).evidence, std::optional<std::size_t>(2));
    EXPECT_TRUE(sim::evaluate(condition(K::fails, P::stale_write), s, t).met);
    EXPECT_EQ(sim::evaluate(condition(K::fails, P::stale_write), s, t).evidence, std::optional<std::size_t>(1));
    t.summary.results[0].result = "elected";
    EXPECT_TRUE(sim::evaluate(condition(K::holds, P::liveness), s, t).met);
}

json mode_knob(json values) { return {{"set", "resource.mode"}, {"values", std::move(values)}}; }

// A try sets the values as --set would: the goal, the first event that
// differs, the violations before and after; an index out of range or a
// wrong count is refused.
TEST(ExerciseKnobs, ATryAppliesTheValuesAsSetWould) {
    const auto base = gc_pause({goal_of({mode_knob({"off", "check", "validate"})}, {{"fails", "unsafe_write"}})});
    const auto off = sim::try_knobs(base, 0, {0});
    ASSERT_TRUE(off.ok()) << off.error();
    EXPECT_EQ(off.value().scenario.resource, sim::ResourceMode::off);
    EXPECT_TRUE(off.value().result.met);
    EXPECT_EQ(off.value().after.unsafe_write, 1);
    EXPECT_EQ(off.value().before.unsafe_write, 0);
    ASSERT_TRUE(off.value().divergence);
    EXPECT_EQ(off.value().trace.events[*off.value().divergence].op, sim::EventOp::write);
    const auto same = sim::try_knobs(base, 0, {1});
    ASSERT_TRUE(same.ok());
    EXPECT_FALSE(same.value().divergence);
    EXPECT_FALSE(same.value().result.met);
    EXPECT_FALSE(sim::try_knobs(base, 0, {3}).ok());
    EXPECT_FALSE(sim::try_knobs(base, 0, {0, 0}).ok());
}

// An invalid combination is refused with the scenario's error.
TEST(ExerciseKnobs, AnInvalidCombinationIsRefusedWithTheScenariosError) {
    const auto base = gc_pause({goal_of({{{"set", "defaults.lease"}, {"values", {5, 0}}}}, {{"fails", "overlap"}})});
    const auto bad = sim::try_knobs(base, 0, {1});
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().find("/defaults/lease"), std::string::npos) << bad.error();
    EXPECT_EQ(bad.error().rfind("with defaults.lease=0: ", 0), 0u) << bad.error();
}

// The file's own value per knob: its index, the nearest number's, or (a
// path the file does not write) the value --set reads back as the file.
TEST(ExerciseKnobs, WrittenKnobsFindTheFilesOwnValues) {
    const auto base = gc_pause({goal_of({mode_knob({"off", "check"}),
                                         {{"set", "defaults.lease"}, {"values", {7, 9}}},
                                         {{"set", "candidates/1/action"}, {"range", {1, 3}}},
                                         {{"set", "order"}, {"values", {"shuffled", "declared"}}}},
                                        {{"fails", "unsafe_write"}})});
    EXPECT_EQ(sim::written_knobs(base, 0), (std::vector<std::int32_t>{1, 0, 2, 1}));
}

// "Show me": the nearest combination that meets the goal.
TEST(ExerciseKnobs, SolveFindsTheNearestCombination) {
    const auto base = gc_pause({goal_of({mode_knob({"off", "check", "validate"})}, {{"fails", "unsafe_write"}}),
                                goal_of({mode_knob({"check", "validate"})}, {{"fails", "unsafe_write"}})});
    EXPECT_EQ(sim::solve_knobs(base, 0), std::optional<std::vector<std::int32_t>>(std::vector<std::int32_t>{0}));
    EXPECT_FALSE(sim::solve_knobs(base, 1));
}

// Ties in total steps go to the first knob's lower value: both (3, 4) and
// (4, 3) are one step from (4, 4); (3, 4) comes first.
TEST(ExerciseKnobs, TiesGoToTheFirstKnobsLowerValue) {
    const json knobs = {{{"set", "defaults.lease"}, {"range", {1, 9}}},
                        {{"set", "candidates/1/start"}, {"range", {0, 8}}}};
    const auto base = handover({goal_of(knobs.get<std::vector<json>>(), {{"fails", "overlap"}})});
    const auto from = sim::written_knobs(base, 0);
    EXPECT_EQ(from, (std::vector<std::int32_t>{4, 4}));
    const auto solved = sim::solve_knobs(base, 0);
    ASSERT_TRUE(solved);
    // Brute force: every combination, nearest first, lexicographic among ties.
    std::optional<std::vector<std::int32_t>> expected;
    std::int64_t best = -1;
    for (std::int32_t a = 0; a < 9; ++a) {
        for (std::int32_t b = 0; b < 9; ++b) {
            const auto t = sim::try_knobs(base, 0, {a, b});
            if (!t.ok() || !t.value().result.met) continue;
            const std::int64_t d = std::abs(a - from[0]) + std::abs(b - from[1]);
            if (best < 0 || d < best) {
                best = d;
                expected = std::vector<std::int32_t>{a, b};
            }
        }
    }
    EXPECT_EQ(solved, expected);
}

// The budget: the kinds and partition modes the exercise names, at up to
// horizon - 1, lengths up to max_ticks.
TEST(ExerciseFaults, TheBudgetFollowsTheExercise) {
    const auto base = handover({find_fault_of("pause,partition:drop_replies", 3, {{"fails", "overlap"}})});
    const auto b = sim::fault_budget(base, 0);
    ASSERT_TRUE(b.ok());
    EXPECT_EQ(b.value().kinds, (std::vector<sim::FaultKind>{sim::FaultKind::pause, sim::FaultKind::partition}));
    EXPECT_EQ(b.value().partition_modes, (std::vector<sim::PartitionMode>{sim::PartitionMode::drop_replies}));
    EXPECT_TRUE(b.value().delay_links.empty());
    EXPECT_TRUE(b.value().failover_losses.empty());
    EXPECT_EQ(b.value().at_max, 39);
    EXPECT_EQ(b.value().ticks_max, 3);
}

// Delays and failovers carry what the exercise allows of them: the links,
// what a failover loses (the GUI's controls build the fault from these).
TEST(ExerciseFaults, TheBudgetNamesDelayLinksAndFailoverLosses) {
    const auto base = handover({find_fault_of("delay:write,failover:all", 3, {{"fails", "overlap"}})});
    const auto b = sim::fault_budget(base, 0);
    ASSERT_TRUE(b.ok()) << b.error().to_string();
    EXPECT_EQ(b.value().kinds, (std::vector<sim::FaultKind>{sim::FaultKind::failover, sim::FaultKind::delay}));
    EXPECT_EQ(b.value().delay_links, (std::vector<sim::Link>{sim::Link::write}));
    EXPECT_EQ(b.value().failover_losses, (std::vector<leasescope::FailoverLoss>{leasescope::FailoverLoss::all}));
}

// A budget the explorer cannot lay out is refused at max_ticks, before any run.
TEST(ExerciseFaults, ABudgetTooLargeForTheExplorerIsAnError) {
    json doc = json::parse(R"({"name": "big", "horizon": 100000,
      "candidates": [{"name": "node-a", "wait": 2, "lease": 5, "action": 3}, {"name": "node-b", "wait": 2, "lease": 5, "action": 3}]})");
    doc["exercises"] = json::array({find_fault_of("pause", 1000, {{"fails", "overlap"}})});
    auto base = sim::exercise_base(doc.dump(), "big.json");
    ASSERT_TRUE(base.ok());
    const auto b = sim::fault_budget(base.value(), 0);
    ASSERT_FALSE(b.ok());
    EXPECT_EQ(b.error().where, "/exercises/0/max_ticks");
    const auto errors = sim::check_exercises(base.value());
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_EQ(errors[0].where, "/exercises/0/max_ticks");
}

// A try outside the budget (too long, too late, another kind) is refused;
// one inside runs with the fault after the file's own.
TEST(ExerciseFaults, ATryIsRefusedOutsideTheBudget) {
    const auto base = handover({find_fault_of("pause", 3, {{"fails", "overlap"}})});
    EXPECT_FALSE(sim::try_fault(base, 0, fault_test::pause(0, 1, 4)).ok());   // longer than max_ticks
    EXPECT_FALSE(sim::try_fault(base, 0, fault_test::pause(0, 40, 1)).ok());  // after horizon - 1
    sim::Fault crash;
    crash.kind = sim::FaultKind::crash;
    crash.node = 0;
    EXPECT_FALSE(sim::try_fault(base, 0, crash).ok());  // not among the kinds
    const auto ok = sim::try_fault(base, 0, fault_test::pause(0, 1, 3));
    ASSERT_TRUE(ok.ok()) << ok.error();
    EXPECT_EQ(ok.value().scenario.faults.size(), 1u);
}

// The smallest fault meets the goal, and no pause with fewer ticks does.
TEST(ExerciseFaults, SmallestFaultIsShortestThenEarliest) {
    const auto base = handover({find_fault_of("pause", 6, {{"fails", "overlap"}})});
    const auto f = sim::smallest_fault(base, 0);
    ASSERT_TRUE(f);
    const auto met = sim::try_fault(base, 0, *f);
    ASSERT_TRUE(met.ok());
    EXPECT_TRUE(met.value().result.met);
    for (leasescope::NodeIndex node = 0; node < 2; ++node) {
        for (leasescope::Tick at = 0; at < 40; ++at) {
            for (leasescope::Tick ticks = 1; ticks <= f->ticks; ++ticks) {
                const auto t = sim::try_fault(base, 0, fault_test::pause(node, at, ticks));
                if (!t.ok()) continue;
                const bool smaller = ticks < f->ticks || (ticks == f->ticks && at < f->at);
                EXPECT_FALSE(smaller && t.value().result.met) << "node " << node << " at " << at << " ticks " << ticks;
            }
        }
    }
}

// check_exercises (§18.6): a goal already met, an unreachable goal or
// fault, a knob path --set cannot apply or the reader does not know, each
// at its JSON path; a sound exercise gives nothing.
TEST(ExerciseChecks, GoalsAlreadyMetUnreachableOrWithABadPathAreErrors) {
    const auto base = gc_pause({goal_of({mode_knob({"off", "check"})}, {{"holds", "unsafe_write"}}),
                                goal_of({mode_knob({"check", "validate"})}, {{"fails", "unsafe_write"}}),
                                goal_of({{{"set", "candidates/5/start"}, {"values", {1, 2}}}}, {{"fails", "liveness"}}),
                                goal_of({{{"set", "defaults.leese"}, {"values", {1, 2}}}}, {{"fails", "liveness"}}),
                                find_fault_of("pause", 2, {{"fails", "fencing_regressed"}}),
                                goal_of({mode_knob({"off", "check"})}, {{"fails", "unsafe_write"}})});
    const auto errors = sim::check_exercises(base);
    std::string all;
    for (const auto& e : errors) all += e.to_string() + "\n";
    ASSERT_EQ(errors.size(), 5u) << all;
    EXPECT_EQ(errors[0].where, "/exercises/0/goal");
    EXPECT_NE(errors[0].message.find("already met"), std::string::npos);
    EXPECT_EQ(errors[1].where, "/exercises/1/goal");
    EXPECT_NE(errors[1].message.find("cannot be reached"), std::string::npos);
    EXPECT_EQ(errors[2].where, "/exercises/2/knobs/0/set");
    EXPECT_EQ(errors[3].where, "/exercises/3/knobs/0/set");
    EXPECT_NE(errors[3].message.find("did you mean \"lease\"?"), std::string::npos) << errors[3].message;
    EXPECT_EQ(errors[4].where, "/exercises/4/goal");
    EXPECT_NE(errors[4].message.find("cannot be reached"), std::string::npos);
}

}  // namespace

namespace {

// The simulation ignores exercises (model.md §18): every preset's trace is
// byte for byte the same with a list of every kind added.
TEST(ExerciseSimulation, ExercisesDoNotChangeAPresetsTrace) {
    namespace fs = std::filesystem;
    std::size_t presets = 0;
    for (const auto& entry : fs::directory_iterator(leasescope::test::source_dir + "/scenarios")) {
        if (entry.path().extension() != ".json") continue;
        const std::string text = leasescope::test::read_all(entry.path().string());
        json doc = json::parse(text, nullptr, true, true);
        const std::string node = doc["candidates"][0]["name"];
        doc["exercises"] = {predict_of(0, "acquirer"), goal_of({mode_knob({"off", "check"})}, {{"acquires", node}}),
                            find_fault_of("pause", 2, {{"never_acquires", node}})};
        auto plain = sim::parse_scenario(text, entry.path().string());
        auto with = sim::parse_scenario(doc.dump(), entry.path().string());
        ASSERT_TRUE(plain.ok());
        ASSERT_TRUE(with.ok()) << with.error().to_string();
        EXPECT_EQ(with.value().exercises.size(), 3u);
        EXPECT_EQ(sim::simulate(with.value()).summary.trace_sha256, sim::simulate(plain.value()).summary.trace_sha256)
            << entry.path();
        ++presets;
    }
    EXPECT_GE(presets, 20u);
}

}  // namespace

namespace {

// Every property of §18.5 on every preset: `fails` is met exactly when the
// summary counts a violation of it, and its evidence is the first event
// that carries the violation's word (the overlap_begin for overlap);
// `holds` is its negation.
TEST(ExerciseConditions, EachPropertyOnEveryPresetFollowsTheSummary) {
    namespace fs = std::filesystem;
    using P = sim::GoalProperty;
    struct Row {
        P property;
        std::int64_t sim::Violations::*count;
        sim::Detail word;
    };
    const Row rows[] = {
        {P::unsafe_write, &sim::Violations::unsafe_write, sim::Detail::unsafe_write},
        {P::fencing_regressed, &sim::Violations::fencing_regressed, sim::Detail::fencing_regressed},
        {P::stale_after_successor, &sim::Violations::stale_after_successor, sim::Detail::stale_after_successor},
        {P::holder_rejected, &sim::Violations::holder_rejected, sim::Detail::holder_rejected},
        {P::fencing_duplicate, &sim::Violations::fencing_duplicate, sim::Detail::fencing_duplicate}};
    std::size_t failing = 0;
    for (const auto& entry : fs::directory_iterator(leasescope::test::source_dir + "/scenarios")) {
        if (entry.path().extension() != ".json") continue;
        auto s = sim::parse_scenario(leasescope::test::read_all(entry.path().string()), entry.path().string());
        ASSERT_TRUE(s.ok());
        const sim::Trace t = sim::simulate(s.value());
        SCOPED_TRACE(entry.path().filename().string());
        for (const Row& r : rows) {
            const auto fails = sim::evaluate(condition(sim::ConditionKind::fails, r.property), s.value(), t);
            const auto holds = sim::evaluate(condition(sim::ConditionKind::holds, r.property), s.value(), t);
            EXPECT_EQ(fails.met, t.summary.violations.*r.count > 0) << sim::to_string(r.property);
            EXPECT_EQ(holds.met, !fails.met);
            if (!fails.met) continue;
            ++failing;
            ASSERT_TRUE(fails.evidence);
            EXPECT_TRUE(t.events[*fails.evidence].details.has(r.word));
            for (std::size_t i = 0; i < *fails.evidence; ++i) EXPECT_FALSE(t.events[i].details.has(r.word));
        }
        const auto overlap = sim::evaluate(condition(sim::ConditionKind::fails, P::overlap), s.value(), t);
        EXPECT_EQ(overlap.met, t.summary.violations.overlap > 0);
        if (overlap.met) {
            EXPECT_EQ(t.events[*overlap.evidence].op, sim::EventOp::overlap_begin);
        }
    }
    EXPECT_GE(failing, 4u);
}

}  // namespace

namespace {

// A failover that loses everything rolls the counter back: the right
// fencing number is h, not h + 1 (model.md §18.2 item 2), and node-a's
// late write is a stale write that lands.
TEST(ExercisePredict, AFailoverMakesTheHighestIssuedTheRightAnswer) {
    json doc = json::parse(
        leasescope::test::read_all(leasescope::test::source_dir + "/scenarios/failover-fencing-regressed.json"),
        nullptr, true, true);
    doc["exercises"] = {predict_of(4, "fencing"), predict_of(8, "write", "node-a")};
    auto base = sim::exercise_base(doc.dump(), "failover.json");
    ASSERT_TRUE(base.ok());
    const auto p = sim::predict(base.value(), 0);
    ASSERT_TRUE(p.ok());
    EXPECT_EQ(p.value().choices, (std::vector<std::string>{"1", "2", "3", "4"}));
    EXPECT_EQ(p.value().right, 0);
    const auto w = sim::predict(base.value(), 1);
    ASSERT_TRUE(w.ok());
    EXPECT_EQ(w.value().choices[static_cast<std::size_t>(w.value().right)], "accepted");
    const auto stale = sim::evaluate(condition(sim::ConditionKind::fails, sim::GoalProperty::stale_write),
                                     base.value().scenario, base.value().trace);
    EXPECT_TRUE(stale.met);
    ASSERT_TRUE(stale.evidence);
    EXPECT_EQ(base.value().trace.events[*stale.evidence].tick, 8);
}

// A fault with no length (a crash) is the smallest of all: it comes before
// any pause, and the earliest crash that meets the goal is the one shown.
TEST(ExerciseFaults, AFaultWithoutLengthComesFirst) {
    const auto base = handover({find_fault_of("pause,crash", 3, {{"never_acquires", "node-a"}})});
    const auto f = sim::smallest_fault(base, 0);
    ASSERT_TRUE(f);
    EXPECT_EQ(f->kind, sim::FaultKind::crash);
    EXPECT_EQ(f->node, 0);
    EXPECT_EQ(f->at, 0);
}

}  // namespace

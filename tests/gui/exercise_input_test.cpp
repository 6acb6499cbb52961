// What a student enters in the Exercise panel becomes what sim/exercise.hpp
// takes (core/exercise_input.hpp): the panel's buttons and --exercise-answer
// share these, so a wrong mapping here is a wrong answer on screen.
#include <gtest/gtest.h>

#include "core/exercise_input.hpp"
#include "support/preset_loader.hpp"

using namespace leasescope;
using namespace leasescope::gui;

namespace {

sim::Scenario three_nodes() {
    sim::Scenario s;
    s.tick_ms = 50;
    for (const char* name : {"node-a", "node-b", "node-c"}) {
        sim::Candidate c;
        c.name = name;
        s.candidates.push_back(c);
    }
    return s;
}

}  // namespace

TEST(ExerciseInput, AChoiceIsFoundByItsValueThenByItsNumber) {
    const std::vector<std::string> choices{"node-a", "node-b", "nobody"};
    EXPECT_EQ(choice_index(choices, "node-b"), 1);
    EXPECT_EQ(choice_index(choices, "nobody"), 2);
    EXPECT_EQ(choice_index(choices, "2"), 1);  // its number from 1, as the CLI reads it
    EXPECT_FALSE(choice_index(choices, "4"));
    EXPECT_FALSE(choice_index(choices, "0"));
    EXPECT_FALSE(choice_index(choices, "node-z"));
    const std::vector<std::string> fencing{"1", "2", "3", "4"};
    EXPECT_EQ(choice_index(fencing, "3"), 2);  // a fencing number is a value before it is a position
}

TEST(ExerciseInput, AFaultObjectIsReadAsTheFilesOwnFaultsAre) {
    // tests/gui/exercise-sample.json's settings, comments and all: the file is read as written.
    const std::string file = R"(// a comment, as scenario files may have
        {"name": "t", "horizon": 20, "seed": 1, "candidates": [{"name": "node-a", "start": 0}],
         "defaults": {"wait": 2, "lease": 6, "min_lease": 1, "auto_extend": false, "action": 12}})";
    std::string error;
    const auto f = fault_from_json(file, "t.json", R"({"kind":"pause","node":"node-a","at":3,"ticks":8})", error);
    ASSERT_TRUE(f) << error;
    EXPECT_EQ(f->kind, sim::FaultKind::pause);
    EXPECT_EQ(f->node, 0);
    EXPECT_EQ(f->ticks, 8);
    EXPECT_FALSE(fault_from_json(file, "t.json", R"({"kind":"pause","node":"node-z","at":3,"ticks":8})", error));
    EXPECT_NE(error.find("node-z"), std::string::npos) << error;
    EXPECT_FALSE(fault_from_json(file, "t.json", "pause", error));
}

TEST(ExerciseInput, KnobValuesAreMatchedInKnobOrderWithOrWithoutQuotes) {
    sim::Knob lease;
    lease.set = "defaults.lease";
    lease.values = {"4", "6", "8"};
    sim::Knob mode;
    mode.set = "resource.mode";
    mode.values = {"\"off\"", "\"check\""};
    const std::vector<sim::Knob> knobs{lease, mode};
    EXPECT_EQ(knob_indices(knobs, "8,check"), (std::vector<std::int32_t>{2, 1}));
    EXPECT_EQ(knob_indices(knobs, "4,\"off\""), (std::vector<std::int32_t>{0, 0}));
    EXPECT_FALSE(knob_indices(knobs, "8"));        // one value short
    EXPECT_FALSE(knob_indices(knobs, "5,check"));  // not among the values
    EXPECT_FALSE(knob_indices(knobs, "check,8"));  // in the wrong order
    EXPECT_EQ(knob_value_label("\"check\""), "check");
    EXPECT_EQ(knob_value_label("12"), "12");
}

TEST(ExerciseInput, ControlsBuildTheFaultTheirKindMeans) {
    FaultControls c{sim::FaultKind::pause, 1, 3, 8, sim::PartitionMode::drop_requests};
    sim::Fault f = fault_of(c, 50);
    EXPECT_EQ(f.kind, sim::FaultKind::pause);
    EXPECT_EQ(f.node, 1);
    EXPECT_EQ(f.at, 3);
    EXPECT_EQ(f.ticks, 8);
    EXPECT_EQ(f.end(), 11);
    c.kind = sim::FaultKind::clock_jump;
    f = fault_of(c, 50);
    EXPECT_EQ(f.ms, 400);   // the length in ticks, at the scenario's tick_ms, forward
    EXPECT_EQ(f.node, -1);  // the store's clock: the only jump an exercise adds (model.md §18.4)
    EXPECT_EQ(f.ticks, 0);
    c.kind = sim::FaultKind::delay;
    c.link = sim::Link::write;
    f = fault_of(c, 50);
    EXPECT_EQ(f.extra, 8);
    EXPECT_EQ(f.ticks, 1);  // the messages of one tick, as the explorer's delays
    EXPECT_EQ(f.link, sim::Link::write);
    c.kind = sim::FaultKind::partition;
    c.mode = sim::PartitionMode::drop_replies;
    f = fault_of(c, 50);
    EXPECT_EQ(f.mode, sim::PartitionMode::drop_replies);
    EXPECT_EQ(f.ticks, 8);
    c.kind = sim::FaultKind::failover;
    c.lose = leasescope::FailoverLoss::all;
    f = fault_of(c, 50);
    EXPECT_EQ(f.node, -1);  // a failover is the store's, no node's
    EXPECT_EQ(f.lose, leasescope::FailoverLoss::all);
    EXPECT_FALSE(f.promotes());
    sim::FaultBudget budget;
    EXPECT_FALSE(fault_kind_has_controls(sim::FaultKind::failover, budget));  // a promotion only: Show me
    budget.failover_losses = {leasescope::FailoverLoss::all};
    EXPECT_TRUE(fault_kind_has_controls(sim::FaultKind::failover, budget));
    EXPECT_FALSE(fault_kind_has_controls(sim::FaultKind::replica_link, budget));
    budget.delay_links = {sim::Link::write};
    EXPECT_EQ(with_budget_choice(FaultControls{sim::FaultKind::delay}, budget).link, sim::Link::write);
    EXPECT_EQ(with_budget_choice(FaultControls{sim::FaultKind::failover}, budget).lose, leasescope::FailoverLoss::all);
}

TEST(ExerciseInput, AFaultAnswerParsesKindNodeAtAndLength) {
    const sim::Scenario s = three_nodes();
    const auto c = parse_fault_controls("pause:node-c:10:5", s);
    ASSERT_TRUE(c);
    EXPECT_EQ(c->kind, sim::FaultKind::pause);
    EXPECT_EQ(c->node, 2);
    EXPECT_EQ(c->at, 10);
    EXPECT_EQ(c->length, 5);
    const auto p = parse_fault_controls("partition:drop_replies:node-a:2:3", s);
    ASSERT_TRUE(p);
    EXPECT_EQ(p->mode, sim::PartitionMode::drop_replies);
    EXPECT_FALSE(parse_fault_controls("pause:node-z:10:5", s));              // no such node
    EXPECT_FALSE(parse_fault_controls("pause:node-a:ten:5", s));             // not a number
    EXPECT_FALSE(parse_fault_controls("pause:node-a:10", s));                // no length
    EXPECT_FALSE(parse_fault_controls("pause:drop_replies:node-a:1:2", s));  // a mode only for a partition
    EXPECT_FALSE(parse_fault_controls("failover:node-a:1:2", s));            // no controls for it
}

TEST(ExerciseInput, AFaultShowsOnTheControlsThatWouldBuildIt) {
    // A try's or Show me's fault is put back on the controls: fault_of of
    // controls_of gives the same fault for every kind with controls.
    for (sim::FaultKind kind : {sim::FaultKind::pause, sim::FaultKind::partition, sim::FaultKind::clock_jump,
                                sim::FaultKind::delay, sim::FaultKind::crash}) {
        const FaultControls c{kind, 2, 7, 4, sim::PartitionMode::drop_replies, sim::Link::reply};
        const sim::Fault f = fault_of(c, 50);
        const FaultControls back = controls_of(f, 50);
        EXPECT_EQ(back.kind, kind);
        EXPECT_EQ(back.node, fault_kind_has_node(kind) ? 2 : -1);
        EXPECT_EQ(back.at, 7);
        if (kind != sim::FaultKind::crash) {
            EXPECT_EQ(back.length, 4) << sim::to_string(kind);
        }
        const sim::Fault again = fault_of(back, 50);
        EXPECT_EQ(again.ticks, f.ticks);
        EXPECT_EQ(again.ms, f.ms);
        EXPECT_EQ(again.extra, f.extra);
        EXPECT_EQ(again.mode, f.mode);
        EXPECT_EQ(again.link, f.link);
    }
}

// Every find_fault of every preset can be solved with the panel's controls:
// the smallest fault, put on the controls (as Show me does) and built back
// by them (as Try does), is accepted and meets the goal. Kinds without
// controls (a promotion, a link cut) are left to Show me.
TEST(ExerciseInput, TheControlsCanBuildTheSmallestFaultOfEveryPreset) {
    std::size_t built = 0;
    for (const std::string& name : test::app_preset_names()) {
        auto base = sim::exercise_base(test::read_preset(name), test::preset_path(name));
        ASSERT_TRUE(base.ok()) << name;
        const auto& exercises = base.value().scenario.exercises;
        for (std::size_t k = 0; k < exercises.size(); ++k) {
            if (exercises[k].kind != sim::ExerciseKind::find_fault) continue;
            SCOPED_TRACE(name + " #" + std::to_string(k + 1));
            const auto budget = sim::fault_budget(base.value(), k);
            ASSERT_TRUE(budget.ok());
            const auto smallest = sim::smallest_fault(base.value(), k);
            ASSERT_TRUE(smallest);
            if (!fault_kind_has_controls(smallest->kind, budget.value())) continue;
            const std::int64_t tick_ms = base.value().scenario.tick_ms;
            const sim::Fault again = fault_of(controls_of(*smallest, tick_ms), tick_ms);
            const auto tried = sim::try_fault(base.value(), k, again);
            ASSERT_TRUE(tried.ok()) << tried.error();
            EXPECT_TRUE(tried.value().result.met);
            ++built;
        }
    }
    EXPECT_GE(built, 7u);  // the presets' find_fault exercises
}

// The lanes built from a simulated timeline: each candidate's spans follow its
// status tick by tick, slot lanes show the records, markers point at events.
#include "support/preset_loader.hpp"
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "core/lanes.hpp"
#include "leasescope/sim/scenario.hpp"

using namespace leasescope;
using namespace leasescope::gui;

namespace {

sim::Scenario load(const std::string& name) { return test::load_preset(name); }

const Span* span_covering(const Lane& lane, Tick t) {
    for (const Span& s : lane.spans)
        if (s.begin <= t && t < s.end) return &s;
    return nullptr;
}

}  // namespace

// The default preset's story: node-a runs with a valid lease until its record
// expires at 6, then keeps working stale; node-b takes over with fencing 2.
TEST(Lanes, ExpiryTakeoverShowsStaleAfterExpiry) {
    const ShownRun run = run_scenario(load("expiry-takeover"));
    const LaneModel& model = run.lanes;
    ASSERT_EQ(model.candidate_lanes, 3);
    const Lane& a = model.lanes[0];
    EXPECT_EQ(a.label, "node-a");
    const Span* early = span_covering(a, 3);
    ASSERT_NE(early, nullptr);
    EXPECT_EQ(early->kind, SpanKind::running);
    EXPECT_EQ(early->fencing, 1);
    const Span* late = span_covering(a, 8);
    ASSERT_NE(late, nullptr);
    EXPECT_EQ(late->kind, SpanKind::stale);
    EXPECT_EQ(late->begin, 6);

    const Span* b = span_covering(model.lanes[1], 7);
    ASSERT_NE(b, nullptr);
    EXPECT_EQ(b->kind, SpanKind::running);
    EXPECT_EQ(b->fencing, 2);

    const std::int32_t slot = slot_lane(model, 0);
    ASSERT_GE(slot, 0);
    const Span* rec = span_covering(model.lanes[static_cast<std::size_t>(slot)], 2);
    ASSERT_NE(rec, nullptr);
    EXPECT_EQ(rec->kind, SpanKind::record);
    EXPECT_EQ(rec->fencing, 1);
    EXPECT_EQ(rec->begin, 0);
    EXPECT_EQ(rec->end, 6);
}

// node-a's release at the end of its work is drawn as a rejected release.
TEST(Lanes, RejectedReleaseIsAMarker) {
    const ShownRun run = run_scenario(load("expiry-takeover"));
    const LaneModel& model = run.lanes;
    bool found = false;
    for (const Marker& m : model.lanes[0].markers)
        if (m.kind == MarkerKind::release_rejected) found = true;
    EXPECT_TRUE(found);
}

// Spans are sorted and disjoint in every lane, and markers sorted: culling relies on it.
TEST(Lanes, SpansSortedAndDisjointInEveryPreset) {
    for (const char* name : {"expiry-takeover", "contention", "gc-pause-fencing", "group-saturation",
                             "partition-extend", "failover-lost-lock", "hold-off-handover"}) {
        const ShownRun run = run_scenario(load(name));
        const LaneModel& model = run.lanes;
        for (const Lane& lane : model.lanes) {
            for (std::size_t i = 0; i < lane.spans.size(); ++i) {
                EXPECT_LT(lane.spans[i].begin, lane.spans[i].end) << name << " " << lane.label;
                if (i > 0) {
                    EXPECT_LE(lane.spans[i - 1].end, lane.spans[i].begin) << name << " " << lane.label;
                }
            }
            for (std::size_t i = 1; i < lane.markers.size(); ++i)
                EXPECT_LE(lane.markers[i - 1].tick, lane.markers[i].tick) << name << " " << lane.label;
        }
    }
}

// A skipped run's last busy attempt is drawn as a skip.
TEST(Lanes, SkippedRunEndsWithSkipMarker) {
    const ShownRun run = run_scenario(load("contention"));
    const LaneModel& model = run.lanes;
    int skips = 0;
    for (const Marker& m : model.lanes[1].markers)
        if (m.kind == MarkerKind::skip) ++skips;
    EXPECT_EQ(skips, 1);
}

// A pause becomes an overlay over the paused tick range.
TEST(Lanes, PauseIsAnOverlay) {
    const ShownRun run = run_scenario(load("gc-pause-fencing"));
    const LaneModel& model = run.lanes;
    bool paused = false;
    for (const Span& s : model.lanes[0].overlays)
        if (s.kind == SpanKind::paused && s.begin == 2 && s.end == 12) paused = true;
    EXPECT_TRUE(paused);
}

// The ops lane is named by the actors the trace names: lost-reply-orphan's
// lane said "auditor" for the node its trace calls "operator". For every
// preset with scripted ops, each actor of the trace's non-candidate events
// (the overlap's "-" aside) is in the lane's name, and nothing else is.
TEST(Lanes, TheOpsLaneIsNamedByItsActors) {
    std::size_t checked = 0;
    for (const std::string& name : test::app_preset_names()) {
        const ShownRun run = run_scenario(load(name));
        const sim::Timeline& timeline = *run.timeline;
        if (timeline.scenario().ops.empty()) continue;
        const LaneModel& model = run.lanes;
        const auto ops =
            std::find_if(model.lanes.begin(), model.lanes.end(), [](const Lane& l) { return l.kind == LaneKind::ops; });
        ASSERT_NE(ops, model.lanes.end()) << name;
        std::string actors;
        const auto& cands = timeline.trace().header.candidates;
        for (const sim::Event& e : timeline.trace().events) {
            if (e.node.empty() || e.node == "-" || std::find(cands.begin(), cands.end(), e.node) != cands.end())
                continue;
            if (actors.find(e.node) == std::string::npos) actors += (actors.empty() ? "" : ", ") + e.node;
        }
        EXPECT_EQ(ops->label, actors) << name;
        ++checked;
    }
    EXPECT_GE(checked, 2u);  // expiry-takeover (auditor), lost-reply-orphan (operator), …
    const ShownRun orphan = run_scenario(load("lost-reply-orphan"));
    const LaneModel& model = orphan.lanes;
    EXPECT_EQ(model.lanes.back().kind, LaneKind::ops);
    EXPECT_EQ(model.lanes.back().label, "operator");
}

// One run: the lanes are read from the Timeline's own simulation (which
// passes quiet ticks at once), and they are exactly what a second
// simulation stepped through every tick would give, on every preset and
// with checkpoints at every spacing.
TEST(Lanes, OneRunGivesTheLanesOfASecondSimulation) {
    for (const std::string& name : test::app_preset_names()) {
        const sim::Scenario scenario = load(name);
        // A Redlock or Redisson run's lanes are read from its trace, not recorded tick by tick
        // (redlock_lanes_test.cpp and redisson_lanes_test.cpp check them, and that a replay gives the same).
        if (scenario.is_redlock() || scenario.is_redisson()) continue;
        const ShownRun run = run_scenario(scenario);
        LaneRecorder again(scenario);
        sim::Simulation simulation(scenario);
        ModelStore store(scenario.lock);
        sim::NullSink sink;
        while (!simulation.finished()) {
            const Tick t = simulation.next_tick();
            (void)simulation.step(store, sink);
            again.on_ticks(simulation, store, t, t);
        }
        EXPECT_TRUE(run.lanes == again.finish(*run.timeline)) << name;
        // Watching changes nothing: the trace is the one an unobserved Timeline makes.
        const sim::Timeline unobserved(scenario);
        EXPECT_EQ(run.timeline->trace().summary.trace_sha256, unobserved.trace().summary.trace_sha256) << name;
        EXPECT_EQ(run.timeline->trace().events.size(), unobserved.trace().events.size()) << name;
        for (const Tick every : {Tick{1}, Tick{5}}) {
            LaneRecorder spaced(scenario);
            const sim::Timeline timeline(scenario, every, sim::Timeline::default_checkpoint_bytes_max, &spaced);
            EXPECT_TRUE(run.lanes == spaced.finish(timeline)) << name << " every " << every;
            EXPECT_EQ(timeline.trace().summary.trace_sha256, run.timeline->trace().summary.trace_sha256) << name;
        }
    }
}

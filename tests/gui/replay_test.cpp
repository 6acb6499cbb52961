// A recorded history replayed without simulating (model.md §19.9): the state
// folded from a trace's events (sim::ReplayFold, the replayed sim::Timeline),
// the lanes the app draws from it, and the wall clock of a /4 trace on the
// ruler. The history is tests/data/import/incident.trace.jsonl: node-a (fencing
// 7) is paused from tick 12 to 52, its record expires at 40, node-b takes the
// lock at 41 (fencing 8), node-a's late write at 53 is rejected and it learns
// at 54 that it lost; an unknown script at 20 and a capture gap at 60.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "core/lanes.hpp"
#include "core/timeline_frame.hpp"
#include "core/tick_clock.hpp"
#include "leasescope/sim/durations.hpp"
#include "leasescope/sim/scenario.hpp"
#include "leasescope/sim/trace.hpp"
#include "support/string_tables.hpp"

using namespace leasescope;
using namespace leasescope::gui;

namespace {

std::string read_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

sim::Trace incident() {
    const std::string path = std::string(LEASESCOPE_SOURCE_DIR) + "/tests/data/import/incident.trace.jsonl";
    auto parsed = sim::parse_trace(read_text(path), path);
    EXPECT_TRUE(parsed.ok()) << (parsed.ok() ? "" : parsed.error().to_string());
    return parsed.ok() ? std::move(parsed).value() : sim::Trace{};
}

sim::Scenario preset(const std::string& name) {
    const std::string path = std::string(LEASESCOPE_SOURCE_DIR) + "/scenarios/" + name + ".json";
    auto parsed = sim::parse_scenario(read_text(path), path);
    EXPECT_TRUE(parsed.ok());
    return std::move(parsed).value();
}

const sim::NodeSnapshot& node(const sim::Snapshot& s, std::size_t i) { return s.nodes.at(i); }

const Lane& lane_named(const LaneModel& m, const std::string& label) {
    for (const Lane& l : m.lanes)
        if (l.label == label) return l;
    ADD_FAILURE() << "no lane " << label;
    return m.lanes.front();
}

bool has_mark(const Lane& lane, Tick t, MarkerKind kind) {
    for (const Marker& m : lane.markers)
        if (m.tick == t && m.kind == kind) return true;
    return false;
}

}  // namespace

TEST(Replay, TheScenarioOfAReplayNamesTheHeadersCandidatesAndLock) {
    const sim::Timeline tl(incident());
    EXPECT_TRUE(tl.replayed());
    EXPECT_EQ(tl.end_tick(), 72);
    EXPECT_EQ(tl.scenario().tick_ms, 100);
    EXPECT_EQ(tl.scenario().lock.name, "orders:lock");
    ASSERT_EQ(tl.scenario().candidates.size(), 2u);
    EXPECT_EQ(tl.scenario().candidates[1].name, "node-b");
    EXPECT_FALSE(sim::Timeline(preset("expiry-takeover")).replayed());
}

TEST(Replay, TheRecordAndBeliefsAtThePlayheadAreFoldedFromTheEvents) {
    const sim::Timeline tl(incident());
    const sim::Snapshot at5 = tl.snapshot_at(5);
    EXPECT_EQ(node(at5, 0).status, sim::NodeStatus::running);
    EXPECT_TRUE(node(at5, 0).believes_leader);
    EXPECT_EQ(node(at5, 0).fencing, 7);
    ASSERT_TRUE(at5.slots[0].valid_at(5));
    EXPECT_EQ(at5.slots[0].owner, "node-a");
    EXPECT_EQ(at5.slots[0].expires_at, 30);
    EXPECT_EQ(at5.resource.accepted, 1);
    EXPECT_EQ(at5.resource.highest_accepted, 7);
    EXPECT_EQ(tl.snapshot_at(10).slots[0].expires_at, 40);  // renewed at 10 for 30 ticks
    EXPECT_TRUE(node(tl.snapshot_at(12), 0).paused);
    EXPECT_EQ(node(tl.snapshot_at(13), 1).status, sim::NodeStatus::waiting);
    // The record expired at 40 while node-a, paused, still believes it leads: stale.
    const sim::Snapshot at40 = tl.snapshot_at(40);
    EXPECT_FALSE(at40.slots[0].occupied);
    EXPECT_EQ(node(at40, 0).status, sim::NodeStatus::stale);
    EXPECT_TRUE(node(at40, 0).believes_leader);
    const sim::Snapshot at41 = tl.snapshot_at(41);
    EXPECT_EQ(node(at41, 1).status, sim::NodeStatus::running);
    EXPECT_EQ(at41.slots[0].fencing, 8);
    EXPECT_TRUE(at41.in_overlap);
    EXPECT_EQ(at41.violations.overlap, 1);
    EXPECT_EQ(tl.snapshot_at(53).resource.rejected, 1);
    const sim::Snapshot at54 = tl.snapshot_at(54);
    EXPECT_EQ(node(at54, 0).status, sim::NodeStatus::idle);
    EXPECT_FALSE(at54.in_overlap);
    const sim::Snapshot at70 = tl.snapshot_at(70);
    EXPECT_FALSE(at70.slots[0].occupied);
    EXPECT_FALSE(node(at70, 1).believes_leader);
}

TEST(Replay, ASeekFromAnyCheckpointGivesTheStateOfFoldingFromTheStart) {
    const sim::Trace trace = incident();
    const sim::Timeline sparse(trace, 8);
    sim::ReplayFold fold(trace.header);
    std::size_t k = 0;
    for (Tick t = 0; t <= sparse.end_tick(); ++t) {
        for (; k < trace.events.size() && trace.events[k].tick <= t; ++k) fold.apply(trace.events[k]);
        const sim::Snapshot want = fold.at(t), got = sparse.snapshot_at(t);
        EXPECT_EQ(got.slots.size(), want.slots.size());
        EXPECT_EQ(got.slots[0].token, want.slots[0].token) << "tick " << t;
        EXPECT_EQ(got.nodes[0].status, want.nodes[0].status) << "tick " << t;
        EXPECT_EQ(got.resource.rejected, want.resource.rejected) << "tick " << t;
    }
}

// A simulated run's trace, replayed, shows the run's own record and resource
// at every tick: the fold reads the events as the simulator meant them.
TEST(Replay, ASimulatedTraceReplayedHasTheRunsRecordAndResourceAtEveryTick) {
    for (const char* name : {"expiry-takeover", "gc-pause-fencing", "auto-extension", "contention"}) {
        const sim::Timeline simulated(preset(name));
        const sim::Timeline replayed(simulated.trace());
        ASSERT_TRUE(replayed.replayed());
        for (Tick t = 0; t <= simulated.end_tick(); ++t) {
            const sim::Snapshot a = simulated.snapshot_at(t), b = replayed.snapshot_at(t);
            ASSERT_EQ(a.slots.size(), b.slots.size());
            for (std::size_t s = 0; s < a.slots.size(); ++s) {
                EXPECT_EQ(a.slots[s].valid_at(t), b.slots[s].valid_at(t)) << name << " tick " << t << " slot " << s;
                if (a.slots[s].valid_at(t) && b.slots[s].valid_at(t)) {
                    EXPECT_EQ(a.slots[s].token, b.slots[s].token) << name << " tick " << t;
                    EXPECT_EQ(a.slots[s].fencing, b.slots[s].fencing) << name << " tick " << t;
                }
            }
            EXPECT_EQ(a.resource.accepted, b.resource.accepted) << name << " tick " << t;
            EXPECT_EQ(a.resource.rejected, b.resource.rejected) << name << " tick " << t;
            EXPECT_EQ(a.resource.highest_accepted, b.resource.highest_accepted) << name << " tick " << t;
            EXPECT_EQ(a.in_overlap, b.in_overlap) << name << " tick " << t;
        }
    }
}

TEST(Replay, TheLanesShowBeliefsAsSpansAndUndecidedEventsWithTheirOwnMark) {
    const ShownRun run = replay_trace(incident());
    const LaneModel& m = run.lanes;
    EXPECT_EQ(m.end_tick, 72);
    const Lane& a = lane_named(m, "node-a");
    ASSERT_GE(a.spans.size(), 2u);
    EXPECT_EQ(a.spans[0].kind, SpanKind::running);
    EXPECT_EQ(a.spans[0].begin, 0);
    EXPECT_EQ(a.spans[0].end, 40);
    EXPECT_EQ(a.spans[1].kind, SpanKind::stale);
    EXPECT_EQ(a.spans[1].end, 54);
    ASSERT_EQ(a.overlays.size(), 1u);
    EXPECT_EQ(a.overlays[0].kind, SpanKind::paused);
    EXPECT_EQ(a.overlays[0].begin, 12);
    EXPECT_EQ(a.overlays[0].end, 52);
    EXPECT_TRUE(has_mark(a, 0, MarkerKind::believe_leader));
    EXPECT_TRUE(has_mark(a, 54, MarkerKind::believe_follower));
    // The trace says only that the resource rejected it: no fencing check of ours (§19.9).
    EXPECT_TRUE(has_mark(a, 53, MarkerKind::write_rejected_recorded));
    EXPECT_FALSE(has_mark(a, 53, MarkerKind::write_rejected_fence));
    // The unknown script on node-b's lane; the capture gap (no node) on the record's.
    EXPECT_TRUE(has_mark(lane_named(m, "node-b"), 20, MarkerKind::undecided));
    EXPECT_TRUE(has_mark(lane_named(m, "slot 0"), 60, MarkerKind::undecided));
    ASSERT_EQ(m.overlap.size(), 1u);
    EXPECT_EQ(m.overlap[0].begin, 41);
    EXPECT_EQ(m.overlap[0].end, 54);
    ASSERT_TRUE(m.clock.wall.has_value());
    EXPECT_EQ(m.clock.wall->tick_ms, 100);
    EXPECT_EQ(m.clock.tick_ms, 100);
}

TEST(WallClock, TimesAreWrittenInUtcToTheMillisecond) {
    const std::int64_t origin = 1796376600000000;  // 2026-12-04 09:30:00 UTC
    EXPECT_EQ(sim::wall_time_text(origin), "09:30:00.000");
    EXPECT_EQ(sim::wall_time_text(origin + 4'012'410), "09:30:04.012");
    EXPECT_EQ(sim::wall_time_text(origin + 14LL * 3600 * 1000000 + 59'999'999), "23:30:59.999");
    EXPECT_EQ((WallClock{origin, 100}.us_of(41)), origin + 4'100'000);
}

// The ruler of a /4 trace says each tick's wall clock time beside it; a
// simulated run's, the time since tick 0 (tick_time_test.cpp has more).
TEST(WallClock, TheRulerOfARecordedHistoryShowsTheWallClockBesideTicks) {
    const ShownRun replay = replay_trace(incident());
    TimelineViewport v;
    v.width = 1400;
    v.px_per_tick = 1200.0 / 72;
    v.playhead = 41;
    const Strings strings = test::string_tables(Lang::en);
    const TimelineFrame f = build_timeline_frame(replay.lanes, v, strings, estimated_metrics(13, 11));
    ASSERT_FALSE(f.ruler.labels.empty());
    for (const RulerLabel& l : f.ruler.labels)
        EXPECT_NE(l.text.find(std::to_string(l.tick) + " \u00b7 09:30:"), std::string::npos) << l.text;
    EXPECT_EQ(f.ruler.badge_text, "41 \u00b7 09:30:04.100");
    const ShownRun simulated = run_scenario(preset("expiry-takeover"));
    const TimelineFrame g = build_timeline_frame(simulated.lanes, v, strings, estimated_metrics(13, 11));
    ASSERT_FALSE(g.ruler.labels.empty());
    for (const RulerLabel& l : g.ruler.labels)
        EXPECT_EQ(l.text,
                  std::to_string(l.tick) + " \u00b7 " + sim::elapsed_text(l.tick, simulated.lanes.clock.tick_ms));
}

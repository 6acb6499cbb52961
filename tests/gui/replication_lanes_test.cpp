// The store's part of the timeline with replicas (model.md §17): one lane
// per server in place of the slot lanes, titled by its role at the playhead,
// each server's copy of the record as spans, a cut link as an overlay, the
// promotion as a mark on the promoted lane with the counter that went back,
// all through the frame builder (so the SVG export has it too).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "core/lane_layout.hpp"
#include "core/lanes.hpp"
#include "core/palette.hpp"
#include "core/strings.hpp"
#include "core/svg.hpp"
#include "core/timeline_frame.hpp"
#include "leasescope/sim/scenario.hpp"
#include "support/string_tables.hpp"
#include "support/trace_test_helpers.hpp"

using namespace leasescope;
using namespace leasescope::gui;

namespace {

// node-a acquires at 0 for 4 ticks and works on; node-b acquires at 4 when
// a's record expires; node-c starts at 5. One replica, promoted at 5 with
// lag 1: its link was cut at 4, so it missed node-b's acquisition (#2) and
// the counter goes back from 2 to 1.
sim::Scenario replica_promoted_with_lag() {
    sim::Scenario s = trace_test::parse(R"({"name": "replication", "horizon": 30, "resource": {"mode": "check"},
      "candidates": [
        {"name": "node-a", "wait": 0, "lease": 4, "action": 12, "writes": [2, 10]},
        {"name": "node-b", "start": 4, "wait": 0, "lease": 3, "action": 1},
        {"name": "node-c", "start": 5, "wait": 6, "lease": 4, "action": 2}]})");
    s.lock.replication.replicas = 1;
    sim::Fault f;
    f.kind = sim::FaultKind::failover;
    f.at = 5;
    f.server = 1;
    f.lag = 1;
    s.faults.push_back(f);
    return s;
}

TimelineViewport server_view(const LaneModel& model, Tick playhead, float width = 1400) {
    TimelineViewport v;
    v.width = width;
    v.height = 600;
    v.label_w = 170;
    const TimeAxis axis = fit_axis(0, model.end_tick + 1, v.x + v.label_w, v.width - v.label_w);
    v.first_tick = axis.first_tick;
    v.px_per_tick = axis.px_per_tick;
    v.playhead = playhead;
    return v;
}

std::vector<std::int32_t> server_lane_indexes(const LaneModel& model) {
    std::vector<std::int32_t> out;
    for (std::size_t i = 0; i < model.lanes.size(); ++i)
        if (model.lanes[i].kind == LaneKind::server) out.push_back(static_cast<std::int32_t>(i));
    return out;
}

bool has_words(const TimelineFrame& f, const std::string& text) {
    return std::any_of(f.layout.labels.begin(), f.layout.labels.end(),
                       [&](const PlacedLabel& l) { return l.text == text; });
}

}  // namespace

// One lane per server, no slot lane; titles follow the roles at the playhead.
TEST(ReplicationLanes, OneLanePerServerTitledByItsRoleAtThePlayhead) {
    const LaneModel model = run_scenario(replica_promoted_with_lag()).lanes;
    const auto servers = server_lane_indexes(model);
    ASSERT_EQ(servers.size(), 2u);
    EXPECT_TRUE(
        std::none_of(model.lanes.begin(), model.lanes.end(), [](const Lane& l) { return l.kind == LaneKind::slot; }));
    const TextMetrics metrics = estimated_metrics(17, 13);
    const auto titles = [&](Lang lang, Tick at) {
        const TimelineFrame f = build_timeline_frame(model, server_view(model, at), test::string_tables(lang), metrics);
        std::vector<std::string> out;
        for (const std::int32_t li : servers) out.push_back(f.lanes[static_cast<std::size_t>(li)].title);
        return out;
    };
    EXPECT_EQ(titles(Lang::en, 2), (std::vector<std::string>{"primary 0", "replica 1"}));
    EXPECT_EQ(titles(Lang::en, 6), (std::vector<std::string>{"replica 0", "primary 1"}));
    EXPECT_EQ(titles(Lang::ko, 6), (std::vector<std::string>{"복제본 0", "프라이머리 1"}));
    const TimelineFrame f = build_timeline_frame(model, server_view(model, 2), test::string_tables(Lang::en), metrics);
    EXPECT_TRUE(f.lanes[static_cast<std::size_t>(servers[0])].store_part);
    EXPECT_TRUE(f.lanes[static_cast<std::size_t>(servers[0])].first_of_store);
}

// Each server's own copy: the old primary had node-b's #2, the promoted
// replica never did; the replica's cut shows over tick 4 (until it is
// promoted at 5); the promotion is a mark on the promoted lane at 5 with
// the counter before (2) and after (1), told as "counter 2 → 1".
TEST(ReplicationLanes, CopiesCutAndPromotionWithTheCounterThatWentBack) {
    const LaneModel model = run_scenario(replica_promoted_with_lag()).lanes;
    const auto servers = server_lane_indexes(model);
    ASSERT_EQ(servers.size(), 2u);
    const Lane& old_primary = model.lanes[static_cast<std::size_t>(servers[0])];
    const Lane& promoted = model.lanes[static_cast<std::size_t>(servers[1])];
    const auto holds = [](const Lane& lane, Fencing n) {
        return std::any_of(lane.spans.begin(), lane.spans.end(),
                           [&](const Span& s) { return s.kind == SpanKind::record && s.fencing == n && s.begin == 4; });
    };
    EXPECT_TRUE(holds(old_primary, 2));
    EXPECT_FALSE(holds(promoted, 2));
    ASSERT_EQ(promoted.overlays.size(), 1u);
    EXPECT_EQ(promoted.overlays[0].kind, SpanKind::cut);
    EXPECT_EQ(promoted.overlays[0].begin, 4);
    EXPECT_EQ(promoted.overlays[0].end, 5);
    EXPECT_TRUE(old_primary.overlays.empty());
    const auto promote = std::find_if(promoted.markers.begin(), promoted.markers.end(),
                                      [](const Marker& m) { return m.kind == MarkerKind::promote; });
    ASSERT_NE(promote, promoted.markers.end());
    EXPECT_EQ(promote->tick, 5);
    EXPECT_EQ(promote->counter_before, 2);
    EXPECT_EQ(promote->fencing, 1);
    EXPECT_TRUE(std::any_of(promoted.markers.begin(), promoted.markers.end(),
                            [](const Marker& m) { return m.kind == MarkerKind::link_cut && m.tick == 4; }));
    EXPECT_TRUE(std::none_of(old_primary.markers.begin(), old_primary.markers.end(),
                             [](const Marker& m) { return m.kind == MarkerKind::promote; }));
    const TextMetrics metrics = estimated_metrics(17, 13);
    const TimelineFrame en = build_timeline_frame(model, server_view(model, 6), test::string_tables(Lang::en), metrics);
    EXPECT_TRUE(has_words(en, "counter 2 → 1: 1 acquisition lost"));
    EXPECT_TRUE(std::any_of(en.spans.begin(), en.spans.end(), [&](const FrameSpan& fs) {
        return fs.overlay && fs.draw.kind == SpanKind::cut && fs.lane == servers[1];
    }));
    const TimelineFrame ko = build_timeline_frame(model, server_view(model, 6), test::string_tables(Lang::ko), metrics);
    EXPECT_TRUE(has_words(ko, "카운터 2 → 1: 획득 1건 유실"));
}

// The SVG export draws the same frame: server titles and the rollback words.
TEST(ReplicationLanes, SvgHasTheServerLanes) {
    const LaneModel model = run_scenario(replica_promoted_with_lag()).lanes;
    SvgOptions o;
    o.last = model.end_tick;
    const std::string svg = timeline_svg(model, default_palette(), test::string_tables(Lang::en), o);
    EXPECT_NE(svg.find("replica 1"), std::string::npos);
    EXPECT_NE(svg.find("counter 2 → 1: 1 acquisition lost"), std::string::npos);
}

// Without replicas nothing changes: slot lanes, no server lane.
TEST(ReplicationLanes, NoServerLanesWithoutReplicas) {
    sim::Scenario s = replica_promoted_with_lag();
    s.lock.replication.replicas = 0;
    s.faults.clear();
    const LaneModel model = run_scenario(s).lanes;
    EXPECT_TRUE(server_lane_indexes(model).empty());
    EXPECT_TRUE(
        std::any_of(model.lanes.begin(), model.lanes.end(), [](const Lane& l) { return l.kind == LaneKind::slot; }));
}

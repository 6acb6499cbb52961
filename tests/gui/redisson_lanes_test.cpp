// A Redisson run's lanes (core/redisson_lanes.hpp): one lane per client, one
// for the lock's hash, the resource's; the hash's field in its owner's span;
// the waiter asleep on the channel drawn waiting until the TTL it was told;
// the unlock message as a mark on the waiter's lane at the tick of its
// `message` event, delivered and lost told apart; the watchdog's renewals
// on the holder's lane; and a /6 trace opened alone drawing the same.
#include "support/preset_loader.hpp"
#include <gtest/gtest.h>

#include <algorithm>

#include "core/lane_layout.hpp"
#include "core/palette.hpp"
#include "core/redisson_lanes.hpp"
#include "core/svg.hpp"
#include "core/timeline_frame.hpp"
#include "support/string_tables.hpp"
#include "leasescope/words/redisson_facts.hpp"

using namespace leasescope;
using namespace leasescope::gui;

namespace {

const Span* key_span_at(const std::vector<Span>& spans, Tick t) {
    for (const Span& s : spans)
        if (s.begin <= t && t < s.end) return &s;
    return nullptr;
}

std::vector<const Marker*> redisson_marks_of(const Lane& lane, MarkerKind kind) {
    std::vector<const Marker*> out;
    for (const Marker& m : lane.markers)
        if (m.kind == kind) out.push_back(&m);
    return out;
}

// The preset with its one partition of node-b moved away from node-a's unlock
// (tick 40), so that the unlock message reaches node-b.
sim::Scenario redisson_delivered_twin() {
    sim::Scenario s = test::load_preset("lost-unlock-redisson");
    EXPECT_EQ(s.faults.size(), 1u);
    s.faults.front().at = 20;
    return s;
}

}  // namespace

// Two clients, then the hash named by the lock, then the resource.
TEST(RedissonLanes, OneLanePerClientThenTheHashThenTheResource) {
    const ShownRun run = run_scenario(test::load_preset("lost-unlock-redisson"));
    const LaneModel& m = run.lanes;
    ASSERT_EQ(m.candidate_lanes, 2);
    ASSERT_EQ(m.lanes.size(), 4u);
    EXPECT_EQ(m.lanes[0].label, "node-a");
    EXPECT_EQ(m.lanes[1].label, "node-b");
    ASSERT_EQ(key_lane(m), 2);
    EXPECT_EQ(m.lanes[2].kind, LaneKind::key);
    EXPECT_EQ(m.lanes[2].label, "report");
    EXPECT_EQ(m.lanes[3].kind, LaneKind::resource);
}

// lost-unlock-redisson: node-a's field holds the hash from tick 0 to its
// unlock at tick 40, node-b's from tick 200 (rule 21.2.2); node-b sleeps
// (waiting) from its busy attempt at tick 10 until it takes the lock at 200.
TEST(RedissonLanes, TheHashAndTheSleepOfTheLostUnlockPreset) {
    const ShownRun run = run_scenario(test::load_preset("lost-unlock-redisson"));
    const Lane& key = run.lanes.lanes[static_cast<std::size_t>(key_lane(run.lanes))];
    ASSERT_EQ(key.spans.size(), 2u);
    EXPECT_EQ(key.spans[0].begin, 0);
    EXPECT_EQ(key.spans[0].end, 40);
    EXPECT_EQ(key.spans[0].owner, 0);
    EXPECT_EQ(key.spans[0].ttl, 200);
    EXPECT_EQ(key.spans[1].begin, 200);
    EXPECT_EQ(key.spans[1].owner, 1);
    const Lane& b = run.lanes.lanes[1];
    for (const Tick t : {Tick{10}, Tick{40}, Tick{120}, Tick{199}}) {
        const Span* s = key_span_at(b.spans, t);
        ASSERT_NE(s, nullptr) << t;
        EXPECT_EQ(s->kind, SpanKind::waiting) << t;
    }
    ASSERT_NE(key_span_at(b.spans, 200), nullptr);
    EXPECT_EQ(key_span_at(b.spans, 200)->kind, SpanKind::running);
    // The partition (drop_replies) is an overlay of its one tick.
    ASSERT_EQ(b.overlays.size(), 1u);
    EXPECT_EQ(b.overlays[0].kind, SpanKind::partition_replies);
    EXPECT_EQ(b.overlays[0].begin, 40);
    EXPECT_EQ(b.overlays[0].end, 41);
}

// The unlock message is marked on the waiter's lane at its `message` event's
// tick, lost in the preset (rule 21.5.3), delivered in its twin without the
// partition at tick 40 (rule 21.5.2); node-a's lane has none.
TEST(RedissonLanes, TheUnlockMessageIsMarkedAtItsEventLostOrDelivered) {
    for (const bool lost : {true, false}) {
        const ShownRun run = run_scenario(lost ? test::load_preset("lost-unlock-redisson") : redisson_delivered_twin());
        const auto& events = run.timeline->trace().events;
        const auto it = std::find_if(events.begin(), events.end(),
                                     [](const sim::Event& e) { return e.op == sim::EventOp::message; });
        ASSERT_NE(it, events.end()) << lost;
        EXPECT_EQ(it->tick, 40) << lost;
        const Lane& b = run.lanes.lanes[1];
        const auto kept = redisson_marks_of(b, MarkerKind::unlock_message);
        const auto gone = redisson_marks_of(b, MarkerKind::unlock_message_lost);
        ASSERT_EQ((lost ? gone : kept).size(), 1u) << lost;
        EXPECT_TRUE((lost ? kept : gone).empty()) << lost;
        const Marker& m = *(lost ? gone : kept).front();
        EXPECT_EQ(m.tick, it->tick);
        EXPECT_EQ(m.event, static_cast<std::int32_t>(it - events.begin()));
        EXPECT_TRUE(redisson_marks_of(run.lanes.lanes[0], MarkerKind::unlock_message).empty());
        EXPECT_TRUE(redisson_marks_of(run.lanes.lanes[0], MarkerKind::unlock_message_lost).empty());
        EXPECT_EQ(is_alarm(m.kind), lost);
        // Delivered, node-b takes the lock in the tick after the message, not at 200.
        if (!lost) {
            ASSERT_NE(key_span_at(b.spans, 41), nullptr);
            EXPECT_EQ(key_span_at(b.spans, 41)->kind, SpanKind::running);
        }
    }
}

// watchdog-redisson: node-a's renewal at tick 200 is a mark on its lane and
// sets the hash's TTL again (a new span of the hash); after its pause its
// field is gone and its lane turns stale from tick 800 (rule 21.6.1).
TEST(RedissonLanes, TheWatchdogsRenewalsAndTheStaleHolder) {
    const ShownRun run = run_scenario(test::load_preset("watchdog-redisson"));
    const Lane& a = run.lanes.lanes[0];
    const auto renewals = redisson_marks_of(a, MarkerKind::extend);
    ASSERT_EQ(renewals.size(), 1u);
    EXPECT_EQ(renewals.front()->tick, 200);
    const Lane& key = run.lanes.lanes[static_cast<std::size_t>(key_lane(run.lanes))];
    ASSERT_NE(key_span_at(key.spans, 199), nullptr);
    ASSERT_NE(key_span_at(key.spans, 200), nullptr);
    EXPECT_EQ(key_span_at(key.spans, 200)->begin, 200);
    EXPECT_EQ(key_span_at(key.spans, 200)->owner, 0);
    ASSERT_NE(key_span_at(a.spans, 799), nullptr);
    EXPECT_EQ(key_span_at(a.spans, 799)->kind, SpanKind::running);
    ASSERT_NE(key_span_at(a.spans, 800), nullptr);
    EXPECT_EQ(key_span_at(a.spans, 800)->kind, SpanKind::stale);
}

// A /6 trace opened alone draws the lanes of the simulated run but the clock
// lanes (the scenario is not carried): the fold reads only the events.
TEST(RedissonLanes, AReplayedTraceDrawsTheSimulatedLanes) {
    for (const char* name : {"lost-unlock-redisson", "watchdog-redisson"}) {
        const ShownRun run = run_scenario(test::load_preset(name));
        const ShownRun replay = replay_trace(run.timeline->trace());
        EXPECT_TRUE(run.lanes.lanes == replay.lanes.lanes) << name;
        EXPECT_EQ(run.lanes.end_tick, replay.lanes.end_tick) << name;
    }
}

// The fold's hash at the playhead: its field's holder, hold count and PTTL.
TEST(RedissonFacts, TheHashAtATick) {
    const ShownRun run = run_scenario(test::load_preset("lost-unlock-redisson"));
    const sim::Trace& trace = run.timeline->trace();
    const auto at10 = words::redisson_facts_at(trace, &run.timeline->scenario(), 10);
    EXPECT_EQ(at10.record.node, "node-a");
    EXPECT_EQ(at10.record.holds, 1);
    EXPECT_EQ(words::redisson_pttl_ms(at10.record, 10, trace.header.tick_ms), 9500);
    ASSERT_EQ(at10.clients.size(), 2u);
    EXPECT_EQ(at10.clients[1].state, words::RedissonClientState::sleeping);
    EXPECT_EQ(at10.clients[1].wake_at, 200);
    EXPECT_EQ(at10.clients[1].told_ttl_ms, 9500);
    const auto at40 = words::redisson_facts_at(trace, &run.timeline->scenario(), 40);
    EXPECT_TRUE(at40.record.token.empty());
    EXPECT_TRUE(at40.clients[1].message_lost);
    EXPECT_EQ(at40.clients[0].state, words::RedissonClientState::finished);
}

namespace {

// The frame of `model` zoomed on ticks 0 … 240 at 1000 points, 400 high.
TimelineFrame redisson_frame(const LaneModel& model, const Strings& strings) {
    TimelineViewport v;
    v.x = 10;
    v.y = 50;
    v.width = 1000;
    v.height = 400;
    const TimeAxis axis = fit_axis(0, 240, v.x + v.label_w, v.width - v.label_w);
    v.first_tick = axis.first_tick;
    v.px_per_tick = axis.px_per_tick;
    v.playhead = 40;
    return build_timeline_frame(model, v, strings, estimated_metrics(17, 13));
}

}  // namespace

// The frame draws each unlock message as an arrow from the unlocker's mark
// (node-a's unlock, its lane above) down to the waiter's envelope at the
// `message` event's tick: one arrow, ending in a cross when lost (rule
// 21.5.3), with a head when delivered (rule 21.5.2); none in an elector run.
TEST(RedissonLanes, TheFrameArrowsEachUnlockMessageFromTheUnlockerToTheWaiter) {
    const Strings strings = test::string_tables(Lang::en);
    for (const bool lost : {true, false}) {
        const ShownRun run = run_scenario(lost ? test::load_preset("lost-unlock-redisson") : redisson_delivered_twin());
        const TimelineFrame f = redisson_frame(run.lanes, strings);
        ASSERT_EQ(f.lane_arrows.size(), 1u) << lost;
        const FrameArrow& a = f.lane_arrows.front();
        EXPECT_EQ(a.lost, lost);
        EXPECT_EQ(a.message, -1);
        const float x40 = static_cast<float>(f.axis.x_of(40.5));
        EXPECT_FLOAT_EQ(a.x0, x40);
        EXPECT_FLOAT_EQ(a.x1, x40);
        // From node-a's lane (0) down to node-b's (1).
        EXPECT_GE(a.y0, f.lanes[0].box.y0);
        EXPECT_LE(a.y0, f.lanes[0].box.y1);
        EXPECT_GE(a.y1, f.lanes[1].box.y0);
        EXPECT_LE(a.y1, f.lanes[1].box.y1);
        EXPECT_LT(a.y0, a.y1);
        EXPECT_TRUE(f.arrows.empty());  // no time on the wire: no message view
    }
    const ShownRun elector = run_scenario(test::load_preset("lost-unlock-elector"));
    EXPECT_TRUE(redisson_frame(elector.lanes, strings).lane_arrows.empty());
}

// node-b's waiting span says why it waits: asleep on the channel until tick
// 200, the PTTL it was told at tick 10 (rule 21.3.4), in both languages.
TEST(RedissonLanes, TheSleepSaysUntilWhenAndWhy) {
    for (const Lang lang : {Lang::en, Lang::ko}) {
        const Strings strings = test::string_tables(lang);
        const ShownRun run = run_scenario(test::load_preset("lost-unlock-redisson"));
        const Span* sleep = key_span_at(run.lanes.lanes[1].spans, 100);
        ASSERT_NE(sleep, nullptr);
        EXPECT_EQ(sleep->expires_at, 200);
        EXPECT_EQ(sleep->ttl, 190);
        const TimelineFrame f = redisson_frame(run.lanes, strings);
        // The long words where they fit, else the short ones: either names tick 200.
        const Fields fields{{"wake", "200"}, {"ttl", "190"}};
        const std::string want = strings.tr("timeline.rs_sleep", fields);
        const std::string short_want = strings.tr("timeline.rs_sleep_short", fields);
        bool found = false;
        for (const PlacedLabel& l : f.layout.labels)
            found = found || (l.lane == 1 && (l.text == want || l.text == short_want));
        EXPECT_TRUE(found) << want;
    }
}

// The SVG export draws the unlock message's arrow too, its <title> in words.
TEST(RedissonLanes, TheSvgExportDrawsTheLostUnlockMessage) {
    const Strings strings = test::string_tables(Lang::en);
    const ShownRun run = run_scenario(test::load_preset("lost-unlock-redisson"));
    SvgOptions o;
    o.first = 0;
    o.last = run.lanes.end_tick;
    o.playhead = 40;
    const std::string svg = timeline_svg(run.lanes, default_palette(), strings, o);
    const std::string want =
        "<g class=\"message lost\"><title>" + strings.tr("legend.unlock_message_lost") + "</title>";
    EXPECT_NE(svg.find(want), std::string::npos);
}

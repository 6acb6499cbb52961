// A Redlock run's lanes (core/redlock_lanes.hpp) and their frame: one lane
// per client and per store, each store's key in its owner's span, the time a
// store is down, a quorum mark with its count and validity, the validity
// window ending where explain says it ends, and the quorum's words on the
// frame in both languages.
#include "support/preset_loader.hpp"
#include <gtest/gtest.h>

#include <algorithm>

#include "core/lane_layout.hpp"
#include "core/redlock_lanes.hpp"
#include "core/timeline_frame.hpp"
#include "support/string_tables.hpp"
#include "leasescope/words/redlock_facts.hpp"

using namespace leasescope;
using namespace leasescope::gui;

namespace {

struct Shown {
    ShownRun run;
    const LaneModel& lanes() const { return run.lanes; }
};

Shown clock_jump() { return Shown{run_scenario(test::load_preset("redlock-clock-jump"))}; }

const Marker* quorum_mark(const Lane& lane, Tick t) {
    for (const Marker& m : lane.markers)
        if (m.tick == t && m.votes >= 0) return &m;
    return nullptr;
}

const Span* span_at(const std::vector<Span>& spans, Tick t) {
    for (const Span& s : spans)
        if (s.begin <= t && t < s.end) return &s;
    return nullptr;
}

}  // namespace

// Two clients, then one lane per store in the scenario's order (A … E), then the resource.
TEST(RedlockLanes, OneLanePerClientAndPerStore) {
    const Shown s = clock_jump();
    const LaneModel& m = s.lanes();
    ASSERT_EQ(m.candidate_lanes, 2);
    ASSERT_EQ(m.lanes.size(), 2u + 5u + 1u);
    const char* names[] = {"A", "B", "C", "D", "E"};
    for (std::int32_t i = 0; i < 5; ++i) {
        const std::int32_t li = store_lane(m, i);
        ASSERT_EQ(li, 2 + i);
        EXPECT_EQ(m.lanes[static_cast<std::size_t>(li)].kind, LaneKind::store);
        EXPECT_EQ(m.lanes[static_cast<std::size_t>(li)].label, names[i]);
    }
    EXPECT_EQ(m.lanes.back().kind, LaneKind::resource);
}

// C holds client-1's key from tick 1 until its clock jumps at tick 40, then
// client-2's from 50; D is down until its restart at tick 10 (Kleppmann's steps).
TEST(RedlockLanes, StoreKeysByOwnerAndDownTime) {
    const Shown s = clock_jump();
    const Lane& c = s.lanes().lanes[static_cast<std::size_t>(store_lane(s.lanes(), 2))];
    const Span* first = span_at(c.spans, 1);
    ASSERT_NE(first, nullptr);
    EXPECT_EQ(first->kind, SpanKind::record);
    EXPECT_EQ(first->owner, 0);
    EXPECT_EQ(first->end, 40);
    EXPECT_EQ(span_at(c.spans, 45), nullptr);
    const Span* second = span_at(c.spans, 50);
    ASSERT_NE(second, nullptr);
    EXPECT_EQ(second->owner, 1);
    const Lane& d = s.lanes().lanes[static_cast<std::size_t>(store_lane(s.lanes(), 3))];
    const Span* down = span_at(d.overlays, 0);
    ASSERT_NE(down, nullptr);
    EXPECT_EQ(down->kind, SpanKind::crashed);
    EXPECT_EQ(down->end, 10);
    // client-1 works on: stale from the jump, when only A and B hold its key.
    const Span* stale = span_at(s.lanes().lanes[0].spans, 40);
    ASSERT_NE(stale, nullptr);
    EXPECT_EQ(stale->kind, SpanKind::stale);
    EXPECT_EQ(span_at(s.lanes().lanes[0].spans, 39)->kind, SpanKind::running);
}

// client-2's count at tick 50: 3 of 5, a validity of 10000 − 102 − 0 ms, the
// number explain gives (words::redlock_count), and its window from the
// attempt's start to ⌈(50·50 + 9898) / 50⌉ = 248.
TEST(RedlockLanes, QuorumMarkAndValidityWindow) {
    const Shown s = clock_jump();
    const Lane& client2 = s.lanes().lanes[1];
    const Marker* q = quorum_mark(client2, 50);
    ASSERT_NE(q, nullptr);
    EXPECT_EQ(q->kind, MarkerKind::acquire);
    EXPECT_EQ(q->votes, 3);
    EXPECT_EQ(q->stores, 5);
    ASSERT_TRUE(q->validity_ms.has_value());
    EXPECT_EQ(*q->validity_ms, 9898);
    const auto count =
        words::redlock_count(&s.run.timeline->scenario(), s.run.timeline->trace(), static_cast<std::size_t>(q->event));
    ASSERT_TRUE(count.has_value());
    EXPECT_EQ(count->validity_ms, *q->validity_ms);
    const Span* window = span_at(client2.overlays, 50);
    ASSERT_NE(window, nullptr);
    EXPECT_EQ(window->kind, SpanKind::validity);
    EXPECT_EQ(window->begin, 50);
    EXPECT_EQ(window->end, 248);
    EXPECT_EQ(window->end, count->valid_until);
    // client-1's window outlives C's key: C dropped it at 40, the window runs to 199.
    const Span* w1 = span_at(s.lanes().lanes[0].overlays, 1);
    ASSERT_NE(w1, nullptr);
    EXPECT_EQ(w1->end, 199);
}

// The frame says the count in words beside the mark, in English and Korean.
TEST(RedlockLanes, QuorumWordsOnTheFrame) {
    const Shown s = clock_jump();
    const LaneModel& m = s.lanes();
    for (const Lang lang : {Lang::en, Lang::ko}) {
        const Strings strings = test::string_tables(lang);
        TimelineViewport v;
        v.width = 1400;
        v.height = 600;
        v.first_tick = 45;  // zoomed in on client-2's count: room for the long words before its write at 60
        v.px_per_tick = 24;
        const TimelineFrame f = build_timeline_frame(m, v, strings, estimated_metrics(17, 13));
        const std::string want = lang == Lang::en ? "3 of 5, validity 9898 ms" : "5개 중 3개, 유효 시간 9898 ms";
        const bool found = std::any_of(f.layout.labels.begin(), f.layout.labels.end(), [&](const PlacedLabel& l) {
            return l.kind == LabelKind::quorum && l.lane == 1 && l.text == want;
        });
        std::string seen;
        for (const PlacedLabel& l : f.layout.labels) seen += std::to_string(l.lane) + ":" + l.text + " | ";
        for (const PlacedMark& pm : f.layout.marks)
            if (pm.lane == 1) seen += "mark " + std::to_string(pm.box.x0) + "-" + std::to_string(pm.box.x1) + " | ";
        EXPECT_TRUE(found) << "no quorum label \"" << want << "\" in " << seen;
        EXPECT_EQ(f.lanes[2].title, lang == Lang::en ? "store A" : "저장소 A");
    }
}

// A /5 trace replayed draws the same stores and keys as the simulated run (no
// lease known: no validity windows).
TEST(RedlockLanes, ReplayedTraceHasTheSameStoreLanes) {
    const Shown s = clock_jump();
    ShownRun replay = replay_trace(s.run.timeline->trace());
    ASSERT_EQ(replay.lanes.lanes.size(), s.lanes().lanes.size());
    for (std::size_t i = 2; i < 7; ++i) EXPECT_EQ(replay.lanes.lanes[i].spans, s.lanes().lanes[i].spans);
}

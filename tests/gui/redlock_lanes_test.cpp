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
#include "leasescope/words/words.hpp"

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

// A /5 trace replayed draws the same stores and keys as the simulated run.
TEST(RedlockLanes, ReplayedTraceHasTheSameStoreLanes) {
    const Shown s = clock_jump();
    ShownRun replay = replay_trace(s.run.timeline->trace());
    ASSERT_EQ(replay.lanes.lanes.size(), s.lanes().lanes.size());
    for (std::size_t i = 2; i < 7; ++i) EXPECT_EQ(replay.lanes.lanes[i].spans, s.lanes().lanes[i].spans);
}

// A /5 trace alone carries each lock's lease (the count's ttl), its start and
// the client's clock jumps, but not the driftFactor (model.md §20.8): its
// validity windows are computed with the package's default (0.01, which
// every Redlock preset uses, so they match the simulated run's tick for
// tick), flagged as assumed, and the words say so: the count's label on the
// frame and Explain's sentence, in both languages.
TEST(RedlockLanes, ReplayedTraceDrawsValidityWindowsWithTheDriftFactorAssumed) {
    const Shown s = clock_jump();
    const ShownRun replay = replay_trace(s.run.timeline->trace());
    std::size_t windows = 0;
    for (std::size_t i = 0; i < 2; ++i) {
        const auto& want = s.lanes().lanes[i].overlays;
        const auto& got = replay.lanes.lanes[i].overlays;
        ASSERT_EQ(got.size(), want.size()) << "client " << i;
        for (std::size_t k = 0; k < got.size(); ++k) {
            EXPECT_EQ(got[k].kind, want[k].kind);
            EXPECT_EQ(got[k].begin, want[k].begin);
            EXPECT_EQ(got[k].end, want[k].end);
            if (got[k].kind != SpanKind::validity) continue;
            ++windows;
            EXPECT_EQ(got[k].validity_ms, want[k].validity_ms);
            EXPECT_TRUE(got[k].drift_assumed);
            EXPECT_FALSE(want[k].drift_assumed);
        }
    }
    EXPECT_EQ(windows, 2u);
    const Marker* q = quorum_mark(replay.lanes.lanes[1], 50);
    ASSERT_NE(q, nullptr);
    ASSERT_TRUE(q->validity_ms.has_value());
    EXPECT_EQ(*q->validity_ms, 9898);
    EXPECT_TRUE(q->drift_assumed);
    for (const Lang lang : {Lang::en, Lang::ko}) {
        const Strings strings = test::string_tables(lang);
        TimelineViewport v;
        v.width = 1400;
        v.height = 600;
        v.first_tick = 45;
        v.px_per_tick = 24;
        const TimelineFrame f = build_timeline_frame(replay.lanes, v, strings, estimated_metrics(17, 13));
        const bool told = std::any_of(f.layout.labels.begin(), f.layout.labels.end(), [](const PlacedLabel& l) {
            return l.lane == 1 && l.text.find("9898") != std::string::npos &&
                   l.text.find("driftFactor") != std::string::npos;
        });
        std::string seen;
        for (const PlacedLabel& l : f.layout.labels) seen += std::to_string(l.lane) + ":" + l.text + " | ";
        EXPECT_TRUE(told) << seen;
        const words::ExplainContext ctx{nullptr, &replay.timeline->trace(), static_cast<std::size_t>(q->event),
                                        nullptr};
        const words::Explanation ex = words::explain(ctx, strings);
        const bool said = std::any_of(ex.sentences.begin(), ex.sentences.end(), [](const words::Sentence& x) {
            return x.key == "rl.quorum.locked_assumed" && x.text.find("9898") != std::string::npos &&
                   x.text.find("0.01") != std::string::npos;
        });
        EXPECT_TRUE(said) << ex.body();
    }
}

// A client unlocks on every store (model.md §20.5), so a store that holds
// another token's key, or none, deletes nothing: its mark says so (left
// alone / no key), never the elector's red "release rejected", and is no
// alarm; Explain tells the same store state (the holder's name, or no key).
// Over every Redlock preset; redlock-clock-jump's tick 101 leaves client-2's
// key alone on C. The client's own count of such an unlock, short of a
// quorum with every store answering, is the elector's old holder refused
// (release_rejected, an alarm), not a release with no answer: client-1
// waking from its pause in redlock-gc-pause unlocks at 362 on five stores
// that all hold client-2's key.
TEST(RedlockLanes, AnUnlockThatDeletesNothingIsToldAsWhatItIs) {
    std::size_t left_alone = 0, no_key = 0, refused = 0;
    for (const std::string& name : test::app_preset_names()) {
        const sim::Scenario scenario = test::load_preset(name);
        if (!scenario.is_redlock()) continue;
        const ShownRun run = run_scenario(scenario);
        const sim::Trace& trace = run.timeline->trace();
        for (const Lane& lane : run.lanes.lanes)
            for (const Marker& m : lane.markers) {
                if (lane.kind == LaneKind::store) {
                    EXPECT_NE(m.kind, MarkerKind::release_rejected) << name << " tick " << m.tick;
                }
                if (m.kind == MarkerKind::release_rejected || m.kind == MarkerKind::release_error) {
                    const sim::Event& count = trace.events[static_cast<std::size_t>(m.event)];
                    EXPECT_EQ(count.op, sim::EventOp::quorum) << name << " tick " << m.tick;
                    if (m.kind == MarkerKind::release_rejected) ++refused;
                }
                if (m.kind != MarkerKind::release_left_alone && m.kind != MarkerKind::release_no_key) continue;
                EXPECT_FALSE(is_alarm(m.kind));
                EXPECT_EQ(lane.kind, LaneKind::store);
                const sim::Event& e = trace.events[static_cast<std::size_t>(m.event)];
                ASSERT_EQ(e.op, sim::EventOp::release);
                ASSERT_EQ(e.outcome, sim::Outcome::not_owner);
                const auto before = words::redlock_facts_before(trace, static_cast<std::size_t>(m.event));
                const words::RedlockStoreFact& st = before.stores[static_cast<std::size_t>(*e.server)];
                const words::ExplainContext ctx{&scenario, &trace, static_cast<std::size_t>(m.event), nullptr};
                const words::Explanation told = words::explain(ctx, test::string_tables(Lang::en));
                ASSERT_FALSE(told.sentences.empty());
                if (m.kind == MarkerKind::release_no_key) {
                    ++no_key;
                    EXPECT_TRUE(st.token.empty()) << name << " tick " << m.tick;
                    EXPECT_EQ(told.sentences[0].key, "rl.release.no_key") << name << " tick " << m.tick;
                    continue;
                }
                ++left_alone;
                EXPECT_FALSE(st.token.empty()) << name << " tick " << m.tick;
                EXPECT_NE(st.token, e.token) << name << " tick " << m.tick;
                if (st.node != e.node) {
                    EXPECT_EQ(told.sentences[0].key, "rl.release.no_held") << name << " tick " << m.tick;
                    EXPECT_NE(told.sentences[0].text.find(st.node), std::string::npos) << told.sentences[0].text;
                }
            }
    }
    EXPECT_GT(left_alone, 0u);
    EXPECT_GT(no_key, 0u);
    // Kleppmann's steps: at 101 client-1's unlock leaves client-2's key alone on C.
    const Shown s = clock_jump();
    const Lane& c = s.lanes().lanes[static_cast<std::size_t>(store_lane(s.lanes(), 2))];
    const auto at_101 = std::find_if(c.markers.begin(), c.markers.end(), [](const Marker& m) { return m.tick == 101; });
    ASSERT_NE(at_101, c.markers.end());
    EXPECT_EQ(at_101->kind, MarkerKind::release_left_alone);
    EXPECT_GT(refused, 0u);
    const ShownRun gc = run_scenario(test::load_preset("redlock-gc-pause"));
    const Lane& client_1 = gc.lanes.lanes[0];
    const auto at_362 =
        std::find_if(client_1.markers.begin(), client_1.markers.end(), [](const Marker& m) { return m.tick == 362; });
    ASSERT_NE(at_362, client_1.markers.end());
    EXPECT_EQ(at_362->kind, MarkerKind::release_rejected);
    EXPECT_EQ(at_362->votes, 0);
}

// redlock-gc-pause (381 ticks) fitted whole into a 600 px plot (the
// timeline at 1280×800) is an overview (under 2 px a tick: marks without
// words). It opens instead at 3 px a tick on its story: from a little before the overlap at 220 (client-2
// locks while client-1 is paused) to the run's end, the unsafe write at 342
// in view, and the frame has words (the quorum's). A run that fits with
// words opens whole, as the Fit button shows it; a playhead set elsewhere stays in view.
TEST(RedlockLanes, ALongRunOpensOnItsStoryWithWords) {
    const ShownRun run = run_scenario(test::load_preset("redlock-gc-pause"));
    const LaneModel& m = run.lanes;
    ASSERT_EQ(m.end_tick, 380);
    ASSERT_LT(fit_axis(0, m.end_tick + 1, 100, 600).px_per_tick, overview_px_per_tick);
    const TimeAxis a = opening_axis(m, 0, 100, 600);
    EXPECT_EQ(a.px_per_tick, story_px_per_tick);
    EXPECT_LE(a.first_tick, 202.0);  // the keys expiring, then client-2's lock at 220
    EXPECT_GE(a.last_tick(), 381.0);
    TimelineViewport v;
    v.width = 700;
    v.label_w = 100;
    v.height = 700;
    v.first_tick = a.first_tick;
    v.px_per_tick = a.px_per_tick;
    const TimelineFrame f = build_timeline_frame(m, v, test::string_tables(Lang::en), estimated_metrics(17, 13));
    EXPECT_FALSE(f.layout.overview);
    EXPECT_TRUE(std::any_of(f.layout.labels.begin(), f.layout.labels.end(),
                            [](const PlacedLabel& l) { return l.kind == LabelKind::quorum; }));
    // A playhead set at tick 30 (--tick 30) is in the opening view.
    const TimeAxis at30 = opening_axis(m, 30, 100, 600);
    EXPECT_LE(at30.first_tick, 30.0);
    EXPECT_GE(at30.last_tick(), 31.0);
    // Wide enough to fit with words: the whole run.
    const TimeAxis wide = opening_axis(m, 0, 100, 1000 * 2.2f);
    EXPECT_EQ(wide.first_tick, fit_axis(0, 381, 100, 1000 * 2.2f).first_tick);
    EXPECT_EQ(wide.px_per_tick, fit_axis(0, 381, 100, 1000 * 2.2f).px_per_tick);
}

namespace {

// The main view's timeline at 1024x768 (measured from --layout-report, model.md §15): 17 px text,
// a 27 px ruler, 143 px under it for lanes and the hint, 570 px wide with a 90 px titles' column.
TimelineViewport small_screen(const LaneModel& m, float lanes_room) {
    TimelineViewport v;
    v.width = 570;
    v.label_w = 90;
    v.ruler_h = 27;
    v.height = v.ruler_h + lanes_room;
    v.lane_h_min = 20;
    v.lane_h_max = 50;
    v.hint_h = 19;
    v.scrollbar_w = 8;
    v.title_h = 19;
    v.compact_lane_h = 17;
    const TimeAxis a = opening_axis(m, 60, v.x + v.label_w, v.width - v.label_w);
    v.first_tick = a.first_tick;
    v.px_per_tick = a.px_per_tick;
    v.playhead = 60;
    return v;
}

const PlacedLabel* clock_label(const TimelineFrame& f) {
    for (const PlacedLabel& l : f.layout.labels)
        if (l.kind == LabelKind::clock) return &l;
    return nullptr;
}

}  // namespace

// Every lane of a five-store, two-client run is in view at 1024x768 without scrolling (issue 27):
// its lanes get as low as a title's text, and its store clock is told inside the store's lane
// ("clock 10000 ms ahead" on C's lane, the jump marked there) instead of a clock lane of its own.
// With room (1920x1080), nothing of that: lanes as high as before, the clock lane under them.
TEST(RedlockLanes, EveryLaneOfFiveStoresAndTwoClientsFitsASmallScreen) {
    const Strings en = test::string_tables(Lang::en);
    const TextMetrics metrics = estimated_metrics(17, 13);
    for (const char* preset : {"redlock-restart", "redlock-clock-jump", "redlock-gc-pause"}) {
        const ShownRun run = run_scenario(test::load_preset(preset));
        const LaneModel& m = run.lanes;
        ASSERT_EQ(m.lanes.size(), 8u) << preset;
        const TimelineViewport v = small_screen(m, 143);
        EXPECT_TRUE(compact_lanes(m, v)) << preset;
        const TimelineFrame f = build_timeline_frame(m, v, en, metrics);
        EXPECT_EQ(f.hidden_above, 0) << preset;
        EXPECT_EQ(f.hidden_below, 0) << preset;
        EXPECT_TRUE(f.hint.empty()) << preset;
        ASSERT_EQ(f.lanes.size(), 8u) << preset;
        for (const FrameLane& fl : f.lanes) {
            EXPECT_LE(fl.box.y1, f.lanes_y + f.lanes_h + 0.01f) << preset << " lane " << fl.lane;
            EXPECT_GE(fl.box.h(), metrics.body_h - 0.01f) << preset << " lane " << fl.lane;  // a title fits
            EXPECT_EQ(fl.title_box.h(), metrics.body_h);
        }
        EXPECT_TRUE(f.clocks.empty()) << preset;
        EXPECT_LE(frame_bottom(f), v.y + v.height + 0.01f) << preset;
        const PlacedLabel* clock = clock_label(f);
        EXPECT_EQ(clock != nullptr, !m.clocks.empty()) << preset;
        if (clock != nullptr) {
            EXPECT_EQ(clock->lane, store_lane(m, 2)) << preset;  // C's
            EXPECT_EQ(clock->text, "clock 10000 ms ahead");
        }
        // A tall screen: no compact lanes, the clock lane under the lanes.
        const TimelineViewport tall = small_screen(m, 560);
        EXPECT_FALSE(compact_lanes(m, tall)) << preset;
        const TimelineFrame big = build_timeline_frame(m, tall, en, metrics);
        EXPECT_GE(big.lane_h, tall.lane_h_min) << preset;
        EXPECT_EQ(big.clocks.size(), m.clocks.size()) << preset;
        EXPECT_EQ(clock_label(big), nullptr) << preset;
    }
}

// The Korean clock words in a compact store lane.
TEST(RedlockLanes, CompactStoreClockInKorean) {
    const ShownRun run = run_scenario(test::load_preset("redlock-clock-jump"));
    const TimelineFrame f = build_timeline_frame(run.lanes, small_screen(run.lanes, 143), test::string_tables(Lang::ko),
                                                 estimated_metrics(17, 13));
    const PlacedLabel* clock = clock_label(f);
    ASSERT_NE(clock, nullptr);
    EXPECT_TRUE(clock->text == "시계 10000 ms 빠름" || clock->text == "10000 ms 빠름") << clock->text;
}

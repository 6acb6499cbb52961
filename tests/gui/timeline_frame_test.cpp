// The timeline's frame (core/timeline_frame.hpp) for every preset: lanes in
// the model's order with titles in the view's language, spans and marks
// culled to the plot, hit boxes that find what is drawn, and lanes that do
// not fit counted for the scroll hint.
#include "support/preset_loader.hpp"
#include <gtest/gtest.h>

#include "core/lane_layout.hpp"
#include "core/lanes.hpp"
#include "core/strings.hpp"
#include "support/string_tables.hpp"
#include "core/timeline_frame.hpp"
#include "core/palette.hpp"
#include "core/svg.hpp"
#include "leasescope/sim/generator.hpp"

using namespace leasescope;
using namespace leasescope::gui;

namespace {

TimelineViewport whole_run(const LaneModel& model, float height) {
    TimelineViewport v;
    v.x = 10;
    v.y = 50;
    v.width = 1000;
    v.height = height;
    const TimeAxis axis = fit_axis(0, model.end_tick + 1, v.x + v.label_w, v.width - v.label_w);
    v.first_tick = axis.first_tick;
    v.px_per_tick = axis.px_per_tick;
    v.playhead = model.end_tick / 2;
    return v;
}

bool has_hangul(const std::string& text) {
    // Hangul syllables are U+AC00 … U+D7A3: a lead byte 0xEA … 0xED in UTF-8.
    for (const char c : text) {
        const auto b = static_cast<unsigned char>(c);
        if (b >= 0xEA && b <= 0xED) return true;
    }
    return false;
}

}  // namespace

// Every lane in the model's order (candidates, slots, hold-off, resource,
// ops); the store's and the resource's lanes are titled in the view's language, so the Korean
// timeline says 슬롯 0 and 자원 where the English one says slot 0 and resource.
TEST(TimelineFrame, LanesInOrderWithTranslatedTitles) {
    const TextMetrics metrics = estimated_metrics(17, 13);
    for (const Lang lang : {Lang::en, Lang::ko}) {
        const Strings strings = test::string_tables(lang);
        for (const std::string& name : test::app_preset_names()) {
            const LaneModel model = run_scenario(test::load_preset(name)).lanes;
            const TimelineFrame f = build_timeline_frame(model, whole_run(model, 2000), strings, metrics);
            ASSERT_EQ(f.lanes.size(), model.lanes.size()) << name;
            for (std::size_t i = 0; i < f.lanes.size(); ++i) {
                const Lane& lane = model.lanes[i];
                EXPECT_EQ(f.lanes[i].lane, static_cast<std::int32_t>(i)) << name;
                if (i > 0) {
                    EXPECT_GE(f.lanes[i].box.y0, f.lanes[i - 1].box.y1 - 0.01f) << name;
                }
                // A candidate's lane, and the ops lane (named by the ops'
                // actors, as the trace names them), carry names, not words.
                if (lane.kind == LaneKind::candidate || (lane.kind == LaneKind::ops && !lane.label.empty())) {
                    EXPECT_EQ(f.lanes[i].title, lane.label) << name;
                } else if (lang == Lang::ko) {
                    EXPECT_TRUE(has_hangul(f.lanes[i].title)) << name << ": " << f.lanes[i].title;
                } else {
                    EXPECT_FALSE(has_hangul(f.lanes[i].title)) << name << ": " << f.lanes[i].title;
                }
            }
            for (const PlacedLabel& pl : f.layout.labels) {
                const bool words = pl.kind == LabelKind::overlay || pl.kind == LabelKind::failover;
                if (words) {
                    EXPECT_EQ(has_hangul(pl.text), lang == Lang::ko) << name << ": " << pl.text;
                }
            }
        }
    }
}

// Zoomed in on ticks 8 … 12 only what is in those ticks is in the frame, and
// all of it lies inside the plot.
TEST(TimelineFrame, CullsToThePlot) {
    const Strings strings = test::string_tables(Lang::en);
    const TextMetrics metrics = estimated_metrics(17, 13);
    const LaneModel model = run_scenario(test::load_preset("gc-pause-fencing")).lanes;
    TimelineViewport v = whole_run(model, 2000);
    const TimelineFrame all = build_timeline_frame(model, v, strings, metrics);
    v.first_tick = 8;
    v.px_per_tick = (v.width - v.label_w) / 5.0;
    const TimelineFrame part = build_timeline_frame(model, v, strings, metrics);
    EXPECT_LT(part.layout.marks.size(), all.layout.marks.size());
    EXPECT_LE(part.spans.size(), all.spans.size());
    for (const FrameSpan& s : part.spans) {
        EXPECT_GE(s.box.x0, part.plot_x);
        EXPECT_LE(s.box.x1, part.plot_x + part.plot_w);
    }
    for (const PlacedMark& pm : part.layout.marks) {
        const Marker& m = model.lanes[static_cast<std::size_t>(pm.lane)].markers[static_cast<std::size_t>(pm.marker)];
        EXPECT_GE(m.tick, 7);
        EXPECT_LE(m.tick, 13);
    }
}

// A point on a drawn mark finds that mark; a point on a drawn span finds it.
TEST(TimelineFrame, HitBoxesFindWhatIsDrawn) {
    const Strings strings = test::string_tables(Lang::en);
    const LaneModel model = run_scenario(test::load_preset("expiry-takeover")).lanes;
    const TimelineFrame f = build_timeline_frame(model, whole_run(model, 600), strings, estimated_metrics(17, 13));
    ASSERT_FALSE(f.layout.marks.empty());
    for (std::size_t i = 0; i < f.layout.marks.size(); ++i) {
        const PlacedMark& pm = f.layout.marks[i];
        const FrameHit hit = hit_test(f, pm.x, pm.y);
        EXPECT_EQ(hit.lane, pm.lane);
        ASSERT_GE(hit.mark, 0);
        // Stacked marks may share a point; the one found is drawn there.
        const PlacedMark& found = f.layout.marks[static_cast<std::size_t>(hit.mark)];
        EXPECT_TRUE(found.box.intersects(Box{pm.x - 1, pm.y - 1, pm.x + 1, pm.y + 1}));
    }
    ASSERT_FALSE(f.spans.empty());
    const FrameSpan& s = f.spans.front();
    const FrameHit hit = hit_test(f, (s.box.x0 + s.box.x1) * 0.5f, (s.box.y0 + s.box.y1) * 0.5f);
    EXPECT_EQ(hit.lane, s.lane);
    EXPECT_GE(hit.span, 0);
    EXPECT_EQ(hit_test(f, f.plot_x + 1, f.lanes_y - 2).lane, -1);  // the ruler is no lane
}

// Lanes that do not fit are counted (the view shows a hint and scrolls);
// scrolled to the end, the last lane is in view and the first ones are not.
TEST(TimelineFrame, CountsLanesOutOfView) {
    const Strings strings = test::string_tables(Lang::en);
    const TextMetrics metrics = estimated_metrics(17, 13);
    const LaneModel model = run_scenario(test::load_preset("group-saturation")).lanes;
    TimelineViewport v = whole_run(model, 24 + 20 * 3);
    const TimelineFrame top = build_timeline_frame(model, v, strings, metrics);
    EXPECT_EQ(top.hidden_above, 0);
    EXPECT_GT(top.hidden_below, 0);
    v.scroll_y = 1e6f;
    const TimelineFrame end = build_timeline_frame(model, v, strings, metrics);
    EXPECT_EQ(end.hidden_below, 0);
    EXPECT_GT(end.hidden_above, 0);
    EXPECT_EQ(end.last_lane, static_cast<std::int32_t>(model.lanes.size()) - 1);
}

// The compare view's divergence line gives way to every mark and word: no
// dash crosses one, and where nothing is in the way the line is drawn.
TEST(TimelineFrame, DivergenceDashesLeaveMarksVisible) {
    const Strings strings = test::string_tables(Lang::en);
    const LaneModel model = run_scenario(test::load_preset("gc-pause-fencing")).lanes;
    const TimelineFrame f = build_timeline_frame(model, whole_run(model, 400), strings, estimated_metrics(17, 13));
    int crossed_marks = 0;
    for (const PlacedMark& pm : f.layout.marks) {
        const float x = pm.x;
        const auto dashes = dashes_clear_of_frame(f, x, f.lanes_y, f.lanes_y + f.content_h, 6, 4);
        EXPECT_FALSE(dashes.empty());
        for (const auto& [y0, y1] : dashes) {
            EXPECT_FALSE(pm.box.intersects(Box{x - 1, y0, x + 1, y1})) << "mark at " << pm.x << "," << pm.y;
            for (const PlacedLabel& pl : f.layout.labels)
                EXPECT_FALSE(pl.box.intersects(Box{x - 1, y0, x + 1, y1})) << pl.text;
        }
        ++crossed_marks;
    }
    EXPECT_GT(crossed_marks, 0);
}

// Every mark stays inside its own lane, stacked or side by side, at every
// lane height and UI scale the views use (watchdog-pause's tick 11 once
// stacked its resume and lost-extension marks half outside node-a's lane),
// and no mark hides another: a fold that takes a larger glyph does not grow
// over the mark before it (scheduled-job at 250 % once hid a busy attempt
// under the skip two ticks later).
TEST(TimelineFrame, MarksStayInsideTheirLaneAndHideNoMark) {
    const Strings strings = test::string_tables(Lang::en);
    for (const std::string& name : test::app_preset_names()) {
        const LaneModel model = run_scenario(test::load_preset(name)).lanes;
        for (const float scale : {1.0f, 1.5f, 2.0f, 2.5f}) {
            for (const float lane_h : {20.0f, 27.0f, 34.0f, 50.0f}) {
                for (const float width : {300.0f, 500.0f, 900.0f, 1400.0f}) {
                    TimelineViewport v = whole_run(model, 0);
                    v.width = width;
                    const TimeAxis axis = fit_axis(0, model.end_tick + 1, v.x + v.label_w, v.width - v.label_w);
                    v.first_tick = axis.first_tick;
                    v.px_per_tick = axis.px_per_tick;
                    v.scale = scale;
                    v.lane_h_min = v.lane_h_max = lane_h * scale;
                    v.height = v.ruler_h + v.lane_h_min * static_cast<float>(model.lanes.size());
                    const TimelineFrame f =
                        build_timeline_frame(model, v, strings, estimated_metrics(17 * scale, 13 * scale));
                    for (std::size_t i = 1; i < f.layout.marks.size(); ++i) {
                        const PlacedMark& a = f.layout.marks[i - 1];
                        const PlacedMark& b = f.layout.marks[i];
                        if (a.lane != b.lane || f.layout.overview) continue;
                        EXPECT_FALSE(a.box.intersects(b.box))
                            << name << " lane " << a.lane << " at " << a.x << " and " << b.x << ", scale " << scale;
                    }
                    for (const PlacedMark& pm : f.layout.marks) {
                        const Box& lane = f.lanes[static_cast<std::size_t>(pm.lane)].box;
                        EXPECT_GE(pm.box.y0, lane.y0 - 0.5f) << name << " lane " << pm.lane << " at " << pm.x
                                                             << ", lane " << lane_h << " px, scale " << scale;
                        EXPECT_LE(pm.box.y1, lane.y1 + 0.5f) << name << " lane " << pm.lane << " at " << pm.x
                                                             << ", lane " << lane_h << " px, scale " << scale;
                    }
                }
            }
        }
    }
}

// Clock lanes (issue 25, model.md §3.3): a lane under the others only for a
// clock that is not true time, so every preset with true clocks keeps its
// picture; its offset at each tick is the clock's function (a jump a step,
// drift a slope); titles and the axis's words in the view's language.
TEST(TimelineFrame, ClockLaneOnlyForAClockThatIsNotTrueTime) {
    const TextMetrics metrics = estimated_metrics(17, 13);
    const Strings en = test::string_tables(Lang::en);
    for (const std::string& name : test::app_preset_names()) {
        const sim::Scenario scenario = test::load_preset(name);
        bool untrue = scenario.lock.clock.drift_ppm != 0;
        for (const sim::Candidate& c : scenario.candidates) untrue = untrue || c.options.drift_ppm != 0;
        for (const sim::Fault& fault : scenario.faults) untrue = untrue || fault.kind == sim::FaultKind::clock_jump;
        const LaneModel model = run_scenario(scenario).lanes;
        const TimelineFrame f = build_timeline_frame(model, whole_run(model, 2000), en, metrics);
        EXPECT_EQ(!f.clocks.empty(), untrue) << name;
        EXPECT_EQ(clock_strip_h(model, whole_run(model, 2000)) > 0, untrue) << name;
    }
}

TEST(TimelineFrame, ClockLaneOffsetsFollowTheClockFunction) {
    const LaneModel jump = run_scenario(test::load_preset("store-clock-jump")).lanes;
    ASSERT_EQ(jump.clocks.size(), 1u);
    const ClockTrack& store = jump.clocks[0];
    EXPECT_EQ(store.node, "store");
    // True time until the jump at tick 5, then 300 ms (600 half ms) ahead: a step.
    EXPECT_EQ(clock_offset_half_ms(store, 4), 0);
    EXPECT_EQ(clock_offset_before_jumps_half_ms(store, 5), 0);
    EXPECT_EQ(clock_offset_half_ms(store, 5), 600);
    EXPECT_EQ(clock_offset_half_ms(store, 9), 600);
    EXPECT_EQ(store.max_half_ms, 600);
    EXPECT_EQ(store.min_half_ms, 0);

    const LaneModel drift = run_scenario(test::load_preset("client-clock-drift")).lanes;
    ASSERT_EQ(drift.clocks.size(), 1u);
    const ClockTrack& a = drift.clocks[0];
    EXPECT_EQ(a.node, "node-a");
    // model.md §3.3 rule 1: c(m) = floor(m·(10^6 + P)/10^6), m = (2t + 1)·tick_ms.
    const DriftClock clock{50, -700000};
    for (Tick t = 0; t <= drift.end_tick; ++t) {
        const std::int64_t m = clock_moment_half_ms(t, 50);
        EXPECT_EQ(clock_offset_half_ms(a, t), clock.reading(m) - m) << t;
    }
    EXPECT_LT(clock_offset_half_ms(a, 10), clock_offset_half_ms(a, 5));  // a slope: further behind each tick

    // The drawn line: the step is vertical, at the jump's tick, from true time up.
    const TimelineFrame f =
        build_timeline_frame(jump, whole_run(jump, 2000), test::string_tables(Lang::en), estimated_metrics(17, 13));
    ASSERT_EQ(f.clocks.size(), 1u);
    const FrameClockLane& lane = f.clocks[0];
    const auto x5 = static_cast<float>(f.axis.x_of(5.0));
    int steps = 0;
    for (std::size_t i = 1; i < lane.line.size(); ++i)
        if (lane.line[i].first == lane.line[i - 1].first && lane.line[i].second < lane.line[i - 1].second) {
            ++steps;
            EXPECT_FLOAT_EQ(lane.line[i].first, x5);
            EXPECT_FLOAT_EQ(lane.line[i - 1].second, lane.zero_y);
        }
    EXPECT_EQ(steps, 1);
    EXPECT_GE(lane.box.y0, f.lanes.back().box.y1 - 0.01f);  // under the lanes
}

TEST(TimelineFrame, ClockLaneWordsInBothLanguages) {
    const TextMetrics metrics = estimated_metrics(17, 13);
    const LaneModel jump = run_scenario(test::load_preset("store-clock-jump")).lanes;
    const LaneModel drift = run_scenario(test::load_preset("client-clock-drift")).lanes;
    const auto frame = [&](const LaneModel& m, Lang lang) {
        TimelineViewport v = whole_run(m, 2000);
        v.label_w = 150;  // as the app sizes it for these titles
        return build_timeline_frame(m, v, test::string_tables(lang), metrics);
    };
    EXPECT_EQ(frame(jump, Lang::en).clocks.at(0).title, "Redis's clock");
    EXPECT_EQ(frame(jump, Lang::en).clocks.at(0).axis, "300 ms ahead");
    EXPECT_EQ(frame(jump, Lang::ko).clocks.at(0).title, "Redis의 시계");
    EXPECT_EQ(frame(jump, Lang::ko).clocks.at(0).axis, "300 ms 빠름");
    const FrameClockLane en = frame(drift, Lang::en).clocks.at(0);
    const FrameClockLane ko = frame(drift, Lang::ko).clocks.at(0);
    EXPECT_EQ(en.title, "node-a's clock");
    EXPECT_EQ(ko.title, "node-a의 시계");
    EXPECT_NE(en.axis.find(" ms behind"), std::string::npos) << en.axis;
    EXPECT_NE(ko.axis.find(" ms 느림"), std::string::npos) << ko.axis;
}

// The SVG painter draws the clock lanes from the same frame: the lane's title,
// its axis words and its line; a run whose clocks are all true time has none.
TEST(TimelineFrame, SvgPaintsTheClockLanes) {
    const Strings ko = test::string_tables(Lang::ko);
    const auto svg = [&](const std::string& name) {
        const LaneModel model = run_scenario(test::load_preset(name)).lanes;
        SvgOptions o;
        o.last = model.end_tick;
        return timeline_svg(model, default_palette(), ko, o);
    };
    const std::string jump = svg("store-clock-jump");
    EXPECT_NE(jump.find(">Redis의 시계</text>"), std::string::npos);
    EXPECT_NE(jump.find(">300 ms 빠름</text>"), std::string::npos);
    EXPECT_NE(jump.find("<polyline class=\"clock\""), std::string::npos);
    const std::string plain = svg("expiry-takeover");
    EXPECT_EQ(plain.find("시계"), std::string::npos);
    EXPECT_EQ(plain.find("class=\"clock\""), std::string::npos);
}

// The message view (model.md §16.6) under the lanes, only for a run with
// time on the wire: a row per node that sends, Redis's and the resource's,
// titled in the view's language, and an arrow per message from the middle
// of its send tick to the middle of its arrival tick, each found by hit_test.
TEST(TimelineFrame, MessageViewTitlesArrowsAndHitBoxes) {
    const TextMetrics metrics = estimated_metrics(17, 13);
    const ShownRun run = run_scenario(test::load_preset("delayed-write"));
    const LaneModel& model = run.lanes;
    const sim::Trace& trace = run.timeline->trace();
    for (const Lang lang : {Lang::en, Lang::ko}) {
        const TimelineFrame f = build_timeline_frame(model, whole_run(model, 600), test::string_tables(lang), metrics);
        ASSERT_EQ(f.message_lanes.size(), 4u);
        EXPECT_EQ(f.message_lanes[0].title, "node-a");
        EXPECT_EQ(f.message_lanes[1].title, "node-b");
        EXPECT_EQ(f.message_lanes[2].title, "Redis");
        EXPECT_EQ(f.message_lanes[3].title, lang == Lang::ko ? "자원" : "resource");
        EXPECT_GE(f.messages_box.y0, f.lanes.back().box.y1 - 0.01f);  // under the lanes
        EXPECT_LE(f.messages_box.y1, 50 + 600 + 0.01f);               // inside the timeline
        EXPECT_FLOAT_EQ(frame_bottom(f), f.messages_box.y1);
        for (std::size_t i = 1; i < f.message_lanes.size(); ++i)
            EXPECT_GE(f.message_lanes[i].title_box.y0, f.message_lanes[i - 1].title_box.y1 - 0.01f);
        ASSERT_EQ(f.arrows.size(), model.messages.messages.size());
        // node-a's late write: from node-a's row at tick 4.5 down to the resource's at 12.5.
        const FrameArrow* late = nullptr;
        for (const FrameArrow& a : f.arrows)
            if (a.late) late = &a;
        ASSERT_NE(late, nullptr);
        const Message& m = model.messages.messages[static_cast<std::size_t>(late->message)];
        EXPECT_EQ(m.sent, 4);
        EXPECT_EQ(m.arrived, 12);
        EXPECT_FLOAT_EQ(late->x0, static_cast<float>(f.axis.x_of(4.5)));
        EXPECT_FLOAT_EQ(late->x1, static_cast<float>(f.axis.x_of(12.5)));
        EXPECT_FLOAT_EQ(late->y0, f.message_lanes[0].mid_y);
        EXPECT_FLOAT_EQ(late->y1, f.message_lanes[3].mid_y);
        EXPECT_TRUE(late->head);
        // Its middle finds it; a point far from every arrow finds nothing.
        const FrameHit hit = hit_test(f, (late->x0 + late->x1) * 0.5f, (late->y0 + late->y1) * 0.5f);
        EXPECT_EQ(hit.arrow, static_cast<std::int32_t>(late - f.arrows.data()));
        EXPECT_EQ(hit.lane, -1);
        // A click on it selects the write it carried: node-a's, reported at its arrival.
        const std::int32_t clicked = event_at(model, f, hit);
        ASSERT_GE(clicked, 0);
        const sim::Event& e = trace.events[static_cast<std::size_t>(clicked)];
        EXPECT_EQ(e.op, sim::EventOp::write);
        EXPECT_EQ(e.node, "node-a");
        EXPECT_EQ(e.tick, 12);
        EXPECT_EQ(event_at(model, f, FrameHit{}), -1);
        EXPECT_EQ(hit_test(f, f.plot_x + f.plot_w - 1, f.message_lanes[0].box.y0 + 1).arrow, -1);
    }
}

// A run without time on the wire keeps today's frame: no message view, the
// lanes as high as before.
TEST(TimelineFrame, NoMessageViewWithoutTimeOnTheWire) {
    const TextMetrics metrics = estimated_metrics(17, 13);
    const Strings en = test::string_tables(Lang::en);
    for (const std::string& name : test::app_preset_names()) {
        const LaneModel model = run_scenario(test::load_preset(name)).lanes;
        const TimelineFrame f = build_timeline_frame(model, whole_run(model, 600), en, metrics);
        EXPECT_EQ(f.message_lanes.empty(), model.messages.messages.empty()) << name;
        EXPECT_EQ(f.arrows.empty(), model.messages.messages.empty()) << name;
        if (model.messages.messages.empty()) {
            EXPECT_EQ(f.messages_box.h(), 0) << name;
        }
    }
    // A timeline too short for it: the lanes keep the room, no message view.
    const LaneModel wire = run_scenario(test::load_preset("late-reply")).lanes;
    EXPECT_TRUE(build_timeline_frame(wire, whole_run(wire, 120), en, metrics).message_lanes.empty());
}

// Zoomed in, an arrow that leaves the plot is cut at its edge, without its head.
TEST(TimelineFrame, MessageArrowsAreCutToThePlot) {
    const LaneModel model = run_scenario(test::load_preset("delayed-write")).lanes;
    TimelineViewport v = whole_run(model, 600);
    v.first_tick = 0;
    v.px_per_tick = (v.width - v.label_w) / 8.0;  // ticks 0 … 8 in view
    const TimelineFrame f = build_timeline_frame(model, v, test::string_tables(Lang::en), estimated_metrics(17, 13));
    bool cut = false;
    for (const FrameArrow& a : f.arrows) {
        EXPECT_GE(std::min(a.x0, a.x1), f.plot_x - 0.01f);
        EXPECT_LE(std::max(a.x0, a.x1), f.plot_x + f.plot_w + 0.01f);
        if (a.late) {
            cut = true;
            EXPECT_FALSE(a.head);
            EXPECT_FLOAT_EQ(a.x1, f.plot_x + f.plot_w);
        }
    }
    EXPECT_TRUE(cut);
}

// The SVG export paints the message view from the same frame: its titles and
// each arrow, the late one in its class and saying when it was sent and
// arrived, and its legend entries.
TEST(TimelineFrame, SvgPaintsTheMessageView) {
    const auto svg = [&](const std::string& name, Lang lang) {
        const LaneModel model = run_scenario(test::load_preset(name)).lanes;
        SvgOptions o;
        o.last = model.end_tick;
        return timeline_svg(model, default_palette(), test::string_tables(lang), o);
    };
    const std::string en = svg("delayed-write", Lang::en);
    EXPECT_NE(en.find(">Redis</text>"), std::string::npos);
    EXPECT_NE(en.find("<g class=\"message late\"><title>Write from node-a: sent at tick 4, arrived at tick 12."),
              std::string::npos);
    const std::string ko = svg("late-reply", Lang::ko);
    EXPECT_NE(ko.find("<g class=\"message late\"><title>node-a에게 가는 획득 응답: 0틱에 보내 7틱에 도착했습니다."),
              std::string::npos);
    // The legend names each look of arrow the run has, once.
    EXPECT_NE(en.find(">message: sent → arrived</text>"), std::string::npos);
    EXPECT_NE(en.find(">late message: longer than its link's latency</text>"), std::string::npos);
    EXPECT_EQ(en.find("lost message"), std::string::npos);  // delayed-write loses none
    EXPECT_NE(ko.find(">늦은 메시지: 링크의 지연보다 오래 걸림</text>"), std::string::npos);
    EXPECT_EQ(svg("expiry-takeover", Lang::en).find("class=\"message"), std::string::npos);
}

// A call that timed out before Redis applied its request (node-a's, held 5
// ticks by a delay, command timeout 3): its request arrow reaches Redis at
// tick 6, its reply ends in a cross half-way back to node-a at tick 6, and
// the SVG's legend names the lost look.
TEST(TimelineFrame, LostReplyEndsInACrossHalfWay) {
    const char* json = R"({"name": "lost", "tick_ms": 50, "horizon": 30, "seed": 7,
        "lock": {"name": "billing", "capacity": 1}, "resource": {"mode": "check"},
        "defaults": {"lease": 10, "command_timeout": 3}, "network": {"request": 1, "reply": 1, "write": 2},
        "candidates": [{"name": "node-a", "start": 0, "wait": 20, "action": 5, "writes": [2]},
                       {"name": "node-b", "start": 1, "wait": 20, "action": 4, "writes": [1]}],
        "faults": [{"kind": "delay", "node": "node-a", "at": 0, "ticks": 1, "link": "request", "extra": 5}]})";
    auto parsed = sim::parse_scenario(json, "<lost>");
    ASSERT_TRUE(parsed.ok()) << parsed.error().to_string();
    const LaneModel model = run_scenario(std::move(parsed).value()).lanes;
    const TimelineFrame f =
        build_timeline_frame(model, whole_run(model, 600), test::string_tables(Lang::en), estimated_metrics(17, 13));
    ASSERT_EQ(f.message_lanes.size(), 4u);
    const float node_a = f.message_lanes[0].mid_y, redis = f.message_lanes[2].mid_y;
    int lost = 0;
    for (const FrameArrow& a : f.arrows) {
        const Message& m = model.messages.messages[static_cast<std::size_t>(a.message)];
        if (!a.lost) continue;
        ++lost;
        EXPECT_EQ(m.kind, MessageKind::reply);
        EXPECT_EQ(m.sent, 6);
        EXPECT_FLOAT_EQ(a.y0, redis);
        EXPECT_FLOAT_EQ(a.y1, (redis + node_a) * 0.5f);
        EXPECT_FLOAT_EQ(a.x1, static_cast<float>(f.axis.x_of(6.5)));
    }
    EXPECT_EQ(lost, 1);
    SvgOptions o;
    o.last = model.end_tick;
    const std::string svg = timeline_svg(model, default_palette(), test::string_tables(Lang::ko), o);
    EXPECT_NE(svg.find("<g class=\"message lost\">"), std::string::npos);
    EXPECT_NE(svg.find(">유실된 메시지: 읽히지 않았거나 응답이 없음</text>"), std::string::npos);
}

// Zoomed out over a long run, the messages of one node and kind that fall on
// the same pixels are one arrow: the frame holds at most one per pixel
// column, node, kind and look, not one per message.
TEST(TimelineFrame, MessagesOnTheSamePixelsAreOneArrow) {
    sim::GeneratorOptions o;
    o.candidates = 3;
    o.horizon = 40000;
    o.seed = 11;
    o.latencies = true;
    auto parsed = sim::parse_scenario(sim::generate_scenario(o), "<generated>");
    ASSERT_TRUE(parsed.ok()) << parsed.error().to_string();
    const LaneModel model = run_scenario(std::move(parsed).value()).lanes;
    const TimelineFrame f =
        build_timeline_frame(model, whole_run(model, 600), test::string_tables(Lang::en), estimated_metrics(17, 13));
    ASSERT_FALSE(f.message_lanes.empty());
    const std::size_t bound =
        static_cast<std::size_t>(f.plot_w + 2) * model.messages.nodes.size() * 3 * 3;  // columns, nodes, kinds, looks
    EXPECT_GT(model.messages.messages.size(), 2 * f.arrows.size());
    EXPECT_LE(f.arrows.size(), bound);
    EXPECT_GT(f.arrows.size(), 100u);
}

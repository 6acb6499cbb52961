// The time beside a tick in a simulated run (core/tick_clock.hpp, model.md
// §11.7 item 5), as the frame builder and the views get it: every ruler
// number and the playhead's badge say "t · M:SS.mmm" with the time that
// `leasescope-cli show --time` prints (sim::elapsed_text at the scenario's
// tick_ms), no two numbers overlap and each has its gridline; an event's Time
// cell is its tick's start; the words that carry a time render whole in both
// languages, the record card's TTL in time among them. A recorded history
// keeps its wall clock (replay_test.cpp).
#include "support/preset_loader.hpp"
#include <gtest/gtest.h>

#include "core/lane_layout.hpp"
#include "core/lanes.hpp"
#include "core/tick_clock.hpp"
#include "core/timeline_frame.hpp"
#include "leasescope/sim/durations.hpp"
#include "leasescope/sim/scenario.hpp"
#include "support/string_tables.hpp"

using namespace leasescope;
using namespace leasescope::gui;

namespace {

// The whole run across a timeline `width` wide, the playhead at `playhead`.
TimelineViewport whole_run(const LaneModel& model, float width, Tick playhead) {
    TimelineViewport v;
    v.x = 10;
    v.y = 50;
    v.width = width;
    v.height = 2000;
    const TimeAxis axis = fit_axis(0, model.end_tick + 1, v.x + v.label_w, v.width - v.label_w);
    v.first_tick = axis.first_tick;
    v.px_per_tick = axis.px_per_tick;
    v.playhead = playhead;
    return v;
}

std::string tick_and_time(Tick t, std::int64_t tick_ms) {
    return std::to_string(t) + " \u00b7 " + sim::elapsed_text(t, tick_ms);
}

}  // namespace

TEST(TickTime, ASimulatedRunsClockIsTheTimeSinceTickZero) {
    for (const std::string& name : test::preset_names()) {
        const sim::Scenario scenario = test::load_preset(name);
        const ShownRun run = run_scenario(scenario);
        EXPECT_FALSE(run.lanes.clock.wall.has_value()) << name;
        EXPECT_EQ(run.lanes.clock.tick_ms, scenario.tick_ms) << name;
        EXPECT_EQ(run.lanes.clock.at(0), "0:00.000") << name;
    }
    const TickClock clock{50, std::nullopt};
    EXPECT_EQ(clock.at(25), "0:01.250");
    EXPECT_EQ(clock.at(24'000), "20:00.000");
    EXPECT_EQ(clock.at(72'000), "1:00:00.000");
    EXPECT_EQ((TickClock{1000, std::nullopt}.at(7)), "0:07.000");
}

// The frame's ruler for every preset, at the timeline widths of a 1280×800
// and a 1920×1080 window, with the playhead at each tick: numbers and badge
// carry the CLI's time, never overlap one another or the badge, stay in the
// plot, sit on a gridline, and one shows beside the badge at least.
TEST(TickTime, EveryRulerNumberOfASimulatedRunSaysItsTime) {
    const TextMetrics metrics = estimated_metrics(17, 13);
    const Strings strings = test::string_tables(Lang::en);
    for (const std::string& name : test::preset_names()) {
        const ShownRun run = run_scenario(test::load_preset(name));
        const LaneModel& model = run.lanes;
        const std::int64_t tick_ms = model.clock.tick_ms;
        for (const float width : {900.0f, 1400.0f}) {
            for (Tick t = 0; t <= model.end_tick; ++t) {
                const TimelineFrame f = build_timeline_frame(model, whole_run(model, width, t), strings, metrics);
                const RulerLayout& r = f.ruler;
                ASSERT_TRUE(r.playhead_visible) << name;
                EXPECT_EQ(r.badge_text, tick_and_time(t, tick_ms)) << name;
                ASSERT_GE(r.labels.size() + 1, 2u) << name << " at width " << width << ", playhead " << t;
                const Tick grid = ruler_grid_step(r.step, f.axis.px_per_tick, 46.0f);
                EXPECT_EQ(r.step % grid, 0) << name;
                for (std::size_t i = 0; i < r.labels.size(); ++i) {
                    const RulerLabel& l = r.labels[i];
                    EXPECT_EQ(l.text, tick_and_time(l.tick, tick_ms)) << name;
                    EXPECT_EQ(l.tick % r.step, 0) << name;
                    EXPECT_FALSE(l.box.intersects(r.badge)) << name << ": " << l.text << " under the badge " << t;
                    EXPECT_GE(l.box.x0, f.plot_x) << name;
                    EXPECT_LE(l.box.x1, f.plot_x + f.plot_w) << name;
                    if (i > 0) {
                        EXPECT_LT(r.labels[i - 1].box.x1 + 4, l.box.x0) << name << ": " << l.text;
                    }
                }
            }
        }
    }
}

// The gridlines divide the labels' step, so every number has its line.
TEST(TickTime, GridlinesDivideTheLabelsStep) {
    EXPECT_EQ(ruler_grid_step(10, 10.0, 20.0f), 2);
    EXPECT_EQ(ruler_grid_step(10, 5.0, 20.0f), 5);
    EXPECT_EQ(ruler_grid_step(10, 1.0, 20.0f), 10);
    EXPECT_EQ(ruler_grid_step(50, 3.0, 20.0f), 10);
    EXPECT_EQ(ruler_grid_step(1, 100.0, 20.0f), 1);
    for (Tick step = 1; step <= 5'000'000; step *= 10)
        for (const Tick lead : {Tick{1}, Tick{2}, Tick{5}})
            for (const double px : {0.01, 0.3, 1.0, 7.0, 60.0})
                EXPECT_EQ((lead * step) % ruler_grid_step(lead * step, px, 46.0f), 0);
}

// An event's Time cell (the event table) is its tick's start, as `show --time` writes it.
TEST(TickTime, AnEventsTimeIsItsTicksStart) {
    std::size_t told = 0;
    for (const std::string& name : test::preset_names()) {
        const ShownRun run = run_scenario(test::load_preset(name));
        for (const sim::Event& e : run.timeline->trace().events) {
            EXPECT_EQ(run.lanes.clock.of(e), sim::elapsed_text(e.tick, run.timeline->trace().header.tick_ms)) << name;
            ++told;
        }
    }
    EXPECT_GT(told, 100u);
}

// The words with a time, in both languages: every key found, every field
// filled, the time in them the clock's; the record panel's "end of tick t" is
// tick t + 1's start; a recorded history says UTC and keeps its own time.
TEST(TickTime, WordsWithATimeRenderWholeInBothLanguages) {
    const TickClock simulated{50, std::nullopt};
    const TickClock recorded{100, WallClock{1796376600000000, 100}};  // 2026-12-04 09:30:00 UTC
    for (const Lang lang : {Lang::en, Lang::ko}) {
        const Strings s = test::string_tables(lang);
        for (const Tick t : {Tick{0}, Tick{7}, Tick{41}, Tick{1200}}) {
            for (const TickClock& clock : {simulated, recorded}) {
                const std::vector<std::string> lines = {playhead_time_words(clock, t, s),
                                                        time_column_words(clock, s),
                                                        tick_time_words(clock, t, s),
                                                        state_at_words(clock, t, s),
                                                        tick_start_words(clock, t, s),
                                                        ttl_time_words(clock, 6, Tick{20}, t + 6, s),
                                                        ttl_time_words(clock, 6, std::nullopt, t + 6, s)};
                for (const std::string& line : lines) {
                    EXPECT_FALSE(line.empty());
                    EXPECT_EQ(line.find_first_of("{}"), std::string::npos) << line;
                    EXPECT_EQ(line.find("transport."), std::string::npos) << line;  // a missing key shows as itself
                    EXPECT_EQ(line.find("col."), std::string::npos) << line;
                    EXPECT_EQ(line.find("record."), std::string::npos) << line;
                }
                EXPECT_NE(lines[0].find(clock.at(t)), std::string::npos) << lines[0];
                EXPECT_NE(lines[2].find(std::to_string(t) + " \u00b7 " + clock.at(t)), std::string::npos) << lines[2];
                EXPECT_NE(lines[3].find(clock.at(t + 1)), std::string::npos) << lines[3];
                EXPECT_NE(lines[3].find(std::to_string(t)), std::string::npos) << lines[3];
                // Explain's sentence counts from tick 0 on either clock.
                EXPECT_NE(lines[4].find(sim::elapsed_text(t, clock.tick_ms)), std::string::npos) << lines[4];
                for (const std::size_t k : {std::size_t{5}, std::size_t{6}}) {
                    EXPECT_NE(lines[k].find(sim::duration_text(6 * clock.tick_ms * 1000)), std::string::npos);
                    EXPECT_NE(lines[k].find(clock.at(t + 6)), std::string::npos) << lines[k];
                }
                EXPECT_NE(lines[5].find(sim::duration_text(20 * clock.tick_ms * 1000)), std::string::npos);
                EXPECT_EQ(lines[0].find("UTC") != std::string::npos, clock.wall.has_value()) << lines[0];
                EXPECT_EQ(lines[1].find("UTC") != std::string::npos, clock.wall.has_value()) << lines[1];
            }
        }
    }
    const Strings en = test::string_tables(Lang::en);
    EXPECT_EQ(playhead_time_words(simulated, 25, en), "0:01.250 elapsed");
    EXPECT_EQ(tick_time_words(simulated, 25, en), "tick 25 \u00b7 0:01.250");
    EXPECT_EQ(state_at_words(simulated, 25, en), "state at the end of tick 25, at 0:01.300");
    EXPECT_EQ(ttl_time_words(simulated, 6, Tick{20}, 18, en), "= 300ms of 1s \u00b7 expires at 0:00.900");
    EXPECT_EQ(playhead_time_words(recorded, 41, en), "09:30:04.100 UTC");
    sim::Event line;
    line.tick = 41;
    EXPECT_EQ(recorded.of(line), "\u2013");  // a recorded line without its time
    line.wall_us = 1796376600000000 + 4'123'000;
    EXPECT_EQ(recorded.of(line), "09:30:04.123");
}

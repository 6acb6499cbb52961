// The timeline's layout (core/lane_layout.hpp) for every preset, in both
// languages, at the sizes a class sees (1600×900 and 1280×720): no mark covers
// another, no word covers a mark or a word, every event's mark is shown (a
// write and a release on one tick both), the resource lane never shows more
// writes than the resource counts, and no tick number hides under the
// playhead's badge. Text widths are estimated (a Latin letter 0.62 em, a
// Hangul syllable 1 em), a little wider than the app's fonts.
#include "support/preset_loader.hpp"
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <set>

#include "core/lane_layout.hpp"
#include "core/lanes.hpp"
#include "core/marks.hpp"
#include "core/palette.hpp"
#include "core/strings.hpp"
#include "support/string_tables.hpp"
#include "leasescope/sim/scenario.hpp"
#include "leasescope/words/redisson_facts.hpp"
#include "leasescope/words/redlock_facts.hpp"

using namespace leasescope;
using namespace leasescope::gui;

namespace {

using test::app_preset_names;

// The timeline panel's plot at the two window sizes (what view_timeline gives the layout).
struct Size {
    const char* name;
    float plot_w;
    float lanes_h;  // the height the lanes share
};
constexpr Size sizes[] = {{"1600x900", 820, 270}, {"1280x720", 650, 160}, {"1280x720, many lanes", 650, 110}};

// The ticks [first, end) a check looks at: the whole run fitted to the plot,
// or, for a run too long for 14 px a tick (Redlock's presets count 50 ms
// ticks, 130 to 380 of them), consecutive parts that each get that much, as
// a teacher zooms in. Every elector preset fits whole.
std::vector<std::pair<Tick, Tick>> windows(const LaneModel& model, const Size& size) {
    const Tick n = model.end_tick + 1;
    const auto parts = std::max<Tick>(1, static_cast<Tick>(std::ceil(static_cast<double>(n) * 14.0 / size.plot_w)));
    std::vector<std::pair<Tick, Tick>> out;
    for (Tick p = 0; p < parts; ++p) out.emplace_back(n * p / parts, n * (p + 1) / parts);
    return out;
}

LayoutFrame frame_for(const LaneModel& model, const Size& size, Tick resource_until,
                      std::pair<Tick, Tick> window = {0, tick_none}) {
    LayoutFrame f;
    f.plot_x = 120;
    f.plot_w = size.plot_w;
    const Tick end = window.second == tick_none ? model.end_tick + 1 : window.second;
    f.axis = fit_axis(window.first, end, f.plot_x, f.plot_w);
    f.lanes_top = 100;
    f.lane_h =
        std::clamp(size.lanes_h / static_cast<float>(std::max<std::size_t>(1, model.lanes.size())), 20.0f, 50.0f);
    f.first_lane = 0;
    f.last_lane = static_cast<int>(model.lanes.size()) - 1;
    f.resource_until = resource_until;
    return f;
}

std::string where(const std::string& name, const Size& size, Lang lang, Tick t) {
    return name + " at " + size.name + " (" + lang_code(lang) + ", playhead " + std::to_string(t) + ")";
}

}  // namespace

// Nothing covers anything: marks, words, lanes.
TEST(LaneLayout, NoCollisionsInAnyPreset) {
    const TextMetrics metrics = estimated_metrics(17, 13);
    for (Lang lang : {Lang::en, Lang::ko}) {
        const Strings strings = test::string_tables(lang);
        for (const std::string& name : app_preset_names()) {
            const ShownRun run = run_scenario(test::load_preset(name));
            const LaneModel& model = run.lanes;
            for (const Size& size : sizes) {
                for (const auto& window : windows(model, size))
                    for (Tick t : {Tick{0}, model.end_tick / 2, model.end_tick}) {
                        const LayoutFrame f = frame_for(model, size, t, window);
                        LaneLayout layout;
                        layout_lanes(model, f, strings, metrics, layout);
                        const std::string at =
                            where(name, size, lang, t) + " from tick " + std::to_string(window.first);
                        ASSERT_FALSE(layout.overview) << at;
                        for (std::size_t i = 0; i < layout.marks.size(); ++i)
                            for (std::size_t j = i + 1; j < layout.marks.size(); ++j)
                                EXPECT_FALSE(layout.marks[i].box.intersects(layout.marks[j].box))
                                    << at << ": two marks overlap on lane " << layout.marks[i].lane << " ("
                                    << marker_kind_name(layout.marks[i].kind) << ", "
                                    << marker_kind_name(layout.marks[j].kind) << ")";
                        for (std::size_t i = 0; i < layout.labels.size(); ++i) {
                            const PlacedLabel& l = layout.labels[i];
                            const float lane_y = f.lanes_top + f.lane_h * static_cast<float>(l.lane);
                            EXPECT_TRUE(
                                (Box{f.plot_x, lane_y, f.plot_x + f.plot_w, lane_y + f.lane_h + 0.01f}.contains(l.box)))
                                << at << ": \"" << l.text << "\" leaves its lane";
                            for (const PlacedMark& m : layout.marks)
                                EXPECT_FALSE(l.box.intersects(m.box)) << at << ": \"" << l.text << "\" covers a mark ("
                                                                      << marker_kind_name(m.kind) << ")";
                            for (std::size_t j = i + 1; j < layout.labels.size(); ++j)
                                EXPECT_FALSE(l.box.intersects(layout.labels[j].box))
                                    << at << ": \"" << l.text << "\" and \"" << layout.labels[j].text << "\" overlap";
                        }
                    }
            }
        }
    }
}

// Every event's mark is on screen at the fitted zoom, marks of one tick side
// by side or stacked (a write and a release on one tick both show). Only a
// run's start gives way to the attempt on the same tick.
TEST(LaneLayout, EveryMarkShowsAtTheFittedZoom) {
    const TextMetrics metrics = estimated_metrics(17, 13);
    const Strings strings = test::string_tables(Lang::en);
    for (const std::string& name : app_preset_names()) {
        const ShownRun run = run_scenario(test::load_preset(name));
        const LaneModel& model = run.lanes;
        for (const Size& size : sizes)
            for (const auto& [first, end] : windows(model, size)) {
                LaneLayout layout;
                layout_lanes(model, frame_for(model, size, tick_none, {first, end}), strings, metrics, layout);
                std::set<std::pair<std::int32_t, std::int32_t>> shown;
                for (const PlacedMark& m : layout.marks) {
                    EXPECT_EQ(m.folded, 1) << name << " at " << size.name << ": marks fold on lane " << m.lane;
                    shown.insert({m.lane, m.marker});
                }
                for (std::size_t li = 0; li < model.lanes.size(); ++li) {
                    const Lane& lane = model.lanes[li];
                    for (std::size_t k = 0; k < lane.markers.size(); ++k) {
                        const Marker& mk = lane.markers[k];
                        if (mk.tick < first || mk.tick >= end) continue;  // another window's
                        bool alone = true;
                        for (const Marker& other : lane.markers)
                            if (&other != &mk && other.tick == mk.tick) alone = false;
                        if (mk.kind == MarkerKind::start && !alone) continue;
                        EXPECT_TRUE(shown.count({static_cast<std::int32_t>(li), static_cast<std::int32_t>(k)}))
                            << name << " at " << size.name << ": the " << marker_kind_name(mk.kind) << " mark of tick "
                            << mk.tick << " on lane " << lane.label << " is not shown";
                    }
                }
            }
    }
}

// The resource lane shows exactly the writes the resource panel counts at the
// playhead (accepted + rejected), with the right mark for each verdict.
TEST(LaneLayout, ResourceLaneMatchesTheResourceCounts) {
    const TextMetrics metrics = estimated_metrics(17, 13);
    const Strings strings = test::string_tables(Lang::en);
    for (const std::string& name : app_preset_names()) {
        const ShownRun run = run_scenario(test::load_preset(name));
        const sim::Timeline& timeline = *run.timeline;
        const LaneModel& model = run.lanes;
        for (Tick t = 0; t <= model.end_tick; ++t) {
            LaneLayout layout;
            layout_lanes(model, frame_for(model, sizes[0], t), strings, metrics, layout);
            const sim::Snapshot snap = timeline.snapshot_at(t);
            // A Redlock or Redisson run's resource panel counts from the trace's fold (rules 20.6 and
            // 21.6: every write accepted).
            const int format = timeline.trace().header.format;
            const std::int64_t want_accepted =
                format == 5   ? words::redlock_facts_at(timeline.trace(), t).writes
                : format == 6 ? words::redisson_facts_at(timeline.trace(), &timeline.scenario(), t).writes
                              : snap.resource.accepted;
            std::int64_t accepted = 0, rejected = 0;
            for (const PlacedMark& m : layout.marks) {
                if (model.lanes[static_cast<std::size_t>(m.lane)].kind != LaneKind::resource) continue;
                if (m.kind == MarkerKind::write_current || m.kind == MarkerKind::write_stale ||
                    m.kind == MarkerKind::write_unsafe || m.kind == MarkerKind::write_lost_update)
                    ++accepted;
                else if (m.kind == MarkerKind::write_rejected_fence || m.kind == MarkerKind::write_rejected_token ||
                         m.kind == MarkerKind::write_holder_rejected)
                    ++rejected;
                else
                    ADD_FAILURE() << name << ": a " << marker_kind_name(m.kind) << " mark on the resource lane";
            }
            EXPECT_EQ(accepted, want_accepted) << name << " at tick " << t;
            EXPECT_EQ(rejected, snap.resource.rejected) << name << " at tick " << t;
        }
    }
}

// The playhead's number never sits on a tick number ("15 [15]6"), and tick
// numbers (each with its time, "40 · 0:02.000") never overlap each other, for
// every playhead position.
TEST(LaneLayout, RulerNumbersGiveWayToThePlayhead) {
    const TextMetrics metrics = estimated_metrics(17, 13);
    for (const std::string& name : app_preset_names()) {
        sim::Timeline timeline(test::load_preset(name));
        const Tick end = timeline.end_tick();
        for (const Size& size : sizes) {
            const TimeAxis axis = fit_axis(0, end + 1, 120, size.plot_w);
            for (Tick t = 0; t <= end; ++t) {
                const RulerLayout r =
                    layout_ruler(axis, 120, size.plot_w, 60, 27, t, metrics, tick_clock_of(timeline.trace()));
                ASSERT_TRUE(r.playhead_visible);
                for (std::size_t i = 0; i < r.labels.size(); ++i) {
                    EXPECT_FALSE(r.labels[i].box.intersects(r.badge)) << name << " at " << size.name << ": tick number "
                                                                      << r.labels[i].text << " under the badge " << t;
                    if (i > 0) {
                        EXPECT_LT(r.labels[i - 1].box.x1, r.labels[i].box.x0) << name;
                    }
                }
            }
        }
    }
}

// Narrated play's stopping rule over every preset: it stops exactly at the
// ticks whose events the timeline draws with an alarm mark (the marks the
// event table shows in red) or where an overlap begins, in order, once each,
// and then at the end of the run; and the ready-made pairs name real presets.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "support/preset_loader.hpp"
#include "core/compare_pairs.hpp"
#include "core/lanes.hpp"

using namespace leasescope;
using namespace leasescope::gui;

namespace {

// The ticks with an alarm, read off the lanes the screen draws (not the rule under test).
std::set<Tick> alarm_ticks(const sim::Timeline& tl) {
    std::set<Tick> out;
    const LaneModel model = run_scenario(tl.scenario()).lanes;
    for (const Lane& lane : model.lanes)
        for (const Marker& m : lane.markers)
            if (is_alarm(m.kind)) out.insert(m.tick);
    for (const Span& sp : model.overlap) out.insert(sp.begin);  // the overlap band's first tick
    return out;
}

}  // namespace

TEST(Narration, StopsWhereTheTimelineShowsAnAlarmInEveryPreset) {
    const auto names = test::app_preset_names();
    ASSERT_GE(names.size(), 18u);
    int presets_with_stops = 0;
    for (const std::string& name : names) {
        SCOPED_TRACE(name);
        sim::Timeline tl(test::load_preset(name));
        const auto stops = narration_stops(tl.trace(), tl.scenario().resource);
        const std::set<Tick> expected = alarm_ticks(tl);
        EXPECT_EQ(std::set<Tick>(stops.begin(), stops.end()), expected);
        EXPECT_TRUE(std::is_sorted(stops.begin(), stops.end()));
        EXPECT_EQ(std::adjacent_find(stops.begin(), stops.end()), stops.end());
        if (!stops.empty()) ++presets_with_stops;
        // Played from tick 0 with space pressed at every stop, narration visits
        // each stop once, in order, then the end, whatever the step per frame.
        const Tick end = tl.end_tick();
        for (Tick per_frame : {Tick{1}, Tick{3}, Tick{1000}}) {
            std::vector<Tick> visited;
            Tick at = 0;
            for (int guard = 0; at < end && guard < 100000; ++guard) {
                bool stopped = false;
                at = narrate_advance(stops, at, per_frame, end, stopped);
                if (stopped) visited.push_back(at);
            }
            EXPECT_EQ(at, end);
            std::vector<Tick> want;
            for (Tick t : stops)
                if (t > 0 && t <= end) want.push_back(t);
            EXPECT_EQ(visited, want) << "per frame " << per_frame;
        }
    }
    // The lessons with a danger in them stop somewhere.
    EXPECT_GE(presets_with_stops, 8);
}

TEST(Narration, TheUnsafeWriteAndTheRejectedWriteAreStops) {
    sim::Timeline off(test::load_preset("gc-pause-no-fencing"));
    sim::Timeline check(test::load_preset("gc-pause-fencing"));
    const auto s_off = narration_stops(off.trace(), off.scenario().resource);
    const auto s_check = narration_stops(check.trace(), check.scenario().resource);
    for (const auto* stops : {&s_off, &s_check}) EXPECT_NE(std::find(stops->begin(), stops->end(), 15), stops->end());
}

TEST(ComparePairs, EveryReadyMadePairNamesPresets) {
    ASSERT_EQ(ready_pairs().size(), 5u);
    for (const ReadyPair& p : ready_pairs()) {
        EXPECT_EQ(find_ready_pair(p.name), &p);
        test::load_preset(p.a);
        if (!p.b.empty()) test::load_preset(p.b);
        EXPECT_TRUE(!p.b.empty() || !p.b_overrides.empty()) << p.name;
    }
    EXPECT_EQ(find_ready_pair("nope"), nullptr);
}

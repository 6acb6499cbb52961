// One mark per outcome: every outcome a class must tell apart has a
// shape of its own (never colour alone) and a colour of its own, a legend
// entry in both languages, and the trace's events map onto them.
#include "support/preset_loader.hpp"
#include <cmath>

#include <gtest/gtest.h>

#include <set>

#include "core/lanes.hpp"
#include "core/marks.hpp"
#include "core/palette.hpp"
#include "core/strings.hpp"
#include "support/string_tables.hpp"
#include "core/svg.hpp"

using namespace leasescope;
using namespace leasescope::gui;

namespace {

// Two glyphs have the same shape when their parts have the same geometry,
// whatever the ink.
bool same_shape(const Glyph& a, const Glyph& b) {
    if (a.parts.size() != b.parts.size()) return false;
    for (std::size_t i = 0; i < a.parts.size(); ++i) {
        const GlyphPart& p = a.parts[i];
        const GlyphPart& q = b.parts[i];
        if (p.type != q.type || p.points != q.points || p.size != q.size) return false;
    }
    return true;
}

const MarkerKind outcomes[] = {
    MarkerKind::write_current,
    MarkerKind::write_stale,
    MarkerKind::write_unsafe,
    MarkerKind::write_rejected_fence,
    MarkerKind::write_rejected_token,
    MarkerKind::write_rejected_recorded,
    MarkerKind::write_lost_update,
    MarkerKind::write_holder_rejected,
    MarkerKind::acquire_duplicate,
    MarkerKind::release_rejected,
    MarkerKind::release_left_alone,
    MarkerKind::release_no_key,
    MarkerKind::release_error,
    MarkerKind::extend_lost,
    MarkerKind::acquire_error,
    MarkerKind::skip,
    MarkerKind::failover_leases,
    MarkerKind::failover_all,
    MarkerKind::acquire_regressed,
    MarkerKind::acquire,
    MarkerKind::release,
    MarkerKind::extend,
    MarkerKind::expire,
    MarkerKind::crash,
    MarkerKind::unlock_message,
    MarkerKind::unlock_message_lost,
};

sim::Event write_event(sim::Outcome outcome, sim::Details details) {
    sim::Event e;
    e.op = sim::EventOp::write;
    e.outcome = outcome;
    e.details = details;
    return e;
}

}  // namespace

// Both palettes: the default one and projector mode's high-contrast one.
class MarksInPalette : public ::testing::TestWithParam<bool> {
protected:
    Palette palette() const { return GetParam() ? high_contrast_palette() : default_palette(); }
};
INSTANTIATE_TEST_SUITE_P(Palettes, MarksInPalette, ::testing::Values(false, true),
                         [](const auto& p) { return p.param ? "high_contrast" : "default"; });

TEST_P(MarksInPalette, EveryOutcomeHasItsOwnShapeAndColour) {
    const Palette palette = this->palette();
    for (MarkerKind a : outcomes)
        for (MarkerKind b : outcomes) {
            if (a == b) continue;
            EXPECT_FALSE(same_shape(mark_glyph(a), mark_glyph(b)))
                << marker_kind_name(a) << " and " << marker_kind_name(b) << " share a shape";
        }
    // Writes: five outcomes, five colours as well.
    const MarkerKind writes[] = {MarkerKind::write_current, MarkerKind::write_stale, MarkerKind::write_unsafe,
                                 MarkerKind::write_rejected_fence, MarkerKind::write_rejected_token};
    for (MarkerKind a : writes)
        for (MarkerKind b : writes) {
            if (a != b) {
                EXPECT_NE(palette.of(a).hex(), palette.of(b).hex())
                    << marker_kind_name(a) << " " << marker_kind_name(b);
            }
        }
}

namespace {

// A colour as a viewer without red-green discrimination sees it (deuteranopia
// and protanopia, Viénot, Brettel and Mollon 1999, on linear RGB), as 0..1 RGB.
struct Seen {
    double r, g, b;
};
double linear(std::uint8_t c) {
    const double v = c / 255.0;
    return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
}
Seen seen_as(const Rgba& c, bool protan) {
    const double r = linear(c.r), g = linear(c.g), b = linear(c.b);
    if (protan) return {0.11238 * r + 0.88762 * g, 0.11238 * r + 0.88762 * g, 0.00401 * r - 0.00401 * g + b};
    return {0.29275 * r + 0.70725 * g, 0.29275 * r + 0.70725 * g, -0.02234 * r + 0.02234 * g + b};
}
double apart(const Seen& a, const Seen& b) {
    return std::sqrt((a.r - b.r) * (a.r - b.r) + (a.g - b.g) * (a.g - b.g) + (a.b - b.b) * (a.b - b.b));
}

}  // namespace

// Projector mode does not rely on red against green: the five write outcomes
// and the states of a lane (waiting, valid, stale, paused) stay apart for a
// viewer who cannot tell red from green, and none is too pale to see on white.
TEST(Marks, HighContrastOutcomesStayApartWithoutRedGreen) {
    const Palette p = high_contrast_palette();
    const Rgba writes[] = {p.of(MarkerKind::write_current), p.of(MarkerKind::write_stale),
                           p.of(MarkerKind::write_unsafe), p.of(MarkerKind::write_rejected_fence),
                           p.of(MarkerKind::write_rejected_token)};
    const Rgba states[] = {p.of(SpanKind::waiting), p.of(SpanKind::running), p.of(SpanKind::stale),
                           p.of(SpanKind::paused)};
    for (bool protan : {false, true}) {
        for (std::size_t i = 0; i < std::size(writes); ++i)
            for (std::size_t k = i + 1; k < std::size(writes); ++k)
                EXPECT_GT(apart(seen_as(writes[i], protan), seen_as(writes[k], protan)), 0.12)
                    << "writes " << writes[i].hex() << " and " << writes[k].hex()
                    << (protan ? " (protan)" : " (deutan)");
        for (std::size_t i = 0; i < std::size(states); ++i)
            for (std::size_t k = i + 1; k < std::size(states); ++k)
                EXPECT_GT(apart(seen_as(states[i], protan), seen_as(states[k], protan)), 0.12)
                    << "states " << states[i].hex() << " and " << states[k].hex()
                    << (protan ? " (protan)" : " (deutan)");
    }
}

// The default palette leans on red against green for the writes: the test above would catch it.
TEST(Marks, TheDefaultPaletteWouldFailTheRedGreenCheck) {
    const Palette p = default_palette();
    double closest = 1e9;
    for (bool protan : {false, true})
        closest = std::min(closest, apart(seen_as(p.of(MarkerKind::write_current), protan),
                                          seen_as(p.of(MarkerKind::write_stale), protan)));
    EXPECT_LT(closest, 0.12);
}

TEST(Marks, EveryDrawnMarkHasAGlyphAndALegendEntryInBothLanguages) {
    Strings strings = test::string_tables();
    std::set<MarkerKind> listed(legend_marks().begin(), legend_marks().end());
    EXPECT_EQ(listed.size(), legend_marks().size()) << "a mark is listed twice in the legend";
    for (int k = 0; k < static_cast<int>(MarkerKind::count_); ++k) {
        const auto kind = static_cast<MarkerKind>(k);
        EXPECT_FALSE(mark_glyph(kind).parts.empty()) << marker_kind_name(kind);
        if (!has_legend_entry(kind)) continue;
        EXPECT_TRUE(listed.count(kind)) << marker_kind_name(kind) << " is not in the legend";
        const std::string key = std::string("legend.") + marker_kind_name(kind);
        EXPECT_TRUE(strings.has(Lang::en, key)) << key;
        EXPECT_TRUE(strings.has(Lang::ko, key)) << key;
    }
}

// What rejected a write is the resource mode's; what an accepted write was is its detail.
TEST(Marks, WriteOutcomesMapFromTheTrace) {
    using sim::Outcome;
    using sim::ResourceMode;
    EXPECT_EQ(marker_kind_of(write_event(Outcome::accepted, {}), ResourceMode::off), MarkerKind::write_current);
    EXPECT_EQ(marker_kind_of(write_event(Outcome::accepted, {sim::Detail::stale}), ResourceMode::check),
              MarkerKind::write_stale);
    EXPECT_EQ(marker_kind_of(write_event(Outcome::accepted, {sim::Detail::stale, sim::Detail::unsafe_write}),
                             ResourceMode::off),
              MarkerKind::write_unsafe);
    EXPECT_EQ(marker_kind_of(write_event(Outcome::accepted, {sim::Detail::unsafe_write}), ResourceMode::off),
              MarkerKind::write_unsafe);
    EXPECT_EQ(marker_kind_of(write_event(Outcome::rejected, {sim::Detail::stale}), ResourceMode::check),
              MarkerKind::write_rejected_fence);
    EXPECT_EQ(marker_kind_of(write_event(Outcome::rejected, {sim::Detail::stale}), ResourceMode::validate),
              MarkerKind::write_rejected_token);
    // The safety marks of model.md §9.6 and §9.7 have marks of their own; an
    // unsafe write that is also a lost update keeps the unsafe mark.
    EXPECT_EQ(marker_kind_of(write_event(Outcome::accepted, {sim::Detail::stale, sim::Detail::stale_after_successor}),
                             ResourceMode::check),
              MarkerKind::write_lost_update);
    EXPECT_EQ(marker_kind_of(write_event(Outcome::accepted, {sim::Detail::stale, sim::Detail::unsafe_write,
                                                             sim::Detail::stale_after_successor}),
                             ResourceMode::off),
              MarkerKind::write_unsafe);
    EXPECT_EQ(marker_kind_of(write_event(Outcome::rejected, {sim::Detail::holder_rejected}), ResourceMode::check),
              MarkerKind::write_holder_rejected);
}

// The pair that carries the lesson: the fenced GC pause shows a rejected write
// at tick 15, the unfenced one an unsafe write, on the writer's lane and the resource lane.
TEST(Marks, GcPausePairDiffersAtTick15) {
    for (const auto& [name, want] : {std::pair{"gc-pause-fencing", MarkerKind::write_rejected_fence},
                                     std::pair{"gc-pause-no-fencing", MarkerKind::write_unsafe}}) {
        const ShownRun run = run_scenario(test::load_preset(name));
        const LaneModel& model = run.lanes;
        int found = 0;
        for (const Lane& lane : model.lanes)
            for (const Marker& m : lane.markers)
                if (m.tick == 15 && m.kind == want) ++found;
        EXPECT_EQ(found, 2) << name;
    }
}

// A failover is a labelled mark on every slot lane; one that lost all is told apart.
TEST(Marks, FailoverMarksTellWhatWasLost) {
    for (const auto& [name, want] : {std::pair{"failover-lost-lock", MarkerKind::failover_leases},
                                     std::pair{"failover-fencing-regressed", MarkerKind::failover_all}}) {
        const ShownRun run = run_scenario(test::load_preset(name));
        const LaneModel& model = run.lanes;
        const Lane& slot = model.lanes[static_cast<std::size_t>(slot_lane(model, 0))];
        int found = 0;
        for (const Marker& m : slot.markers)
            if (m.kind == want) ++found;
        EXPECT_EQ(found, 1) << name;
    }
}

// A clock jump has its own mark: the store's on every slot lane (the records
// its clock expires), a node's on that node's lane; the event table reads the
// marks off the lanes, so it lists the jump too (model.md §3.3 rule 3).
TEST(Marks, ClockJumpIsMarkedOnTheLaneOfItsClock) {
    const auto count = [](const Lane& lane) {
        int n = 0;
        for (const Marker& m : lane.markers) n += m.kind == MarkerKind::clock_jump ? 1 : 0;
        return n;
    };
    sim::Scenario scenario = test::load_preset("store-clock-jump");
    {
        const ShownRun run = run_scenario(scenario);
        const LaneModel& model = run.lanes;
        EXPECT_EQ(count(model.lanes[static_cast<std::size_t>(slot_lane(model, 0))]), 1);
        EXPECT_EQ(count(model.lanes[0]), 0);
        EXPECT_EQ(count(model.lanes[1]), 0);
    }
    ASSERT_EQ(scenario.faults.size(), 1u);
    scenario.faults[0].node = 1;  // node-b's clock instead of the store's
    const ShownRun run = run_scenario(scenario);
    const LaneModel& model = run.lanes;
    EXPECT_EQ(count(model.lanes[1]), 1);
    EXPECT_EQ(count(model.lanes[0]), 0);
    EXPECT_EQ(count(model.lanes[static_cast<std::size_t>(slot_lane(model, 0))]), 0);
}

// The SVG export draws the same marks, each in a group whose <title> names its
// outcome in words: a script or a screen reader tells the gc-pause pair apart
// by the text alone.
TEST(Marks, SvgMarksCarryTheirOutcomeInATitle) {
    Strings strings = test::string_tables();
    for (const auto& [name, want] : {std::pair{"gc-pause-fencing", MarkerKind::write_rejected_fence},
                                     std::pair{"gc-pause-no-fencing", MarkerKind::write_unsafe}}) {
        const ShownRun run = run_scenario(test::load_preset(name));
        const LaneModel& model = run.lanes;
        SvgOptions o;
        o.last = model.end_tick;
        o.playhead = 15;
        o.title = name;
        const std::string svg = timeline_svg(model, default_palette(), strings, o);
        const std::string title = "node-a · " + strings.tr("word.tick") + " 15 · " +
                                  strings.tr(std::string("legend.") + marker_kind_name(want));
        EXPECT_NE(
            svg.find("<g class=\"mark " + std::string(marker_kind_name(want)) + "\"><title>" + title + "</title>"),
            std::string::npos)
            << name;
        // Every mark group has a title.
        std::size_t groups = 0, titled = 0;
        for (std::size_t at = svg.find("<g class=\"mark "); at != std::string::npos;
             at = svg.find("<g class=\"mark ", at + 1)) {
            ++groups;
            if (svg.find("><title>", at) == svg.find('>', at)) ++titled;
        }
        EXPECT_GT(groups, 5u) << name;
        EXPECT_EQ(groups, titled) << name;
    }
}

// Projector mode's pause hatching shows over every state a paused node can
// be in: at least 3:1 (WCAG's contrast for graphics) against the waiting,
// valid and stale spans, so it is never blue on blue.
TEST(Marks, HighContrastPauseHatchingShowsOverEveryState) {
    const Palette p = high_contrast_palette();
    for (const SpanKind under : {SpanKind::waiting, SpanKind::running, SpanKind::stale})
        EXPECT_GE(contrast_ratio(p.of(SpanKind::paused), p.of(under)), 3.0)
            << "pause " << p.of(SpanKind::paused).hex() << " over " << p.of(under).hex();
}

// A node's own check before its write (model.md §5.8) is marked on that
// node's lane: check-then-act has no auditor and so no ops lane, and the
// check at tick 17 was dropped from the picture before.
TEST(Marks, OwnCheckIsMarkedOnTheNodesLane) {
    const ShownRun run = run_scenario(test::load_preset("check-then-act"));
    const LaneModel& model = run.lanes;
    int reads = 0;
    for (const Marker& m : model.lanes[0].markers) reads += m.kind == MarkerKind::op_read ? 1 : 0;
    EXPECT_EQ(reads, 1);
    for (const Marker& m : model.lanes[1].markers) EXPECT_NE(m.kind, MarkerKind::op_read);
}

// The layout check's rules (app/gui/core/layout_check.hpp) on hand-made rectangles: each rule catches its case.
#include <gtest/gtest.h>

#include "core/layout_check.hpp"

using namespace leasescope::gui;

namespace {

LayoutItem text(const char* label, LayoutRect r, LayoutRect clip, bool scrolls = false) {
    return LayoutItem{"panel", label, true, r, clip, scrolls, false};
}

const LayoutRect panel{0, 0, 200, 100};

}  // namespace

TEST(LayoutCheck, ACleanPanelHasNoProblem) {
    const std::vector<LayoutItem> items{text("one", {10, 10, 80, 27}, panel), text("two", {10, 33, 80, 50}, panel)};
    EXPECT_TRUE(check_layout({{"panel", panel}}, items, 200, 100).empty());
}

TEST(LayoutCheck, TextCutAtTheRightIsAProblemEvenWhenThePanelScrolls) {
    const auto p = check_layout({}, {text("long words", {10, 10, 230, 27}, panel, true)}, 200, 100);
    ASSERT_EQ(p.size(), 1u);
    EXPECT_NE(p[0].find("long words"), std::string::npos);
}

TEST(LayoutCheck, BelowTheBottomIsAProblemOnlyWithoutScrolling) {
    EXPECT_EQ(check_layout({}, {text("last line", {10, 90, 80, 107}, panel, false)}, 200, 100).size(), 1u);
    EXPECT_TRUE(check_layout({}, {text("last line", {10, 90, 80, 107}, panel, true)}, 200, 100).empty());
}

TEST(LayoutCheck, TextOverTextIsAProblemWithinOnePanel) {
    const std::vector<LayoutItem> items{text("a", {10, 10, 80, 27}, panel), text("b", {60, 20, 120, 37}, panel)};
    EXPECT_EQ(check_layout({}, items, 200, 100).size(), 1u);
    // Touching by a pixel is not an overlap; a frame under a text is not text.
    const std::vector<LayoutItem> ok{text("a", {10, 10, 80, 27}, panel), text("b", {79, 10, 120, 27}, panel),
                                     LayoutItem{"panel", "slider", false, {10, 10, 190, 30}, panel, false, false}};
    EXPECT_TRUE(check_layout({}, ok, 200, 100).empty());
}

TEST(LayoutCheck, OverlappingWindowsAreAProblem) {
    EXPECT_EQ(check_layout({{"a", {0, 0, 500, 400}}, {"b", {0, 300, 500, 700}}}, {}, 1024, 768).size(), 1u);
    EXPECT_TRUE(check_layout({{"a", {0, 0, 500, 400}}, {"b", {0, 400, 500, 700}}}, {}, 1024, 768).empty());
}

TEST(LayoutCheck, AWindowOffTheDisplayIsAProblem) {
    EXPECT_EQ(check_layout({{"wide", {0, 0, 1100, 100}}}, {}, 1024, 768).size(), 1u);
}

namespace {
LayoutItem drawn(DrawnKind kind, const char* label, LayoutRect r, LayoutRect clip, bool scrolls = false) {
    LayoutItem it{"timeline", label, kind != DrawnKind::mark, r, clip, scrolls, false};
    it.drawn = kind;
    return it;
}
}  // namespace

// A timeline's mark over its "#33" word, or over another mark, is a problem;
// beside it is not.
TEST(LayoutCheck, AMarkOverAWordOrAMarkIsAProblem) {
    const LayoutItem mark = drawn(DrawnKind::mark, "write_stale t12", {50, 10, 62, 22}, panel);
    const LayoutItem over = drawn(DrawnKind::mark_label, "#33", {58, 10, 80, 24}, panel);
    const LayoutItem beside = drawn(DrawnKind::mark_label, "#33", {64, 10, 86, 24}, panel);
    const LayoutItem hidden = drawn(DrawnKind::mark, "resume t12", {52, 12, 64, 24}, panel);
    EXPECT_EQ(check_layout({}, {mark, over}, 200, 100).size(), 1u);
    EXPECT_EQ(check_layout({}, {mark, hidden}, 200, 100).size(), 1u);
    EXPECT_TRUE(check_layout({}, {mark, beside}, 200, 100).empty());
}

// A lane title cut by the titles' column, or a mark that leaves its lane, is
// a problem; a title below the lanes' window is one only when no scrollbar
// and hint reach it.
TEST(LayoutCheck, ALaneTitleCutOrAMarkOutOfItsLaneIsAProblem) {
    const LayoutRect titles{0, 20, 60, 100}, lane{60, 20, 200, 40};
    EXPECT_EQ(check_layout({}, {drawn(DrawnKind::lane_title, "node-alpha", {6, 22, 70, 38}, titles)}, 200, 100).size(),
              1u);
    EXPECT_EQ(check_layout({}, {drawn(DrawnKind::mark, "resume t11", {80, 32, 92, 44}, lane)}, 200, 100).size(), 1u);
    EXPECT_EQ(check_layout({}, {drawn(DrawnKind::lane_title, "resource", {6, 92, 50, 108}, titles)}, 200, 100).size(),
              1u);
    EXPECT_TRUE(
        check_layout({}, {drawn(DrawnKind::lane_title, "resource", {6, 92, 50, 108}, titles, true)}, 200, 100).empty());
}

// A timeline that shows no lane is a problem, and so is one that hides lanes
// without a hint; hidden lanes with a hint are not.
TEST(LayoutCheck, ATimelineShowsLanesOrHintsAtThem) {
    EXPECT_EQ(check_layout({}, {}, 200, 100, {{"timeline", 0, 4, true}}).size(), 1u);
    EXPECT_EQ(check_layout({}, {}, 200, 100, {{"timeline", 2, 4, false}}).size(), 1u);
    EXPECT_TRUE(check_layout({}, {}, 200, 100, {{"timeline", 2, 4, true}}).empty());
    EXPECT_TRUE(check_layout({}, {}, 200, 100, {{"timeline", 4, 4, false}}).empty());
    const std::string report =
        layout_report({}, {drawn(DrawnKind::mark_label, "#33", {1, 2, 3, 4}, panel)}, {}, {{"timeline", 2, 4, true}});
    EXPECT_NE(report.find("timeline: timeline shows 2 of 4 lanes, with a scroll hint"), std::string::npos);
    EXPECT_NE(report.find("label: timeline [1,2 - 3,4]"), std::string::npos);
}

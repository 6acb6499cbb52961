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

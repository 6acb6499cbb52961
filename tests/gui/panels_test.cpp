// --panels and the projector preset (core/panels.hpp), and the colour of the
// protected-action frame (core/palette.hpp).
#include <gtest/gtest.h>

#include "core/palette.hpp"
#include "core/panels.hpp"

using namespace leasescope::gui;

// A list opens exactly its panels; the top bar, the transport and the other
// panels no list can close (tour, live, find) stay.
TEST(Panels, AListOpensExactlyItsPanels) {
    PanelChoice c;
    std::string error;
    ASSERT_TRUE(parse_panels("timeline, record,explain,", c, error)) << error;
    EXPECT_TRUE(c.limited);
    for (const char* id : {"timeline", "record", "explain", "controls", "transport", "tour", "find"})
        EXPECT_TRUE(c.shown(id)) << id;
    for (const char* id : {"candidates", "action", "resource", "events", "code"}) EXPECT_FALSE(c.shown(id)) << id;
    EXPECT_TRUE(PanelChoice{}.shown("events"));  // no list: everything as usual
}

TEST(Panels, AnUnknownPanelIsNamedWithTheKnownOnes) {
    PanelChoice c;
    std::string error;
    EXPECT_FALSE(parse_panels("timeline,evnts", c, error));
    EXPECT_NE(error.find("\"evnts\""), std::string::npos) << error;
    for (std::string_view p : choosable_panels) EXPECT_NE(error.find(std::string(p)), std::string::npos) << error;
    EXPECT_FALSE(c.limited);  // untouched on failure
}

TEST(Panels, TheProjectorPresetIsLargeAndHighContrast) {
    EXPECT_GE(projector_scale_percent, 150);
    EXPECT_LE(projector_scale_percent, 250);
    EXPECT_TRUE(projector_high_contrast);
}

// model.md §15: stale is the loudest colour. The frame around the protected
// action turned stale only on an overlap and stayed green around a STALE node
// acting alone.
TEST(ActionFrame, StaleWheneverAStaleNodeIsInside) {
    EXPECT_EQ(action_frame_kind(1, 1, 1), SpanKind::stale);  // a stale node alone
    EXPECT_EQ(action_frame_kind(2, 1, 2), SpanKind::stale);  // within a group's capacity, one stale
    EXPECT_EQ(action_frame_kind(2, 0, 1), SpanKind::stale);  // an overlap
    EXPECT_EQ(action_frame_kind(1, 0, 1), SpanKind::running);
    EXPECT_EQ(action_frame_kind(0, 0, 1), SpanKind::running);
}

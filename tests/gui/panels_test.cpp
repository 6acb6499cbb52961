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
    for (Panel p :
         {Panel::timeline, Panel::record, Panel::explain, Panel::controls, Panel::transport, Panel::tour, Panel::find})
        EXPECT_TRUE(c.shown(p)) << panel_name(p);
    for (Panel p : {Panel::candidates, Panel::action, Panel::resource, Panel::events, Panel::code})
        EXPECT_FALSE(c.shown(p)) << panel_name(p);
    EXPECT_TRUE(PanelChoice{}.shown(Panel::events));  // no list: everything as usual
}

TEST(Panels, AnUnknownPanelIsNamedWithTheKnownOnes) {
    PanelChoice c;
    std::string error;
    EXPECT_FALSE(parse_panels("timeline,evnts", c, error));
    EXPECT_NE(error.find("\"evnts\""), std::string::npos) << error;
    for (const PanelInfo& p : panel_table) {
        if (p.choosable) {
            EXPECT_NE(error.find(std::string(p.name)), std::string::npos) << error;
        }
    }
    EXPECT_FALSE(c.limited);  // untouched on failure
}

// The top bar and the transport cannot be closed: a list naming them is refused.
TEST(Panels, TheTopBarAndTheTransportAreNotChoosable) {
    PanelChoice c;
    std::string error;
    EXPECT_FALSE(parse_panels("timeline,controls", c, error));
    EXPECT_NE(error.find("\"controls\""), std::string::npos) << error;
}

// One table: its rows follow the enum, and every name reads back as its panel.
TEST(Panels, TheTableFollowsTheEnumAndNamesReadBack) {
    for (std::size_t i = 0; i < panel_table.size(); ++i) {
        EXPECT_EQ(panel_index(panel_table[i].panel), i);
        EXPECT_EQ(panel_from_name(panel_table[i].name), panel_table[i].panel);
    }
    EXPECT_FALSE(panel_from_name("evnts").has_value());
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

#pragma once
// The layout check behind `leasescope --layout-report`: given every panel and
// the rectangle of every item drawn in it (collected by views/layout_probe),
// it finds items that leave their panel where no scrolling reaches them and
// text that overlaps other text. No ImGui here, so its rules are unit-tested.
#include <cstdint>
#include <string>
#include <vector>

namespace leasescope::gui {

struct LayoutRect {
    float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
};

// What an item drawn straight into a window's draw list is (the timeline's
// words and marks); `none` for ImGui's own items.
enum class DrawnKind : std::uint8_t { none, lane_title, mark, mark_label, tick_number, hint };

// One item as ImGui placed it: its rectangle, the part of its window it may
// draw in when it is submitted (the window's inner area, or a table cell),
// and whether that window scrolls vertically.
struct LayoutItem {
    std::string window;  // the window's ImGui name ("Candidates###candidates")
    std::string label;   // the text, or the widget's label (for the report)
    bool text = false;   // words a person reads (not a frame or a dummy)
    LayoutRect rect;
    LayoutRect clip;
    bool scrolls_y = false;
    bool scrolls_x = false;  // a table or child with a horizontal scrollbar
    DrawnKind drawn = DrawnKind::none;
};

// A timeline as drawn: how many of its lanes show (at least half of the
// lane inside the window), of how many, and whether a hint and a scrollbar
// say that the others are scrolled out of view.
struct LayoutTimeline {
    std::string window;
    int lanes_shown = 0;
    int lanes_total = 0;
    bool hint = false;
};

struct LayoutWindow {
    std::string name;
    LayoutRect rect;  // the whole window, title bar included
};

// The rules (docs/architecture.md, "The layout check"), with 1 px of slack:
//   1. a window lies inside the display;
//   2. an item lies inside its clip rectangle left to right, unless its
//      window scrolls sideways (only the event table does, with a scrollbar);
//   3. an item lies inside its clip rectangle top to bottom unless its window
//      scrolls vertically (then a scrollbar is shown and reaches it);
//   4. no two text items of one window overlap;
//   5. no two windows overlap (panels are tiled);
//   6. no mark of a timeline overlaps a text of its window (a lane title, a
//      mark's word, a tick number) or hides half of another mark;
//   7. a timeline shows at least one lane, and every lane or a hint that
//      the others scroll (rules 2 and 3 find a lane title cut off).
// Returns one line per problem; empty when the layout is clean.
std::vector<std::string> check_layout(const std::vector<LayoutWindow>& windows, const std::vector<LayoutItem>& items,
                                      float display_w, float display_h,
                                      const std::vector<LayoutTimeline>& timelines = {});

// The report file: a summary line, then the problems, then every window,
// timeline and item (the timeline's lane titles, marks, words and tick
// numbers each with its rectangle).
std::string layout_report(const std::vector<LayoutWindow>& windows, const std::vector<LayoutItem>& items,
                          const std::vector<std::string>& problems, const std::vector<LayoutTimeline>& timelines = {});

}  // namespace leasescope::gui

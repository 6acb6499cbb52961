#pragma once
// The screen part of the app (app.hpp): where each panel goes, which panels
// are open, the tour's outline, and when to place the panels again.
#include <cstdint>
#include <optional>

#include <imgui.h>

#include "../core/panels.hpp"

namespace leasescope::gui {

struct Screen {
    PanelLayout layout;          // App::compute_layout
    float top_h = 0.0f;          // what the top bar asked for (0: the default)
    PanelChoice panels;          // --panels: which panels are open (all by default)
    bool code_open = false;      // the Code panel (it shares the bottom row)
    std::optional<Panel> focus;  // the panel the tour outlined in the last frame drawn
    PanelRect focus_rect{};
    ImVec2 last_size{0, 0};
    bool relayout_pending = false;
    // Headless runs and "reset layout" place every panel on the computed layout.
    bool force_layout = false;
    std::uint64_t frames = 0;
    // The compact layout (a screen under compact_em_w × compact_em_h em: a
    // small window or a large scale): the timeline and the transport take
    // the full width, and the other panels share the place under them, one
    // at a time, chosen on a row of tabs.
    bool compact = false;
    Panel tab = Panel::explain;  // the panel shown there
};

}  // namespace leasescope::gui

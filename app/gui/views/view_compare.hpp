#pragma once
// Side by side and narrated play on screen: the pair's whole-window view, the
// narration's large explanation beside the picture, and the "Compare" menu
// the top bar shows (view_compare.cpp, view_narrate.cpp).
#include "../compare.hpp"
#include "view.hpp"

namespace leasescope::gui {

// Runs A (the open scenario) and B on aligned timelines with one playhead,
// the first divergence marked on both, each run's record, resource and
// candidates at the playhead, and the difference in words.
void draw_compare(const FrameContext& ctx, const ComparePair& pair, Commands& out);
// The "Compare ▾" button and its menu: the ready-made pairs, this scenario
// against a preset, a variant or a file, and narrated play.
void draw_compare_menu(const FrameContext& ctx, Commands& out);
// Narrated play's panel: the explanation of the tick, large, beside the timeline.
void draw_narration(const FrameContext& ctx, const Narration& narration, Commands& out);

}  // namespace leasescope::gui

#pragma once
// The small base every panel derives from, and the read-only context a frame
// gives them. One view per file; the list of views lives in view_list.cpp.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <imgui.h>

#include "../commands.hpp"
#include "../core/job_status.hpp"
#include "../core/lanes.hpp"
#include "../core/panels.hpp"
#include "../core/palette.hpp"
#include "../core/strings.hpp"
#include "../core/tour.hpp"
#include "../core/words.hpp"
#include "../state/exercise_state.hpp"
#include "leasescope/words/redisson_facts.hpp"
#include "leasescope/words/redlock_facts.hpp"
#include "layout_probe.hpp"
#include "leasescope/sim/simulation.hpp"

namespace leasescope::gui {

struct PresetInfo {
    std::string path;
    std::string name;
    sim::Localized title;
    sim::Localized summary;
};

struct Fonts {
    ImFont* body = nullptr;
    ImFont* title = nullptr;
    ImFont* small = nullptr;
};

// Renders a draw list into a texture once, to be drawn as an image on later
// frames (see offscreen.hpp). A rendering service, not state: views that use
// it still change nothing but their own cache.
class Offscreen {
public:
    virtual ~Offscreen() = default;
    // Queues `list` (screen coordinates covering pos … pos + size) to be
    // rendered into texture `slot` before this frame is drawn, and returns
    // that texture (row 0 at the bottom), or null when it cannot.
    virtual ImTextureID render(int slot, ImDrawList& list, ImVec2 pos, ImVec2 size) = 0;
};

// What one frame shows, read-only. App::frame_context builds it by field
// name (designated initialisers, in this order); the views never change it.
struct FrameContext {
    const sim::Scenario& scenario;
    const sim::Timeline& timeline;
    const LaneModel& lanes;
    const sim::Snapshot& snap;  // the state at the end of the playhead's tick
    Tick playhead = 0;
    std::int32_t selected_event = -1;
    bool playing = false;
    double speed = 4.0;  // ticks per second
    const Strings& strings;
    const Palette& palette;
    const Fonts& fonts;
    const std::vector<PresetInfo>& presets;
    std::string scenario_path;
    std::string error;   // the last refused edit or failed load
    std::string notice;  // the last done action ("saved to …")
    const std::vector<TourStep>& tour;
    int tour_step = -1;                     // -1: the tour is not running
    std::optional<Panel> focus;             // the panel the tour points at
    std::uint64_t fit_generation = 0;       // changes when the timeline should refit
    bool fit_whole = false;                 // … to the whole run (the Fit button), not the opening view
    std::uint64_t timeline_generation = 0;  // changes whenever the scenario is simulated again
    const PanelLayout& layout;
    // Always: place panels on the computed layout this frame (first run, window
    // resized, "reset layout"); otherwise the user's arrangement from imgui.ini stays.
    bool relayout = true;
    const LiveStatus& live;
    const FindStatus& find;
    Offscreen* offscreen = nullptr;  // null: draw everything directly
    bool code_open = false;          // the Code panel
    float scale = 1.0f;              // the UI scale (projector mode): fixed pixel sizes are multiplied by it
    bool high_contrast = false;      // the high-contrast palette is on
    std::string edited_from;         // the preset this scenario is an edited copy of (App::edited_from)
    bool compact = false;            // the compact layout (state/screen.hpp)
    Panel tab = Panel::explain;      // in the compact layout, the panel shown under the timeline
    PanelChoice panels;              // which panels --panels leaves open
    const ExerciseStatus& exercise;  // the open scenario's exercises (state/exercise_state.hpp)
    // A Redlock run's stores and clients at the playhead (model.md §20); null for every other run.
    const words::RedlockFacts* redlock = nullptr;
    // A Redisson run's hash and clients at the playhead (model.md §21); null for every other run.
    const words::RedissonFacts* redisson = nullptr;
    // The Live, Find, Code or Exercise panel covers the bottom row (events and explanation).
    bool bottom_taken() const { return live.open || find.open || code_open || exercise.open; }
    // A prediction waits for its answer: the timeline hides what comes after
    // the playhead instead of veiling it (model.md §18.2: the student sees
    // the tick only once they have chosen).
    bool future_hidden() const { return exercise.open && exercise.prediction && exercise.answer < 0; }

    Lang lang() const { return strings.lang(); }
    const char* tr(const char* key) const { return strings.c(key); }
};

class View {
public:
    virtual ~View() = default;
    // Which panel it is (core/panels.hpp): its layout rectangle, whether
    // --panels closes it, what a tour step's "focus" names.
    virtual Panel panel() const = 0;
    const char* id() const { return panel_name(panel()); }
    virtual void draw(const FrameContext& ctx, Commands& out) = 0;
};

// The compact layout's row of tabs (view_tabs.cpp), in the current window's
// menu bar: one per panel of tab_panels that --panels leaves open.
void draw_tabs(const FrameContext& ctx, Commands& out);

// Every view, in drawing order (defined in view_list.cpp).
std::vector<std::unique_ptr<View>> make_views();

// The event the Explain and Code panels tell about: the selected one when it
// is at the playhead, else the playhead's most telling event (the timeline's
// fold priority); -1 when the tick has none.
std::int32_t chosen_event(const FrameContext& ctx);
// Explain's words for event `index` of the trace shown, at the playhead's state.
Explanation explanation_of(const FrameContext& ctx, std::int32_t index);

// Places the next window on the layout rectangle of `panel` and begins it with
// the fixed-panel flags; returns what ImGui::Begin returns. In the compact
// layout a tab panel given `out` has the row of tabs for its title: a menu
// bar that stays while the panel scrolls (view_tabs.cpp).
bool begin_panel(const FrameContext& ctx, Panel panel, const char* title, ImGuiWindowFlags extra = 0,
                 Commands* out = nullptr);

ImU32 col(const Rgba& c);
ImU32 col(const Rgba& c, float alpha_scale);
// A rounded status badge in the state's colour.
void badge(const char* text, const Rgba& fill, const Rgba& text_color = Rgba{255, 255, 255, 255});
// Diagonal stripes over a rectangle (stale, paused, hold-off).
void hatch(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 color, float spacing = 7.0f, float thickness = 2.0f);
// A small shape for a marker kind, centred at `c`.
void draw_marker_shape(ImDrawList* dl, ImVec2 c, MarkerKind kind, ImU32 color, float r);

}  // namespace leasescope::gui

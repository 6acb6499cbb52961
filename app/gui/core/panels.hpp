#pragma once
// The panels of the app as one enum and one table (its name, whether
// `--panels` may close it), which panels are open, as `--panels LIST` chooses
// them, and the projector preset: the choices a teacher scripts before a
// lecture. Pure (no ImGui).
#include <array>
#include <bitset>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace leasescope::gui {

// Every panel, in drawing order (views/view_list.cpp draws them so).
enum class Panel : std::uint8_t {
    controls,  // the top bar
    candidates,
    action,
    timeline,
    transport,
    record,
    resource,
    events,
    explain,
    tour,
    live,
    find,
    code,
    exercise,
};
inline constexpr std::size_t panel_count = 14;

struct PanelInfo {
    Panel panel;
    std::string_view name;  // the layout key, the ImGui window's identity, what --panels and tour.json's "focus" say
    // --panels may close it. The top bar (controls) and the transport always
    // stay: without them nothing can be changed on screen; the tour, live,
    // find and exercise panels open on their own.
    bool choosable;
};

// The one table of panels, one row each, in the enum's order.
inline constexpr std::array<PanelInfo, panel_count> panel_table{{
    {Panel::controls, "controls", false},
    {Panel::candidates, "candidates", true},
    {Panel::action, "action", true},
    {Panel::timeline, "timeline", true},
    {Panel::transport, "transport", false},
    {Panel::record, "record", true},
    {Panel::resource, "resource", true},
    {Panel::events, "events", true},
    {Panel::explain, "explain", true},
    {Panel::tour, "tour", false},
    {Panel::live, "live", false},
    {Panel::find, "find", false},
    {Panel::code, "code", true},
    {Panel::exercise, "exercise", false},
}};

constexpr std::size_t panel_index(Panel p) { return static_cast<std::size_t>(p); }
constexpr const PanelInfo& panel_info(Panel p) { return panel_table[panel_index(p)]; }
// The name is a literal from the table: its data() is null-terminated.
constexpr const char* panel_name(Panel p) { return panel_info(p).name.data(); }
// The panel a name stands for; nothing for an unknown name.
std::optional<Panel> panel_from_name(std::string_view name);

// The open panels: all of the usual ones unless a list was given.
struct PanelChoice {
    bool limited = false;           // --panels given
    std::bitset<panel_count> open;  // with `limited`: the panels shown

    // A panel that is not choosable is never closed by the choice.
    bool shown(Panel p) const { return !limited || !panel_info(p).choosable || open.test(panel_index(p)); }
};

// Parses "timeline,record,explain" (commas, no spaces needed; an empty item
// is skipped). False with `error` naming the unknown panel and the known ones.
bool parse_panels(std::string_view list, PanelChoice& out, std::string& error);

// Where each panel goes on screen: one rectangle per panel (App::compute_layout).
struct PanelRect {
    float x = 0, y = 0, w = 0, h = 0;
};
struct PanelLayout {
    std::array<PanelRect, panel_count> rects{};
    PanelRect& operator[](Panel p) { return rects[panel_index(p)]; }
    const PanelRect& operator[](Panel p) const { return rects[panel_index(p)]; }
};

// The compact layout (App::compute_layout): below this many em of width or
// height the side columns and the bottom row cannot each show a readable
// panel, so they share one place under the timeline, one panel at a time.
inline constexpr float compact_em_w = 40.0f;
inline constexpr float compact_em_h = 24.0f;
// The panels that share that place, in the order of their tabs.
inline constexpr std::array<Panel, 6> tab_panels{Panel::explain,  Panel::events,     Panel::record,
                                                 Panel::resource, Panel::candidates, Panel::action};
constexpr bool is_tab_panel(Panel p) {
    for (Panel t : tab_panels)
        if (t == p) return true;
    return false;
}

// The projector preset (`--projector`): what a lecture hall needs, fixed
// here so the flag, --help and the docs say one thing. Text, lanes and marks
// at 175 % (the back row reads a 1920×1080 projection; 250 % would leave the
// timeline a few ticks wide), and the high-contrast palette (projectors wash
// out colours, and red against green fails for some students).
inline constexpr int projector_scale_percent = 175;
inline constexpr bool projector_high_contrast = true;

}  // namespace leasescope::gui

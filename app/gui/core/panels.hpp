#pragma once
// Which panels are open, as `--panels LIST` chooses them, and the projector
// preset: the choices a teacher scripts before a lecture. Pure (no ImGui).
#include <array>
#include <set>
#include <string>
#include <string_view>

namespace leasescope::gui {

// The panels `--panels` can open or close, by their view ids. The top bar
// (controls) and the transport always stay: without them nothing can be
// changed on screen. "code" opens the Code panel.
inline constexpr std::array<std::string_view, 8> choosable_panels{"candidates", "action", "timeline", "record",
                                                                  "resource",   "events", "explain",  "code"};

// The open panels: all of the usual ones unless a list was given.
struct PanelChoice {
    bool limited = false;        // --panels given
    std::set<std::string> open;  // with `limited`: the panels shown

    // A panel that is not one of the choosable ones (controls, transport,
    // tour, live, find) is never closed by the choice.
    bool shown(std::string_view id) const;
};

// Parses "timeline,record,explain" (commas, no spaces needed; an empty item
// is skipped). False with `error` naming the unknown panel and the known ones.
bool parse_panels(std::string_view list, PanelChoice& out, std::string& error);

// The projector preset (`--projector`): what a lecture hall needs, fixed
// here so the flag, --help and the docs say one thing. Text, lanes and marks
// at 175 % (the back row reads a 1920×1080 projection; 250 % would leave the
// timeline a few ticks wide), and the high-contrast palette (projectors wash
// out colours, and red against green fails for some students).
inline constexpr int projector_scale_percent = 175;
inline constexpr bool projector_high_contrast = true;

}  // namespace leasescope::gui

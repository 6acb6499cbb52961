// Which panels are open (panels.hpp).
#include "panels.hpp"

#include "leasescope/sim/text_list.hpp"

namespace leasescope::gui {

std::optional<Panel> panel_from_name(std::string_view name) {
    for (const PanelInfo& info : panel_table)
        if (info.name == name) return info.panel;
    return std::nullopt;
}

namespace {

std::string unknown_panel_error(std::string_view item) {
    // Appends rather than " " + string, which GCC 12 warns about wrongly (-Wrestrict).
    std::string error = "unknown panel \"";
    error.append(item);
    error.append("\"; the panels are");
    for (const PanelInfo& info : panel_table) {
        if (!info.choosable) continue;
        error.push_back(' ');
        error.append(info.name);
    }
    return error;
}

}  // namespace

bool parse_panels(std::string_view list, PanelChoice& out, std::string& error) {
    PanelChoice choice;
    choice.limited = true;
    for (std::string_view item : sim::split_list(list)) {
        if (item.empty()) continue;
        const std::optional<Panel> panel = panel_from_name(item);
        if (!panel || !panel_info(*panel).choosable) {
            error = unknown_panel_error(item);
            return false;
        }
        choice.open.set(panel_index(*panel));
    }
    out = choice;
    return true;
}

}  // namespace leasescope::gui

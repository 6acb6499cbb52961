// Which panels are open (panels.hpp).
#include "panels.hpp"

#include <vector>

namespace leasescope::gui {

std::optional<Panel> panel_from_name(std::string_view name) {
    for (const PanelInfo& info : panel_table)
        if (info.name == name) return info.panel;
    return std::nullopt;
}

namespace {

// "a, b , c" -> {"a", "b", "c"}, each trimmed of spaces.
std::vector<std::string_view> split_list(std::string_view text) {
    std::vector<std::string_view> items;
    std::size_t begin = 0;
    while (begin <= text.size()) {
        std::size_t end = text.find(',', begin);
        if (end == std::string_view::npos) end = text.size();
        std::string_view item = text.substr(begin, end - begin);
        while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
        while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
        items.push_back(item);
        begin = end + 1;
    }
    return items;
}

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
    for (std::string_view item : split_list(list)) {
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

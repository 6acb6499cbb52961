// Which panels are open (panels.hpp).
#include "panels.hpp"

#include <algorithm>

namespace leasescope::gui {

bool PanelChoice::shown(std::string_view id) const {
    if (!limited) return true;
    const bool choosable = std::find(choosable_panels.begin(), choosable_panels.end(), id) != choosable_panels.end();
    return !choosable || open.count(std::string(id)) > 0;
}

bool parse_panels(std::string_view list, PanelChoice& out, std::string& error) {
    PanelChoice choice;
    choice.limited = true;
    std::size_t from = 0;
    while (from <= list.size()) {
        std::size_t comma = list.find(',', from);
        if (comma == std::string_view::npos) comma = list.size();
        std::string_view item = list.substr(from, comma - from);
        while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
        while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
        from = comma + 1;
        if (item.empty()) continue;
        if (std::find(choosable_panels.begin(), choosable_panels.end(), item) == choosable_panels.end()) {
            // Appends rather than " " + string, which GCC 12 warns about wrongly (-Wrestrict).
            error = "unknown panel \"";
            error.append(item);
            error.append("\"; the panels are");
            for (std::string_view p : choosable_panels) {
                error.push_back(' ');
                error.append(p);
            }
            return false;
        }
        choice.open.insert(std::string(item));
    }
    out = std::move(choice);
    return true;
}

}  // namespace leasescope::gui

// The compact layout's row of tabs: on a cramped screen the panels beside
// and under the timeline share one place (App::compute_compact_layout), and
// the panel shown there has this row in its menu bar for a title, so it
// stays while the panel scrolls. Each tab is a panel's title; when the
// titles are wider than the panel, one menu ("title ▾") lists them.
#include <string>
#include <vector>

#include "view.hpp"

namespace leasescope::gui {
namespace {

std::string tab_title(const FrameContext& ctx, Panel p) {
    const std::string key = std::string("panel.") + panel_name(p);
    return ctx.tr(key.c_str());
}

void tab_items(const FrameContext& ctx, const std::vector<Panel>& tabs, Commands& out) {
    for (Panel p : tabs) {
        const std::string label = tab_title(ctx, p) + "###tab_" + panel_name(p);
        if (ImGui::MenuItem(label.c_str(), nullptr, p == ctx.tab) && p != ctx.tab) out.push_back(command::ShowTab{p});
    }
}

}  // namespace

void draw_tabs(const FrameContext& ctx, Commands& out) {
    if (!ImGui::BeginMenuBar()) return;
    std::vector<Panel> tabs;
    float width = 0;
    const ImGuiStyle& style = ImGui::GetStyle();
    for (Panel p : tab_panels) {
        if (!ctx.panels.shown(p)) continue;
        tabs.push_back(p);
        width += ImGui::CalcTextSize(tab_title(ctx, p).c_str()).x + 2 * style.ItemSpacing.x;
    }
    if (width <= ImGui::GetContentRegionAvail().x) {
        // The chosen tab stands out as a selected menu item (a check mark would read as a setting).
        ImGui::PushStyleColor(ImGuiCol_Header, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
        tab_items(ctx, tabs, out);
        ImGui::PopStyleColor();
    } else {
        const std::string label = tab_title(ctx, ctx.tab) + " ▾###tabs_menu";
        if (ImGui::BeginMenu(label.c_str())) {
            tab_items(ctx, tabs, out);
            ImGui::EndMenu();
        }
    }
    ImGui::EndMenuBar();
}

}  // namespace leasescope::gui

// The guided tour's card: the step's title and text, and the buttons to move
// through the steps. The app loads each step's preset, moves the playhead and
// outlines the panel the step talks about.
#include "view.hpp"

namespace leasescope::gui {
namespace {

class TourView final : public View {
public:
    const char* id() const override { return "tour"; }

    void draw(const FrameContext& ctx, Commands& out) override {
        if (ctx.tour_step < 0 || static_cast<std::size_t>(ctx.tour_step) >= ctx.tour.size()) return;
        const TourStep& step = ctx.tour[static_cast<std::size_t>(ctx.tour_step)];
        ImGui::PushStyleColor(ImGuiCol_WindowBg, ImVec4(1.0f, 0.97f, 0.90f, 1.0f));
        ImGui::PushStyleColor(ImGuiCol_Border, ImGui::ColorConvertU32ToFloat4(col(ctx.palette.focus)));
        ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 3.0f);
        const bool open = begin_panel(ctx, "explain", ctx.tr("panel.tour"));
        ImGui::PopStyleVar();
        ImGui::PopStyleColor(2);
        if (!open) {
            ImGui::End();
            return;
        }
        ImGui::TextDisabled("%s", ctx.strings
                                      .tr("tour.step_of", {{"step", std::to_string(ctx.tour_step + 1)},
                                                           {"count", std::to_string(ctx.tour.size())}})
                                      .c_str());
        ImGui::PushFont(ctx.fonts.title);
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextUnformatted(step.title(ctx.lang()).c_str());
        ImGui::PopFont();
        ImGui::Spacing();
        ImGui::TextUnformatted(tour_body(step, ctx.timeline.trace(), ctx.strings).c_str());
        ImGui::PopTextWrapPos();
        ImGui::Spacing();
        if (ctx.tour_step > 0 && ImGui::Button(ctx.tr("tour.back")))
            out.push_back(command::TourGoto{ctx.tour_step - 1});
        ImGui::SameLine();
        if (static_cast<std::size_t>(ctx.tour_step + 1) < ctx.tour.size()) {
            if (ImGui::Button(ctx.tr("tour.next"))) out.push_back(command::TourGoto{ctx.tour_step + 1});
            ImGui::SameLine();
        }
        if (ImGui::Button(ctx.tr("tour.end"))) out.push_back(command::TourStop{});
        ImGui::End();
    }
};

}  // namespace

std::unique_ptr<View> make_tour_view() { return std::make_unique<TourView>(); }

}  // namespace leasescope::gui

// The guided tour's card: the buttons to move through the steps, then the
// step's title and text. The app loads each step's preset, moves the playhead and
// outlines the panel the step talks about.
#include "view.hpp"

namespace leasescope::gui {
namespace {

class TourView final : public View {
public:
    Panel panel() const override { return Panel::tour; }

    void draw(const FrameContext& ctx, Commands& out) override {
        if (ctx.tour_step < 0 || static_cast<std::size_t>(ctx.tour_step) >= ctx.tour.size()) return;
        const TourStep& step = ctx.tour[static_cast<std::size_t>(ctx.tour_step)];
        ImGui::PushStyleColor(ImGuiCol_WindowBg, ImVec4(1.0f, 0.97f, 0.90f, 1.0f));
        ImGui::PushStyleColor(ImGuiCol_Border, ImGui::ColorConvertU32ToFloat4(col(ctx.palette.focus)));
        ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 3.0f);
        const bool open = begin_panel(ctx, Panel::explain, ctx.tr("panel.tour"));
        ImGui::PopStyleVar();
        ImGui::PopStyleColor(2);
        if (!open) {
            ImGui::End();
            return;
        }
        // The buttons first, beside "step k of n": on a short window (1280x720)
        // the card scrolls its text, and Next must not be below the fold.
        ImGui::TextDisabled("%s", ctx.strings
                                      .tr("tour.step_of", {{"step", std::to_string(ctx.tour_step + 1)},
                                                           {"count", std::to_string(ctx.tour.size())}})
                                      .c_str());
        ImGui::SameLine();
        draw_buttons(ctx, out);
        // A new step opens at its title, whatever the last one was scrolled to.
        if (shown_step_ != ctx.tour_step) {
            shown_step_ = ctx.tour_step;
            ImGui::SetScrollY(0.0f);
        }
        ImGui::PushFont(ctx.fonts.title);
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextUnformatted(step.title(ctx.lang()).c_str());
        ImGui::PopFont();
        ImGui::Spacing();
        ImGui::TextUnformatted(tour_body(step, ctx.timeline.trace(), ctx.strings).c_str());
        ImGui::PopTextWrapPos();
        ImGui::End();
    }

private:
    int shown_step_ = -1;

    // Back, Next and End on one row; a row of their own when the card is too narrow beside the step count.
    static void draw_buttons(const FrameContext& ctx, Commands& out) {
        const ImGuiStyle& style = ImGui::GetStyle();
        auto width = [&](const char* label) { return ImGui::CalcTextSize(label).x + style.FramePadding.x * 2; };
        const bool back = ctx.tour_step > 0;
        const bool next = static_cast<std::size_t>(ctx.tour_step + 1) < ctx.tour.size();
        const float row = (back ? width(ctx.tr("tour.back")) + style.ItemSpacing.x : 0.0f) +
                          (next ? width(ctx.tr("tour.next")) + style.ItemSpacing.x : 0.0f) + width(ctx.tr("tour.end"));
        if (ImGui::GetContentRegionAvail().x < row) ImGui::NewLine();
        if (back) {
            if (ImGui::Button(ctx.tr("tour.back"))) out.push_back(command::TourGoto{ctx.tour_step - 1});
            ImGui::SameLine();
        }
        if (next) {
            if (ImGui::Button(ctx.tr("tour.next"))) out.push_back(command::TourGoto{ctx.tour_step + 1});
            ImGui::SameLine();
        }
        if (ImGui::Button(ctx.tr("tour.end"))) out.push_back(command::TourStop{});
    }
};

}  // namespace

std::unique_ptr<View> make_tour_view() { return std::make_unique<TourView>(); }

}  // namespace leasescope::gui

// Transport: restart, previous/next event, one tick back/forward, play/pause,
// speed and fit. Keyboard shortcuts do the same (the app maps them).
#include "view.hpp"

namespace leasescope::gui {
namespace {

class TransportView final : public View {
public:
    const char* id() const override { return "transport"; }

    void draw(const FrameContext& ctx, Commands& out) override {
        if (!begin_panel(ctx, id(), "transport", ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar)) {
            ImGui::End();
            return;
        }
        const float em = ImGui::GetFontSize();
        const ImVec2 b(em * 2.4f, 0);
        button("|◀", ctx.tr("key.home"), b, out, command::Seek{0});
        button("◀◀", ctx.tr("key.prev_event"), b, out, command::PrevEvent{});
        button("◀", ctx.tr("key.step_back"), b, out, command::Step{-1});
        ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(0.08f, 0.35f, 0.78f, 1));
        ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 1, 1, 1));
        button(ctx.playing ? "❚❚" : "▶", ctx.tr("key.play"), ImVec2(em * 3.2f, 0), out, command::TogglePlay{});
        ImGui::PopStyleColor(2);
        button("▶", ctx.tr("key.step_forward"), b, out, command::Step{1});
        button("▶▶", ctx.tr("key.next_event"), b, out, command::NextEvent{});
        button("▶|", ctx.tr("key.end"), b, out, command::Seek{ctx.lanes.end_tick});
        button("↺", ctx.tr("key.restart"), b, out, command::Restart{});
        ImGui::SameLine(0, em);
        ImGui::PushFont(ctx.fonts.title);
        ImGui::Text("%s", ctx.strings
                              .tr("transport.tick",
                                  {{"tick", std::to_string(ctx.playhead)}, {"end", std::to_string(ctx.lanes.end_tick)}})
                              .c_str());
        ImGui::PopFont();
        ImGui::SameLine(0, em);
        float speed = static_cast<float>(ctx.speed);
        ImGui::SetNextItemWidth(em * 7);
        if (ImGui::SliderFloat(ctx.tr("transport.speed"), &speed, 0.5f, 40.0f, "%.1f t/s",
                               ImGuiSliderFlags_Logarithmic)) {
            out.push_back(command::SetSpeed{speed});
        }
        ImGui::SameLine(0, em);
        if (ImGui::Button(ctx.tr("transport.fit"))) out.push_back(command::Fit{});
        ImGui::SameLine(0, em);
        // The keys, whole when they fit; else a "?" that shows them (never cut mid-word).
        const char* keys = ctx.tr("transport.keys");
        if (ImGui::CalcTextSize(keys).x <= ImGui::GetContentRegionAvail().x) {
            ImGui::TextDisabled("%s", keys);
        } else {
            ImGui::TextDisabled("(?)");
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", keys);
        }
        ImGui::End();
    }

private:
    static void button(const char* label, const char* tip, ImVec2 size, Commands& out, Command c) {
        if (ImGui::Button(label, size)) out.push_back(std::move(c));
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tip);
        ImGui::SameLine(0, 4);
    }
};

}  // namespace

std::unique_ptr<View> make_transport_view() { return std::make_unique<TransportView>(); }

}  // namespace leasescope::gui

// Transport: restart, previous/next event, one tick back/forward, play/pause,
// speed and fit. Keyboard shortcuts do the same (the app maps them).
#include "view.hpp"

namespace leasescope::gui {
namespace {

class TransportView final : public View {
public:
    Panel panel() const override { return Panel::transport; }

    void draw(const FrameContext& ctx, Commands& out) override {
        if (!begin_panel(ctx, panel(), "transport", ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar)) {
            ImGui::End();
            return;
        }
        const float em = ImGui::GetFontSize();
        const ImVec2 b(em * 2.4f, 0);
        button("|◀", ctx.tr("key.home"), b, out, command::Seek{0}, true);
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
        // The rest flows: on a narrow panel it wraps to a second row (the layout gives it room).
        const std::string tick_text = ctx.strings.tr(
            "transport.tick", {{"tick", std::to_string(ctx.playhead)}, {"end", std::to_string(ctx.lanes.end_tick)}});
        ImGui::PushFont(ctx.fonts.title);
        flow(ImGui::CalcTextSize(tick_text.c_str()).x, em);
        ImGui::TextUnformatted(tick_text.c_str());
        ImGui::PopFont();
        // The playhead's time: since tick 0, or a recorded history's on the server's clock (model.md §19.9).
        // Beside the tick unless it is what pushes the speed, Fit or "(?)" below the rows the layout
        // gave the transport (measured with the run's last, widest time, so it does not come and go
        // as the playhead moves); then the tick's tooltip says it.
        const std::string time_text = playhead_time_words(ctx.lanes.clock, ctx.playhead, ctx.strings);
        const float speed_w = em * 7 + ImGui::GetStyle().ItemInnerSpacing.x +
                              ImGui::CalcTextSize(ctx.tr("transport.speed"), nullptr, true).x;
        const float fit_w =
            ImGui::CalcTextSize(ctx.tr("transport.fit"), nullptr, true).x + ImGui::GetStyle().FramePadding.x * 2;
        const float widest_time_w =
            ImGui::CalcTextSize(playhead_time_words(ctx.lanes.clock, ctx.lanes.end_tick, ctx.strings).c_str()).x;
        const float help_w = ImGui::CalcTextSize("(?)").x;
        const int cut_with = cut_after({{widest_time_w, em * 0.5f}, {speed_w, em}, {fit_w, em}, {help_w, em}});
        const int cut_without = cut_after({{speed_w, em}, {fit_w, em}, {help_w, em}});
        if (cut_with <= cut_without) {
            flow(ImGui::CalcTextSize(time_text.c_str()).x, em * 0.5f);
            ImGui::TextUnformatted(time_text.c_str());
        } else if (ImGui::IsItemHovered()) {
            ImGui::SetTooltip("%s", time_text.c_str());
        }
        float speed = static_cast<float>(ctx.speed);
        flow(speed_w, em);
        ImGui::SetNextItemWidth(em * 7);
        if (ImGui::SliderFloat(ctx.tr("transport.speed"), &speed, 0.5f, 40.0f, "%.1f t/s",
                               ImGuiSliderFlags_Logarithmic)) {
            out.push_back(command::SetSpeed{speed});
        }
        flow(fit_w, em);
        if (ImGui::Button(ctx.tr("transport.fit"))) out.push_back(command::Fit{});
        // The keys, whole when they fit; else a "?" that shows them (never cut mid-word).
        const char* keys = ctx.tr("transport.keys");
        const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
        if (ImGui::GetItemRectMax().x + em + ImGui::CalcTextSize(keys).x <= right) {
            ImGui::SameLine(0, em);
            ImGui::TextDisabled("%s", keys);
        } else {
            flow(ImGui::CalcTextSize("(?)").x, em);
            ImGui::TextDisabled("(?)");
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", keys);
        }
        ImGui::End();
    }

private:
    struct Flowed {
        float w;
        float spacing;
    };
    // How many of `items`, flowed after the last item as flow() places them
    // (every row as tall as a button), end below the panel.
    static int cut_after(std::initializer_list<Flowed> items) {
        const float left = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMin().x;
        const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
        const float bottom = ImGui::GetWindowPos().y + ImGui::GetWindowContentRegionMax().y;
        int cut = 0;
        const float row_h = ImGui::GetFrameHeightWithSpacing();
        float x = ImGui::GetItemRectMax().x;
        float row_top = ImGui::GetItemRectMin().y;
        for (const Flowed& item : items) {
            if (x + item.spacing + item.w <= right) {
                x += item.spacing + item.w;
            } else {
                row_top += row_h;
                x = left + item.w;
            }
            if (row_top + ImGui::GetFrameHeight() > bottom) ++cut;
        }
        return cut;
    }

    // Starts a new row when an item `w` wide no longer fits on this one.
    static void flow(float w, float spacing) {
        const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
        if (ImGui::GetItemRectMax().x + spacing + w <= right) ImGui::SameLine(0, spacing);
    }

    static void button(const char* label, const char* tip, ImVec2 size, Commands& out, Command c, bool first = false) {
        if (!first) flow(size.x, 4);
        if (ImGui::Button(label, size)) out.push_back(std::move(c));
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tip);
    }
};

}  // namespace

std::unique_ptr<View> make_transport_view() { return std::make_unique<TransportView>(); }

}  // namespace leasescope::gui

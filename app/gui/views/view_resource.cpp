// The protected resource at the playhead: its mode, the highest fencing number
// it accepted, and the latest writes with their verdicts.
#include "../core/words.hpp"
#include "view.hpp"

namespace leasescope::gui {
namespace {

class ResourceView final : public View {
public:
    Panel panel() const override { return Panel::resource; }

    void draw(const FrameContext& ctx, Commands& out) override {
        if (!begin_panel(ctx, panel(), ctx.tr("panel.resource"), 0, &out)) {
            ImGui::End();
            return;
        }
        const auto& res = ctx.snap.resource;
        ImGui::Text("%s",
                    ctx.strings
                        .tr("resource.mode",
                            {{"mode", ctx.strings.tr(std::string("mode.") + sim::to_string(ctx.scenario.resource))}})
                        .c_str());
        ImGui::PushFont(ctx.fonts.title);
        // Before any write: "none yet", never a bare "#–".
        const std::string highest =
            res.highest_accepted
                ? ctx.strings.tr("resource.highest", {{"fencing", std::to_string(*res.highest_accepted)}})
                : ctx.strings.tr("resource.highest_none");
        ImGui::PushTextWrapPos(0.0f);  // "none yet" in the title font may not fit a narrow column
        ImGui::TextUnformatted(highest.c_str());
        ImGui::PopTextWrapPos();
        ImGui::PopFont();
        ImGui::Text("%s", ctx.strings
                              .tr("resource.counts", {{"accepted", std::to_string(res.accepted)},
                                                      {"rejected", std::to_string(res.rejected)}})
                              .c_str());
        const auto& v = ctx.snap.violations;
        if (v.unsafe_write > 0)
            ImGui::TextColored(ImVec4(0.92f, 0.0f, 0.31f, 1), "%s",
                               ctx.strings.tr("resource.unsafe", {{"count", std::to_string(v.unsafe_write)}}).c_str());
        ImGui::Separator();
        // The latest writes up to the playhead, newest first.
        const auto& events = ctx.timeline.trace().events;
        const std::size_t end = ctx.timeline.first_event_at_or_after(ctx.playhead + 1);
        int shown = 0;
        for (std::size_t k = end; k-- > 0 && shown < 6;) {
            const sim::Event& e = events[k];
            if (e.op != sim::EventOp::write) continue;
            ++shown;
            const MarkerKind mk = marker_kind_of(e, ctx.scenario.resource);
            ImDrawList* dl = ImGui::GetWindowDrawList();
            const ImVec2 p = ImGui::GetCursorScreenPos();
            const float h = ImGui::GetFontSize();
            draw_marker_shape(dl, ImVec2(p.x + h * 0.5f, p.y + h * 0.55f), mk, col(ctx.palette.of(mk)), h * 0.4f);
            ImGui::Dummy(ImVec2(h, h));
            ImGui::SameLine();
            const std::string line =
                ctx.strings.tr("resource.write_line", {{"tick", std::to_string(e.tick)},
                                                       {"node", e.node},
                                                       {"fencing", e.fencing ? std::to_string(*e.fencing) : "–"},
                                                       {"verdict", outcome_words(e, ctx.strings)}});
            // Wrapped text rather than a one-line selectable: verdicts are long sentences.
            ImGui::PushTextWrapPos(0.0f);
            if (static_cast<std::int32_t>(k) == ctx.selected_event)
                ImGui::TextColored(ImVec4(0.08f, 0.35f, 0.78f, 1), "%s", line.c_str());
            else
                ImGui::TextUnformatted(line.c_str());
            ImGui::PopTextWrapPos();
            if (ImGui::IsItemClicked()) out.push_back(command::SelectEvent{static_cast<std::int64_t>(k)});
        }
        if (shown == 0) ImGui::TextDisabled("%s", ctx.tr("resource.no_writes"));
        ImGui::End();
    }
};

}  // namespace

std::unique_ptr<View> make_resource_view() { return std::make_unique<ResourceView>(); }

}  // namespace leasescope::gui

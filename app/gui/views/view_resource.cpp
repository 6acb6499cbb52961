// The protected resource at the playhead: its mode, the data the writes left
// (core/resource_data.hpp), the highest fencing number it accepted, and the
// latest writes with their verdicts and what each did to the data.
#include "../core/resource_data.hpp"
#include "../core/words.hpp"
#include "redisson_panels.hpp"
#include "redlock_panels.hpp"
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
        if (ctx.redlock || ctx.redisson) {  // rules 20.6, 21.6: every write accepted, stale and unsafe ones marked
            if (ctx.redlock) draw_redlock_resource_head(ctx);
            if (ctx.redisson) draw_redisson_resource_head(ctx);
            const std::size_t end = ctx.timeline.first_event_at_or_after(ctx.playhead + 1);
            const ResourceData data = resource_data(ctx.timeline.trace(), end);
            draw_data(ctx, data);
            ImGui::Separator();
            draw_history(ctx, data, out);
            ImGui::End();
            return;
        }
        const auto& res = ctx.snap.resource;
        // A replayed history's resource judged each write itself (its log says accepted or
        // rejected): no mode of ours to name (model.md §19.7.4).
        const std::string mode =
            ctx.timeline.replayed()
                ? ctx.strings.tr("resource.mode_recorded")
                : ctx.strings.tr(
                      "resource.mode",
                      {{"mode", ctx.strings.tr(std::string("mode.") + sim::to_string(ctx.scenario.resource))}});
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextUnformatted(mode.c_str());
        ImGui::PopTextWrapPos();
        // The data first: what the writes did to it is the lesson; the numbers below say why.
        const std::size_t end = ctx.timeline.first_event_at_or_after(ctx.playhead + 1);
        const ResourceData data = resource_data(ctx.timeline.trace(), end);
        draw_data(ctx, data);
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
        draw_history(ctx, data, out);
        ImGui::End();
    }

private:
    // The value the writes left, up to the playhead; crimson when a lost update put it there.
    static void draw_data(const FrameContext& ctx, const ResourceData& data) {
        const bool lost = data.value && data.writes[*data.value].lost_update;
        const ImVec4 crimson(0.92f, 0.0f, 0.31f, 1);
        ImGui::PushTextWrapPos(0.0f);
        if (lost)
            ImGui::TextColored(crimson, "%s", data_now_words(data, ctx.strings).c_str());
        else
            ImGui::TextUnformatted(data_now_words(data, ctx.strings).c_str());
        if (lost) ImGui::TextColored(crimson, "%s", data_lost_words(data, *data.value, ctx.strings).c_str());
        ImGui::PopTextWrapPos();
    }

    // The value history up to the playhead, newest first: each write with its
    // verdict and marks, and what the data is after it; a lost update in crimson.
    static void draw_history(const FrameContext& ctx, const ResourceData& data, Commands& out) {
        int shown = 0;
        for (std::size_t i = data.writes.size(); i-- > 0 && shown < 6;) {
            ++shown;
            const DataWrite& w = data.writes[i];
            const sim::Event& e = ctx.timeline.trace().events[w.event];
            const MarkerKind mk = marker_kind_of(e, ctx.scenario.resource, ctx.timeline.replayed());
            ImDrawList* dl = ImGui::GetWindowDrawList();
            const ImVec2 p = ImGui::GetCursorScreenPos();
            const float h = ImGui::GetFontSize();
            draw_marker_shape(dl, ImVec2(p.x + h * 0.5f, p.y + h * 0.55f), mk, col(ctx.palette.of(mk)), h * 0.4f);
            ImGui::Dummy(ImVec2(h, h));
            ImGui::SameLine();
            const std::string line = data_write_words(data, i, ctx.strings);
            // Wrapped text rather than a one-line selectable: verdicts are long sentences.
            ImGui::PushTextWrapPos(0.0f);
            if (static_cast<std::int32_t>(w.event) == ctx.selected_event)
                ImGui::TextColored(ImVec4(0.08f, 0.35f, 0.78f, 1), "%s", line.c_str());
            else if (w.lost_update)
                ImGui::TextColored(ImVec4(0.92f, 0.0f, 0.31f, 1), "%s", line.c_str());
            else
                ImGui::TextUnformatted(line.c_str());
            ImGui::PopTextWrapPos();
            if (ImGui::IsItemClicked()) out.push_back(command::SelectEvent{static_cast<std::int64_t>(w.event)});
        }
        if (shown == 0) ImGui::TextDisabled("%s", ctx.tr("resource.no_writes"));
    }
};

}  // namespace

std::unique_ptr<View> make_resource_view() { return std::make_unique<ResourceView>(); }

}  // namespace leasescope::gui

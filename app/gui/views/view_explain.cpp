// "Explain this tick": the selected event (or the most telling event at the
// playhead) in plain words, followed by the state at the end of the tick.
#include "../core/cull.hpp"
#include "../core/words.hpp"
#include "view.hpp"

namespace leasescope::gui {
namespace {

class ExplainView final : public View {
public:
    const char* id() const override { return "explain"; }

    void draw(const FrameContext& ctx, Commands&) override {
        if (ctx.tour_step >= 0) return;  // the tour card takes this place
        if (ctx.bottom_taken()) return;  // so does the Live or Find panel
        if (!begin_panel(ctx, id(), ctx.tr("panel.explain"))) {
            ImGui::End();
            return;
        }
        const auto& events = ctx.timeline.trace().events;
        std::int32_t chosen = -1;
        if (ctx.selected_event >= 0 && static_cast<std::size_t>(ctx.selected_event) < events.size() &&
            events[static_cast<std::size_t>(ctx.selected_event)].tick == ctx.playhead) {
            chosen = ctx.selected_event;
        } else {
            // The most telling event of this tick, by the same priority the timeline folds with.
            int best = -1;
            for (std::size_t k = ctx.timeline.first_event_at_or_after(ctx.playhead);
                 k < events.size() && events[k].tick == ctx.playhead; ++k) {
                const int p = marker_priority(marker_kind_of(events[k]));
                if (p > best) {
                    best = p;
                    chosen = static_cast<std::int32_t>(k);
                }
            }
        }
        ImGui::PushTextWrapPos(0.0f);
        if (chosen >= 0) {
            ExplainContext ec;
            ec.scenario = &ctx.scenario;
            ec.trace = &ctx.timeline.trace();
            ec.event_index = static_cast<std::size_t>(chosen);
            ec.snapshot = &ctx.snap;
            // The same words as `leasescope-cli explain` prints for this event.
            const Explanation ex = explain(ec, ctx.strings);
            ImGui::PushFont(ctx.fonts.title);
            ImGui::TextUnformatted(ex.heading.c_str());
            ImGui::PopFont();
            ImGui::TextUnformatted(ex.body().c_str());
        } else {
            ImGui::TextDisabled("%s",
                                ctx.strings.tr("explain.quiet_tick", {{"tick", std::to_string(ctx.playhead)}}).c_str());
        }
        ImGui::Spacing();
        ImGui::Separator();
        ImGui::TextUnformatted(explain_state(ctx.snap, ctx.strings).c_str());
        ImGui::PopTextWrapPos();
        ImGui::End();
    }
};

}  // namespace

std::unique_ptr<View> make_explain_view() { return std::make_unique<ExplainView>(); }

}  // namespace leasescope::gui

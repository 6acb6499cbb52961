// "Explain this tick": the selected event (or the most telling event at the
// playhead) in plain words, followed by the state at the end of the tick.
#include "../core/words.hpp"
#include "view.hpp"

namespace leasescope::gui {
namespace {

class ExplainView final : public View {
public:
    Panel panel() const override { return Panel::explain; }

    void draw(const FrameContext& ctx, Commands& out) override {
        if (ctx.tour_step >= 0) return;  // the tour card takes this place
        if (ctx.bottom_taken()) return;  // so does the Live or Find panel
        if (!begin_panel(ctx, panel(), ctx.tr("panel.explain"), 0, &out)) {
            ImGui::End();
            return;
        }
        const std::int32_t chosen = chosen_event(ctx);
        ImGui::PushTextWrapPos(0.0f);
        if (chosen >= 0) {
            // The same words as `leasescope-cli explain` prints for this event.
            const Explanation ex = explanation_of(ctx, chosen);
            ImGui::PushFont(ctx.fonts.title);
            ImGui::TextUnformatted(ex.heading.c_str());
            ImGui::PopFont();
            // When its tick starts, as `leasescope-cli explain --time` says it.
            const Tick tick = ctx.timeline.trace().events[static_cast<std::size_t>(chosen)].tick;
            ImGui::TextDisabled("%s", tick_start_words(ctx.lanes.clock, tick, ctx.strings).c_str());
            ImGui::TextUnformatted(ex.body().c_str());
        } else {
            ImGui::TextDisabled("%s",
                                ctx.strings.tr("explain.quiet_tick", {{"tick", std::to_string(ctx.playhead)}}).c_str());
            ImGui::TextDisabled("%s", tick_start_words(ctx.lanes.clock, ctx.playhead, ctx.strings).c_str());
        }
        // The electors' state summary: a Redlock or Redisson run has none (its replay's fold would tell
        // every client as waiting); its clients' steps are in the candidates panel (model.md §20, §21).
        const std::string state = ctx.redlock || ctx.redisson ? std::string() : explain_state(ctx.snap, ctx.strings);
        if (!state.empty()) {  // never a heading with nothing under it
            ImGui::Spacing();
            ImGui::Separator();
            ImGui::TextUnformatted(state.c_str());
        }
        ImGui::PopTextWrapPos();
        ImGui::End();
    }
};

}  // namespace

std::unique_ptr<View> make_explain_view() { return std::make_unique<ExplainView>(); }

}  // namespace leasescope::gui

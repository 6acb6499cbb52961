// Narrated play on screen (view_compare.hpp): the explanation of the playhead's tick, large, in the Explain
// panel's place below the timeline, with the pace and whether the narration stopped here.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "../core/compare_pairs.hpp"
#include "../core/words.hpp"
#include "view_compare.hpp"

namespace leasescope::gui {
namespace {

// The event the narration explains at the playhead: the selected one when it
// is at the playhead, else the tick's first important event, else its last.
std::int64_t narrated_event(const FrameContext& ctx) {
    const auto& events = ctx.timeline.trace().events;
    if (ctx.selected_event >= 0 && static_cast<std::size_t>(ctx.selected_event) < events.size() &&
        events[static_cast<std::size_t>(ctx.selected_event)].tick == ctx.playhead)
        return ctx.selected_event;
    std::int64_t last = -1;
    for (std::size_t k = ctx.timeline.first_event_at_or_after(ctx.playhead);
         k < events.size() && events[k].tick == ctx.playhead; ++k) {
        if (is_narration_stop(events[k], ctx.scenario.resource)) return static_cast<std::int64_t>(k);
        last = static_cast<std::int64_t>(k);
    }
    return last;
}

}  // namespace

void draw_narration(const FrameContext& ctx, const Narration& n, Commands& out) {
    const ImGuiIO& io = ImGui::GetIO();
    const float em = ImGui::GetFontSize();
    // In the Explain panel's place (the app leaves Explain out meanwhile, so it is not told twice),
    // below the picture; the record and the resource stay in view. Else the lower right.
    ImVec2 pos(io.DisplaySize.x * 0.4f, io.DisplaySize.y * 0.7f),
        size(io.DisplaySize.x * 0.6f, io.DisplaySize.y * 0.3f);
    if (const PanelRect& ex = ctx.layout[Panel::explain]; ex.w > 0 && ex.h > 0) {
        pos = ImVec2(ex.x, ex.y);
        size = ImVec2(ex.w, ex.h);
    }
    ImGui::SetNextWindowPos(pos, ImGuiCond_Always);
    ImGui::SetNextWindowSize(size, ImGuiCond_Always);
    ImGui::Begin((std::string(ctx.tr("narrate.title")) + "###narrate").c_str(), nullptr,
                 ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                     ImGuiWindowFlags_NoSavedSettings);
    float pace = static_cast<float>(n.pace);
    ImGui::SetNextItemWidth(em * 8);
    if (ImGui::SliderFloat(ctx.tr("narrate.pace"), &pace, 0.25f, 8.0f, "%.2f")) out.push_back(command::SetPace{pace});
    if (ImGui::Button(ctx.tr("narrate.stop"))) out.push_back(command::NarrateToggle{});
    ImGui::PushTextWrapPos(0.0f);
    const std::string status =
        ctx.playhead >= ctx.lanes.end_tick
            ? ctx.strings.tr("narrate.end", {{"tick", std::to_string(ctx.playhead)}})
            : (ctx.playing
                   ? ctx.strings.tr("narrate.playing", {{"pace", fmt::format("{:g}", n.pace)}})
                   : (n.stopped_here ? ctx.strings.tr("narrate.paused_here", {{"tick", std::to_string(ctx.playhead)}})
                                     : std::string()));
    if (!status.empty()) ImGui::TextColored(ImVec4(0.08f, 0.35f, 0.78f, 1), "%s", status.c_str());
    ImGui::Separator();
    // The explanation itself, large: the body font scaled so the back row reads it.
    ImGui::SetWindowFontScale(1.45f);
    const std::int64_t k = narrated_event(ctx);
    if (k < 0) {
        ImGui::TextUnformatted(ctx.strings.tr("narrate.nothing", {{"tick", std::to_string(ctx.playhead)}}).c_str());
    } else {
        // A replayed history: the trace's facts only (view_common.cpp explanation_of).
        const sim::Scenario* scenario = ctx.timeline.replayed() ? nullptr : &ctx.scenario;
        const ExplainContext ec{scenario, &ctx.timeline.trace(), static_cast<std::size_t>(k), &ctx.snap};
        const Explanation ex = explain(ec, ctx.strings);
        ImGui::PushFont(ctx.fonts.title);
        ImGui::TextUnformatted(ex.heading.c_str());
        ImGui::PopFont();
        for (const Sentence& s : ex.sentences) {
            ImGui::TextUnformatted(s.text.c_str());
            ImGui::Spacing();
        }
    }
    ImGui::SetWindowFontScale(1.0f);
    ImGui::PopTextWrapPos();
    ImGui::End();
}

}  // namespace leasescope::gui

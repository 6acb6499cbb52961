// "Find a counterexample": searches fault schedules added to the current
// scenario (the explorer, advanced by the app a slice per frame), with a
// progress bar and a cancel button. What it finds is loaded as an edited
// scenario with the playhead on the violation; this panel then explains it.
#include <algorithm>

#include "leasescope/words/counterexample_words.hpp"
#include "view.hpp"

namespace leasescope::gui {
namespace {

class FindView final : public View {
public:
    Panel panel() const override { return Panel::find; }

    void draw(const FrameContext& ctx, Commands& out) override {
        if (!ctx.find.open) return;
        if (!begin_panel(ctx, panel(), ctx.tr("panel.find"))) {
            ImGui::End();
            return;
        }
        const FindStatus& s = ctx.find;
        const float em = ImGui::GetFontSize();
        const float left_w = std::max(em * 22, ImGui::GetContentRegionAvail().x * 0.32f);
        ImGui::BeginChild("##find_left", ImVec2(left_w, 0), false);
        ImGui::BeginDisabled(s.running);
        ImGui::TextUnformatted(ctx.tr("find.properties"));
        ImGui::Checkbox(ctx.tr("find.unsafe_write"), &unsafe_write_);
        // Redlock and Redisson issue no fencing number (model.md §20.6, §21.6): those checks cannot fail.
        const bool fenceless = ctx.scenario.is_redlock() || ctx.scenario.is_redisson();
        ImGui::SameLine();
        ImGui::BeginDisabled(fenceless);
        ImGui::Checkbox(ctx.tr("find.fencing_regressed"), &fencing_regressed_);
        ImGui::EndDisabled();
        ImGui::Checkbox(ctx.tr("find.liveness"), &liveness_);
        ImGui::SameLine();
        ImGui::Checkbox(ctx.tr("find.overlap"), &overlap_);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", ctx.tr("find.overlap_tip"));
        // The safety marks of model.md §9.6-§9.8.
        ImGui::BeginDisabled(fenceless);
        ImGui::Checkbox(ctx.tr("find.stale_after_successor"), &stale_after_successor_);
        ImGui::SameLine();
        ImGui::Checkbox(ctx.tr("find.holder_rejected"), &holder_rejected_);
        ImGui::Checkbox(ctx.tr("find.fencing_duplicate"), &fencing_duplicate_);
        ImGui::EndDisabled();
        ImGui::SetNextItemWidth(em * 9);
        const std::string format = std::string(ctx.tr("find.max_faults")) + " %d";
        ImGui::SliderInt("##max_faults", &max_faults_, 1, 3, format.c_str());
        ImGui::EndDisabled();
        const bool any = unsafe_write_ || fencing_regressed_ || liveness_ || overlap_ || stale_after_successor_ ||
                         holder_rejected_ || fencing_duplicate_;
        if (!s.running) {
            ImGui::BeginDisabled(!any);
            if (ImGui::Button(ctx.tr("find.run"))) {
                sim::Properties properties;
                properties.overlap = overlap_;
                properties.unsafe_write = unsafe_write_;
                properties.fencing_regressed = fencing_regressed_;
                properties.liveness = liveness_;
                properties.stale_after_successor = stale_after_successor_;
                properties.holder_rejected = holder_rejected_;
                properties.fencing_duplicate = fencing_duplicate_;
                out.push_back(command::FindRun{properties, max_faults_});
            }
            ImGui::EndDisabled();
        } else if (ImGui::Button(ctx.tr("find.cancel"))) {
            out.push_back(command::FindCancel{});
        }
        ImGui::SameLine();
        if (ImGui::Button(ctx.tr("live.close"))) out.push_back(command::FindToggle{});
        ImGui::PushTextWrapPos(0);
        ImGui::TextDisabled("%s", ctx.tr("find.hint"));
        ImGui::PopTextWrapPos();
        ImGui::EndChild();
        ImGui::SameLine();
        ImGui::BeginChild("##find_right", ImVec2(0, 0), false);
        draw_result(ctx, em);
        ImGui::EndChild();
        ImGui::End();
    }

private:
    static void draw_result(const FrameContext& ctx, float em) {
        const FindStatus& s = ctx.find;
        ImGui::PushTextWrapPos(0);
        const Fields counts{{"schedules", std::to_string(s.schedules)},
                            {"simulated", std::to_string(s.simulated)},
                            {"faults", std::to_string(s.max_faults)},
                            {"level", std::to_string(s.level)},
                            {"base", s.base_name},
                            {"tick", std::to_string(s.violation_tick)}};
        if (!s.error.empty()) {
            ImGui::TextColored(ImVec4(0.85f, 0.0f, 0.28f, 1), "%s", s.error.c_str());
        } else if (s.running) {
            const float frac = s.total > 0 ? static_cast<float>(s.position) / static_cast<float>(s.total) : 0.0f;
            const std::string overlay = ctx.strings.tr("find.progress", {{"level", std::to_string(s.level)},
                                                                         {"faults", std::to_string(s.max_faults)},
                                                                         {"pos", std::to_string(s.position)},
                                                                         {"total", std::to_string(s.total)}});
            ImGui::ProgressBar(std::clamp(frac, 0.0f, 1.0f), ImVec2(-1, em * 1.4f), overlay.c_str());
            ImGui::TextDisabled("%s", ctx.strings.tr("find.counts", counts).c_str());
        } else if (s.cancelled) {
            ImGui::TextColored(ImVec4(0.72f, 0.42f, 0.0f, 1), "%s", ctx.tr("find.cancelled"));
        } else if (s.finished && !s.found) {
            ImGui::PushFont(ctx.fonts.title);
            ImGui::TextColored(ImVec4(0.1f, 0.5f, 0.25f, 1), "%s", ctx.strings.tr("find.none", counts).c_str());
            ImGui::PopFont();
            ImGui::TextDisabled("%s", ctx.strings.tr("find.counts", counts).c_str());
        } else if (s.found) {
            ImGui::PushFont(ctx.fonts.title);
            ImGui::TextColored(ImVec4(0.85f, 0.0f, 0.28f, 1), "%s", ctx.strings.tr("find.found", counts).c_str());
            ImGui::PopFont();
            const std::vector<std::string> faults = words::fault_lines(s.facts, ctx.strings);
            if (faults.empty()) ImGui::TextUnformatted(ctx.tr("find.no_fault_needed"));
            for (const std::string& f : faults) ImGui::BulletText("%s", f.c_str());
            ImGui::Spacing();
            ImGui::TextUnformatted(words::explanation_words(s.facts, ctx.strings).c_str());
            ImGui::Spacing();
            ImGui::TextDisabled("%s", ctx.strings.tr("find.loaded", counts).c_str());
        } else {
            ImGui::TextDisabled("%s", ctx.strings.tr("find.intro", counts).c_str());
        }
        ImGui::PopTextWrapPos();
    }

    bool unsafe_write_ = true, fencing_regressed_ = true, liveness_ = true, overlap_ = false;
    bool stale_after_successor_ = false, holder_rejected_ = false, fencing_duplicate_ = false;
    int max_faults_ = 2;
};

}  // namespace

std::unique_ptr<View> make_find_view() { return std::make_unique<FindView>(); }

}  // namespace leasescope::gui

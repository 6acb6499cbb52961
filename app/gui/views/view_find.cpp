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
        // The mode of a search started (here or from the command line) is the one shown.
        if (s.search != search_seen_) {
            search_seen_ = s.search;
            smallest_ = s.smallest;
        }
        ImGui::BeginDisabled(s.running);
        // What to search: the smallest set of up to N faults, or the smallest
        // fault of each kind (explore --minimize).
        if (ImGui::RadioButton(ctx.tr("find.mode.schedule"), !smallest_)) smallest_ = false;
        ImGui::SameLine();
        ImGui::BeginDisabled(smallest_);
        ImGui::SetNextItemWidth(em * 9);
        const std::string format = std::string(ctx.tr("find.max_faults")) + " %d";
        ImGui::SliderInt("##max_faults", &max_faults_, 1, 3, format.c_str());
        ImGui::EndDisabled();
        if (ImGui::RadioButton(ctx.tr("find.mode.smallest"), smallest_)) smallest_ = true;
        ImGui::EndDisabled();
        draw_buttons(ctx, s, out);
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
        ImGui::EndDisabled();
        ImGui::PushTextWrapPos(0);
        ImGui::TextDisabled("%s", ctx.tr(smallest_ ? "find.smallest.hint" : "find.hint"));
        ImGui::PopTextWrapPos();
        ImGui::EndChild();
        ImGui::SameLine();
        ImGui::BeginChild("##find_right", ImVec2(0, 0), false);
        if (ctx.find.smallest && (ctx.find.running || ctx.find.finished) && ctx.find.error.empty()) {
            draw_smallest(ctx, em, out);
        } else {
            draw_result(ctx, em, smallest_);
        }
        ImGui::EndChild();
        ImGui::End();
    }

private:
    // Find (or Cancel while it runs) and Close.
    void draw_buttons(const FrameContext& ctx, const FindStatus& s, Commands& out) const {
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
                out.push_back(command::FindRun{properties, max_faults_, smallest_});
            }
            ImGui::EndDisabled();
        } else if (ImGui::Button(ctx.tr("find.cancel"))) {
            out.push_back(command::FindCancel{});
        }
        ImGui::SameLine();
        if (ImGui::Button(ctx.tr("live.close"))) out.push_back(command::FindToggle{});
    }

    static void draw_result(const FrameContext& ctx, float em, bool smallest) {
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
            // "None" is about this budget: say which sizes were tried.
            ImGui::TextUnformatted(words::budget_words(s.pause_sizes, s.pause_grid, s.tick_ms, ctx.strings).c_str());
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
            ImGui::TextDisabled("%s", ctx.strings.tr(smallest ? "find.smallest.intro" : "find.intro", counts).c_str());
        }
        ImGui::PopTextWrapPos();
    }

    // One kind's line: its answer (with Show once the scan is over), or,
    // while it is being scanned, the size being tried and a progress bar.
    static void draw_kind(const FrameContext& ctx, float em, int index, Commands& out) {
        const FindStatus& s = ctx.find;
        const Strings& t = ctx.strings;
        const FindKind& kind = s.kinds[static_cast<std::size_t>(index)];
        if (index == s.kind_now) {
            const Fields now{{"kind", words::fault_class_words(kind.kind, t)},
                             {"size", kind.sized ? words::size_words(s.size_now, s.tick_ms, t) : std::string()},
                             {"index", std::to_string(s.size_index + 1)},
                             {"count", std::to_string(std::max<std::size_t>(s.size_count, 1))},
                             {"pos", std::to_string(s.position)},
                             {"total", std::to_string(s.total)}};
            ImGui::BulletText("%s", t.tr("find.smallest.scanning", now).c_str());
            const float frac = s.total > 0 ? static_cast<float>(s.position) / static_cast<float>(s.total) : 0.0f;
            ImGui::ProgressBar(std::clamp(frac, 0.0f, 1.0f), ImVec2(-1, em * 1.4f),
                               t.tr("find.smallest.progress", now).c_str());
            return;
        }
        const words::KindAnswer answer{kind.kind, kind.sized, kind.threshold, kind.held, kind.on_grid};
        const std::string line = words::kind_answer_words(answer, s.tick_ms, t);
        if (kind.threshold) {
            // Show (or "on screen") first, so that a long line wraps beside it.
            ImGui::Bullet();
            if (kind.has_counterexample && !s.running) {
                ImGui::PushID(index);
                if (index == s.shown) {
                    ImGui::TextDisabled("[%s]", ctx.tr("find.smallest.shown"));
                } else if (ImGui::SmallButton(ctx.tr("find.smallest.show"))) {
                    out.push_back(command::FindShow{index});
                }
                ImGui::PopID();
                ImGui::SameLine();
            }
            ImGui::TextColored(ImVec4(0.85f, 0.0f, 0.28f, 1), "%s", line.c_str());
        } else {
            ImGui::BulletText("%s", line.c_str());
        }
    }

    // The smallest fault of each kind: the budget, then a line per kind
    // scanned (with Show for those a fault breaks), the one being scanned
    // and its progress; at the end, what is on screen.
    static void draw_smallest(const FrameContext& ctx, float em, Commands& out) {
        const FindStatus& s = ctx.find;
        const Strings& t = ctx.strings;
        ImGui::PushTextWrapPos(0);
        if (s.base_fails) {
            ImGui::PushFont(ctx.fonts.title);
            ImGui::TextColored(ImVec4(0.85f, 0.0f, 0.28f, 1), "%s", t.tr("find.found").c_str());
            ImGui::PopFont();
            ImGui::TextUnformatted(ctx.tr("find.no_fault_needed"));
            ImGui::TextUnformatted(words::explanation_words(s.facts, t).c_str());
            ImGui::PopTextWrapPos();
            return;
        }
        ImGui::PushFont(ctx.fonts.title);
        ImGui::TextUnformatted(ctx.tr("find.smallest.title"));
        ImGui::PopFont();
        if (!s.pause_sizes.empty())
            ImGui::TextDisabled("%s", words::budget_words(s.pause_sizes, s.pause_grid, s.tick_ms, t).c_str());
        for (std::size_t k = 0; k < s.kinds.size(); ++k) draw_kind(ctx, em, static_cast<int>(k), out);
        const Fields counts{{"schedules", std::to_string(s.schedules)}, {"simulated", std::to_string(s.simulated)}};
        ImGui::TextDisabled("%s", t.tr("find.counts", counts).c_str());
        if (!s.running) {
            if (s.shown >= 0 && static_cast<std::size_t>(s.shown) < s.kinds.size()) {
                ImGui::Spacing();
                ImGui::TextUnformatted(words::explanation_words(s.facts, t).c_str());
                const Fields shown{
                    {"kind", words::fault_class_words(s.kinds[static_cast<std::size_t>(s.shown)].kind, t)},
                    {"base", s.base_name},
                    {"tick", std::to_string(s.violation_tick)}};
                ImGui::TextDisabled("%s", t.tr("find.smallest.loaded", shown).c_str());
            } else {
                ImGui::TextColored(ImVec4(0.1f, 0.5f, 0.25f, 1), "%s", ctx.tr("find.smallest.nothing"));
            }
        }
        ImGui::PopTextWrapPos();
    }

    bool unsafe_write_ = true, fencing_regressed_ = true, liveness_ = true, overlap_ = false;
    bool stale_after_successor_ = false, holder_rejected_ = false, fencing_duplicate_ = false;
    int max_faults_ = 2;
    bool smallest_ = false;
    std::uint32_t search_seen_ = 0;
};

}  // namespace

std::unique_ptr<View> make_find_view() { return std::make_unique<FindView>(); }

}  // namespace leasescope::gui

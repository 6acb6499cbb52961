// The Exercise panel (docs/model.md §18): the open file's exercises with a
// done mark, and the current one: a prediction's choices (keys 1-9 choose,
// Enter confirms), a goal's knobs or a find_fault's controls with Try (Enter)
// and Show me, then what the model says. It takes the bottom row, as Find
// does; the answer's tick and a try's run are on the one timeline.
#include <algorithm>
#include <cstdio>

#include "../core/exercise_input.hpp"
#include "../core/words.hpp"
#include "leasescope/words/exercise_words.hpp"
#include "view.hpp"

namespace leasescope::gui {
namespace {

const ImVec4 right_color(0.1f, 0.5f, 0.25f, 1.0f);
const ImVec4 wrong_color(0.85f, 0.0f, 0.28f, 1.0f);
const ImVec4 hint_color(0.72f, 0.42f, 0.0f, 1.0f);

// A fault kind as the words name it ("pause", "clock jump").
std::string fault_kind_label(const FrameContext& ctx, sim::FaultKind kind) {
    return ctx.strings.tr(std::string("exercise.fault_kind.") + sim::to_string(kind));
}

// An ImGui format that shows `text` as it is (a slider's value label).
std::string literal_format(const std::string& text) {
    std::string out;
    for (char c : text) {
        if (c == '%') out.push_back('%');
        out.push_back(c);
    }
    return out;
}

// GLFW's key codes of the digits are their ASCII codes (as app.cpp's keys,
// ImGui 1.86 has no named digit keys): 1-9 pick a choice.
int digit_pressed() {
    if (ImGui::GetIO().WantTextInput || ImGui::GetIO().KeyCtrl) return -1;
    for (int d = 1; d <= 9; ++d)
        if (ImGui::IsKeyPressed('0' + d, false)) return d - 1;
    return -1;
}

bool enter_pressed() {
    if (ImGui::GetIO().WantTextInput) return false;
    return ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter), false) ||
           ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_KeyPadEnter), false);
}

// Puts the next item beside the last one when `width` still fits on the row,
// else on a row of its own (a cramped window, a large UI scale).
void beside_if_fits(float width) {
    const float right = ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + width;
    if (right <= ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x) ImGui::SameLine();
}

float button_width(const char* label) { return ImGui::CalcTextSize(label).x + ImGui::GetStyle().FramePadding.x * 2; }

// A combo's or slider's width with its label beside it.
float labelled_width(float item_w, const char* label) {
    return item_w + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label).x;
}

// The explanation of the event the timeline has selected at the playhead (Explain's words).
void draw_explanation(const FrameContext& ctx) {
    const std::int32_t chosen = chosen_event(ctx);
    if (chosen < 0) return;
    const Explanation ex = explanation_of(ctx, chosen);
    ImGui::TextUnformatted(ex.heading.c_str());
    ImGui::TextUnformatted(ex.body().c_str());
}

class ExerciseView final : public View {
public:
    Panel panel() const override { return Panel::exercise; }

    void draw(const FrameContext& ctx, Commands& out) override {
        if (!ctx.exercise.open) return;
        if (!begin_panel(ctx, panel(), ctx.tr("exercise.panel_title"))) {
            ImGui::End();
            return;
        }
        if (!ctx.exercise.base) {
            ImGui::TextDisabled("%s", ctx.tr("exercise.ui.none"));
            if (ImGui::Button(ctx.tr("live.close"))) out.push_back(command::ExerciseToggle{});
            ImGui::End();
            return;
        }
        sync(ctx);
        const float em = ImGui::GetFontSize();
        const float list_w = std::min(em * 12.0f, ImGui::GetContentRegionAvail().x * 0.3f);
        ImGui::BeginChild("##exercise_list", ImVec2(list_w, 0), false);
        draw_list(ctx, out);
        ImGui::EndChild();
        ImGui::SameLine();
        ImGui::BeginChild("##exercise_current", ImVec2(0, 0), false);
        ImGui::PushTextWrapPos(0.0f);
        draw_current(ctx, out);
        ImGui::PopTextWrapPos();
        ImGui::EndChild();
        ImGui::End();
    }

private:
    int shown_ = -1;                 // the exercise the controls below belong to
    int chosen_ = -1;                // predict: the choice picked, not yet confirmed
    std::vector<int> knobs_;         // goal: an index into each knob's values
    int fault_kind_ = 0, node_ = 0;  // find_fault: into the controls' kinds, the candidates
    int at_ = 0, length_ = 1;
    const sim::Attempt* seen_try_ = nullptr;      // the try the controls were last set from
    std::optional<sim::FaultKind> pending_kind_;  // a try's kind, found among the controls' kinds when drawn

    // A new exercise starts its controls from the file's own values; a try
    // (or Show me) sets them to what was tried.
    void sync(const FrameContext& ctx) {
        const ExerciseStatus& s = ctx.exercise;
        if (s.current != shown_) {
            shown_ = s.current;
            chosen_ = -1;
            knobs_.assign(s.written.begin(), s.written.end());
            fault_kind_ = node_ = at_ = 0;
            length_ = 1;
        }
        const sim::Attempt* last = s.last ? s.last->attempt.get() : nullptr;
        if (last == seen_try_) return;
        seen_try_ = last;
        if (last) take_try(*s.last, s.base->scenario.tick_ms);
    }

    void take_try(const ExerciseTry& t, std::int64_t tick_ms) {
        if (!t.knobs.empty()) knobs_.assign(t.knobs.begin(), t.knobs.end());
        if (!t.fault) return;
        const FaultControls c = controls_of(*t.fault, tick_ms);
        node_ = std::max(0, c.node);
        at_ = static_cast<int>(c.at);
        length_ = static_cast<int>(std::max<Tick>(1, c.length));
        pending_kind_ = c.kind;
    }

    static void draw_list(const FrameContext& ctx, Commands& out) {
        const ExerciseStatus& s = ctx.exercise;
        const auto done = std::count(s.done.begin(), s.done.end(), true);
        ImGui::PushTextWrapPos(0.0f);  // the list is narrow: at a large scale the count wraps
        ImGui::TextDisabled("%s",
                            words::progress_words(done, static_cast<std::int64_t>(s.count()), ctx.strings).c_str());
        ImGui::PopTextWrapPos();
        for (std::size_t i = 0; i < s.count(); ++i) {
            // The mark has a shape as well as a colour: a check when done, a circle when not.
            const std::string label = std::string(s.done[i] ? "\xE2\x9C\x93 " : "\xE2\x97\x8B ") +
                                      std::to_string(i + 1) + ". " +
                                      words::exercise_kind_words(s.base->scenario.exercises[i].kind, ctx.strings) +
                                      "##ex" + std::to_string(i);
            if (ImGui::Selectable(label.c_str(), static_cast<int>(i) == s.current))
                out.push_back(command::ExerciseOpen{static_cast<int>(i)});
        }
        if (ImGui::Button(ctx.tr("live.close"))) out.push_back(command::ExerciseToggle{});
    }

    void draw_current(const FrameContext& ctx, Commands& out) {
        const ExerciseStatus& s = ctx.exercise;
        const sim::Exercise* ex = s.exercise();
        if (!ex) {
            ImGui::TextDisabled("%s", ctx.tr("exercise.ui.pick"));
            return;
        }
        ImGui::PushFont(ctx.fonts.title);
        ImGui::TextUnformatted(words::exercise_text(ex->prompt, ctx.strings).c_str());
        ImGui::PopFont();
        if (ex->kind != sim::ExerciseKind::predict)  // the goal in words, under the author's prompt
            ImGui::TextDisabled(
                "%s", ctx.strings.tr("exercise.goal", {{"condition", words::condition_words(ex->goal, ctx.strings)}})
                          .c_str());
        if (!s.error.empty()) ImGui::TextColored(wrong_color, "%s", s.error.c_str());
        // After a wrong try the hint comes first, where a short panel does not scroll it away.
        const bool missed = s.wrong_before || (s.last && !s.last->met());
        const std::string hint = words::exercise_text(ex->hint, ctx.strings);
        if (missed && !hint.empty())
            ImGui::TextColored(hint_color, "%s", ctx.strings.tr("exercise.hint_line", {{"hint", hint}}).c_str());
        if (ex->kind == sim::ExerciseKind::predict)
            draw_predict(ctx, *ex, out);
        else if (ex->kind == sim::ExerciseKind::goal)
            draw_goal(ctx, *ex, out);
        else
            draw_find_fault(ctx, out);
        if (s.current + 1 < static_cast<int>(s.count()) && ImGui::Button(ctx.tr("exercise.next")))
            out.push_back(command::ExerciseOpen{s.current + 1});
    }

    void draw_predict(const FrameContext& ctx, const sim::Exercise& ex, Commands& out) {
        const ExerciseStatus& s = ctx.exercise;
        if (!s.prediction) return;
        const sim::Prediction& p = *s.prediction;
        if (s.answer >= 0) return draw_predicted(ctx, out);
        const std::size_t keys = std::min<std::size_t>(p.choices.size(), 9);
        const std::string before = ctx.strings.tr("exercise.stops_before", {{"at", std::to_string(ex.at)}}) + " " +
                                   ctx.strings.tr("exercise.ui.keys", {{"keys", std::to_string(keys)}});
        ImGui::TextDisabled("%s", before.c_str());
        if (const int d = digit_pressed(); d >= 0 && static_cast<std::size_t>(d) < p.choices.size()) chosen_ = d;
        for (std::size_t i = 0; i < p.choices.size(); ++i) {
            const std::string label = ctx.strings.tr(
                "exercise.choice_line",
                {{"number", std::to_string(i + 1)}, {"choice", words::choice_words(p.choices[i], ctx.strings)}});
            // Each choice on the row while it fits, else on a row of its own.
            if (i > 0) {
                const float w = ImGui::CalcTextSize(label.c_str()).x + ImGui::GetFontSize() * 2.5f;
                ImGui::SameLine();
                if (ImGui::GetContentRegionAvail().x < w) ImGui::NewLine();
            }
            if (ImGui::RadioButton(label.c_str(), chosen_ == static_cast<int>(i))) chosen_ = static_cast<int>(i);
        }
        ImGui::BeginDisabled(chosen_ < 0);
        if (ImGui::Button(ctx.tr("exercise.ui.confirm")) || (chosen_ >= 0 && enter_pressed()))
            out.push_back(command::ExerciseAnswer{chosen_});
        ImGui::EndDisabled();
    }

    // After the answer: right or wrong with what the trace shows, and the tick in Explain's words.
    static void draw_predicted(const FrameContext& ctx, Commands& out) {
        const ExerciseStatus& s = ctx.exercise;
        const sim::Prediction& p = *s.prediction;
        const std::string said =
            words::prediction_feedback(*s.base, static_cast<std::size_t>(s.current), p, s.answer, ctx.strings);
        ImGui::PushFont(ctx.fonts.title);
        if (s.answer == p.right)
            ImGui::TextColored(right_color, "\xE2\x9C\x93 %s", said.c_str());
        else
            ImGui::TextColored(wrong_color, "\xE2\x9C\x97 %s", said.c_str());
        ImGui::PopFont();
        draw_explanation(ctx);
        if (s.answer == p.right) return;
        if (ImGui::Button(ctx.tr("exercise.ui.again"))) out.push_back(command::ExerciseOpen{s.current});
        beside_if_fits(button_width(ctx.tr("exercise.next")));  // Next beside it, in view on a short panel
    }

    void draw_goal(const FrameContext& ctx, const sim::Exercise& ex, Commands& out) {
        knobs_.resize(ex.knobs.size(), 0);
        const float em = ImGui::GetFontSize();
        for (std::size_t k = 0; k < ex.knobs.size(); ++k) {
            const sim::Knob& knob = ex.knobs[k];
            const int n = static_cast<int>(knob.values.size());
            knobs_[k] = std::clamp(knobs_[k], 0, std::max(0, n - 1));
            const std::string value = knob_value_label(knob.values[static_cast<std::size_t>(knobs_[k])]);
            ImGui::SetNextItemWidth(std::min(em * 14.0f, ImGui::GetContentRegionAvail().x * 0.5f));
            ImGui::SliderInt(("##knob" + std::to_string(k)).c_str(), &knobs_[k], 0, n - 1,
                             literal_format(value).c_str());
            ImGui::SameLine();
            const auto& written = ctx.exercise.written;
            const std::string own =
                k < written.size() ? knob_value_label(knob.values[static_cast<std::size_t>(written[k])]) : "";
            ImGui::TextUnformatted(ctx.strings.tr("exercise.ui.knob", {{"set", knob.set}, {"own", own}}).c_str());
        }
        if (ImGui::Button(ctx.tr("exercise.try")) || enter_pressed())
            out.push_back(command::ExerciseTryKnobs{std::vector<std::int32_t>(knobs_.begin(), knobs_.end())});
        draw_try_buttons(ctx, out);
        draw_try(ctx);
    }

    void draw_find_fault(const FrameContext& ctx, Commands& out) {
        const ExerciseStatus& s = ctx.exercise;
        if (!s.budget) return;
        std::vector<sim::FaultKind> kinds;
        for (sim::FaultKind k : s.budget->kinds)
            if (fault_kind_has_controls(k, *s.budget)) kinds.push_back(k);
        if (!kinds.empty()) draw_fault_controls(ctx, kinds, out);
        draw_try_buttons(ctx, out);
        draw_try(ctx);
    }

    void draw_fault_controls(const FrameContext& ctx, const std::vector<sim::FaultKind>& kinds, Commands& out) {
        const sim::FaultBudget& b = *ctx.exercise.budget;
        const float w = std::min(ImGui::GetFontSize() * 11.0f, ImGui::GetContentRegionAvail().x * 0.45f);
        if (pending_kind_)
            for (std::size_t i = 0; i < kinds.size(); ++i)
                if (kinds[i] == *pending_kind_) fault_kind_ = static_cast<int>(i);
        pending_kind_.reset();
        fault_kind_ = std::clamp(fault_kind_, 0, static_cast<int>(kinds.size()) - 1);
        const sim::FaultKind kind = kinds[static_cast<std::size_t>(fault_kind_)];
        ImGui::SetNextItemWidth(w);
        if (ImGui::BeginCombo(ctx.tr("exercise.ui.fault_kind"), fault_kind_label(ctx, kind).c_str())) {
            for (std::size_t i = 0; i < kinds.size(); ++i)
                if (ImGui::Selectable(fault_kind_label(ctx, kinds[i]).c_str(), static_cast<int>(i) == fault_kind_))
                    fault_kind_ = static_cast<int>(i);
            ImGui::EndCombo();
        }
        if (fault_kind_has_node(kind)) draw_node_combo(ctx, w);
        ImGui::SetNextItemWidth(w);
        ImGui::SliderInt(ctx.tr("exercise.ui.fault_at"), &at_, 0, static_cast<int>(b.at_max));
        if (kind != sim::FaultKind::crash && kind != sim::FaultKind::failover) {
            beside_if_fits(labelled_width(w, ctx.tr("exercise.ui.fault_length")));
            ImGui::SetNextItemWidth(w);
            ImGui::SliderInt(ctx.tr("exercise.ui.fault_length"), &length_, 1,
                             static_cast<int>(std::max<Tick>(1, b.ticks_max)));
        }
        const FaultControls c = with_budget_choice(FaultControls{kind, node_, at_, length_}, b);
        if (ImGui::Button(ctx.tr("exercise.try")) || enter_pressed())
            out.push_back(command::ExerciseTryFault{fault_of(c, ctx.exercise.base->scenario.tick_ms)});
    }

    void draw_node_combo(const FrameContext& ctx, float w) {
        const auto& nodes = ctx.exercise.base->scenario.candidates;
        if (nodes.empty()) return;
        node_ = std::clamp(node_, 0, static_cast<int>(nodes.size()) - 1);
        beside_if_fits(labelled_width(w, ctx.tr("exercise.ui.fault_node")));
        ImGui::SetNextItemWidth(w);
        if (!ImGui::BeginCombo(ctx.tr("exercise.ui.fault_node"), nodes[static_cast<std::size_t>(node_)].name.c_str()))
            return;
        for (std::size_t i = 0; i < nodes.size(); ++i)
            if (ImGui::Selectable(nodes[i].name.c_str(), static_cast<int>(i) == node_)) node_ = static_cast<int>(i);
        ImGui::EndCombo();
    }

    // Show me, and the way back to the file's own run while a try is on the timeline.
    static void draw_try_buttons(const FrameContext& ctx, Commands& out) {
        beside_if_fits(button_width(ctx.tr("exercise.show_me")));
        if (ImGui::Button(ctx.tr("exercise.show_me"))) out.push_back(command::ExerciseShowMe{});
        if (ctx.exercise.showing_try) {
            beside_if_fits(button_width(ctx.tr("exercise.back")));
            if (ImGui::Button(ctx.tr("exercise.back"))) out.push_back(command::ExerciseBack{});
        }
    }

    // What the last try did (the words' attempt_lines: met or not, the
    // event that shows it, where the run parts from the file's, the
    // violations), what was tried, the smallest fault after a met
    // find_fault try, and the event that shows it in Explain's words.
    static void draw_try(const FrameContext& ctx) {
        const ExerciseStatus& s = ctx.exercise;
        if (!s.last) return;
        const ExerciseTry& t = *s.last;
        const auto k = static_cast<std::size_t>(s.current);
        const std::vector<std::string> lines = words::attempt_lines(*s.base, k, *t.attempt, ctx.strings);
        ImGui::Spacing();
        ImGui::PushFont(ctx.fonts.title);
        ImGui::TextColored(t.met() ? right_color : wrong_color, "%s %s", t.met() ? "\xE2\x9C\x93" : "\xE2\x9C\x97",
                           lines.empty() ? "" : lines.front().c_str());
        ImGui::PopFont();
        if (t.shown && !t.knobs.empty())
            ImGui::TextUnformatted(words::solution_words(*s.base, k, t.knobs, ctx.strings).c_str());
        else if (!t.knobs.empty())
            ImGui::TextUnformatted(ctx.strings
                                       .tr("exercise.your_values",
                                           {{"knobs", words::knob_values_words(*s.exercise(), t.knobs, ctx.strings)}})
                                       .c_str());
        if (t.fault)
            ImGui::TextUnformatted(
                ctx.strings
                    .tr("exercise.your_fault",
                        {{"fault", words::added_fault_words(s.base->scenario, *t.fault, ctx.strings)}})
                    .c_str());
        if (s.smallest) ImGui::TextUnformatted(words::smallest_fault_words(*s.base, s.smallest, ctx.strings).c_str());
        for (std::size_t i = 1; i < lines.size(); ++i) ImGui::TextDisabled("%s", lines[i].c_str());
        if (s.showing_try) draw_explanation(ctx);
    }
};

}  // namespace

std::unique_ptr<View> make_exercise_view() { return std::make_unique<ExerciseView>(); }

}  // namespace leasescope::gui

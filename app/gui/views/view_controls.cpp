// The top bar: preset picker, open/save, language, tour, export, and the
// scenario's parameters. Every change is an edit command; the app re-simulates
// at once and keeps the playhead.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "../platform.hpp"
#include "leasescope/engine/elector.hpp"
#include "view.hpp"
#include "view_compare.hpp"

// After imgui.h (through view.hpp): it needs IMGUI_API.
#include <imgui_stdlib.h>

namespace leasescope::gui {
namespace {

class ControlsView final : public View {
public:
    Panel panel() const override { return Panel::controls; }

    void draw(const FrameContext& ctx, Commands& out) override {
        if (!begin_panel(ctx, panel(), "LeaseScope", ImGuiWindowFlags_NoTitleBar)) {
            ImGui::End();
            return;
        }
        const float em = ImGui::GetFontSize();
        ImGui::PushFont(ctx.fonts.title);
        ImGui::TextColored(ImVec4(0.08f, 0.35f, 0.78f, 1), "LeaseScope");
        ImGui::PopFont();
        flow(em * 15, em);
        draw_presets(ctx, out, em);
        if (!ctx.edited_from.empty()) {
            flow(button_w(ctx.tr("ctl.back_to_preset")), ImGui::GetStyle().ItemSpacing.x);
            if (ImGui::Button(ctx.tr("ctl.back_to_preset"))) out.push_back(command::LoadPreset{ctx.edited_from});
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", ctx.tr("tip.back_to_preset"));
        }
        draw_file_buttons(ctx, out);
        draw_buttons(ctx, out, em);
        draw_message(ctx, em);
        if (ctx.timeline.replayed()) {
            draw_replay_strip(ctx);  // a recorded history has no knobs (model.md §19.9)
        } else {
            draw_knobs(ctx, out, em);
            ImGui::Spacing();
            draw_lesson(ctx);
        }
        // The bar is as tall as its wrapped knobs and lesson: ask the app for that height.
        const float needed =
            ImGui::GetCursorPosY() + ImGui::GetStyle().WindowPadding.y - ImGui::GetStyle().ItemSpacing.y;
        if (std::fabs(needed - ImGui::GetWindowHeight()) >= 1.0f) {
            out.push_back(command::SetTopHeight{needed});
        }
        ImGui::End();
    }

private:
    // Open and Save. The buttons flow: on a narrow window they wrap to the
    // next row, never off the edge. In the browser, Open is the browser's
    // file dialog and Save a download (platform.hpp).
    void draw_file_buttons(const FrameContext& ctx, Commands& out) {
        flow(button_w(ctx.tr("ctl.open")), ImGui::GetStyle().ItemSpacing.x);
        if (ImGui::Button(ctx.tr("ctl.open"))) {
            path_ = ctx.scenario_path;
            if (shell_picks_files())
                out.push_back(command::OpenPicker{});
            else
                ImGui::OpenPopup("open_popup");
        }
        flow(button_w(ctx.tr("ctl.save")), ImGui::GetStyle().ItemSpacing.x);
        // A replayed history is not a scenario: nothing to save (model.md §19.9).
        ImGui::BeginDisabled(ctx.timeline.replayed());
        const bool save = ImGui::Button(ctx.tr("ctl.save"));
        ImGui::EndDisabled();
        if (save) {
            path_ = ctx.scenario.name + "-edited.json";
            if (shell_picks_files())
                out.push_back(command::SavePath{path_});
            else
                ImGui::OpenPopup("save_popup");
        }
        path_popup<command::OpenPath>("open_popup", ctx.tr("ctl.open"), ctx, out);
        path_popup<command::SavePath>("save_popup", ctx.tr("ctl.save"), ctx, out);
    }

    // The language, the tour, the panels' toggles, Export, Compare, layout and View.
    static void draw_buttons(const FrameContext& ctx, Commands& out, float em) {
        // Language: switchable while running.
        // Each language by its own name, the same in both tables.
        flow(button_w(ctx.tr("ctl.lang_en")) + 2 + button_w(ctx.tr("ctl.lang_ko")), em);
        if (lang_button(ctx.tr("ctl.lang_en"), ctx.lang() == Lang::en)) out.push_back(command::SetLang{Lang::en});
        ImGui::SameLine(0, 2);
        if (lang_button(ctx.tr("ctl.lang_ko"), ctx.lang() == Lang::ko)) out.push_back(command::SetLang{Lang::ko});
        const char* tour_label = ctx.tour_step >= 0 ? ctx.tr("ctl.tour_running") : ctx.tr("ctl.tour");
        flow(button_w(tour_label), em);
        if (ImGui::Button(tour_label)) {
            if (ctx.tour_step >= 0)
                out.push_back(command::TourStop{});
            else
                out.push_back(command::TourGoto{0});
        }
        // A replayed history cannot be run live or searched: the strip under the bar says why.
        const bool replayed = ctx.timeline.replayed();
        flow(button_w(ctx.tr("ctl.live")), ImGui::GetStyle().ItemSpacing.x);
        ImGui::BeginDisabled(replayed);
        if (toggle_button(ctx.tr("ctl.live"), ctx.live.open)) out.push_back(command::LiveToggle{});
        ImGui::EndDisabled();
        if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
            ImGui::SetTooltip("%s", ctx.tr(replayed ? "replay.read_only" : "tip.live"));
        flow(button_w(ctx.tr("ctl.find")), ImGui::GetStyle().ItemSpacing.x);
        ImGui::BeginDisabled(replayed);
        if (toggle_button(ctx.tr("ctl.find"), ctx.find.open)) out.push_back(command::FindToggle{});
        ImGui::EndDisabled();
        if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
            ImGui::SetTooltip("%s", ctx.tr(replayed ? "replay.read_only" : "tip.find"));
        if (ctx.exercise.base) {  // only a file with exercises has the button
            flow(button_w(ctx.tr("exercise.panel_title")), ImGui::GetStyle().ItemSpacing.x);
            if (toggle_button(ctx.tr("exercise.panel_title"), ctx.exercise.open))
                out.push_back(command::ExerciseToggle{});
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", ctx.tr("exercise.ui.tip"));
        }
        flow(button_w(ctx.tr("ctl.code")), ImGui::GetStyle().ItemSpacing.x);
        if (toggle_button(ctx.tr("ctl.code"), ctx.code_open)) out.push_back(command::CodeToggle{});
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", ctx.tr("tip.code"));
        flow(button_w(ctx.tr("ctl.export")), ImGui::GetStyle().ItemSpacing.x);
        if (ImGui::Button(ctx.tr("ctl.export"))) ImGui::OpenPopup("export_menu");
        if (ImGui::BeginPopup("export_menu")) {
            const std::string base = ctx.scenario.name + "-t" + std::to_string(ctx.playhead);
            if (ImGui::MenuItem(ctx.tr("ctl.export_png"))) out.push_back(command::ExportPng{base + ".png"});
            if (ImGui::MenuItem(ctx.tr("ctl.export_svg"))) out.push_back(command::ExportSvg{base + ".svg"});
            if (ImGui::MenuItem(ctx.tr("ctl.export_jsonl")))
                out.push_back(command::ExportJsonl{ctx.scenario.name + ".trace.jsonl"});
            ImGui::EndPopup();
        }
        flow(button_w(ctx.tr("compare.menu")), ImGui::GetStyle().ItemSpacing.x);
        draw_compare_menu(ctx, out);  // side by side and narrated play (view_compare.cpp)
        flow(button_w(ctx.tr("ctl.reset_layout")), ImGui::GetStyle().ItemSpacing.x);
        if (ImGui::Button(ctx.tr("ctl.reset_layout"))) out.push_back(command::ResetLayout{});
        flow(button_w(ctx.tr("ctl.view")), ImGui::GetStyle().ItemSpacing.x);
        draw_view_menu(ctx, out);
    }

    // Messages after the buttons, wrapped to the bar's width.
    static void draw_message(const FrameContext& ctx, float em) {
        const std::string& message = !ctx.error.empty() ? ctx.error : ctx.notice;
        if (message.empty()) return;
        flow(std::min(ImGui::CalcTextSize(message.c_str()).x, em * 20), em);
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextColored(!ctx.error.empty() ? ImVec4(0.85f, 0.0f, 0.28f, 1) : ImVec4(0.1f, 0.5f, 0.25f, 1), "%s",
                           message.c_str());
        ImGui::PopTextWrapPos();
        if (!ctx.error.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", ctx.error.c_str());
    }

    // On a short screen for the text size (under 36 lines: a projector at a
    // large scale) the knobs fold into a panel that the "Knobs" button opens,
    // so the timeline keeps its room; otherwise they wrap in the bar.
    void draw_knobs(const FrameContext& ctx, Commands& out, float em) {
        if (ImGui::GetIO().DisplaySize.y >= em * 36.0f) return draw_parameters(ctx, out, em);
        flow(button_w(ctx.tr("ctl.knobs")), em);
        if (ImGui::Button(ctx.tr("ctl.knobs"))) ImGui::OpenPopup("knobs_popup");
        ImGui::SetNextWindowSize(ImVec2(ImGui::GetIO().DisplaySize.x * 0.9f, 0));
        if (ImGui::BeginPopup("knobs_popup")) {
            draw_parameters(ctx, out, em);
            ImGui::EndPopup();
        }
    }

    // The preset's point, whole: a strip that wraps to the window's width in
    // either language (never cut, never only in a tooltip). On an edited copy
    // of a preset the strip says that it was written for the preset, whose
    // story the edits may have changed (with lease 14 nobody takes over).
    static void draw_lesson(const FrameContext& ctx) {
        const std::string& lesson = ctx.lang() == Lang::ko && !ctx.scenario.summary.ko.empty()
                                        ? ctx.scenario.summary.ko
                                        : ctx.scenario.summary.en;
        if (lesson.empty()) return;
        const bool edited = !ctx.edited_from.empty();
        std::string summary = edited ? std::string(ctx.tr("lesson.edited_note")) + " " + lesson : lesson;
        // The lesson tells the story: not before a prediction about it is answered.
        if (ctx.future_hidden()) summary = ctx.tr("exercise.ui.lesson_hidden");
        draw_strip(ctx.tr(edited ? "lesson.tag_edited" : "lesson.tag"), summary,
                   edited ? IM_COL32(240, 240, 236, 255) : IM_COL32(232, 240, 252, 255),
                   edited ? IM_COL32(110, 112, 120, 255) : IM_COL32(20, 90, 200, 255));
    }

    // A replayed history's strip in place of the knobs and the lesson: where
    // it came from, and why nothing here can be changed.
    static void draw_replay_strip(const FrameContext& ctx) {
        const sim::TraceHeader& header = ctx.timeline.trace().header;
        std::string sources;
        if (header.import) {
            for (const auto& source : header.import->sources) sources += (sources.empty() ? "" : ", ") + source.file;
        }
        if (sources.empty()) sources = ctx.scenario_path;
        std::string text =
            ctx.strings.tr("replay.strip",
                           {{"sources", sources}, {"lock", header.import ? header.import->lock_key : header.lock}}) +
            " " + ctx.tr("replay.read_only");
        // A Redlock trace carries no driftFactor (model.md §20.8): the windows drawn assume the default.
        if (header.format == 5)
            text += " " + ctx.strings.tr("replay.redlock_drift",
                                         {{"drift_factor", fmt::format("{}", sim::RedlockOptions{}.drift_factor)}});
        draw_strip(ctx.tr("replay.tag"), text, IM_COL32(246, 240, 226, 255), IM_COL32(150, 110, 0, 255));
    }

    // A strip the bar's width: a tag, then the text wrapped beside it (never cut).
    static void draw_strip(const char* tag, const std::string& summary, ImU32 fill, ImU32 tag_fill) {
        ImDrawList* dl = ImGui::GetWindowDrawList();
        const ImVec2 tag_size = ImGui::CalcTextSize(tag);
        const ImVec2 p = ImGui::GetCursorScreenPos();
        const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
        const float text_x = p.x + tag_size.x + 16;
        const float wrap_w = std::max(50.0f, right - text_x - 6);
        const ImVec2 text_size = ImGui::CalcTextSize(summary.c_str(), nullptr, false, wrap_w);
        const float h = std::max(text_size.y, tag_size.y) + 6;
        dl->AddRectFilled(p, ImVec2(right, p.y + h), fill, 4.0f);
        dl->AddRectFilled(p, ImVec2(p.x + tag_size.x + 10, p.y + h), tag_fill, 4.0f);
        dl->AddText(ImVec2(p.x + 5, p.y + 3), IM_COL32(255, 255, 255, 255), tag);
        ImGui::SetCursorScreenPos(ImVec2(text_x, p.y + 3));
        ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + wrap_w);
        ImGui::TextUnformatted(summary.c_str());
        ImGui::PopTextWrapPos();
        ImGui::SetCursorScreenPos(ImVec2(p.x, p.y + h + 2));
        ImGui::Dummy(ImVec2(1, 1));
    }

    // Projector mode: the UI scale (also Ctrl+plus / Ctrl+minus / Ctrl+0) and the high-contrast palette.
    static void draw_view_menu(const FrameContext& ctx, Commands& out) {
        if (ImGui::Button(ctx.tr("ctl.view"))) ImGui::OpenPopup("view_menu");
        if (!ImGui::BeginPopup("view_menu")) return;
        ImGui::TextDisabled("%s", ctx.tr("view.scale"));
        const int now = static_cast<int>(std::lround(ctx.scale * 100.0f));
        for (int p = 100; p <= 250; p += 25) {
            const std::string label = std::to_string(p) + " %";
            const char* keys = p == 100 ? "Ctrl+0" : p == now + 25 ? "Ctrl++" : p == now - 25 ? "Ctrl+-" : nullptr;
            if (ImGui::MenuItem(label.c_str(), keys, p == now) && p != now) out.push_back(command::SetScale{p});
        }
        ImGui::Separator();
        if (ImGui::MenuItem(ctx.tr("view.high_contrast"), nullptr, ctx.high_contrast))
            out.push_back(command::SetHighContrast{!ctx.high_contrast});
        if (ImGui::IsItemHovered()) {
            ImGui::BeginTooltip();
            ImGui::PushTextWrapPos(ImGui::GetFontSize() * 24);
            ImGui::TextUnformatted(ctx.tr("tip.high_contrast"));
            ImGui::PopTextWrapPos();
            ImGui::EndTooltip();
        }
        ImGui::EndPopup();
    }

    static float button_w(const char* label) {
        return ImGui::CalcTextSize(label, nullptr, true).x + ImGui::GetStyle().FramePadding.x * 2;
    }

    // Starts a new row when an item `w` wide no longer fits on this one.
    static void flow(float w, float spacing) {
        const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
        if (ImGui::GetItemRectMax().x + spacing + w <= right) ImGui::SameLine(0, spacing);
    }

    // A button that stays lit while its panel is open.
    static bool toggle_button(const char* label, bool active) {
        if (active) ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(0.08f, 0.35f, 0.78f, 1));
        if (active) ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 1, 1, 1));
        const bool pressed = ImGui::Button(label);
        if (active) ImGui::PopStyleColor(2);
        return pressed;
    }

    static bool lang_button(const char* label, bool active) {
        if (active) ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(0.08f, 0.35f, 0.78f, 1));
        if (active) ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 1, 1, 1));
        const bool pressed = ImGui::Button(label);
        if (active) ImGui::PopStyleColor(2);
        return pressed && !active;
    }

    void draw_presets(const FrameContext& ctx, Commands& out, float em) {
        const std::string& title =
            ctx.lang() == Lang::ko && !ctx.scenario.title.ko.empty() ? ctx.scenario.title.ko : ctx.scenario.title.en;
        const std::string& plain = title.empty() ? ctx.scenario.name : title;
        const std::string shown =
            ctx.edited_from.empty() ? plain : ctx.strings.tr("scenario.edited_title", {{"title", plain}});
        ImGui::SetNextItemWidth(em * 15);
        if (ImGui::BeginCombo("##preset", shown.c_str())) {
            for (const PresetInfo& p : ctx.presets) {
                const std::string& t = ctx.lang() == Lang::ko && !p.title.ko.empty() ? p.title.ko : p.title.en;
                const std::string label = (t.empty() ? p.name : t) + "###" + p.path;
                if (ImGui::Selectable(label.c_str(), p.path == ctx.scenario_path))
                    out.push_back(command::LoadPreset{p.path});
                if (ImGui::IsItemHovered()) {
                    const std::string& s =
                        ctx.lang() == Lang::ko && !p.summary.ko.empty() ? p.summary.ko : p.summary.en;
                    if (!s.empty()) {
                        ImGui::BeginTooltip();
                        ImGui::PushTextWrapPos(em * 28);
                        ImGui::TextUnformatted(s.c_str());
                        ImGui::PopTextWrapPos();
                        ImGui::EndTooltip();
                    }
                }
            }
            ImGui::EndCombo();
        }
    }

    // PathCommand: command::OpenPath or command::SavePath.
    template <class PathCommand>
    void path_popup(const char* id, const char* title, const FrameContext& ctx, Commands& out) {
        if (!ImGui::BeginPopup(id)) return;
        ImGui::TextUnformatted(title);
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 30);
        const bool enter = ImGui::InputText("##path", &path_, ImGuiInputTextFlags_EnterReturnsTrue);
        if (ImGui::IsItemEdited()) out.push_back(command::TextEdited{path_});  // Korean glyphs (host.cpp)
        ImGui::SameLine();
        if ((ImGui::Button(ctx.tr("ctl.ok")) || enter) && !path_.empty()) {
            out.push_back(PathCommand{path_});
            ImGui::CloseCurrentPopup();
        }
        ImGui::EndPopup();
    }

    // The words inside a knob: "lease 6 ticks = 300 ms" (the tick length is the
    // scenario's); `shown` stands for the number. extend_every 0 is the
    // library's own period (library_watchdog_period_ms, model.md §5.5), told in
    // milliseconds.
    static std::string knob_text(const FrameContext& ctx, const char* label_key, const char* key, long long ticks,
                                 const std::string& shown) {
        const long long tick_ms = ctx.scenario.tick_ms;
        if (ticks == 0 && std::string_view(key) == "extend_every" && !ctx.scenario.candidates.empty()) {
            const std::int64_t period_ms =
                library_watchdog_period_ms(ctx.scenario.candidates.front().options.lease, tick_ms);
            return ctx.strings.tr("unit.knob_library",
                                  {{"label", ctx.tr(label_key)}, {"ms", std::to_string(period_ms)}});
        }
        return ctx.strings.tr(
            ticks == 1 ? "unit.knob_one" : "unit.knob",
            {{"label", ctx.tr(label_key)}, {"ticks", shown}, {"ms", std::to_string(ticks * tick_ms)}});
    }

    // One parameter slider that edits every candidate at once, as wide as its
    // words need at the largest value, on a new row when this one is full.
    static void param(const FrameContext& ctx, Commands& out, const char* label_key, const char* key, Tick value,
                      int lo, int hi, bool first) {
        int v = static_cast<int>(value);
        const float frame = ImGui::GetStyle().FramePadding.x * 2 + 8;
        // As wide as its words now, plus two digits of slack, so dragging by a
        // step or two does not reflow the row under the mouse.
        const float width = ImGui::CalcTextSize(knob_text(ctx, label_key, key, v, std::to_string(v)).c_str()).x +
                            ImGui::CalcTextSize("00").x + frame;
        if (!first) flow(width, ImGui::GetFontSize() * 0.6f);
        ImGui::SetNextItemWidth(width);
        // The name and the unit sit inside the slider: compact and readable from the back row.
        const std::string id = std::string("##") + key;
        // The slider prints the value itself (%d); the milliseconds follow the value shown.
        std::string with_value;
        for (char c : knob_text(ctx, label_key, key, v, "\x01")) {
            if (c == '%')
                with_value += "%%";
            else if (c == '\x01')
                with_value += "%d";
            else
                with_value += c;
        }
        if (ImGui::SliderInt(id.c_str(), &v, lo, hi, with_value.c_str()))
            out.push_back(command::EditScenario{{Edit{
                Edit::Kind::set_all, key,
                v == 0 && std::string_view(key) == "extend_every" ? nlohmann::json(nullptr) : nlohmann::json(v)}}});
        const std::string tip_key = std::string("tip.param.") + key;
        if (ImGui::IsItemHovered()) {
            ImGui::BeginTooltip();
            ImGui::PushTextWrapPos(ImGui::GetFontSize() * 26);
            ImGui::TextUnformatted(ctx.tr(tip_key.c_str()));
            ImGui::TextDisabled("%s",
                                ctx.strings.tr("unit.tick_is", {{"ms", std::to_string(ctx.scenario.tick_ms)}}).c_str());
            ImGui::PopTextWrapPos();
            ImGui::EndTooltip();
        }
    }

    // One knob of the redlock or redisson client's options (model.md §20.1
    // rule 2, §21.1 rule 1), by the client's own name: "retryCount 10",
    // "retryDelay 200 ms", "lockWatchdogTimeout 30000 ms"; `client` names its
    // object in the scenario ("redlock", "redisson").
    static void client_knob(const FrameContext& ctx, Commands& out, const char* client, const char* label_key,
                            const char* key, int value, int lo, int hi, float em) {
        const bool in_ms = std::string_view(key).ends_with("_ms");
        const std::string format = std::string(ctx.tr(label_key)) + " %d" + (in_ms ? " ms" : "");
        const float width = ImGui::CalcTextSize(format.c_str()).x + ImGui::CalcTextSize("0000").x + em;
        flow(width, em * 0.6f);
        ImGui::SetNextItemWidth(width);
        int v = value;
        const std::string id = std::string("##") + key;
        if (ImGui::SliderInt(id.c_str(), &v, lo, hi, format.c_str()))
            out.push_back(command::EditScenario{
                {Edit{Edit::Kind::set, "/" + std::string(client) + "/" + key, nlohmann::json(v)}}});
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", ctx.tr((std::string("tip.param.") + key).c_str()));
    }

    // A Redlock scenario's knobs: the lock's ttl and the work, then the
    // client's own options; the elector's knobs (min lease, extension, the
    // retry poll, autoExtend, slots, the resource's mode) do not apply to it
    // (model.md §20.1 rule 3).
    void draw_redlock_parameters(const FrameContext& ctx, Commands& out, float em) {
        const ElectorOptions& o = ctx.scenario.candidates.front().options;
        const sim::RedlockOptions& r = ctx.scenario.redlock;
        param(ctx, out, "param.action", "action", o.action, 1, 400, true);
        param(ctx, out, "param.lease", "lease", o.lease, 1, 400, false);
        client_knob(ctx, out, "redlock", "param.rl_retry_count", "retry_count", static_cast<int>(r.retry_count), -1, 30,
                    em);
        client_knob(ctx, out, "redlock", "param.rl_retry_delay", "retry_delay_ms", static_cast<int>(r.retry_delay_ms),
                    0, 2000, em);
        client_knob(ctx, out, "redlock", "param.rl_retry_jitter", "retry_jitter_ms",
                    static_cast<int>(r.retry_jitter_ms), 0, 1000, em);
        float drift = static_cast<float>(r.drift_factor);
        const std::string format = std::string(ctx.tr("param.rl_drift")) + " %.3f";
        const float width = ImGui::CalcTextSize(format.c_str()).x + ImGui::CalcTextSize("0.000").x;
        flow(width, em * 0.6f);
        ImGui::SetNextItemWidth(width);
        if (ImGui::SliderFloat("##drift_factor", &drift, 0.0f, 0.1f, format.c_str()))
            out.push_back(command::EditScenario{
                {Edit{Edit::Kind::set, "/redlock/drift_factor", nlohmann::json(std::round(drift * 1000.0) / 1000.0)}}});
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", ctx.tr("tip.param.drift_factor"));
        draw_candidate_knobs(ctx, out, em);
    }

    // A checkbox with its words, on a new row when this one is full; true when clicked.
    static bool flow_checkbox(const FrameContext& ctx, const char* label_key, bool& value, float gap) {
        flow(ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(ctx.tr(label_key)).x,
             gap);
        return ImGui::Checkbox(ctx.tr(label_key), &value);
    }

    // A Redisson scenario's knobs (model.md §21.1): the work, leaseTime and
    // waitTime, the watchdog (autoExtend: leaseTime −1) and Config's
    // lockWatchdogTimeout; the elector's min lease, extension period, retry
    // poll, slots and the resource's mode do not apply to it (rule 21.1.3).
    void draw_redisson_parameters(const FrameContext& ctx, Commands& out, float em) {
        const ElectorOptions& o = ctx.scenario.candidates.front().options;
        param(ctx, out, "param.action", "action", o.action, 1, 400, true);
        param(ctx, out, "param.lease", "lease", o.lease, 1, 1200, false);
        param(ctx, out, "param.wait", "wait", o.wait, 0, 1200, false);
        bool auto_extend = o.auto_extend;
        if (flow_checkbox(ctx, "param.rs_watchdog", auto_extend, em * 0.6f))
            out.push_back(
                command::EditScenario{{Edit{Edit::Kind::set_all, "auto_extend", nlohmann::json(auto_extend)}}});
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", ctx.tr("tip.param.rs_watchdog"));
        client_knob(ctx, out, "redisson", "param.rs_watchdog_timeout", "lock_watchdog_timeout_ms",
                    static_cast<int>(ctx.scenario.redisson.lock_watchdog_timeout_ms), 300, 60000, em);
        draw_candidate_knobs(ctx, out, em);
    }

    void draw_parameters(const FrameContext& ctx, Commands& out, float em) {
        if (ctx.scenario.candidates.empty()) return;
        if (ctx.scenario.is_redlock()) return draw_redlock_parameters(ctx, out, em);
        if (ctx.scenario.is_redisson()) return draw_redisson_parameters(ctx, out, em);
        const ElectorOptions& o = ctx.scenario.candidates.front().options;
        const float gap = em * 0.6f;
        param(ctx, out, "param.action", "action", o.action, 1, 60, true);
        param(ctx, out, "param.lease", "lease", o.lease, 1, 60, false);
        param(ctx, out, "param.wait", "wait", o.wait, 0, 60, false);
        param(ctx, out, "param.min_lease", "min_lease", o.min_lease, 0, 60, false);
        // 0 is the library's own period in milliseconds (no extend_every key).
        param(ctx, out, "param.extend_every", "extend_every", o.extend_every, 0, 60, false);
        param(ctx, out, "param.retry_every", "retry_every", o.retry_every, 1, 20, false);
        bool auto_extend = o.auto_extend;
        if (flow_checkbox(ctx, "param.auto_extend", auto_extend, gap)) {
            std::vector<Edit> edits{Edit{Edit::Kind::set_all, "auto_extend", nlohmann::json(auto_extend)}};
            // The watchdog needs extend_every < lease; fall back to the library's period when it would not hold.
            if (auto_extend && o.extend_every >= o.lease)
                edits.push_back(Edit{Edit::Kind::set_all, "extend_every", nlohmann::json(nullptr)});
            out.push_back(command::EditScenario{std::move(edits)});
        }
        int capacity = ctx.scenario.lock.capacity;
        flow(em * 7.5f, gap);
        ImGui::SetNextItemWidth(em * 7.5f);
        const std::string cap_format = std::string(ctx.tr("param.capacity")) + " %d";
        if (ImGui::SliderInt("##capacity", &capacity, 1, 8, cap_format.c_str()))
            out.push_back(command::EditScenario{{Edit{Edit::Kind::set, "/lock/capacity", nlohmann::json(capacity)}}});
        draw_candidate_knobs(ctx, out, em);
        draw_resource_mode(ctx, out, em);
    }

    // How many candidates, and each one's start tick.
    static void draw_candidate_knobs(const FrameContext& ctx, Commands& out, float em) {
        const float gap = em * 0.6f;
        int count = static_cast<int>(ctx.scenario.candidates.size());
        const float starts_w = ImGui::CalcTextSize(ctx.tr("param.starts")).x + ImGui::GetStyle().FramePadding.x * 2;
        flow(em * 7.0f + 4 + starts_w, gap);
        ImGui::SetNextItemWidth(em * 7.0f);
        const std::string count_format = std::string(ctx.tr("param.candidates")) + " %d";
        if (ImGui::SliderInt("##candidates", &count, 1, 12, count_format.c_str()))
            out.push_back(command::EditScenario{{Edit{Edit::Kind::set_candidates, "", nlohmann::json(count)}}});
        ImGui::SameLine(0, 4);
        if (ImGui::Button(ctx.tr("param.starts"))) ImGui::OpenPopup("starts_popup");
        if (ImGui::BeginPopup("starts_popup")) {
            // Each candidate's start tick: moving one changes who contends with whom.
            const int shown = std::min<int>(static_cast<int>(ctx.scenario.candidates.size()), 24);
            for (int i = 0; i < shown; ++i) {
                const auto& c = ctx.scenario.candidates[static_cast<std::size_t>(i)];
                int start = static_cast<int>(c.options.start);
                ImGui::SetNextItemWidth(em * 8);
                const std::string label = c.name + "##start" + std::to_string(i);
                if (ImGui::SliderInt(label.c_str(), &start, 0, 60))
                    out.push_back(command::EditScenario{
                        {Edit{Edit::Kind::set, "/candidates/" + std::to_string(i) + "/start", nlohmann::json(start)}}});
            }
            ImGui::EndPopup();
        }
    }

    static void draw_resource_mode(const FrameContext& ctx, Commands& out, float em) {
        const float gap = em * 0.6f;
        const char* modes[] = {"off", "check", "validate"};
        int mode = static_cast<int>(ctx.scenario.resource);
        flow(em * 9.5f + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(ctx.tr("param.resource")).x, gap);
        ImGui::SetNextItemWidth(em * 9.5f);
        const std::string current = ctx.strings.tr(std::string("mode.") + modes[mode]);
        if (ImGui::BeginCombo(ctx.tr("param.resource"), current.c_str())) {
            for (int m = 0; m < 3; ++m) {
                const std::string label = ctx.strings.tr(std::string("mode.") + modes[m]);
                if (ImGui::Selectable(label.c_str(), m == mode) && m != mode)
                    out.push_back(
                        command::EditScenario{{Edit{Edit::Kind::set, "/resource/mode", nlohmann::json(modes[m])}}});
            }
            ImGui::EndCombo();
        }
    }

    std::string path_;
};

}  // namespace

std::unique_ptr<View> make_controls_view() { return std::make_unique<ControlsView>(); }

}  // namespace leasescope::gui

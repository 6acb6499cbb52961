// The app's state outside the commands: assets, presets and settings, the timeline and playhead, the tour,
// background jobs, shortcuts and the panel layout.
#include "app.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#define GLFW_INCLUDE_NONE  // key codes only: no GL header here (gl.hpp picks it), also in a unity batch
#include <GLFW/glfw3.h>
#include <nlohmann/json.hpp>

#include "core/glyphs.hpp"
#include "core/svg.hpp"
#include "views/view_compare.hpp"
#include "core/trace_lanes.hpp"
#include "leasescope/redis/redis_url.hpp"
#include "core/words.hpp"
#include "leasescope/io/files.hpp"
#include "leasescope/sim/limits.hpp"
#include "platform.hpp"
#include "leasescope/sim/scenario.hpp"
#include "leasescope/sim/trace.hpp"

namespace leasescope::gui {
namespace fs = std::filesystem;

namespace {

// The presets in teaching order; files not listed here follow alphabetically.
const char* const preset_order[] = {
    "expiry-takeover",   "contention",          "auto-extension",     "min-lease",
    "gc-pause-fencing",  "gc-pause-no-fencing", "watchdog-pause",     "partition-extend",
    "lost-reply-orphan", "crash-no-release",    "failover-lost-lock", "failover-fencing-regressed",
    "hold-off-handover", "group-capacity",      "group-saturation",   "group-expiry",
    "racing-acquire",    "scheduled-job",
};

int preset_rank(const std::string& name) {
    for (std::size_t i = 0; i < std::size(preset_order); ++i)
        if (name == preset_order[i]) return static_cast<int>(i);
    return 1000;
}

}  // namespace

App::App(AppOptions options) : options_(std::move(options)), palette_(default_palette()), views_(make_views()) {
    live_.supported = live_supported();
    live_.url_initial = redis::redis_url_from_env();
    live_.url_shown = redis::redact_redis_url(live_.url_initial);
}

bool App::init(std::string& error) {
    if (!load_strings_dir(strings_, options_.assets_dir, error)) return false;
    std::string text;
    if (read_text_file(options_.assets_dir + "/style.json", text)) {
        style_text_ = text;
        apply_style_json(palette_, style_text_, &font_px_);
    }
    if (!read_text_file(options_.assets_dir + "/tour.json", text)) {
        error = "cannot read " + options_.assets_dir + "/tour.json";
        return false;
    }
    if (!load_tour(text, tour_, error)) return false;

    // Presets: every scenario file in the scenarios folder that parses.
    std::error_code ec;
    if (!options_.scenarios_dir.empty() && fs::is_directory(options_.scenarios_dir, ec)) {
        for (const auto& entry : fs::directory_iterator(options_.scenarios_dir, ec)) {
            if (entry.path().extension() != ".json") continue;
            std::string why;
            const auto read =
                io::read_file(entry.path().string(), limits::scenario_bytes_max, "scenario_bytes_max", why);
            if (!read) continue;
            const std::string& bytes = *read;
            auto parsed = sim::parse_scenario(bytes, entry.path().string());
            if (!parsed.ok()) continue;
            presets_.push_back(PresetInfo{entry.path().string(), parsed->name, parsed->title, parsed->summary});
        }
    }
    std::sort(presets_.begin(), presets_.end(), [](const PresetInfo& a, const PresetInfo& b) {
        const int ra = preset_rank(a.name), rb = preset_rank(b.name);
        return ra != rb ? ra < rb : a.name < b.name;
    });

    // The Hangul of the app's own words, for the font atlas.
    Strings ko = strings_;
    ko.set_lang(Lang::ko);
    for (const std::string& key : ko.keys(Lang::ko)) add_hangul(hangul_, ko.c(key));
    for (const TourStep& step : tour_) {
        add_hangul(hangul_, step.title_ko);
        add_hangul(hangul_, step.body_ko);
    }
    for (const PresetInfo& p : presets_) {
        add_hangul(hangul_, p.title.ko);
        add_hangul(hangul_, p.summary.ko);
    }
    load_settings();
    return true;
}

void App::set_lang(Lang lang) {
    strings_.set_lang(lang);
    save_settings();
}

bool App::load_file(const std::string& path, std::string& error) {
    std::string why;
    const auto read = io::read_file(path, limits::scenario_bytes_max, "scenario_bytes_max", why);
    if (!read) {
        error = strings_.tr("msg.cannot_read", {{"path", path}}) + " (" + why + ")";
        return false;
    }
    const std::string& bytes = *read;
    auto parsed = sim::parse_scenario(bytes, path);
    if (!parsed.ok()) {
        error = parsed.error().to_string();
        return false;
    }
    if (!rebuild(std::move(parsed).value(), false, error)) return false;
    scenario_path_ = path;
    if (add_hangul(hangul_, path)) fonts_dirty_ = true;  // the path shows in the Open field
    return true;
}

bool App::rebuild(sim::Scenario scenario, bool keep_playhead, std::string& error) {
    // Simulated first: a run past trace_events_max is refused, and the app keeps what it showed.
    ShownRun run = run_scenario(std::move(scenario));
    if (!run.timeline->limit_error().empty()) {
        error = run.timeline->limit_error();
        return false;
    }
    const sim::Scenario& shown = run.timeline->scenario();
    // A name or title with a syllable the atlas lacks: baked before the next frame.
    bool new_glyphs = false;
    for (const std::string_view text :
         {std::string_view(shown.name), std::string_view(shown.title.ko), std::string_view(shown.title.en),
          std::string_view(shown.summary.ko), std::string_view(shown.summary.en), std::string_view(shown.lock.name)}) {
        new_glyphs = add_hangul(hangul_, text) || new_glyphs;
    }
    for (const sim::Candidate& c : shown.candidates) new_glyphs = add_hangul(hangul_, c.name) || new_glyphs;
    for (const sim::Op& op : shown.ops) new_glyphs = add_hangul(hangul_, op.actor) || new_glyphs;
    if (new_glyphs) fonts_dirty_ = true;
    edited_from_ = preset_edited_from(shown);
    timeline_ = std::move(run.timeline);
    lanes_ = std::move(run.lanes);
    ++timeline_generation_;
    if (!keep_playhead) {
        playhead_ = 0;
        ++fit_generation_;
        playing_ = false;
    }
    playhead_ = std::clamp<Tick>(playhead_, 0, lanes_.end_tick);
    selected_event_ = -1;
    snapshot_tick_ = -1;
    refresh_snapshot();
    return true;
}

std::string App::preset_edited_from(const sim::Scenario& scenario) const {
    // A preset's name and lesson tell that preset's story: a scenario under
    // its name that differs from it (another lease, a fault) may tell another.
    for (const PresetInfo& p : presets_) {
        if (p.name != scenario.name) continue;
        std::string why;
        const auto read = io::read_file(p.path, limits::scenario_bytes_max, "scenario_bytes_max", why);
        if (!read) return {};
        auto parsed = sim::parse_scenario(*read, p.path);
        if (!parsed.ok()) return {};
        return sim::scenario_to_json(parsed.value()) == sim::scenario_to_json(scenario) ? std::string() : p.path;
    }
    return {};
}

void App::refresh_snapshot() {
    if (!timeline_) return;
    if (snapshot_tick_ == playhead_) return;
    snapshot_ = timeline_->snapshot_at(playhead_);
    snapshot_tick_ = playhead_;
}

void App::seek(Tick t) {
    playhead_ = std::clamp<Tick>(t, 0, lanes_.end_tick);
    refresh_snapshot();
}

std::optional<std::string> App::take_png_request() {
    auto r = std::move(png_request_);
    png_request_.reset();
    return r;
}

bool App::write_text(const std::string& path, const std::string& bytes) {
    // Whole or not at all, never through a link (io::write_file).
    std::string why;
    if (!io::write_file(path, bytes, why)) {
        error_ = strings_.tr("msg.cannot_write", {{"path", path}}) + " (" + why + ")";
        return false;
    }
    file_saved(path);
    notice_ = strings_.tr("msg.saved", {{"path", path}});
    error_.clear();
    return true;
}

void App::tour_goto(int step) {
    if (step < 0 || static_cast<std::size_t>(step) >= tour_.size()) return;
    const TourStep& s = tour_[static_cast<std::size_t>(step)];
    for (const PresetInfo& p : presets_) {
        if (p.name != s.preset) continue;
        std::string err;
        if (p.path != scenario_path_ || !timeline_) {
            if (!load_file(p.path, err)) error_ = err;
        }
        break;
    }
    tour_step_ = step;
    // The step about the code opens the Code panel beside the tour card
    // (placed anew, as its place differs outside the tour).
    const bool code_was_open = code_open_;
    code_open_ = s.focus == "code";
    if (code_open_) live_.open = find_.open = false;
    if (code_open_ != code_was_open) relayout_pending_ = true;
    playing_ = false;
    if (timeline_) {
        seek(resolve_tour_tick(s, timeline_->trace()));
        // Select the step's event so the explanation panel and the table agree.
        const auto& events = timeline_->trace().events;
        for (std::size_t k = timeline_->first_event_at_or_after(playhead_);
             k < events.size() && events[k].tick == playhead_; ++k) {
            if (!s.find.empty() && !s.find.front().op.empty() && s.find.front().op != sim::to_string(events[k].op))
                continue;
            selected_event_ = static_cast<std::int32_t>(k);
            break;
        }
    }
}

void App::start_find(const sim::Properties& properties, int max_faults) {
    if (find_job_) return;
    sim::ExploreOptions options;
    options.max_faults = std::clamp(max_faults, 1, 3);
    options.properties = properties;
    find_properties_ = options.properties;
    find_ = FindStatus{};
    find_.open = true;
    find_.max_faults = options.max_faults;
    find_.base_name = timeline_->scenario().name;
    find_job_ = std::make_unique<FindJob>(timeline_->scenario(), options);
    find_.running = true;
    if (!find_job_->error().empty()) {
        find_.error = find_job_->error();
        find_.running = false;
        find_job_.reset();
    }
}

void App::finish_find() {
    find_job_->progress(find_);
    find_.running = false;
    find_.finished = true;
    auto found = find_job_->counterexample(strings_);
    find_job_.reset();
    if (!found) return;
    find_.found = true;
    find_.facts = found->facts;
    // The counterexample opens as an edited scenario (no file behind it; Save writes one).
    std::string error;
    if (!rebuild(std::move(found->scenario), false, error)) {
        error_ = error;
        return;
    }
    scenario_path_.clear();
    tour_step_ = -1;
    error_.clear();
    notice_.clear();
    const auto& trace = timeline_->trace();
    const std::int64_t k = violation_event(trace, find_properties_);
    if (k >= 0) {
        seek(trace.events[static_cast<std::size_t>(k)].tick);
        selected_event_ = static_cast<std::int32_t>(k);
    } else {
        seek(lanes_.end_tick);  // liveness: the end shows that no run was elected
    }
    find_.violation_tick = playhead_;
}

void App::poll_jobs() {
    if (live_job_) {
        live_.tick_now = live_job_->tick();
        live_.events_so_far = live_job_->events();
        if (live_job_->done()) {
            live_job_->result(live_);
            live_job_.reset();
        }
    }
    if (find_job_) {
        const bool over = find_job_->step(find_budget_ms_);
        find_job_->progress(find_);
        if (over) finish_find();
    }
}

void App::advance(double dt) {
    if (!playing_ || !timeline_) return;
    if (narrate_.on) return narrate_step(dt);
    play_accum_ += dt * speed_;
    const auto whole = static_cast<Tick>(std::floor(play_accum_));
    if (whole <= 0) return;
    play_accum_ -= static_cast<double>(whole);
    seek(playhead_ + whole);
    if (playhead_ >= lanes_.end_tick) playing_ = false;
}

void App::shortcuts(Commands& out) const {
    const ImGuiIO& io = ImGui::GetIO();
    if (io.WantTextInput) return;
    if (ImGui::IsKeyPressed(GLFW_KEY_SPACE, false)) out.push_back(command::TogglePlay{});
    if (ImGui::IsKeyPressed(GLFW_KEY_RIGHT)) {
        if (io.KeyShift)
            out.push_back(command::NextEvent{});
        else
            out.push_back(command::Step{1});
    }
    if (ImGui::IsKeyPressed(GLFW_KEY_LEFT)) {
        if (io.KeyShift)
            out.push_back(command::PrevEvent{});
        else
            out.push_back(command::Step{-1});
    }
    if (ImGui::IsKeyPressed(GLFW_KEY_PAGE_DOWN)) out.push_back(command::NextEvent{});
    if (ImGui::IsKeyPressed(GLFW_KEY_PAGE_UP)) out.push_back(command::PrevEvent{});
    if (ImGui::IsKeyPressed(GLFW_KEY_HOME, false)) out.push_back(command::Seek{0});
    if (ImGui::IsKeyPressed(GLFW_KEY_END, false)) out.push_back(command::Seek{lanes_.end_tick});
    const bool plus = ImGui::IsKeyPressed(GLFW_KEY_EQUAL) || ImGui::IsKeyPressed(GLFW_KEY_KP_ADD);
    const bool minus = ImGui::IsKeyPressed(GLFW_KEY_MINUS) || ImGui::IsKeyPressed(GLFW_KEY_KP_SUBTRACT);
    // Ctrl with plus, minus or 0: the UI scale (projector mode); without Ctrl, plus and minus: the speed.
    if (io.KeyCtrl) {
        if (plus) out.push_back(command::SetScale{scale_percent_ + scale_step_percent});
        if (minus) out.push_back(command::SetScale{scale_percent_ - scale_step_percent});
        if (ImGui::IsKeyPressed(GLFW_KEY_0, false) || ImGui::IsKeyPressed(GLFW_KEY_KP_0, false))
            out.push_back(command::SetScale{100});
    } else if (plus || minus) {
        out.push_back(command::SetSpeed{plus ? speed_ * 1.5 : speed_ / 1.5});
    }
}

namespace {

// The timeline's minimum height taken from the bottom row (down to its
// panels' title bars: their content scrolls), then from the top bar.
void give_room_to_timeline(float timeline_min, float em, float& rest, float& bottom_h, float& top_h) {
    float short_h = timeline_min - (rest - bottom_h);
    if (short_h > 0) {
        const float give = std::clamp(bottom_h - em * 2.2f, 0.0f, short_h);
        bottom_h -= give;
        short_h -= give;
    }
    if (short_h > 0) {
        const float give = std::clamp(top_h - em * 3.0f, 0.0f, short_h);
        top_h -= give;
        rest += give;
    }
}

}  // namespace

void App::compute_layout(float w, float h) {
    // Sizes follow the text (em, the body font at the UI scale) and the window;
    // side panels never take more than 60 % of the width, and every panel
    // wraps or scrolls what does not fit (the layout check, --layout-report).
    const float em = font_px();
    // The top bar is as tall as its wrapped buttons, knobs and lesson ask,
    // within bounds that leave the timeline room (beyond them it scrolls).
    float top_h = std::round(std::clamp(top_h_ > 0 ? top_h_ : em * 5.0f, em * 3.0f, h * 0.42f));
    // A column or row whose panels are all closed (--panels) gives its room to the timeline.
    const bool left_open = panels_.shown("candidates") || panels_.shown("action");
    const bool right_open = panels_.shown("record") || panels_.shown("resource");
    const bool bottom_open = panels_.shown("events") || panels_.shown("explain") || code_open_ || live_.open ||
                             find_.open || tour_step_ >= 0;
    float left_w = left_open ? std::round(std::max(em * 12.0f, w * 0.18f)) : 0.0f;
    float right_w = right_open ? std::round(std::max(em * 14.0f, w * 0.21f)) : 0.0f;
    if (left_w + right_w > w * 0.6f) {
        const float k = w * 0.6f / (left_w + right_w);
        left_w = std::round(left_w * k);
        right_w = std::round(right_w * k);
    }
    const float center_w = w - left_w - right_w;
    // The transport's buttons, tick, speed and Fit wrap on a narrow centre: a row for each.
    const float transport_rows = center_w >= em * 46.0f ? 1.0f : center_w >= em * 23.0f ? 2.0f : 3.0f;
    const float transport_h = std::round(em * 2.7f + (transport_rows - 1.0f) * em * 1.9f);
    // The rows always add up to the window: on a short window (or a large
    // scale) the bottom row and the timeline shrink and their panels scroll.
    float rest = std::max(em * 4.0f, h - top_h - transport_h);
    float bottom_h =
        bottom_open ? std::round(std::clamp(h * 0.27f, std::min(em * 9.0f, rest * 0.45f), rest * 0.45f)) : 0.0f;
    // The timeline keeps priority: its title, legend line, ruler, hint and
    // at least min(lanes, 4) lanes at their smallest height. The bottom row,
    // then the top bar give way (they scroll); the other lanes scroll.
    const float shown_lanes =
        static_cast<float>(std::min<std::size_t>(std::max<std::size_t>(lanes_.lanes.size(), 1), 4));
    const float timeline_min = std::round(em * 5.0f + 20.0f + shown_lanes * 20.0f * ui_scale());
    give_room_to_timeline(timeline_min, em, rest, bottom_h, top_h);
    const float mid_h = rest - bottom_h;
    const float side_h = mid_h + transport_h;
    layout_["controls"] = {0, 0, w, top_h};
    // Candidates take what the action panel (two badges and the overlap
    // sentence) leaves; with many nodes they scroll.
    float cand_h = std::round(std::max(side_h * 0.5f, std::min(side_h * 0.68f, side_h - em * 8.0f)));
    if (!panels_.shown("action")) cand_h = side_h;  // one panel of a column takes all of it
    if (!panels_.shown("candidates")) cand_h = 0;
    layout_["candidates"] = {0, top_h, left_w, cand_h};
    layout_["action"] = {0, top_h + cand_h, left_w, side_h - cand_h};
    layout_["timeline"] = {left_w, top_h, center_w, mid_h};
    layout_["transport"] = {left_w, top_h + mid_h, center_w, transport_h};
    // The record gets the larger share: one card per slot.
    float record_h = std::round(side_h * 0.6f);
    if (!panels_.shown("resource")) record_h = side_h;
    if (!panels_.shown("record")) record_h = 0;
    layout_["record"] = {w - right_w, top_h, right_w, record_h};
    layout_["resource"] = {w - right_w, top_h + record_h, right_w, side_h - record_h};
    float events_w = std::round(w * (narrate_.on ? 0.4f : 0.55f));  // narration needs the wider part
    if (!panels_.shown("explain")) events_w = w;
    if (!panels_.shown("events")) events_w = 0;
    layout_["events"] = {0, h - bottom_h, events_w, bottom_h};
    layout_["explain"] = {events_w, h - bottom_h, w - events_w, bottom_h};
    layout_["live"] = {0, h - bottom_h, w, bottom_h};
    layout_["find"] = {0, h - bottom_h, w, bottom_h};
    // Beside the tour card (which takes the explanation's place) while the tour runs.
    layout_["code"] = tour_step_ >= 0 ? layout_["events"] : PanelRect{0, h - bottom_h, w, bottom_h};
}

void App::draw_frame(Commands& out) {
    const ImGuiIO& io = ImGui::GetIO();
    compute_layout(io.DisplaySize.x, io.DisplaySize.y);
    if (!timeline_) return;
    refresh_snapshot();
    std::string focus;
    if (tour_step_ >= 0) focus = tour_[static_cast<std::size_t>(tour_step_)].focus;
    // Relayout on the first frames, after a window resize and on request.
    static_assert(sizeof(float) == 4);
    const bool resized = io.DisplaySize.x != last_size_.x || io.DisplaySize.y != last_size_.y;
    if (resized && frames_ > 0 && !relayout_pending_) relayout_pending_ = true;
    FrameContext ctx{timeline_->scenario(),
                     *timeline_,
                     lanes_,
                     snapshot_,
                     playhead_,
                     selected_event_,
                     playing_,
                     speed_,
                     strings_,
                     palette_,
                     fonts_,
                     presets_,
                     scenario_path_,
                     error_,
                     notice_,
                     tour_,
                     tour_step_,
                     focus,
                     fit_generation_,
                     timeline_generation_,
                     layout_,
                     relayout_pending_ || force_layout_,
                     live_,
                     find_,
                     offscreen_,
                     code_open_,
                     ui_scale(),
                     high_contrast_,
                     edited_from_};
    last_size_ = io.DisplaySize;
    if (compare_) {
        // Side by side takes the whole window (views/view_compare.cpp).
        compare_->refresh(*timeline_, timeline_generation_, playhead_, strings_);
        draw_compare(ctx, *compare_, out);
    } else {
        for (auto& view : views_) {
            // Narrated play's explanation takes the record's and the resource's place.
            const std::string id = view->id();
            if (!panels_.shown(id)) continue;  // closed by --panels
            // Narrated play's large explanation takes the Explain panel's place, not the record's.
            if (narrate_.on && id == "explain") continue;
            view->draw(ctx, out);
        }
    }
    if (narrate_.on) draw_narration(ctx, narrate_, out);
    relayout_pending_ = false;
    ++frames_;
    draw_focus(focus);
}

void App::draw_focus(const std::string& focus) {
    // The tour points at its panel with a thick outline over everything: on
    // the panel as drawn this frame (the user may have moved it, a remembered
    // arrangement may differ from the layout), else where the layout puts it.
    focus_id_.clear();
    if (!focus.empty()) {
        auto it = layout_.find(focus);
        if (it != layout_.end()) {
            PanelRect r = it->second;
            if (const auto drawn = probe::panel_rect(focus.c_str()))
                r = PanelRect{drawn->x0, drawn->y0, drawn->x1 - drawn->x0, drawn->y1 - drawn->y0};
            focus_id_ = focus;
            focus_rect_ = r;
            ImDrawList* fg = ImGui::GetForegroundDrawList();
            const float pulse = 0.6f + 0.4f * static_cast<float>(std::sin(ImGui::GetTime() * 4.0));
            fg->AddRect(ImVec2(r.x + 2, r.y + 2), ImVec2(r.x + r.w - 2, r.y + r.h - 2), col(palette_.focus, pulse),
                        6.0f, 0, 5.0f);
        }
    }
}

}  // namespace leasescope::gui

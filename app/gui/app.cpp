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
    "expiry-takeover",
    "contention",
    "auto-extension",
    "min-lease",
    "gc-pause-fencing",
    "gc-pause-no-fencing",
    "watchdog-pause",
    "partition-extend",
    "lost-reply-orphan",
    "crash-no-release",
    "failover-lost-lock",
    "failover-fencing-regressed",
    "failover-fencing-tie",
    "failover-wait",
    "failover-wait-not-enough",
    "split-brain-old-primary",
    "split-brain-min-replicas",
    "hold-off-handover",
    "group-capacity",
    "group-saturation",
    "group-expiry",
    "racing-acquire",
    "scheduled-job",
    "check-then-act",
    "redlock-clock-jump",
    "redlock-gc-pause",
    "redlock-restart",
    // Each Redisson preset beside its Kotlin elector twin (model.md §21).
    "watchdog-elector",
    "watchdog-redisson",
    "lost-unlock-elector",
    "lost-unlock-redisson",
};

int preset_rank(const std::string& name) {
    for (std::size_t i = 0; i < std::size(preset_order); ++i)
        if (name == preset_order[i]) return static_cast<int>(i);
    return 1000;
}

}  // namespace

App::App(AppOptions options) : options_(std::move(options)), views_(make_views()) {
    jobs_.live.supported = live_supported();
    jobs_.live.url_initial = redis::redis_url_from_env();
    jobs_.live.url_shown = redis::redact_redis_url(jobs_.live.url_initial);
}

bool App::init(std::string& error) {
    if (!load_strings_dir(assets_.strings, options_.assets_dir, error)) return false;
    std::string text;
    if (read_text_file(options_.assets_dir + "/style.json", text)) {
        prefs_.style_text = text;
        apply_style_json(prefs_.palette, prefs_.style_text, &prefs_.font_px);
    }
    if (!read_text_file(options_.assets_dir + "/tour.json", text)) {
        error = "cannot read " + options_.assets_dir + "/tour.json";
        return false;
    }
    if (!load_tour(text, tour_.steps, error)) return false;

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
            assets_.presets.push_back(PresetInfo{entry.path().string(), parsed->name, parsed->title, parsed->summary});
        }
    }
    std::sort(assets_.presets.begin(), assets_.presets.end(), [](const PresetInfo& a, const PresetInfo& b) {
        const int ra = preset_rank(a.name), rb = preset_rank(b.name);
        return ra != rb ? ra < rb : a.name < b.name;
    });

    // The Hangul of the app's own words, for the font atlas.
    Strings ko = assets_.strings;
    ko.set_lang(Lang::ko);
    for (const std::string& key : ko.keys(Lang::ko)) add_hangul(assets_.hangul, ko.c(key));
    for (const TourStep& step : tour_.steps) {
        add_hangul(assets_.hangul, step.title_ko);
        add_hangul(assets_.hangul, step.body_ko);
    }
    for (const PresetInfo& p : assets_.presets) {
        add_hangul(assets_.hangul, p.title.ko);
        add_hangul(assets_.hangul, p.summary.ko);
    }
    load_settings();
    return true;
}

void App::set_lang(Lang lang) {
    assets_.strings.set_lang(lang);
    save_settings();
}

namespace {

// A trace's first line is its header, written canonically (model.md §12.2):
// a file that starts so is a trace, anything else is read as a scenario.
bool is_trace_text(std::string_view bytes) { return bytes.substr(0, 17) == R"({"type":"header",)"; }

}  // namespace

bool App::load_file(const std::string& path, std::string& error) {
    std::string why;
    const auto read = io::read_file(path, limits::scenario_bytes_max, "scenario_bytes_max", why);
    if (!read) {
        // A trace may be larger than a scenario: read as the CLI reads one (trace_bytes_max).
        std::string trace_why;
        const auto trace = io::read_file(path, limits::trace_bytes_max, "trace_bytes_max", trace_why);
        if (trace && is_trace_text(*trace)) return load_trace(path, *trace, error);
        error = assets_.strings.tr("msg.cannot_read", {{"path", path}}) + " (" + why + ")";
        return false;
    }
    const std::string& bytes = *read;
    if (is_trace_text(bytes)) return load_trace(path, bytes, error);
    auto parsed = sim::parse_scenario(bytes, path);
    if (!parsed.ok()) {
        error = parsed.error().to_string();
        return false;
    }
    if (!rebuild(std::move(parsed).value(), false, error)) return false;
    doc_.scenario_path = path;
    exercises_loaded(path, bytes, doc_.timeline->scenario());
    if (add_hangul(assets_.hangul, path)) assets_.fonts_dirty = true;  // the path shows in the Open field
    return true;
}

// A recorded trace, shown read-only (model.md §19.9): read and checked as
// the CLI reads one, then replayed from its events; a bad file leaves what
// was shown, and says why in the error line.
bool App::load_trace(const std::string& path, std::string_view bytes, std::string& error) {
    auto parsed = sim::parse_trace(bytes, path);
    if (!parsed.ok()) {
        error = parsed.error().to_string();
        return false;
    }
    show_run(replay_trace(std::move(parsed).value()), false);
    doc_.scenario_path = path;
    exercises_loaded(path, std::string(), doc_.timeline->scenario());  // a history has no exercises
    jobs_.live.open = false;  // nothing to run live or to search: the history is read-only
    jobs_.find.open = false;
    if (add_hangul(assets_.hangul, path)) assets_.fonts_dirty = true;
    return true;
}

bool App::rebuild(sim::Scenario scenario, bool keep_playhead, std::string& error) {
    // Simulated first: a run past trace_events_max is refused, and the app keeps what it showed.
    ShownRun run = run_scenario(std::move(scenario));
    if (!run.timeline->limit_error().empty()) {
        error = run.timeline->limit_error();
        return false;
    }
    show_run(std::move(run), keep_playhead);
    return true;
}

// Shows a run (simulated or replayed): its timeline, lanes and names.
void App::show_run(ShownRun run, bool keep_playhead) {
    const sim::Scenario& shown = run.timeline->scenario();
    // A name or title with a syllable the atlas lacks: baked before the next frame.
    bool new_glyphs = false;
    for (const std::string_view text :
         {std::string_view(shown.name), std::string_view(shown.title.ko), std::string_view(shown.title.en),
          std::string_view(shown.summary.ko), std::string_view(shown.summary.en), std::string_view(shown.lock.name)}) {
        new_glyphs = add_hangul(assets_.hangul, text) || new_glyphs;
    }
    for (const sim::Candidate& c : shown.candidates) new_glyphs = add_hangul(assets_.hangul, c.name) || new_glyphs;
    for (const sim::Op& op : shown.ops) new_glyphs = add_hangul(assets_.hangul, op.actor) || new_glyphs;
    if (new_glyphs) assets_.fonts_dirty = true;
    doc_.edited_from = preset_edited_from(shown);
    doc_.timeline = std::move(run.timeline);
    doc_.lanes = std::move(run.lanes);
    ++doc_.timeline_generation;
    if (!keep_playhead) {
        doc_.playhead = 0;
        ++doc_.fit_generation;
        doc_.fit_whole = false;  // a run opens on its story (timeline_frame.hpp opening_axis)
        doc_.playing = false;
    }
    doc_.playhead = std::clamp<Tick>(doc_.playhead, 0, doc_.lanes.end_tick);
    doc_.selected_event = -1;
    doc_.snapshot_tick = -1;
    refresh_snapshot();
}

std::string App::preset_edited_from(const sim::Scenario& scenario) const {
    // A preset's name and lesson tell that preset's story: a scenario under
    // its name that differs from it (another lease, a fault) may tell another.
    for (const PresetInfo& p : assets_.presets) {
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
    if (!doc_.timeline) return;
    if (doc_.snapshot_tick == doc_.playhead) return;
    doc_.snapshot = doc_.timeline->snapshot_at(doc_.playhead);
    doc_.snapshot_tick = doc_.playhead;
    doc_.redlock.reset();
    doc_.redisson.reset();
    const sim::Trace& trace = doc_.timeline->trace();
    if (trace.header.format == 5) doc_.redlock = words::redlock_facts_at(trace, doc_.playhead);
    if (trace.header.format == 6) {  // a trace alone names no candidate's options (model.md §21.9)
        const sim::Scenario* scenario = doc_.timeline->replayed() ? nullptr : &doc_.timeline->scenario();
        doc_.redisson = words::redisson_facts_at(trace, scenario, doc_.playhead);
    }
}

void App::seek(Tick t) {
    doc_.playhead = std::clamp<Tick>(t, 0, doc_.lanes.end_tick);
    refresh_snapshot();
}

std::optional<std::string> App::take_png_request() {
    auto r = std::move(doc_.png_request);
    doc_.png_request.reset();
    return r;
}

bool App::write_text(const std::string& path, const std::string& bytes) {
    // Whole or not at all, never through a link (io::write_file).
    std::string why;
    if (!io::write_file(path, bytes, why)) {
        doc_.error = assets_.strings.tr("msg.cannot_write", {{"path", path}}) + " (" + why + ")";
        return false;
    }
    file_saved(path);
    doc_.notice = assets_.strings.tr("msg.saved", {{"path", path}});
    doc_.error.clear();
    return true;
}

void App::tour_goto(int step) {
    if (step < 0 || static_cast<std::size_t>(step) >= tour_.steps.size()) return;
    const TourStep& s = tour_.steps[static_cast<std::size_t>(step)];
    for (const PresetInfo& p : assets_.presets) {
        if (p.name != s.preset) continue;
        std::string err;
        if (p.path != doc_.scenario_path || !doc_.timeline) {
            if (!load_file(p.path, err)) doc_.error = err;
        }
        break;
    }
    tour_.step = step;
    exercise_.open = false;  // the tour card and the Exercise panel would share the bottom row
    // The step about the code opens the Code panel beside the tour card
    // (placed anew, as its place differs outside the tour).
    const bool code_was_open = screen_.code_open;
    screen_.code_open = s.focus == "code";
    if (screen_.code_open) jobs_.live.open = jobs_.find.open = false;
    if (screen_.code_open != code_was_open) screen_.relayout_pending = true;
    doc_.playing = false;
    if (doc_.timeline) {
        seek(resolve_tour_tick(s, doc_.timeline->trace()));
        // Select the step's event so the explanation panel and the table agree.
        const auto& events = doc_.timeline->trace().events;
        for (std::size_t k = doc_.timeline->first_event_at_or_after(doc_.playhead);
             k < events.size() && events[k].tick == doc_.playhead; ++k) {
            if (!s.find.empty() && !s.find.front().op.empty() && s.find.front().op != sim::to_string(events[k].op))
                continue;
            doc_.selected_event = static_cast<std::int32_t>(k);
            break;
        }
    }
}

void App::start_find(const sim::Properties& properties, int max_faults, bool smallest) {
    if (jobs_.find_job) return;
    const sim::Scenario& scenario = doc_.timeline->scenario();
    sim::Properties checked = properties;
    if (scenario.is_redlock() || scenario.is_redisson()) {
        // No fencing number (model.md §20.6, §21.6): the fencing properties can never fail, and the
        // explorer refuses them; the Find panel shows them disabled.
        checked.fencing_regressed = checked.stale_after_successor = false;
        checked.holder_rejected = checked.fencing_duplicate = false;
    }
    sim::ExploreOptions options;
    if (smallest) {
        options = smallest_fault_options(scenario, checked);
    } else {
        options.max_faults = std::clamp(max_faults, 1, 3);
        options.properties = checked;
    }
    jobs_.find_properties = options.properties;
    jobs_.find_kinds.clear();
    jobs_.find = FindStatus{};
    jobs_.find.open = true;
    jobs_.find.smallest = smallest;
    jobs_.find.search = ++jobs_.find_searches;
    jobs_.find.tick_ms = scenario.tick_ms;
    jobs_.find.pause_grid = !options.grids.pause.empty();
    if (jobs_.find.pause_grid) {
        jobs_.find.pause_sizes.assign(options.grids.pause.begin(), options.grids.pause.end());
    } else {
        jobs_.find.pause_sizes = {1, options.max_pause};
    }
    exercise_.open = false;
    jobs_.find.max_faults = options.max_faults;
    jobs_.find.base_name = scenario.name;
    jobs_.find_job = std::make_unique<FindJob>(scenario, options, smallest);
    jobs_.find.running = true;
    if (!jobs_.find_job->error().empty()) {
        jobs_.find.error = jobs_.find_job->error();
        jobs_.find.running = false;
        jobs_.find_job.reset();
    }
}

void App::finish_find() {
    jobs_.find_job->progress(jobs_.find);
    jobs_.find.running = false;
    if (!jobs_.find_job->error().empty()) {
        jobs_.find.error = jobs_.find_job->error();
        jobs_.find_job.reset();
        return;
    }
    jobs_.find.finished = true;
    auto found = jobs_.find_job->counterexample(assets_.strings);
    jobs_.find_kinds = jobs_.find_job->kind_counterexamples(assets_.strings);
    jobs_.find_job.reset();
    if (!found) {
        // The smallest fault of each kind: the first kind that a fault breaks is shown.
        for (std::size_t k = 0; k < jobs_.find_kinds.size() && !found; ++k) {
            if (!jobs_.find_kinds[k]) continue;
            found = jobs_.find_kinds[k];
            jobs_.find.shown = static_cast<int>(k);
        }
    }
    if (!found) return;
    load_counterexample(std::move(*found));
}

void App::load_counterexample(sim::Counterexample found) {
    jobs_.find.found = true;
    jobs_.find.facts = found.facts;
    // The counterexample opens as an edited scenario (no file behind it; Save writes one).
    std::string error;
    if (!rebuild(std::move(found.scenario), false, error)) {
        doc_.error = error;
        return;
    }
    doc_.scenario_path.clear();
    tour_.step = -1;
    doc_.error.clear();
    doc_.notice.clear();
    const auto& trace = doc_.timeline->trace();
    const std::int64_t k = violation_event(trace, jobs_.find_properties);
    if (k >= 0) {
        seek(trace.events[static_cast<std::size_t>(k)].tick);
        doc_.selected_event = static_cast<std::int32_t>(k);
    } else {
        seek(doc_.lanes.end_tick);  // liveness: the end shows that no run was elected
    }
    jobs_.find.violation_tick = doc_.playhead;
}

void App::poll_jobs() {
    if (jobs_.live_job) {
        jobs_.live.tick_now = jobs_.live_job->tick();
        jobs_.live.events_so_far = jobs_.live_job->events();
        if (jobs_.live_job->done()) {
            jobs_.live_job->result(jobs_.live);
            jobs_.live_job.reset();
        }
    }
    if (jobs_.find_job) {
        const bool over = jobs_.find_job->step(jobs_.find_budget_ms);
        jobs_.find_job->progress(jobs_.find);
        if (over) finish_find();
    }
}

void App::advance(double dt) {
    if (!doc_.playing || !doc_.timeline) return;
    if (tour_.narrate.on) return narrate_step(dt);
    doc_.play_accum += dt * doc_.speed;
    const auto whole = static_cast<Tick>(std::floor(doc_.play_accum));
    if (whole <= 0) return;
    doc_.play_accum -= static_cast<double>(whole);
    seek(doc_.playhead + whole);
    if (doc_.playhead >= doc_.lanes.end_tick) doc_.playing = false;
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
    if (ImGui::IsKeyPressed(GLFW_KEY_END, false)) out.push_back(command::Seek{doc_.lanes.end_tick});
    const bool plus = ImGui::IsKeyPressed(GLFW_KEY_EQUAL) || ImGui::IsKeyPressed(GLFW_KEY_KP_ADD);
    const bool minus = ImGui::IsKeyPressed(GLFW_KEY_MINUS) || ImGui::IsKeyPressed(GLFW_KEY_KP_SUBTRACT);
    // Ctrl with plus, minus or 0: the UI scale (projector mode); without Ctrl, plus and minus: the speed.
    if (io.KeyCtrl) {
        if (plus) out.push_back(command::SetScale{prefs_.scale_percent + scale_step_percent});
        if (minus) out.push_back(command::SetScale{prefs_.scale_percent - scale_step_percent});
        if (ImGui::IsKeyPressed(GLFW_KEY_0, false) || ImGui::IsKeyPressed(GLFW_KEY_KP_0, false))
            out.push_back(command::SetScale{100});
    } else if (plus || minus) {
        out.push_back(command::SetSpeed{plus ? doc_.speed * 1.5 : doc_.speed / 1.5});
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
    screen_.compact = w < em * compact_em_w || h < em * compact_em_h;
    if (screen_.compact) return compute_compact_layout(w, h);
    // The top bar is as tall as its wrapped buttons, knobs and lesson ask,
    // within bounds that leave the timeline room (beyond them it scrolls).
    float top_h = std::round(std::clamp(screen_.top_h > 0 ? screen_.top_h : em * 5.0f, em * 3.0f, h * 0.42f));
    // A column or row whose panels are all closed (--panels) gives its room to the timeline.
    const bool left_open = screen_.panels.shown(Panel::candidates) || screen_.panels.shown(Panel::action);
    const bool right_open = screen_.panels.shown(Panel::record) || screen_.panels.shown(Panel::resource);
    const bool bottom_open = screen_.panels.shown(Panel::events) || screen_.panels.shown(Panel::explain) ||
                             screen_.code_open || jobs_.live.open || jobs_.find.open || exercise_.open ||
                             tour_.step >= 0;
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
    // The Exercise panel's feedback (the verdict, the hint, the tick in
    // Explain's words) is what the student came for: a third of the height.
    const float bottom_share = exercise_.open ? 0.34f : 0.27f;
    float bottom_h =
        bottom_open ? std::round(std::clamp(h * bottom_share, std::min(em * 9.0f, rest * 0.45f), rest * 0.45f)) : 0.0f;
    // The timeline keeps priority: its title, legend line, ruler, hint and
    // at least min(lanes, 4) lanes at their smallest height. The bottom row,
    // then the top bar give way (they scroll); the other lanes scroll.
    const float shown_lanes =
        static_cast<float>(std::min<std::size_t>(std::max<std::size_t>(doc_.lanes.lanes.size(), 1), 4));
    const float timeline_min = std::round(em * 5.0f + 20.0f + shown_lanes * 20.0f * ui_scale());
    give_room_to_timeline(timeline_min, em, rest, bottom_h, top_h);
    const float mid_h = rest - bottom_h;
    const float side_h = mid_h + transport_h;
    screen_.layout[Panel::controls] = {0, 0, w, top_h};
    // Candidates take what the action panel (two badges and the overlap
    // sentence) leaves; with many nodes they scroll.
    float cand_h = std::round(std::max(side_h * 0.5f, std::min(side_h * 0.68f, side_h - em * 8.0f)));
    if (!screen_.panels.shown(Panel::action)) cand_h = side_h;  // one panel of a column takes all of it
    if (!screen_.panels.shown(Panel::candidates)) cand_h = 0;
    screen_.layout[Panel::candidates] = {0, top_h, left_w, cand_h};
    screen_.layout[Panel::action] = {0, top_h + cand_h, left_w, side_h - cand_h};
    screen_.layout[Panel::timeline] = {left_w, top_h, center_w, mid_h};
    screen_.layout[Panel::transport] = {left_w, top_h + mid_h, center_w, transport_h};
    // The record gets the larger share: one card per slot.
    float record_h = std::round(side_h * 0.6f);
    if (!screen_.panels.shown(Panel::resource)) record_h = side_h;
    if (!screen_.panels.shown(Panel::record)) record_h = 0;
    screen_.layout[Panel::record] = {w - right_w, top_h, right_w, record_h};
    screen_.layout[Panel::resource] = {w - right_w, top_h + record_h, right_w, side_h - record_h};
    place_bottom_row(w, h, bottom_h);
}

// The bottom row: events beside Explain, or one of the panels that take the
// whole row (Live, Find, Exercises, Code).
void App::place_bottom_row(float w, float h, float bottom_h) {
    float events_w = std::round(w * (tour_.narrate.on ? 0.4f : 0.55f));  // narration needs the wider part
    if (!screen_.panels.shown(Panel::explain)) events_w = w;
    if (!screen_.panels.shown(Panel::events)) events_w = 0;
    screen_.layout[Panel::events] = {0, h - bottom_h, events_w, bottom_h};
    screen_.layout[Panel::explain] = {events_w, h - bottom_h, w - events_w, bottom_h};
    screen_.layout[Panel::live] = {0, h - bottom_h, w, bottom_h};
    screen_.layout[Panel::find] = {0, h - bottom_h, w, bottom_h};
    screen_.layout[Panel::exercise] = {0, h - bottom_h, w, bottom_h};
    // Beside the tour card (which takes the explanation's place) while the tour runs.
    screen_.layout[Panel::code] =
        tour_.step >= 0 ? screen_.layout[Panel::events] : PanelRect{0, h - bottom_h, w, bottom_h};
}

void App::compute_compact_layout(float w, float h) {
    // Top to bottom: the top bar (its first rows; the rest scrolls), the
    // timeline and the transport across the whole width, and the place the
    // other panels share (the row of tabs is its title: view_tabs.cpp). The
    // timeline keeps priority: its title, legend line, ruler and hint and
    // min(lanes, 4) lanes when the shared place keeps its tabs and a line,
    // else at least min(lanes, 2) lanes; the shared place gets the rest (it
    // scrolls).
    const float em = font_px();
    const float top_h = std::round(std::clamp(screen_.top_h > 0 ? screen_.top_h : em * 5.0f, em * 2.1f, h * 0.14f));
    const float transport_rows = w >= em * 46.0f ? 1.0f : w >= em * 23.0f ? 2.0f : 3.0f;
    const float transport_h = std::round(em * 2.7f + (transport_rows - 1.0f) * em * 1.9f);
    // No window is smaller than ImGui's least size (it grows past its place otherwise).
    const float least_h = ImGui::GetStyle().WindowMinSize.y;
    const float rest = std::max(em * 4.0f, h - top_h - transport_h);
    const auto lanes_h = [&](std::size_t most) {
        const std::size_t n = std::min<std::size_t>(std::max<std::size_t>(doc_.lanes.lanes.size(), 1), most);
        return std::round(em * 5.0f + 20.0f + static_cast<float>(n) * 20.0f * ui_scale());
    };
    const float timeline_h =
        std::round(std::max({std::min(lanes_h(4), rest - std::max(em * 2.6f, least_h)),
                             std::min(lanes_h(2), rest - std::max(em * 1.5f, least_h)), rest * 0.5f}));
    const float shared_y = top_h + timeline_h + transport_h;
    const PanelRect shared{0, shared_y, w, std::max(0.0f, h - shared_y)};
    for (PanelRect& r : screen_.layout.rects) r = shared;
    if (!screen_.panels.shown(screen_.tab))  // closed by --panels: the first one open
        for (Panel p : tab_panels)
            if (screen_.panels.shown(p)) {
                screen_.tab = p;
                break;
            }
    screen_.layout[Panel::controls] = {0, 0, w, top_h};
    screen_.layout[Panel::timeline] = {0, top_h, w, timeline_h};
    screen_.layout[Panel::transport] = {0, top_h + timeline_h, w, transport_h};
}

FrameContext App::frame_context() const {
    std::optional<Panel> focus;
    if (tour_.running()) focus = panel_from_name(tour_.steps[static_cast<std::size_t>(tour_.step)].focus);
    return FrameContext{
        .scenario = doc_.timeline->scenario(),
        .timeline = *doc_.timeline,
        .lanes = doc_.lanes,
        .snap = doc_.snapshot,
        .playhead = doc_.playhead,
        .selected_event = doc_.selected_event,
        .playing = doc_.playing,
        .speed = doc_.speed,
        .strings = assets_.strings,
        .palette = prefs_.palette,
        .fonts = assets_.fonts,
        .presets = assets_.presets,
        .scenario_path = doc_.scenario_path,
        .error = doc_.error,
        .notice = doc_.notice,
        .tour = tour_.steps,
        .tour_step = tour_.step,
        .focus = focus,
        .fit_generation = doc_.fit_generation,
        .fit_whole = doc_.fit_whole,
        .timeline_generation = doc_.timeline_generation,
        .layout = screen_.layout,
        .relayout = screen_.relayout_pending || screen_.force_layout,
        .live = jobs_.live,
        .find = jobs_.find,
        .offscreen = offscreen_,
        .code_open = screen_.code_open,
        .scale = ui_scale(),
        .high_contrast = prefs_.high_contrast,
        .edited_from = doc_.edited_from,
        .compact = screen_.compact,
        .tab = screen_.tab,
        .panels = screen_.panels,
        .exercise = exercise_,
        .redlock = doc_.redlock ? &*doc_.redlock : nullptr,
        .redisson = doc_.redisson ? &*doc_.redisson : nullptr,
    };
}

void App::draw_views(const FrameContext& ctx, Commands& out) {
    // In the compact layout the tab panels share one place: the chosen one
    // shows, unless the tour, Live, Find or Code take that place.
    const bool shared_taken = ctx.tour_step >= 0 || ctx.bottom_taken() || tour_.narrate.on;
    for (auto& view : views_) {
        if (!screen_.panels.shown(view->panel())) continue;  // closed by --panels
        if (ctx.compact && is_tab_panel(view->panel()) && (shared_taken || view->panel() != ctx.tab)) continue;
        // Narrated play's large explanation takes the Explain panel's place.
        if (tour_.narrate.on && view->panel() == Panel::explain) continue;
        view->draw(ctx, out);
    }
}

void App::draw_frame(Commands& out) {
    const ImGuiIO& io = ImGui::GetIO();
    compute_layout(io.DisplaySize.x, io.DisplaySize.y);
    if (!doc_.timeline) return;
    refresh_snapshot();
    // Relayout on the first frames, after a window resize and on request.
    static_assert(sizeof(float) == 4);
    const bool resized = io.DisplaySize.x != screen_.last_size.x || io.DisplaySize.y != screen_.last_size.y;
    if (resized && screen_.frames > 0 && !screen_.relayout_pending) screen_.relayout_pending = true;
    const FrameContext ctx = frame_context();
    screen_.last_size = io.DisplaySize;
    if (compare_.pair) {
        // Side by side takes the whole window (views/view_compare.cpp).
        compare_.pair->refresh(*doc_.timeline, doc_.timeline_generation, doc_.playhead, assets_.strings);
        draw_compare(ctx, *compare_.pair, out);
    } else {
        draw_views(ctx, out);
    }
    if (tour_.narrate.on) draw_narration(ctx, tour_.narrate, out);
    screen_.relayout_pending = false;
    ++screen_.frames;
    draw_focus(ctx.focus);
}

void App::draw_focus(std::optional<Panel> focus) {
    // The tour points at its panel with a thick outline over everything: on
    // the panel as drawn this frame (the user may have moved it, a remembered
    // arrangement may differ from the layout), else where the layout puts it.
    screen_.focus.reset();
    if (!focus) return;
    PanelRect r = screen_.layout[*focus];
    if (const auto drawn = probe::panel_rect(panel_name(*focus)))
        r = PanelRect{drawn->x0, drawn->y0, drawn->x1 - drawn->x0, drawn->y1 - drawn->y0};
    screen_.focus = focus;
    screen_.focus_rect = r;
    ImDrawList* fg = ImGui::GetForegroundDrawList();
    const float pulse = 0.6f + 0.4f * static_cast<float>(std::sin(ImGui::GetTime() * 4.0));
    fg->AddRect(ImVec2(r.x + 2, r.y + 2), ImVec2(r.x + r.w - 2, r.y + r.h - 2), col(prefs_.palette.focus, pulse), 6.0f,
                0, 5.0f);
}

}  // namespace leasescope::gui

// App::apply and its handlers: one small function per command a view can push (commands.hpp).
#include <algorithm>
#include <cmath>
#include <variant>

#include "app.hpp"
#include "core/svg.hpp"
#include "core/trace_lanes.hpp"
#include "leasescope/redis/redis_url.hpp"
#include "leasescope/sim/scenario.hpp"
#include "leasescope/sim/trace.hpp"
#include "platform.hpp"

namespace leasescope::gui {

namespace {

// What would change a replayed history (model.md §19.9): its parameters and
// faults, saving it as a scenario, running it live, the explorer and
// exercises. A replay refuses them and says why.
bool changes_history(const Command& c) {
    return std::holds_alternative<command::EditScenario>(c) || std::holds_alternative<command::SavePath>(c) ||
           std::holds_alternative<command::LiveToggle>(c) || std::holds_alternative<command::LiveRun>(c) ||
           std::holds_alternative<command::FindToggle>(c) || std::holds_alternative<command::FindRun>(c) ||
           std::holds_alternative<command::FindShow>(c) || std::holds_alternative<command::ExerciseToggle>(c) ||
           std::holds_alternative<command::ExerciseOpen>(c) || std::holds_alternative<command::ExerciseAnswer>(c) ||
           std::holds_alternative<command::ExerciseTryKnobs>(c) ||
           std::holds_alternative<command::ExerciseTryFault>(c) || std::holds_alternative<command::ExerciseShowMe>(c);
}

}  // namespace

void App::apply(const Commands& commands) {
    if (!doc_.timeline) return;
    for (const Command& c : commands) {
        if (doc_.timeline->replayed() && changes_history(c)) {
            doc_.error = assets_.strings.tr("replay.read_only");
            continue;
        }
        const After after = std::visit([this](const auto& command) { return on(command); }, c);
        // The commands after this one were made against a timeline that is gone.
        if (after == After::stop) return;
    }
}

// The playhead and playback.

App::After App::on(const command::Seek& c) {
    seek(c.tick);
    return After::next;
}

App::After App::on(const command::Step& c) {
    doc_.playing = false;
    seek(doc_.playhead + c.ticks);
    return After::next;
}

App::After App::on(const command::NextEvent&) {
    doc_.playing = false;
    const auto& events = doc_.timeline->trace().events;
    const std::size_t k = doc_.timeline->first_event_at_or_after(doc_.playhead + 1);
    if (k < events.size()) {
        seek(events[k].tick);
        doc_.selected_event = static_cast<std::int32_t>(k);
    }
    return After::next;
}

App::After App::on(const command::PrevEvent&) {
    doc_.playing = false;
    const auto& events = doc_.timeline->trace().events;
    const std::size_t k = doc_.timeline->first_event_at_or_after(doc_.playhead);
    if (k > 0) {
        const Tick t = events[k - 1].tick;
        seek(t);
        doc_.selected_event = static_cast<std::int32_t>(doc_.timeline->first_event_at_or_after(t));
    }
    return After::next;
}

App::After App::on(const command::TogglePlay&) {
    if (!doc_.playing && doc_.playhead >= doc_.lanes.end_tick) seek(0);
    doc_.playing = !doc_.playing;
    doc_.play_accum = 0;
    return After::next;
}

App::After App::on(const command::SetSpeed& c) {
    doc_.speed = std::clamp(c.ticks_per_second, 0.5, 40.0);
    save_settings();
    return After::next;
}

App::After App::on(const command::Restart&) {
    seek(0);
    doc_.selected_event = -1;
    doc_.playing = true;
    doc_.play_accum = 0;
    return After::next;
}

App::After App::on(const command::Fit&) {
    ++doc_.fit_generation;
    doc_.fit_whole = true;
    return After::next;
}

App::After App::on(const command::SelectEvent& c) {
    const auto& events = doc_.timeline->trace().events;
    if (c.event >= 0 && static_cast<std::size_t>(c.event) < events.size()) {
        doc_.selected_event = static_cast<std::int32_t>(c.event);
        doc_.playing = false;
        seek(events[static_cast<std::size_t>(c.event)].tick);
    }
    return After::next;
}

// The scenario and its files.

App::After App::on(const command::EditScenario& c) {
    auto edited = apply_edits(doc_.timeline->scenario(), c.edits);
    if (!edited.ok()) {
        doc_.error = edited.error();
        return After::next;
    }
    std::string error;
    if (!rebuild(std::move(edited).value(), true, error)) {
        doc_.error = error;
        return After::next;
    }
    doc_.error.clear();
    doc_.notice.clear();
    return After::stop;  // the old timeline's event indices are gone
}

App::After App::open_file(const std::string& path, bool leaves_tour) {
    std::string err;
    if (load_file(path, err)) {
        doc_.error.clear();
        doc_.notice.clear();
        if (leaves_tour) tour_.step = -1;
    } else {
        doc_.error = err;
    }
    return After::stop;
}

App::After App::on(const command::LoadPreset& c) { return open_file(c.path, false); }

App::After App::on(const command::OpenPath& c) { return open_file(c.path, true); }

App::After App::on(const command::SavePath& c) {
    write_text(c.path, sim::scenario_to_json(doc_.timeline->scenario()));
    return After::next;
}

App::After App::on(const command::TextEdited& c) {
    if (add_hangul(assets_.hangul, c.text)) assets_.fonts_dirty = true;  // baked before the next frame
    return After::next;
}

App::After App::on(const command::OpenPicker&) {
    pick_file_to_open();
    return After::next;
}

// The language, the tour and the layout.

App::After App::on(const command::SetLang& c) {
    set_lang(c.lang);
    return After::next;
}

App::After App::on(const command::TourGoto& c) {
    tour_goto(c.step);
    return After::stop;
}

App::After App::on(const command::TourStop&) {
    tour_.step = -1;
    return After::next;
}

App::After App::on(const command::ShowTab& c) {
    if (!is_tab_panel(c.panel)) return After::next;
    screen_.tab = c.panel;
    screen_.relayout_pending = true;  // placed anew: it may have been moved while hidden
    return After::next;
}

App::After App::on(const command::ResetLayout&) {
    screen_.relayout_pending = true;
    return After::next;
}

App::After App::on(const command::SetScale& c) {
    set_scale(c.percent);
    return After::next;
}

App::After App::on(const command::SetHighContrast& c) {
    set_high_contrast(c.on);
    return After::next;
}

App::After App::on(const command::SetTopHeight& c) {
    // The top bar wraps its knobs and the lesson: the panels below move with it.
    const auto h = std::round(c.height);
    if (std::fabs(h - screen_.top_h) >= 1.0f) {
        screen_.top_h = h;
        screen_.relayout_pending = true;
    }
    return After::next;
}

// Exports.

App::After App::on(const command::ExportPng& c) {
    doc_.png_request = c.path;
    return After::next;
}

App::After App::on(const command::ExportSvg& c) {
    SvgOptions o;
    o.first = 0;
    o.last = doc_.lanes.end_tick;
    o.playhead = doc_.playhead;
    const auto& sc = doc_.timeline->scenario();
    o.title = (assets_.strings.lang() == Lang::ko && !sc.title.ko.empty() ? sc.title.ko : sc.title.en);
    if (o.title.empty()) o.title = sc.name;
    write_text(c.path, timeline_svg(doc_.lanes, prefs_.palette, assets_.strings, o));
    return After::next;
}

App::After App::on(const command::ExportJsonl& c) {
    write_text(c.path, sim::trace_to_jsonl(doc_.timeline->trace()));
    return After::next;
}

// The live run and the counterexample search.

App::After App::on(const command::LiveToggle&) {
    jobs_.live.open = !jobs_.live.open;
    if (jobs_.live.open) jobs_.find.open = screen_.code_open = exercise_.open = false;
    return After::next;
}

App::After App::on(const command::LiveRun& c) {
    if (jobs_.live_job || !jobs_.live.supported) return After::next;
    const bool supported = jobs_.live.supported;
    jobs_.live = LiveStatus{};
    jobs_.live.supported = supported;
    jobs_.live.url_initial = c.url;
    jobs_.live.open = true;
    exercise_.open = false;
    jobs_.live.verdict = LiveVerdict::running;
    jobs_.live.url_shown = redis::redact_redis_url(c.url);
    jobs_.live.end_tick = doc_.lanes.end_tick;
    jobs_.live.tick_ms = c.tick_ms > 0 ? c.tick_ms : doc_.timeline->scenario().tick_ms;
    jobs_.live_job = std::make_unique<LiveJob>(doc_.timeline->scenario(), c.url, c.tick_ms);
    return After::next;
}

App::After App::on(const command::LiveCancel&) {
    if (jobs_.live_job) jobs_.live_job->cancel();
    return After::next;
}

App::After App::on(const command::FindToggle&) {
    jobs_.find.open = !jobs_.find.open;
    if (jobs_.find.open) jobs_.live.open = screen_.code_open = exercise_.open = false;
    return After::next;
}

App::After App::on(const command::CodeToggle&) {
    screen_.code_open = !screen_.code_open;
    if (screen_.code_open) jobs_.live.open = jobs_.find.open = exercise_.open = false;
    return After::next;
}

App::After App::on(const command::FindRun& c) {
    start_find(c.properties, c.max_faults, c.smallest);
    return After::next;
}

App::After App::on(const command::FindShow& c) {
    if (jobs_.find_job || c.kind < 0 || static_cast<std::size_t>(c.kind) >= jobs_.find_kinds.size()) return After::next;
    const std::optional<sim::Counterexample>& found = jobs_.find_kinds[static_cast<std::size_t>(c.kind)];
    if (!found) return After::next;
    jobs_.find.shown = c.kind;
    load_counterexample(*found);
    return After::next;
}

App::After App::on(const command::FindCancel&) {
    if (jobs_.find_job) {
        jobs_.find_job.reset();
        jobs_.find.running = false;
        jobs_.find.cancelled = true;
    }
    return After::next;
}

}  // namespace leasescope::gui

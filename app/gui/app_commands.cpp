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

void App::apply(const Commands& commands) {
    if (!timeline_) return;
    for (const Command& c : commands) {
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
    playing_ = false;
    seek(playhead_ + c.ticks);
    return After::next;
}

App::After App::on(const command::NextEvent&) {
    playing_ = false;
    const auto& events = timeline_->trace().events;
    const std::size_t k = timeline_->first_event_at_or_after(playhead_ + 1);
    if (k < events.size()) {
        seek(events[k].tick);
        selected_event_ = static_cast<std::int32_t>(k);
    }
    return After::next;
}

App::After App::on(const command::PrevEvent&) {
    playing_ = false;
    const auto& events = timeline_->trace().events;
    const std::size_t k = timeline_->first_event_at_or_after(playhead_);
    if (k > 0) {
        const Tick t = events[k - 1].tick;
        seek(t);
        selected_event_ = static_cast<std::int32_t>(timeline_->first_event_at_or_after(t));
    }
    return After::next;
}

App::After App::on(const command::TogglePlay&) {
    if (!playing_ && playhead_ >= lanes_.end_tick) seek(0);
    playing_ = !playing_;
    play_accum_ = 0;
    return After::next;
}

App::After App::on(const command::SetSpeed& c) {
    speed_ = std::clamp(c.ticks_per_second, 0.5, 40.0);
    save_settings();
    return After::next;
}

App::After App::on(const command::Restart&) {
    seek(0);
    selected_event_ = -1;
    playing_ = true;
    play_accum_ = 0;
    return After::next;
}

App::After App::on(const command::Fit&) {
    ++fit_generation_;
    return After::next;
}

App::After App::on(const command::SelectEvent& c) {
    const auto& events = timeline_->trace().events;
    if (c.event >= 0 && static_cast<std::size_t>(c.event) < events.size()) {
        selected_event_ = static_cast<std::int32_t>(c.event);
        playing_ = false;
        seek(events[static_cast<std::size_t>(c.event)].tick);
    }
    return After::next;
}

// The scenario and its files.

App::After App::on(const command::EditScenario& c) {
    auto edited = apply_edits(timeline_->scenario(), c.edits);
    if (!edited.ok()) {
        error_ = edited.error();
        return After::next;
    }
    std::string error;
    if (!rebuild(std::move(edited).value(), true, error)) {
        error_ = error;
        return After::next;
    }
    error_.clear();
    notice_.clear();
    return After::stop;  // the old timeline's event indices are gone
}

App::After App::open_file(const std::string& path, bool leaves_tour) {
    std::string err;
    if (load_file(path, err)) {
        error_.clear();
        notice_.clear();
        if (leaves_tour) tour_step_ = -1;
    } else {
        error_ = err;
    }
    return After::stop;
}

App::After App::on(const command::LoadPreset& c) { return open_file(c.path, false); }

App::After App::on(const command::OpenPath& c) { return open_file(c.path, true); }

App::After App::on(const command::SavePath& c) {
    write_text(c.path, sim::scenario_to_json(timeline_->scenario()));
    return After::next;
}

App::After App::on(const command::TextEdited& c) {
    if (add_hangul(hangul_, c.text)) fonts_dirty_ = true;  // baked before the next frame
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
    tour_step_ = -1;
    return After::next;
}

App::After App::on(const command::ResetLayout&) {
    relayout_pending_ = true;
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
    if (std::fabs(h - top_h_) >= 1.0f) {
        top_h_ = h;
        relayout_pending_ = true;
    }
    return After::next;
}

// Exports.

App::After App::on(const command::ExportPng& c) {
    png_request_ = c.path;
    return After::next;
}

App::After App::on(const command::ExportSvg& c) {
    SvgOptions o;
    o.first = 0;
    o.last = lanes_.end_tick;
    o.playhead = playhead_;
    const auto& sc = timeline_->scenario();
    o.title = (strings_.lang() == Lang::ko && !sc.title.ko.empty() ? sc.title.ko : sc.title.en);
    if (o.title.empty()) o.title = sc.name;
    write_text(c.path, timeline_svg(lanes_, palette_, strings_, o));
    return After::next;
}

App::After App::on(const command::ExportJsonl& c) {
    write_text(c.path, sim::trace_to_jsonl(timeline_->trace()));
    return After::next;
}

// The live run and the counterexample search.

App::After App::on(const command::LiveToggle&) {
    live_.open = !live_.open;
    if (live_.open) find_.open = code_open_ = false;
    return After::next;
}

App::After App::on(const command::LiveRun& c) {
    if (live_job_ || !live_.supported) return After::next;
    const bool supported = live_.supported;
    live_ = LiveStatus{};
    live_.supported = supported;
    live_.url_initial = c.url;
    live_.open = true;
    live_.verdict = LiveVerdict::running;
    live_.url_shown = redis::redact_redis_url(c.url);
    live_.end_tick = lanes_.end_tick;
    live_.tick_ms = c.tick_ms > 0 ? c.tick_ms : timeline_->scenario().tick_ms;
    live_job_ = std::make_unique<LiveJob>(timeline_->scenario(), c.url, c.tick_ms);
    return After::next;
}

App::After App::on(const command::LiveCancel&) {
    if (live_job_) live_job_->cancel();
    return After::next;
}

App::After App::on(const command::FindToggle&) {
    find_.open = !find_.open;
    if (find_.open) live_.open = code_open_ = false;
    return After::next;
}

App::After App::on(const command::CodeToggle&) {
    code_open_ = !code_open_;
    if (code_open_) live_.open = find_.open = false;
    return After::next;
}

App::After App::on(const command::FindRun& c) {
    start_find(c.properties, c.max_faults);
    return After::next;
}

App::After App::on(const command::FindCancel&) {
    if (find_job_) {
        find_job_.reset();
        find_.running = false;
        find_.cancelled = true;
    }
    return After::next;
}

}  // namespace leasescope::gui

// The app's handlers for side by side and narrated play (commands.hpp): opening and closing a pair, knobs
// on B only, the pair's SVG, narration's pace and stepping, and the headless report of a pair.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "app.hpp"
#include "core/pair_svg.hpp"
#include "core/words.hpp"
#include "leasescope/io/files.hpp"
#include "leasescope/sim/limits.hpp"
#include "leasescope/sim/scenario.hpp"

namespace leasescope::gui {
namespace {

std::string title_of(const sim::Scenario& sc, Lang lang) {
    const std::string& t = lang == Lang::ko && !sc.title.ko.empty() ? sc.title.ko : sc.title.en;
    return t.empty() ? sc.name : t;
}

}  // namespace

App::After App::on(const command::CompareOpen& c) {
    std::string path = c.path;
    std::vector<std::string> overrides = c.b_overrides;
    auto preset_path = [&](const std::string& name) {
        for (const PresetInfo& p : presets_)
            if (p.name == name) return p.path;
        return std::string();
    };
    if (!c.pair.empty()) {
        const ReadyPair* pair = find_ready_pair(c.pair);
        if (pair == nullptr) {
            error_ = strings_.tr("msg.cannot_read", {{"path", c.pair}});
            return After::next;
        }
        // A is the pair's first preset: it replaces the open scenario.
        const std::string a_path = preset_path(pair->a);
        std::string err;
        if (a_path.empty() || !load_file(a_path, err)) {
            error_ = err.empty() ? strings_.tr("msg.cannot_read", {{"path", pair->a}}) : err;
            return After::stop;
        }
        tour_step_ = -1;
        // B is the second preset, or the first again with the pair's overrides (its file, so `defaults` apply).
        path = preset_path(pair->b.empty() ? pair->a : pair->b);
        overrides = pair->b_overrides;
    }
    std::string text, file = path, err;
    if (path.empty()) {
        // A variant: B starts as a copy of A as it stands, edits included.
        text = sim::scenario_to_json(timeline_->scenario());
        file = timeline_->scenario().name;
    } else {
        std::string why;
        const auto read = io::read_file(path, limits::scenario_bytes_max, "scenario_bytes_max", why);
        if (!read) {
            error_ = strings_.tr("msg.cannot_read", {{"path", path}}) + " (" + why + ")";
            return After::next;
        }
        text = *read;
    }
    auto pair = std::make_unique<ComparePair>();
    if (!pair->build_b(text, file, overrides, path.empty(), err)) {
        error_ = err;
        return After::next;
    }
    pair->pair_name = c.pair;
    compare_ = std::move(pair);
    error_.clear();
    // A ready-made pair loaded A anew: later commands were made against the old timeline.
    return c.pair.empty() ? After::next : After::stop;
}

App::After App::on(const command::CompareSetB& c) {
    if (!compare_) return After::next;
    std::vector<std::string> all = compare_->b_overrides;
    all.insert(all.end(), c.overrides.begin(), c.overrides.end());
    std::string err;
    auto pair = std::make_unique<ComparePair>();
    // B again from its own scenario as written back, with every override so far.
    const std::string text = sim::scenario_to_json(compare_->b().scenario());
    if (!pair->build_b(text, compare_->b().scenario().name, c.overrides, true, err)) {
        error_ = err;
        return After::next;
    }
    pair->b_overrides = all;
    pair->pair_name = compare_->pair_name;
    compare_ = std::move(pair);
    error_.clear();
    return After::next;
}

App::After App::on(const command::CompareClose&) {
    compare_.reset();
    request_relayout();
    return After::next;
}

App::After App::on(const command::ExportPairSvg& c) {
    if (!compare_) return After::next;
    compare_->refresh(*timeline_, timeline_generation_, playhead_, strings_);
    PairSvgOptions o;
    o.first = 0;
    o.last = compare_->end_tick(lanes_);
    o.playhead = playhead_;
    const auto& d = compare_->divergence();
    o.divergence_a = !d.differ ? -1 : (d.tick_a >= 0 ? d.tick_a : d.tick);
    o.divergence_b = !d.differ ? -1 : (d.tick_b >= 0 ? d.tick_b : d.tick);
    o.mark_text_a = strings_.tr("compare.divergence", {{"tick", std::to_string(o.divergence_a)}});
    o.mark_text_b = strings_.tr("compare.divergence", {{"tick", std::to_string(o.divergence_b)}});
    o.title = strings_.tr("compare.title");
    o.label_a = "A · " + title_of(timeline_->scenario(), strings_.lang());
    o.label_b = "B · " + title_of(compare_->b().scenario(), strings_.lang());
    for (const std::string& ov : compare_->b_overrides) o.label_b += " · " + ov;
    for (const Sentence& s : compare_->sentences()) o.sentences.push_back(s.text);
    write_text(c.path, pair_svg(lanes_, compare_->lanes_b(), palette_, strings_, o));
    return After::next;
}

std::string App::compare_report() const {
    if (!compare_) return {};
    const auto& d = compare_->divergence();
    // The first line is what `leasescope-cli diff --ignore-tokens` prints (A's event's tick, else B's).
    std::string out = d.differ ? fmt::format("first divergence: event {} tick {}\nparts at tick {} (A {}, B {})\n",
                                             d.index, d.tick, d.first_tick, d.tick_a, d.tick_b)
                               : std::string("first divergence: none\n");
    // The words as the panel shows them, in the chosen language; never the table keys.
    for (const Sentence& s : compare_->sentences()) out += s.text + "\n";
    return out;
}

void App::seek_to_divergence() {
    if (!compare_) return;
    compare_->refresh(*timeline_, timeline_generation_, playhead_, strings_);
    const auto& d = compare_->divergence();
    if (d.differ) seek(d.first_tick);
}

App::After App::on(const command::NarrateToggle&) {
    narrate_.on = !narrate_.on;
    narrate_.accum = 0;
    narrate_.stopped_here = false;
    // Narration starts from the playhead, playing; a second press gives ordinary play back, paused.
    playing_ = narrate_.on;
    if (narrate_.on && playhead_ >= lanes_.end_tick) seek(0);
    return After::next;
}

App::After App::on(const command::SetPace& c) {
    narrate_.pace = std::clamp(c.ticks_per_second, 0.25, 8.0);
    return After::next;
}

void App::narrate_step(double dt) {
    if (narrate_.stops_generation != timeline_generation_) {
        narrate_.stops = narration_stops(timeline_->trace(), timeline_->scenario().resource);
        narrate_.stops_generation = timeline_generation_;
    }
    narrate_.stopped_here = false;
    narrate_.accum += dt * narrate_.pace;
    const auto whole = static_cast<Tick>(std::floor(narrate_.accum));
    if (whole <= 0) return;
    narrate_.accum -= static_cast<double>(whole);
    bool stopped = false;
    const Tick to = narrate_advance(narrate_.stops, playhead_, whole, lanes_.end_tick, stopped);
    seek(to);
    if (stopped) {
        playing_ = false;
        narrate_.accum = 0;
        narrate_.stopped_here = true;
        // The explanation follows the first important event of the tick.
        const auto& events = timeline_->trace().events;
        for (std::size_t k = timeline_->first_event_at_or_after(to); k < events.size() && events[k].tick == to; ++k)
            if (is_narration_stop(events[k], timeline_->scenario().resource)) {
                selected_event_ = static_cast<std::int32_t>(k);
                break;
            }
    }
    if (playhead_ >= lanes_.end_tick) {
        playing_ = false;
        // Narrating the tour: the end of a step's run opens the next step, paused there.
        if (tour_step_ >= 0 && static_cast<std::size_t>(tour_step_) + 1 < tour_.size()) {
            tour_goto(tour_step_ + 1);
            narrate_.stopped_here = true;
        }
    }
}

}  // namespace leasescope::gui

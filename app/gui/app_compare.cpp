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
        for (const PresetInfo& p : assets_.presets)
            if (p.name == name) return p.path;
        return std::string();
    };
    if (!c.pair.empty()) {
        const ReadyPair* pair = find_ready_pair(c.pair);
        if (pair == nullptr) {
            doc_.error = assets_.strings.tr("msg.cannot_read", {{"path", c.pair}});
            return After::next;
        }
        // A is the pair's first preset: it replaces the open scenario.
        const std::string a_path = preset_path(pair->a);
        std::string err;
        if (a_path.empty() || !load_file(a_path, err)) {
            doc_.error = err.empty() ? assets_.strings.tr("msg.cannot_read", {{"path", pair->a}}) : err;
            return After::stop;
        }
        tour_.step = -1;
        // B is the second preset, or the first again with the pair's overrides (its file, so `defaults` apply).
        path = preset_path(pair->b.empty() ? pair->a : pair->b);
        overrides = pair->b_overrides;
    }
    std::string text, file = path, err;
    if (path.empty() && doc_.timeline->replayed()) {
        doc_.error = assets_.strings.tr("replay.read_only");  // no scenario to copy (model.md §19.9)
        return After::next;
    }
    if (path.empty()) {
        // A variant: B starts as a copy of A as it stands, edits included.
        text = sim::scenario_to_json(doc_.timeline->scenario());
        file = doc_.timeline->scenario().name;
    } else {
        std::string why;
        const auto read = io::read_file(path, limits::scenario_bytes_max, "scenario_bytes_max", why);
        if (!read) {
            doc_.error = assets_.strings.tr("msg.cannot_read", {{"path", path}}) + " (" + why + ")";
            return After::next;
        }
        text = *read;
    }
    auto pair = std::make_unique<ComparePair>();
    if (!pair->build_b(text, file, overrides, path.empty(), err)) {
        doc_.error = err;
        return After::next;
    }
    pair->pair_name = c.pair;
    compare_.pair = std::move(pair);
    doc_.error.clear();
    // A ready-made pair loaded A anew: later commands were made against the old timeline.
    return c.pair.empty() ? After::next : After::stop;
}

App::After App::on(const command::CompareSetB& c) {
    if (!compare_.pair) return After::next;
    std::vector<std::string> all = compare_.pair->b_overrides;
    all.insert(all.end(), c.overrides.begin(), c.overrides.end());
    std::string err;
    auto pair = std::make_unique<ComparePair>();
    // B again from its own scenario as written back, with every override so far.
    const std::string text = sim::scenario_to_json(compare_.pair->b().scenario());
    if (!pair->build_b(text, compare_.pair->b().scenario().name, c.overrides, true, err)) {
        doc_.error = err;
        return After::next;
    }
    pair->b_overrides = all;
    pair->pair_name = compare_.pair->pair_name;
    compare_.pair = std::move(pair);
    doc_.error.clear();
    return After::next;
}

App::After App::on(const command::CompareClose&) {
    compare_.pair.reset();
    request_relayout();
    return After::next;
}

App::After App::on(const command::ExportPairSvg& c) {
    if (!compare_.pair) return After::next;
    compare_.pair->refresh(*doc_.timeline, doc_.timeline_generation, doc_.playhead, assets_.strings);
    PairSvgOptions o;
    o.first = 0;
    o.last = compare_.pair->end_tick(doc_.lanes);
    o.playhead = doc_.playhead;
    const auto& d = compare_.pair->divergence();
    o.divergence_a = !d.differ ? -1 : (d.tick_a >= 0 ? d.tick_a : d.tick);
    o.divergence_b = !d.differ ? -1 : (d.tick_b >= 0 ? d.tick_b : d.tick);
    o.mark_text_a = assets_.strings.tr("compare.divergence", {{"tick", std::to_string(o.divergence_a)}});
    o.mark_text_b = assets_.strings.tr("compare.divergence", {{"tick", std::to_string(o.divergence_b)}});
    o.title = assets_.strings.tr("compare.title");
    o.label_a = "A · " + title_of(doc_.timeline->scenario(), assets_.strings.lang());
    o.label_b = "B · " + title_of(compare_.pair->b().scenario(), assets_.strings.lang());
    for (const std::string& ov : compare_.pair->b_overrides) o.label_b += " · " + ov;
    for (const Sentence& s : compare_.pair->sentences()) o.sentences.push_back(s.text);
    write_text(c.path, pair_svg(doc_.lanes, compare_.pair->lanes_b(), prefs_.palette, assets_.strings, o));
    return After::next;
}

std::string App::compare_report() const {
    if (!compare_.pair) return {};
    const auto& d = compare_.pair->divergence();
    // The first line is what `leasescope-cli diff --ignore-tokens` prints (A's event's tick, else B's).
    std::string out = d.differ ? fmt::format("first divergence: event {} tick {}\nparts at tick {} (A {}, B {})\n",
                                             d.index, d.tick, d.first_tick, d.tick_a, d.tick_b)
                               : std::string("first divergence: none\n");
    // The words as the panel shows them, in the chosen language; never the table keys.
    for (const Sentence& s : compare_.pair->sentences()) out += s.text + "\n";
    return out;
}

void App::seek_to_divergence() {
    if (!compare_.pair) return;
    compare_.pair->refresh(*doc_.timeline, doc_.timeline_generation, doc_.playhead, assets_.strings);
    const auto& d = compare_.pair->divergence();
    if (d.differ) seek(d.first_tick);
}

App::After App::on(const command::NarrateToggle&) {
    tour_.narrate.on = !tour_.narrate.on;
    tour_.narrate.accum = 0;
    tour_.narrate.stopped_here = false;
    // Narration starts from the playhead, playing; a second press gives ordinary play back, paused.
    doc_.playing = tour_.narrate.on;
    if (tour_.narrate.on && doc_.playhead >= doc_.lanes.end_tick) seek(0);
    return After::next;
}

App::After App::on(const command::SetPace& c) {
    tour_.narrate.pace = std::clamp(c.ticks_per_second, 0.25, 8.0);
    return After::next;
}

void App::narrate_step(double dt) {
    if (tour_.narrate.stops_generation != doc_.timeline_generation) {
        tour_.narrate.stops = narration_stops(doc_.timeline->trace(), doc_.timeline->scenario().resource);
        tour_.narrate.stops_generation = doc_.timeline_generation;
    }
    tour_.narrate.stopped_here = false;
    tour_.narrate.accum += dt * tour_.narrate.pace;
    const auto whole = static_cast<Tick>(std::floor(tour_.narrate.accum));
    if (whole <= 0) return;
    tour_.narrate.accum -= static_cast<double>(whole);
    bool stopped = false;
    const Tick to = narrate_advance(tour_.narrate.stops, doc_.playhead, whole, doc_.lanes.end_tick, stopped);
    seek(to);
    if (stopped) {
        doc_.playing = false;
        tour_.narrate.accum = 0;
        tour_.narrate.stopped_here = true;
        // The explanation follows the first important event of the tick.
        const auto& events = doc_.timeline->trace().events;
        for (std::size_t k = doc_.timeline->first_event_at_or_after(to); k < events.size() && events[k].tick == to; ++k)
            if (is_narration_stop(events[k], doc_.timeline->scenario().resource)) {
                doc_.selected_event = static_cast<std::int32_t>(k);
                break;
            }
    }
    if (doc_.playhead >= doc_.lanes.end_tick) {
        doc_.playing = false;
        // Narrating the tour: the end of a step's run opens the next step, paused there.
        if (tour_.step >= 0 && static_cast<std::size_t>(tour_.step) + 1 < tour_.steps.size()) {
            tour_goto(tour_.step + 1);
            tour_.narrate.stopped_here = true;
        }
    }
}

}  // namespace leasescope::gui

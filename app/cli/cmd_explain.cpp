// `leasescope-cli explain`: the words of the app's "Explain this tick" panel
// (and of the guided tour) for a scenario at a tick, from the same library
// (leasescope::words) and the same string tables (assets/i18n).
#include <cstdlib>
#include <filesystem>

#include <fmt/format.h>

#include "common.hpp"
#include "leasescope/sim/durations.hpp"
#include "leasescope/sim/limits.hpp"
#include "leasescope/sim/simulation.hpp"
#include "leasescope/words/tour.hpp"
#include "leasescope/words/words.hpp"

namespace fs = std::filesystem;

namespace leasescope::cli {
namespace {

struct ExplainOptions {
    std::string scenario_path;
    std::vector<std::string> sets;
    std::string tick;   // ticks or a duration (model.md §11.7); empty: not given
    bool time = false;  // --time: say when the tick starts
    std::string lang = "en";
    std::optional<int> tour_step;  // 1-based, as the app's --tour
    std::string assets_dir;
};

// The tour step --tour-step names (1-based), the tour's length, and its
// preset as the scenario when none was given; exit_bad_input (said on
// stderr) when the tour does not load or has no such step.
int load_tour_step(const ExplainOptions& o, const std::string& assets, std::optional<words::TourStep>& step,
                   std::size_t& step_count, std::string& scenario_path) {
    auto text = read_file(assets + "/tour.json", limits::scenario_bytes_max, "scenario_bytes_max");
    if (!text) return exit_bad_input;
    std::vector<words::TourStep> steps;
    std::string error;
    if (!words::load_tour(*text, steps, error)) {
        fmt::print(stderr, "error: {}/tour.json: {}\n", assets, error);
        return exit_bad_input;
    }
    if (*o.tour_step < 1 || static_cast<std::size_t>(*o.tour_step) > steps.size()) {
        fmt::print(stderr, "error: --tour-step {}: the tour has steps 1 to {}\n", *o.tour_step, steps.size());
        return exit_bad_input;
    }
    step = steps[static_cast<std::size_t>(*o.tour_step - 1)];
    step_count = steps.size();
    const std::string preset = (fs::path(assets).parent_path() / "scenarios" / (step->preset + ".json")).string();
    if (scenario_path.empty()) {
        scenario_path =
            fs::exists(preset) ? preset : std::string(LEASESCOPE_SOURCE_DIR) + "/scenarios/" + step->preset + ".json";
    }
    return exit_ok;
}

// Each event of `tick` explained, then the state at its end.
void print_tick(const sim::Timeline& timeline, Tick tick, const words::Strings& strings) {
    const sim::Trace& trace = timeline.trace();
    const sim::Snapshot snap = timeline.snapshot_at(tick);
    std::size_t shown = 0;
    for (std::size_t k = timeline.first_event_at_or_after(tick);
         k < trace.events.size() && trace.events[k].tick == tick; ++k) {
        words::ExplainContext ctx;
        ctx.scenario = &timeline.scenario();
        ctx.trace = &trace;
        ctx.event_index = k;
        ctx.snapshot = &snap;
        const words::Explanation ex = words::explain(ctx, strings);
        fmt::print("{}\n{}\n\n", ex.heading, ex.body());
        ++shown;
    }
    if (shown == 0) fmt::print("{}\n\n", strings.tr("explain.quiet_tick", {{"tick", std::to_string(tick)}}));
    const std::string state = words::explain_state(snap, strings);
    if (!state.empty()) fmt::print("{}\n", state);  // never a heading with nothing under it
}

int cmd_explain(const ExplainOptions& o) {
    words::Strings strings;
    const std::string assets = find_assets_dir(o.assets_dir);
    if (!read_string_tables(assets, strings)) return exit_bad_input;
    strings.set_lang(words::lang_from_code(o.lang));

    std::string scenario_path = o.scenario_path;
    std::optional<words::TourStep> step;
    std::size_t step_count = 0;
    if (o.tour_step) {
        if (const int status = load_tour_step(o, assets, step, step_count, scenario_path); status != exit_ok)
            return status;
    }
    if (scenario_path.empty()) {
        fmt::print(stderr, "error: a SCENARIO is required unless --tour-step names one\n");
        return exit_bad_input;
    }
    auto scenario = load_scenario(scenario_path, o.sets);
    if (!scenario) return exit_bad_input;
    if (step && scenario->name != step->preset) {
        fmt::print(stderr, "error: tour step {} is about {}, not {}\n", *o.tour_step, step->preset, scenario->name);
        return exit_bad_input;
    }
    sim::Timeline timeline(*scenario);
    if (!timeline.limit_error().empty()) {  // every event is kept in memory (model.md §11.6)
        fmt::print(stderr, "error: {}\n", timeline.limit_error());
        return exit_bad_input;
    }
    const sim::Trace& trace = timeline.trace();
    Tick tick = 0;
    if (!o.tick.empty()) {
        const std::optional<Tick> given = tick_of_option("--tick", o.tick, scenario->tick_ms);
        if (!given) return exit_bad_input;
        tick = *given;
    } else if (step) {
        tick = words::resolve_tour_tick(*step, trace);
    } else {
        fmt::print(stderr, "error: --tick is required (or --tour-step)\n");
        return exit_bad_input;
    }
    if (tick > timeline.end_tick()) {
        fmt::print(stderr, "error: --tick {}: the run of {} ends at tick {}\n", tick, scenario->name,
                   timeline.end_tick());
        return exit_bad_input;
    }
    const words::Lang lang = strings.lang();
    if (step) {
        fmt::print(
            "{}\n{}\n\n{}\n\n",
            strings.tr("tour.step_of", {{"step", std::to_string(*o.tour_step)}, {"count", std::to_string(step_count)}}),
            step->title(lang), words::tour_body(*step, trace, strings));
    }
    if (o.time) {
        fmt::print("{}\n\n", strings.tr("explain.tick_time", {{"tick", std::to_string(tick)},
                                                              {"time", sim::elapsed_text(tick, scenario->tick_ms)},
                                                              {"tick_ms", std::to_string(scenario->tick_ms)}}));
    }
    print_tick(timeline, tick, strings);
    return exit_ok;
}

}  // namespace

void add_explain_command(CLI::App& app, int& exit_code) {
    auto o = std::make_shared<ExplainOptions>();
    auto* cmd = app.add_subcommand(
        "explain",
        "Explain a tick in words, as the app's \"Explain this tick\" panel does: each event of the tick, then the "
        "state at its end (--tour-step K: the tour step's text first)");
    cmd->add_option("SCENARIO", o->scenario_path, "Scenario file (optional with --tour-step: the step's preset)");
    cmd->add_option("--tick", o->tick,
                    "The tick to explain, or the time (2.5s) at the scenario's tick_ms (default with --tour-step: the "
                    "step's tick)")
        ->check(tick_or_duration());
    cmd->add_flag("--time", o->time, "First say when the tick starts since tick 0 (M:SS.mmm) at the tick_ms");
    cmd->add_option("--lang", o->lang, "Language: en or ko")->check(CLI::IsMember({"en", "ko"}))->capture_default_str();
    cmd->add_option("--tour-step", o->tour_step,
                    "Also print step K of the guided tour (1-based, as leasescope --tour K)");
    cmd->add_option("--set", o->sets, "Override a value: PATH=VALUE, e.g. defaults.lease=30s")->allow_extra_args(false);
    cmd->add_option("--assets", o->assets_dir,
                    "Folder with i18n/ and tour.json (default: $LEASESCOPE_ASSETS, ./assets, or the source tree's)");
    cmd->callback([o, &exit_code] { exit_code = cmd_explain(*o); });
}

}  // namespace leasescope::cli

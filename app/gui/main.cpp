// leasescope: the desktop app. Opens a scenario (expiry-takeover by default)
// on a timeline; can also render one frame to a PNG and exit, or measure frame
// times, for tests and docs. Flags: flags.cpp; the window: window_host.cpp;
// the three ways to run frames: runners.hpp; exit codes: io/exit_codes.hpp.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "app.hpp"
#include "core/panels.hpp"
#include "flags.hpp"
#include "leasescope/io/data_dir.hpp"
#include "leasescope/io/exit_codes.hpp"
#include "leasescope/io/signals.hpp"
#include "leasescope/redis/redis_url.hpp"
#include "platform.hpp"
#include "reports.hpp"
#include "runners.hpp"
#include "window_host.hpp"

namespace fs = std::filesystem;
using namespace leasescope;
using namespace leasescope::gui;

namespace {

// Finds the assets: the flag, then $LEASESCOPE_ASSETS, then an installed
// copy (<executable>/../share/leasescope/...), then the source tree this
// binary was built from, then next to the binary.
std::string locate_dir(const std::string& flag, const char* env, const char* built_in, const char* beside) {
    std::error_code ec;
    if (!flag.empty()) return flag;
    if (const char* e = std::getenv(env); e && *e) return e;
    if (auto data = leasescope::io::installed_data_dir()) return *data + "/" + beside;
    if (fs::is_directory(built_in, ec)) return built_in;
    const std::string near = executable_dir() + "/" + beside;
    if (fs::is_directory(near, ec)) return near;
    return built_in;
}

bool have_display(const std::string& scenario_path) {
    if (std::getenv("DISPLAY") || std::getenv("WAYLAND_DISPLAY")) return true;
    std::fprintf(stderr,
                 "leasescope: no display (DISPLAY is not set), so the window cannot open.\n"
                 "  For a picture without a screen:  xvfb-run -a -s '-screen 0 1600x900x24' leasescope %s "
                 "--tick 12 --screenshot shot.png\n"
                 "  For the trace as text:           leasescope-cli run %s --format text\n",
                 scenario_path.c_str(), scenario_path.c_str());
    return false;
}

// The look the flags ask for: the UI scale, the palette, the projector preset
// and the panels to open (parsed into `panels`, set once a scenario is open).
// False after a message when --panels names an unknown panel.
bool apply_look(App& app, const GuiFlags& flags, PanelChoice& panels) {
    std::string error;
    if (!flags.panels.empty() && !parse_panels(flags.panels, panels, error)) {
        std::fprintf(stderr, "leasescope: --panels %s: %s\n", flags.panels.c_str(), error.c_str());
        return false;
    }
    // The projector preset is for this session only: the remembered settings stay as they were.
    if (flags.projector) app.set_remember_settings(false);
    if (flags.scale_percent > 0)
        app.set_scale(flags.scale_percent);
    else if (flags.projector)
        app.set_scale(projector_scale_percent);
    if (flags.high_contrast || (flags.projector && projector_high_contrast)) app.set_high_contrast(true);
    return true;
}

// --exercise N and each --exercise-answer, through the commands the panel's
// buttons push. exit_bad_input, said on stderr, when the scenario has no
// exercise N or an answer fits none of its choices.
int open_exercise(App& app, const GuiFlags& f) {
    const std::size_t count = app.exercise().count();
    if (static_cast<std::size_t>(f.exercise) > count) {
        std::fprintf(stderr, "leasescope: --exercise %d: %s has %zu exercise%s\n", f.exercise,
                     app.scenario_path().c_str(), count, count == 1 ? "" : "s");
        return io::exit_bad_input;
    }
    app.apply({command::ExerciseOpen{f.exercise - 1}});
    for (const std::string& value : f.exercise_answers) {
        std::string error;
        const auto command = app.exercise_answer_command(value, error);
        if (!command) {
            std::fprintf(stderr, "leasescope: --exercise-answer: %s\n", error.c_str());
            return io::exit_bad_input;
        }
        app.apply({*command});
    }
    return io::exit_ok;
}

// What the flags ask for before the first frame: the playhead, the tour,
// playback, the exports, a live run, a search. Returns exit_bad_input when
// the pair to compare cannot be opened (the app then stops before drawing),
// exit_write_failed when an export failed, else exit_ok.
int start(App& app, const GuiFlags& f) {
    if (f.tour) app.tour_goto(std::max(0, f.tour_step - 1));
    if (!f.pair.empty()) app.apply({command::CompareOpen{f.pair, "", {}}});
    if (!f.compare_path.empty() || !f.compare_sets.empty())
        app.apply({command::CompareOpen{"", f.compare_path, f.compare_sets}});
    if ((!f.pair.empty() || !f.compare_path.empty() || !f.compare_sets.empty()) && app.compare() == nullptr) {
        std::fprintf(stderr, "leasescope: %s\n", app.error().c_str());
        return io::exit_bad_input;
    }
    if (f.narrate) {
        app.apply({command::SetPace{f.pace}});
        app.apply({command::NarrateToggle{}});
        if (f.headless()) app.set_playing(false);
    }
    if (f.exercise > 0 && open_exercise(app, f) != io::exit_ok) return io::exit_bad_input;
    if (f.tick >= 0) app.seek(f.tick);
    if (f.event >= 0) {
        const std::size_t count = app.trace_event_count();
        if (static_cast<std::size_t>(f.event) >= count) {
            std::fprintf(stderr, "leasescope: --event %lld: the run has %zu events, numbered 0 to %zu\n", f.event,
                         count, count == 0 ? 0 : count - 1);
            return io::exit_bad_input;
        }
        app.apply({command::SelectEvent{f.event}});
    }
    // A pair without --tick opens where the runs part, the tick its words speak of.
    if (f.tick < 0 && f.event < 0 && app.compare() != nullptr) app.seek_to_divergence();
    // Opened plainly, the app plays the story once from tick 0 (Space pauses).
    if (f.tick < 0 && f.event < 0 && !f.tour && f.exercise == 0 && !f.headless() && app.compare() == nullptr)
        app.set_playing(true);
    if (!f.svg_path.empty()) {
        if (app.compare() != nullptr)
            app.apply({command::ExportPairSvg{f.svg_path}});
        else
            app.apply({command::ExportSvg{f.svg_path}});
    }
    if (!f.trace_path.empty()) app.apply({command::ExportJsonl{f.trace_path}});
    // Exports asked for on the command line report on stderr, not in the picture.
    const bool exported = app.error().empty();
    if (!exported) std::fprintf(stderr, "leasescope: %s\n", app.error().c_str());
    app.set_notice("");
    if (f.live) {
        app.apply({command::LiveToggle{}});
        app.apply({command::LiveRun{f.live_url.empty() ? redis::redis_url_from_env() : f.live_url, f.live_tick_ms}});
    }
    if (f.code) app.apply({command::CodeToggle{}});
    if (f.find_counterexample || f.find_smallest) {
        app.apply({command::FindToggle{}});
        // unsafe_write, fencing_regressed, liveness
        app.apply({command::FindRun{sim::Properties{}, 2, f.find_smallest}});
    }
    // Headless, nothing is on screen while the search runs: give it long slices.
    if (f.headless()) app.set_find_budget_ms(250);
    return exported ? io::exit_ok : io::exit_write_failed;
}

}  // namespace

int main(int argc, char** argv) {
    // Ctrl-C or SIGTERM during an export removes its temporary file.
    leasescope::io::install_cleanup_on_signals();
    GuiFlags flags;
    if (auto code = parse_flags(argc, argv, flags)) return *code;

    AppOptions options;
    options.assets_dir = locate_dir(flags.assets, "LEASESCOPE_ASSETS", LEASESCOPE_SOURCE_DIR "/assets", "assets");
    options.scenarios_dir =
        locate_dir(flags.scenarios, "LEASESCOPE_SCENARIOS", LEASESCOPE_SOURCE_DIR "/scenarios", "scenarios");
    // Headless runs neither read nor write the remembered settings, so their pictures are reproducible.
    options.config_dir = flags.headless() ? std::string() : default_config_dir();
    App app(options);
    std::string error;
    if (!app.init(error)) {  // the assets folder cannot be read
        std::fprintf(stderr, "leasescope: %s\n", error.c_str());
        return io::exit_bad_input;
    }
    if (!flags.lang.empty()) app.set_lang(lang_from_code(flags.lang));
    PanelChoice panels;
    if (!apply_look(app, flags, panels)) return io::exit_bad_input;
    WindowSpec spec{flags.width, flags.height, flags.headless(), flags.direct_draw, {}};
    // On a screen without --size: the last run's size, else 90 % of the monitor, fitted to it (window_host.cpp).
    if (!flags.size_given && !flags.headless()) {
        spec.fit_monitor = true;
        spec.width = app.saved_window_w();
        spec.height = app.saved_window_h();
    }
    if (flags.scenario_path.empty()) flags.scenario_path = options.scenarios_dir + "/expiry-takeover.json";
    if (!app.load_file(flags.scenario_path, error)) {
        std::fprintf(stderr, "leasescope: %s\n", error.c_str());
        return io::exit_bad_input;
    }
    if (panels.limited) app.set_panels(panels);
    if (!have_display(flags.scenario_path)) return io::exit_no_display;
    if (!options.config_dir.empty()) {
        std::error_code ec;
        fs::create_directories(options.config_dir, ec);
        spec.ini_path = options.config_dir + "/imgui.ini";
    }

    int exit_code = io::exit_ok;
    {
        const auto host = WindowHost::open(app, spec);
        if (!host) return io::exit_no_display;
        const int started = start(app, flags);
        if (started == io::exit_bad_input) return started;
        if (!flags.screenshot.empty() || !flags.layout_report.empty()) {
            exit_code = flags.layout_sweep.empty()
                            ? run_screenshot(app, *host, flags.screenshot, flags.layout_report)
                            : run_layout_sweep(app, *host, flags.layout_sweep, flags.layout_report);
            if (flags.live) {
                const int live_code = report_live(app);
                if (exit_code == io::exit_ok) exit_code = live_code;
            }
            if (flags.find_counterexample || flags.find_smallest) report_find(app);
            if (flags.exercise > 0) report_exercise(app);
            if (app.compare() != nullptr) std::fputs(app.compare_report().c_str(), stdout);
        } else if (flags.bench_frames > 0) {
            run_frame_bench(app, *host, flags.bench_frames, spec.width, spec.height);
        } else {
            run_interactive(app, *host);
        }
        // An export asked for on the command line that could not be written.
        if (started != io::exit_ok && exit_code == io::exit_ok) exit_code = started;
    }
    return exit_code;
}

// The desktop app's flags (flags.hpp): their help texts, CLI11 parsing and the checks on their values.
#include "flags.hpp"

#include <cstdio>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "leasescope/io/exit_codes.hpp"
#include "leasescope/redis/redis_url.hpp"

namespace leasescope::gui {

namespace {

// What a teacher scripts before a lecture: the event to explain, the panels, the projector preset.
void add_lecture_flags(CLI::App& cli, GuiFlags& f, CLI::Option* tick) {
    cli.add_option("--event", f.event,
                   "Select event N (0-based, as the event table and leasescope-cli run number them): the playhead "
                   "goes to its tick and Explain explains it")
        ->check(CLI::NonNegativeNumber)
        ->excludes(tick);
    cli.add_option("--panels", f.panels,
                   "Open only these panels, comma-separated: candidates, action, timeline, record, resource, events, "
                   "explain, code (the top bar and the transport always stay; a closed column or row gives its "
                   "room to the timeline), e.g. --panels timeline,record,explain");
    cli.add_flag("--projector", f.projector,
                 "Projector preset for a lecture hall: UI scale 175 % and the high-contrast palette (--scale "
                 "given too wins); not remembered");
}

// Exercises (docs/model.md §18): open one, and answer it as a click would (screenshots and tests).
void add_exercise_flags(CLI::App& cli, GuiFlags& f) {
    auto* exercise = cli.add_option("--exercise", f.exercise,
                                    "Open the Exercise panel on exercise N of the scenario (1-based, file order)")
                         ->check(CLI::Range(1, 32));
    cli.add_option("--exercise-answer", f.exercise_answers,
                   "Answer the exercise as the panel's buttons would: a predict's choice (node-b, nobody, 3, "
                   "accepted, released, …) or its number from 1, a goal's values one per knob comma-separated "
                   "(5,off), a find_fault's fault KIND:NODE:AT:LENGTH (pause:node-a:10:5) or as a JSON object as "
                   "leasescope-cli exercise answer takes it, or show (Show me); repeatable, in order; with "
                   "--screenshot the panel's state is printed")
        ->needs(exercise)
        ->allow_extra_args(false);
}

// What the window shows and what a headless run writes.
void add_view_flags(CLI::App& cli, GuiFlags& f, std::string& size_text) {
    cli.add_option("--screenshot", f.screenshot, "Render one frame to this PNG file and exit");
    cli.add_option("--size", size_text,
                   "Window size WxH (default: the size of the last run, else 90 % of the screen; 1600x900 for "
                   "--screenshot)");
    cli.add_option("--scale", f.scale_percent,
                   "UI scale in percent, 100 to 250: text, lanes and marks together (default: the last one used; "
                   "Ctrl+plus / Ctrl+minus / Ctrl+0 in the app)")
        ->check(CLI::Range(100, 250));
    cli.add_flag("--high-contrast", f.high_contrast,
                 "High-contrast colours that tell every outcome apart without red against green (remembered)");
    cli.add_option("--lang", f.lang, "Language: en or ko (default: the last one used)")
        ->check(CLI::IsMember({"en", "ko"}));
    cli.add_option("--bench-frames", f.bench_frames, "Render N frames and print frame-time percentiles, then exit");
    cli.add_option("--tour", f.tour_step, "Start the guided tour at this step (1-based)")
        ->each([&f](const std::string&) { f.tour = true; });
    cli.add_option("--svg", f.svg_path, "Also write the timeline as SVG to this file");
    cli.add_option("--trace", f.trace_path, "Also write the trace as JSONL to this file");
}

// Background work: a live run against Redis, the counterexample search; and the Code panel.
void add_job_flags(CLI::App& cli, GuiFlags& f) {
    cli.add_option("--live", f.live_url,
                   "Open the Live panel and run the scenario against Redis at URL (default $LEASESCOPE_REDIS_URL, "
                   "else " +
                       std::string(redis::default_redis_url) +
                       "); with --screenshot, waits for the result, prints it and exits 1 if it differs, 3 if "
                       "Redis cannot be reached")
        ->expected(0, 1);
    cli.add_option("--live-tick-ms", f.live_tick_ms, "Milliseconds per tick for --live (default: the scenario's)")
        ->check(CLI::Range(1LL, 60000LL));
    cli.add_flag("--find-counterexample", f.find_counterexample,
                 "Search for a counterexample to the opened scenario (up to 2 added faults), load what it finds "
                 "and put the playhead on the violation; with --screenshot, prints the result")
        ->excludes(cli.add_flag("--find-smallest", f.find_smallest,
                                "Search for the smallest fault of each kind that breaks the opened scenario (one "
                                "added fault at a time; pauses and partitions up to its longest lease, action or "
                                "waitTime), load the first kind's and put the playhead on the violation; with "
                                "--screenshot, prints each kind's answer"));
    cli.add_flag("--code", f.code,
                 "Open the Code panel: the real client's call for the knobs, and the Redis commands and Lua scripts "
                 "the live store sends for the chosen event (the one at --tick)");
    cli.add_flag("--direct-draw", f.direct_draw,
                 "Draw the timeline afresh every frame instead of keeping its picture in a texture until it "
                 "changes (to compare frame times)");
}

// Side by side and narrated play.
void add_compare_flags(CLI::App& cli, GuiFlags& f) {
    cli.add_option(
           "--pair", f.pair,
           "Open a ready-made pair side by side: gc-pause (fenced vs not), failover (lost lock vs fence "
           "reset), expiry-autoextend (expiry-takeover without vs with autoExtend), replica-wait (a failover "
           "without vs with WAIT), split-brain (without vs with min_replicas_to_write), at the tick where the runs "
           "part unless --tick says otherwise; with --screenshot and --svg, the pair's picture, and the "
           "first divergence and the difference in words on stdout")
        ->check(CLI::IsMember({"gc-pause", "failover", "expiry-autoextend", "replica-wait", "split-brain"}));
    cli.add_option("--compare", f.compare_path,
                   "Open the scenario (or the replayed trace) side by side with this scenario file (as B), such as "
                   "an import's draft scenario");
    cli.add_option("--compare-set", f.compare_sets,
                   "Side by side with a variant: change B only, PATH=VALUE as leasescope-cli's --set (B is a copy "
                   "of the scenario unless --compare gives a file); repeatable")
        ->allow_extra_args(false);
    cli.add_flag("--narrate", f.narrate,
                 "Narrated play: advance tick by tick, stop where something important happens (the marks the "
                 "event table shows in red, the start of an overlap), the explanation large below the picture in "
                 "the Explain panel's place; Space goes on");
    cli.add_option("--pace", f.pace, "Narrated play's pace in ticks per second (default 1)")
        ->check(CLI::Range(0.25, 8.0));
}

// The exit codes, the layout report, and where the assets and presets are.
void add_file_flags(CLI::App& cli, GuiFlags& f, std::vector<std::string>& sweep_text) {
    cli.footer(
        "Exit status (as leasescope-cli's): 0 ok, 1 --live differs from the simulation, 2 bad input,\n"
        "3 --live could not reach Redis or reached no verdict, 4 an output could not be written,\n"
        "5 no display.");
    cli.add_option("--layout-report", f.layout_report,
                   "Render one frame headless (the frame --screenshot would write, which it may also be given), "
                   "check that no text or control is cut off by its panel, no two texts overlap, no timeline mark "
                   "covers a text and every timeline shows its lanes (or scrolls them with a hint), write every "
                   "problem and item rectangle (the timeline's lane titles, marks, words and tick numbers too) to "
                   "this file and exit");
    cli.add_option("--layout-sweep", sweep_text,
                   "With --layout-report FOLDER: the layout check at each LANG:WxH:SCALE given (en:1024x768:100, "
                   "ko:2560x1440:200, …; repeatable), one after another in this process, each on a window and an "
                   "ImGui started afresh as a new process has them; each report goes to FOLDER/LANG-WxH-SCALE.txt "
                   "(the tests' way to check many sizes without a launch for each)")
        ->allow_extra_args(false);
    cli.add_option("--assets", f.assets, "Assets folder (string tables, tour, style)");
    cli.add_option("--scenarios", f.scenarios, "Folder of preset scenarios");
}

// A --layout-sweep case, LANG:WxH:SCALE, with the bounds --lang, --size and --scale have.
std::optional<LayoutCase> parse_layout_case(const std::string& text) {
    LayoutCase c;
    char lang[3] = {};
    char end = 0;
    if (std::sscanf(text.c_str(), "%2[a-z]:%dx%d:%d%c", lang, &c.width, &c.height, &c.scale_percent, &end) != 4)
        return std::nullopt;
    c.lang = lang;
    if ((c.lang != "en" && c.lang != "ko") || c.width < 320 || c.height < 240 || c.width > 8192 || c.height > 8192 ||
        c.scale_percent < 100 || c.scale_percent > 250)
        return std::nullopt;
    return c;
}

// What the parsed values mean together: --live's optional URL, --size's bounds, --layout-sweep's cases.
std::optional<int> finish_flags(const CLI::App& cli, GuiFlags& f, const std::string& size_text,
                                const std::vector<std::string>& sweep_text) {
    for (const std::string& text : sweep_text) {
        const auto c = parse_layout_case(text);
        if (!c) {
            std::fprintf(stderr,
                         "leasescope: --layout-sweep wants LANG:WxH:SCALE (en or ko, 320x240 to 8192x8192, 100 to "
                         "250), got \"%s\"\n",
                         text.c_str());
            return io::exit_bad_input;
        }
        f.layout_sweep.push_back(*c);
    }
    f.live = cli.count("--live") > 0;
    // "leasescope --live FILE": --live takes an optional URL, so CLI11 hands it
    // the scenario; a value that is not a URL is the scenario after all.
    if (!f.live_url.empty() && f.live_url.find("://") == std::string::npos && f.scenario_path.empty()) {
        f.scenario_path = f.live_url;
        f.live_url.clear();
    }
    if (!f.layout_sweep.empty() && f.layout_report.empty()) {
        std::fprintf(stderr, "leasescope: --layout-sweep needs --layout-report FOLDER, where its reports go\n");
        return io::exit_bad_input;
    }
    if (!f.layout_sweep.empty() && !f.screenshot.empty()) {
        std::fprintf(stderr, "leasescope: --layout-sweep writes reports only, not --screenshot\n");
        return io::exit_bad_input;
    }
    f.size_given = cli.count("--size") > 0;
    if (std::sscanf(size_text.c_str(), "%dx%d", &f.width, &f.height) != 2 || f.width < 320 || f.height < 240 ||
        f.width > 8192 || f.height > 8192) {
        std::fprintf(stderr, "leasescope: --size wants WxH between 320x240 and 8192x8192, got \"%s\"\n",
                     size_text.c_str());
        return io::exit_bad_input;
    }
    return std::nullopt;
}

}  // namespace

std::string LayoutCase::name() const {
    return lang + "-" + std::to_string(width) + "x" + std::to_string(height) + "-" + std::to_string(scale_percent);
}

std::optional<int> parse_flags(int argc, char** argv, GuiFlags& f) {
    CLI::App cli{
        "LeaseScope: replay Redis lease / leader-election scenarios on a timeline.\n"
        "Opens the expiry-takeover preset when no scenario is given."};
    std::string size_text = "1600x900";
    cli.add_option("scenario", f.scenario_path,
                   "Scenario file (JSON) to open, or a trace (JSON Lines, such as leasescope-cli import writes) to "
                   "replay read-only");
    add_lecture_flags(cli, f, cli.add_option("--tick", f.tick, "Put the playhead on this tick"));
    add_view_flags(cli, f, size_text);
    add_job_flags(cli, f);
    add_exercise_flags(cli, f);
    add_compare_flags(cli, f);
    std::vector<std::string> sweep_text;
    add_file_flags(cli, f, sweep_text);
    try {
        cli.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return cli.exit(e) == 0 ? io::exit_ok : io::exit_bad_input;
    }
    return finish_flags(cli, f, size_text, sweep_text);
}

}  // namespace leasescope::gui

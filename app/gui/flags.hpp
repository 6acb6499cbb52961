#pragma once
// The desktop app's command line: every flag and its parsed value.
#include <optional>
#include <string>
#include <vector>

namespace leasescope::gui {

// One frame of --layout-sweep: a language, a window size and a UI scale.
struct LayoutCase {
    std::string lang;  // "en" or "ko"
    int width = 0, height = 0;
    int scale_percent = 100;
    // LANG-WxH-SCALE, the name of its report in the sweep's folder (without ".txt").
    std::string name() const;
};

struct GuiFlags {
    std::string scenario_path;  // empty: the expiry-takeover preset
    std::string screenshot;     // render one frame to this PNG and exit
    std::string svg_path, trace_path;
    std::string lang;  // "en", "ko" or empty (the remembered one)
    std::string assets, scenarios;
    long long tick = -1;  // -1: not given
    int width = 1600, height = 900;
    bool size_given = false;
    int bench_frames = 0;
    bool tour = false;
    int tour_step = 0;     // 1-based, with `tour`
    bool live = false;     // --live given (with or without a URL)
    std::string live_url;  // empty: $LEASESCOPE_REDIS_URL, else the default
    long long live_tick_ms = 0;
    bool find_counterexample = false;
    bool find_smallest = false;
    bool code = false;  // open the Code panel
    bool direct_draw = false;
    std::string pair;                       // --pair NAME: a ready-made side-by-side pair
    std::string compare_path;               // --compare FILE: the opened scenario against this one
    std::vector<std::string> compare_sets;  // --compare-set PATH=VALUE: B only (a variant when no FILE)
    bool narrate = false;
    double pace = 1.0;
    std::string layout_report;  // the layout check's report (core/layout_check.hpp); headless like --screenshot
    std::vector<LayoutCase> layout_sweep;  // --layout-sweep: one report per case, in the folder --layout-report
    int scale_percent = 0;                 // 0: the remembered UI scale
    bool high_contrast = false;            // --high-contrast given
    long long event = -1;                  // --event N: select and explain event N (-1: not given)
    std::string panels;                    // --panels LIST: the panels open (empty: not given)
    bool projector = false;                // --projector: the lecture-hall preset (core/panels.hpp)
    int exercise = 0;  // --exercise N: open the Exercise panel on exercise N (1-based; 0: not given)
    std::vector<std::string> exercise_answers;  // --exercise-answer VALUE: answered as a click would, in order

    // Headless runs draw for a picture or a measurement, not for a person.
    bool headless() const { return !screenshot.empty() || !layout_report.empty() || bench_frames > 0; }
};

// Parses argv. nullopt: go on with `flags`; a value: exit with it (0 after
// --help, exit_bad_input after a bad flag, with the message printed).
std::optional<int> parse_flags(int argc, char** argv, GuiFlags& flags);

}  // namespace leasescope::gui

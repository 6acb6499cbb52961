#pragma once
// What views ask the app to do, one small typed struct per request. Views
// never touch the simulation: they read a const frame context and push
// commands, which the app applies between frames (App::apply, app_commands.cpp).
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "core/edit.hpp"
#include "core/panels.hpp"
#include "core/strings.hpp"
#include "leasescope/sim/explorer.hpp"

namespace leasescope::gui {
namespace command {

// The playhead and playback.
struct Seek {
    Tick tick = 0;
};
struct Step {
    Tick ticks = 0;  // +1 forward, -1 back
};
struct NextEvent {};  // jump to the next tick with an event
struct PrevEvent {};
struct TogglePlay {};
struct SetSpeed {
    double ticks_per_second = 0;
};
struct Restart {};
struct Fit {};  // fit the timeline to the whole run
struct SelectEvent {
    std::int64_t event = 0;  // index in the trace (also seeks there)
};

// The scenario and its files.
struct EditScenario {
    std::vector<Edit> edits;
};
struct LoadPreset {
    std::string path;
};
struct OpenPath {
    std::string path;
};
struct SavePath {
    std::string path;
};
// The text of an input field changed (typed or pasted): its Hangul goes into the font atlas.
struct TextEdited {
    std::string text;
};
struct OpenPicker {};  // the shell's own file dialog (the browser's); the file comes back as OpenPath

// The language, the tour and the layout.
struct SetLang {
    Lang lang = Lang::en;
};
struct TourGoto {
    int step = 0;  // 0-based
};
struct TourStop {};
struct ResetLayout {};  // place every panel on the computed layout again
struct SetTopHeight {
    float height = 0;  // what the top bar needs (its knobs and the lesson wrap)
};
// Projector mode: the UI scale (fonts re-baked, lanes and marks with them) and the palette.
struct SetScale {
    int percent = 100;  // clamped to 100 … 250
};
struct SetHighContrast {
    bool on = false;
};

// Exports.
struct ExportPng {
    std::string path;
};
struct ExportSvg {
    std::string path;
};
struct ExportJsonl {
    std::string path;
};

// The live run against Redis and the counterexample search.
struct LiveToggle {};  // show or hide the Live panel
struct LiveRun {
    std::string url;           // password included; shown only redacted
    std::int64_t tick_ms = 0;  // 0: the scenario's
};
struct LiveCancel {};
struct FindToggle {};  // show or hide the "find a counterexample" panel
struct CodeToggle {};  // show or hide the Code panel
struct FindRun {
    sim::Properties properties;
    int max_faults = 2;
    bool smallest = false;  // the smallest fault of each kind instead (one fault at a time)
};
struct FindCancel {};
struct FindShow {
    int kind = 0;  // load this kind's smallest fault (an index into FindStatus::kinds)
};

// Side by side (compare.hpp) and narrated play.
struct CompareOpen {
    std::string pair;                      // a ready-made pair's name; else:
    std::string path;                      // B from this file (a preset or any scenario); empty: B is a variant of A
    std::vector<std::string> b_overrides;  // applied to B only ("resource.mode=off")
};
struct CompareSetB {
    std::vector<std::string> overrides;  // more overrides on B, kept with the earlier ones
};
struct CompareClose {};
struct ExportPairSvg {
    std::string path;
};
struct NarrateToggle {};
struct SetPace {
    double ticks_per_second = 1;
};

// On a cramped screen (the compact layout) the panels beside and under the
// timeline share one place: this one shows there.
struct ShowTab {
    Panel panel = Panel::explain;
};

// Exercises (docs/model.md §18, app_exercise.cpp): the panel, the one on
// screen, an answer, a try and "Show me".
struct ExerciseToggle {};  // show or hide the Exercise panel
struct ExerciseOpen {
    int index = 0;  // 0-based
};
struct ExerciseAnswer {
    int choice = 0;  // predict: index into the prediction's choices
};
struct ExerciseTryKnobs {
    std::vector<std::int32_t> values;  // goal: an index into each knob's values
};
struct ExerciseTryFault {
    sim::Fault fault;  // find_fault: the one fault added
};
struct ExerciseShowMe {};  // goal: the nearest combination; find_fault: the smallest fault
struct ExerciseBack {};    // the timeline shows the file's own run again

}  // namespace command

using Command =
    std::variant<command::Seek, command::Step, command::NextEvent, command::PrevEvent, command::TogglePlay,
                 command::SetSpeed, command::Restart, command::Fit, command::SelectEvent, command::EditScenario,
                 command::LoadPreset, command::OpenPath, command::SavePath, command::OpenPicker, command::SetLang,
                 command::TourGoto, command::TourStop, command::ResetLayout, command::SetTopHeight, command::SetScale,
                 command::SetHighContrast, command::ExportPng, command::ExportSvg, command::ExportJsonl,
                 command::LiveToggle, command::LiveRun, command::LiveCancel, command::FindToggle, command::FindRun,
                 command::FindCancel, command::FindShow, command::CompareOpen, command::CompareSetB,
                 command::CompareClose, command::ExportPairSvg, command::NarrateToggle, command::SetPace,
                 command::CodeToggle, command::TextEdited, command::ShowTab, command::ExerciseToggle,
                 command::ExerciseOpen, command::ExerciseAnswer, command::ExerciseTryKnobs, command::ExerciseTryFault,
                 command::ExerciseShowMe, command::ExerciseBack>;

using Commands = std::vector<Command>;

}  // namespace leasescope::gui

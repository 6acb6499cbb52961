#pragma once
// The exercise part of the app (app.hpp): the open scenario's exercises
// (docs/model.md §18), the one on screen, its answer or last try, and which
// are done. Every answer is judged by sim/exercise.hpp on the file's own
// bytes; App changes this between frames (app_exercise.cpp) and the Exercise
// panel (views/view_exercise.cpp) reads it through the FrameContext.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "leasescope/sim/exercise.hpp"

namespace leasescope::gui {

// The last try of a goal or find_fault exercise, as the panel tells it.
struct ExerciseTry {
    // The changed scenario, its run, the goal on it (evidence: an event of
    // that run), where it parts from the file's run, the violation counts.
    std::shared_ptr<const sim::Attempt> attempt;
    std::vector<std::int32_t> knobs;  // goal: the value indices tried
    std::optional<sim::Fault> fault;  // find_fault: the fault added
    bool shown = false;               // "Show me" chose it
    bool met() const { return attempt && attempt->result.met; }
};

struct ExerciseStatus {
    bool open = false;  // the panel is shown
    // The open file as the exercises judge it; null when it has none (or
    // could not be read again): the panel then says so.
    std::shared_ptr<const sim::ExerciseBase> base;
    std::string base_path;  // the file behind `base`
    int current = -1;       // 0-based; -1: none chosen
    std::vector<bool> done;
    std::uint64_t progress_generation = 0;  // changes whenever `done` does (the browser stores it)

    // predict (§18.2)
    std::optional<sim::Prediction> prediction;
    int answer = -1;            // the confirmed choice; -1: not answered yet
    bool wrong_before = false;  // a wrong choice was confirmed: the hint shows
    // goal (§18.3) and find_fault (§18.4)
    std::vector<std::int32_t> written;       // goal: each knob's index of the file's own value
    std::optional<sim::FaultBudget> budget;  // find_fault
    std::optional<ExerciseTry> last;         // the last try (its run may be on the timeline)
    bool showing_try = false;                // the timeline shows the last try's run, not the file's
    // find_fault after a met try (§18.4 rule 3): the smallest fault that meets the goal.
    std::optional<sim::Fault> smallest;
    std::string error;  // a refused try or an exercise the file gets wrong

    const sim::Exercise* exercise() const {
        if (!base || current < 0 || static_cast<std::size_t>(current) >= base->scenario.exercises.size())
            return nullptr;
        return &base->scenario.exercises[static_cast<std::size_t>(current)];
    }
    std::size_t count() const { return base ? base->scenario.exercises.size() : 0; }
};

// Done exercises per scenario name (1-based numbers, as links name them):
// remembered in the settings file on the desktop, in localStorage in the browser.
using ExerciseProgress = std::map<std::string, std::set<int>>;

}  // namespace leasescope::gui

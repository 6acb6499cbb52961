// The checks of `validate` and `exercise check` (docs/model.md §18.6): what
// the form could not say without a run, each problem at its JSON path.
#include <algorithm>

#include "exercise_internal.hpp"

namespace leasescope::sim {
namespace {

using exercise_detail::exercise_path;

ScenarioError problem(const ExerciseBase& base, std::string path, std::string message) {
    return ScenarioError{base.file, std::move(path), std::move(message)};
}

// A `--set` path as the JSON pointer its errors name ("defaults.lease" is
// "/defaults/lease").
std::string pointer_of(const std::string& set) {
    std::string p = set.size() > 1 && set[0] == '/' ? set : "/" + set;
    std::replace(p.begin(), p.end(), '.', '/');
    return p;
}

// Each knob's path applies to the file (§18.6 item 1): `--set` of its first
// value walks the path, and the reader knows the key it names (a refused
// value is the try's own error, not the path's).
void check_knob_paths(const ExerciseBase& base, std::size_t index, std::vector<ScenarioError>& out) {
    const Exercise& e = base.scenario.exercises[index];
    for (std::size_t k = 0; k < e.knobs.size(); ++k) {
        auto s = parse_scenario(base.text, base.file, {Override{e.knobs[k].set, e.knobs[k].values.front()}});
        const bool unknown =
            !s.ok() && s.error().where == pointer_of(e.knobs[k].set) && s.error().message.rfind("unknown key", 0) == 0;
        if (!s.ok() && (unknown || s.error().where.rfind("--set", 0) == 0))
            out.push_back(problem(base, fmt::format("{}/knobs/{}/set", exercise_path(index), k),
                                  fmt::format("--set cannot apply this path to the file: {}", s.error().message)));
    }
}

// The goal is not met already (§18.6 item 3): else there is nothing to do.
bool check_not_met(const ExerciseBase& base, std::size_t index, std::vector<ScenarioError>& out) {
    const Exercise& e = base.scenario.exercises[index];
    if (!evaluate(e.goal, base.scenario, base.trace).met) return true;
    out.push_back(problem(base, exercise_path(index) + "/goal",
                          "the goal is already met by the file as it stands: there is nothing to do"));
    return false;
}

void check_goal(const ExerciseBase& base, std::size_t index, std::vector<ScenarioError>& out) {
    const std::size_t before = out.size();
    check_knob_paths(base, index, out);
    if (out.size() != before || !check_not_met(base, index, out)) return;
    if (!solve_knobs(base, index))
        out.push_back(problem(base, exercise_path(index) + "/goal",
                              "no combination of the knobs meets the goal: it cannot be reached"));
}

void check_find_fault(const ExerciseBase& base, std::size_t index, std::vector<ScenarioError>& out) {
    auto budget = fault_budget(base, index);
    if (!budget.ok()) {
        out.push_back(budget.error());
        return;
    }
    if (!check_not_met(base, index, out)) return;
    if (!smallest_fault(base, index))
        out.push_back(problem(base, exercise_path(index) + "/goal",
                              "no single fault within faults and max_ticks meets the goal: it cannot be reached"));
}

}  // namespace

std::vector<ScenarioError> check_exercises(const ExerciseBase& base) {
    std::vector<ScenarioError> out;
    for (std::size_t i = 0; i < base.scenario.exercises.size(); ++i) {
        switch (base.scenario.exercises[i].kind) {
            case ExerciseKind::predict:
                if (auto p = predict(base, i); !p.ok()) out.push_back(p.error());
                break;
            case ExerciseKind::goal: check_goal(base, i, out); break;
            case ExerciseKind::find_fault: check_find_fault(base, i, out); break;
        }
    }
    return out;
}

}  // namespace leasescope::sim

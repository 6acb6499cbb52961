#pragma once
// What the exercise files share (docs/model.md §18): the exercise an index
// names, its JSON path, and a simulated try. Private to sim/src/exercise/.
#include <string>

#include <fmt/format.h>

#include "leasescope/engine/assert.hpp"
#include "leasescope/sim/exercise.hpp"

namespace leasescope::sim::exercise_detail {

inline const Exercise& exercise_of(const ExerciseBase& base, std::size_t index) {
    LS_ASSERT(index < base.scenario.exercises.size());
    return base.scenario.exercises[index];
}
// "/exercises/2" (indices from 0, as every JSON path of a scenario).
inline std::string exercise_path(std::size_t index) { return fmt::format("/exercises/{}", index); }

// A try of `scenario` (already valid): its run, the goal on it, and what
// changed against the base's run (model.md §18.3 item 3).
Attempt attempt_of(const ExerciseBase& base, const Condition& goal, Scenario scenario);

}  // namespace leasescope::sim::exercise_detail

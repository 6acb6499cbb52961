#pragma once
// An exercise as a scenario file writes it (docs/model.md §18): what is
// asked and what decides the answer. The simulation never reads these: a
// scenario's trace does not depend on its exercises. Checking an answer is
// leasescope/sim/exercise.hpp.
#include <cstdint>
#include <string>
#include <vector>

#include "leasescope/engine/types.hpp"

namespace leasescope::sim {

enum class ExerciseKind { predict, goal, find_fault };
// predict (§18.2): what the student predicts about tick `at`.
enum class Question { acquirer, write, fencing, release };
// A goal's condition (§18.5).
enum class ConditionKind { holds, fails, acquires, never_acquires, write_rejected };
// What `holds` / `fails` name: the explorer's properties, and stale_write.
enum class GoalProperty {
    overlap,
    unsafe_write,
    fencing_regressed,
    stale_after_successor,
    holder_rejected,
    fencing_duplicate,
    liveness,
    stale_write,
};

const char* to_string(ExerciseKind);
const char* to_string(Question);
const char* to_string(ConditionKind);
const char* to_string(GoalProperty);

struct Condition {
    ConditionKind kind = ConditionKind::holds;
    GoalProperty property = GoalProperty::unsafe_write;  // holds, fails
    std::string node;                                    // acquires, never_acquires, write_rejected
    bool operator==(const Condition&) const = default;
};

// A value the student may change (§18.3): a `--set` path and the values it
// may take, in order. `range` [lo, hi] with `step` expands to lo, lo+step, …
// ≤ hi (kept as written, so a file writes back the same); `values` lists
// JSON texts. Exactly one of the two is given.
struct Knob {
    std::string set;      // "defaults.lease", "resource.mode", "faults/0/ticks"
    bool ranged = false;  // written as range (+ step)
    std::int64_t lo = 0, hi = 0, step = 1;
    std::vector<std::string> values;  // JSON texts: the expansion of the range, or as written
    bool operator==(const Knob&) const = default;
};

struct ExerciseText {
    std::string en;
    std::string ko;
    bool operator==(const ExerciseText&) const = default;
};

struct Exercise {
    ExerciseKind kind = ExerciseKind::predict;
    ExerciseText prompt;
    ExerciseText hint;  // both empty when the file gives none
    // predict (§18.2)
    Tick at = 0;
    Question ask = Question::acquirer;
    std::string node;                  // write, release: whose
    std::vector<std::string> choices;  // acquirer, fencing: the author's list ("node-b", "nobody", "3"); empty: built
    // goal (§18.3)
    std::vector<Knob> knobs;
    // find_fault (§18.4): the kinds the student may add, in the explorer's
    // --fault-kinds syntax ("pause", "partition:drop_requests", …), and the
    // longest pause, partition, delay or link cut, in ticks.
    std::string faults = "pause";
    Tick max_ticks = 0;
    // goal, find_fault
    Condition goal;
    bool operator==(const Exercise&) const = default;
};

}  // namespace leasescope::sim

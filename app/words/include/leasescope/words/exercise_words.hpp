#pragma once
// Exercises in words (docs/model.md §18): labels, the goal's condition as a
// sentence, and the feedback of a try, built only from the facts that
// leasescope/sim/exercise.hpp computes (the prediction, the attempt, the
// smallest fault) and the "exercise.*" keys of the string tables. Pure: the
// CLI (`leasescope-cli exercise`) and the app's Exercise panel both render here.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "leasescope/sim/exercise.hpp"
#include "leasescope/words/strings.hpp"

namespace leasescope::words {

// The author's text in the tables' language (English when Korean is empty).
std::string exercise_text(const sim::ExerciseText& text, const Strings& strings);
// "Predict", "Reach a goal", "Find the fault".
std::string exercise_kind_words(sim::ExerciseKind kind, const Strings& strings);
// "2 of 5 done".
std::string progress_words(std::int64_t done, std::int64_t count, const Strings& strings);
// A choice's label: "nobody", "accepted", "not released"; a node name or a
// fencing number as it is.
std::string choice_words(const std::string& value, const Strings& strings);
// A goal as a sentence: "no STALE write lands", "node-b never acquires".
std::string condition_words(const sim::Condition& condition, const Strings& strings);
// "defaults.lease = 8, resource.mode = \"check\"": the knobs at `values`
// (indices into each knob's values).
std::string knob_values_words(const sim::Exercise& exercise, const std::vector<std::int32_t>& values,
                              const Strings& strings);
// A fault added to the scenario, as the explorer's counterexample tells one:
// "pause node-a for 8 ticks at tick 3".
std::string added_fault_words(const sim::Scenario& scenario, const sim::Fault& fault, const Strings& strings);
// The fault kinds of a budget: "pause, partition".
std::string fault_kinds_words(const sim::FaultBudget& budget, const Strings& strings);

// What the trace shows at the predicted tick: "at tick 6 node-b acquires
// with fencing 2." (from the deciding event, or "nobody acquires").
std::string prediction_fact(const sim::ExerciseBase& base, std::size_t exercise, const sim::Prediction& prediction,
                            const Strings& strings);
// "Right: at tick 6 …" or "Not this one: you chose node-c; at tick 6 …".
std::string prediction_feedback(const sim::ExerciseBase& base, std::size_t exercise, const sim::Prediction& prediction,
                                std::int32_t chosen, const Strings& strings);

// The feedback of a goal or find_fault try, one sentence a line: met or not,
// the evidence event, the first tick the run changed, the violation counts
// before → after.
std::vector<std::string> attempt_lines(const sim::ExerciseBase& base, std::size_t exercise, const sim::Attempt& attempt,
                                       const Strings& strings);
// "The nearest values that meet the goal: …" (solve_knobs), or that none do.
std::string solution_words(const sim::ExerciseBase& base, std::size_t exercise,
                           const std::optional<std::vector<std::int32_t>>& values, const Strings& strings);
// "The smallest fault that meets the goal: …" (smallest_fault), or that none does.
std::string smallest_fault_words(const sim::ExerciseBase& base, const std::optional<sim::Fault>& fault,
                                 const Strings& strings);

}  // namespace leasescope::words

#pragma once
// Exercises (docs/model.md §18): every answer is judged by running the
// model, never by a stored answer. Pure: words are the shells'
// (leasescope/words/exercise_words.hpp renders these facts from the
// "exercise.*" keys of assets/i18n).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "leasescope/engine/result.hpp"
#include "leasescope/sim/exercise_spec.hpp"
#include "leasescope/sim/scenario.hpp"
#include "leasescope/sim/trace.hpp"

namespace leasescope::sim {

// The scenario an exercise belongs to, as its file has it: knobs are
// `--set` overrides applied to `text`, so `defaults` keep their meaning.
struct ExerciseBase {
    std::string text;  // the scenario file's bytes
    std::string file;  // names it in errors
    Scenario scenario;
    Trace trace;  // simulate(scenario)
};
// Parses `text` and simulates it.
Result<ExerciseBase, ScenarioError> exercise_base(std::string text, std::string file);

// ---- predict (§18.2) ----
// The choices' values: candidate names and "nobody" (acquirer), decimal
// numbers (fencing), "accepted" / "rejected" (write), "released" /
// "not_released" (release).
struct Prediction {
    std::vector<std::string> choices;
    std::int32_t right = 0;  // index into choices: what the trace shows
    // The events of tick `at` (indices into the base trace), for "see the
    // tick and why": the explanation is the Explain text of that tick.
    std::vector<std::size_t> events;
    std::optional<std::size_t> deciding;  // the event that decides it (none: "nobody")
};
// An error (message names the JSON path) when the trace has no such fact at
// `at`, the choices repeat, or the right answer is not among them.
Result<Prediction, ScenarioError> predict(const ExerciseBase& base, std::size_t exercise);

// ---- conditions (§18.5) ----
struct ConditionResult {
    bool met = false;
    // The event that shows it (a violation, an acquisition, a rejected
    // write); none when the condition is met (or not) by the absence of one.
    std::optional<std::size_t> evidence;
};
ConditionResult evaluate(const Condition& condition, const Scenario& scenario, const Trace& trace);

// One try of a goal or find_fault exercise: the changed scenario, its run,
// the condition on it, and what the change did to the run.
struct Attempt {
    Scenario scenario;
    Trace trace;
    ConditionResult result;
    std::optional<std::size_t> divergence;  // first event (index in `trace`) that differs from the base's run
    Violations before, after;               // the base's and this run's violation counts
};

// ---- goal (§18.3) ----
// `values[k]` indexes knobs[k].values. An error when a value is out of range
// or the overrides do not give a valid scenario (message says which knob).
Result<Attempt, std::string> try_knobs(const ExerciseBase& base, std::size_t exercise,
                                       const std::vector<std::int32_t>& values);
// For each knob, the index of the scenario's own value (as `--set` would
// read it back), or of the nearest value when it is not among them.
std::vector<std::int32_t> written_knobs(const ExerciseBase& base, std::size_t exercise);
// "Show me": the combination that meets the goal nearest to written_knobs
// (fewest index steps in total; ties compared knob by knob, lower values
// first), or none.
std::optional<std::vector<std::int32_t>> solve_knobs(const ExerciseBase& base, std::size_t exercise);

// ---- find_fault (§18.4) ----
// What the student may add: the kinds (as parsed from Exercise::faults),
// the nodes, and the bounds of `at` and of the length.
struct FaultBudget {
    std::vector<FaultKind> kinds;
    std::vector<PartitionMode> partition_modes;  // when kinds has partition
    std::vector<Link> delay_links;               // when kinds has delay: request, reply, write as allowed
    std::vector<FailoverLoss> failover_losses;   // when kinds has a failover without promotion: leases, all
    Tick at_max = 0;                             // faults start at 0 … at_max (the horizon - 1)
    Tick ticks_max = 0;                          // pause, partition, delay extra, link cut
};
Result<FaultBudget, ScenarioError> fault_budget(const ExerciseBase& base, std::size_t exercise);
// An error when the fault is outside the budget or invalid beside the
// scenario's own faults.
Result<Attempt, std::string> try_fault(const ExerciseBase& base, std::size_t exercise, const Fault& fault);
// The smallest single fault in the budget that meets the goal: shortest
// (ticks; a clock jump's |ms|; a failover's lag), then earliest, then the
// explorer's canonical order; none when no fault does.
std::optional<Fault> smallest_fault(const ExerciseBase& base, std::size_t exercise);

// ---- the checks of `validate` and `exercise check` (§18.6) ----
// Every problem of every exercise of the file, each with its JSON path
// ("/exercises/2/choices"); empty when all are sound. Bounded: a goal's
// combinations and a find_fault's single faults are at most
// limits::exercise_tries_max simulations each.
std::vector<ScenarioError> check_exercises(const ExerciseBase& base);

}  // namespace leasescope::sim

#pragma once
// What the headless app prints once a --live run or a --find-counterexample
// search is over (with --screenshot), and the exit code the live verdict means.

namespace leasescope::gui {

class App;

// Prints the live verdict and its timing faults; returns its exit code
// (leasescope/io/exit_codes.hpp): ok, check_failed (differs), bad_input, or
// backend (unreachable, failing, void, cancelled, no live mode).
int report_live(const App& app);
// Prints the counterexample found (its faults and what went wrong, in English) or that none was.
void report_find(const App& app);
// Prints the Exercise panel's state: the exercise, its answer or last try
// and what the model says of it, and how many are done (--exercise-answer).
void report_exercise(const App& app);

}  // namespace leasescope::gui

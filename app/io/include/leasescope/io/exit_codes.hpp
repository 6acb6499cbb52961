#pragma once
// The exit codes of every shell (leasescope-cli and the leasescope app), one
// meaning per number; README.md and each shell's --help list the same table.
namespace leasescope::io {

inline constexpr int exit_ok = 0;
// A check, compare or diff found a difference; the app's --live run differs
// from the simulation.
inline constexpr int exit_check_failed = 1;
// A bad scenario, trace, option, file or assets folder.
inline constexpr int exit_bad_input = 2;
// Redis unreachable or failing in live mode, or a live run without a verdict
// (void timing, cancelled, or live mode not in this build).
inline constexpr int exit_backend = 3;
// An output (a file, a picture, or standard output) could not be written.
inline constexpr int exit_write_failed = 4;
// The app found no display to open its window on.
inline constexpr int exit_no_display = 5;
// An exhaustive search (explore) stopped by --time-limit or Ctrl-C before it
// covered its budget, with no counterexample in the part it searched.
inline constexpr int exit_incomplete = 6;

}  // namespace leasescope::io

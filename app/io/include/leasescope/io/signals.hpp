#pragma once
// Temporary files that must not outlive the process when SIGINT or SIGTERM
// ends it. A signal handler can only reach global state, so the registry is a
// fixed table of paths; removing them is async-signal-safe (unlink only).
namespace leasescope::io {

// Registers a temporary file; returns its slot, or -1 when the table is full
// (the file is then only removed by the normal error paths).
int register_temporary(const char* path);
void unregister_temporary(int slot);

// Removes every registered temporary file. Async-signal-safe.
void remove_temporaries_now();

// SIGINT and SIGTERM: remove the registered temporaries, then end the process
// by the same signal (its exit status says which). Installed once at start
// by a program that has no handler of its own; live mode installs its own
// handlers and calls remove_temporaries_now() itself.
void install_cleanup_on_signals();

}  // namespace leasescope::io

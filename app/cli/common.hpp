#pragma once
// Shared pieces of the CLI's commands: exit codes, file loading, errors.
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "leasescope/sim/scenario.hpp"
#include "leasescope/sim/trace.hpp"
#include "leasescope/words/strings.hpp"

namespace leasescope::cli {

inline constexpr int exit_ok = 0;
inline constexpr int exit_check_failed = 1;  // a check, compare or diff found a difference
inline constexpr int exit_bad_input = 2;     // a bad scenario, trace, option or file
inline constexpr int exit_backend = 3;       // Redis unreachable or failing (live mode)

// Reads a whole file; nullopt (and a message on stderr naming the file) on failure.
std::optional<std::string> read_file(const std::string& path);
// Writes atomically: a temporary file beside `path`, then rename. Nothing is
// half-written. False (and a message on stderr) on failure.
bool write_file_atomic(const std::string& path, const std::string& bytes);

// Loads, overrides and validates a scenario; prints the error on stderr.
std::optional<sim::Scenario> load_scenario(const std::string& path, const std::vector<std::string>& sets);
std::optional<sim::Trace> load_trace(const std::string& path);

// The assets folder: `flag` when given, else $LEASESCOPE_ASSETS (as for the
// app), else ./assets when it has i18n/, else the source tree's.
std::string find_assets_dir(const std::string& flag);
// Reads <assets>/i18n/en.json and ko.json; false (and a message on stderr
// naming the file) when one cannot be read or parsed.
bool read_string_tables(const std::string& assets_dir, words::Strings& strings);

// Commands that live in their own files; each stores its exit code in
// `exit_code` when it runs.
void add_live_command(CLI::App& app, int& exit_code);      // cmd_live.cpp (needs leasescope::live)
void add_explore_command(CLI::App& app, int& exit_code);   // cmd_explore.cpp
void add_bench_commands(CLI::App& app, int& exit_code);    // cmd_bench.cpp: bench, generate
void add_explain_command(CLI::App& app, int& exit_code);   // cmd_explain.cpp (needs leasescope::words)

}  // namespace leasescope::cli

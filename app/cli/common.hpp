#pragma once
// Shared pieces of the CLI's commands: file loading, errors, the exit codes in use.
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "leasescope/io/exit_codes.hpp"
#include "leasescope/io/files.hpp"
#include "leasescope/sim/exercise.hpp"
#include "leasescope/sim/scenario.hpp"
#include "leasescope/sim/trace.hpp"
#include "leasescope/words/strings.hpp"

namespace leasescope::cli {

// The exit codes, shared with the app (leasescope/io/exit_codes.hpp).
using io::exit_backend;
using io::exit_bad_input;
using io::exit_check_failed;
using io::exit_incomplete;
using io::exit_ok;
using io::exit_write_failed;

// Reads a whole file of at most `max_bytes` (named `limit_name` in the
// error); nullopt (and a message on stderr naming the file) on failure.
std::optional<std::string> read_file(const std::string& path, std::int64_t max_bytes, std::string_view limit_name);
// Writes whole or not at all (io::OutputFile: a new temporary file beside
// `path`, then rename; links and non-regular files are never replaced).
// False (and a message on stderr naming `path`) on failure: exit_write_failed.
bool write_file_atomic(const std::string& path, const std::string& bytes);
// Flushes and checks standard output at the end of a command: a failed write
// (a full disk, /dev/full) turns an exit code of 0 or 1 into
// exit_write_failed, with a message on stderr.
int finish_output(int exit_code);
// Opens `path` to be written whole or not at all (io::OutputFile), before
// the work it records, so that an unwritable path fails at once; an empty
// path opens nothing. False (and a message on stderr): exit_write_failed.
bool open_output_file(const std::string& path, std::unique_ptr<io::OutputFile>& file);
// Puts a file opened so in place; false (and a message on stderr) on failure.
bool commit_output_file(io::OutputFile& file);

// A numeric option checked as the user wrote it: digits only (a leading '-'
// only when `lo` is negative), within [lo, hi]. CLI11's own conversion would
// clamp or wrap "-1" or 2^64 silently.
CLI::Validator integer_in(std::int64_t lo, std::int64_t hi);
// The same for a 64-bit unsigned value (seeds): 0 to 18446744073709551615.
CLI::Validator unsigned_integer();

// Loads, overrides and validates a scenario. Prints every error on stderr
// (all of them, in file order, then their count when there are several) and,
// when `errors` is given, appends each one there too ("FILE: WHERE: WHAT").
std::optional<sim::Scenario> load_scenario(const std::string& path, const std::vector<std::string>& sets,
                                           std::vector<std::string>* errors = nullptr);
// Text for XML attributes and content (JUnit reports).
std::string xml_escape(std::string_view text);
std::optional<sim::Trace> load_trace(const std::string& path);

// The assets folder: `flag` when given, else $LEASESCOPE_ASSETS (as for the
// app), else ./assets when it has i18n/, else the source tree's.
std::string find_assets_dir(const std::string& flag);
// Reads <assets>/i18n/en.json and ko.json; false (and a message on stderr
// naming the file) when one cannot be read or parsed.
bool read_string_tables(const std::string& assets_dir, words::Strings& strings);

// The text view's row filter (text_filter.cpp), for `run` and `live`.
struct TextFilterArgs {
    bool marked = false;
    std::vector<std::string> nodes;
    std::string ticks;  // "A..B", "A.." or "..B" (ticks or durations); checked when parsed
    bool time = false;  // --time: the Time column
};
void add_text_filter_options(CLI::App* cmd, TextFilterArgs& args);
// A tick on the command line (run --until, explain --tick): ticks, or a
// duration such as 30s (model.md §11.7). The validator checks the form; the
// value needs the scenario's tick_ms: nullopt after an error on stderr
// naming `flag` (a duration that is not whole ticks names the nearest).
CLI::Validator tick_or_duration();
std::optional<Tick> tick_of_option(const std::string& flag, const std::string& text, std::int64_t tick_ms);
// The filter for `scenario`, or nullopt after an error on stderr
// (exit_bad_input): a --node that is not a candidate, or a filter without
// --format text (`text` false).
std::optional<sim::TextFilter> text_filter_for(const TextFilterArgs& args, const sim::Scenario& scenario, bool text);

// Commands that live in their own files; each stores its exit code in
// `exit_code` when it runs.
void add_live_command(CLI::App& app, int& exit_code);     // cmd_live.cpp (needs leasescope::live)
void add_explore_command(CLI::App& app, int& exit_code);  // cmd_explore.cpp
void add_bench_commands(CLI::App& app, int& exit_code);   // cmd_bench.cpp: bench, generate
void add_explain_command(CLI::App& app, int& exit_code);  // cmd_explain.cpp (needs leasescope::words)
void add_schema_command(CLI::App& app, int& exit_code);   // cmd_schema.cpp
void add_import_command(CLI::App& app, int& exit_code);   // cmd_import.cpp (needs leasescope::import)

// cmd_exercise.cpp: exercise check, list, show, answer.
void add_exercise_command(CLI::App& app, int& exit_code);
// Every problem of a file's exercises (model.md §18.6), "FILE: /exercises/K/…:
// WHAT", for `validate`; the exercises of the file as written (no --set).
std::vector<std::string> exercise_problems(const std::string& path);
// `exercise show` and `exercise answer` of exercise K (0-based) of a file
// (cmd_exercise_answer.cpp); the exit code.
int exercise_show(const sim::ExerciseBase& base, std::size_t k, const words::Strings& strings);
int exercise_answer(const sim::ExerciseBase& base, std::size_t k, const std::vector<std::string>& answer,
                    const words::Strings& strings);
// The JSON Schema of scenario files (cmd_schema.cpp), built from sim/limits.hpp.
std::string scenario_schema();

}  // namespace leasescope::cli

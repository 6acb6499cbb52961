// `leasescope-cli import`: a `redis-cli monitor` capture and application logs
// become a leasescope-trace/4 trace and a draft scenario (docs/model.md §19,
// docs/import.md). This file reads the files line by line, writes the outputs
// whole or not at all and prints the report; the import itself is
// leasescope::import's (sim/src/import/).
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "common.hpp"
#include "import_report.hpp"
#include "leasescope/sim/import.hpp"
#include "leasescope/sim/limits.hpp"
#include "leasescope/sim/utf8.hpp"

namespace fs = std::filesystem;

namespace leasescope::cli {
namespace {

namespace imp = sim::import;

// A log file and the --log-shift in force where it was named (§19.6.2:
// a shift moves the logs that follow it).
struct LogArg {
    std::string path;
    std::int64_t shift_ms = 0;
};

struct ImportArgs {
    std::vector<std::string> captures;
    std::vector<LogArg> logs;
    std::int64_t shift_ms = 0;  // the last --log-shift seen while parsing
    std::string lock;
    bool has_lock = false;
    std::vector<std::string> names;  // ADDR=NODE
    std::int64_t tick_ms = 0;
    bool lenient = false;
    std::string clock_steps = "refuse";
    std::string out, scenario;
};

// Text for a terminal: valid UTF-8 is kept, every byte that is not part of
// it is shown as \xHH, as redis-cli shows such bytes (a key with raw
// non-UTF-8 bytes, a file name), so messages and the report stay readable.
std::string printable(std::string_view text) { return sim::escape_invalid_utf8(text); }

void print_error(std::string_view message) { fmt::print(stderr, "error: {}\n", printable(message)); }

// Reads a file (or standard input, "-") one line at a time without ever
// holding more than one line and one block: a capture of any size streams.
// A line longer than limits::import_line_bytes_max is an error.
class LineReader {
public:
    explicit LineReader(std::string path) : path_(std::move(path)) {}
    ~LineReader() {
        if (file_ != nullptr && file_ != stdin) std::fclose(file_);
    }
    LineReader(const LineReader&) = delete;
    LineReader& operator=(const LineReader&) = delete;

    bool open(std::string& error) {
        if (path_ == "-") {
            file_ = stdin;
            return true;
        }
        std::error_code ec;
        if (fs::is_directory(path_, ec)) {
            error = fmt::format("{}: is a directory", path_);
            return false;
        }
        file_ = std::fopen(path_.c_str(), "rb");
        if (file_ == nullptr) error = fmt::format("{}: cannot open: {}", path_, std::strerror(errno));
        return file_ != nullptr;
    }
    // The next line without its newline; false at the end of the file, or on
    // an error (then error() is set).
    bool next(std::string_view& line);
    std::int64_t line_number() const { return line_number_; }
    const std::string& error() const { return error_; }

private:
    bool fill();
    std::string path_;
    std::FILE* file_ = nullptr;
    std::string buffer_;
    std::size_t begin_ = 0;
    bool eof_ = false;
    std::int64_t line_number_ = 0;
    std::string error_;
};

bool LineReader::fill() {
    buffer_.erase(0, begin_);
    begin_ = 0;
    constexpr std::size_t block = std::size_t{1} << 20;
    const std::size_t old = buffer_.size();
    buffer_.resize(old + block);
    const std::size_t got = std::fread(buffer_.data() + old, 1, block, file_);
    buffer_.resize(old + got);
    if (got < block) {
        if (std::ferror(file_)) {
            error_ = fmt::format("{}:{}: read error: {}", path_, line_number_ + 1, std::strerror(errno));
            return false;
        }
        eof_ = true;
    }
    return true;
}

bool LineReader::next(std::string_view& line) {
    for (;;) {
        const char* start = buffer_.data() + begin_;
        const std::size_t size = buffer_.size() - begin_;
        if (const void* nl = std::memchr(start, '\n', size); nl != nullptr) {
            const auto length = static_cast<std::size_t>(static_cast<const char*>(nl) - start);
            line = std::string_view(start, length);
            begin_ += length + 1;
            ++line_number_;
            return true;
        }
        if (size > static_cast<std::size_t>(limits::import_line_bytes_max)) {
            error_ = fmt::format("{}:{}: a line longer than {} bytes (import_line_bytes_max)", path_, line_number_ + 1,
                                 limits::import_line_bytes_max);
            return false;
        }
        if (eof_) {
            if (size == 0) return false;
            line = std::string_view(start, size);  // the last line has no newline
            begin_ = buffer_.size();
            ++line_number_;
            return true;
        }
        if (!fill()) return false;
    }
}

// --name ADDR=NODE, split at the first '='.
bool parse_names(const std::vector<std::string>& names, imp::ImportOptions& options) {
    for (const std::string& arg : names) {
        const auto eq = arg.find('=');
        if (eq == std::string::npos || eq == 0 || eq + 1 == arg.size()) {
            print_error(fmt::format("--name {}: expected ADDR=NODE, e.g. 127.0.0.1:53412=node-a", arg));
            return false;
        }
        options.names.emplace_back(arg.substr(0, eq), arg.substr(eq + 1));
    }
    return true;
}

// Every capture, line by line, into the reader (§19.1, §19.2.3).
bool read_captures(const std::vector<std::string>& paths, imp::CaptureReader& reader) {
    for (const std::string& path : paths) {
        LineReader file(path);
        std::string error;
        if (!file.open(error)) {
            print_error(error);
            return false;
        }
        reader.begin_source(path == "-" ? "<stdin>" : path);
        std::string_view line;
        while (file.next(line)) {
            if (!reader.add_line(line)) {
                print_error(reader.error());
                return false;
            }
        }
        if (!file.error().empty()) {
            print_error(file.error());
            return false;
        }
    }
    return true;
}

// Every log, line by line (§19.6).
bool read_logs(const std::vector<LogArg>& logs, std::vector<imp::LogEntry>& entries, std::vector<std::string>& files) {
    for (const LogArg& log : logs) {
        LineReader file(log.path);
        std::string error;
        if (!file.open(error)) {
            print_error(error);
            return false;
        }
        const std::string name = log.path == "-" ? "<stdin>" : log.path;
        const auto source = static_cast<std::int32_t>(files.size());
        files.push_back(name);
        std::string_view line;
        while (file.next(line)) {
            auto entry = imp::parse_log_line(line, name, source, file.line_number(), log.shift_ms, error);
            if (entry) {
                entries.push_back(std::move(*entry));
            } else if (!error.empty()) {
                print_error(error);
                return false;
            }
        }
        if (!file.error().empty()) {
            print_error(file.error());
            return false;
        }
    }
    return true;
}

// Writes the trace and the draft whole or not at all: both go to temporary
// files opened before any work. The draft is put in place first, then the
// trace; when the trace's rename fails the draft is removed again, so no
// failure leaves one output without the other.
int write_outputs(const ImportArgs& a, const imp::ImportedHistory& history, std::unique_ptr<io::OutputFile>& trace,
                  std::unique_ptr<io::OutputFile>& draft) {
    trace->write(sim::trace_to_jsonl(history.trace));
    if (draft) {
        draft->write(history.draft_json);
        if (!commit_output_file(*draft)) return exit_write_failed;
    }
    if (!commit_output_file(*trace)) {
        if (draft) {
            std::error_code ec;
            fs::remove(a.scenario, ec);
        }
        return exit_write_failed;
    }
    return exit_ok;
}

// The outputs must be two different files, neither of them an input.
bool check_output_paths(const ImportArgs& a) {
    std::vector<std::string> inputs = a.captures;
    for (const LogArg& log : a.logs) inputs.push_back(log.path);
    for (const std::string* out : {&a.out, &a.scenario}) {
        if (out->empty() || *out == "-") continue;
        std::error_code ec;
        for (const std::string& in : inputs) {
            if (in != "-" && fs::exists(*out, ec) && fs::equivalent(*out, in, ec)) {
                print_error(fmt::format("{} is an input of this import; write the output to another file", *out));
                return false;
            }
        }
    }
    if (!a.scenario.empty() && a.scenario == a.out) {
        print_error(fmt::format("--out and --scenario name the same file {}", a.out));
        return false;
    }
    return true;
}

int cmd_import(const ImportArgs& a) {
    imp::ImportOptions options;
    if (a.has_lock) options.lock = a.lock;
    options.tick_ms = a.tick_ms;
    options.lenient = a.lenient;
    options.keep_clock_steps = a.clock_steps == "keep";
    if (!parse_names(a.names, options) || !check_output_paths(a)) return exit_bad_input;
    std::unique_ptr<io::OutputFile> trace_file, draft_file;
    if (!open_output_file(a.out, trace_file) || !open_output_file(a.scenario, draft_file)) return exit_write_failed;
    imp::CaptureReader reader(options);
    if (!read_captures(a.captures, reader)) return exit_bad_input;
    auto observations = reader.finish();
    if (!observations) {
        print_error(reader.error());
        return exit_bad_input;
    }
    std::vector<imp::LogEntry> entries;
    std::vector<std::string> log_files;
    if (!read_logs(a.logs, entries, log_files)) return exit_bad_input;
    std::string error;
    auto history = imp::build_history(*observations, reader.report(), entries, log_files, options, error);
    if (!history) {
        print_error(error);
        return exit_bad_input;
    }
    // The report first: when standard output cannot be written (a full
    // disk), no output file is put in place either.
    const std::string report = printable(import_report(reader.report(), *history, log_files, entries, a.tick_ms));
    std::fwrite(report.data(), 1, report.size(), stdout);
    // (main's finish_output says so on stderr.)
    if (std::fflush(stdout) != 0 || std::ferror(stdout)) return exit_write_failed;
    const int written = write_outputs(a, *history, trace_file, draft_file);
    if (written != exit_ok) return written;
    fmt::print("wrote {} ({} events, sha256 {})\n", printable(a.out), history->trace.summary.events,
               history->trace.summary.trace_sha256);
    if (!a.scenario.empty()) fmt::print("wrote {} (the draft scenario)\n", printable(a.scenario));
    return exit_ok;
}

}  // namespace

void add_import_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<ImportArgs>();
    auto* cmd = app.add_subcommand(
        "import",
        "Turn a `redis-cli monitor` capture (and the applications' logs) into a trace of format /4 and a draft "
        "scenario: the lock's commands replayed, what each node believed, the invariants checked (docs/import.md)");
    cmd->add_option("CAPTURE", args->captures,
                    "Files of `redis-cli monitor` output, read in order as one history; - reads standard input")
        ->required();
    cmd->add_option_function<std::string>(
           "--log",
           [args](const std::string& path) {
               args->logs.push_back({path, args->shift_ms});
           },
           "An application log, JSON Lines (leasescope-cli schema --import-log); repeat for several")
        ->trigger_on_parse();
    cmd->add_option_function<std::int64_t>(
           "--log-shift", [args](const std::int64_t& ms) { args->shift_ms = ms; },
           "Move every time of the logs named after it by MS milliseconds (a log written in another zone)")
        ->trigger_on_parse()
        ->check(integer_in(-limits::import_log_shift_ms_max, limits::import_log_shift_ms_max));
    cmd->add_option_function<std::string>(
        "--lock",
        [args](const std::string& key) {
            args->lock = key;
            args->has_lock = true;
        },
        "The lock's key as redis-cli prints it (escapes included); needed when the capture holds several");
    cmd->add_option("--name", args->names, "Name a client: ADDR=NODE, e.g. 127.0.0.1:53412=node-a (repeatable)")
        ->allow_extra_args(false);
    cmd->add_option("--tick-ms", args->tick_ms,
                    "Milliseconds per tick (default: the finest of 1, 2, 5, 10, … ms that keeps the trace within "
                    "import_ticks_max ticks)")
        ->check(integer_in(1, limits::tick_ms_max));
    cmd->add_flag("--lenient", args->lenient, "Skip a line that cannot be read, as a gap in the capture");
    cmd->add_option("--clock-steps", args->clock_steps,
                    "A time that goes back: refuse (an error, the default) or keep (a clock jump of the store)")
        ->check(CLI::IsMember({"keep", "refuse"}));
    cmd->add_option("--out", args->out, "The trace to write (whole or not at all)")->required();
    cmd->add_option("--scenario", args->scenario, "Also write a draft scenario that reproduces the history");
    cmd->callback([args, &exit_code] { exit_code = cmd_import(*args); });
}

}  // namespace leasescope::cli

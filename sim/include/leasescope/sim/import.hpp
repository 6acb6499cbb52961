#pragma once
// Importing a real history (docs/model.md §19): a `redis-cli monitor`
// capture and application logs become a `leasescope-trace/4` trace and a
// draft scenario. Pure: lines come in as strings, the trace and the draft go
// out as values; the CLI reads and writes the files. The target is
// `leasescope_import` (sim/src/import/), linked by the shells that import.
// Messages are English, as the scenario reader's are, and name the file and
// line.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "leasescope/engine/types.hpp"
#include "leasescope/sim/limits.hpp"
#include "leasescope/sim/scenario.hpp"
#include "leasescope/sim/trace.hpp"

namespace leasescope::sim::import {

// ---- §19.1 one line of a capture --------------------------------------

struct MonitorLine {
    std::int64_t ts_us = 0;  // the server's time, microseconds since the epoch
    std::int32_t db = 0;
    std::string client;             // "127.0.0.1:53412", "[::1]:6000", "unix:/tmp/r.sock"; "lua" for a script's command
    bool lua = false;               // `[0 lua]`: a command a script ran (rule 19.1.3)
    std::vector<std::string> args;  // decoded bytes; args[0] is the command as the client wrote it
};

struct LineParse {
    enum class Kind : std::uint8_t { line, skip, bad };
    Kind kind = Kind::bad;
    MonitorLine line;   // kind == line
    std::string error;  // kind == bad: what was expected, with the column (no file:line: prefix)
};
// `text` without its newline (a trailing '\r' is ignored).
LineParse parse_monitor_line(std::string_view text);

// Bytes as Redis's sdscatrepr writes them, without the surrounding quotes
// (rule 19.1.1): how a key or a client's token is shown and how `--lock`
// is written.
std::string redis_repr(std::string_view bytes);

// ---- §19.3 the scripts LeaseScope knows ------------------------------------

enum class ScriptOp : std::uint8_t { acquire, extend, release, status, validate, none };

struct KnownScript {
    std::string_view library;  // "leasescope", "kotlin-elector", "redisson"
    std::string_view name;     // "acquire", "tryLockInnerAsync", …
    ScriptOp op = ScriptOp::none;
    std::string_view body;  // exactly as the client sends it
    // 1-based positions among ARGV (0: the script has none): the token, the
    // owner (a node name), the lease; lease_unit_ms is 1 for milliseconds.
    std::int32_t token_argv = 0;
    std::int32_t owner_argv = 0;
    std::int32_t lease_argv = 0;
    std::int64_t lease_unit_ms = 1;
    // Whose KEYS are the lock's keys (0-based): the record, and any other key
    // the script keeps for the lock (a counter, a hold-off) — rule 19.2.2.
    std::int32_t lock_key_index = 0;
    // How many KEYS from lock_key_index on are the lock's; 0: every KEYS the
    // call names (our store: its slots, the counter, the hold-off). Redisson's
    // KEYS[2] is a pub/sub channel and its KEYS[3] a per-call unlock latch:
    // not the lock's (rule 19.2.2), so 1.
    std::int32_t lock_keys = 1;
    std::string_view source;  // "redisson/src/main/java/org/redisson/RedissonLock.java:226 (3.27.2)"
};

// Every script of rule 19.3.3: LeaseScope's own store, the Kotlin elector,
// Redisson's RLock.
const std::vector<KnownScript>& known_scripts();
// A body with every run of whitespace collapsed to one space, trimmed.
std::string normalize_script(std::string_view body);
// The SHA-1 of `bytes` in 40 lowercase hex digits (what SCRIPT LOAD answers).
std::string sha1_hex(std::string_view bytes);

// ---- options -----------------------------------------------------------------

struct ImportOptions {
    std::optional<std::string> lock;                         // --lock, as redis-cli prints it
    std::vector<std::pair<std::string, std::string>> names;  // --name ADDR=NODE
    std::int64_t tick_ms = 0;                                // --tick-ms; 0: the finest that fits (19.7.2)
    bool lenient = false;                                    // --lenient: a bad line is a capture_gap
    bool keep_clock_steps = false;                           // --clock-steps keep (19.1.4)
    // The draft's run is compared up to this many events (19.8.3); the fuzzer
    // lowers it so that one input stays cheap.
    std::int64_t draft_events_max = limits::import_draft_events_max;
};

// ---- §19.1–§19.5 the capture, read in one pass ------------------------------

enum class ObservedOp : std::uint8_t { acquire, extend, release, status, validate, expire, undecided, clock_step };

// One thing the capture shows of the lock, its reply reconstructed (§19.4).
struct Observation {
    std::int64_t wall_us = 0;  // the line's time (an expiry: its deadline)
    std::int32_t source = 0;   // index of the capture file
    std::int64_t line = 0;     // 1-based line in that file (0 for an expiry)
    ObservedOp op = ObservedOp::undecided;
    std::string node;   // rule 19.5.1; an expiry: the record's owner
    std::string token;  // as redis_repr shows it; "" when the capture cannot tell
    std::optional<Fencing> fencing;
    Outcome outcome = Outcome::none;
    std::optional<std::int64_t> ttl_ms;  // acquire/extend: the new lease; busy: what was left
    std::string library;                 // "plain" (rule 19.3.1–2) or a KnownScript's library
    std::optional<Detail> why;           // undecided: unrecognised_script, unknown_sha, other_command,
                                         // expiry_boundary, capture_gap
    std::int64_t step_ms = 0;            // clock_step: the step, negative when the clock went back
    std::string sha;                     // undecided unknown_sha / unrecognised_script: the script's SHA-1
};

struct CaptureReport {
    std::string lock_key;                // as redis_repr shows it
    std::vector<std::string> lock_keys;  // every key of the lock (19.2.2), shown the same way
    struct Source {
        std::string file;
        std::int64_t lines = 0;  // lines read
        std::int64_t used = 0;   // lines of the lock
    };
    std::vector<Source> sources;
    std::map<std::string, std::int64_t> ignored;  // per command, upper case: lines of other keys
    std::int64_t first_us = 0;                    // the first and last lock line
    std::int64_t last_us = 0;
    std::optional<Fencing> counter_base;  // the counter before the capture, when known (19.4.3)
    std::vector<std::string> notes;       // what the user should know: assumptions, gaps, bad lines skipped
};

class CaptureReader {
public:
    explicit CaptureReader(ImportOptions options);
    ~CaptureReader();
    CaptureReader(CaptureReader&&) noexcept;
    CaptureReader& operator=(CaptureReader&&) noexcept;

    // A new capture file (rule 19.1.5); `name` is how messages name it.
    void begin_source(std::string name);
    // One line without its newline. false on an error: error() says
    // "FILE:LINE: what was expected". Nothing of a line of another key is kept.
    bool add_line(std::string_view text);
    // After the last line: finds the lock (19.2.1), replays (19.4) and returns
    // the observations in time order; nullopt with error() on failure.
    std::optional<std::vector<Observation>> finish();

    const CaptureReport& report() const;
    const std::string& error() const;

private:
    struct State;
    std::unique_ptr<State> state_;
};

// ---- §19.6 application logs -----------------------------------------------------

enum class LogEvent : std::uint8_t {
    acquired,
    extended,
    lost,
    released,
    write,
    write_rejected,
    pause_start,
    pause_end,
    crashed
};
const char* to_string(LogEvent);

struct LogEntry {
    std::int64_t wall_us = 0;  // after --log-shift
    // The resolution its time was written with (rule 19.6.5): the line happened
    // in [wall_us, wall_us + resolution_us). 1 for microseconds, 1000 for
    // milliseconds (epoch milliseconds too), 1'000'000 for whole seconds.
    std::int64_t resolution_us = 1;
    std::string node;
    LogEvent event = LogEvent::acquired;
    std::optional<std::string> token;
    std::optional<Fencing> fencing;
    std::optional<std::string> resource;
    std::optional<std::string> value;
    std::int32_t source = 0;  // index of the log file
    std::int64_t line = 0;    // 1-based
};

// One line of a log (rule 19.6.1–2). nullopt with `error` = "FILE:LINE: …".
// An empty line gives nullopt with an empty error (skip it).
std::optional<LogEntry> parse_log_line(std::string_view text, std::string_view file, std::int32_t source,
                                       std::int64_t line, std::int64_t shift_ms, std::string& error);

// The JSON Schema of a log line (`leasescope-cli schema --import-log`).
std::string log_schema_json();

// ---- §19.7–§19.8 the history ---------------------------------------------------

struct Evidence {
    EventOp fault = EventOp::pause;  // pause, crash, clock_jump
    std::string node;                // "store" for a clock jump
    Tick at = 0;
    Tick ticks = 0;       // a pause's length; 0 otherwise
    std::string because;  // English: the lines that show it (rule 19.8.2)
};

struct ImportedHistory {
    Trace trace;                           // leasescope-trace/4
    std::string draft_json;                // the draft scenario's file text (19.8)
    std::vector<Evidence> evidence;        // the faults the draft infers
    std::vector<std::string> differences;  // the draft's run against the trace (19.8.3); empty: none
    std::vector<std::string> notes;        // the capture's notes, then the history's
};

// Builds the trace (§19.7) and the draft (§19.8). `logs` in any order; the
// names of the sources are those the CaptureReader and parse_log_line were
// given. nullopt with `error` on failure (nothing is half-built).
std::optional<ImportedHistory> build_history(const std::vector<Observation>& observations, const CaptureReport& report,
                                             const std::vector<LogEntry>& logs,
                                             const std::vector<std::string>& log_files, const ImportOptions& options,
                                             std::string& error);

}  // namespace leasescope::sim::import

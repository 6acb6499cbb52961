#pragma once
// The capture reader's parts (docs/model.md §19.1–§19.5), shared by
// capture_reader.cpp (one pass over the lines, rule 19.2), capture_commands.cpp
// (what a command is and which of its arguments are keys) and
// capture_replay.cpp (the keys replayed, the observations, rule 19.3–19.4).
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "leasescope/sim/import.hpp"

namespace leasescope::sim::import::internal {

// The commands the importer tells apart; every other command is `other`
// (it may still name a key, its first argument).
enum class Cmd : std::uint8_t {
    set,
    setnx,
    setex,
    psetex,
    getset,
    getdel,
    get,
    del,
    unlink,
    pexpire,
    expire,
    pexpireat,
    expireat,
    persist,
    incr,
    incrby,
    decr,
    decrby,
    hset,
    hmset,
    hsetnx,
    hincrby,
    hdel,
    eval,
    evalsha,
    fcall,
    client,
    script,
    keyless,
    many_keys,
    other,
};
Cmd command_of(std::string_view arg0);
bool is_call(Cmd c);  // EVAL, EVALSHA, FCALL (and their _RO forms)

// The arguments [first, last) that are keys, every `step`-th.
struct KeySpan {
    std::size_t first = 0;
    std::size_t last = 0;
    std::size_t step = 1;
};
// `numkeys` is the call's third argument (only read for calls).
KeySpan key_span(Cmd cmd, std::size_t argc, std::string_view numkeys);
std::optional<std::int64_t> parse_int(std::string_view text);
// a + b and a × b, or nothing when the result does not fit in 64 bits: Redis
// refuses such a command with an error and writes nothing (rule 19.4.1).
std::optional<std::int64_t> checked_add(std::int64_t a, std::int64_t b);
std::optional<std::int64_t> checked_mul(std::int64_t a, std::int64_t b);

// SET's options (rule 19.3.1): an acquire is NX with PX or EX, without XX,
// KEEPTTL or GET.
struct SetOptions {
    bool nx = false, xx = false, keepttl = false, get = false, bad = false;
    std::optional<std::int64_t> px_ms;  // PX, or EX × 1000
    std::optional<std::int64_t> at_ms;  // PXAT, or EXAT × 1000
};
SetOptions set_options(const std::vector<std::string_view>& args);
bool set_is_acquire(const SetOptions& o);

// The known scripts by body and by SHA-1, and the bodies SCRIPT LOAD sent
// (rule 19.3.3).
class ScriptBook {
public:
    ScriptBook();
    struct Match {
        int index = -1;          // into known_scripts(), -1: not known
        bool body_seen = false;  // an unknown script whose body was seen
    };
    Match by_body(std::string_view body) const;
    Match by_sha(std::string_view sha) const;  // any case
    void load(std::string_view body);          // SCRIPT LOAD

private:
    std::map<std::string, int, std::less<>> normalized_;
    std::map<std::string, int, std::less<>> sha_;  // -1: loaded, unknown body
};

// What the reader keeps of a line of the lock (or of a candidate's), a gap,
// or a kept clock step.
struct KeptLine {
    enum class Kind : std::uint8_t { command, gap, clock_step };
    Kind kind = Kind::command;
    std::int32_t source = 0;
    std::int64_t line = 0;
    std::int64_t wall_us = 0;     // after kept clock steps (19.1.4)
    std::int64_t server_us = 0;   // as the server wrote it: deadlines use this
    std::int32_t candidate = -1;  // the lock key candidate it is kept for; -1: every one
    std::int64_t step_ms = 0;     // clock_step
    MonitorLine ml;               // command
};

struct ReplayResult {
    std::vector<Observation> observations;
    std::optional<Fencing> counter_base;
    std::vector<std::string> notes;
};

// Replays the lock's lines in order (rules 19.3–19.5). `lock_keys` as
// redis_repr shows them, the record first.
ReplayResult replay_lock(const std::vector<KeptLine>& lines, const std::vector<std::string>& lock_keys,
                         const ImportOptions& options, const std::vector<CaptureReport::Source>& sources,
                         std::int64_t capture_end_us);

}  // namespace leasescope::sim::import::internal

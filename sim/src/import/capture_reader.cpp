// The capture read in one pass (docs/model.md §19.1–§19.2): sources, time
// order and clock steps, the lock's candidates, which lines are kept (never
// one of another key), then the lock chosen and its lines replayed
// (capture_replay.cpp).
#include <algorithm>
#include <cassert>

#include <fmt/format.h>

#include "capture_internal.hpp"
#include "fit.hpp"
#include "leasescope/sim/limits.hpp"
#include "monitor_scan.hpp"

namespace leasescope::sim::import {

using internal::Cmd;
using internal::KeptLine;

namespace internal {
// A key that may be the lock (rule 19.2.1) and the keys its scripts name.
struct Candidate {
    std::string key;                // redis_repr of the record
    std::vector<std::string> keys;  // the record first, then the others its scripts name
    std::int64_t lines = 0;
};
}  // namespace internal
using internal::Candidate;

namespace {

// Bad lines skipped under --lenient are named in the notes up to this many.
constexpr std::int64_t skipped_lines_named_max = 20;

// A step or a time: seconds to the millisecond, or microseconds when shorter.
std::string seconds_text(std::int64_t us) {
    if (us > -1000 && us < 1000) return fmt::format("{} µs", us);
    return fmt::format("{:.3f} s", static_cast<double>(us) / 1e6);
}

}  // namespace

struct CaptureReader::State {
    ImportOptions options;
    internal::ScriptBook book;
    CaptureReport report;
    std::string error;
    bool failed = false;

    // Reading.
    internal::RawLine raw;
    std::int64_t line_no = 0;       // in the current source
    std::int64_t source_lines = 0;  // lines of commands in the current source
    std::int64_t last_wall_us = 0;  // the line before, after kept clock steps
    std::int64_t last_line = 0;
    bool any_line = false;
    std::int64_t shift_us = 0;         // added to the server's time after kept clock steps
    std::int64_t skipped = 0;          // bad lines under --lenient
    std::int32_t call_candidate = -2;  // the kept EVAL the next [lua] lines belong to; -2: none

    std::vector<Candidate> candidates;
    std::map<std::string, std::int32_t, std::less<>> watched;  // key -> candidate
    std::optional<std::string> forced_lock;                    // --lock, canonical
    std::vector<KeptLine> kept;

    std::int32_t source() const { return static_cast<std::int32_t>(report.sources.size()) - 1; }
    const std::string& file() const { return report.sources.back().file; }
    bool fail(std::string message) {
        error = fmt::format("{}:{}: {}", file(), line_no, message);
        failed = true;
        return false;
    }
    void count_ignored(std::string_view arg0);
    std::int32_t add_candidate(std::string_view record);
    void add_lock_key(std::int32_t c, std::string_view key);
    void detect(const std::vector<std::string_view>& args, Cmd cmd);
    void detect_call(const std::vector<std::string_view>& args, Cmd cmd);
    std::int32_t watched_key(const std::vector<std::string_view>& args, Cmd cmd) const;
    bool check_time();
    bool bad_line(const std::string& message);
    bool keep(std::int32_t candidate);
    bool take_line();
};

void CaptureReader::State::count_ignored(std::string_view arg0) {
    char upper[32];
    const std::size_t n = std::min(arg0.size(), sizeof upper);
    for (std::size_t i = 0; i < n; ++i) {
        const char c = arg0[i];
        upper[i] = c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
    }
    const std::string_view name(upper, n);
    const auto it = report.ignored.find(std::string(name));
    if (it != report.ignored.end()) {
        ++it->second;
    } else {
        report.ignored.emplace(std::string(name), 1);
    }
}

namespace {
// LeaseScope's live run guard `leasescope:{NAME}:run` (KeyLayout::run_owner,
// model.md §13.5) is taken with SET NX PX but is no lock (rule 19.2.1).
bool is_live_run_guard(std::string_view key) {
    constexpr std::string_view head = "leasescope:{";
    constexpr std::string_view tail = "}:run";
    return key.size() > head.size() + tail.size() && key.substr(0, head.size()) == head &&
           key.substr(key.size() - tail.size()) == tail;
}
}  // namespace

std::int32_t CaptureReader::State::add_candidate(std::string_view record) {
    const auto it = watched.find(record);
    if (it != watched.end()) return it->second;
    if (forced_lock && record != *forced_lock) return -1;
    candidates.push_back(Candidate{std::string(record), {std::string(record)}, 0});
    const auto c = static_cast<std::int32_t>(candidates.size()) - 1;
    watched.emplace(std::string(record), c);
    return c;
}

void CaptureReader::State::add_lock_key(std::int32_t c, std::string_view key) {
    if (watched.find(key) != watched.end()) return;
    candidates[static_cast<std::size_t>(c)].keys.emplace_back(key);
    watched.emplace(std::string(key), c);
}

// Rule 19.2.1: a key set with SET … NX PX/EX, or a known script's record.
void CaptureReader::State::detect(const std::vector<std::string_view>& args, Cmd cmd) {
    if (cmd == Cmd::set && args.size() >= 5) {
        if (internal::set_is_acquire(internal::set_options(args)) && !is_live_run_guard(args[1])) {
            add_candidate(args[1]);
        }
    } else if ((cmd == Cmd::eval || cmd == Cmd::evalsha) && args.size() >= 3) {
        detect_call(args, cmd);
    }
}

void CaptureReader::State::detect_call(const std::vector<std::string_view>& args, Cmd cmd) {
    const internal::ScriptBook::Match m =
        cmd == Cmd::eval ? book.by_body(internal::unescape_arg(args[1])) : book.by_sha(args[1]);
    if (m.index < 0) return;
    const KnownScript& script = known_scripts()[static_cast<std::size_t>(m.index)];
    const internal::KeySpan span = internal::key_span(cmd, args.size(), args[2]);
    const std::size_t record = span.first + static_cast<std::size_t>(script.lock_key_index);
    if (record >= span.last) return;
    const std::int32_t c = add_candidate(args[record]);
    if (c < 0) return;
    const std::size_t end =
        script.lock_keys == 0 ? span.last : std::min(span.last, record + static_cast<std::size_t>(script.lock_keys));
    for (std::size_t i = record + 1; i < end; ++i) add_lock_key(c, args[i]);
}

std::int32_t CaptureReader::State::watched_key(const std::vector<std::string_view>& args, Cmd cmd) const {
    if (watched.empty()) return -1;
    const internal::KeySpan span = internal::key_span(cmd, args.size(), args.size() > 2 ? args[2] : "");
    for (std::size_t i = span.first; i < span.last && i < args.size(); i += span.step) {
        const auto it = watched.find(args[i]);
        if (it != watched.end()) return it->second;
    }
    return -1;
}

CaptureReader::CaptureReader(ImportOptions options) : state_(std::make_unique<State>()) {
    state_->options = std::move(options);
    if (state_->options.lock) {
        const std::string canonical = redis_repr(internal::unescape_arg(*state_->options.lock));
        state_->forced_lock = canonical;
        state_->add_candidate(canonical);
    }
}
CaptureReader::~CaptureReader() = default;
CaptureReader::CaptureReader(CaptureReader&&) noexcept = default;
CaptureReader& CaptureReader::operator=(CaptureReader&&) noexcept = default;

const CaptureReport& CaptureReader::report() const { return state_->report; }
const std::string& CaptureReader::error() const { return state_->error; }

void CaptureReader::begin_source(std::string name) {
    // A file's name is shown as text of bounded length (rule 19.5.4).
    state_->report.sources.push_back(CaptureReport::Source{internal::fit_name(name), 0, 0});
    state_->line_no = 0;
    state_->source_lines = 0;
    state_->call_candidate = -2;
}

// Rules 19.1.4–5: time never goes back within a capture (unless clock steps
// are kept), and captures do not overlap; the time between two is a gap.
bool CaptureReader::State::check_time() {
    std::int64_t wall = raw.ts_us + shift_us;
    if (any_line && source_lines == 0) {
        if (wall < last_wall_us) {
            return fail(
                fmt::format("this capture starts at {} before {} ends (its line {} is at {}): captures must "
                            "not overlap",
                            seconds_text(wall), report.sources[report.sources.size() - 2].file, last_line,
                            seconds_text(last_wall_us)));
        }
        KeptLine gap{KeptLine::Kind::gap, source(), line_no, last_wall_us, last_wall_us - shift_us, -1, 0, {}};
        kept.push_back(std::move(gap));
    } else if (any_line && wall < last_wall_us) {
        const std::int64_t step_us = wall - last_wall_us;
        if (!options.keep_clock_steps) {
            return fail(fmt::format("time goes back {} from line {} (a clock step on the server?)",
                                    seconds_text(-step_us), last_line));
        }
        if (-step_us / 1000 > limits::clock_jump_ms_max) {
            return fail(
                fmt::format("time goes back {} from line {}: more than the largest clock step a trace "
                            "can show ({} ms), even with --clock-steps keep",
                            seconds_text(-step_us), last_line, limits::clock_jump_ms_max));
        }
        // The marker carries the server's time before the step, so that a
        // record past its deadline then expires with the time before it.
        kept.push_back(KeptLine{KeptLine::Kind::clock_step,
                                source(),
                                line_no,
                                last_wall_us,
                                last_wall_us - shift_us,
                                -1,
                                step_us / 1000,
                                {}});
        shift_us -= step_us;
        wall = last_wall_us;
    }
    any_line = true;
    ++source_lines;
    last_wall_us = wall;
    last_line = line_no;
    return true;
}

// Rule 19.1.2: an error, or under --lenient a gap at the line before.
bool CaptureReader::State::bad_line(const std::string& message) {
    if (!options.lenient) return fail(message);
    ++skipped;
    if (skipped <= skipped_lines_named_max) {
        report.notes.push_back(fmt::format("{}:{}: skipped (--lenient): {}", file(), line_no, message));
    }
    if (any_line) {
        kept.push_back(
            KeptLine{KeptLine::Kind::gap, source(), line_no, last_wall_us, last_wall_us - shift_us, -1, 0, {}});
    }
    return true;
}

bool CaptureReader::State::keep(std::int32_t candidate) {
    if (static_cast<std::int64_t>(kept.size()) >= limits::import_lock_lines_max) {
        return fail(fmt::format("more than {} lines of the lock (limits::import_lock_lines_max)",
                                limits::import_lock_lines_max));
    }
    KeptLine k;
    k.source = source();
    k.line = line_no;
    k.wall_us = raw.ts_us + shift_us;
    k.server_us = raw.ts_us;
    k.candidate = candidate;
    k.ml.ts_us = raw.ts_us;
    k.ml.db = raw.db;
    k.ml.client = std::string(raw.client);
    k.ml.lua = raw.lua;
    k.ml.args.reserve(raw.args.size());
    for (const std::string_view a : raw.args) k.ml.args.push_back(internal::unescape_arg(a));
    kept.push_back(std::move(k));
    if (candidate >= 0) ++candidates[static_cast<std::size_t>(candidate)].lines;
    return true;
}

// Rule 19.2.2: which lines are kept; the rest are counted and forgotten.
bool CaptureReader::State::take_line() {
    const std::vector<std::string_view>& args = raw.args;
    if (raw.lua) {
        if (call_candidate != -2) return keep(call_candidate);
        const std::int32_t c = watched_key(args, internal::command_of(args[0]));
        if (c >= 0) return keep(c);
        count_ignored(args[0]);
        return true;
    }
    call_candidate = -2;
    const Cmd cmd = internal::command_of(args[0]);
    if (cmd == Cmd::client && args.size() >= 3 && internal::raw_is(args[1], "SETNAME")) return keep(-1);
    if (cmd == Cmd::script && args.size() >= 3 && internal::raw_is(args[1], "LOAD")) {
        book.load(internal::unescape_arg(args[2]));
        return keep(-1);
    }
    detect(args, cmd);
    const std::int32_t c = watched_key(args, cmd);
    if (c < 0) {
        count_ignored(args[0]);
        return true;
    }
    if (internal::is_call(cmd)) call_candidate = c;
    return keep(c);
}

bool CaptureReader::add_line(std::string_view text) {
    State& s = *state_;
    assert(!s.report.sources.empty());
    if (s.failed) return false;
    ++s.line_no;
    ++s.report.sources.back().lines;
    std::string message;
    switch (internal::scan_monitor_line(text, s.raw, message)) {
        case internal::ScanKind::skip: return true;
        case internal::ScanKind::bad: return s.bad_line(message);
        case internal::ScanKind::line: break;
    }
    if (!s.check_time()) return false;
    return s.take_line();
}

namespace {

// Rule 19.2.1: exactly one lock key, or an error.
std::optional<std::int32_t> choose_lock(const std::vector<Candidate>& candidates, bool forced, std::int64_t lines,
                                        std::string& error) {
    if (forced) {
        if (candidates[0].lines == 0) {
            error = fmt::format("--lock {}: no line of the capture names this key ({} lines read)", candidates[0].key,
                                lines);
            return std::nullopt;
        }
        return 0;
    }
    if (candidates.empty()) {
        error = fmt::format("no lock found: no SET … NX PX/EX and no known lock script in {} lines", lines);
        return std::nullopt;
    }
    if (candidates.size() > 1) {
        std::string list;
        for (const Candidate& c : candidates) {
            list += fmt::format("{}{} ({} lines)", list.empty() ? "" : ", ", c.key, c.lines);
        }
        error = fmt::format("several lock keys found: {}; name one with --lock KEY", list);
        return std::nullopt;
    }
    return 0;
}

}  // namespace

std::optional<std::vector<Observation>> CaptureReader::finish() {
    State& s = *state_;
    if (s.failed) return std::nullopt;
    std::int64_t lines = 0;
    for (const CaptureReport::Source& src : s.report.sources) lines += src.lines;
    const std::optional<std::int32_t> lock = choose_lock(s.candidates, s.forced_lock.has_value(), lines, s.error);
    if (!lock) {
        s.failed = true;
        return std::nullopt;
    }
    const Candidate& chosen = s.candidates[static_cast<std::size_t>(*lock)];
    std::vector<KeptLine> mine;
    mine.reserve(s.kept.size());
    for (KeptLine& k : s.kept) {
        if (k.candidate == *lock || k.candidate == -1) {
            if (k.kind == KeptLine::Kind::command) ++s.report.sources[static_cast<std::size_t>(k.source)].used;
            mine.push_back(std::move(k));
        } else {
            s.count_ignored(k.ml.args[0]);
        }
    }
    s.kept.clear();
    s.report.lock_key = chosen.key;
    s.report.lock_keys = chosen.keys;
    internal::ReplayResult r = internal::replay_lock(mine, chosen.keys, s.options, s.report.sources, s.last_wall_us);
    s.report.counter_base = r.counter_base;
    for (std::string& n : r.notes) s.report.notes.push_back(std::move(n));
    if (s.skipped > skipped_lines_named_max) {
        s.report.notes.push_back(fmt::format("{} bad lines skipped in all (--lenient)", s.skipped));
    }
    for (const KeptLine& k : mine) {
        if (k.kind != KeptLine::Kind::command || k.candidate != *lock) continue;
        if (s.report.first_us == 0) s.report.first_us = k.wall_us;
        s.report.last_us = k.wall_us;
    }
    return std::move(r.observations);
}

}  // namespace leasescope::sim::import

#pragma once
// Traces (docs/model.md §12): events, the canonical JSONL bytes, SHA-256 of the event
// lines, a reader that checks what it reads, a text table and a diff.
#include <cstddef>
#include <cstdint>
#include <map>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "leasescope/engine/result.hpp"
#include "leasescope/engine/types.hpp"

namespace leasescope::sim {

inline constexpr std::string_view trace_format = "leasescope-trace/2";
// The format of a scenario with replicas (model.md §12.1 item 5, §17.7).
inline constexpr std::string_view trace_format_3 = "leasescope-trace/3";
// The format before the three safety marks of model.md §9.6-§9.8; still read
// (model.md §12.1 item 4), never written.
inline constexpr std::string_view trace_format_1 = "leasescope-trace/1";
// The format of an imported history (model.md §12.1 item 6, §19.7).
inline constexpr std::string_view trace_format_4 = "leasescope-trace/4";
// The format of a Redlock scenario (model.md §12.1 item 7, §20.8): /3 with
// the header's stores and the ops restart and quorum; none of /4's keys.
inline constexpr std::string_view trace_format_5 = "leasescope-trace/5";
// The format of a Redisson scenario (model.md §21.9): /3 with the header's
// client and the op message (outcome delivered or lost).
inline constexpr std::string_view trace_format_6 = "leasescope-trace/6";

enum class Phase : std::uint8_t { faults, expiry, work, extend, acquire, ops, check };

enum class EventOp : std::uint8_t {
    pause,
    resume,
    crash,
    partition,
    heal,
    failover,
    clock_jump,
    link_cut,
    link_restored,  // faults
    expire,         // expiry
    write,
    release,  // work
    extend,   // extend
    start,
    acquire,
    skip,
    wait,  // acquire
    status,
    validate,  // ops
    overlap_begin,
    overlap_end,  // check
    // An imported history's (/4, model.md §19.7), phase ops. Last, so the
    // numbers of the ops above stay.
    believe,    // what a node believed: outcome leader or follower
    undecided,  // what the capture cannot tell: outcome null
    // A Redlock scenario's (/5, model.md §20.8): a store's restart (phase
    // faults) and a client's count of its stores' answers (acquire, work).
    restart,
    quorum,
    // A Redisson scenario's (/6, model.md §21.9): an unlock message reaching
    // (or lost on the way to) a subscribed waiter, phase work.
    message,
};

enum class Outcome : std::uint8_t {
    none,  // null
    expired,
    accepted,
    rejected,
    released,
    kept,
    not_owner,
    error,
    renewed,
    lost,
    acquired,
    busy,
    skipped,
    held,
    vacant,
    current,
    stale,
    synced,      // wait: at least wait_replicas replicas (model.md §17.6)
    not_synced,  // wait: fewer
    leader,      // believe (/4): the node believed it led
    follower,    // believe (/4): it believed it did not
    delivered,   // message (/6): the unlock message reached the waiter
};

const char* to_string(Phase);
const char* to_string(EventOp);
const char* to_string(Outcome);  // "" for none
std::optional<Phase> phase_from_string(std::string_view);
std::optional<EventOp> op_from_string(std::string_view);
std::optional<Outcome> outcome_from_string(std::string_view);  // not for none

// The words an event's `detail` can hold (model.md §12.3, trace-format.md
// "Events"). The order here is the order in which they join with commas
// (`reply_lost,fencing_regressed`, `stale,unsafe_write`); one table in
// trace.cpp gives each its trace spelling.
enum class Detail : std::uint8_t {
    drop_requests,  // partition: the mode
    drop_replies,
    leases,  // failover: what the new primary lost
    all,
    hold_off,               // acquire, busy: the hold-off after a release
    reply_lost,             // acquire: applied, but the node never heard the reply
    fencing_regressed,      // acquire: a fencing number not above every one issued
    fencing_duplicate,      // acquire: a fencing number issued before to another token (§9.8)
    stale,                  // write: the writer's token was not current
    unsafe_write,           // write: resource mode off accepted a lower fencing number
    stale_after_successor,  // write: accepted after a successor's accepted write (§9.6)
    holder_rejected,        // write: rejected although the writer's token was current (§9.7)
    no_replicas,            // acquire, extend, release: refused, too few good replicas (§17.4)
    // believe (/4, model.md §19.7.1): the log's word, or inferred from commands (§19.6.3)
    acquired,
    extended,
    lost,
    released,
    inferred,
    // undecided (/4): why the capture cannot tell
    unrecognised_script,  // a script on the lock that LeaseScope does not know (§19.3.5)
    unknown_sha,          // EVALSHA of a SHA whose body the capture never showed
    other_command,        // another command on a lock key (§19.3.6)
    expiry_boundary,      // within 1 ms of a deadline (§19.4.2)
    capture_gap,          // nothing is known here (§19.1.2, §19.1.5)
};
inline constexpr std::size_t detail_words = 23;
// The words of /1-/3 traces: the ones before acquired.
inline constexpr std::size_t detail_words_3 = 13;
const char* to_string(Detail);
std::optional<Detail> detail_from_string(std::string_view);

// A set of detail words, as a small bitset: an event's marks are checked with
// has(), never by comparing text.
class Details {
public:
    constexpr Details() = default;
    constexpr Details(std::initializer_list<Detail> words) {
        for (const Detail d : words) add(d);
    }
    constexpr bool has(Detail d) const { return (bits_ & bit(d)) != 0; }
    constexpr void add(Detail d) { bits_ = bits_ | bit(d); }
    constexpr bool empty() const { return bits_ == 0; }
    constexpr std::uint32_t bits() const { return bits_; }
    bool operator==(const Details&) const = default;

private:
    static constexpr std::uint32_t bit(Detail d) { return std::uint32_t{1} << static_cast<unsigned>(d); }
    std::uint32_t bits_ = 0;
};
static_assert(detail_words <= 32);
static_assert(static_cast<std::size_t>(Detail::capture_gap) + 1 == detail_words);
static_assert(static_cast<std::size_t>(Detail::acquired) == detail_words_3);

// One trace event. Empty strings and -1 / nullopt stand for null. The trace's
// `detail` is one of `details` (words), `overlap_count`, `named_node` or
// `clock_ms`; at most one is set (detail_text gives its spelling).
struct Event {
    Tick tick = 0;
    std::int64_t seq = 0;
    Phase phase = Phase::faults;
    EventOp op = EventOp::pause;
    std::string node;
    std::int32_t run = -1;
    Token token;
    std::optional<Fencing> fencing;
    std::optional<SlotIndex> slot;
    std::optional<Tick> ttl;
    Outcome outcome = Outcome::none;
    Details details;  // partition, failover, acquire, write
    std::int64_t overlap_count =
        0;                      // overlap_begin: how many nodes execute; wait: replicas counted (§17.6); 0 otherwise
    std::string named_node;     // validate: the node whose token is validated
    std::int64_t clock_ms = 0;  // clock_jump: the step in ms, either sign; 0 otherwise
    // The optional trailing keys (model.md §12.1, §16.6): set only when they
    // differ from `tick`.
    std::optional<Tick> sent;     // write, acquire, extend, release: sent at
    std::optional<Tick> applied;  // acquire, extend, release: the store applied it at
    // The server (model.md §17.7): on link_cut, link_restored, a promoting
    // failover and the calls an old primary answered in split brain.
    std::optional<std::int32_t> server;
    // The server time of the line an imported event came from, microseconds
    // since the epoch (model.md §19.7.1): on every /4 event, never before.
    std::optional<std::int64_t> wall_us;

    bool operator==(const Event&) const = default;
};

// An event as the simulator hands it to a sink: the same fields, with the
// node, token and named node seen in place (in the elector, the scenario or
// the store's reply) instead of copied. Valid only during the sink's call; a
// sink that keeps events keeps to_event(view).
struct EventView {
    Tick tick = 0;
    std::int64_t seq = 0;
    Phase phase = Phase::faults;
    EventOp op = EventOp::pause;
    std::string_view node;
    std::int32_t run = -1;
    std::string_view token;
    std::optional<Fencing> fencing;
    std::optional<SlotIndex> slot;
    std::optional<Tick> ttl;
    Outcome outcome = Outcome::none;
    Details details;
    std::int64_t overlap_count = 0;
    std::string_view named_node;
    std::int64_t clock_ms = 0;
    std::optional<Tick> sent;
    std::optional<Tick> applied;
    std::optional<std::int32_t> server;
    std::optional<std::int64_t> wall_us;
};
Event to_event(const EventView&);
EventView view_of(const Event&);

// The `detail` of an event as the trace spells it ("" for null): the words
// joined with commas in Detail's order, the overlap count in decimal, or the
// named node.
std::string detail_text(const EventView&);
std::string detail_text(const Event&);

// Where an imported trace came from (model.md §19.7.1): the header's
// `import` object of a /4 trace.
struct ImportInfo {
    std::int64_t origin_us = 0;  // tick 0's server time, microseconds since the epoch
    std::string lock_key;        // as redis-cli prints it
    struct Source {
        std::string file;
        std::string kind;  // "capture" or "log"
        std::int64_t lines = 0;
        std::int64_t used = 0;
        bool operator==(const Source&) const = default;
    };
    std::vector<Source> sources;
    std::int64_t ignored = 0;  // lines of other keys
    bool operator==(const ImportInfo&) const = default;
};

struct TraceHeader {
    // 2, 3 for a scenario with replicas (model.md §12.1 item 5), 4 for an
    // imported history (item 6, with `import`), 5 for a Redlock scenario
    // (item 7, with `stores`), 6 for a Redisson scenario (model.md §21.9,
    // with `client`); a /1 file reads as 2 (its events are /2 events).
    std::int32_t format = 2;
    std::string scenario;
    std::uint64_t seed = 0;
    std::int64_t tick_ms = 50;
    std::string lock;
    std::int32_t capacity = 1;
    std::vector<std::string> candidates;
    std::optional<ImportInfo> import;  // set exactly when format is 4
    std::vector<std::string> stores;   // a Redlock scenario's (format 5, model.md §20.8)
    bool operator==(const TraceHeader&) const = default;
};

struct RunSummary {
    std::string node;
    std::int32_t run = 0;
    std::string result;  // elected, skipped, action_failed, acquire_failed, crashed, unfinished
    std::optional<Fencing> fencing;
    bool operator==(const RunSummary&) const = default;
};

struct Violations {
    std::int64_t overlap = 0;  // episodes
    std::int64_t unsafe_write = 0;
    std::int64_t fencing_regressed = 0;
    std::int64_t stale_after_successor = 0;  // model.md §9.6
    std::int64_t holder_rejected = 0;        // §9.7
    std::int64_t fencing_duplicate = 0;      // §9.8
    std::int64_t total() const {
        return overlap + unsafe_write + fencing_regressed + stale_after_successor + holder_rejected + fencing_duplicate;
    }
    bool operator==(const Violations&) const = default;
};

struct TraceSummary {
    Tick end_tick = 0;
    std::vector<RunSummary> results;
    Violations violations;
    std::int64_t events = 0;
    std::string trace_sha256;
    bool operator==(const TraceSummary&) const = default;
};

struct Trace {
    TraceHeader header;
    std::vector<Event> events;
    TraceSummary summary;
};

// Canonical lines, without the trailing newline: the bytes nlohmann's dump()
// writes for an ordered_json built in the key order of docs/model.md §12.
std::string header_line(const TraceHeader&);
void append_event_line(std::string& out, const Event&);
void append_event_line(std::string& out, const EventView&);
std::string event_line(const Event&);
std::string summary_line(const TraceSummary&);
// The summary line in pieces, for writing it without holding it whole:
// summary_line(s) is summary_head(s), then append_summary_result(out, r,
// first) for every result, then summary_tail(s).
std::string summary_head(const TraceSummary&);
void append_summary_result(std::string& out, const RunSummary&, bool first);
std::string summary_tail(const TraceSummary&);

// SHA-256 of the event lines, each followed by "\n" (OpenSSL libcrypto), so
// `sha256sum` can check one from outside. Lines are gathered in a buffer and
// hashed in blocks of about 64 KiB, not one digest update per line.
class TraceHasher {
public:
    TraceHasher();
    ~TraceHasher();
    TraceHasher(const TraceHasher&) = delete;
    TraceHasher& operator=(const TraceHasher&) = delete;
    void add_line(std::string_view line) {  // the newline is added here
        pending_.append(line);
        end_line();
    }
    // Writing a line in place: append its bytes to pending(), then end_line()
    // (or append the newline too, then line_written(): the whole line can then
    // be read in pending() until line_written()).
    std::string& pending() { return pending_; }
    void end_line() {
        pending_ += '\n';
        line_written();
    }
    void line_written() {
        if (pending_.size() >= block_bytes) flush();
    }
    // Whole lines, each already ending in its newline, hashed in one digest
    // update without a copy (what is pending goes first): the same digest as
    // add_line for each of them.
    void add_lines(std::string_view lines);
    std::string hex();  // finishes; call once

private:
    static constexpr std::size_t block_bytes = std::size_t{64} << 10;
    void flush();  // hashes and empties pending_
    void* ctx_;
    std::string pending_;
};

// The whole trace file: header, events, summary, each line ending in "\n".
std::string trace_to_jsonl(const Trace&);

struct TraceError {
    std::string file;
    std::int64_t line = 0;  // 1-based; 0 when the error is about the whole file
    std::string message;
    std::string to_string() const;
};

// How parse_trace reads event lines: those in the writer's canonical form
// through a fast scan that builds no JSON value, any other line through the
// general JSON reader (the default); or every line through the general
// reader. Both give the same trace and the same errors: tests/sim/trace and
// the fuzz_trace target compare them.
enum class TraceLineReader { fast, general };

// Reads a trace file and checks it: known keys in the canonical order, event
// count and hash matching the summary.
Result<Trace, TraceError> parse_trace(std::string_view text, const std::string& file,
                                      TraceLineReader reader = TraceLineReader::fast);

// The readable table: Tick, Candidate, Operation, Token, Fencing, TTL, Outcome;
// an imported history's (/4) has the wall clock after Tick ("Wall (UTC)",
// HH:MM:SS.mmm), which text_row writes for an event with `wall_us`. With a
// tick length (`time_tick_ms` > 0, --time) a Time column follows Tick: the
// tick's start since tick 0, "M:SS.mmm" (model.md §11.7).
std::string text_table_header(bool wall_clock = false, bool time = false);
// `stores`: a Redlock trace's (model.md §20.8), whose rows name them.
// `redisson`: a Redisson trace's (/6, model.md §21.9), whose rows say what
// its scripts and its unlock message did.
std::string text_row(const Event&, std::int64_t time_tick_ms = 0, std::span<const std::string> stores = {},
                     bool redisson = false);
// A server time as the text view shows it: "HH:MM:SS.mmm" in UTC.
std::string wall_time_text(std::int64_t wall_us);
// A row a reader must not miss: its Outcome carries a "!" (stale holders,
// rejected releases and writes, lost leases, violations).
bool text_marked(const Event&);

// Which rows the text view shows (run/live --format text --marked, --node,
// --ticks); the summary is always whole. A row with no candidate (a
// failover, an overlap) concerns every node and passes the node filter.
struct TextFilter {
    bool marked_only = false;
    std::vector<std::string> nodes;  // empty: every node
    Tick from = 0;                   // inclusive
    std::optional<Tick> to;          // inclusive; none: to the end
    std::int64_t time_tick_ms = 0;   // > 0: the Time column, at this tick length (not a filter)
    bool any() const { return marked_only || !nodes.empty() || from > 0 || to.has_value(); }
    bool keeps(const Event&) const;
};

// What became of each run's writes, counted from its write events for the
// text view's summary ("elected, 2 writes: 0 accepted, 2 rejected").
struct RunWrites {
    std::int64_t accepted = 0;
    std::int64_t rejected = 0;
    std::int64_t unsafe = 0;  // accepted with an older fencing number than one accepted before
};
class WriteTally {
public:
    void add(const Event& e);  // counts a write event; ignores the others
    RunWrites of(const std::string& node, std::int32_t run) const;

private:
    std::map<std::pair<std::string, std::int32_t>, RunWrites> runs_;
};

// The summary part of the text view: end tick, hash, each run with its
// result and writes, the violations.
std::string text_summary(const TraceSummary&, const WriteTally&);
// The whole text view: the header line, the table (rows the filter keeps;
// "shown: N of M events" under it when it leaves some out), the summary.
std::string trace_to_text(const Trace&, const TextFilter& filter = {});

// The first event where two traces differ (header and summary compared too).
struct Divergence {
    std::int64_t index = 0;  // event index; -1 for the header, events.size() for the summary
    std::string description;
};
// ignore_tokens: token values are not compared (live versus simulated runs),
// nor an imported event's wall_us (an imported history versus its draft).
std::optional<Divergence> first_divergence(const Trace& a, const Trace& b, bool ignore_tokens = false, int context = 3);

}  // namespace leasescope::sim

// Trace names and the canonical bytes: the header, event and summary lines
// of a JSONL trace, written exactly as nlohmann would write them.
#include "leasescope/sim/trace.hpp"

#include <array>
#include <bit>
#include <cstring>
#include <nlohmann/json.hpp>

#include <fmt/format.h>

namespace leasescope::sim {
namespace {

using ordered_json = nlohmann::ordered_json;

constexpr std::array<const char*, 7> phase_names = {"faults", "expiry", "work", "extend", "acquire", "ops", "check"};
constexpr std::array<const char*, 26> op_names = {
    "pause",    "resume",        "crash",   "partition", "heal",     "failover",      "clock_jump",
    "link_cut", "link_restored", "expire",  "write",     "release",  "extend",        "start",
    "acquire",  "skip",          "wait",    "status",    "validate", "overlap_begin", "overlap_end",
    "believe",  "undecided",     "restart", "quorum",    "message"};
constexpr std::array<const char*, 22> outcome_names = {
    "",        "expired", "accepted",   "rejected", "released", "kept",     "not_owner", "error",
    "renewed", "lost",    "acquired",   "busy",     "skipped",  "held",     "vacant",    "current",
    "stale",   "synced",  "not_synced", "leader",   "follower", "delivered"};
static_assert(static_cast<std::size_t>(EventOp::message) + 1 == op_names.size());
static_assert(static_cast<std::size_t>(Outcome::delivered) + 1 == outcome_names.size());
static_assert(static_cast<std::size_t>(EventOp::wait) == 16);
// The one table of detail words: the trace spelling of each Detail, in the
// order they join (model.md §12.3).
constexpr std::array<const char*, detail_words> detail_names = {"drop_requests",
                                                                "drop_replies",
                                                                "leases",
                                                                "all",
                                                                "hold_off",
                                                                "reply_lost",
                                                                "fencing_regressed",
                                                                "fencing_duplicate",
                                                                "stale",
                                                                "unsafe_write",
                                                                "stale_after_successor",
                                                                "holder_rejected",
                                                                "no_replicas",
                                                                "acquired",
                                                                "extended",
                                                                "lost",
                                                                "released",
                                                                "inferred",
                                                                "unrecognised_script",
                                                                "unknown_sha",
                                                                "other_command",
                                                                "expiry_boundary",
                                                                "capture_gap"};
static_assert(static_cast<std::size_t>(Detail::capture_gap) + 1 == detail_names.size());

template <class E, std::size_t N>
std::optional<E> from_names(const std::array<const char*, N>& names, std::string_view s, std::size_t first = 0) {
    for (std::size_t i = first; i < N; ++i) {
        if (s == names[i]) return static_cast<E>(i);
    }
    return std::nullopt;
}

// Appends `s` as a JSON string exactly as nlohmann's dump() writes it (UTF-8
// unescaped). Plain ASCII takes the fast path; anything else goes through
// nlohmann itself, so the bytes agree by construction.
void append_json_string(std::string& out, std::string_view s) {
    bool plain = true;
    for (const char c : s) {
        const auto u = static_cast<unsigned char>(c);
        if (u < 0x20 || u >= 0x80 || c == '"' || c == '\\') {
            plain = false;
            break;
        }
    }
    if (plain) {
        out += '"';
        out.append(s);
        out += '"';
        return;
    }
    out += nlohmann::json(std::string(s)).dump();
}

// fmt::format_int writes the same decimal digits as "{}" without going
// through the formatting machinery: this runs several times per event.
void append_int(std::string& out, std::int64_t v) {
    const fmt::format_int digits(v);
    out.append(digits.data(), digits.size());
}

template <class T>
void append_opt_int(std::string& out, const std::optional<T>& v) {
    if (v) {
        append_int(out, static_cast<std::int64_t>(*v));
    } else {
        out += "null";
    }
}

// The names with their lengths, so appending one needs no strlen.
template <std::size_t N>
constexpr std::array<std::string_view, N> views_of(const std::array<const char*, N>& names) {
    std::array<std::string_view, N> views{};
    for (std::size_t i = 0; i < N; ++i) views[i] = names[i];
    return views;
}
constexpr auto phase_views = views_of(phase_names);
constexpr auto op_views = views_of(op_names);
constexpr auto outcome_views = views_of(outcome_names);
constexpr auto detail_views = views_of(detail_names);

// The bytes the words of `d` take, joined with commas, at most: every word
// and a comma after each (a reader keeps any set of words in order).
constexpr std::size_t details_bytes_all() {
    std::size_t n = 0;
    for (const std::string_view w : detail_views) n += w.size() + 1;
    return n;
}
constexpr std::size_t details_bytes_max = 288;
static_assert(details_bytes_all() <= details_bytes_max);

// Calls f(word) for each word of `d` in the fixed order, f(",") between them.
template <class F>
void for_each_detail_word(Details d, F&& f) {
    unsigned bits = d.bits();
    bool first = true;
    while (bits != 0) {
        const auto i = static_cast<std::size_t>(std::countr_zero(bits));
        bits &= bits - 1;
        if (!first) f(std::string_view(","));
        f(detail_views[i]);
        first = false;
    }
}

void append_opt_string(std::string& out, std::string_view s) {
    if (s.empty()) {
        out += "null";
    } else {
        append_json_string(out, s);
    }
}

}  // namespace

const char* to_string(Phase p) { return phase_names[static_cast<std::size_t>(p)]; }
const char* to_string(EventOp o) { return op_names[static_cast<std::size_t>(o)]; }
const char* to_string(Outcome o) { return outcome_names[static_cast<std::size_t>(o)]; }
std::optional<Phase> phase_from_string(std::string_view s) { return from_names<Phase>(phase_names, s); }
std::optional<EventOp> op_from_string(std::string_view s) { return from_names<EventOp>(op_names, s); }
std::optional<Outcome> outcome_from_string(std::string_view s) { return from_names<Outcome>(outcome_names, s, 1); }
const char* to_string(Detail d) { return detail_names[static_cast<std::size_t>(d)]; }
std::optional<Detail> detail_from_string(std::string_view s) { return from_names<Detail>(detail_names, s); }

std::string detail_text(const EventView& e) {
    std::string out;
    if (!e.details.empty()) {
        for_each_detail_word(e.details, [&](std::string_view w) { out += w; });
    } else if (e.overlap_count > 0 || e.op == EventOp::wait || e.op == EventOp::quorum) {
        append_int(out, e.overlap_count);
    } else if (e.clock_ms != 0) {
        append_int(out, e.clock_ms);
    } else {
        out = e.named_node;
    }
    return out;
}
std::string detail_text(const Event& e) { return detail_text(view_of(e)); }

std::string header_line(const TraceHeader& h) {
    ordered_json j;
    j["type"] = "header";
    j["format"] = h.format == 6   ? trace_format_6
                  : h.format == 5 ? trace_format_5
                  : h.format == 4 ? trace_format_4
                  : h.format == 3 ? trace_format_3
                                  : trace_format;
    j["scenario"] = h.scenario;
    j["seed"] = h.seed;
    j["tick_ms"] = h.tick_ms;
    j["lock"] = h.lock;
    j["capacity"] = h.capacity;
    j["candidates"] = h.candidates;
    if (h.format == 5) j["stores"] = h.stores;
    if (h.format == 6) j["client"] = "redisson";
    if (h.import) {
        const ImportInfo& info = *h.import;
        ordered_json imp;
        imp["origin_us"] = info.origin_us;
        imp["lock_key"] = info.lock_key;
        imp["sources"] = ordered_json::array();
        for (const ImportInfo::Source& src : info.sources) {
            ordered_json one;
            one["file"] = src.file;
            one["kind"] = src.kind;
            one["lines"] = src.lines;
            one["used"] = src.used;
            imp["sources"].push_back(std::move(one));
        }
        imp["ignored"] = info.ignored;
        j["import"] = std::move(imp);
    }
    return j.dump();
}

namespace {

// The event line written through a raw pointer into room made once, for
// events whose strings need no escaping (all the simulator makes); the same
// bytes as the appends of append_event_line_slow.
class LineWriter {
public:
    explicit LineWriter(char* p) : p_(p) {}
    template <std::size_t N>
    void lit(const char (&s)[N]) {
        std::memcpy(p_, s, N - 1);
        p_ += N - 1;
    }
    void view(std::string_view s) {
        std::memcpy(p_, s.data(), s.size());
        p_ += s.size();
    }
    void integer(std::int64_t v) {
        const fmt::format_int digits(v);
        view(std::string_view(digits.data(), digits.size()));
    }
    template <class T>
    void opt_int(const std::optional<T>& v) {
        if (v) {
            integer(static_cast<std::int64_t>(*v));
        } else {
            lit("null");
        }
    }
    void opt_string(std::string_view s) {
        if (s.empty()) {
            lit("null");
            return;
        }
        *p_++ = '"';
        view(s);
        *p_++ = '"';
    }
    // The `detail` value: the words, the overlap count (a string, as the
    // trace has always written it) or the named node, else null.
    void detail(const EventView& e) {
        if (!e.details.empty()) {
            *p_++ = '"';
            for_each_detail_word(e.details, [this](std::string_view w) { view(w); });
            *p_++ = '"';
        } else if (e.overlap_count > 0 || e.op == EventOp::wait || e.op == EventOp::quorum) {
            *p_++ = '"';
            integer(e.overlap_count);
            *p_++ = '"';
        } else if (e.clock_ms != 0) {
            *p_++ = '"';
            integer(e.clock_ms);
            *p_++ = '"';
        } else {
            opt_string(e.named_node);
        }
    }
    char* end() const { return p_; }

private:
    char* p_;
};

bool plain_ascii(std::string_view s) {
    for (const char c : s) {
        const auto u = static_cast<unsigned char>(c);
        if (u < 0x20 || u >= 0x80 || c == '"' || c == '\\') return false;
    }
    return true;
}

void append_event_line_slow(std::string& out, const EventView& e);

// The line of an event with plain ASCII names, through `w`, which has room
// for 480 bytes plus the names (fixed text, the phase, op and outcome about
// 250 bytes, ten integers of at most 20).
void write_event_line(LineWriter& w, const EventView& e) {
    w.lit(R"({"type":"event","tick":)");
    w.integer(e.tick);
    w.lit(R"(,"seq":)");
    w.integer(e.seq);
    w.lit(R"(,"phase":")");
    w.view(phase_views[static_cast<std::size_t>(e.phase)]);
    w.lit(R"(","node":)");
    w.opt_string(e.node);
    w.lit(R"(,"run":)");
    if (e.run >= 0) {
        w.integer(e.run);
    } else {
        w.lit("null");
    }
    w.lit(R"(,"op":")");
    w.view(op_views[static_cast<std::size_t>(e.op)]);
    w.lit(R"(","token":)");
    w.opt_string(e.token);
    w.lit(R"(,"fencing":)");
    w.opt_int(e.fencing);
    w.lit(R"(,"slot":)");
    w.opt_int(e.slot);
    w.lit(R"(,"ttl":)");
    w.opt_int(e.ttl);
    w.lit(R"(,"outcome":)");
    w.opt_string(outcome_views[static_cast<std::size_t>(e.outcome)]);
    w.lit(R"(,"detail":)");
    w.detail(e);
    if (e.sent) {
        w.lit(R"(,"sent":)");
        w.integer(*e.sent);
    }
    if (e.applied) {
        w.lit(R"(,"applied":)");
        w.integer(*e.applied);
    }
    if (e.server) {
        w.lit(R"(,"server":)");
        w.integer(*e.server);
    }
    if (e.wall_us) {
        w.lit(R"(,"wall_us":)");
        w.integer(*e.wall_us);
    }
    w.lit("}");
}

}  // namespace

Event to_event(const EventView& v) {
    return Event{v.tick,
                 v.seq,
                 v.phase,
                 v.op,
                 std::string(v.node),
                 v.run,
                 Token(v.token),
                 v.fencing,
                 v.slot,
                 v.ttl,
                 v.outcome,
                 v.details,
                 v.overlap_count,
                 std::string(v.named_node),
                 v.clock_ms,
                 v.sent,
                 v.applied,
                 v.server,
                 v.wall_us};
}

EventView view_of(const Event& e) {
    return EventView{e.tick,     e.seq,  e.phase,   e.op,      e.node,    e.run,           e.token,
                     e.fencing,  e.slot, e.ttl,     e.outcome, e.details, e.overlap_count, e.named_node,
                     e.clock_ms, e.sent, e.applied, e.server,  e.wall_us};
}

void append_event_line(std::string& out, const Event& e) { append_event_line(out, view_of(e)); }

void append_event_line(std::string& out, const EventView& e) {
    if (!plain_ascii(e.node) || !plain_ascii(e.token) || !plain_ascii(e.named_node)) {
        append_event_line_slow(out, e);
        return;
    }
    const std::size_t room = 480 + details_bytes_max + e.node.size() + e.token.size() + e.named_node.size();
    // Most lines fit a buffer on the stack: written there and appended, the
    // line is copied once, where growing `out` first would also zero the room.
    constexpr std::size_t stack_room = 1024;
    if (room <= stack_room) {
        char buffer[stack_room];
        LineWriter w(buffer);
        write_event_line(w, e);
        out.append(buffer, w.end());
        return;
    }
    const std::size_t old = out.size();
    out.resize(old + room);
    LineWriter w(out.data() + old);
    write_event_line(w, e);
    out.resize(static_cast<std::size_t>(w.end() - out.data()));
}

namespace {

void append_event_line_slow(std::string& out, const EventView& e) {
    out += R"({"type":"event","tick":)";
    append_int(out, e.tick);
    out += R"(,"seq":)";
    append_int(out, e.seq);
    out += R"(,"phase":")";
    out += phase_views[static_cast<std::size_t>(e.phase)];
    out += R"(","node":)";
    append_opt_string(out, e.node);
    out += R"(,"run":)";
    if (e.run >= 0) {
        append_int(out, e.run);
    } else {
        out += "null";
    }
    out += R"(,"op":")";
    out += op_views[static_cast<std::size_t>(e.op)];
    out += R"(","token":)";
    append_opt_string(out, e.token);
    out += R"(,"fencing":)";
    append_opt_int(out, e.fencing);
    out += R"(,"slot":)";
    append_opt_int(out, e.slot);
    out += R"(,"ttl":)";
    append_opt_int(out, e.ttl);
    out += R"(,"outcome":)";
    append_opt_string(out, outcome_views[static_cast<std::size_t>(e.outcome)]);
    out += R"(,"detail":)";
    append_opt_string(out, detail_text(e));
    if (e.sent) {
        out += R"(,"sent":)";
        append_int(out, *e.sent);
    }
    if (e.applied) {
        out += R"(,"applied":)";
        append_int(out, *e.applied);
    }
    if (e.server) {
        out += R"(,"server":)";
        append_int(out, *e.server);
    }
    if (e.wall_us) {
        out += R"(,"wall_us":)";
        append_int(out, *e.wall_us);
    }
    out += '}';
}

}  // namespace

std::string event_line(const Event& e) {
    std::string out;
    append_event_line(out, e);
    return out;
}

// Written by hand in the bytes nlohmann's dump() gives for the ordered_json of
// the key order of docs/model.md §12 (as event lines are): a summary lists every run, and
// building a JSON value per run cost about 300 bytes and a few allocations
// each. Strings go through append_json_string, like event lines.
std::string summary_head(const TraceSummary& s) {
    std::string out;
    out += R"({"type":"summary","end_tick":)";
    append_int(out, s.end_tick);
    out += R"(,"results":[)";
    return out;
}

void append_summary_result(std::string& out, const RunSummary& r, bool first) {
    out += first ? R"({"node":)" : R"(,{"node":)";
    append_json_string(out, r.node);
    out += R"(,"run":)";
    append_int(out, r.run);
    out += R"(,"result":)";
    append_json_string(out, r.result);
    out += R"(,"fencing":)";
    append_opt_int(out, r.fencing);
    out += '}';
}

std::string summary_line(const TraceSummary& s) {
    std::string out = summary_head(s);
    out.reserve(160 + s.results.size() * 64);
    bool first = true;
    for (const RunSummary& r : s.results) {
        append_summary_result(out, r, first);
        first = false;
    }
    out += summary_tail(s);
    return out;
}

std::string summary_tail(const TraceSummary& s) {
    std::string out;
    out += R"(],"violations":{"overlap":)";
    append_int(out, s.violations.overlap);
    out += R"(,"unsafe_write":)";
    append_int(out, s.violations.unsafe_write);
    out += R"(,"fencing_regressed":)";
    append_int(out, s.violations.fencing_regressed);
    out += R"(,"stale_after_successor":)";
    append_int(out, s.violations.stale_after_successor);
    out += R"(,"holder_rejected":)";
    append_int(out, s.violations.holder_rejected);
    out += R"(,"fencing_duplicate":)";
    append_int(out, s.violations.fencing_duplicate);
    out += R"(},"events":)";
    append_int(out, s.events);
    out += R"(,"trace_sha256":)";
    append_json_string(out, s.trace_sha256);
    out += '}';
    return out;
}

std::string trace_to_jsonl(const Trace& trace) {
    std::string out = header_line(trace.header);
    out += '\n';
    for (const Event& e : trace.events) {
        append_event_line(out, e);
        out += '\n';
    }
    out += summary_line(trace.summary);
    out += '\n';
    return out;
}

}  // namespace leasescope::sim

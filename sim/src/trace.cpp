#include "leasescope/sim/trace.hpp"

#include <array>
#include <limits>
#include <type_traits>
#include <nlohmann/json.hpp>

#include <fmt/format.h>

#include "leasescope/sim/limits.hpp"

namespace leasescope::sim {
namespace {

using ordered_json = nlohmann::ordered_json;

constexpr std::array<const char*, 7> phase_names = {"faults", "expiry", "work", "extend",
                                                    "acquire", "ops", "check"};
constexpr std::array<const char*, 17> op_names = {
    "pause", "resume", "crash", "partition", "heal", "failover", "expire", "write", "release",
    "extend", "start", "acquire", "skip", "status", "validate", "overlap_begin", "overlap_end"};
constexpr std::array<const char*, 17> outcome_names = {
    "", "expired", "accepted", "rejected", "released", "kept", "not_owner", "error", "renewed",
    "lost", "acquired", "busy", "skipped", "held", "vacant", "current", "stale"};
static_assert(static_cast<std::size_t>(EventOp::overlap_end) + 1 == op_names.size());
static_assert(static_cast<std::size_t>(Outcome::stale) + 1 == outcome_names.size());

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
std::optional<Outcome> outcome_from_string(std::string_view s) {
    return from_names<Outcome>(outcome_names, s, 1);
}

std::string header_line(const TraceHeader& h) {
    ordered_json j;
    j["type"] = "header";
    j["format"] = trace_format;
    j["scenario"] = h.scenario;
    j["seed"] = h.seed;
    j["tick_ms"] = h.tick_ms;
    j["lock"] = h.lock;
    j["capacity"] = h.capacity;
    j["candidates"] = h.candidates;
    return j.dump();
}

void append_event_line(std::string& out, const Event& e) {
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
    append_opt_string(out, e.detail);
    out += '}';
}

std::string event_line(const Event& e) {
    std::string out;
    append_event_line(out, e);
    return out;
}

// Written by hand in the bytes nlohmann's dump() gives for the ordered_json of
// DESIGN's key order (as event lines are): a summary lists every run, and
// building a JSON value per run cost about 300 bytes and a few allocations
// each. Strings go through append_json_string, like event lines.
std::string summary_line(const TraceSummary& s) {
    std::string out;
    out.reserve(160 + s.results.size() * 64);
    out += R"({"type":"summary","end_tick":)";
    append_int(out, s.end_tick);
    out += R"(,"results":[)";
    bool first = true;
    for (const RunSummary& r : s.results) {
        out += first ? R"({"node":)" : R"(,{"node":)";
        first = false;
        append_json_string(out, r.node);
        out += R"(,"run":)";
        append_int(out, r.run);
        out += R"(,"result":)";
        append_json_string(out, r.result);
        out += R"(,"fencing":)";
        append_opt_int(out, r.fencing);
        out += '}';
    }
    out += R"(],"violations":{"overlap":)";
    append_int(out, s.violations.overlap);
    out += R"(,"unsafe_write":)";
    append_int(out, s.violations.unsafe_write);
    out += R"(,"fencing_regressed":)";
    append_int(out, s.violations.fencing_regressed);
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

std::string TraceError::to_string() const {
    if (line > 0) return fmt::format("{}:{}: {}", file, line, message);
    return fmt::format("{}: {}", file, message);
}

// ---- Reader ----

namespace {

struct LineError {
    std::string message;
};

// Expects exactly these keys, in this order.
std::optional<LineError> check_keys(const ordered_json& j, std::initializer_list<const char*> keys) {
    if (!j.is_object()) return LineError{"expected a JSON object"};
    auto it = j.begin();
    for (const char* key : keys) {
        if (it == j.end()) return LineError{fmt::format("missing key \"{}\"", key)};
        if (it.key() != key) return LineError{fmt::format("expected key \"{}\", found \"{}\"", key, it.key())};
        ++it;
    }
    if (it != j.end()) return LineError{fmt::format("unexpected key \"{}\"", it.key())};
    return std::nullopt;
}

// An integer in [lo, hi], checked before it is narrowed to T: a slot of 2^32
// must not wrap to 0, nor a tick of 2^63 to a negative number.
template <class T>
std::optional<LineError> get_int(const ordered_json& j, const char* key, T& out, bool nullable, bool& was_null,
                                 std::int64_t lo, std::int64_t hi) {
    static_assert(std::is_signed_v<T>);
    LS_ASSERT(lo <= hi);
    LS_ASSERT(hi >= 0);
    LS_ASSERT(hi <= static_cast<std::int64_t>(std::numeric_limits<T>::max()));
    const auto& v = j.at(key);
    was_null = v.is_null();
    if (was_null) {
        if (nullable) return std::nullopt;
        return LineError{fmt::format("\"{}\" must be an integer, not null", key)};
    }
    if (!v.is_number_integer()) return LineError{fmt::format("\"{}\" must be an integer", key)};
    bool in_range = false;
    if (v.is_number_unsigned()) {
        in_range = v.get<std::uint64_t>() <= static_cast<std::uint64_t>(hi) &&
                   (lo <= 0 || v.get<std::uint64_t>() >= static_cast<std::uint64_t>(lo));
    } else {
        const std::int64_t i = v.get<std::int64_t>();
        in_range = i >= lo && i <= hi;
    }
    if (!in_range)
        return LineError{fmt::format("\"{}\" is {}; expected an integer from {} to {}", key, v.dump(), lo, hi)};
    out = static_cast<T>(v.get<std::int64_t>());
    return std::nullopt;
}

std::optional<LineError> get_string(const ordered_json& j, const char* key, std::string& out, bool nullable,
                                    std::int64_t length_max) {
    const auto& v = j.at(key);
    if (v.is_null() && nullable) {
        out.clear();
        return std::nullopt;
    }
    if (!v.is_string()) return LineError{fmt::format("\"{}\" must be a string{}", key, nullable ? " or null" : "")};
    const auto& text = v.get_ref<const std::string&>();
    if (static_cast<std::int64_t>(text.size()) > length_max)
        return LineError{fmt::format("\"{}\" is {} bytes long; at most {}", key, text.size(), length_max)};
    out = text;
    if (out.empty() && nullable) return LineError{fmt::format("\"{}\" must not be empty (use null)", key)};
    return std::nullopt;
}

// The shape of a line, from a scan of its bytes before it is parsed: arrays
// and objects nested deeper than json_depth_max (a trace line nests 3 deep),
// or an object with more than json_object_keys_max keys (the reader's ordered
// objects look keys up one by one: 40,000 keys in one line took a fuzzer's
// input past 10 s), or more than json_values_max values (an array of 8
// million numbers asked for a 256 MB block; a real line within
// trace_bytes_max has far fewer).
std::optional<std::string> line_shape_error(std::string_view line) {
    std::array<std::int64_t, limits::json_depth_max + 1> keys{};
    std::int64_t depth = 0;
    std::int64_t separators = 0;
    bool in_string = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (in_string) {
            if (c == '\\') ++i;
            else if (c == '"') in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++depth > limits::json_depth_max)
                return fmt::format("arrays and objects nested more than {} deep (json_depth_max)",
                                   limits::json_depth_max);
            keys[static_cast<std::size_t>(depth)] = 0;
        } else if (c == ']' || c == '}') {
            if (depth > 0) --depth;
        } else if (c == ',') {
            if (++separators >= limits::json_values_max)
                return fmt::format("more than {} values in one line (json_values_max)", limits::json_values_max);
        } else if (c == ':') {
            if (++keys[static_cast<std::size_t>(depth)] > limits::json_object_keys_max)
                return fmt::format("an object with more than {} keys (json_object_keys_max)",
                                   limits::json_object_keys_max);
        }
    }
    return std::nullopt;
}

std::optional<LineError> read_header(const ordered_json& j, TraceHeader& h) {
    if (auto e = check_keys(j, {"type", "format", "scenario", "seed", "tick_ms", "lock", "capacity", "candidates"}))
        return e;
    if (j["type"] != "header") return LineError{"line 1 must be the header (\"type\":\"header\")"};
    if (j["format"] != trace_format)
        return LineError{fmt::format("unsupported format; expected \"{}\"", trace_format)};
    bool null = false;
    if (auto e = get_string(j, "scenario", h.scenario, false, limits::name_length_max)) return e;
    if (!j["seed"].is_number_unsigned() && !(j["seed"].is_number_integer() && j["seed"].get<std::int64_t>() >= 0))
        return LineError{"\"seed\" must be a non-negative integer"};
    h.seed = j["seed"].get<std::uint64_t>();
    if (auto e = get_int(j, "tick_ms", h.tick_ms, false, null, limits::tick_ms_min, limits::tick_ms_max)) return e;
    if (auto e = get_string(j, "lock", h.lock, false, limits::name_length_max)) return e;
    if (auto e = get_int(j, "capacity", h.capacity, false, null, 1, limits::capacity_max)) return e;
    if (!j["candidates"].is_array()) return LineError{"\"candidates\" must be an array of names"};
    if (static_cast<std::int64_t>(j["candidates"].size()) > limits::candidates_max)
        return LineError{fmt::format("\"candidates\" has {} names; at most {}", j["candidates"].size(),
                                     limits::candidates_max)};
    for (const auto& c : j["candidates"]) {
        if (!c.is_string() || static_cast<std::int64_t>(c.get_ref<const std::string&>().size()) > limits::name_length_max)
            return LineError{fmt::format("\"candidates\" must be an array of names of at most {} bytes",
                                         limits::name_length_max)};
        h.candidates.push_back(c.get<std::string>());
    }
    return std::nullopt;
}

std::optional<LineError> read_event(const ordered_json& j, Event& e) {
    if (auto err = check_keys(j, {"type", "tick", "seq", "phase", "node", "run", "op", "token", "fencing", "slot",
                                  "ttl", "outcome", "detail"}))
        return err;
    bool null = false;
    if (auto err = get_int(j, "tick", e.tick, false, null, 0, limits::horizon_max)) return err;
    if (auto err = get_int(j, "seq", e.seq, false, null, 0, limits::trace_events_max - 1)) return err;
    std::string s;
    if (auto err = get_string(j, "phase", s, false, limits::name_length_max)) return err;
    auto phase = phase_from_string(s);
    if (!phase) return LineError{fmt::format("unknown phase \"{}\"", s)};
    e.phase = *phase;
    if (auto err = get_string(j, "node", e.node, true, limits::name_length_max)) return err;
    if (auto err = get_int(j, "run", e.run, true, null, 0, limits::runs_max - 1)) return err;
    if (null) e.run = -1;
    if (auto err = get_string(j, "op", s, false, limits::name_length_max)) return err;
    auto op = op_from_string(s);
    if (!op) return LineError{fmt::format("unknown op \"{}\"", s)};
    e.op = *op;
    if (auto err = get_string(j, "token", e.token, true, limits::token_length_max)) return err;
    Fencing fencing = 0;
    if (auto err = get_int(j, "fencing", fencing, true, null, 1, limits::fencing_max)) return err;
    if (!null) e.fencing = fencing;
    SlotIndex slot = 0;
    if (auto err = get_int(j, "slot", slot, true, null, 0, limits::capacity_max - 1)) return err;
    if (!null) e.slot = slot;
    Tick ttl = 0;
    if (auto err = get_int(j, "ttl", ttl, true, null, 0, limits::duration_max)) return err;
    if (!null) e.ttl = ttl;
    if (auto err = get_string(j, "outcome", s, true, limits::name_length_max)) return err;
    if (s.empty()) {
        e.outcome = Outcome::none;
    } else {
        auto outcome = outcome_from_string(s);
        if (!outcome) return LineError{fmt::format("unknown outcome \"{}\"", s)};
        e.outcome = *outcome;
    }
    if (auto err = get_string(j, "detail", e.detail, true, limits::detail_length_max)) return err;
    return std::nullopt;
}

std::optional<LineError> read_summary(const ordered_json& j, TraceSummary& s) {
    if (auto err = check_keys(j, {"type", "end_tick", "results", "violations", "events", "trace_sha256"})) return err;
    bool null = false;
    if (auto err = get_int(j, "end_tick", s.end_tick, false, null, 0, limits::horizon_max)) return err;
    if (!j["results"].is_array()) return LineError{"\"results\" must be an array"};
    if (static_cast<std::int64_t>(j["results"].size()) > limits::runs_total_max)
        return LineError{fmt::format("\"results\" has {} entries; at most {}", j["results"].size(),
                                     limits::runs_total_max)};
    for (const auto& r : j["results"]) {
        if (auto err = check_keys(r, {"node", "run", "result", "fencing"}))
            return LineError{"in \"results\": " + err->message};
        RunSummary rs;
        if (auto err = get_string(r, "node", rs.node, false, limits::name_length_max)) return err;
        if (auto err = get_int(r, "run", rs.run, false, null, 0, limits::runs_max - 1)) return err;
        if (auto err = get_string(r, "result", rs.result, false, limits::name_length_max)) return err;
        Fencing f = 0;
        if (auto err = get_int(r, "fencing", f, true, null, 1, limits::fencing_max)) return err;
        if (!null) rs.fencing = f;
        s.results.push_back(std::move(rs));
    }
    const auto& v = j["violations"];
    if (auto err = check_keys(v, {"overlap", "unsafe_write", "fencing_regressed"}))
        return LineError{"in \"violations\": " + err->message};
    if (auto err = get_int(v, "overlap", s.violations.overlap, false, null, 0, limits::trace_events_max)) return err;
    if (auto err = get_int(v, "unsafe_write", s.violations.unsafe_write, false, null, 0, limits::trace_events_max)) return err;
    if (auto err = get_int(v, "fencing_regressed", s.violations.fencing_regressed, false, null, 0, limits::trace_events_max)) return err;
    if (auto err = get_int(j, "events", s.events, false, null, 0, limits::trace_events_max)) return err;
    if (auto err = get_string(j, "trace_sha256", s.trace_sha256, false, 64)) return err;
    return std::nullopt;
}

}  // namespace

Result<Trace, TraceError> parse_trace(std::string_view text, const std::string& file) {
    Trace trace;
    TraceHasher hasher;
    std::int64_t line_no = 0;
    bool have_summary = false;
    std::size_t pos = 0;
    auto fail = [&](std::string message) { return Err{TraceError{file, line_no, std::move(message)}}; };
    if (static_cast<std::int64_t>(text.size()) > limits::trace_bytes_max)
        return fail(fmt::format("the file is larger than {} bytes (trace_bytes_max)", limits::trace_bytes_max));
    while (pos < text.size()) {
        const std::size_t end = text.find('\n', pos);
        if (end == std::string_view::npos) {
            ++line_no;
            return fail("the last line has no newline (truncated file?)");
        }
        const std::string_view line = text.substr(pos, end - pos);
        pos = end + 1;
        ++line_no;
        if (have_summary) return fail("text after the summary line");
        if (const std::size_t nul = line.find('\0'); nul != std::string_view::npos)
            return fail(fmt::format("a NUL byte (\\0) at column {}: a trace is text", nul + 1));
        if (auto shape = line_shape_error(line)) return fail(*shape);
        ordered_json j;
        try {
            j = ordered_json::parse(line);
        } catch (const nlohmann::json::parse_error& e) {
            return fail(fmt::format("not valid JSON at column {}: expected one compact JSON object per line",
                                    e.byte));
        } catch (const nlohmann::json::exception&) {
            // Valid syntax the reader cannot hold, such as a number too large
            // for a double (found by the trace fuzzer).
            return fail("a value out of range: expected one compact JSON object per line");
        }
        if (!j.is_object() || !j.contains("type") || !j["type"].is_string())
            return fail("expected a JSON object with a \"type\"");
        const std::string type = j["type"].get<std::string>();
        std::optional<LineError> err;
        if (line_no == 1) {
            if (type != "header") return fail("line 1 must be the header (\"type\":\"header\")");
            err = read_header(j, trace.header);
        } else if (type == "event") {
            Event e;
            err = read_event(j, e);
            if (!err && e.seq != static_cast<std::int64_t>(trace.events.size()))
                err = LineError{fmt::format("seq {} out of order; expected {}", e.seq, trace.events.size())};
            if (!err && e.slot && *e.slot >= trace.header.capacity)
                err = LineError{fmt::format("\"slot\" is {}; the lock has {} slot{}", *e.slot, trace.header.capacity,
                                            trace.header.capacity == 1 ? "" : "s")};
            if (!err && !trace.events.empty() && e.tick < trace.events.back().tick)
                err = LineError{fmt::format("tick {} goes backwards (previous event at {})", e.tick,
                                            trace.events.back().tick)};
            if (!err) trace.events.push_back(std::move(e));
        } else if (type == "summary") {
            err = read_summary(j, trace.summary);
            have_summary = true;
        } else {
            return fail(fmt::format("unknown line type \"{}\"; expected event or summary", type));
        }
        if (err) return fail(err->message);
        // Canonical bytes: what we write back must be what we read.
        if (j.dump() != line) return fail("not in canonical form (compact JSON, keys in the documented order)");
        if (type == "event") hasher.add_line(line);
    }
    if (line_no == 0) return fail("empty file: expected a header line");
    if (!have_summary) return fail("no summary line (truncated file?)");
    if (trace.summary.events != static_cast<std::int64_t>(trace.events.size()))
        return fail(fmt::format("the summary counts {} events, the file has {}", trace.summary.events,
                                trace.events.size()));
    const std::string hex = hasher.hex();
    if (hex != trace.summary.trace_sha256)
        return fail(fmt::format("trace_sha256 does not match the event lines (computed {})", hex));
    return trace;
}

// ---- Text ----

namespace {

std::string short_token(const std::string& token) {
    if (token.size() <= 8) return token;
    return token.substr(0, 7) + "…";
}

bool has_detail(const Event& e, std::string_view item) {
    std::size_t pos = 0;
    while (pos <= e.detail.size()) {
        std::size_t comma = e.detail.find(',', pos);
        if (comma == std::string::npos) comma = e.detail.size();
        if (std::string_view(e.detail).substr(pos, comma - pos) == item) return true;
        pos = comma + 1;
    }
    return false;
}

// The Outcome column in words, with a leading "!" on anything a reader must
// not miss: stale holders, rejected releases and writes, violations.
std::string outcome_words(const Event& e) {
    const std::string slot = e.slot ? fmt::format(" slot {}", *e.slot) : "";
    switch (e.op) {
        case EventOp::pause: return "paused (stop-the-world)";
        case EventOp::resume: return "resumed";
        case EventOp::crash: return "crashed: stops for good, releases nothing";
        case EventOp::partition: return fmt::format("partitioned from the store ({})", e.detail);
        case EventOp::heal: return "partition healed";
        case EventOp::failover: return fmt::format("failover: replica takes over, lost {}", e.detail);
        case EventOp::expire: return fmt::format("lease expired,{} vacant", slot);
        case EventOp::start: return fmt::format("run {} starts with a new token", e.run);
        case EventOp::skip: return "skipped: gives up waiting, the action is not called";
        case EventOp::acquire:
            if (e.outcome == Outcome::acquired)
                return fmt::format("acquired{}{}", slot, has_detail(e, "fencing_regressed") ? "  ! FENCING REGRESSED" : "");
            if (e.outcome == Outcome::busy)
                return has_detail(e, "hold_off") ? "busy: hold-off after a release" : "busy: held by another";
            if (has_detail(e, "reply_lost"))
                return fmt::format("! error: reply lost, lease applied in{} (orphan){}", slot,
                                   has_detail(e, "fencing_regressed") ? ", FENCING REGRESSED" : "");
            return "error: store unreachable";
        case EventOp::write: {
            std::string s = e.outcome == Outcome::accepted ? "write accepted" : "! write REJECTED";
            if (has_detail(e, "unsafe_write")) s = "! write accepted: UNSAFE (older fencing than accepted)";
            if (has_detail(e, "stale")) s = (s[0] == '!' ? "" : "! ") + s + " (STALE holder)";
            return s;
        }
        case EventOp::release:
            switch (e.outcome) {
                case Outcome::released: return fmt::format("released{}", slot);
                case Outcome::kept: return fmt::format("kept{} for min_lease", slot);
                case Outcome::not_owner: return "! release REJECTED: stale token";
                default: return "error: store unreachable, record left to expire";
            }
        case EventOp::extend:
            switch (e.outcome) {
                case Outcome::renewed: return fmt::format("renewed{}", slot);
                case Outcome::lost: return "! lost: lease already gone, watchdog stops";
                default: return "error: store unreachable (retried)";
            }
        case EventOp::status: return e.outcome == Outcome::held ? "status: held" : "status: vacant";
        case EventOp::validate: return fmt::format("validate({}): {}", e.detail, to_string(e.outcome));
        case EventOp::overlap_begin: return fmt::format("! OVERLAP: {} nodes executing", e.detail);
        case EventOp::overlap_end: return "overlap ends";
    }
    return "";
}

std::string or_dash(const std::optional<std::int64_t>& v) { return v ? std::to_string(*v) : "-"; }

}  // namespace

std::string text_table_header() {
    return fmt::format("{:>5}  {:<12} {:<13} {:<9} {:>7} {:>4}  {}", "Tick", "Candidate", "Operation", "Token",
                       "Fencing", "TTL", "Outcome");
}

std::string text_row(const Event& e) {
    std::optional<std::int64_t> fencing, ttl;
    if (e.fencing) fencing = *e.fencing;
    if (e.ttl) ttl = *e.ttl;
    return fmt::format("{:>5}  {:<12} {:<13} {:<9} {:>7} {:>4}  {}", e.tick, e.node.empty() ? "-" : e.node,
                       to_string(e.op), e.token.empty() ? "-" : short_token(e.token), or_dash(fencing),
                       or_dash(ttl), outcome_words(e));
}

std::string trace_to_text(const Trace& trace) {
    std::string out = fmt::format("{} (seed {}, lock {}, {} slot{}, tick {} ms)\n", trace.header.scenario,
                                  trace.header.seed, trace.header.lock, trace.header.capacity,
                                  trace.header.capacity == 1 ? "" : "s", trace.header.tick_ms);
    out += text_table_header();
    out += '\n';
    for (const Event& e : trace.events) {
        out += text_row(e);
        out += '\n';
    }
    const TraceSummary& s = trace.summary;
    out += fmt::format("\nended at tick {}; {} events; sha256 {}\n", s.end_tick, s.events, s.trace_sha256);
    for (const RunSummary& r : s.results) {
        out += fmt::format("  {:<12} run {}  {:<15} fencing {}\n", r.node, r.run, r.result,
                           r.fencing ? std::to_string(*r.fencing) : "-");
    }
    out += fmt::format("violations: overlap {}, unsafe_write {}, fencing_regressed {}\n", s.violations.overlap,
                       s.violations.unsafe_write, s.violations.fencing_regressed);
    return out;
}

// ---- Diff ----

std::optional<Divergence> first_divergence(const Trace& a, const Trace& b, bool ignore_tokens, int context) {
    // A header difference (two scenarios, say) is reported, but the events are
    // still compared: the first divergent event is what a reader wants.
    std::string header_note;
    if (!(a.header == b.header)) {
        header_note = fmt::format("headers differ:\n  A {}\n  B {}\n", header_line(a.header), header_line(b.header));
    }
    auto same = [&](const Event& x, const Event& y) {
        if (!ignore_tokens) return x == y;
        Event xc = x, yc = y;
        xc.token = yc.token = "";
        return xc == yc;
    };
    const std::size_t n = std::min(a.events.size(), b.events.size());
    std::size_t i = 0;
    while (i < n && same(a.events[i], b.events[i])) ++i;
    if (i < n || a.events.size() != b.events.size()) {
        std::string d = header_note + fmt::format("first divergence at event {}", i);
        const Event* at = i < a.events.size() ? &a.events[i] : (i < b.events.size() ? &b.events[i] : nullptr);
        if (at != nullptr) d += fmt::format(" (tick {}, phase {})", at->tick, to_string(at->phase));
        d += ":\n";
        const std::size_t from = i >= static_cast<std::size_t>(context) ? i - static_cast<std::size_t>(context) : 0;
        for (std::size_t k = from; k < i; ++k) d += "    " + text_row(a.events[k]) + "\n";
        d += i < a.events.size() ? "  A " + text_row(a.events[i]) + "\n" : "  A (no more events)\n";
        d += i < b.events.size() ? "  B " + text_row(b.events[i]) + "\n" : "  B (no more events)\n";
        d += i < a.events.size() ? "  A " + event_line(a.events[i]) + "\n" : "";
        d += i < b.events.size() ? "  B " + event_line(b.events[i]) + "\n" : "";
        return Divergence{static_cast<std::int64_t>(i), d};
    }
    TraceSummary sa = a.summary, sb = b.summary;
    if (ignore_tokens) sa.trace_sha256 = sb.trace_sha256 = "";
    if (!(sa == sb)) {
        return Divergence{static_cast<std::int64_t>(n),
                          header_note + fmt::format("the events agree, the summaries differ:\n  A {}\n  B {}",
                                                    summary_line(a.summary), summary_line(b.summary))};
    }
    if (!header_note.empty()) return Divergence{-1, header_note + "the events and summaries agree"};
    return std::nullopt;
}

}  // namespace leasescope::sim

// The trace reader: reads a JSONL trace back and checks every line's shape,
// ranges and order, the event count and the SHA-256 of the event lines.
#include <array>
#include <limits>
#include <type_traits>
#include <nlohmann/json.hpp>

#include <fmt/format.h>

#include "leasescope/sim/limits.hpp"
#include "leasescope/sim/trace.hpp"
#include "trace_line_scan.hpp"

namespace leasescope::sim {
namespace {
using ordered_json = nlohmann::ordered_json;
}  // namespace

std::string TraceError::to_string() const {
    if (line > 0) return fmt::format("{}:{}: {}", file, line, message);
    return fmt::format("{}: {}", file, message);
}

namespace {

struct LineError {
    std::string message;
};

// Expects exactly these keys, in this order.
template <class Keys>
std::optional<LineError> check_keys_in(const ordered_json& j, const Keys& keys) {
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
std::optional<LineError> check_keys(const ordered_json& j, std::initializer_list<const char*> keys) {
    return check_keys_in(j, keys);
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

// An event line's fields as the general reader sees them: a JSON object,
// whose keys are checked first, in order.
struct JsonFields {
    const ordered_json& j;
    std::optional<LineError> check_keys() const {
        // The keys of §12.1 in order, then the optional trailing ones present, in their order.
        std::vector<const char*> keys = {"type",  "tick",    "seq",  "phase", "node",    "run",   "op",
                                         "token", "fencing", "slot", "ttl",   "outcome", "detail"};
        for (const char* key : {"sent", "applied", "server", "wall_us"}) {
            if (j.is_object() && j.contains(key)) keys.push_back(key);
        }
        return check_keys_in(j, keys);
    }
    bool contains(const char* key) const { return j.contains(key); }
    template <class T>
    std::optional<LineError> get_int(const char* key, T& out, bool nullable, bool& was_null, std::int64_t lo,
                                     std::int64_t hi) const {
        return sim::get_int(j, key, out, nullable, was_null, lo, hi);
    }
    std::optional<LineError> get_string(const char* key, std::string& out, bool nullable,
                                        std::int64_t length_max) const {
        return sim::get_string(j, key, out, nullable, length_max);
    }
};

// The same fields from the fast path's scan (trace_line_scan.hpp): keys in
// order and values of their kind already. The same checks as get_int and
// get_string; their errors carry no message, since a line the fast path
// refuses is read again by the general reader, which names what is wrong.
struct ScannedFields {
    const trace_scan::ScannedEvent& scanned;
    static std::optional<LineError> check_keys() { return std::nullopt; }
    const trace_scan::Field& at(const char* key) const {
        const auto k = trace_scan::key_of(key);
        LS_ASSERT(k.has_value());
        return scanned[*k];
    }
    bool contains(const char* key) const { return at(key).kind != trace_scan::Field::Kind::absent; }
    template <class T>
    std::optional<LineError> get_int(const char* key, T& out, bool nullable, bool& was_null, std::int64_t lo,
                                     std::int64_t hi) const {
        const auto& f = at(key);
        was_null = f.kind == trace_scan::Field::Kind::null;
        if (was_null) return nullable ? std::nullopt : std::optional<LineError>(LineError{});
        if (f.kind != trace_scan::Field::Kind::integer || f.integer < lo || f.integer > hi) return LineError{};
        out = static_cast<T>(f.integer);
        return std::nullopt;
    }
    std::optional<LineError> get_string(const char* key, std::string& out, bool nullable,
                                        std::int64_t length_max) const {
        const auto& f = at(key);
        if (f.kind == trace_scan::Field::Kind::null && nullable) {
            out.clear();
            return std::nullopt;
        }
        if (f.kind != trace_scan::Field::Kind::string) return LineError{};
        if (static_cast<std::int64_t>(f.text.size()) > length_max || (f.text.empty() && nullable)) return LineError{};
        out.assign(f.text);
        return std::nullopt;
    }
};

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
            if (c == '\\')
                ++i;
            else if (c == '"')
                in_string = false;
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

// The format a file was written in (model.md §12.1 items 4 to 6): 1 has
// neither the three safety counters nor their detail words; 3 adds to 2 what
// a store with replicas writes (§17.7); 4 adds to 3 what an imported history
// writes (§19.7).
using FormatVersion = int;

std::string_view format_name(FormatVersion version) {
    switch (version) {
        case 1: return trace_format_1;
        case 3: return trace_format_3;
        case 4: return trace_format_4;
        case 5: return trace_format_5;
        case 6: return trace_format_6;
        default: return trace_format;
    }
}

// What format 4 adds (model.md §19.7): refused in an older file, naming what
// that format lacks.
std::optional<LineError> only_in_format_4(FormatVersion version, const char* what, std::string_view word) {
    if (version == 4) return std::nullopt;
    return LineError{
        fmt::format("{} \"{}\" is not in format \"{}\"; an imported history writes \"{}\" (model.md "
                    "§19.7)",
                    what, word, format_name(version), trace_format_4)};
}

std::optional<LineError> read_format(const ordered_json& j, FormatVersion& version) {
    if (!j.is_object() || !j.contains("format")) return std::nullopt;  // check_keys names the missing key
    if (j["format"] == trace_format_1) {
        version = 1;
    } else if (j["format"] == trace_format) {
        version = 2;
    } else if (j["format"] == trace_format_3) {
        version = 3;
    } else if (j["format"] == trace_format_4) {
        version = 4;
    } else if (j["format"] == trace_format_5) {
        version = 5;
    } else if (j["format"] == trace_format_6) {
        version = 6;
    } else {
        return LineError{
            fmt::format("unsupported format; expected \"{}\", \"{}\", \"{}\", \"{}\", \"{}\" (or the older \"{}\")",
                        trace_format, trace_format_3, trace_format_4, trace_format_5, trace_format_6, trace_format_1)};
    }
    return std::nullopt;
}

// One of the header's import sources: {"file","kind","lines","used"}.
std::optional<LineError> read_import_source(const ordered_json& j, ImportInfo::Source& src) {
    if (auto e = check_keys(j, {"file", "kind", "lines", "used"})) return LineError{"in \"sources\": " + e->message};
    bool null = false;
    if (auto e = get_string(j, "file", src.file, false, limits::name_length_max)) return e;
    if (auto e = get_string(j, "kind", src.kind, false, limits::name_length_max)) return e;
    if (src.kind != "capture" && src.kind != "log")
        return LineError{fmt::format("\"kind\" is \"{}\"; expected \"capture\" or \"log\"", src.kind)};
    constexpr std::int64_t lines_max = std::numeric_limits<std::int64_t>::max();
    if (auto e = get_int(j, "lines", src.lines, false, null, 0, lines_max)) return e;
    if (auto e = get_int(j, "used", src.used, false, null, 0, src.lines)) return e;
    return std::nullopt;
}

// The header's `import` object of a /4 trace (model.md §19.7.1).
std::optional<LineError> read_import(const ordered_json& j, ImportInfo& info) {
    if (auto e = check_keys(j, {"origin_us", "lock_key", "sources", "ignored"}))
        return LineError{"in \"import\": " + e->message};
    bool null = false;
    constexpr std::int64_t us_max = std::numeric_limits<std::int64_t>::max();
    if (auto e = get_int(j, "origin_us", info.origin_us, false, null, 0, us_max)) return e;
    if (auto e = get_string(j, "lock_key", info.lock_key, false, limits::name_length_max)) return e;
    if (!j["sources"].is_array() || j["sources"].empty())
        return LineError{"\"sources\" must be an array of at least one {\"file\",\"kind\",\"lines\",\"used\"}"};
    for (const auto& one : j["sources"]) {
        ImportInfo::Source src;
        if (auto e = read_import_source(one, src)) return e;
        info.sources.push_back(std::move(src));
    }
    if (info.sources.front().kind != "capture") return LineError{"the first of \"sources\" must be a capture"};
    return get_int(j, "ignored", info.ignored, false, null, 0, us_max);
}

// The header's `stores` of a /5 trace (model.md §20.8): 1 to stores_max names.
std::optional<LineError> read_stores(const ordered_json& v, TraceHeader& h) {
    if (!v.is_array() || v.empty() || static_cast<std::int64_t>(v.size()) > limits::stores_max)
        return LineError{fmt::format("\"stores\" must be an array of 1 to {} names", limits::stores_max)};
    for (const auto& name : v) {
        if (!name.is_string() || name.get_ref<const std::string&>().empty() ||
            static_cast<std::int64_t>(name.get_ref<const std::string&>().size()) > limits::name_length_max)
            return LineError{
                fmt::format("\"stores\" must be an array of names of 1 to {} bytes", limits::name_length_max)};
        h.stores.push_back(name.get<std::string>());
    }
    return std::nullopt;
}

std::optional<LineError> read_header(const ordered_json& j, TraceHeader& h, FormatVersion& version) {
    if (auto e = read_format(j, version)) return e;
    if (version != 4 && j.is_object() && j.contains("import"))
        if (auto e = only_in_format_4(version, "the key", "import")) return e;
    if (version != 5 && j.is_object() && j.contains("stores"))
        return LineError{
            fmt::format("the key \"stores\" is not in format \"{}\"; a Redlock scenario writes \"{}\" "
                        "(model.md §20.8)",
                        format_name(version), trace_format_5)};
    if (version == 4) {
        if (auto e = check_keys(
                j, {"type", "format", "scenario", "seed", "tick_ms", "lock", "capacity", "candidates", "import"}))
            return e;
    } else if (version == 5) {
        if (auto e = check_keys(
                j, {"type", "format", "scenario", "seed", "tick_ms", "lock", "capacity", "candidates", "stores"}))
            return e;
    } else if (version == 6) {
        if (auto e = check_keys(
                j, {"type", "format", "scenario", "seed", "tick_ms", "lock", "capacity", "candidates", "client"}))
            return e;
        if (j["client"] != "redisson") return LineError{"\"client\" must be \"redisson\" (model.md §21.9)"};
    } else if (auto e =
                   check_keys(j, {"type", "format", "scenario", "seed", "tick_ms", "lock", "capacity", "candidates"})) {
        return e;
    }
    if (j["type"] != "header") return LineError{"line 1 must be the header (\"type\":\"header\")"};
    h.format = version == 1 ? 2 : version;  // a /1 file's events are /2 events
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
        return LineError{
            fmt::format("\"candidates\" has {} names; at most {}", j["candidates"].size(), limits::candidates_max)};
    for (const auto& c : j["candidates"]) {
        if (!c.is_string() ||
            static_cast<std::int64_t>(c.get_ref<const std::string&>().size()) > limits::name_length_max)
            return LineError{
                fmt::format("\"candidates\" must be an array of names of at most {} bytes", limits::name_length_max)};
        h.candidates.push_back(c.get<std::string>());
    }
    if (version == 4) {
        h.import.emplace();
        return read_import(j["import"], *h.import);
    }
    if (version == 5) return read_stores(j["stores"], h);
    return std::nullopt;
}

// A word added with format 3 (model.md §17.7).
bool is_replica_word(Detail d) { return d == Detail::no_replicas; }
// The words added with format 4 (model.md §19.7.1): a belief's, then an
// undecided event's.
bool is_import_word(Detail d) { return static_cast<std::size_t>(d) >= detail_words_3; }
bool is_belief_word(Detail d) { return d >= Detail::acquired && d <= Detail::inferred; }

// The detail words of a format, for the error that names an unknown one.
std::string detail_word_list(int version) {
    std::string out;
    for (std::size_t i = 0; i < detail_words; ++i) {
        if (version < 3 && is_replica_word(static_cast<Detail>(i))) continue;
        if (version != 4 && is_import_word(static_cast<Detail>(i))) continue;
        if (!out.empty()) out += ", ";
        out += to_string(static_cast<Detail>(i));
    }
    return out;
}

// The overlap count: a whole number from 2 (an overlap has more nodes
// executing than the capacity, at least 1) to candidates_max, in canonical
// decimal so that writing it again gives the same bytes.
std::optional<LineError> read_overlap_count(std::string_view text, Event& e) {
    std::int64_t n = 0;
    bool ok = !text.empty() && text.size() <= 6 && text[0] != '0';
    for (const char c : text) {
        if (c < '0' || c > '9') ok = false;
        if (ok) n = n * 10 + (c - '0');
    }
    if (!ok || n < 2 || n > limits::candidates_max)
        return LineError{fmt::format(
            "\"detail\" of overlap_begin is \"{}\"; expected how many nodes execute, a whole number from 2 to {}", text,
            limits::candidates_max)};
    e.overlap_count = n;
    return std::nullopt;
}

// The step of a clock_jump (model.md §12.3): signed decimal milliseconds in
// canonical form, not 0, at most clock_jump_ms_max either way.
std::optional<LineError> read_clock_ms(std::string_view text, Event& e) {
    const bool negative = !text.empty() && text[0] == '-';
    const std::string_view digits = negative ? text.substr(1) : text;
    std::int64_t n = 0;
    bool ok = !digits.empty() && digits.size() <= 13 && digits[0] != '0';
    for (const char c : digits) {
        if (c < '0' || c > '9') ok = false;
        if (ok) n = n * 10 + (c - '0');
    }
    if (!ok || n > limits::clock_jump_ms_max)
        return LineError{
            fmt::format("\"detail\" of clock_jump is \"{}\"; expected the step in milliseconds, a whole "
                        "number from 1 to {} with a leading - for a step back",
                        text, limits::clock_jump_ms_max)};
    e.clock_ms = negative ? -n : n;
    return std::nullopt;
}

// The replicas a wait counted (model.md §17.6): a whole number from 0 to
// replicas_max, in canonical decimal, written even when 0.
std::optional<LineError> read_wait_count(std::string_view text, Event& e) {
    std::int64_t n = 0;
    bool ok = !text.empty() && text.size() <= 2 && (text[0] != '0' || text.size() == 1);
    for (const char c : text) {
        if (c < '0' || c > '9') ok = false;
        if (ok) n = n * 10 + (c - '0');
    }
    if (!ok || n > limits::replicas_max)
        return LineError{fmt::format(
            "\"detail\" of wait is \"{}\"; expected how many replicas acknowledged, a whole number from 0 to {}", text,
            limits::replicas_max)};
    e.overlap_count = n;
    return std::nullopt;
}

// The answers a quorum event counted (model.md §20.8): a whole number from
// 0 to stores_max, in canonical decimal, written even when 0.
std::optional<LineError> read_quorum_count(std::string_view text, Event& e) {
    std::int64_t n = 0;
    bool ok = text.size() == 1;
    for (const char c : text) {
        if (c < '0' || c > '9') ok = false;
        if (ok) n = n * 10 + (c - '0');
    }
    if (!ok || n > limits::stores_max)
        return LineError{fmt::format(
            "\"detail\" of quorum is \"{}\"; expected how many stores answered yes, a whole number from 0 to {}", text,
            limits::stores_max)};
    e.overlap_count = n;
    return std::nullopt;
}

// A word added with format 2 (model.md §9.6-§9.8).
bool is_safety_mark(Detail d) {
    return d == Detail::stale_after_successor || d == Detail::holder_rejected || d == Detail::fencing_duplicate;
}

// The `detail` (model.md §12.3): the overlap count on overlap_begin, the
// named node on validate, else detail words joined by commas in their fixed
// order, each known and none twice.
std::optional<LineError> read_detail(std::string text, Event& e, FormatVersion version) {
    if (e.op == EventOp::wait) return read_wait_count(text, e);
    if (e.op == EventOp::quorum) return read_quorum_count(text, e);
    if (text.empty()) return std::nullopt;
    if (e.op == EventOp::overlap_begin) return read_overlap_count(text, e);
    if (e.op == EventOp::clock_jump) return read_clock_ms(text, e);
    if (e.op == EventOp::validate) {
        e.named_node = std::move(text);
        return std::nullopt;
    }
    std::string_view rest = text;
    int last = -1;
    while (true) {
        const std::size_t comma = rest.find(',');
        const std::string_view word = rest.substr(0, comma);
        const auto d = detail_from_string(word);
        if (!d)
            return LineError{
                fmt::format("\"detail\" has the unknown word \"{}\"; expected words of: {} (joined by commas)", word,
                            detail_word_list(version))};
        if (static_cast<int>(*d) <= last)
            return LineError{
                fmt::format("\"detail\" is \"{}\"; expected each word once, in the order {} (model.md §12.3)", text,
                            detail_word_list(version))};
        if (version == 1 && is_safety_mark(*d))
            return LineError{
                fmt::format("\"detail\" has the word \"{}\", which format \"{}\" does not have", word, trace_format_1)};
        if (version < 3 && is_replica_word(*d))
            return LineError{
                fmt::format("\"detail\" has the word \"{}\", which format \"{}\" does not have (a store "
                            "with replicas writes \"{}\", model.md §17.7)",
                            word, version == 1 ? trace_format_1 : trace_format, trace_format_3)};
        if (is_import_word(*d)) {
            if (auto err = only_in_format_4(version, "the detail word", word)) return err;
        }
        last = static_cast<int>(*d);
        e.details.add(*d);
        if (comma == std::string_view::npos) return std::nullopt;
        rest.remove_prefix(comma + 1);
    }
}

// The optional trailing keys "sent" and "applied" (model.md §12.1, §16.6):
// only on the events that can take time, each before the event's tick (a
// value equal to it is not written), applied not before sent.
template <class Fields>
std::optional<LineError> read_message_times(const Fields& j, Event& e) {
    bool null = false;
    for (const char* key : {"sent", "applied"}) {
        if (!j.contains(key)) continue;
        // A node's own check (model.md §5.8) is a call too: a validate in the work phase.
        const bool check = e.op == EventOp::validate && e.phase == Phase::work;
        const bool call = e.op == EventOp::acquire || e.op == EventOp::extend || e.op == EventOp::release || check;
        if (!call && !(e.op == EventOp::write && std::string_view(key) == "sent"))
            return LineError{fmt::format("\"{}\" on a {} event; only on {} (model.md §16.6)", key, to_string(e.op),
                                         std::string_view(key) == "sent"
                                             ? "write, acquire, extend, release and a node's own validate"
                                             : "acquire, extend, release and a node's own validate")};
        Tick value = 0;
        if (auto err = j.get_int(key, value, false, null, 0, limits::horizon_max)) return err;
        if (value >= e.tick)
            return LineError{
                fmt::format("\"{}\" is {}; expected a tick before the event's tick {} (the key is "
                            "written only when it differs)",
                            key, value, e.tick)};
        (std::string_view(key) == "sent" ? e.sent : e.applied) = value;
    }
    if (e.applied && e.sent.value_or(e.tick) > *e.applied)
        return LineError{fmt::format("\"applied\" is {}, before \"sent\" {}", *e.applied, *e.sent)};
    return std::nullopt;
}

// What format 3 adds (model.md §17.7): its ops and outcomes are refused in
// an older file, naming the line and what that format lacks.
std::optional<LineError> only_in_format_3(FormatVersion version, const char* what, std::string_view word) {
    if (version >= 3) return std::nullopt;
    return LineError{
        fmt::format("{} \"{}\" is not in format \"{}\"; a store with replicas writes \"{}\" (model.md "
                    "§17.7)",
                    what, word, version == 1 ? trace_format_1 : trace_format, trace_format_3)};
}
bool is_replica_op(EventOp op) {
    return op == EventOp::link_cut || op == EventOp::link_restored || op == EventOp::wait;
}
bool is_replica_outcome(Outcome o) { return o == Outcome::synced || o == Outcome::not_synced; }

// The optional trailing key "server" (model.md §17.7), format 3 only: a
// server's number on a link edge, a promoting failover, a wait, and the
// calls and expiries an old primary answered in split brain.
template <class Fields>
std::optional<LineError> read_server(const Fields& j, Event& e, FormatVersion version) {
    if (!j.contains("server")) {
        // A Redlock store's restart always names its store (model.md §20.8).
        if (e.op == EventOp::restart) return LineError{"a restart names its store: missing key \"server\""};
        return std::nullopt;
    }
    if (auto err = only_in_format_3(version, "the key", "server")) return err;
    const bool check = e.op == EventOp::validate && e.phase == Phase::work;
    const bool allowed =
        e.op == EventOp::link_cut || e.op == EventOp::link_restored || e.op == EventOp::failover ||
        e.op == EventOp::acquire || e.op == EventOp::extend || e.op == EventOp::release || e.op == EventOp::expire ||
        e.op == EventOp::wait || check ||
        (version == 5 && (e.op == EventOp::restart || e.op == EventOp::clock_jump || e.op == EventOp::crash));
    if (!allowed)
        return LineError{
            fmt::format("\"server\" on a {} event; only on link_cut, link_restored, failover, acquire, "
                        "extend, release, expire, wait and a node's own validate (model.md §17.7)",
                        to_string(e.op))};
    bool null = false;
    std::int32_t server = 0;
    const std::int64_t server_max = version == 5 ? limits::stores_max - 1 : limits::replicas_max;
    if (auto err = j.get_int("server", server, false, null, 0, server_max)) return err;
    e.server = server;
    return std::nullopt;
}

// The trailing key "wall_us" (model.md §19.7.1): on every event of a /4
// trace, on none of an older one.
template <class Fields>
std::optional<LineError> read_wall_us(const Fields& j, Event& e, FormatVersion version) {
    if (!j.contains("wall_us")) {
        if (version != 4) return std::nullopt;
        return LineError{
            "missing key \"wall_us\": every event of an imported history has its server time (model.md "
            "§19.7.1)"};
    }
    if (auto err = only_in_format_4(version, "the key", "wall_us")) return err;
    if (e.sent || e.applied)
        return LineError{"\"sent\" and \"applied\" are never written in an imported history (model.md §19.7.3)"};
    bool null = false;
    std::int64_t wall_us = 0;
    if (auto err = j.get_int("wall_us", wall_us, false, null, 0, std::numeric_limits<std::int64_t>::max())) return err;
    e.wall_us = wall_us;
    return std::nullopt;
}

// The words that may stand alone on a belief or an undecided event, for its
// errors.
std::string words_between(Detail first, Detail last) {
    std::string out;
    for (auto i = static_cast<std::size_t>(first); i <= static_cast<std::size_t>(last); ++i) {
        if (!out.empty()) out += ", ";
        out += to_string(static_cast<Detail>(i));
    }
    return out;
}

// The shape of the events only a /4 trace has (model.md §19.6.3, §19.7.1,
// trace-format.md "Events"): phase ops, no slot or ttl, exactly one word of
// their own; a belief names its node and its outcome agrees with the log's
// word. The /4 words appear on no other op.
std::optional<LineError> check_import_event(const Event& e) {
    const bool belief = e.op == EventOp::believe;
    const bool undecided = e.op == EventOp::undecided;
    // Every simulated event: no /4 op and none of the /4 words.
    if (!belief && !undecided && (e.details.bits() >> detail_words_3) == 0) return std::nullopt;
    int words = 0;
    bool own = true;
    for (std::size_t i = 0; i < detail_words; ++i) {
        const auto d = static_cast<Detail>(i);
        if (!e.details.has(d)) continue;
        ++words;
        own = own && (belief ? is_belief_word(d) : undecided && is_import_word(d) && !is_belief_word(d));
        if (!belief && !undecided && is_import_word(d))
            return LineError{
                fmt::format("the detail word \"{}\" on op \"{}\"; only on believe and undecided "
                            "(model.md §19.7.1)",
                            to_string(d), to_string(e.op))};
    }
    if (!belief && !undecided) return std::nullopt;
    if (e.phase != Phase::ops)
        return LineError{fmt::format("op \"{}\" in phase {}; expected phase ops", to_string(e.op), to_string(e.phase))};
    if (e.slot || e.ttl)
        return LineError{fmt::format("op \"{}\" has a \"slot\" or \"ttl\"; expected null for both", to_string(e.op))};
    if (words != 1 || !own)
        return LineError{fmt::format("\"detail\" of {} must be exactly one of: {}", to_string(e.op),
                                     belief ? words_between(Detail::acquired, Detail::inferred)
                                            : words_between(Detail::unrecognised_script, Detail::capture_gap))};
    if (undecided) {
        if (e.outcome != Outcome::none) return LineError{"the outcome of undecided must be null"};
        return std::nullopt;
    }
    if (e.node.empty()) return LineError{"op \"believe\" has no \"node\"; a belief is a node's"};
    if (e.outcome != Outcome::leader && e.outcome != Outcome::follower)
        return LineError{"the outcome of believe must be \"leader\" or \"follower\""};
    const bool leads = e.details.has(Detail::acquired) || e.details.has(Detail::extended);
    const bool follows = e.details.has(Detail::lost) || e.details.has(Detail::released);
    if ((leads && e.outcome != Outcome::leader) || (follows && e.outcome != Outcome::follower))
        return LineError{
            fmt::format("believe with the log's word \"{}\" must have the outcome \"{}\" (model.md "
                        "§19.6.3)",
                        detail_text(e), leads ? "leader" : "follower")};
    return std::nullopt;
}

// What format 6 adds (model.md §21.9): the op message and its outcome
// delivered, refused in another format.
std::optional<LineError> only_in_format_6(const Event& e, FormatVersion version) {
    if (version == 6) return std::nullopt;
    const char* what = e.op == EventOp::message ? "op" : e.outcome == Outcome::delivered ? "outcome" : nullptr;
    if (what == nullptr) return std::nullopt;
    return LineError{
        fmt::format("{} \"{}\" is not in format \"{}\"; a Redisson scenario writes \"{}\" (model.md §21.9)", what,
                    e.op == EventOp::message ? "message" : "delivered", format_name(version), trace_format_6)};
}

// One event's fields, from a JSON object (JsonFields) or from the fast
// path's scan (ScannedFields): the same checks in the same order.
template <class Fields>
std::optional<LineError> read_event(const Fields& j, Event& e, FormatVersion version) {
    if (auto err = j.check_keys()) return err;
    bool null = false;
    if (auto err = j.get_int("tick", e.tick, false, null, 0, limits::horizon_max)) return err;
    if (auto err = j.get_int("seq", e.seq, false, null, 0, limits::trace_events_max - 1)) return err;
    std::string s;
    if (auto err = j.get_string("phase", s, false, limits::name_length_max)) return err;
    auto phase = phase_from_string(s);
    if (!phase) return LineError{fmt::format("unknown phase \"{}\"", s)};
    e.phase = *phase;
    if (auto err = j.get_string("node", e.node, true, limits::name_length_max)) return err;
    if (auto err = j.get_int("run", e.run, true, null, 0, limits::runs_max - 1)) return err;
    if (null) e.run = -1;
    if (auto err = j.get_string("op", s, false, limits::name_length_max)) return err;
    auto op = op_from_string(s);
    if (!op) return LineError{fmt::format("unknown op \"{}\"", s)};
    e.op = *op;
    if (is_replica_op(e.op)) {
        if (auto err = only_in_format_3(version, "op", s)) return err;
    }
    if (e.op == EventOp::believe || e.op == EventOp::undecided) {
        if (auto err = only_in_format_4(version, "op", s)) return err;
    }
    if ((e.op == EventOp::restart || e.op == EventOp::quorum) && version != 5)
        return LineError{
            fmt::format("op \"{}\" is not in format \"{}\"; a Redlock scenario writes \"{}\" "
                        "(model.md §20.8)",
                        s, format_name(version), trace_format_5)};
    if (auto err = j.get_string("token", e.token, true, limits::token_length_max)) return err;
    Fencing fencing = 0;
    if (auto err = j.get_int("fencing", fencing, true, null, 1, limits::fencing_max)) return err;
    if (!null) e.fencing = fencing;
    SlotIndex slot = 0;
    if (auto err = j.get_int("slot", slot, true, null, 0, limits::capacity_max - 1)) return err;
    if (!null) e.slot = slot;
    Tick ttl = 0;
    if (auto err = j.get_int("ttl", ttl, true, null, 0, limits::duration_max)) return err;
    if (!null) e.ttl = ttl;
    if (auto err = j.get_string("outcome", s, true, limits::name_length_max)) return err;
    if (s.empty()) {
        e.outcome = Outcome::none;
    } else {
        auto outcome = outcome_from_string(s);
        if (!outcome) return LineError{fmt::format("unknown outcome \"{}\"", s)};
        e.outcome = *outcome;
        if (is_replica_outcome(e.outcome)) {
            if (auto err = only_in_format_3(version, "outcome", s)) return err;
        }
        if (e.outcome == Outcome::leader || e.outcome == Outcome::follower) {
            if (auto err = only_in_format_4(version, "outcome", s)) return err;
        }
    }
    if (auto err = only_in_format_6(e, version)) return err;
    if (auto err = j.get_string("detail", s, true, limits::detail_length_max)) return err;
    if (auto err = read_detail(std::move(s), e, version)) return err;
    if (auto err = read_message_times(j, e)) return err;
    if (auto err = read_server(j, e, version)) return err;
    if (auto err = read_wall_us(j, e, version)) return err;
    return check_import_event(e);
}

std::optional<LineError> read_violations(const ordered_json& v, Violations& out, FormatVersion version) {
    const auto err = version == 1 ? check_keys(v, {"overlap", "unsafe_write", "fencing_regressed"})
                                  : check_keys(v, {"overlap", "unsafe_write", "fencing_regressed",
                                                   "stale_after_successor", "holder_rejected", "fencing_duplicate"});
    if (err) return LineError{"in \"violations\": " + err->message};
    bool null = false;
    const std::pair<const char*, std::int64_t*> counters[] = {{"overlap", &out.overlap},
                                                              {"unsafe_write", &out.unsafe_write},
                                                              {"fencing_regressed", &out.fencing_regressed},
                                                              {"stale_after_successor", &out.stale_after_successor},
                                                              {"holder_rejected", &out.holder_rejected},
                                                              {"fencing_duplicate", &out.fencing_duplicate}};
    for (const auto& [key, counter] : counters) {
        if (version == 1 && counter == &out.stale_after_successor) break;  // format 1 has the first three
        if (auto e = get_int(v, key, *counter, false, null, 0, limits::trace_events_max)) return e;
    }
    return std::nullopt;
}

std::optional<LineError> read_summary(const ordered_json& j, TraceSummary& s, FormatVersion version) {
    if (auto err = check_keys(j, {"type", "end_tick", "results", "violations", "events", "trace_sha256"})) return err;
    bool null = false;
    if (auto err = get_int(j, "end_tick", s.end_tick, false, null, 0, limits::horizon_max)) return err;
    if (!j["results"].is_array()) return LineError{"\"results\" must be an array"};
    if (static_cast<std::int64_t>(j["results"].size()) > limits::runs_total_max)
        return LineError{
            fmt::format("\"results\" has {} entries; at most {}", j["results"].size(), limits::runs_total_max)};
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
    if (auto err = read_violations(j["violations"], s.violations, version)) return err;
    if (auto err = get_int(j, "events", s.events, false, null, 0, limits::trace_events_max)) return err;
    if (auto err = get_string(j, "trace_sha256", s.trace_sha256, false, 64)) return err;
    return std::nullopt;
}

// The order of a /4 trace's events (model.md §19.7.3): `wall_us` never goes
// back, except by what the store's clock stepped back: each `clock_jump` of
// `store` of -S ms (rounded toward zero, rule 19.1.4) lets the events from
// it on go back by S ms and 999 µs more in all, once (the trace's first
// event included). `step_back_us` already counts `e`'s own step; what `e` uses of it is spent.
std::optional<LineError> check_wall_order(const Event& e, const Event& before, std::int64_t& step_back_us) {
    const std::int64_t wall = *e.wall_us;
    const std::int64_t previous = *before.wall_us;
    if (wall >= previous) return std::nullopt;
    if (previous - wall > step_back_us)
        return LineError{fmt::format("\"wall_us\" {} goes back {} µs from the event before ({}){}", wall,
                                     previous - wall, previous,
                                     step_back_us > 0 ? fmt::format(", more than the store's clock stepped back ({} "
                                                                    "µs at most)",
                                                                    step_back_us)
                                                      : std::string(" without a clock_jump of store before it"))};
    step_back_us -= previous - wall;
    return std::nullopt;
}

// One event line: read, then checked against the events before it.
template <class Fields>
std::optional<LineError> read_event_line(const Fields& j, Trace& trace, FormatVersion version,
                                         std::int64_t& step_back_us) {
    Event e;
    if (auto err = read_event(j, e, version)) return err;
    if (e.seq != static_cast<std::int64_t>(trace.events.size()))
        return LineError{fmt::format("seq {} out of order; expected {}", e.seq, trace.events.size())};
    if (e.slot && *e.slot >= trace.header.capacity)
        return LineError{fmt::format("\"slot\" is {}; the lock has {} slot{}", *e.slot, trace.header.capacity,
                                     trace.header.capacity == 1 ? "" : "s")};
    if (!trace.events.empty() && e.tick < trace.events.back().tick)
        return LineError{
            fmt::format("tick {} goes backwards (previous event at {})", e.tick, trace.events.back().tick)};
    if (version == 5 && e.server && *e.server >= static_cast<std::int32_t>(trace.header.stores.size()))
        return LineError{
            fmt::format("\"server\" is {}; the header names {} stores", *e.server, trace.header.stores.size())};
    if (version == 4) {
        if (e.op == EventOp::clock_jump && e.node == "store" && e.clock_ms < 0)
            step_back_us += -e.clock_ms * 1000 + 999;
        if (!trace.events.empty()) {
            if (auto err = check_wall_order(e, trace.events.back(), step_back_us)) return err;
        }
    }
    trace.events.push_back(std::move(e));
    return std::nullopt;
}

// The reader's state from line to line.
struct ReadState {
    Trace trace;
    FormatVersion version = 2;
    std::int64_t step_back_us = 0;  // /4: how far wall_us may still go back (model.md §19.7.3)
    bool have_summary = false;
};

// An event line through the fast path: true when it was read (its scan and
// every check passed); false leaves the state as it was, for the general
// reader to read the line again and name what is wrong.
bool read_event_fast(std::string_view line, ReadState& st) {
    if (!line.starts_with(R"({"type":"event",)")) return false;
    trace_scan::ScannedEvent scanned;
    if (!trace_scan::scan_event_line(line, scanned)) return false;
    std::int64_t step_back_us = st.step_back_us;
    if (read_event_line(ScannedFields{scanned}, st.trace, st.version, step_back_us)) return false;
    st.step_back_us = step_back_us;
    return true;
}

// The summary line through the fast path: the checks of read_summary, on
// the scanned values; false (nothing read) for the general reader to name
// what is wrong.
bool read_summary_fast(std::string_view line, ReadState& st) {
    trace_scan::ScannedSummary scanned;
    if (!line.starts_with(R"({"type":"summary",)") || !trace_scan::scan_summary_line(line, scanned)) return false;
    auto within = [](std::int64_t v, std::int64_t lo, std::int64_t hi) { return v >= lo && v <= hi; };
    auto name = [](std::string_view s) { return static_cast<std::int64_t>(s.size()) <= limits::name_length_max; };
    const bool format_1 = st.version == 1;
    if (!within(scanned.end_tick, 0, limits::horizon_max) ||
        static_cast<std::int64_t>(scanned.results.size()) > limits::runs_total_max ||
        scanned.violation_count != (format_1 ? 3U : 6U) || !within(scanned.events, 0, limits::trace_events_max) ||
        scanned.trace_sha256.size() > 64)
        return false;
    for (std::size_t i = 0; i < scanned.violation_count; ++i)
        if (!within(scanned.violations[i], 0, limits::trace_events_max)) return false;
    TraceSummary& s = st.trace.summary;
    s.results.reserve(scanned.results.size());
    for (const auto& r : scanned.results) {
        const bool has_fencing = r.fencing.kind == trace_scan::Field::Kind::integer;
        if (!name(r.node) || !within(r.run, 0, limits::runs_max - 1) || !name(r.result) ||
            (has_fencing && !within(r.fencing.integer, 1, limits::fencing_max))) {
            s.results.clear();
            return false;
        }
        s.results.push_back(RunSummary{std::string(r.node), static_cast<std::int32_t>(r.run), std::string(r.result),
                                       has_fencing ? std::optional<Fencing>(r.fencing.integer) : std::nullopt});
    }
    s.end_tick = scanned.end_tick;
    const auto& v = scanned.violations;
    s.violations = Violations{v[0], v[1], v[2], v[3], v[4], v[5]};
    s.events = scanned.events;
    s.trace_sha256 = std::string(scanned.trace_sha256);
    st.have_summary = true;
    return true;
}

// Any line through nlohmann's parser: the error of a line that is wrong.
std::optional<std::string> read_line_general(std::string_view line, std::int64_t line_no, ReadState& st) {
    ordered_json j;
    try {
        j = ordered_json::parse(line);
    } catch (const nlohmann::json::parse_error& e) {
        return fmt::format("not valid JSON at column {}: expected one compact JSON object per line", e.byte);
    } catch (const nlohmann::json::exception&) {
        // Valid syntax the reader cannot hold, such as a number too large
        // for a double (found by the trace fuzzer).
        return "a value out of range: expected one compact JSON object per line";
    }
    if (!j.is_object() || !j.contains("type") || !j["type"].is_string())
        return "expected a JSON object with a \"type\"";
    const std::string type = j["type"].get<std::string>();
    std::optional<LineError> err;
    if (line_no == 1) {
        if (type != "header") return "line 1 must be the header (\"type\":\"header\")";
        err = read_header(j, st.trace.header, st.version);
    } else if (type == "event") {
        err = read_event_line(JsonFields{j}, st.trace, st.version, st.step_back_us);
    } else if (type == "summary") {
        err = read_summary(j, st.trace.summary, st.version);
        st.have_summary = true;
    } else {
        return fmt::format("unknown line type \"{}\"; expected event or summary", type);
    }
    if (err) return err->message;
    // Canonical bytes: what we write back must be what we read.
    if (j.dump() != line) return "not in canonical form (compact JSON, keys in the documented order)";
    return std::nullopt;
}

}  // namespace

Result<Trace, TraceError> parse_trace(std::string_view text, const std::string& file, TraceLineReader reader) {
    ReadState st;
    std::int64_t line_no = 0;
    std::size_t pos = 0;
    // The event lines are lines 2 to the one before the summary: hashed at
    // the end as one span of the text, with their newlines, no copy.
    std::size_t events_begin = 0;
    std::size_t events_end = 0;
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
        const std::size_t line_begin = pos;
        pos = end + 1;
        ++line_no;
        if (st.have_summary) return fail("text after the summary line");
        if (const std::size_t nul = line.find('\0'); nul != std::string_view::npos)
            return fail(fmt::format("a NUL byte (\\0) at column {}: a trace is text", nul + 1));
        if (auto shape = line_shape_error(line)) return fail(*shape);
        if (line_no == 1) events_begin = pos;
        const bool fast = line_no > 1 && reader == TraceLineReader::fast &&
                          (read_event_fast(line, st) || read_summary_fast(line, st));
        if (!fast) {
            if (auto err = read_line_general(line, line_no, st)) return fail(*err);
        }
        events_end = st.have_summary ? line_begin : pos;
    }
    if (line_no == 0) return fail("empty file: expected a header line");
    if (!st.have_summary) return fail("no summary line (truncated file?)");
    Trace& trace = st.trace;
    if (trace.summary.events != static_cast<std::int64_t>(trace.events.size()))
        return fail(
            fmt::format("the summary counts {} events, the file has {}", trace.summary.events, trace.events.size()));
    TraceHasher hasher;
    hasher.add_lines(text.substr(events_begin, events_end - events_begin));
    const std::string hex = hasher.hex();
    if (hex != trace.summary.trace_sha256)
        return fail(fmt::format("trace_sha256 does not match the event lines (computed {})", hex));
    return std::move(trace);
}

}  // namespace leasescope::sim

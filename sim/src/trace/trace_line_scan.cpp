// Scans an event line in canonical form (trace_line_scan.hpp): byte
// comparisons against the fixed text between the values, and the values.
#include "trace_line_scan.hpp"

#include <cstring>

namespace leasescope::sim::trace_scan {
namespace {

// The text before each key's value, in key order (a string value's opening
// quote is scanned with the value).
constexpr std::array<std::string_view, key_count> key_prefixes = {R"({"type":"event","tick":)",
                                                                  R"(,"seq":)",
                                                                  R"(,"phase":)",
                                                                  R"(,"node":)",
                                                                  R"(,"run":)",
                                                                  R"(,"op":)",
                                                                  R"(,"token":)",
                                                                  R"(,"fencing":)",
                                                                  R"(,"slot":)",
                                                                  R"(,"ttl":)",
                                                                  R"(,"outcome":)",
                                                                  R"(,"detail":)",
                                                                  R"(,"sent":)",
                                                                  R"(,"applied":)",
                                                                  R"(,"server":)",
                                                                  R"(,"wall_us":)"};
constexpr std::size_t trailing_first = static_cast<std::size_t>(Key::sent);

constexpr std::array<std::string_view, key_count> key_names = {
    "tick", "seq", "phase",   "node",   "run",  "op",      "token",  "fencing",
    "slot", "ttl", "outcome", "detail", "sent", "applied", "server", "wall_us"};

// What a key's value may be: an integer, a string, either of them or null.
enum class Shape : std::uint8_t { integer, string, integer_or_null, string_or_null };
constexpr std::array<Shape, key_count> key_shapes = {
    Shape::integer,         Shape::integer,         Shape::string,         Shape::string_or_null,
    Shape::integer_or_null, Shape::string,          Shape::string_or_null, Shape::integer_or_null,
    Shape::integer_or_null, Shape::integer_or_null, Shape::string_or_null, Shape::string_or_null,
    Shape::integer,         Shape::integer,         Shape::integer,        Shape::integer};

class Cursor {
public:
    explicit Cursor(std::string_view line) : p_(line.data()), end_(line.data() + line.size()) {}
    bool literal(std::string_view text) {
        if (static_cast<std::size_t>(end_ - p_) < text.size() || std::memcmp(p_, text.data(), text.size()) != 0)
            return false;
        p_ += text.size();
        return true;
    }
    bool at(char c) const { return p_ < end_ && *p_ == c; }
    bool done() const { return p_ == end_; }
    // Plain decimal: 0, or 1 to 18 digits without a leading zero.
    bool integer(std::int64_t& out) {
        const char* start = p_;
        std::int64_t n = 0;
        while (p_ < end_ && *p_ >= '0' && *p_ <= '9') {
            if (p_ - start == 18) return false;  // a 19th digit: not added, so nothing overflows
            n = n * 10 + (*p_++ - '0');
        }
        const auto digits = p_ - start;
        if (digits == 0 || (digits > 1 && *start == '0')) return false;
        out = n;
        return true;
    }
    // A quoted string of printable ASCII other than quote and backslash.
    bool string(std::string_view& out) {
        if (!literal("\"")) return false;
        const char* start = p_;
        while (p_ < end_ && *p_ != '"') {
            const auto c = static_cast<unsigned char>(*p_);
            if (c < 0x20 || c >= 0x7f || c == '\\') return false;
            ++p_;
        }
        if (p_ == end_) return false;
        out = std::string_view(start, static_cast<std::size_t>(p_ - start));
        ++p_;
        return true;
    }

private:
    const char* p_;
    const char* end_;
};

bool scan_value(Cursor& in, Shape shape, Field& f) {
    const bool nullable = shape == Shape::integer_or_null || shape == Shape::string_or_null;
    if (nullable && in.literal("null")) {
        f.kind = Field::Kind::null;
        return true;
    }
    if (shape == Shape::integer || shape == Shape::integer_or_null) {
        f.kind = Field::Kind::integer;
        return in.integer(f.integer);
    }
    f.kind = Field::Kind::string;
    return in.string(f.text);
}

// One `results` entry: {"node":"…","run":N,"result":"…","fencing":N|null}.
bool scan_result(Cursor& in, ScannedResult& r) {
    if (!in.literal(R"({"node":)") || !in.string(r.node) || !in.literal(R"(,"run":)") || !in.integer(r.run))
        return false;
    if (!in.literal(R"(,"result":)") || !in.string(r.result) || !in.literal(R"(,"fencing":)")) return false;
    return scan_value(in, Shape::integer_or_null, r.fencing) && in.literal("}");
}

// The counters of "violations", the first three always, the other three
// together or not at all.
bool scan_violations(Cursor& in, ScannedSummary& out) {
    constexpr std::array<std::string_view, 6> prefixes = {R"({"overlap":)",           R"(,"unsafe_write":)",
                                                          R"(,"fencing_regressed":)", R"(,"stale_after_successor":)",
                                                          R"(,"holder_rejected":)",   R"(,"fencing_duplicate":)"};
    out.violation_count = 0;
    for (std::size_t i = 0; i < prefixes.size(); ++i) {
        if (i == 3 && in.at('}')) break;
        if (!in.literal(prefixes[i]) || !in.integer(out.violations[i])) return false;
        out.violation_count = i + 1;
    }
    return in.literal("}");
}

}  // namespace

bool scan_summary_line(std::string_view line, ScannedSummary& out) {
    Cursor in(line);
    if (!in.literal(R"({"type":"summary","end_tick":)") || !in.integer(out.end_tick) || !in.literal(R"(,"results":[)"))
        return false;
    out.results.clear();
    while (!in.at(']')) {
        if (!out.results.empty() && !in.literal(",")) return false;
        if (!scan_result(in, out.results.emplace_back())) return false;
    }
    if (!in.literal(R"(],"violations":)") || !scan_violations(in, out)) return false;
    if (!in.literal(R"(,"events":)") || !in.integer(out.events) || !in.literal(R"(,"trace_sha256":)")) return false;
    return in.string(out.trace_sha256) && in.literal("}") && in.done();
}

std::optional<Key> key_of(std::string_view name) {
    for (std::size_t i = 0; i < key_count; ++i)
        if (key_names[i].size() == name.size() && key_names[i][0] == name[0] && key_names[i] == name)
            return static_cast<Key>(i);
    return std::nullopt;
}

bool scan_event_line(std::string_view line, ScannedEvent& out) {
    Cursor in(line);
    for (std::size_t i = 0; i < key_count; ++i) {
        Field& f = out.fields[i];
        f = Field{};
        // A trailing key is scanned when its prefix is next; the line ends at "}".
        if (i >= trailing_first && !in.literal(key_prefixes[i])) continue;
        if (i < trailing_first && !in.literal(key_prefixes[i])) return false;
        if (!scan_value(in, key_shapes[i], f)) return false;
    }
    return in.literal("}") && in.done();
}

}  // namespace leasescope::sim::trace_scan

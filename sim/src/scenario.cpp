#include "leasescope/sim/scenario.hpp"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "leasescope/sim/limits.hpp"

namespace leasescope::sim {
namespace {

using json = nlohmann::json;
using ordered_json = nlohmann::ordered_json;

// Thrown inside the validator only; parse_scenario turns it into a value.
struct Failure {
    std::string where;
    std::string message;
    bool follows = false;  // follows from an error already reported (not shown)
};

[[noreturn]] void fail(std::string where, std::string message) { throw Failure{std::move(where), std::move(message)}; }

// Thrown by a reader whose errors are already in the list; carries what the
// checks after it still need (a candidate's name).
struct Reported {
    std::string name;
};

// Every error at once: each independent check runs inside attempt(), which
// keeps its Failure and lets the next check go on. False when it failed.
using Failures = std::vector<Failure>;
template <class F>
bool attempt(Failures& errors, F&& check) {
    try {
        check();
        return true;
    } catch (Failure& f) {
        errors.push_back(std::move(f));
        return false;
    }
}

// The first limits::quoted_bytes_max bytes of `s`, cut at a UTF-8 character
// boundary (all of it when it is that short).
std::string_view clipped(std::string_view s) {
    const auto max = static_cast<std::size_t>(limits::quoted_bytes_max);
    if (s.size() <= max) return s;
    std::size_t cut = max;
    while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
    return s.substr(0, cut);
}

std::string json_quoted(std::string_view s) {
    return json(std::string(s)).dump(-1, ' ', false, json::error_handler_t::replace);
}

// A byte-bounded quotation of something the user wrote, for an error line: at
// most limits::quoted_bytes_max bytes, as a JSON string, with the full length
// when it was cut. A 60 MB key must not become a 120 MB error line.
std::string quote(std::string_view s) {
    const std::string_view head = clipped(s);
    if (head.size() == s.size()) return json_quoted(s);
    return fmt::format("{}… ({} bytes)", json_quoted(head), s.size());
}

// A JSON-pointer component for a path in an error line (clipped like quote).
std::string path_part(std::string_view s) {
    const std::string_view head = clipped(s);
    return head.size() == s.size() ? std::string(s) : std::string(head) + "…";
}

// Line and column (1-based) of byte `offset` of `text`.
std::string line_column(std::string_view text, std::size_t offset) {
    offset = std::min(offset, text.size());
    std::size_t line = 1, column = 1;
    for (std::size_t i = 0; i < offset; ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return fmt::format("{}:{}", line, column);
}

// One SAX pass over a JSON text before any document is built (docs/
// scenario-format.md "Limits"). It stops at the first syntax error (kept for
// the caller, which names its line and column), at the first limit of
// limits.hpp that the text exceeds (depth, string and key bytes, keys per
// object, values), and at a key given twice in one object (nlohmann's DOM
// would silently keep the last). A frame keeps only its own keys and the
// last key or index; a path is built only for an error, so the pass uses
// memory in proportion to the open objects' keys, never depth × path.
class StructureWatch final : public nlohmann::json_sax<json> {
public:
    // `base`: the path of the document's root in error messages ("" for a
    // file, "/defaults/lease" for the value of a --set).
    explicit StructureWatch(std::string base, std::int64_t base_depth = 0)
        : base_(std::move(base)), base_depth_(base_depth) {}

    bool null() override { return scalar(); }
    bool boolean(bool) override { return scalar(); }
    bool number_integer(number_integer_t) override { return scalar(); }
    bool number_unsigned(number_unsigned_t) override { return scalar(); }
    bool number_float(number_float_t, const string_t&) override { return scalar(); }
    bool string(string_t& s) override {
        if (static_cast<std::int64_t>(s.size()) > limits::json_string_bytes_max)
            fail(value_path(), fmt::format("a string of {} bytes; at most {} (json_string_bytes_max)", s.size(),
                                           limits::json_string_bytes_max));
        return scalar();
    }
    bool binary(binary_t&) override { return scalar(); }
    bool start_object(std::size_t) override { return open(false); }
    bool start_array(std::size_t) override { return open(true); }
    bool end_object() override { return close(); }
    bool end_array() override { return close(); }
    bool key(string_t& key) override {
        Frame& f = stack_.back();
        if (static_cast<std::int64_t>(key.size()) > limits::json_string_bytes_max)
            fail(container_path() + "/" + path_part(key),
                 fmt::format("a key of {} bytes; at most {} (json_string_bytes_max)", key.size(),
                             limits::json_string_bytes_max));
        if (static_cast<std::int64_t>(f.keys.size()) >= limits::json_object_keys_max)
            fail(shown(container_path()), fmt::format("an object with more than {} keys (json_object_keys_max)",
                                               limits::json_object_keys_max));
        if (!f.keys.insert(key).second)
            fail(container_path() + "/" + path_part(key),
                 fmt::format("key {} appears twice in this object; keep one", quote(key)));
        f.last_key = key;
        return true;
    }
    bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& e) override {
        syntax_error_ = e.what();
        syntax_position_ = position;
        // A number beyond a double (1e400) is nlohmann's out_of_range 406,
        // reported here like a syntax error but with its own words.
        out_of_range_ = e.id == 406;
        return false;
    }

    const std::optional<std::string>& syntax_error() const { return syntax_error_; }
    std::size_t syntax_position() const { return syntax_position_; }
    bool out_of_range() const { return out_of_range_; }
    std::int64_t values() const { return values_; }

private:
    struct Frame {
        bool is_array;
        std::size_t next_index = 0;
        std::string last_key;
        std::set<std::string> keys;
    };
    // The path of the innermost open container ("" for the root of a file).
    std::string container_path() const {
        std::string path = base_;
        for (std::size_t i = 1; i < stack_.size(); ++i) {
            const Frame& parent = stack_[i - 1];
            path += "/" + (parent.is_array ? std::to_string(parent.next_index - 1) : path_part(parent.last_key));
        }
        return path;
    }
    static std::string shown(std::string path) { return path.empty() ? "/" : path; }
    // The path of the value being read now.
    std::string value_path() const {
        if (stack_.empty()) return shown(base_);
        const Frame& f = stack_.back();
        return container_path() + "/" + (f.is_array ? std::to_string(f.next_index) : path_part(f.last_key));
    }
    void count() {
        if (++values_ > limits::json_values_max)
            fail(value_path(), fmt::format("the document has more than {} values (json_values_max)",
                                           limits::json_values_max));
    }
    bool scalar() {
        count();
        if (!stack_.empty() && stack_.back().is_array) ++stack_.back().next_index;
        return true;
    }
    bool open(bool is_array) {
        count();
        if (base_depth_ + static_cast<std::int64_t>(stack_.size()) + 1 > limits::json_depth_max)
            fail(value_path(), fmt::format("arrays and objects nested more than {} deep (json_depth_max)",
                                           limits::json_depth_max));
        if (!stack_.empty() && stack_.back().is_array) ++stack_.back().next_index;
        stack_.push_back(Frame{is_array, 0, {}, {}});
        return true;
    }
    bool close() {
        stack_.pop_back();
        return true;
    }
    std::string base_;
    std::int64_t base_depth_ = 0;
    std::vector<Frame> stack_;
    std::int64_t values_ = 0;
    std::optional<std::string> syntax_error_;
    std::size_t syntax_position_ = 0;
    bool out_of_range_ = false;
};

// A NUL byte: nlohmann's reader takes it for the end of the input and would
// ignore everything after it. Returns its offset.
std::optional<std::size_t> find_nul(std::string_view text) {
    const std::size_t at = text.find('\0');
    if (at == std::string_view::npos) return std::nullopt;
    return at;
}

// Edits between two words, a swap of neighbours counting as one ("mdoe" is
// one edit from "mode"): the optimal string alignment distance.
std::size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
    for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
    for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    }
    return d[a.size()][b.size()];
}

// ", did you mean \"lease\"?" when a known word is close; else the list.
std::string suggestion(std::string_view word, const std::vector<std::string>& known) {
    std::string best;
    std::size_t best_distance = std::string::npos;
    // The distance table is |word| x |known word|: only short words are
    // compared (a long one is close to nothing a scenario knows anyway).
    const bool comparable = static_cast<std::int64_t>(word.size()) <= limits::quoted_bytes_max;
    for (const auto& k : known) {
        if (!comparable) break;
        const std::size_t d = edit_distance(word, k);
        if (d < best_distance) {
            best_distance = d;
            best = k;
        }
    }
    // One edit per three letters, at least one: "leese" finds "lease", but
    // "node" does not find "lose".
    if (!best.empty() && best_distance <= std::max<std::size_t>(1, word.size() / 3))
        return fmt::format("; did you mean \"{}\"?", best);
    std::string list;
    for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
    return fmt::format("; expected one of: {}", list);
}

std::string describe(const json& v) {
    if (v.is_null()) return "null";
    if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
    if (v.is_string()) return fmt::format("the string {}", quote(v.get_ref<const std::string&>()));
    if (v.is_number_float()) return fmt::format("the number {}", v.dump());
    if (v.is_number()) return v.dump();
    if (v.is_array()) return "an array";
    return "an object";
}

void check_key(const std::string& key, const std::string& path, const std::vector<std::string>& allowed) {
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
        fail(path + "/" + path_part(key), fmt::format("unknown key {}{}", quote(key), suggestion(key, allowed)));
}

void check_keys(const json& obj, const std::string& path, const std::vector<std::string>& allowed) {
    for (auto it = obj.begin(); it != obj.end(); ++it) check_key(it.key(), path, allowed);
}

// The same, reporting every unknown key.
void check_keys(const json& obj, const std::string& path, const std::vector<std::string>& allowed, Failures& errors) {
    for (auto it = obj.begin(); it != obj.end(); ++it) attempt(errors, [&] { check_key(it.key(), path, allowed); });
}

const json& need_object(const json& v, const std::string& path) {
    if (!v.is_object()) fail(path, fmt::format("expected an object, found {}", describe(v)));
    return v;
}

std::int64_t get_int(const json& v, const std::string& path, std::int64_t lo, std::int64_t hi) {
    LS_ASSERT(lo <= hi);
    LS_ASSERT(hi >= 0);
    // nlohmann keeps every non-negative integer as unsigned: both bounds are
    // checked in that representation too.
    bool in_range = false;
    if (v.is_number_unsigned()) {
        const std::uint64_t u = v.get<std::uint64_t>();
        in_range = u <= static_cast<std::uint64_t>(hi) && (lo <= 0 || u >= static_cast<std::uint64_t>(lo));
    } else if (v.is_number_integer()) {
        const std::int64_t i = v.get<std::int64_t>();
        in_range = i >= lo && i <= hi;
    }
    if (!in_range) fail(path, fmt::format("expected an integer from {} to {}, found {}", lo, hi, describe(v)));
    return v.get<std::int64_t>();
}

bool get_bool(const json& v, const std::string& path) {
    if (!v.is_boolean()) fail(path, fmt::format("expected true or false, found {}", describe(v)));
    return v.get<bool>();
}

std::string get_text(const json& v, const std::string& path, std::int64_t max_length) {
    if (!v.is_string()) fail(path, fmt::format("expected a string, found {}", describe(v)));
    std::string s = v.get<std::string>();
    if (static_cast<std::int64_t>(s.size()) > max_length)
        fail(path, fmt::format("expected at most {} bytes, found {}", max_length, s.size()));
    return s;
}

// A name that shows in tables and traces: non-empty, no control characters.
std::string get_name(const json& v, const std::string& path) {
    std::string s = get_text(v, path, limits::name_length_max);
    if (s.empty()) fail(path, "expected a non-empty name");
    for (const char c : s) {
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) fail(path, "a name must not contain control characters");
    }
    return s;
}

// A name that becomes part of a file or Redis key: letters, digits, . _ - :
std::string get_identifier(const json& v, const std::string& path) {
    std::string s = get_name(v, path);
    for (const char c : s) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
                        c == '_' || c == '.' || c == ':';
        if (!ok) fail(path, fmt::format("expected letters, digits, '-', '_', '.' or ':' only, found {}", quote(s)));
    }
    return s;
}

template <class E>
E get_enum(const json& v, const std::string& path, const std::vector<std::pair<std::string, E>>& choices) {
    std::vector<std::string> names;
    for (const auto& [name, value] : choices) names.push_back(name);
    if (!v.is_string()) fail(path, fmt::format("expected one of {}, found {}", fmt::join(names, ", "), describe(v)));
    const std::string s = v.get<std::string>();
    for (const auto& [name, value] : choices) {
        if (name == s) return value;
    }
    fail(path, fmt::format("unknown value {}{}", quote(s), suggestion(s, names)));
}

Localized get_localized(const json& v, const std::string& path) {
    need_object(v, path);
    check_keys(v, path, {"en", "ko"});
    Localized out;
    if (v.contains("en")) out.en = get_text(v["en"], path + "/en", limits::text_length_max);
    if (v.contains("ko")) out.ko = get_text(v["ko"], path + "/ko", limits::text_length_max);
    return out;
}

const std::vector<std::string> candidate_keys = {"name", "start", "wait", "lease", "min_lease", "auto_extend",
                                                 "extend_every", "retry_every", "action", "writes", "fail_at",
                                                 "hold_off", "runs", "every"};

// The range of each integer key of a candidate, on its own. Relations between
// keys (min_lease <= lease, writes and fail_at <= action) are checked per
// candidate, once its values are merged.
struct KeyRange {
    const char* key;
    std::int64_t lo;
    std::int64_t hi;
};
constexpr KeyRange candidate_ranges[] = {
    {"start", 0, limits::horizon_max},     {"wait", 0, limits::duration_max},
    {"lease", 1, limits::duration_max},    {"action", 1, limits::duration_max},
    {"min_lease", 0, limits::duration_max}, {"extend_every", 1, limits::duration_max},
    {"retry_every", 1, limits::duration_max}, {"hold_off", 0, limits::duration_max},
    {"runs", 1, limits::runs_max},         {"every", 1, limits::duration_max},
    {"fail_at", 1, limits::duration_max},
};

const KeyRange& range_of(std::string_view key) {
    for (const KeyRange& r : candidate_ranges) {
        if (key == r.key) return r;
    }
    LS_ASSERT(false && "no range for key");
    return candidate_ranges[0];
}

// `writes`: strictly increasing offsets in [1, action_max].
std::vector<Tick> get_writes(const json& v, const std::string& path, Tick action_max) {
    if (!v.is_array()) fail(path, fmt::format("expected an array of progress offsets, found {}", describe(v)));
    if (static_cast<std::int64_t>(v.size()) > limits::writes_max)
        fail(path, fmt::format("expected at most {} writes, found {}", limits::writes_max, v.size()));
    std::vector<Tick> writes;
    for (std::size_t k = 0; k < v.size(); ++k) {
        const std::string item_path = fmt::format("{}/{}", path, k);
        const Tick w = get_int(v[k], item_path, 1, action_max);
        if (!writes.empty() && w <= writes.back())
            fail(item_path, fmt::format("writes must be strictly increasing; {} follows {}", w, writes.back()));
        writes.push_back(w);
    }
    return writes;
}

// Every value in "defaults" is checked on its own, even where each candidate
// overrides it: a bad default is a bad file.
void check_defaults(const json& defaults) {
    for (auto it = defaults.begin(); it != defaults.end(); ++it) {
        const std::string path = "/defaults/" + it.key();
        if (it.key() == "auto_extend") {
            get_bool(it.value(), path);
        } else if (it.key() == "writes") {
            get_writes(it.value(), path, limits::duration_max);
        } else {
            const KeyRange& r = range_of(it.key());
            get_int(it.value(), path, r.lo, r.hi);
        }
    }
}

Candidate read_candidate(const json& defaults, bool defaults_ok, const json& own, std::size_t index,
                         Failures& errors) {
    const std::string own_path = fmt::format("/candidates/{}", index);
    need_object(own, own_path);
    const std::size_t before = errors.size();
    check_keys(own, own_path, candidate_keys, errors);
    // A misspelt key ("leese") also makes a required one look missing: that
    // second error is not shown.
    const bool misspelt = errors.size() > before || !defaults_ok;
    if (!own.contains("name")) fail(own_path, "missing \"name\" (required: a unique candidate name)");

    // A value comes from the candidate or, failing that, from "defaults"; its
    // error path says which.
    auto source = [&](const char* key) -> std::pair<const json*, std::string> {
        if (own.contains(key)) return {&own[key], own_path + "/" + key};
        if (defaults.is_object() && defaults.contains(key)) return {&defaults[key], std::string("/defaults/") + key};
        return {nullptr, ""};
    };
    auto int_or = [&](const char* key, std::int64_t fallback) {
        auto [v, path] = source(key);
        const KeyRange& r = range_of(key);
        return v == nullptr ? fallback : get_int(*v, path, r.lo, r.hi);
    };
    auto required = [&](const char* key) {
        auto [v, path] = source(key);
        const KeyRange& r = range_of(key);
        if (v == nullptr)
            throw Failure{own_path,
                          fmt::format("missing \"{}\" (required here or in \"defaults\"; an integer from {} to {})",
                                      key, r.lo, r.hi),
                          misspelt};
        return get_int(*v, path, r.lo, r.hi);
    };
    auto path_of = [&](const char* key) {
        auto [v, path] = source(key);
        return v == nullptr ? own_path : path;
    };

    Candidate c;
    c.name = get_name(own["name"], own_path + "/name");
    ElectorOptions& o = c.options;
    // Each value on its own; a relation between values only when all of its
    // values were read.
    bool ok = true;
    auto read = [&](auto&& check) { ok = attempt(errors, check) && ok; };
    read([&] { o.start = int_or("start", 0); });
    bool sizes_ok = true;
    for (auto [field, key] : {std::pair{&o.wait, "wait"}, std::pair{&o.lease, "lease"}, std::pair{&o.action, "action"}})
        sizes_ok = attempt(errors, [&, field = field, key = key] { *field = required(key); }) && sizes_ok;
    ok = ok && sizes_ok;
    read([&] {
        o.min_lease = int_or("min_lease", 0);
        if (sizes_ok && o.min_lease > o.lease)
            fail(path_of("min_lease"), fmt::format("min_lease {} must not exceed lease {} (the library requires "
                                                   "minLeaseTime <= leaseTime)", o.min_lease, o.lease));
    });
    bool auto_extend_ok = true;
    if (auto [v, path] = source("auto_extend"); v != nullptr)
        auto_extend_ok = attempt(errors, [&, v = v, path = path] { o.auto_extend = get_bool(*v, path); });
    ok = ok && auto_extend_ok;
    // Absent, the watchdog runs on the library's period in milliseconds
    // (model.md §5.5); given, it overrides that period in ticks.
    c.extend_every_given = source("extend_every").first != nullptr;
    read([&] {
        o.extend_every = int_or("extend_every", 0);
        if (sizes_ok && auto_extend_ok && o.auto_extend && c.extend_every_given && o.extend_every >= o.lease) {
            fail(path_of("extend_every"), fmt::format("with auto_extend, extend_every ({}) must be less than lease ({})",
                                                      o.extend_every, o.lease));
        }
    });
    read([&] { o.retry_every = int_or("retry_every", 1); });
    read([&] { o.hold_off = int_or("hold_off", 0); });
    read([&] {
        o.runs = static_cast<std::int32_t>(int_or("runs", 1));
        o.every = o.runs > 1 ? required("every") : int_or("every", 0);
    });
    if (auto [v, path] = source("fail_at"); v != nullptr) {
        read([&, v = v, path = path] { o.fail_at = get_int(*v, path, 1, sizes_ok ? o.action : limits::duration_max); });
    }
    if (auto [v, path] = source("writes"); v != nullptr) {
        c.writes_given = true;
        read([&, v = v, path = path] { o.writes = get_writes(*v, path, sizes_ok ? o.action : limits::duration_max); });
    } else {
        o.writes = {o.action};
    }
    if (!ok) throw Reported{c.name};
    return c;
}

NodeIndex get_node(const json& v, const std::string& path, const Scenario& s) {
    const std::string name = get_name(v, path);
    const NodeIndex n = s.find(name);
    if (n < 0) {
        std::vector<std::string> names;
        for (const auto& c : s.candidates) names.push_back(c.name);
        fail(path, fmt::format("unknown node {}{}", quote(name), suggestion(name, names)));
    }
    return n;
}

Fault read_fault(const json& v, std::size_t index, const Scenario& s) {
    const std::string path = fmt::format("/faults/{}", index);
    need_object(v, path);
    if (!v.contains("kind")) fail(path, "missing \"kind\" (pause, partition, crash or failover)");
    Fault f;
    f.kind = get_enum<FaultKind>(v["kind"], path + "/kind",
                                 {{"pause", FaultKind::pause}, {"partition", FaultKind::partition},
                                  {"crash", FaultKind::crash}, {"failover", FaultKind::failover}});
    std::vector<std::string> keys;
    switch (f.kind) {
        case FaultKind::pause: keys = {"kind", "node", "at", "ticks"}; break;
        case FaultKind::partition: keys = {"kind", "node", "at", "ticks", "mode"}; break;
        case FaultKind::crash: keys = {"kind", "node", "at"}; break;
        case FaultKind::failover: keys = {"kind", "at", "lose"}; break;
    }
    check_keys(v, path, keys);
    for (const auto& key : keys) {
        if (key == "mode" || key == "lose") continue;
        if (!v.contains(key)) fail(path, fmt::format("missing \"{}\" (required for a {})", key, to_string(f.kind)));
    }
    f.at = get_int(v["at"], path + "/at", 0, limits::horizon_max);
    if (f.kind != FaultKind::failover) f.node = get_node(v["node"], path + "/node", s);
    if (f.kind == FaultKind::pause || f.kind == FaultKind::partition)
        f.ticks = get_int(v["ticks"], path + "/ticks", 1, limits::duration_max);
    if (v.contains("mode"))
        f.mode = get_enum<PartitionMode>(v["mode"], path + "/mode",
                                         {{"drop_requests", PartitionMode::drop_requests},
                                          {"drop_replies", PartitionMode::drop_replies}});
    if (v.contains("lose"))
        f.lose = get_enum<FailoverLoss>(v["lose"], path + "/lose",
                                        {{"leases", FailoverLoss::leases}, {"all", FailoverLoss::all}});
    return f;
}

Op read_op(const json& v, std::size_t index, const Scenario& s) {
    const std::string path = fmt::format("/ops/{}", index);
    need_object(v, path);
    if (!v.contains("op")) fail(path, "missing \"op\" (status or validate)");
    Op op;
    op.op = get_enum<OpKind>(v["op"], path + "/op", {{"status", OpKind::status}, {"validate", OpKind::validate}});
    const std::vector<std::string> keys = op.op == OpKind::status ? std::vector<std::string>{"at", "actor", "op"}
                                                                  : std::vector<std::string>{"at", "actor", "op", "token_of"};
    check_keys(v, path, keys);
    for (const auto& key : keys) {
        if (!v.contains(key)) fail(path, fmt::format("missing \"{}\" (required for a {} op)", key, to_string(op.op)));
    }
    op.at = get_int(v["at"], path + "/at", 0, limits::horizon_max);
    op.actor = get_name(v["actor"], path + "/actor");
    if (op.op == OpKind::validate) op.token_of = get_node(v["token_of"], path + "/token_of", s);
    return op;
}

// Two pauses, or two partitions, on one node must not overlap. A sort finds
// whether any pair does in O(F log F); only then does the pairwise loop name
// the first such pair in file order.
void check_fault_overlaps(const Scenario& s) {
    std::vector<const Fault*> spans;
    for (const Fault& f : s.faults) {
        if (f.kind == FaultKind::pause || f.kind == FaultKind::partition) spans.push_back(&f);
    }
    std::sort(spans.begin(), spans.end(), [](const Fault* a, const Fault* b) {
        return std::tie(a->node, a->kind, a->at) < std::tie(b->node, b->kind, b->at);
    });
    bool any = false;
    for (std::size_t k = 1; k < spans.size() && !any; ++k) {
        const Fault& a = *spans[k - 1];
        const Fault& b = *spans[k];
        any = a.node == b.node && a.kind == b.kind && b.at < a.end();
    }
    if (!any) return;
    for (std::size_t i = 0; i < s.faults.size(); ++i) {
        const Fault& a = s.faults[i];
        if (a.kind != FaultKind::pause && a.kind != FaultKind::partition) continue;
        for (std::size_t j = 0; j < i; ++j) {
            const Fault& b = s.faults[j];
            if (b.kind != a.kind || b.node != a.node) continue;
            if (a.at < b.end() && b.at < a.end())
                fail(fmt::format("/faults/{}", i),
                     fmt::format("this {} of {} (ticks {}..{}) overlaps the one at /faults/{} (ticks {}..{})",
                                 to_string(a.kind), s.candidates[static_cast<std::size_t>(a.node)].name, a.at,
                                 a.end() - 1, j, b.at, b.end() - 1));
        }
    }
}

// The work a scenario asks for, estimated before any of it is done
// (limits.hpp, "Work"): every run keeps a record for the whole simulation,
// so the runs that can start before the horizon are bounded.
void check_work(const Scenario& s) {
    std::int64_t runs_total = 0;
    for (const Candidate& c : s.candidates) {
        const ElectorOptions& o = c.options;
        if (o.start > s.horizon) continue;
        const std::int64_t fit = o.runs > 1 ? (s.horizon - o.start) / o.every + 1 : 1;
        runs_total += std::min<std::int64_t>(o.runs, fit);
    }
    if (runs_total > limits::runs_total_max)
        fail("/candidates",
             fmt::format("the candidates would start {} runs before the horizon (the sum of min(runs, (horizon - "
                         "start) / every + 1)); at most {} (runs_total_max): lower runs, raise every or shorten "
                         "the horizon",
                         runs_total, limits::runs_total_max));
}

// Reads the whole document, keeping every error in `errors` (in the order
// checked; parse_scenario_all_errors puts them in file order). A check that
// depends on a value with an error is left out rather than reported twice.
Scenario read_scenario(const json& root, Failures& errors) {
    need_object(root, "/");
    check_keys(root, "",
               {"$schema", "name", "title", "summary", "tick_ms", "horizon", "seed", "order", "lock", "resource",
                "defaults", "candidates", "faults", "ops"},
               errors);
    Scenario s;
    // "$schema" names the schema for editors (leasescope-cli schema); it must be a string.
    if (root.contains("$schema"))
        attempt(errors, [&] { get_text(root["$schema"], "/$schema", limits::text_length_max); });
    attempt(errors, [&] {
        if (!root.contains("name")) fail("/", "missing \"name\" (required: the scenario's name)");
        s.name = get_identifier(root["name"], "/name");
    });
    if (root.contains("title")) attempt(errors, [&] { s.title = get_localized(root["title"], "/title"); });
    if (root.contains("summary")) attempt(errors, [&] { s.summary = get_localized(root["summary"], "/summary"); });
    if (root.contains("tick_ms"))
        attempt(errors, [&] { s.tick_ms = get_int(root["tick_ms"], "/tick_ms", limits::tick_ms_min, limits::tick_ms_max); });
    if (root.contains("horizon"))
        attempt(errors, [&] { s.horizon = get_int(root["horizon"], "/horizon", 0, limits::horizon_max); });
    if (root.contains("seed")) {
        attempt(errors, [&] {
            const json& v = root["seed"];
            if (!(v.is_number_unsigned() || (v.is_number_integer() && v.get<std::int64_t>() >= 0)))
                fail("/seed", fmt::format("expected an integer from 0 to 18446744073709551615, found {}", describe(v)));
            s.seed = v.get<std::uint64_t>();
        });
    }
    if (root.contains("order"))
        attempt(errors, [&] {
            s.order = get_enum<Order>(root["order"], "/order", {{"declared", Order::declared}, {"shuffled", Order::shuffled}});
        });
    attempt(errors, [&] {
        if (root.contains("lock")) {
            const json& lock = need_object(root["lock"], "/lock");
            check_keys(lock, "/lock", {"name", "capacity", "fencing_start", "elector"});
            if (lock.contains("name")) s.lock.name = get_identifier(lock["name"], "/lock/name");
            if (lock.contains("capacity"))
                s.lock.capacity = static_cast<std::int32_t>(get_int(lock["capacity"], "/lock/capacity", 1, limits::capacity_max));
            if (lock.contains("fencing_start"))
                s.lock.fencing_start = get_int(lock["fencing_start"], "/lock/fencing_start", 1, limits::fencing_start_max);
        }
        // The single lock for one slot, the leader group for more (model.md §5.2).
        s.elector = s.lock.capacity == 1 ? ElectorKind::lock : ElectorKind::group;
        if (root.contains("lock") && root["lock"].contains("elector")) {
            s.elector = get_enum<ElectorKind>(root["lock"]["elector"], "/lock/elector",
                                              {{"lock", ElectorKind::lock}, {"group", ElectorKind::group}});
            if (s.elector == ElectorKind::lock && s.lock.capacity > 1)
                fail("/lock/elector",
                     fmt::format("\"lock\" is the single-leader elector and needs capacity 1, found capacity {}; "
                                 "use \"group\" for a leader group of {} slots",
                                 s.lock.capacity, s.lock.capacity));
        }
    });
    if (root.contains("resource")) {
        attempt(errors, [&] {
            const json& res = need_object(root["resource"], "/resource");
            check_keys(res, "/resource", {"mode"});
            if (res.contains("mode"))
                s.resource = get_enum<ResourceMode>(res["mode"], "/resource/mode",
                                                    {{"off", ResourceMode::off}, {"check", ResourceMode::check},
                                                     {"validate", ResourceMode::validate}});
        });
    }
    json defaults = json::object();
    bool defaults_ok = true;  // else a candidate's missing value may only follow from it
    if (root.contains("defaults")) {
        const std::size_t before = errors.size();
        attempt(errors, [&] {
            const std::vector<std::string> keys(candidate_keys.begin() + 1, candidate_keys.end());
            check_keys(need_object(root["defaults"], "/defaults"), "/defaults", keys, errors);
            defaults = root["defaults"];
            for (auto it = defaults.begin(); it != defaults.end(); ++it) {
                if (std::find(keys.begin(), keys.end(), it.key()) != keys.end())
                    attempt(errors, [&] { check_defaults(json{{it.key(), it.value()}}); });
            }
        });
        defaults_ok = errors.size() == before;
    }
    bool candidates_ok = attempt(errors, [&] {
        if (!root.contains("candidates"))
            fail("/", "missing \"candidates\" (required: an array of one or more candidates)");
        const json& candidates = root["candidates"];
        if (!candidates.is_array() || candidates.empty())
            fail("/candidates", fmt::format("expected an array of one or more candidates, found {}",
                                            candidates.is_array() ? "an empty array" : describe(candidates)));
        if (static_cast<std::int64_t>(candidates.size()) > limits::candidates_max)
            fail("/candidates", fmt::format("expected at most {} candidates, found {}", limits::candidates_max, candidates.size()));
    });
    // Without the candidates, the nodes named by faults and ops cannot be checked.
    if (!candidates_ok) return s;
    const json& candidates = root["candidates"];
    std::map<std::string, std::size_t> seen;  // name -> index, for duplicates
    for (std::size_t i = 0; i < candidates.size(); ++i) {
        Candidate c;
        try {
            c = read_candidate(defaults, defaults_ok, candidates[i], i, errors);
        } catch (Failure& f) {
            errors.push_back(std::move(f));
            candidates_ok = false;
            continue;
        } catch (Reported& r) {
            // Its errors are listed; its name still counts for faults and ops.
            c.name = r.name;
            candidates_ok = false;
        }
        attempt(errors, [&] {
            if (auto [it, fresh] = seen.emplace(c.name, i); !fresh)
                fail(fmt::format("/candidates/{}/name", i),
                     fmt::format("duplicate name \"{}\" (also /candidates/{}); names must be unique", c.name, it->second));
        });
        c.options.elector = s.elector;
        c.options.tick_ms = s.tick_ms;
        s.candidates.push_back(std::move(c));
    }
    if (candidates_ok && errors.empty()) attempt(errors, [&] { check_work(s); });
    if (root.contains("faults")) {
        const json& faults = root["faults"];
        const bool faults_ok = attempt(errors, [&] {
            if (!faults.is_array()) fail("/faults", fmt::format("expected an array of faults, found {}", describe(faults)));
            if (static_cast<std::int64_t>(faults.size()) > limits::faults_max)
                fail("/faults", fmt::format("expected at most {} faults, found {}", limits::faults_max, faults.size()));
        });
        bool each_ok = faults_ok;
        for (std::size_t i = 0; faults_ok && i < faults.size(); ++i)
            each_ok = attempt(errors, [&] { s.faults.push_back(read_fault(faults[i], i, s)); }) && each_ok;
        if (each_ok) attempt(errors, [&] { check_fault_overlaps(s); });
    }
    if (root.contains("ops")) {
        const json& ops = root["ops"];
        const bool ops_ok = attempt(errors, [&] {
            if (!ops.is_array()) fail("/ops", fmt::format("expected an array of ops, found {}", describe(ops)));
            if (static_cast<std::int64_t>(ops.size()) > limits::ops_max)
                fail("/ops", fmt::format("expected at most {} ops, found {}", limits::ops_max, ops.size()));
        });
        for (std::size_t i = 0; ops_ok && i < ops.size(); ++i)
            attempt(errors, [&] { s.ops.push_back(read_op(ops[i], i, s)); });
    }
    return s;
}

// Where each JSON pointer of `root` (parsed keeping key order) starts and
// ends in document order: errors are listed in file order by their path, a
// missing key at the end of the object that lacks it (where a reader notices
// it), any other error at the start of its value or, for a path that does
// not exist, of the nearest enclosing one.
struct Span {
    std::size_t start = 0;
    std::size_t end = 0;
};
void document_order(const ordered_json& v, const std::string& path, std::map<std::string, Span>& order,
                    std::size_t& counter) {
    Span& span = order[path.empty() ? "/" : path];
    span.start = counter++;
    if (v.is_object()) {
        for (auto it = v.begin(); it != v.end(); ++it)
            document_order(it.value(), path + "/" + path_part(it.key()), order, counter);
    } else if (v.is_array()) {
        for (std::size_t k = 0; k < v.size(); ++k) document_order(v[k], fmt::format("{}/{}", path, k), order, counter);
    }
    order[path.empty() ? "/" : path].end = counter++;
}

std::size_t order_of(const std::map<std::string, Span>& order, const Failure& f) {
    std::string path = f.where;
    if (path.empty() || path[0] != '/') return 0;  // --set errors come first
    const bool missing = f.message.rfind("missing ", 0) == 0;
    while (true) {
        if (auto it = order.find(path); it != order.end()) return missing ? it->second.end : it->second.start + 1;
        const std::size_t slash = path.rfind('/');
        if (slash == 0 || slash == std::string::npos) path = "/";
        else path.resize(slash);
    }
}

// "candidates/1/start" or "defaults.lease" as a JSON pointer.
std::string override_pointer(const std::string& path) {
    std::string pointer;
    std::string part;
    auto flush = [&] {
        std::string escaped;
        for (const char c : part) {
            if (c == '~') escaped += "~0";
            else escaped += c;
        }
        pointer += "/" + escaped;
        part.clear();
    };
    for (const char c : path) {
        if (c == '.' || c == '/') {
            flush();
        } else {
            part += c;
        }
    }
    flush();
    return pointer;
}

// Checks a JSON text against the limits and for duplicate keys (one SAX pass,
// no document built), then parses it. Syntax errors come back as nullopt with
// `syntax` set; a limit or duplicate throws Failure at its path under `base`.
struct SyntaxError {
    std::string where;  // line:column in the text
    std::string message;
};
std::optional<json> parse_bounded(std::string_view text, const std::string& base, std::int64_t base_depth,
                                  std::optional<SyntaxError>& syntax) {
    if (const auto nul = find_nul(text)) {
        syntax = SyntaxError{line_column(text, *nul),
                             "a NUL byte (\\0): JSON text cannot contain one; is this a binary file?"};
        return std::nullopt;
    }
    StructureWatch watch(base, base_depth);
    json::sax_parse(text.begin(), text.end(), &watch, nlohmann::detail::input_format_t::json, true,
                    /*ignore_comments=*/true);
    if (watch.syntax_error()) {
        if (watch.out_of_range()) {
            syntax = SyntaxError{"", "JSON number out of range: a number is too large for a double (like 1e400)"};
            return std::nullopt;
        }
        std::string what = *watch.syntax_error();
        // nlohmann's text after its own position prefix says what was expected.
        if (const auto colon = what.find(": "); colon != std::string::npos) what = what.substr(colon + 2);
        // It quotes the token it was reading ("last read: '...'"), which can
        // be a whole 30 MB string: quote a few bytes of it, like every error.
        constexpr std::string_view last_read = "; last read: '";
        if (const auto at = what.find(last_read); at != std::string::npos) {
            const std::string token = what.substr(at + last_read.size());
            if (static_cast<std::int64_t>(token.size()) > limits::quoted_bytes_max)
                what = fmt::format("{}{}{}…' ({} bytes)", what.substr(0, at), last_read, clipped(token), token.size());
        }
        const std::size_t position = watch.syntax_position();
        syntax = SyntaxError{line_column(text, position == 0 ? 0 : position - 1), "JSON syntax error: " + what};
        return std::nullopt;
    }
    // The same bytes passed the same parser: this cannot fail, and its
    // document has at most json_values_max values.
    return json::parse(text.begin(), text.end(), nullptr, true, /*ignore_comments=*/true);
}

void apply_override(json& root, const Override& o) {
    // The value is quoted clipped: a long --set value must not make a long error line.
    const std::string shown_value = o.value.size() <= static_cast<std::size_t>(limits::quoted_bytes_max)
                                        ? o.value
                                        : quote(o.value);
    const std::string where = fmt::format("--set {}={}", path_part(o.path), shown_value);
    // A path copied from an error message starts with '/': accept it.
    const std::string pointer = override_pointer(o.path.size() > 1 && o.path[0] == '/' ? o.path.substr(1) : o.path);
    const auto depth = static_cast<std::int64_t>(std::count(pointer.begin(), pointer.end(), '/'));
    if (depth >= limits::json_depth_max)
        fail(where, fmt::format("a path of {} parts; at most {} (json_depth_max)", depth, limits::json_depth_max - 1));
    // The value follows the rules of a file: no NUL byte, the same limits, no
    // duplicate keys; where it is not JSON it is a plain string.
    json value;
    try {
        std::optional<SyntaxError> syntax;
        if (auto parsed = parse_bounded(o.value, "", depth, syntax)) {
            value = std::move(*parsed);
        } else if (o.value.find('\0') != std::string::npos) {
            fail(where, "the value contains a NUL byte (\\0)");
        } else {
            // Not JSON (a syntax error), or a number beyond a double (1e400):
            // a plain string, which validation then rejects.
            if (static_cast<std::int64_t>(o.value.size()) > limits::json_string_bytes_max)
                fail(where, fmt::format("a value of {} bytes; at most {} (json_string_bytes_max)", o.value.size(),
                                        limits::json_string_bytes_max));
            value = o.value;
            // The JSON parser only lets valid UTF-8 in; a plain string must
            // be too, or every later dump() of it (errors, traces) would throw.
            try {
                (void)value.dump();
            } catch (const json::type_error&) {
                fail(where, "the value is not valid UTF-8");
            }
        }
    } catch (const Failure& f) {
        if (f.where == where) throw;
        fail(where, fmt::format("{}: {}", f.where, f.message));
    }
    // Walk the path: objects are created as needed, array indices must exist.
    json* node = &root;
    std::string walked;
    std::size_t pos = 1;
    while (true) {
        const std::size_t slash = pointer.find('/', pos);
        const std::string key = pointer.substr(pos, slash == std::string::npos ? std::string::npos : slash - pos);
        walked += "/" + key;
        if (key.empty()) fail(where, "empty path component; expected a path like defaults.lease or candidates/1/start");
        json* next = nullptr;
        if (node->is_array()) {
            const bool digits = std::all_of(key.begin(), key.end(), [](char c) { return c >= '0' && c <= '9'; });
            if (!digits || key.size() > 9) fail(where, fmt::format("{} is an array: expected an index, found \"{}\"", walked, key));
            const std::size_t index = std::stoul(key);
            if (index >= node->size())
                fail(where, fmt::format("{}: index {} is out of range (the array has {} items)", walked, index, node->size()));
            next = &(*node)[index];
        } else if (node->is_object() || node->is_null()) {
            next = &(*node)[key];
        } else {
            fail(where, fmt::format("{} is not an object or array", walked.substr(0, walked.rfind('/'))));
        }
        if (slash == std::string::npos) {
            *next = value;
            return;
        }
        node = next;
        pos = slash + 1;
    }
}

}  // namespace

const char* to_string(Order o) { return o == Order::declared ? "declared" : "shuffled"; }
const char* to_string(ResourceMode m) {
    switch (m) {
        case ResourceMode::off: return "off";
        case ResourceMode::check: return "check";
        case ResourceMode::validate: return "validate";
    }
    return "?";
}
const char* to_string(FaultKind k) {
    switch (k) {
        case FaultKind::pause: return "pause";
        case FaultKind::partition: return "partition";
        case FaultKind::crash: return "crash";
        case FaultKind::failover: return "failover";
    }
    return "?";
}
const char* to_string(PartitionMode m) { return m == PartitionMode::drop_requests ? "drop_requests" : "drop_replies"; }
const char* to_string(FailoverLoss l) { return l == FailoverLoss::leases ? "leases" : "all"; }
const char* to_string(OpKind k) { return k == OpKind::status ? "status" : "validate"; }

NodeIndex Scenario::find(std::string_view candidate_name) const {
    for (std::size_t i = 0; i < candidates.size(); ++i) {
        if (candidates[i].name == candidate_name) return static_cast<NodeIndex>(i);
    }
    return -1;
}

std::string ScenarioError::to_string() const {
    if (where.empty()) return fmt::format("{}: {}", file, message);
    if (!where.empty() && (where[0] == '/' || where.rfind("--set", 0) == 0))
        return fmt::format("{}: {}: {}", file, where, message);
    return fmt::format("{}:{}: {}", file, where, message);
}

Result<Override, std::string> parse_override(std::string_view text) {
    const std::size_t eq = text.find('=');
    if (eq == std::string_view::npos || eq == 0)
        return Err{fmt::format("--set {}: expected PATH=VALUE, like defaults.lease=8 or candidates/1/start=3", text)};
    return Override{std::string(text.substr(0, eq)), std::string(text.substr(eq + 1))};
}

Result<Scenario, std::vector<ScenarioError>> parse_scenario_all_errors(std::string_view text, const std::string& file,
                                                                       const std::vector<Override>& overrides) {
    using Errors = std::vector<ScenarioError>;
    if (static_cast<std::int64_t>(text.size()) > limits::scenario_bytes_max)
        return Err{Errors{ScenarioError{file, "", fmt::format("the file is larger than {} bytes (scenario_bytes_max)",
                                                              limits::scenario_bytes_max)}}};
    Failures failures;
    std::optional<Scenario> scenario;
    try {
        std::optional<SyntaxError> syntax;
        std::optional<json> root = parse_bounded(text, "", 0, syntax);
        // A syntax error stops the parser: it is the only one reported.
        if (!root) return Err{Errors{ScenarioError{file, syntax->where, syntax->message}}};
        for (const Override& o : overrides) apply_override(*root, o);
        scenario = read_scenario(*root, failures);
    } catch (Failure& f) {
        failures.push_back(std::move(f));
    }
    std::erase_if(failures, [](const Failure& f) { return f.follows; });
    if (failures.empty()) return std::move(*scenario);
    if (failures.size() > 1) {
        // File order: the document as written, with the overrides applied
        // (the text passed the bounded parse, so this parse cannot fail).
        ordered_json ordered = ordered_json::parse(text.begin(), text.end(), nullptr, false, /*ignore_comments=*/true);
        std::map<std::string, Span> order;
        std::size_t counter = 1;
        document_order(ordered, "", order, counter);
        std::stable_sort(failures.begin(), failures.end(), [&](const Failure& a, const Failure& b) {
            return order_of(order, a) < order_of(order, b);
        });
    }
    Errors errors;
    for (const Failure& f : failures) {
        const bool repeat = std::any_of(errors.begin(), errors.end(), [&](const ScenarioError& e) {
            return e.where == f.where && e.message == f.message;
        });
        if (!repeat) errors.push_back(ScenarioError{file, f.where, f.message});
    }
    return Err{std::move(errors)};
}

ScenarioResult parse_scenario(std::string_view text, const std::string& file, const std::vector<Override>& overrides) {
    auto all = parse_scenario_all_errors(text, file, overrides);
    if (!all.ok()) return Err{std::move(all.error().front())};
    return std::move(all).value();
}

std::string scenario_to_json(const Scenario& s) {
    ordered_json root;
    root["name"] = s.name;
    if (!s.title.en.empty() || !s.title.ko.empty()) root["title"] = {{"en", s.title.en}, {"ko", s.title.ko}};
    if (!s.summary.en.empty() || !s.summary.ko.empty())
        root["summary"] = {{"en", s.summary.en}, {"ko", s.summary.ko}};
    root["tick_ms"] = s.tick_ms;
    root["horizon"] = s.horizon;
    root["seed"] = s.seed;
    root["order"] = to_string(s.order);
    root["lock"] = {{"name", s.lock.name},
                    {"capacity", s.lock.capacity},
                    {"fencing_start", s.lock.fencing_start},
                    {"elector", to_string(s.elector)}};
    root["resource"] = {{"mode", to_string(s.resource)}};
    ordered_json candidates = ordered_json::array();
    for (const Candidate& c : s.candidates) {
        const ElectorOptions& o = c.options;
        ordered_json j;
        j["name"] = c.name;
        j["start"] = o.start;
        j["wait"] = o.wait;
        j["lease"] = o.lease;
        j["min_lease"] = o.min_lease;
        j["auto_extend"] = o.auto_extend;
        if (c.extend_every_given) j["extend_every"] = o.extend_every;
        j["retry_every"] = o.retry_every;
        j["action"] = o.action;
        if (c.writes_given) j["writes"] = o.writes;
        if (o.fail_at > 0) j["fail_at"] = o.fail_at;
        j["hold_off"] = o.hold_off;
        j["runs"] = o.runs;
        if (o.every > 0) j["every"] = o.every;
        candidates.push_back(std::move(j));
    }
    root["candidates"] = std::move(candidates);
    ordered_json faults = ordered_json::array();
    for (const Fault& f : s.faults) {
        ordered_json j;
        j["kind"] = to_string(f.kind);
        if (f.node >= 0) j["node"] = s.candidates[static_cast<std::size_t>(f.node)].name;
        j["at"] = f.at;
        if (f.kind == FaultKind::pause || f.kind == FaultKind::partition) j["ticks"] = f.ticks;
        if (f.kind == FaultKind::partition) j["mode"] = to_string(f.mode);
        if (f.kind == FaultKind::failover) j["lose"] = to_string(f.lose);
        faults.push_back(std::move(j));
    }
    root["faults"] = std::move(faults);
    ordered_json ops = ordered_json::array();
    for (const Op& op : s.ops) {
        ordered_json j;
        j["at"] = op.at;
        j["actor"] = op.actor;
        j["op"] = to_string(op.op);
        if (op.op == OpKind::validate) j["token_of"] = s.candidates[static_cast<std::size_t>(op.token_of)].name;
        ops.push_back(std::move(j));
    }
    root["ops"] = std::move(ops);
    return root.dump(2) + "\n";
}

}  // namespace leasescope::sim

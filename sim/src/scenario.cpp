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
};

[[noreturn]] void fail(std::string where, std::string message) { throw Failure{std::move(where), std::move(message)}; }

// A SAX pass that reports a key given twice in one object (nlohmann's DOM
// would silently keep the last), with the JSON path of that object. It runs
// after the DOM parse succeeded, so it never sees a syntax error. (nlohmann's
// parse callback could do this in the same pass, but its DOM-with-callback
// parser is quadratic in array length.)
class DuplicateKeyWatch final : public nlohmann::json_sax<json> {
public:
    bool null() override { return scalar(); }
    bool boolean(bool) override { return scalar(); }
    bool number_integer(number_integer_t) override { return scalar(); }
    bool number_unsigned(number_unsigned_t) override { return scalar(); }
    bool number_float(number_float_t, const string_t&) override { return scalar(); }
    bool string(string_t&) override { return scalar(); }
    bool binary(binary_t&) override { return scalar(); }
    bool start_object(std::size_t) override { return open(false); }
    bool start_array(std::size_t) override { return open(true); }
    bool end_object() override { return close(); }
    bool end_array() override { return close(); }
    bool key(string_t& key) override {
        Frame& f = stack_.back();
        if (!f.keys.insert(key).second)
            fail(f.path + "/" + key, fmt::format("key \"{}\" appears twice in this object; keep one", key));
        f.last_key = key;
        return true;
    }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }

private:
    struct Frame {
        bool is_array;
        std::size_t next_index;
        std::string path;
        std::string last_key;
        std::set<std::string> keys;
    };
    bool scalar() {
        if (!stack_.empty() && stack_.back().is_array) ++stack_.back().next_index;
        return true;
    }
    bool open(bool is_array) {
        std::string path;
        if (!stack_.empty()) {
            Frame& f = stack_.back();
            path = f.is_array ? f.path + "/" + std::to_string(f.next_index++) : f.path + "/" + f.last_key;
        }
        stack_.push_back(Frame{is_array, 0, std::move(path), {}, {}});
        return true;
    }
    bool close() {
        stack_.pop_back();
        return true;
    }
    std::vector<Frame> stack_;
};

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
    for (const auto& k : known) {
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
    if (v.is_string()) return fmt::format("the string {}", v.dump());
    if (v.is_number_float()) return fmt::format("the number {}", v.dump());
    if (v.is_number()) return v.dump();
    if (v.is_array()) return "an array";
    return "an object";
}

void check_keys(const json& obj, const std::string& path, const std::vector<std::string>& allowed) {
    for (auto it = obj.begin(); it != obj.end(); ++it) {
        if (std::find(allowed.begin(), allowed.end(), it.key()) == allowed.end())
            fail(path + "/" + it.key(), fmt::format("unknown key \"{}\"{}", it.key(), suggestion(it.key(), allowed)));
    }
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
        if (!ok) fail(path, fmt::format("expected letters, digits, '-', '_', '.' or ':' only, found {}", v.dump()));
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
    fail(path, fmt::format("unknown value \"{}\"{}", s, suggestion(s, names)));
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

Candidate read_candidate(const json& defaults, const json& own, std::size_t index) {
    const std::string own_path = fmt::format("/candidates/{}", index);
    need_object(own, own_path);
    check_keys(own, own_path, candidate_keys);
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
            fail(own_path, fmt::format("missing \"{}\" (required here or in \"defaults\"; an integer from {} to {})",
                                       key, r.lo, r.hi));
        return get_int(*v, path, r.lo, r.hi);
    };
    auto path_of = [&](const char* key) {
        auto [v, path] = source(key);
        return v == nullptr ? own_path : path;
    };

    Candidate c;
    c.name = get_name(own["name"], own_path + "/name");
    ElectorOptions& o = c.options;
    o.start = int_or("start", 0);
    o.wait = required("wait");
    o.lease = required("lease");
    o.action = required("action");
    o.min_lease = int_or("min_lease", 0);
    if (o.min_lease > o.lease)
        fail(path_of("min_lease"), fmt::format("min_lease {} must not exceed lease {} (the library requires "
                                               "minLeaseTime <= leaseTime)", o.min_lease, o.lease));
    if (auto [v, path] = source("auto_extend"); v != nullptr) o.auto_extend = get_bool(*v, path);
    // Absent, the watchdog runs on the library's period in milliseconds
    // (model.md §5.5); given, it overrides that period in ticks.
    c.extend_every_given = source("extend_every").first != nullptr;
    o.extend_every = int_or("extend_every", 0);
    if (o.auto_extend && c.extend_every_given && o.extend_every >= o.lease) {
        fail(path_of("extend_every"),
             fmt::format("with auto_extend, extend_every ({}) must be less than lease ({})", o.extend_every, o.lease));
    }
    o.retry_every = int_or("retry_every", 1);
    o.hold_off = int_or("hold_off", 0);
    o.runs = static_cast<std::int32_t>(int_or("runs", 1));
    o.every = o.runs > 1 ? required("every") : int_or("every", 0);
    if (auto [v, path] = source("fail_at"); v != nullptr) {
        o.fail_at = get_int(*v, path, 1, o.action);
    }
    if (auto [v, path] = source("writes"); v != nullptr) {
        c.writes_given = true;
        o.writes = get_writes(*v, path, o.action);
    } else {
        o.writes = {o.action};
    }
    return c;
}

NodeIndex get_node(const json& v, const std::string& path, const Scenario& s) {
    const std::string name = get_name(v, path);
    const NodeIndex n = s.find(name);
    if (n < 0) {
        std::vector<std::string> names;
        for (const auto& c : s.candidates) names.push_back(c.name);
        fail(path, fmt::format("unknown node \"{}\"{}", name, suggestion(name, names)));
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

Scenario read_scenario(const json& root) {
    need_object(root, "/");
    check_keys(root, "",
               {"name", "title", "summary", "tick_ms", "horizon", "seed", "order", "lock", "resource", "defaults",
                "candidates", "faults", "ops"});
    Scenario s;
    if (!root.contains("name")) fail("/", "missing \"name\" (required: the scenario's name)");
    s.name = get_identifier(root["name"], "/name");
    if (root.contains("title")) s.title = get_localized(root["title"], "/title");
    if (root.contains("summary")) s.summary = get_localized(root["summary"], "/summary");
    if (root.contains("tick_ms")) s.tick_ms = get_int(root["tick_ms"], "/tick_ms", limits::tick_ms_min, limits::tick_ms_max);
    if (root.contains("horizon")) s.horizon = get_int(root["horizon"], "/horizon", 0, limits::horizon_max);
    if (root.contains("seed")) {
        const json& v = root["seed"];
        if (!(v.is_number_unsigned() || (v.is_number_integer() && v.get<std::int64_t>() >= 0)))
            fail("/seed", fmt::format("expected an integer from 0 to 18446744073709551615, found {}", describe(v)));
        s.seed = v.get<std::uint64_t>();
    }
    if (root.contains("order"))
        s.order = get_enum<Order>(root["order"], "/order", {{"declared", Order::declared}, {"shuffled", Order::shuffled}});
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
    if (root.contains("resource")) {
        const json& res = need_object(root["resource"], "/resource");
        check_keys(res, "/resource", {"mode"});
        if (res.contains("mode"))
            s.resource = get_enum<ResourceMode>(res["mode"], "/resource/mode",
                                                {{"off", ResourceMode::off}, {"check", ResourceMode::check},
                                                 {"validate", ResourceMode::validate}});
    }
    json defaults = json::object();
    if (root.contains("defaults")) {
        defaults = need_object(root["defaults"], "/defaults");
        std::vector<std::string> keys(candidate_keys.begin() + 1, candidate_keys.end());
        check_keys(defaults, "/defaults", keys);
        check_defaults(defaults);
    }
    if (!root.contains("candidates")) fail("/", "missing \"candidates\" (required: an array of one or more candidates)");
    const json& candidates = root["candidates"];
    if (!candidates.is_array() || candidates.empty())
        fail("/candidates", fmt::format("expected an array of one or more candidates, found {}",
                                        candidates.is_array() ? "an empty array" : describe(candidates)));
    if (static_cast<std::int64_t>(candidates.size()) > limits::candidates_max)
        fail("/candidates", fmt::format("expected at most {} candidates, found {}", limits::candidates_max, candidates.size()));
    std::map<std::string, std::size_t> seen;  // name -> index, for duplicates
    for (std::size_t i = 0; i < candidates.size(); ++i) {
        Candidate c = read_candidate(defaults, candidates[i], i);
        if (auto [it, fresh] = seen.emplace(c.name, i); !fresh)
            fail(fmt::format("/candidates/{}/name", i),
                 fmt::format("duplicate name \"{}\" (also /candidates/{}); names must be unique", c.name, it->second));
        c.options.elector = s.elector;
        c.options.tick_ms = s.tick_ms;
        s.candidates.push_back(std::move(c));
    }
    if (root.contains("faults")) {
        const json& faults = root["faults"];
        if (!faults.is_array()) fail("/faults", fmt::format("expected an array of faults, found {}", describe(faults)));
        if (static_cast<std::int64_t>(faults.size()) > limits::faults_max)
            fail("/faults", fmt::format("expected at most {} faults, found {}", limits::faults_max, faults.size()));
        for (std::size_t i = 0; i < faults.size(); ++i) s.faults.push_back(read_fault(faults[i], i, s));
        check_fault_overlaps(s);
    }
    if (root.contains("ops")) {
        const json& ops = root["ops"];
        if (!ops.is_array()) fail("/ops", fmt::format("expected an array of ops, found {}", describe(ops)));
        if (static_cast<std::int64_t>(ops.size()) > limits::ops_max)
            fail("/ops", fmt::format("expected at most {} ops, found {}", limits::ops_max, ops.size()));
        for (std::size_t i = 0; i < ops.size(); ++i) s.ops.push_back(read_op(ops[i], i, s));
    }
    return s;
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

void apply_override(json& root, const Override& o) {
    const std::string where = fmt::format("--set {}={}", o.path, o.value);
    json value;
    try {
        value = json::parse(o.value);
    } catch (const json::exception&) {
        // Not JSON (a parse error), or a number beyond a double (1e400, an
        // out_of_range error): a plain string, which validation then rejects.
        value = o.value;
        // The JSON parser only lets valid UTF-8 in; a plain string must be
        // too, or every later dump() of it (errors, traces) would throw.
        try {
            (void)value.dump();
        } catch (const json::type_error&) {
            fail(where, "the value is not valid UTF-8");
        }
    }
    // A path copied from an error message starts with '/': accept it.
    const std::string pointer = override_pointer(o.path.size() > 1 && o.path[0] == '/' ? o.path.substr(1) : o.path);
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

ScenarioResult parse_scenario(std::string_view text, const std::string& file, const std::vector<Override>& overrides) {
    if (static_cast<std::int64_t>(text.size()) > limits::scenario_bytes_max)
        return Err{ScenarioError{file, "", fmt::format("the file is larger than {} bytes", limits::scenario_bytes_max)}};
    json root;
    try {
        root = json::parse(text.begin(), text.end(), nullptr, true, /*ignore_comments=*/true);
    } catch (const json::parse_error& e) {
        // Line and column of the byte where the parser stopped.
        const std::size_t stop = std::min<std::size_t>(e.byte == 0 ? 0 : e.byte - 1, text.size());
        std::size_t line = 1, column = 1;
        for (std::size_t i = 0; i < stop; ++i) {
            if (text[i] == '\n') {
                ++line;
                column = 1;
            } else {
                ++column;
            }
        }
        std::string what = e.what();
        // nlohmann's text after its own position prefix says what was expected.
        if (const auto colon = what.find(": "); colon != std::string::npos) what = what.substr(colon + 2);
        return Err{ScenarioError{file, fmt::format("{}:{}", line, column), "JSON syntax error: " + what}};
    } catch (const json::out_of_range&) {
        // A number beyond a double, like 1e400: nlohmann throws this one
        // instead of a parse_error, without a position.
        return Err{ScenarioError{file, "", "JSON number out of range: a number is too large for a double (like 1e400)"}};
    }
    try {
        DuplicateKeyWatch watch;
        json::sax_parse(text.begin(), text.end(), &watch, nlohmann::detail::input_format_t::json, true,
                        /*ignore_comments=*/true);
        for (const Override& o : overrides) apply_override(root, o);
        return read_scenario(root);
    } catch (const Failure& f) {
        return Err{ScenarioError{file, f.where, f.message}};
    }
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

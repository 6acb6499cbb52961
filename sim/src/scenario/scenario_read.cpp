// Reading a whole scenario: the top-level keys, the lock, the candidates,
// faults and ops with their checks, and every error listed in file order.
#include <algorithm>
#include <map>
#include <optional>
#include <tuple>

#include <fmt/format.h>

#include "leasescope/sim/limits.hpp"
#include "scenario_internal.hpp"

namespace leasescope::sim {
namespace scenario_detail {

NodeNames::NodeNames(const Scenario& s) {
    sorted_.reserve(s.candidates.size());
    for (std::size_t i = 0; i < s.candidates.size(); ++i)
        sorted_.emplace_back(s.candidates[i].name, static_cast<NodeIndex>(i));
    // By name, then declared index: the first of equal names is found first.
    // Generated scenarios (and most written ones) name their nodes in order:
    // sorting 100,000 sorted names was a twentieth of their parse.
    if (!std::is_sorted(sorted_.begin(), sorted_.end())) std::sort(sorted_.begin(), sorted_.end());
}

NodeIndex NodeNames::find(std::string_view name) const {
    const auto it = std::lower_bound(sorted_.begin(), sorted_.end(), name,
                                     [](const auto& entry, std::string_view n) { return entry.first < n; });
    return it != sorted_.end() && it->first == name ? it->second : -1;
}

NodeIndex get_node(const json& v, const std::string& path, const Scenario& s, const NodeNames* names) {
    const std::string name = get_name(v, path);
    const NodeIndex n = names != nullptr ? names->find(name) : s.find(name);
    if (n < 0) {
        std::vector<std::string> known;
        for (const auto& c : s.candidates) known.push_back(c.name);
        fail(path, fmt::format("unknown node {}{}", quote(name), suggestion(name, known)));
    }
    return n;
}

namespace {

// The clock and the step of a clock_jump (model.md §7.5): "store" or a
// candidate, and a step of either sign, not 0, within clock_jump_ms_max.
void read_clock_jump(const json& v, const std::string& path, const Scenario& s, const NodeNames& names, Fault& f) {
    const std::string clock_path = path + "/clock";
    if (read_store_clock_jump(v["clock"], s, f)) {
        // A Redlock store's clock (model.md §20.2 rule 4).
    } else if (v["clock"].is_string() && v["clock"].get<std::string>() == "store" && s.is_redlock()) {
        fail(clock_path, fmt::format("a Redlock scenario has no single store: name one of its stores ({})",
                                     fmt::join(s.stores, ", ")));
    } else if (v["clock"].is_string() && v["clock"].get<std::string>() == "store") {
        if (s.find("store") >= 0)
            fail(clock_path,
                 "\"store\" names both the store's clock and a candidate; rename the candidate to jump either clock");
        f.node = -1;
    } else {
        if (!v["clock"].is_string())
            fail(clock_path, fmt::format("expected \"store\" or a candidate's name, found {}", describe(v["clock"])));
        f.node = get_node(v["clock"], clock_path, s, &names);
    }
    const std::string ms_path = path + "/ms";
    const json& ms = v["ms"];
    f.ms = get_int_within(ms, ms_path, -limits::clock_jump_ms_max, limits::clock_jump_ms_max, "clock_jump_ms_max");
    if (f.ms == 0) fail(ms_path, "expected a step of at least 1 ms either way, found 0 (a jump of 0 changes nothing)");
}

// A fault, or nothing when its object has unknown keys: each of them is in
// `errors`, and a misspelt key would also make a required one look missing.
// The keys of a fault kind or an op are its rows in the key table
// (scenario_keys.cpp): an unknown key is named with "did you mean", and a
// required one missing is named with its kind.
std::optional<Fault> read_fault(const json& v, std::size_t index, const Scenario& s, const NodeNames& names,
                                bool replicas_known, Failures& errors) {
    const std::string path = fmt::format("/faults/{}", index);
    need_object(v, path);
    const ScenarioKey& kind = scenario_key(Section::fault, "kind");
    if (!v.contains(kind.name)) fail(path, fmt::format("missing \"kind\" ({})", choice_list(kind)));
    Fault f;
    f.kind = get_choice<FaultKind>(v["kind"], path + "/kind", kind);
    if (!check_keys(v, path, key_names_of(Section::fault, to_string(f.kind)), errors)) return std::nullopt;
    for (const ScenarioKey* key : keys_of(Section::fault, to_string(f.kind))) {
        if (key->need == Need::required && !v.contains(key->name))
            fail(path, fmt::format("missing \"{}\" (required for a {})", key->name, to_string(f.kind)));
    }
    if (s.is_redlock() && (f.kind == FaultKind::failover || f.kind == FaultKind::replica_link))
        fail(path + "/kind", fmt::format("a {} concerns the one store and its replicas; Redlock's stores are "
                                         "independent masters: use a restart (docs/model.md §20.3)",
                                         to_string(f.kind)));
    f.at = get_key_int(v["at"], path + "/at", scenario_key(Section::fault, "at"));
    if (v.contains("node")) f.node = get_node(v["node"], path + "/node", s, &names);
    if (v.contains("ticks")) f.ticks = get_key_int(v["ticks"], path + "/ticks", scenario_key(Section::fault, "ticks"));
    if (f.kind == FaultKind::clock_jump) {
        read_clock_jump(v, path, s, names, f);
        return f;
    }
    if (f.kind == FaultKind::delay) {
        f.link = get_choice<Link>(v["link"], path + "/link", scenario_key(Section::fault, "link"));
        f.extra = get_key_int(v["extra"], path + "/extra", scenario_key(Section::fault, "extra"));
    }
    read_redlock_fault(v, path, s, f);
    if (v.contains("mode"))
        f.mode = get_choice<PartitionMode>(v["mode"], path + "/mode", scenario_key(Section::fault, "mode"));
    if (v.contains("lose"))
        f.lose = get_choice<FailoverLoss>(v["lose"], path + "/lose", scenario_key(Section::fault, "lose"));
    if (f.kind == FaultKind::replica_link || f.kind == FaultKind::failover)
        read_replication_fault(v, path, s, names, replicas_known, f, errors);
    return f;
}

// An op, or nothing when its object has unknown keys (each is in `errors`).
std::optional<Op> read_op(const json& v, std::size_t index, const Scenario& s, const NodeNames& names,
                          Failures& errors) {
    const std::string path = fmt::format("/ops/{}", index);
    need_object(v, path);
    const ScenarioKey& kind = scenario_key(Section::op, "op");
    if (!v.contains(kind.name)) fail(path, fmt::format("missing \"op\" ({})", choice_list(kind)));
    Op op;
    op.op = get_choice<OpKind>(v["op"], path + "/op", kind);
    if (s.is_redlock())
        fail(path, "ops ask the one store; a Redlock scenario has independent stores and no ops (docs/model.md §20)");
    if (!check_keys(v, path, key_names_of(Section::op, to_string(op.op)), errors)) return std::nullopt;
    for (const ScenarioKey* key : keys_of(Section::op, to_string(op.op))) {
        if (key->need == Need::required && !v.contains(key->name))
            fail(path, fmt::format("missing \"{}\" (required for a {} op)", key->name, to_string(op.op)));
    }
    op.at = get_key_int(v["at"], path + "/at", scenario_key(Section::op, "at"));
    op.actor = get_name(v["actor"], path + "/actor");
    if (v.contains("token_of")) op.token_of = get_node(v["token_of"], path + "/token_of", s, &names);
    return op;
}

// Two pauses, or two partitions, on one node must not overlap, nor two cuts
// of one server's link (model.md §7.4, §17.2 item 3). A sort finds whether
// any pair does in O(F log F); only then does the pairwise loop name the
// first such pair in file order.
bool has_span(const Fault& f) {
    return f.kind == FaultKind::pause || f.kind == FaultKind::partition || f.kind == FaultKind::replica_link;
}
// Whose span it is: a node's, or a server's link.
std::int64_t span_owner(const Fault& f) { return f.kind == FaultKind::replica_link ? f.server : f.node; }
std::string span_name(const Scenario& s, const Fault& f) {
    if (f.kind == FaultKind::replica_link) return fmt::format("server {}", f.server);
    return s.candidates[static_cast<std::size_t>(f.node)].name;
}

void check_fault_overlaps(const Scenario& s) {
    std::vector<const Fault*> spans;
    for (const Fault& f : s.faults) {
        if (has_span(f)) spans.push_back(&f);
    }
    std::sort(spans.begin(), spans.end(), [](const Fault* a, const Fault* b) {
        return std::tuple(a->kind, span_owner(*a), a->at) < std::tuple(b->kind, span_owner(*b), b->at);
    });
    bool any = false;
    for (std::size_t k = 1; k < spans.size() && !any; ++k) {
        const Fault& a = *spans[k - 1];
        const Fault& b = *spans[k];
        any = span_owner(a) == span_owner(b) && a.kind == b.kind && b.at < a.end();
    }
    if (!any) return;
    for (std::size_t i = 0; i < s.faults.size(); ++i) {
        const Fault& a = s.faults[i];
        if (!has_span(a)) continue;
        for (std::size_t j = 0; j < i; ++j) {
            const Fault& b = s.faults[j];
            if (b.kind != a.kind || span_owner(b) != span_owner(a)) continue;
            if (a.at < b.end() && b.at < a.end())
                fail(fmt::format("/faults/{}", i),
                     fmt::format("this {} of {} (ticks {}..{}) overlaps the one at /faults/{} (ticks {}..{})",
                                 to_string(a.kind), span_name(s, a), a.at, a.end() - 1, j, b.at, b.end() - 1));
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
// The top level's plain values (model.md §11.2).
void read_top_values(const json& root, Scenario& s, Failures& errors) {
    if (root.contains("tick_ms"))
        attempt(errors,
                [&] { s.tick_ms = get_key_int(root["tick_ms"], "/tick_ms", scenario_key(Section::top, "tick_ms")); });
    if (root.contains("horizon"))
        attempt(errors,
                [&] { s.horizon = get_key_int(root["horizon"], "/horizon", scenario_key(Section::top, "horizon")); });
    if (root.contains("seed")) {
        attempt(errors, [&] {
            const json& v = root["seed"];
            if (!(v.is_number_unsigned() || (v.is_number_integer() && v.get<std::int64_t>() >= 0)))
                fail("/seed", fmt::format("expected an integer from 0 to 18446744073709551615, found {}", describe(v)));
            s.seed = v.get<std::uint64_t>();
        });
    }
    if (root.contains("order"))
        attempt(errors,
                [&] { s.order = get_choice<Order>(root["order"], "/order", scenario_key(Section::top, "order")); });
    if (root.contains("network")) attempt(errors, [&] { read_network(root["network"], "/network", s.network); });
}

// /lock, and the elector its capacity implies (model.md §5.2).
void read_lock_section(const json& root, Scenario& s, Failures& errors) {
    attempt(errors, [&] {
        if (root.contains("lock")) {
            const json& lock = need_object(root["lock"], "/lock");
            check_keys(lock, "/lock", key_names_of(Section::lock), errors);
            if (lock.contains("name")) s.lock.name = get_identifier(lock["name"], "/lock/name");
            if (lock.contains("capacity"))
                s.lock.capacity = static_cast<std::int32_t>(
                    get_key_int(lock["capacity"], "/lock/capacity", scenario_key(Section::lock, "capacity")));
            if (lock.contains("fencing_start"))
                s.lock.fencing_start = get_key_int(lock["fencing_start"], "/lock/fencing_start",
                                                   scenario_key(Section::lock, "fencing_start"));
        }
        // The single lock for one slot, the leader group for more (model.md §5.2).
        s.elector = s.lock.capacity == 1 ? ElectorKind::lock : ElectorKind::group;
        if (root.contains("lock") && root["lock"].contains("elector")) {
            s.elector = get_choice<ElectorKind>(root["lock"]["elector"], "/lock/elector",
                                                scenario_key(Section::lock, "elector"));
            if (s.elector == ElectorKind::lock && s.lock.capacity > 1)
                fail("/lock/elector",
                     fmt::format("\"lock\" is the single-leader elector and needs capacity 1, found capacity {}; "
                                 "use \"group\" for a leader group of {} slots",
                                 s.lock.capacity, s.lock.capacity));
        }
    });
}

// /store: the store's own settings (model.md §3.3, §17), one reader per key
// of the key table's store rows, in their order.
void read_store_clock(const json& v, const std::string& path, Scenario& s, Failures& errors) {
    s.lock.clock.drift_ppm = get_clock_drift(v, path, errors);
}
void read_store_replicas(const json& v, const std::string& path, Scenario& s, Failures&) {
    s.lock.replication.replicas =
        static_cast<std::int32_t>(get_key_int(v, path, scenario_key(Section::store, "replicas")));
}
void read_store_min_replicas(const json& v, const std::string& path, Scenario& s, Failures&) {
    s.lock.replication.min_replicas_to_write =
        static_cast<std::int32_t>(get_key_int(v, path, scenario_key(Section::store, "min_replicas_to_write")));
}
// Absent it stays 0: the simulator takes Redis's 10 s (default_min_replicas_max_lag).
void read_store_max_lag(const json& v, const std::string& path, Scenario& s, Failures&) {
    s.lock.replication.min_replicas_max_lag =
        get_key_int(v, path, scenario_key(Section::store, "min_replicas_max_lag"));
}
struct StoreKey {
    const char* name;
    void (*read)(const json& v, const std::string& path, Scenario& s, Failures& errors);
};
constexpr StoreKey store_keys[] = {
    {"clock", read_store_clock},
    {"replicas", read_store_replicas},
    {"min_replicas_to_write", read_store_min_replicas},
    {"min_replicas_max_lag", read_store_max_lag},
};

// True when store.replicas is known (absent or read without error): the
// checks against it can be made.
bool read_store_section(const json& root, Scenario& s, Failures& errors) {
    if (!root.contains("store")) return true;
    bool replicas_ok = false;
    attempt(errors, [&] {
        const json& store = need_object(root["store"], "/store");
        check_keys(store, "/store", key_names_of(Section::store), errors);
        bool min_ok = true;
        replicas_ok = true;
        for (const StoreKey& k : store_keys) {
            LS_ASSERT(scenario_key(Section::store, k.name).section == Section::store);
            const std::string path = std::string("/store/") + k.name;
            if (!store.contains(k.name)) continue;
            const bool ok = attempt(errors, [&] { k.read(store[k.name], path, s, errors); });
            if (k.read == read_store_replicas) replicas_ok = ok;
            if (k.read == read_store_min_replicas) min_ok = ok;
        }
        const Replication& r = s.lock.replication;
        if (replicas_ok && min_ok && r.min_replicas_to_write > r.replicas)
            fail("/store/min_replicas_to_write",
                 fmt::format("min_replicas_to_write {} must not exceed replicas {} (a primary could never write)",
                             r.min_replicas_to_write, r.replicas));
    });
    return replicas_ok;
}

// /resource (model.md §8).
void read_resource_section(const json& root, Scenario& s, Failures& errors) {
    if (root.contains("resource")) {
        attempt(errors, [&] {
            const json& res = need_object(root["resource"], "/resource");
            check_keys(res, "/resource", key_names_of(Section::resource), errors);
            if (res.contains("mode"))
                s.resource =
                    get_choice<ResourceMode>(res["mode"], "/resource/mode", scenario_key(Section::resource, "mode"));
        });
    }
}

// /faults, each checked against the candidates, then their overlaps (§7.4)
// and, with replicas, the primary each meets (§17).
void read_fault_list(const json& root, Scenario& s, const NodeNames& names, bool replicas_known, Failures& errors) {
    if (root.contains("faults")) {
        const json& faults = root["faults"];
        const bool faults_ok = attempt(errors, [&] {
            if (!faults.is_array())
                fail("/faults", fmt::format("expected an array of faults, found {}", describe(faults)));
            if (static_cast<std::int64_t>(faults.size()) > limits::faults_max)
                fail("/faults", fmt::format("expected at most {} faults, found {}", limits::faults_max, faults.size()));
        });
        bool each_ok = faults_ok;
        for (std::size_t i = 0; faults_ok && i < faults.size(); ++i) {
            const std::size_t before = errors.size();
            attempt(errors, [&] {
                if (std::optional<Fault> f = read_fault(faults[i], i, s, names, replicas_known, errors))
                    s.faults.push_back(*f);
            });
            each_ok = each_ok && errors.size() == before;
        }
        if (each_ok) attempt(errors, [&] { check_fault_overlaps(s); });
        if (each_ok) attempt(errors, [&] { check_restarts(s); });
        if (each_ok && replicas_known) check_replication_faults(s, errors);
    }
}

// /ops, each checked against the candidates (§6.1).
void read_op_list(const json& root, Scenario& s, const NodeNames& names, Failures& errors) {
    if (root.contains("ops")) {
        const json& ops = root["ops"];
        const bool ops_ok = attempt(errors, [&] {
            if (!ops.is_array()) fail("/ops", fmt::format("expected an array of ops, found {}", describe(ops)));
            if (static_cast<std::int64_t>(ops.size()) > limits::ops_max)
                fail("/ops", fmt::format("expected at most {} ops, found {}", limits::ops_max, ops.size()));
        });
        for (std::size_t i = 0; ops_ok && i < ops.size(); ++i)
            attempt(errors, [&] {
                if (std::optional<Op> op = read_op(ops[i], i, s, names, errors)) s.ops.push_back(*op);
            });
    }
}

// WAIT counts replicas (model.md §17.6): wait_replicas at most store.replicas.
void check_wait_replicas(const Scenario& s, const Defaults& defaults, const json& own, std::size_t index,
                         const Candidate& c) {
    const std::int32_t n = c.options.wait_replicas;
    const std::int32_t replicas = s.lock.replication.replicas;
    if (n <= replicas) return;
    const std::string path = candidate_key_path(defaults, own, index, "wait_replicas");
    if (replicas == 0)
        fail(path, fmt::format("wait_replicas {} needs a store with replicas, and store.replicas is 0", n));
    fail(path,
         fmt::format("wait_replicas {} is more than store.replicas {}; WAIT could never count that many", n, replicas));
}

// The names of the candidates read so far, for duplicates. While each name
// sorts after the one before (a generated file's do) none can repeat, and
// the last is s.candidates.back(); at the first that does not, or the first
// candidate left out, the names so far go into a map (name -> index) where
// every later one is looked up. A map of all 100,000 names of a generated
// scenario was about 4 % of the instructions of reading it, and 8 MB.
class SeenNames {
public:
    // The index of an earlier candidate so named; else none, and `name` is
    // the name of candidate `index`, the next one pushed onto s.candidates.
    std::optional<std::size_t> add(const std::string& name, std::size_t index, const Scenario& s) {
        if (!mapped_ && (s.candidates.empty() || s.candidates.back().name < name)) {
            LS_ASSERT(s.candidates.size() == index);
            return std::nullopt;
        }
        to_map(s);
        const auto [it, fresh] = map_.emplace(name, index);
        return fresh ? std::nullopt : std::optional<std::size_t>(it->second);
    }
    // Before a candidate is left out: the places in s.candidates stop being
    // the indexes in the file.
    void to_map(const Scenario& s) {
        if (mapped_) return;
        mapped_ = true;
        for (std::size_t i = 0; i < s.candidates.size(); ++i) map_.emplace(s.candidates[i].name, i);
    }

private:
    bool mapped_ = false;
    std::map<std::string, std::size_t> map_;
};

// Each candidate, merged with the defaults; false when one had an error.
bool read_candidate_list(const json& candidates, const Defaults& defaults, bool replicas_known, Scenario& s,
                         Failures& errors) {
    bool candidates_ok = true;
    SeenNames seen;
    // Grown by doubling, the vector's moves touched about twice its final
    // size: a third of the page faults of reading a generated scenario.
    s.candidates.reserve(candidates.size());
    for (std::size_t i = 0; i < candidates.size(); ++i) {
        const KeyValues own_values(candidates[i]);
        Candidate c;
        try {
            c = read_candidate(defaults, candidates[i], own_values, i, errors);
        } catch (Failure& f) {
            errors.push_back(std::move(f));
            candidates_ok = false;
            seen.to_map(s);
            continue;
        } catch (Reported& r) {
            // Its errors are listed; its name still counts for faults and ops.
            c.name = r.name;
            candidates_ok = false;
        }
        read_candidate_wire(defaults, own_values, i, c, errors);
        if (replicas_known) attempt(errors, [&] { check_wait_replicas(s, defaults, candidates[i], i, c); });
        attempt(errors, [&] { check_redlock_candidate(s, defaults, candidates[i], i, c); });
        attempt(errors, [&] { check_redisson_candidate(s, defaults, candidates[i], i, c); });
        attempt(errors, [&] {
            if (const std::optional<std::size_t> first = seen.add(c.name, i, s))
                fail(fmt::format("/candidates/{}/name", i),
                     fmt::format("duplicate name \"{}\" (also /candidates/{}); names must be unique", c.name, *first));
        });
        c.options.elector = s.elector;
        c.options.tick_ms = s.tick_ms;
        s.candidates.push_back(std::move(c));
    }
    return candidates_ok;
}

Scenario read_scenario(const json& root, Failures& errors) {
    need_object(root, "/");
    check_keys(root, "", key_names_of(Section::top), errors);
    Scenario s;
    // "$schema" names the schema for editors (leasescope-cli schema); it must be a string.
    if (root.contains("$schema"))
        attempt(errors, [&] { get_text(root["$schema"], "/$schema", scenario_key(Section::top, "$schema").hi); });
    attempt(errors, [&] {
        if (!root.contains("name")) fail("/", "missing \"name\" (required: the scenario's name)");
        s.name = get_identifier(root["name"], "/name");
    });
    if (root.contains("title")) attempt(errors, [&] { s.title = get_localized(root["title"], "/title", errors); });
    if (root.contains("summary"))
        attempt(errors, [&] { s.summary = get_localized(root["summary"], "/summary", errors); });
    read_top_values(root, s, errors);
    read_lock_section(root, s, errors);
    read_resource_section(root, s, errors);
    const bool replicas_known = read_store_section(root, s, errors);
    read_redlock_sections(root, s, errors);
    read_redisson_sections(root, s, errors);
    s.lock.clock.tick_ms = s.tick_ms;
    Defaults defaults;
    read_defaults(root, errors, defaults);
    defaults.network = s.network;
    bool candidates_ok = attempt(errors, [&] {
        if (!root.contains("candidates"))
            fail("/", "missing \"candidates\" (required: an array of one or more candidates)");
        const json& candidates = root["candidates"];
        if (!candidates.is_array() || candidates.empty())
            fail("/candidates", fmt::format("expected an array of one or more candidates, found {}",
                                            candidates.is_array() ? "an empty array" : describe(candidates)));
        if (static_cast<std::int64_t>(candidates.size()) > limits::candidates_max)
            fail("/candidates",
                 fmt::format("expected at most {} candidates, found {}", limits::candidates_max, candidates.size()));
    });
    // Without the candidates, the nodes named by faults and ops cannot be checked.
    if (!candidates_ok) return s;
    candidates_ok = read_candidate_list(root["candidates"], defaults, replicas_known, s, errors);
    if (candidates_ok && errors.empty()) attempt(errors, [&] { check_work(s); });
    check_store_names(s, errors);
    // Sorted once for the faults and the ops (neither changes the candidates).
    const NodeNames names(s);
    read_fault_list(root, s, names, replicas_known, errors);
    check_redisson_faults(s, errors);
    read_op_list(root, s, names, errors);
    read_exercise_list(root, s, errors);
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
        // (assign from a view, not resize: GCC 12 at -O3 warned of a memcpy past PTRDIFF_MAX there)
        path = slash == 0 || slash == std::string::npos ? std::string("/")
                                                        : std::string(std::string_view(path).substr(0, slash));
    }
}

}  // namespace
}  // namespace scenario_detail

using namespace scenario_detail;

Result<Scenario, std::vector<ScenarioError>> parse_scenario_all_errors(std::string_view text, const std::string& file,
                                                                       const std::vector<Override>& overrides,
                                                                       ScenarioJsonReader reader) {
    using Errors = std::vector<ScenarioError>;
    if (static_cast<std::int64_t>(text.size()) > limits::scenario_bytes_max)
        return Err{Errors{ScenarioError{
            file, "",
            fmt::format("the file is larger than {} bytes (scenario_bytes_max)", limits::scenario_bytes_max)}}};
    Failures failures;
    std::optional<Scenario> scenario;
    std::vector<std::string> time_errors;  // paths of refused durations (model.md §11.7)
    std::size_t converted = 0;
    try {
        std::optional<SyntaxError> syntax;
        std::optional<json> root = parse_bounded(text, "", 0, syntax, reader);
        // A syntax error stops the parser: it is the only one reported.
        if (!root) return Err{Errors{ScenarioError{file, syntax->where, syntax->message}}};
        for (const Override& o : overrides) apply_override(*root, o);
        time_errors = convert_times(*root, failures);
        converted = failures.size();
        scenario = read_scenario(*root, failures);
    } catch (Failure& f) {
        failures.push_back(std::move(f));
    }
    // The reader's error at a path whose duration was refused follows from it.
    for (std::size_t i = converted; i < failures.size(); ++i) {
        if (std::find(time_errors.begin(), time_errors.end(), failures[i].where) != time_errors.end())
            failures[i].follows = true;
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
        std::stable_sort(failures.begin(), failures.end(),
                         [&](const Failure& a, const Failure& b) { return order_of(order, a) < order_of(order, b); });
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

ScenarioResult parse_scenario(std::string_view text, const std::string& file, const std::vector<Override>& overrides,
                              ScenarioJsonReader reader) {
    auto all = parse_scenario_all_errors(text, file, overrides, reader);
    if (!all.ok()) return Err{std::move(all.error().front())};
    return std::move(all).value();
}

}  // namespace leasescope::sim

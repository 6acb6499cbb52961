#pragma once
// What the scenario reader's files share and nothing else needs: the error a
// check throws, bounded quotation of what the user wrote, the bounded JSON
// parse, the typed value readers and the candidate keys. Private to
// sim/src/scenario/.
#include <array>
#include <cstdint>
#include <optional>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>
#include <nlohmann/json.hpp>

#include <fmt/format.h>

#include "leasescope/engine/assert.hpp"
#include "leasescope/sim/scenario.hpp"
#include "leasescope/sim/scenario_keys.hpp"
#include "sorted_map.hpp"

namespace leasescope::sim::scenario_detail {

// The document the readers walk: nlohmann's, its objects one vector sorted
// by key (sorted_map.hpp) instead of std::map's nodes, in the same order.
using json = nlohmann::basic_json<SortedMap>;
using ordered_json = nlohmann::ordered_json;

// ---- Errors while reading (thrown inside the validator only; the parse
// functions turn them into values) ----

struct Failure {
    std::string where;
    std::string message;
    bool follows = false;  // follows from an error already reported (not shown)
};

[[noreturn]] inline void fail(std::string where, std::string message) {
    throw Failure{std::move(where), std::move(message)};
}

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

// ---- Messages (scenario_messages.cpp) ----

// The first limits::quoted_bytes_max bytes of `s`, cut at a UTF-8 character
// boundary (all of it when it is that short).
std::string_view clipped(std::string_view s);
// A byte-bounded quotation of something the user wrote, for an error line.
std::string quote(std::string_view s);
// A JSON-pointer component for a path in an error line (clipped like quote).
std::string path_part(std::string_view s);
// Line and column (1-based) of byte `offset` of `text`.
std::string line_column(std::string_view text, std::size_t offset);
// ", did you mean \"lease\"?" when a known word is close; else the list.
std::string suggestion(std::string_view word, const std::vector<std::string>& known);
// A value as an error line names it: "null", "the string \"x\"", "an array".
std::string describe(const json& v);

// ---- The bounded JSON parse (scenario_bounded_json.cpp) ----

struct SyntaxError {
    std::string where;  // line:column in the text
    std::string message;
};
// Parses a JSON text, checking it against the limits and for duplicate keys
// as it goes (one SAX pass). Syntax errors come back as nullopt with `syntax`
// set; a limit or duplicate throws Failure at its path under `base`.
// `reader`: whether plain JSON may be read by the scan of its own first.
std::optional<json> parse_bounded(std::string_view text, const std::string& base, std::int64_t base_depth,
                                  std::optional<SyntaxError>& syntax,
                                  ScenarioJsonReader reader = ScenarioJsonReader::fast);

// ---- Typed values (scenario_values.cpp); each fails at `path` ----

// Reports every unknown key of `obj` in `errors`; false when there was one.
bool check_keys(const json& obj, const std::string& path, const std::vector<std::string>& allowed, Failures& errors);
const json& need_object(const json& v, const std::string& path);
std::int64_t get_int(const json& v, const std::string& path, std::int64_t lo, std::int64_t hi);
// The integer get_int returns, or none where get_int fails (and its path,
// which only an error needs, is not built).
std::optional<std::int64_t> int_within(const json& v, std::int64_t lo, std::int64_t hi);
// get_int for a range whose ends are a named limit: the error names it too.
std::int64_t get_int_within(const json& v, const std::string& path, std::int64_t lo, std::int64_t hi,
                            const char* limit_name);
bool get_bool(const json& v, const std::string& path);
std::string get_text(const json& v, const std::string& path, std::int64_t max_length);
// A name that shows in tables and traces: non-empty, no control characters.
std::string get_name(const json& v, const std::string& path);
// Whether get_name takes `v` as it is: a name's path is built only for an
// error (most of a 100,000-candidate scenario's paths were never shown).
bool is_plain_name(const json& v);
// A name that becomes part of a file or Redis key: letters, digits, . _ - :
std::string get_identifier(const json& v, const std::string& path);
// Every unknown key goes to `errors`; a bad text throws.
Localized get_localized(const json& v, const std::string& path, Failures& errors);
// A "network" object (model.md §16.1): each of "request", "reply", "write"
// it gives replaces that latency of `into`, each in [0, latency_max].
void read_network(const json& v, const std::string& path, Network& into);
// `writes`: strictly increasing offsets in [1, action_max].
std::vector<Tick> get_writes(const json& v, const std::string& path, Tick action_max);
// The offsets get_writes returns, or none where it fails (its paths, which
// only an error needs, are not built).
std::optional<std::vector<Tick>> writes_within(const json& v, Tick action_max);
// A clock object, {"drift_ppm": P} with |P| <= drift_ppm_max (model.md §3.3):
// its drift (0 when absent). Every unknown key goes to `errors`.
std::int32_t get_clock_drift(const json& v, const std::string& path, Failures& errors);

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

// The enum value a key's word names. The key's choices (scenario_keys.cpp)
// are the words of E's values in order: each is asserted to be the
// to_string of the value at its position.
template <class E>
E get_choice(const json& v, const std::string& path, const ScenarioKey& key) {
    LS_ASSERT(key.type == ValueType::choice);
    std::vector<std::pair<std::string, E>> choices;
    for (std::size_t i = 0; i < key.choices.size(); ++i) {
        const auto e = static_cast<E>(i);
        LS_ASSERT(std::string_view(to_string(e)) == key.choices[i]);
        choices.emplace_back(key.choices[i], e);
    }
    return get_enum<E>(v, path, choices);
}
// An integer key within its range in the table.
inline std::int64_t get_key_int(const json& v, const std::string& path, const ScenarioKey& key) {
    LS_ASSERT(key.type == ValueType::integer);
    return get_int(v, path, key.lo, key.hi);
}
// "pause, partition, crash or failover": a choice key's words for a message.
std::string choice_list(const ScenarioKey& key);

// ---- Times with units (scenario_times.cpp, model.md §11.7) ----

// Every duration string of a time key of `root` becomes its ticks at the
// file's tick_ms; each one that cannot is an error in `errors`. Returns the
// paths of those errors (the reader's own error at such a path follows).
std::vector<std::string> convert_times(json& root, Failures& errors);

// ---- Candidates and "defaults" (scenario_candidates.cpp) ----

// How many candidate keys there are (candidate_keys(), asserted there).
inline constexpr std::size_t candidate_key_count = 20;

// An object's values of the candidate keys by their place in
// candidate_keys() (null where absent), found in one pass over its keys.
// `unknown`: it has a key that is none of them (check_keys names it). Empty
// for a non-object. It points into the object, which must outlive it.
struct KeyValues {
    std::array<const json*, candidate_key_count> at{};
    bool unknown = false;

    KeyValues() = default;
    explicit KeyValues(const json& object);
};

// "defaults", read once for all candidates. `given` points into `values`, so
// a Defaults is neither copied nor moved (a copy would point into the
// original): read_defaults fills one in place.
struct Defaults {
    Defaults() = default;
    Defaults(const Defaults&) = delete;
    Defaults& operator=(const Defaults&) = delete;

    json values = json::object();
    KeyValues given;  // the values of `values`, found once
    bool ok = true;   // else a candidate's missing value may only follow from it
    Network network;  // the top level's, under "defaults"' in the merge (model.md §16.1)
};
// The "defaults" object of `root`: its keys are candidate keys (not "name"),
// each value checked on its own.
void read_defaults(const json& root, Failures& errors, Defaults& into);
// One candidate (`own`, its values `own_values`), its values from itself or
// else from the defaults. Throws Failure when it cannot be read at all,
// Reported when its errors are listed.
Candidate read_candidate(const Defaults& defaults, const json& own, const KeyValues& own_values, std::size_t index,
                         Failures& errors);
// Its time on the wire (model.md §16.1): "network" merged per key with
// "defaults" and the top level's, and "command_timeout".
void read_candidate_wire(const Defaults& defaults, const KeyValues& own_values, std::size_t index, Candidate& c,
                         Failures& errors);
// The candidate as scenario_to_json writes it: only what reads back the same.
ordered_json candidate_to_json(const Candidate& c);

// The path where a candidate's key was written: its own, else "defaults"'
// (the candidate's path when neither has it).
std::string candidate_key_path(const Defaults& defaults, const json& own, std::size_t index, std::string_view key);

// A candidate key another client does not have (model.md §20.1, §21.1):
// `set` when the candidate has it. refuse_client_keys fails at the first
// one set, at the path where it was written, saying that `client` has no
// such option, why, and the spec's section.
struct RefusedKey {
    const char* key;
    bool set;
    const char* why;
};
void refuse_client_keys(const Defaults& defaults, const json& own, std::size_t index,
                        std::initializer_list<RefusedKey> keys, std::string_view client, std::string_view section);

// ---- Faults (scenario_read.cpp, scenario_replication.cpp) ----

// The candidates' names sorted once, for the faults and ops that name them:
// Scenario::find scans every candidate, and 2,000 faults of a generated
// scenario over 100,000 candidates made that half of its parse. `s` must
// outlive it, its candidates unchanged.
class NodeNames {
public:
    explicit NodeNames(const Scenario& s);
    NodeIndex find(std::string_view name) const;  // as Scenario::find: the first so named, or -1

private:
    std::vector<std::pair<std::string_view, NodeIndex>> sorted_;
};

// The candidate a name in a fault, op or exercise names; unknown: "did you
// mean". Without `names`, a scan of the candidates.
NodeIndex get_node(const json& v, const std::string& path, const Scenario& s, const NodeNames* names = nullptr);
// A replica_link's replica, a failover's promote, lag and old_primary, each
// on its own and, when store.replicas was read (`replicas_known`), against it
// (model.md §17.2, §17.3, §17.5).
void read_replication_fault(const json& v, const std::string& path, const Scenario& s, const NodeNames& names,
                            bool replicas_known, Fault& f, Failures& errors);
// The failovers and link cuts of a list read without errors, in tick order
// against the primary at each tick (model.md §17.2 item 3, §17.3 item 5, §17.5).
void check_replication_faults(const Scenario& s, Failures& errors);

// ---- Redlock (scenario_redlock.cpp; model.md §20) ----

// /client, /stores and /redlock, and what a Redlock scenario cannot have at the top level.
void read_redlock_sections(const json& root, Scenario& s, Failures& errors);
// A candidate option the redlock client does not have (rule 20.1.3).
void check_redlock_candidate(const Scenario& s, const Defaults& defaults, const json& own, std::size_t index,
                             const Candidate& c);
// A restart's store and persistence; a partition's or delay's stores.
void read_redlock_fault(const json& v, const std::string& path, const Scenario& s, Fault& f);
// A clock_jump whose clock names a store: sets f.store, true.
bool read_store_clock_jump(const json& clock, const Scenario& s, Fault& f);
void check_store_names(const Scenario& s, Failures& errors);

// ---- Redisson (scenario_redisson.cpp; model.md §21) ----

// /redisson, and what a Redisson scenario cannot have at the top level (rule 21.1.3).
void read_redisson_sections(const json& root, Scenario& s, Failures& errors);
// A candidate option the redisson client does not have (rule 21.1.3).
void check_redisson_candidate(const Scenario& s, const Defaults& defaults, const json& own, std::size_t index,
                              const Candidate& c);
// A fault kind the redisson client does not have (rule 21.1.3).
void check_redisson_faults(const Scenario& s, Failures& errors);
void check_restarts(const Scenario& s);

// ---- Exercises (scenario_exercises.cpp; model.md §18) ----

// /exercises, each checked in form against the candidates (§18.1–§18.5).
void read_exercise_list(const json& root, Scenario& s, Failures& errors);
// A goal's condition at `path` (§18.5): an object with exactly one key.
Condition read_condition(const json& v, const std::string& path, const Scenario& s, Failures& errors);
// The find_fault kinds `text` (explore --fault-kinds syntax), each item one
// the scenario allows (§18.4).
void check_fault_kinds(const std::string& text, const std::string& path, const Scenario& s);
// An exercise as scenario_to_json writes it: as its file wrote it.
ordered_json exercise_to_json(const Exercise& e);

// ---- --set (scenario_overrides.cpp) ----

void apply_override(json& root, const Override& o);

}  // namespace leasescope::sim::scenario_detail

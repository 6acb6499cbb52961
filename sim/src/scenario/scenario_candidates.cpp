// The candidate keys in one table (name, kind, range, value when absent,
// field, how it is written back) and what reads and writes them: the
// "defaults" object, each candidate merged with it, and the write-back.
#include <algorithm>
#include <array>

#include <fmt/format.h>

#include "leasescope/sim/candidate_keys.hpp"
#include "leasescope/sim/limits.hpp"
#include "scenario_internal.hpp"

namespace leasescope::sim::scenario_detail {
namespace {

using sim::CandidateKey;
using sim::KeyKind;
using sim::Need;
using sim::WriteBack;

// The keys in the order a scenario file lists them (and "expected one of"
// names them). What each means: docs/scenario-format.md, model.md §5.1.
namespace key {
constexpr CandidateKey name{.name = "name",
                            .kind = KeyKind::name,
                            .need = Need::required,
                            .doc = "The node's name in traces, faults and ops; unique."};
constexpr CandidateKey start{.name = "start",
                             .kind = KeyKind::integer,
                             .lo = 0,
                             .hi = limits::horizon_max,
                             .fallback = 0,
                             .tick = &ElectorOptions::start,
                             .doc = "Tick at which the first run is scheduled."};
constexpr CandidateKey wait{
    .name = "wait",
    .kind = KeyKind::integer,
    .lo = 0,
    .hi = limits::duration_max,
    .need = Need::required,
    .tick = &ElectorOptions::wait,
    .doc =
        "waitTime: how long a run keeps trying to acquire; 0 means one attempt. Required here or in "
        "\"defaults\"."};
constexpr CandidateKey lease{
    .name = "lease",
    .kind = KeyKind::integer,
    .lo = 1,
    .hi = limits::duration_max,
    .need = Need::required,
    .tick = &ElectorOptions::lease,
    .doc =
        "leaseTime: the record expires this many ticks after it was written. Required here or in "
        "\"defaults\"."};
constexpr CandidateKey min_lease{
    .name = "min_lease",
    .kind = KeyKind::integer,
    .lo = 0,
    .hi = limits::duration_max,
    .fallback = 0,
    .tick = &ElectorOptions::min_lease,
    .doc =
        "minLeaseTime: an early finish keeps the record at least this long after acquiring; must not "
        "exceed lease."};
constexpr CandidateKey auto_extend{.name = "auto_extend",
                                   .kind = KeyKind::flag,
                                   .fallback = 0,
                                   .flag = &ElectorOptions::auto_extend,
                                   .doc = "Run the watchdog that renews the lease."};
// Absent, the watchdog runs on the library's period in milliseconds
// (model.md §5.5); given, it overrides that period in ticks.
constexpr CandidateKey extend_every{
    .name = "extend_every",
    .kind = KeyKind::integer,
    .lo = 1,
    .hi = limits::duration_max,
    .fallback = 0,
    .write = WriteBack::when_given,
    .tick = &ElectorOptions::extend_every,
    .given = &Candidate::extend_every_given,
    .doc =
        "Ticks between watchdog renewals; less than lease when auto_extend. Absent: the library's period, "
        "max(floor(lease * tick_ms / 3), 25) ms."};
constexpr CandidateKey retry_every{.name = "retry_every",
                                   .kind = KeyKind::integer,
                                   .lo = 1,
                                   .hi = limits::duration_max,
                                   .fallback = 1,
                                   .tick = &ElectorOptions::retry_every,
                                   .doc = "Ticks between acquire attempts while waiting."};
constexpr CandidateKey action{
    .name = "action",
    .kind = KeyKind::integer,
    .lo = 1,
    .hi = limits::duration_max,
    .need = Need::required,
    .tick = &ElectorOptions::action,
    .doc = "How many active (unpaused) ticks the protected work takes. Required here or in \"defaults\"."};
// Absent, the one write is at the end of the action.
constexpr CandidateKey writes{
    .name = "writes",
    .kind = KeyKind::offsets,
    .lo = 1,
    .hi = limits::duration_max,
    .write = WriteBack::when_given,
    .within_action = true,
    .offsets = &ElectorOptions::writes,
    .given = &Candidate::writes_given,
    .doc =
        "Progress points at which the work writes to the resource, strictly increasing, each from 1 to "
        "action. Absent: one write at the end of the action; [] never writes."};
constexpr CandidateKey fail_at{.name = "fail_at",
                               .kind = KeyKind::integer,
                               .lo = 1,
                               .hi = limits::duration_max,
                               .fallback = 0,
                               .write = WriteBack::when_positive,
                               .within_action = true,
                               .tick = &ElectorOptions::fail_at,
                               .doc = "Progress (1 to action) at which the work throws and ends as action_failed."};
constexpr CandidateKey hold_off{.name = "hold_off",
                                .kind = KeyKind::integer,
                                .lo = 0,
                                .hi = limits::duration_max,
                                .fallback = 0,
                                .tick = &ElectorOptions::hold_off,
                                .doc = "After releasing, nobody (the releaser included) may acquire for this long."};
constexpr CandidateKey runs{.name = "runs",
                            .kind = KeyKind::integer,
                            .lo = 1,
                            .hi = limits::runs_max,
                            .fallback = 1,
                            .count = &ElectorOptions::runs,
                            .doc = "How many times the job runs."};
// Absent: the library's command timeout, Lettuce's 60 s in ticks (model.md §16.1).
constexpr CandidateKey command_timeout{
    .name = "command_timeout",
    .kind = KeyKind::integer,
    .lo = 1,
    .hi = limits::duration_max,
    .fallback = 0,
    .write = WriteBack::when_positive,
    .tick = &ElectorOptions::command_timeout,
    .doc =
        "Ticks a call to the store waits for its reply before it fails as a transient error. Absent: the "
        "library's, Lettuce's 60 s, ceil(60000 / tick_ms)."};
// Merged per key with "defaults" and the top level's "network" (model.md §16.1);
// read by read_network and written back by scenario_to_json.
constexpr CandidateKey network{
    .name = "network",
    .kind = KeyKind::network,
    .lo = 0,
    .hi = limits::latency_max,
    .doc =
        "Latencies in ticks of this node's messages: {\"request\", \"reply\", \"write\"}, each from 0 to "
        "latency_max; each key absent here comes from \"defaults\", then the top level's \"network\", then 0."};
// Check, then act (model.md §5.8): the words of WriteCheck, in its order.
constexpr const char* check_words[] = {"none", "validate"};
constexpr CandidateKey check{
    .name = "check",
    .kind = KeyKind::choice,
    .fallback = 0,
    .write = WriteBack::when_nonzero,
    .check = &ElectorOptions::check,
    .choices = check_words,
    .doc =
        "What the work does before each write: \"none\" writes at once; \"validate\" first asks the store whether "
        "its own token is still current (a call that takes time) and writes only on \"current\", else the work "
        "fails (action_failed)."};
constexpr CandidateKey every{.name = "every",
                             .kind = KeyKind::integer,
                             .lo = 1,
                             .hi = limits::duration_max,
                             .need = Need::required_to_repeat,
                             .fallback = 0,
                             .write = WriteBack::when_positive,
                             .tick = &ElectorOptions::every,
                             .doc = "Ticks between scheduled run starts; required when runs > 1."};
// The node's clock (model.md §3.3 rule 7): drift scales its deadline, retry
// poll and watchdog. Absent: true time.
constexpr CandidateKey clock{
    .name = "clock",
    .kind = KeyKind::clock,
    .lo = -limits::drift_ppm_max,
    .hi = limits::drift_ppm_max,
    .fallback = 0,
    .write = WriteBack::when_nonzero,
    .count = &ElectorOptions::drift_ppm,
    .doc =
        "The node's clock: {\"drift_ppm\": P} runs it at (1 + P/1000000) of true time, which stretches (P < 0) or "
        "shortens its wait deadline, retry poll and watchdog period. Absent: true time."};
// WAIT after each fresh acquisition (model.md §17.6); at most store.replicas,
// checked once the store is read (scenario_read.cpp).
constexpr CandidateKey wait_replicas{
    .name = "wait_replicas",
    .kind = KeyKind::integer,
    .lo = 1,
    .hi = limits::replicas_max,
    .fallback = 0,
    .write = WriteBack::when_positive,
    .count = &ElectorOptions::wait_replicas,
    .doc =
        "Send Redis's WAIT after each fresh acquisition and count it failed (the lock released again) unless at "
        "least this many replicas acknowledge it; 1 to store.replicas. Absent: no WAIT."};
// Absent: Redisson's slavesSyncTimeout, 1000 ms in ticks (model.md §17.6).
constexpr CandidateKey wait_timeout{
    .name = "wait_timeout",
    .kind = KeyKind::integer,
    .lo = 1,
    .hi = limits::duration_max,
    .fallback = 0,
    .write = WriteBack::when_positive,
    .tick = &ElectorOptions::wait_timeout,
    .doc = "Ticks WAIT blocks at most. Absent: Redisson's 1000 ms, ceil(1000 / tick_ms)."};
}  // namespace key

constexpr const CandidateKey* key_table[] = {
    &key::name,          &key::start,        &key::wait,   &key::lease,           &key::min_lease, &key::auto_extend,
    &key::extend_every,  &key::retry_every,  &key::action, &key::writes,          &key::fail_at,   &key::hold_off,
    &key::runs,          &key::every,        &key::clock,  &key::command_timeout, &key::network,   &key::check,
    &key::wait_replicas, &key::wait_timeout,
};

// Each row fills exactly the one field of its kind, and a key written back
// only when given says where that is recorded.
constexpr bool well_formed(const CandidateKey& k) {
    if (k.write == WriteBack::when_given && k.given == nullptr) return false;
    if (k.doc == nullptr) return false;  // every key is described
    const int fields = (k.tick != nullptr) + (k.count != nullptr) + (k.flag != nullptr) + (k.offsets != nullptr) +
                       (k.check != nullptr);
    switch (k.kind) {
        case KeyKind::name: return fields == 0 && k.doc != nullptr;
        case KeyKind::network: return fields == 0 && k.lo == 0 && k.lo <= k.hi;
        case KeyKind::integer: return fields == 1 && (k.tick != nullptr || k.count != nullptr) && k.lo <= k.hi;
        case KeyKind::flag: return fields == 1 && k.flag != nullptr;
        case KeyKind::offsets: return fields == 1 && k.offsets != nullptr && k.lo == 1;
        case KeyKind::clock: return fields == 1 && k.count != nullptr && k.lo == -k.hi;
        case KeyKind::choice:
            return fields == 1 && k.check != nullptr && k.fallback >= 0 &&
                   k.fallback < static_cast<std::int64_t>(k.choices.size());
    }
    return false;
}
constexpr bool all_well_formed() {
    for (const CandidateKey* k : key_table) {
        if (!well_formed(*k)) return false;
    }
    return true;
}
static_assert(all_well_formed());

std::vector<std::string> key_names(bool with_name) {
    std::vector<std::string> names;
    for (const CandidateKey* k : key_table) {
        if (with_name || k->kind != KeyKind::name) names.emplace_back(k->name);
    }
    return names;
}
// A candidate's keys, built once from the table, like it, never changed:
// building them for each of 100,000 candidates was a twentieth of the parse.
const std::vector<std::string>& candidate_key_names() {
    static const std::vector<std::string> names = key_names(true);
    return names;
}

constexpr std::size_t key_count = std::size(key_table);
static_assert(key_count == candidate_key_count);

// A key's place in key_table.
constexpr std::size_t slot_of(const CandidateKey& k) {
    std::size_t i = 0;
    while (key_table[i] != &k) ++i;
    LS_ASSERT(i < key_count);
    return i;
}
// The same, found when compiling: slot_of's scan of the table, for each of
// a candidate's thirteen integers, was a third of read_int.
template <const CandidateKey& K>
constexpr std::size_t slot = slot_of(K);

// The table's names found by a perfect hash (checked below to put no two in
// one bucket) of a name's length and first two bytes, then one comparison:
// walking the table's names in byte order beside an object's keys was an
// eighth of reading a 100,000-candidate scenario.
constexpr std::size_t name_buckets = 64;
constexpr std::size_t name_hash(std::string_view s) {
    return (s.size() + static_cast<unsigned char>(s[0]) + 5U * static_cast<unsigned char>(s[1])) % name_buckets;
}
constexpr std::array<std::string_view, key_count> table_names = [] {
    std::array<std::string_view, key_count> names{};
    for (std::size_t i = 0; i < key_count; ++i) names[i] = key_table[i]->name;
    return names;
}();
// Each bucket's place in key_table, or key_count for none.
constexpr std::array<std::uint8_t, name_buckets> name_slots = [] {
    std::array<std::uint8_t, name_buckets> slots{};
    slots.fill(static_cast<std::uint8_t>(key_count));
    for (std::size_t i = 0; i < key_count; ++i) slots[name_hash(table_names[i])] = static_cast<std::uint8_t>(i);
    return slots;
}();
constexpr bool names_hash_apart() {
    for (std::size_t i = 0; i < key_count; ++i) {
        if (name_slots[name_hash(table_names[i])] != i) return false;
    }
    return true;
}
static_assert(names_hash_apart());

// A name's place in key_table, key_count when it is none of the table's.
std::size_t slot_of_name(std::string_view name) {
    if (name.size() < 2) return key_count;
    const std::size_t i = name_slots[name_hash(name)];
    return i < key_count && key_equal(table_names[i], name) ? i : key_count;
}

const CandidateKey* find_key(std::string_view name) {
    const std::size_t i = slot_of_name(name);
    return i < key_count ? key_table[i] : nullptr;
}

std::string candidate_path(std::size_t index) { return fmt::format("/candidates/{}", index); }

// A choice's word: its index in the key's words (an unknown word names the
// path, the words and the closest one).
WriteCheck get_check(const json& v, const std::string& path, const CandidateKey& k) {
    std::vector<std::pair<std::string, WriteCheck>> choices;
    for (std::size_t i = 0; i < k.choices.size(); ++i) {
        const auto c = static_cast<WriteCheck>(i);
        LS_ASSERT(std::string_view(to_string(c)) == k.choices[i]);
        choices.emplace_back(k.choices[i], c);
    }
    return get_enum<WriteCheck>(v, path, choices);
}

// A value of "defaults" on its own, even where each candidate overrides it:
// a bad default is a bad file.
void check_default(const CandidateKey& k, const json& v, const std::string& path, Failures& errors) {
    switch (k.kind) {
        case KeyKind::name: LS_ASSERT(false && "name is not a defaults key"); break;
        case KeyKind::integer: get_int(v, path, k.lo, k.hi); break;
        case KeyKind::flag: get_bool(v, path); break;
        case KeyKind::offsets: get_writes(v, path, k.hi); break;
        case KeyKind::clock: get_clock_drift(v, path, errors); break;
        case KeyKind::choice: get_check(v, path, k); break;
        case KeyKind::network: {
            Network unused;
            read_network(v, path, unused);
            break;
        }
    }
}

// Where a candidate's values come from: itself or, failing that,
// "defaults"; an error's path says which (spelt out only for an error).
struct CandidateSource {
    const KeyValues& own;
    const KeyValues& defaults;  // Defaults::given
    std::size_t index = 0;
    bool misspelt = false;  // a misspelt key also makes a required one look missing: not shown

    // The value, if any, and whether it is the candidate's own.
    std::pair<const json*, bool> find(std::size_t i) const {
        if (own.at[i] != nullptr) return {own.at[i], true};
        return {defaults.at[i], false};
    }
    std::pair<const json*, bool> find(const CandidateKey& k) const { return find(slot_of(k)); }
    std::string own_path() const { return candidate_path(index); }
    std::string path(const CandidateKey& k, bool is_own) const {
        return is_own ? own_path() + "/" + k.name : std::string("/defaults/") + k.name;
    }
    std::pair<const json*, std::string> operator()(const CandidateKey& k) const {
        const auto [v, is_own] = find(k);
        return {v, v == nullptr ? std::string() : path(k, is_own)};
    }
    std::string path_of(const CandidateKey& k) const {
        auto [v, path] = (*this)(k);
        return v == nullptr ? own_path() : path;
    }
};

// An integer key from its source, its fallback when absent (or an error when
// it is required), within its range or, for a key within the action (once
// wait, lease and action were read: `sizes_ok`), up to the action.
void read_int(const CandidateSource& source, std::size_t key_slot, bool required, bool sizes_ok, ElectorOptions& o) {
    const CandidateKey& k = *key_table[key_slot];
    LS_ASSERT(k.kind == KeyKind::integer);
    const auto [v, is_own] = source.find(key_slot);
    const std::int64_t hi = k.within_action && sizes_ok ? o.action : k.hi;
    std::int64_t value = k.fallback;
    if (v != nullptr) {
        const auto in = int_within(*v, k.lo, hi);
        value = in ? *in : get_int(*v, source.path(k, is_own), k.lo, hi);
    } else if (required) {
        throw Failure{source.own_path(),
                      fmt::format("missing \"{}\" (required here or in \"defaults\"; an integer from {} to {})", k.name,
                                  k.lo, k.hi),
                      source.misspelt};
    }
    if (k.tick != nullptr) o.*(k.tick) = value;
    if (k.count != nullptr) o.*(k.count) = static_cast<std::int32_t>(value);
}

// auto_extend and extend_every, which must be below the lease with it (§11.4).
bool read_watchdog(const CandidateSource& source, Candidate& c, bool sizes_ok, Failures& errors) {
    ElectorOptions& o = c.options;
    bool auto_extend_ok = true;
    o.*(key::auto_extend.flag) = key::auto_extend.fallback != 0;
    if (auto [v, is_own] = source.find(key::auto_extend); v != nullptr) {
        auto_extend_ok = attempt(errors, [&, v = v, is_own = is_own] {
            o.*(key::auto_extend.flag) =
                v->is_boolean() ? v->get<bool>() : get_bool(*v, source.path(key::auto_extend, is_own));
        });
    }
    const bool every_ok = attempt(errors, [&] {
        read_int(source, slot<key::extend_every>, false, sizes_ok, o);
        if (sizes_ok && auto_extend_ok && o.auto_extend && c.extend_every_given && o.extend_every >= o.lease) {
            fail(source.path_of(key::extend_every),
                 fmt::format("with auto_extend, extend_every ({}) must be less than lease ({})", o.extend_every,
                             o.lease));
        }
    });
    return auto_extend_ok && every_ok;
}

// writes (default: one at the end of the action) and the node's clock.
bool read_writes_and_clock(const CandidateSource& source, ElectorOptions& o, bool sizes_ok, Failures& errors) {
    bool ok = true;
    if (auto [v, is_own] = source.find(key::writes); v != nullptr) {
        const Tick hi = sizes_ok ? o.action : key::writes.hi;
        ok = attempt(errors,
                     [&, v = v, is_own = is_own] {
                         auto writes = writes_within(*v, hi);
                         o.*(key::writes.offsets) =
                             writes ? std::move(*writes) : get_writes(*v, source.path(key::writes, is_own), hi);
                     }) &&
             ok;
    } else {
        o.*(key::writes.offsets) = {o.action};
    }
    if (auto [v, path] = source(key::clock); v != nullptr) {
        const std::size_t before = errors.size();
        ok = attempt(errors, [&, v = v, path = path] { o.*(key::clock.count) = get_clock_drift(*v, path, errors); }) &&
             errors.size() == before && ok;
    }
    return ok;
}

}  // namespace

}  // namespace leasescope::sim::scenario_detail

namespace leasescope::sim {
std::span<const CandidateKey* const> candidate_keys() { return scenario_detail::key_table; }
}  // namespace leasescope::sim

namespace leasescope::sim::scenario_detail {

// One pass over the object's keys, each found in the table by slot_of_name
// (a document's object has no key twice): looking each key up in the
// candidate and in "defaults" was a third of reading a 100,000-candidate
// scenario.
KeyValues::KeyValues(const json& object) {
    if (!object.is_object()) return;
    for (const auto& [name, value] : object.get_ref<const json::object_t&>()) {
        const std::size_t i = slot_of_name(name);
        if (i < key_count) {
            at[i] = &value;
        } else {
            unknown = true;
        }
    }
}

void read_defaults(const json& root, Failures& errors, Defaults& into) {
    LS_ASSERT(into.values.is_object() && into.values.empty());
    if (!root.contains("defaults")) return;
    const std::size_t before = errors.size();
    attempt(errors, [&] {
        check_keys(need_object(root["defaults"], "/defaults"), "/defaults", key_names(false), errors);
        into.values = root["defaults"];
        for (auto it = into.values.begin(); it != into.values.end(); ++it) {
            const CandidateKey* k = find_key(it.key());
            if (k != nullptr && k->kind != KeyKind::name)
                attempt(errors, [&] { check_default(*k, it.value(), "/defaults/" + it.key(), errors); });
        }
    });
    // Found once, after the last change to `values` (the pointers are into it).
    into.given = KeyValues(into.values);
    into.ok = errors.size() == before;
}

Candidate read_candidate(const Defaults& defaults, const json& own, const KeyValues& own_values, std::size_t index,
                         Failures& errors) {
    if (!own.is_object()) need_object(own, candidate_path(index));
    const KeyValues& default_values = defaults.given;
    const std::size_t before = errors.size();
    if (own_values.unknown) check_keys(own, candidate_path(index), candidate_key_names(), errors);
    // A misspelt key ("leese") also makes a required one look missing: that
    // second error is not shown.
    const CandidateSource source{own_values, default_values, index, errors.size() > before || !defaults.ok};
    const json* name = own_values.at[slot<key::name>];
    if (name == nullptr)
        fail(source.own_path(), fmt::format("missing \"{}\" (required: a unique candidate name)", key::name.name));

    Candidate c;
    c.name = is_plain_name(*name) ? name->get_ref<const std::string&>() : get_name(*name, source.path(key::name, true));
    ElectorOptions& o = c.options;
    for (std::size_t i = 0; i < key_count; ++i) {
        if (key_table[i]->given != nullptr)
            c.*(key_table[i]->given) = own_values.at[i] != nullptr || default_values.at[i] != nullptr;
    }
    // wait, lease and action all read: the relations that need them can be checked.
    bool sizes_ok = true;
    // Each value on its own; a relation between values only when all of its
    // values were read.
    bool ok = true;
    auto read = [&](auto&& check) { ok = attempt(errors, check) && ok; };
    read([&] { read_int(source, slot<key::start>, false, sizes_ok, o); });
    for (const std::size_t k : {slot<key::wait>, slot<key::lease>, slot<key::action>})
        sizes_ok = attempt(errors, [&] { read_int(source, k, key_table[k]->need == Need::required, sizes_ok, o); }) &&
                   sizes_ok;
    ok = ok && sizes_ok;
    read([&] {
        read_int(source, slot<key::min_lease>, false, sizes_ok, o);
        if (sizes_ok && o.min_lease > o.lease)
            fail(source.path_of(key::min_lease),
                 fmt::format("min_lease {} must not exceed lease {} (the library requires minLeaseTime <= leaseTime)",
                             o.min_lease, o.lease));
    });
    ok = read_watchdog(source, c, sizes_ok, errors) && ok;
    read([&] { read_int(source, slot<key::retry_every>, false, sizes_ok, o); });
    read([&] { read_int(source, slot<key::hold_off>, false, sizes_ok, o); });
    read([&] {
        read_int(source, slot<key::runs>, false, sizes_ok, o);
        read_int(source, slot<key::every>,
                 key::every.need == Need::required || (key::every.need == Need::required_to_repeat && o.runs > 1),
                 sizes_ok, o);
    });
    if (source.find(slot<key::fail_at>).first != nullptr)
        read([&] { read_int(source, slot<key::fail_at>, false, sizes_ok, o); });
    ok = read_writes_and_clock(source, o, sizes_ok, errors) && ok;
    o.*(key::check.check) = static_cast<WriteCheck>(key::check.fallback);
    if (auto [v, path] = source(key::check); v != nullptr)
        read([&, v = v, path = path] { o.*(key::check.check) = get_check(*v, path, key::check); });
    read([&] { read_int(source, slot<key::wait_replicas>, false, sizes_ok, o); });
    read([&] { read_int(source, slot<key::wait_timeout>, false, sizes_ok, o); });
    if (!ok) throw Reported{c.name};
    return c;
}

void read_candidate_wire(const Defaults& defaults, const KeyValues& own_values, std::size_t index, Candidate& c,
                         Failures& errors) {
    const CandidateSource source{own_values, defaults.given, index};
    // Latencies merged per key: the top level's, then "defaults"', then the candidate's own.
    c.network = defaults.network;
    const std::size_t network = slot<key::network>;
    if (const json* v = defaults.given.at[network]; defaults.ok && v != nullptr)
        read_network(*v, source.path(key::network, false), c.network);
    if (const json* v = own_values.at[network])
        attempt(errors, [&] { read_network(*v, source.path(key::network, true), c.network); });
    const CandidateKey& k = key::command_timeout;
    const auto [v, is_own] = source.find(k);
    if (v == nullptr) return;
    // The path only an error needs.
    if (const auto in = int_within(*v, k.lo, k.hi)) {
        c.options.*(k.tick) = *in;
        return;
    }
    attempt(errors,
            [&, v = v, is_own = is_own] { c.options.*(k.tick) = get_int(*v, source.path(k, is_own), k.lo, k.hi); });
}

std::string candidate_key_path(const Defaults& defaults, const json& own, std::size_t index, std::string_view key) {
    const CandidateKey* k = find_key(key);
    LS_ASSERT(k != nullptr);
    const KeyValues own_values(own);
    return CandidateSource{own_values, defaults.given, index}.path_of(*k);
}

void refuse_client_keys(const Defaults& defaults, const json& own, std::size_t index,
                        std::initializer_list<RefusedKey> keys, std::string_view client, std::string_view section) {
    for (const RefusedKey& r : keys) {
        if (r.set)
            fail(candidate_key_path(defaults, own, index, r.key),
                 fmt::format("\"{}\" is not an option of the {} client: {} (docs/model.md {})", r.key, client, r.why,
                             section));
    }
}

ordered_json candidate_to_json(const Candidate& c) {
    const ElectorOptions& o = c.options;
    ordered_json j;
    for (const CandidateKey* k : key_table) {
        std::int64_t number = 0;
        if (k->tick != nullptr) number = o.*(k->tick);
        if (k->count != nullptr) number = o.*(k->count);
        if (k->check != nullptr) number = static_cast<std::int64_t>(o.*(k->check));
        const bool written = k->write == WriteBack::always || (k->write == WriteBack::when_given && c.*(k->given)) ||
                             (k->write == WriteBack::when_positive && number > 0) ||
                             (k->write == WriteBack::when_nonzero && number != 0);
        if (!written) continue;
        switch (k->kind) {
            case KeyKind::name: j[k->name] = c.name; break;
            case KeyKind::integer:
                if (k->tick != nullptr) j[k->name] = o.*(k->tick);
                if (k->count != nullptr) j[k->name] = o.*(k->count);
                break;
            case KeyKind::flag: j[k->name] = o.*(k->flag); break;
            case KeyKind::offsets: j[k->name] = o.*(k->offsets); break;
            case KeyKind::clock: j[k->name] = {{"drift_ppm", o.*(k->count)}}; break;
            case KeyKind::choice: j[k->name] = k->choices[static_cast<std::size_t>(o.*(k->check))]; break;
            case KeyKind::network: break;  // scenario_to_json writes it, where it differs from the top level
        }
    }
    return j;
}

}  // namespace leasescope::sim::scenario_detail

#pragma once
// Every key of a scenario file in one table: where it lives, its type, its
// range (limits.hpp constants), its value when absent, whether it is
// required, and what it means. The reader's unknown-key errors and "did you
// mean", its missing-key errors, ranges and enum words, `--set` (whose paths
// are the reader's), `leasescope-cli schema` and the key tables of
// docs/scenario-format.md all come from it; tests/sim/scenario/
// scenario_keys_test.cpp fails when the documented tables disagree.
// Candidate keys (and "defaults") keep their richer rows, with the field each
// fills, in candidate_keys.hpp; they appear here as Section::candidate rows.
// Adding a key: one row in scenario_keys.cpp (or candidate_keys' table), then
// the code that uses its value. What each key means: docs/scenario-format.md.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "leasescope/sim/candidate_keys.hpp"

namespace leasescope::sim {

// The object that holds a key.
enum class Section {
    top,          // the file's top level
    lock,         // /lock
    resource,     // /resource
    text,         // a title or summary: {"en": …, "ko": …}
    candidate,    // /candidates/N and, but for "name", /defaults
    fault,        // /faults/N, per kind
    op,           // /ops/N, per op
    store,        // /store: the store (Redis) itself
    clock,        // a clock object {"drift_ppm": P}: /store/clock and a candidate's clock
    network,      // a network object {"request", "reply", "write"}: /network, /defaults and a candidate's
    old_primary,  // a failover's split brain {"reachable_by", "until"} (model.md §17.5)
    exercise,     // /exercises/N, per kind (model.md §18)
    knob,         // /exercises/N/knobs/K: a goal's knob (§18.3)
    goal,         // /exercises/N/goal: a condition, exactly one key (§18.5)
    redlock,      // /redlock: the redlock client's options (model.md §20.1)
    redisson,     // /redisson: Redisson's Config options (model.md §21.1)
};

enum class ValueType {
    identifier,  // a name that becomes part of a file or Redis key
    name,        // a displayed name: not empty, no control characters
    string,      // any string of at most `hi` bytes
    localized,   // a Section::text object
    integer,     // from `lo` to `hi`
    unsigned64,  // any integer from 0 to 2^64 - 1
    number,      // a JSON number (an integer or a fraction) from `lo` to `hi`
    boolean,
    choice,  // one of `choices`
    object,  // a section of its own: `opens`
    array,   // `lo` to `hi` items of `item`
};

struct ScenarioKey {
    Section section = Section::top;
    // The fault kinds, ops or exercise kinds it belongs to, separated by spaces; empty: all.
    const char* variants = "";
    const char* name = nullptr;
    ValueType type = ValueType::integer;
    std::int64_t lo = 0;
    std::int64_t hi = 0;
    const char* hi_name = nullptr;  // the limits.hpp constant `hi` is, if any
    std::span<const char* const> choices = {};
    Need need = Need::optional;
    const char* fallback = nullptr;  // the value when absent, as JSON text; null: none or derived
    Section opens = Section::top;    // an object's keys
    const char* item = nullptr;      // an array's items: the schema definition they follow
    const char* doc = nullptr;       // one line, as `leasescope-cli schema` describes it
    // A time key (model.md §11.7): ticks, or a duration with a unit converted
    // with tick_ms; an array of them when `type` is array.
    bool time = false;
};

// Every key, section by section, in the order a scenario file lists them;
// candidate keys converted from candidate_keys().
std::span<const ScenarioKey> scenario_keys();

// Whether `key` belongs to `variant` (a fault kind or op; empty: any).
bool key_in_variant(const ScenarioKey& key, std::string_view variant);
// The keys of a section (of one variant: its own and the shared ones), in
// table order: what an object may hold.
std::vector<const ScenarioKey*> keys_of(Section section, std::string_view variant = {});
std::vector<std::string> key_names_of(Section section, std::string_view variant = {});
// The first row of `name` in `section` in table order (of any variant), or
// nullptr: a lookup in an index built once beside the table.
const ScenarioKey* find_scenario_key(Section section, std::string_view name);
// The row of `name` in `section`; asserts that it exists.
const ScenarioKey& scenario_key(Section section, std::string_view name);

// find_scenario_key for the keys of one object asked in byte order, as the
// scenario reader's document holds them: each lookup goes on from where the
// one before stopped, so an object's keys cost one walk over its section's
// rows instead of a search each (a tenth of reading a 14 MB scenario).
class ScenarioKeyWalk {
public:
    explicit ScenarioKeyWalk(Section section);
    // As find_scenario_key(section, name); `name` is not before (in byte
    // order) the name of the call before.
    const ScenarioKey* next(std::string_view name);

    // An entry of the index beside the table: (section, name, row).
    using Entry = std::tuple<Section, std::string_view, std::size_t>;

private:
    const Entry* at_ = nullptr;   // the next of the section's entries in the index
    const Entry* end_ = nullptr;  // the end of the section's entries
    const ScenarioKey* rows_ = nullptr;
};

}  // namespace leasescope::sim

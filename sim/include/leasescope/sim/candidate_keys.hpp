#pragma once
// The keys a candidate (and "defaults") may have, in one table: name, kind,
// range on its own, whether it is required, its value when absent, how a
// scenario is written back, the field it fills and what it means. The parser
// and the write-back (sim/src/scenario/scenario_candidates.cpp) and
// `leasescope-cli schema` read this table, so the file format, its schema and
// the parser agree by construction; it is the candidate section of the table
// of every key (scenario_keys.hpp). tests/sim/scenario/scenario_keys_test.cpp
// checks the table of docs/scenario-format.md ("Candidates and defaults")
// against it. What each key means: docs/scenario-format.md, model.md §5.1.
#include <cstdint>
#include <span>
#include <vector>

#include "leasescope/sim/scenario.hpp"

namespace leasescope::sim {

enum class KeyKind {
    name,     // the candidate's own name; never in "defaults"
    integer,  // a Tick or a count in [lo, hi]
    flag,     // true or false
    offsets,  // strictly increasing offsets in [1, hi]
    clock,    // an object {"drift_ppm": P}, |P| <= hi (model.md §3.3); fills `count`
    network,  // {"request", "reply", "write"}: latencies in [0, hi], merged per key (model.md §16.1)
    choice,   // one of `choices`, the words of WriteCheck in order; fills `check`
};

enum class Need {
    optional,            // absent: `fallback`
    required,            // here or in "defaults"
    required_to_repeat,  // required when runs > 1, else optional
};

// When scenario_to_json writes the key: a scenario written back stays
// minimal and still means the same.
enum class WriteBack {
    always,
    when_given,     // only when the file gave it (Candidate::*given)
    when_positive,  // only when above 0 (0 means "none")
    when_nonzero,   // only when not 0 (0 means "as if absent")
};

// One key a candidate may have. `lo`..`hi` is its range on its own;
// relations between keys (min_lease <= lease, writes and fail_at within the
// action) are checked per candidate once its values are merged.
struct CandidateKey {
    const char* name;
    KeyKind kind;
    std::int64_t lo = 0;
    std::int64_t hi = 0;
    Need need = Need::optional;
    std::int64_t fallback = 0;  // integer or flag, when neither the candidate nor "defaults" gives it
    WriteBack write = WriteBack::always;
    bool within_action = false;  // its upper bound is the candidate's action, when that is known
    // The field it fills: the one member pointer of its kind.
    Tick ElectorOptions::*tick = nullptr;
    std::int32_t ElectorOptions::*count = nullptr;
    bool ElectorOptions::*flag = nullptr;
    std::vector<Tick> ElectorOptions::*offsets = nullptr;
    WriteCheck ElectorOptions::*check = nullptr;
    std::span<const char* const> choices = {};  // a choice's words; fallback is the index of the default
    bool Candidate::*given = nullptr;           // set when the key is given, here or in "defaults"
    // What the key means, as `leasescope-cli schema` describes it (the
    // meaning column of docs/scenario-format.md says the same more briefly).
    const char* doc = nullptr;
};

// Every candidate key, in the order a scenario file lists them ("name" first).
std::span<const CandidateKey* const> candidate_keys();

// The value a key takes when absent, as the schema states it: none for a
// required key or one whose fallback is outside its range ("none" markers).
inline bool has_schema_default(const CandidateKey& k) {
    if (k.need != Need::optional) return false;
    if (k.kind == KeyKind::flag || k.kind == KeyKind::choice) return true;
    return k.kind == KeyKind::integer && k.fallback >= k.lo && k.fallback <= k.hi;
}

}  // namespace leasescope::sim

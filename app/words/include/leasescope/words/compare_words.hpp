#pragma once
// Two runs told side by side: where they part (the first divergent event,
// by the rule of `leasescope-cli diff --ignore-tokens`: sim::first_divergence
// with token values left out, since two seeds draw different tokens), what
// differs in their scenarios, and what each has done by a tick, as facts
// and as sentences from the "compare.*" keys of the string tables. Pure.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "leasescope/sim/scenario.hpp"
#include "leasescope/sim/trace.hpp"
#include "leasescope/words/strings.hpp"
#include "leasescope/words/words.hpp"

namespace leasescope::words {

// Where two traces part. `index` is sim::first_divergence's event index,
// tokens ignored; when either trace is an import (has believe or undecided
// events, model.md §19.9.5) those are skipped on both sides first, and
// `index` counts the events compared (a and b point into the traces)
// (-1: the events and summaries agree); `tick` the tick `leasescope-cli diff`
// names: A's event at `index`, or B's when A has no more.
struct PairDivergence {
    bool differ = false;
    std::int64_t index = -1;
    Tick tick = -1;
    // Each side's own event's tick (-1: no more events), and the earlier of
    // the two: the tick where the runs part in time. B's event can come
    // before A's (an extension at 2 where A's next event is an expiry at 6).
    Tick tick_a = -1, tick_b = -1, first_tick = -1;
    const sim::Event* a = nullptr;  // A's event at index (null: A has no more)
    const sim::Event* b = nullptr;
};
PairDivergence pair_divergence(const sim::Trace& a, const sim::Trace& b);

// What a run has done up to and including a tick, counted from its events.
enum class Tally : std::uint8_t {
    unsafe_write,
    rejected_write,
    stale_write,
    overlap,
    fencing_regressed,
    expired,
    renewed
};
inline constexpr std::size_t tally_count = 7;
const char* tally_name(Tally t);  // the key under "compare.what."
std::array<std::int64_t, tally_count> tallies_until(const sim::Trace& trace, Tick tick);

// One setting the two scenarios differ in, as a JSON pointer into
// scenario_to_json with both values (as JSON text).
struct SettingDiff {
    std::string path, a, b;
};
// Titles and summaries left out: they always differ. The seed is left out
// too unless either scenario's order is "shuffled": otherwise it only draws
// the tokens, which the comparison ignores, so it is no difference a
// student can see in the two runs.
std::vector<SettingDiff> setting_diffs(const sim::Scenario& a, const sim::Scenario& b);

struct CompareContext {
    const sim::Scenario* a = nullptr;  // null for a replayed history: no settings differ
    const sim::Scenario* b = nullptr;
    const sim::Trace* trace_a = nullptr;
    const sim::Trace* trace_b = nullptr;
    Tick playhead = 0;
};

// The facts the sentences are made from.
struct CompareFacts {
    PairDivergence divergence;
    bool parted = false;  // the playhead has reached the divergence
    std::vector<SettingDiff> settings;
    std::array<std::int64_t, tally_count> tally_a{}, tally_b{};
};
CompareFacts compare_facts(const CompareContext& ctx);

// The difference in words: the settings that differ, then either "the same
// up to tick T" (T: the tick before they part, which the "first divergence"
// mark already shows) or where the runs part (each side's event in words), then
// what each run has done by the playhead. Nothing after the playhead is told.
std::vector<Sentence> compare_sentences(const CompareContext& ctx, const Strings& strings);

}  // namespace leasescope::words

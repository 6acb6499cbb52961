#pragma once
// Events told in words: the short cells of the event table, one-sentence
// tooltips, and the longer "explain this tick" text. All text comes from the
// string tables; this library only picks keys and fills in fields, and every
// sentence it picks is chosen from facts of the trace and of the state at
// that tick (the resource mode and what it compared, why a lease ended, why a
// node did not act, whether the counter went backwards), never from a guess.
// Pure: no ImGui, no I/O, no clock.
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "leasescope/sim/scenario.hpp"
#include "leasescope/sim/simulation.hpp"
#include "leasescope/words/strings.hpp"

namespace leasescope::words {

// The table key that tells this event, e.g. "acquire.busy_holdoff",
// "release.not_owner", "write.unsafe", "skip".
std::string event_key(const sim::Event& event);

// The fields every text may use: node, tick, run, slot, fencing, ttl, token,
// detail, mode, lose.
Fields event_fields(const sim::Event& event);

std::string op_words(const sim::Event& event, const Strings& strings);  // "release" / "해제"
// The Outcome cell: "rejected: stale token", "skipped: gave up waiting".
// With the lock's capacity, an overlap reads "more nodes act than the lock
// allows (3 > 2)".
std::string outcome_words(const sim::Event& event, const Strings& strings, std::int32_t capacity = 0);
// The same for an event of the trace `header` heads, at its capacity: a
// Redisson run's script answers in Redisson's words (format 6, model.md
// §21.9), as describe_event(event, strings, header) tells them.
std::string outcome_words(const sim::Event& event, const Strings& strings, const sim::TraceHeader& header);
std::string describe_event(const sim::Event& event, const Strings& strings);
// The same in a trace of Redlock's `stores` (its header's; model.md §20.8):
// a store's answer, a write and a give-up in Redlock's own words. With no
// stores, describe_event(event, strings).
std::string describe_event(const sim::Event& event, const Strings& strings, std::span<const std::string> stores);
// The same for an event of the trace `header` heads, in its client's words:
// Redlock's (its stores), Redisson's (format 6: a field in a hash, a hold
// count, no fencing number; model.md §21.9) or the elector's. Every place
// that tells one event of a trace in a sentence goes through this one.
std::string describe_event(const sim::Event& event, const Strings& strings, const sim::TraceHeader& header);

// What the explanation reads: the scenario (resource mode, candidates'
// options, capacity, order), the trace up to the event, and the state at the
// end of the event's tick (for "who still works").
struct ExplainContext {
    const sim::Scenario* scenario = nullptr;
    const sim::Trace* trace = nullptr;
    std::size_t event_index = 0;
    const sim::Snapshot* snapshot = nullptr;
};

// One sentence and the table key it came from: the tests check sentences by
// their keys as well as by their words.
struct Sentence {
    std::string key;
    std::string text;
};

struct Explanation {
    std::string heading;              // "Tick 12 · write · node-a"
    std::vector<Sentence> sentences;  // the event in one sentence, then the facts that explain it
    std::string body() const;         // the sentences as the panel shows them
};

Explanation explain(const ExplainContext& ctx, const Strings& strings);
std::string explain_event(const ExplainContext& ctx, const Strings& strings);  // explain(ctx).body()

// One line per node and slot: the state at the end of a tick, in words,
// under the heading "At the end of tick N:"; empty (no heading either) when
// no node is busy and no record is held.
std::string explain_state(const sim::Snapshot& snapshot, const Strings& strings);

// The TTL a record's token was last given among the first `end` events of the
// trace: by the acquire that wrote it (an orphan too: applied, its reply
// lost), its latest renewal, or a release that kept it for min_lease. With
// time on the wire, a call the store applied before `end` counts even when
// its reply is reported later, and its tick is the one Redis applied it at
// (model.md §16.6).
struct TtlSet {
    Tick tick = 0;  // when it was set
    Tick ttl = 0;   // the TTL set then, in ticks
};
std::optional<TtlSet> ttl_set(const sim::Trace& trace, std::size_t end, const Token& token);

// The record panel's TTL line at `tick`: "TTL left 6 of the 10 set at tick 9
// · expires at tick 15", numbers a student finds in the event table (the
// renewal at tick 9 with TTL 10); never the time left over the span since
// the acquisition, which mixes a renewed lease with the first one.
std::string ttl_words(const sim::Trace& trace, std::size_t end, const SlotRecord& record, Tick tick,
                      const Strings& strings);

// The record panel's lines for a store with replicas (model.md §17), one per
// server at the end of the snapshot's tick: its role, its copy of the record
// ("node-b #2", or "no record"), its fencing counter and whether its link to
// the primary is up: "replica 1: node-b #2 · counter 2 · link cut". Empty
// without replicas.
std::vector<std::string> server_lines(const sim::Snapshot& snapshot, const Strings& strings);

// The name of the lane of the scenario's scripted ops: their actors as the
// trace names them ("operator", "auditor, operator"), in order of first
// appearance; empty when the scenario has no ops.
std::string ops_actors(const sim::Scenario& scenario);

// The status word of a node ("STALE", "running", …).
std::string status_words(sim::NodeStatus status, const Strings& strings);

// The token as shown on screen: its first characters and an ellipsis.
std::string short_token(const std::string& token, std::size_t keep = 5);

}  // namespace leasescope::words

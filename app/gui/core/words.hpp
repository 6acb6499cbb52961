#pragma once
// Events told in words: the short cells of the event table, one-sentence
// tooltips, and the longer "explain this tick" text. All text comes from the
// string tables; this file only picks the key and fills in the fields.
#include <optional>
#include <string>

#include "leasescope/sim/simulation.hpp"
#include "strings.hpp"

namespace leasescope::gui {

// The table key that tells this event, e.g. "acquire.busy_holdoff",
// "release.not_owner", "write.unsafe", "skip".
std::string event_key(const sim::Event& event);

// The fields every text may use: node, tick, run, slot, fencing, ttl, token,
// detail, mode, lose.
Fields event_fields(const sim::Event& event);

std::string op_words(const sim::Event& event, const Strings& strings);       // "release" / "해제"
std::string outcome_words(const sim::Event& event, const Strings& strings);  // "rejected: stale token"
std::string describe_event(const sim::Event& event, const Strings& strings);

// What the explanation needs beyond the event: the trace (to find when the
// node's token expired) and the state at the end of the event's tick.
struct ExplainContext {
    const sim::Trace* trace = nullptr;
    std::size_t event_index = 0;
    const sim::Snapshot* snapshot = nullptr;  // at the event's tick
    sim::ResourceMode resource = sim::ResourceMode::off;
};
std::string explain_event(const ExplainContext& ctx, const Strings& strings);

// One line per node and slot: the state at the end of a tick, in words.
std::string explain_state(const sim::Snapshot& snapshot, const Strings& strings);

// The status word of a node ("STALE", "running", …) and its i18n key.
std::string status_words(sim::NodeStatus status, const Strings& strings);

// The token as shown on screen: its first characters and an ellipsis.
std::string short_token(const std::string& token, std::size_t keep = 5);

}  // namespace leasescope::gui

#pragma once
// The messages of a run as a space-time diagram's data (docs/model.md §16.6):
// from the trace alone, each call's request (node → store) and reply
// (store → node) and each write (node → resource) with its send and arrival
// ticks, whether it was lost (ends in a cross) and whether it was late.
#include <cstdint>
#include <string>
#include <vector>

#include "leasescope/sim/scenario.hpp"
#include "leasescope/sim/trace.hpp"
#include "strings.hpp"

namespace leasescope::gui {

enum class MessageKind : std::uint8_t { request, reply, write };

struct Message {
    MessageKind kind = MessageKind::request;
    std::int32_t node = 0;  // index into MessageTrack::nodes (the sender, or the reply's receiver)
    Tick sent = 0;          // the send tick
    // The arrival tick; for a lost message the tick it was given up at (the
    // call's timeout, or the tick the node learned it had no reply).
    Tick arrived = 0;
    bool lost = false;                      // never arrived where it went: drawn ending in a cross
    bool late = false;                      // arrived − sent above the link's latency (model.md §16.1)
    std::int32_t event = -1;                // the trace event it was read from
    sim::EventOp op = sim::EventOp::write;  // what it carried: the call's op, or a write
    Tick base_latency = 0;                  // the link's latency for this node (0 without a scenario)
    Tick gave_up = tick_none;               // a request applied after its call timed out: the timeout's tick
    bool operator==(const Message&) const = default;
};

// The base latencies of one node's links (model.md §16.1), 0 when unknown.
struct NodeLinks {
    std::string node;
    sim::Network network;
    bool operator==(const NodeLinks&) const = default;
};

struct MessageTrack {
    std::vector<std::string> nodes;  // the nodes that send messages, in the trace header's order
    std::vector<Message> messages;   // in trace order, a call's request before its reply
    bool operator==(const MessageTrack&) const = default;
};

// How an arrow looks, one legend entry each: on time, late, lost (a cross:
// not read by the node, or not answered before the call gave up).
enum class MessageLook : std::uint8_t { on_time, late, lost };
// The looks the run's messages have, in that order, each once (the legends').
std::vector<MessageLook> message_looks(const MessageTrack& track);
// Its legend entry's key in assets/i18n ("legend.message", …).
const char* message_look_key(MessageLook look);

// Whether the trace shows time on the wire (any `sent` or `applied`).
bool trace_has_wire_time(const sim::Trace& trace);
// Whether the scenario puts time on the wire (a latency or a `delay` fault).
bool scenario_has_wire_time(const sim::Scenario& scenario);
// The nodes' link latencies as the scenario resolves them.
std::vector<NodeLinks> node_links(const sim::Scenario& scenario);

// Every message of the trace (model.md §16.6): a call (acquire, extend,
// release) with `sent` s, `applied` a at tick r is a request s → a and a
// reply a → r; missing keys equal r. A call that failed with no `applied`
// is a request that ends in a cross at r (timed out, not answered); a
// request the store applied after its call timed out (its second event)
// arrives at r and its reply is lost; `reply_lost` ends the reply in a
// cross. A write with `sent` s at r is a message s → r to the resource.
MessageTrack message_track(const sim::Trace& trace, const std::vector<NodeLinks>& links);

// A message in words (assets/i18n "msg.*"): what it is, when it was sent
// and arrived (or that it was lost), whether it was late (the SVG's <title>).
std::string message_summary(const MessageTrack& track, std::int32_t index, const Strings& strings);
// Its tooltip: the summary, then its event (op, outcome, fencing) as the event table tells it.
std::string message_words(const MessageTrack& track, std::int32_t index, const sim::Trace& trace,
                          const Strings& strings);

}  // namespace leasescope::gui

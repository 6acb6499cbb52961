// The messages of a run, read from its trace (message_lanes.hpp).
#include "message_lanes.hpp"

#include <algorithm>
#include <map>
#include <tuple>

#include "words.hpp"

namespace leasescope::gui {
namespace {

bool is_call(sim::EventOp op) {
    return op == sim::EventOp::acquire || op == sim::EventOp::extend || op == sim::EventOp::release;
}

// A call whose event said it timed out before the store applied it: its
// request may still be applied later (model.md §16.6, its second event).
using CallKey = std::tuple<std::string, std::int32_t, sim::EventOp, Tick>;  // node, run, op, sent

class Reader {
public:
    Reader(const sim::Trace& trace, const std::vector<NodeLinks>& links) : trace_(trace), links_(links) {}

    MessageTrack read() {
        for (std::size_t k = 0; k < trace_.events.size(); ++k) read_event(static_cast<std::int32_t>(k));
        return finish();
    }

private:
    void read_event(std::int32_t k) {
        const sim::Event& e = trace_.events[static_cast<std::size_t>(k)];
        const auto& names = trace_.header.candidates;
        const auto it = std::find(names.begin(), names.end(), e.node);
        if (it == names.end()) return;  // an auditor's op or a fault: not a node's message
        const auto node = static_cast<std::int32_t>(it - names.begin());
        const Tick sent = e.sent.value_or(e.tick);
        if (e.op == sim::EventOp::write) {
            add(MessageKind::write, node, sent, e.tick, false, k);
        } else if (is_call(e.op)) {
            read_call(e, node, sent, k);
        }
    }

    void read_call(const sim::Event& e, std::int32_t node, Tick sent, std::int32_t k) {
        const bool failed = e.outcome == sim::Outcome::error;
        const CallKey key{e.node, e.run, e.op, sent};
        const auto pending = timed_out_.find(key);
        if (failed && !e.applied && pending != timed_out_.end()) {
            // The second event of a call that timed out: the store applied
            // its request now; the node no longer waits, so the reply is lost.
            Message& request = out_.messages[pending->second];
            request.arrived = e.tick;
            request.lost = false;
            request.late = request.arrived - request.sent > request.base_latency;
            request.gave_up = trace_.events[static_cast<std::size_t>(request.event)].tick;
            request.event = k;
            timed_out_.erase(pending);
            add(MessageKind::reply, node, e.tick, e.tick, true, k);
            return;
        }
        if (failed && !e.applied) {
            // Not applied when the node gave up: the request ends in a cross.
            if (e.sent) timed_out_[key] = out_.messages.size();
            add(MessageKind::request, node, sent, e.tick, true, k);
            return;
        }
        const Tick applied = e.applied.value_or(e.tick);
        add(MessageKind::request, node, sent, applied, false, k);
        add(MessageKind::reply, node, applied, e.tick, e.details.has(sim::Detail::reply_lost), k);
    }

    void add(MessageKind kind, std::int32_t node, Tick sent, Tick arrived, bool lost, std::int32_t event) {
        Message m;
        m.kind = kind;
        m.node = node;
        m.sent = sent;
        m.arrived = arrived;
        m.lost = lost;
        m.event = event;
        m.op = trace_.events[static_cast<std::size_t>(event)].op;
        m.base_latency = base_latency(node, kind);
        m.late = !lost && arrived - sent > m.base_latency;
        out_.messages.push_back(m);
    }

    Tick base_latency(std::int32_t node, MessageKind kind) const {
        const std::string& name = trace_.header.candidates[static_cast<std::size_t>(node)];
        for (const NodeLinks& l : links_)
            if (l.node == name)
                return l.network.of(kind == MessageKind::request ? sim::Link::request
                                    : kind == MessageKind::reply ? sim::Link::reply
                                                                 : sim::Link::write);
        return 0;
    }

    // Only the nodes that sent something get a lane; the indices follow.
    MessageTrack finish() {
        const auto& names = trace_.header.candidates;
        std::vector<std::int32_t> renumber(names.size(), -1);
        for (const Message& m : out_.messages) renumber[static_cast<std::size_t>(m.node)] = 0;
        for (std::size_t i = 0; i < names.size(); ++i) {
            if (renumber[i] < 0) continue;
            renumber[i] = static_cast<std::int32_t>(out_.nodes.size());
            out_.nodes.push_back(names[i]);
        }
        for (Message& m : out_.messages) m.node = renumber[static_cast<std::size_t>(m.node)];
        return std::move(out_);
    }

    const sim::Trace& trace_;
    const std::vector<NodeLinks>& links_;
    MessageTrack out_;
    std::map<CallKey, std::size_t> timed_out_;
};

}  // namespace

std::vector<MessageLook> message_looks(const MessageTrack& track) {
    bool seen[3] = {false, false, false};
    for (const Message& m : track.messages)
        seen[static_cast<int>(m.lost ? MessageLook::lost : m.late ? MessageLook::late : MessageLook::on_time)] = true;
    std::vector<MessageLook> out;
    for (const MessageLook look : {MessageLook::on_time, MessageLook::late, MessageLook::lost})
        if (seen[static_cast<int>(look)]) out.push_back(look);
    return out;
}

const char* message_look_key(MessageLook look) {
    switch (look) {
        case MessageLook::on_time: return "legend.message";
        case MessageLook::late: return "legend.message_late";
        case MessageLook::lost: return "legend.message_lost";
    }
    return "legend.message";
}

bool trace_has_wire_time(const sim::Trace& trace) {
    return std::any_of(trace.events.begin(), trace.events.end(),
                       [](const sim::Event& e) { return e.sent.has_value() || e.applied.has_value(); });
}

bool scenario_has_wire_time(const sim::Scenario& scenario) {
    for (const sim::Candidate& c : scenario.candidates)
        if (!c.network.zero()) return true;
    return std::any_of(scenario.faults.begin(), scenario.faults.end(),
                       [](const sim::Fault& f) { return f.kind == sim::FaultKind::delay; });
}

std::vector<NodeLinks> node_links(const sim::Scenario& scenario) {
    std::vector<NodeLinks> out;
    for (const sim::Candidate& c : scenario.candidates) out.push_back(NodeLinks{c.name, c.network});
    return out;
}

MessageTrack message_track(const sim::Trace& trace, const std::vector<NodeLinks>& links) {
    return Reader(trace, links).read();
}

std::string message_summary(const MessageTrack& track, std::int32_t index, const Strings& strings) {
    const Message& m = track.messages[static_cast<std::size_t>(index)];
    const Fields fields{{"node", track.nodes[static_cast<std::size_t>(m.node)]},
                        {"op", strings.tr(std::string("op.") + sim::to_string(m.op))},
                        {"sent", std::to_string(m.sent)},
                        {"arrived", std::to_string(m.arrived)}};
    const char* key = m.kind == MessageKind::write     ? "msg.write"
                      : m.kind == MessageKind::request ? (m.lost ? "msg.request_lost" : "msg.request")
                                                       : (m.lost ? "msg.reply_lost" : "msg.reply");
    std::string text = strings.tr(key, fields);
    // (append, not "\n" + …: GCC 12 at -O3 warned of an overlapping memcpy in the temporary)
    if (m.late)
        text.append("\n").append(strings.tr(
            "msg.late", {{"ticks", std::to_string(m.arrived - m.sent)}, {"base", std::to_string(m.base_latency)}}));
    if (m.gave_up != tick_none)
        text.append("\n").append(strings.tr("msg.gave_up", {{"tick", std::to_string(m.gave_up)}}));
    return text;
}

std::string message_words(const MessageTrack& track, std::int32_t index, const sim::Trace& trace,
                          const Strings& strings) {
    const Message& m = track.messages[static_cast<std::size_t>(index)];
    return message_summary(track, index, strings) + "\n" +
           describe_event(trace.events[static_cast<std::size_t>(m.event)], strings, trace.header);
}

}  // namespace leasescope::gui

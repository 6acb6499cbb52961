// The faults an imported history shows (docs/model.md §19.8.2), each with
// its evidence in English naming the lines and times: pauses and crashes the
// logs state; a pause where a holder's commands stop for longer than its
// extension period (or, when it never extends, its lease) and it writes
// afterwards; a crash where a node's commands
// stop for good while it holds and its record then expires; a store
// clock_jump at a kept clock step (19.1.4).
#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "history_internal.hpp"

namespace leasescope::sim::import::history_detail {
namespace {

struct FaultContext {
    std::int64_t origin_us = 0;
    Timebase time;
    const std::vector<std::string>* log_files = nullptr;
};

// "t=12.004 s": seconds since tick 0, in whole milliseconds.
std::string seconds_at(const FaultContext& c, std::int64_t wall_us) {
    const std::int64_t ms = (wall_us - c.origin_us) / 1000;
    return fmt::format("t={}.{:03} s", ms / 1000, std::llabs(ms % 1000));
}

std::string log_place(const FaultContext& c, const LogEntry& l) {
    const auto i = static_cast<std::size_t>(l.source);
    return fmt::format("{}:{}", i < c.log_files->size() ? (*c.log_files)[i] : std::string("log"), l.line);
}

// Pauses and crashes the logs state, per node; `logged` gets the nodes whose
// log speaks of its pauses or crash (their commands are not read for more).
void faults_from_logs(const FaultContext& c, const std::vector<LogEntry>& logs, Tick end_tick,
                      std::vector<InferredFault>& out, std::map<std::string, bool>& logged) {
    std::map<std::string, const LogEntry*> open;
    for (const auto& l : logs) {
        if (l.event == LogEvent::pause_start) {
            open[l.node] = &l;
            logged[l.node] = true;
        } else if (l.event == LogEvent::pause_end && open[l.node] != nullptr) {
            const LogEntry& s = *open[l.node];
            const Tick at = c.time.tick_of(s.wall_us);
            out.push_back(
                {Evidence{EventOp::pause, l.node, at, std::max<Tick>(1, c.time.tick_of(l.wall_us) - at),
                          fmt::format("{} says {} paused at {} and {} that it resumed at {}", log_place(c, s), l.node,
                                      seconds_at(c, s.wall_us), log_place(c, l), seconds_at(c, l.wall_us))}});
            open[l.node] = nullptr;
        } else if (l.event == LogEvent::crashed) {
            logged[l.node] = true;
            out.push_back(
                {Evidence{EventOp::crash, l.node, c.time.tick_of(l.wall_us), 0,
                          fmt::format("{} says {} crashed at {}", log_place(c, l), l.node, seconds_at(c, l.wall_us))}});
        }
    }
    for (const auto& [node, s] : open) {
        if (s == nullptr) continue;
        const Tick at = c.time.tick_of(s->wall_us);
        out.push_back({Evidence{EventOp::pause, node, at, std::max<Tick>(1, end_tick - at + 1),
                                fmt::format("{} says {} paused at {} and no line says it resumed", log_place(c, *s),
                                            node, seconds_at(c, s->wall_us))}});
    }
}

// A node's own commands on the lock (acquire, extend, release), in time order.
std::map<std::string, std::vector<const Observation*>> commands_by_node(const std::vector<Observation>& observations) {
    std::map<std::string, std::vector<const Observation*>> by_node;
    for (const auto& o : observations)
        if (o.op == ObservedOp::acquire || o.op == ObservedOp::extend || o.op == ObservedOp::release)
            by_node[o.node].push_back(&o);
    return by_node;
}

// The node's extension period in µs: its most common gap between a command
// that left it holding and its next extend; 0 when it never extended.
std::int64_t extension_period_us(const std::vector<const Observation*>& cmds) {
    std::map<std::int64_t, std::int64_t> gaps;
    for (std::size_t i = 1; i < cmds.size(); ++i)
        if (cmds[i]->op == ObservedOp::extend) ++gaps[(cmds[i]->wall_us - cmds[i - 1]->wall_us) / 1000 * 1000];
    std::int64_t best = 0, best_count = 0;
    for (const auto& [gap, count] : gaps)
        if (count > best_count) {
            best = gap;
            best_count = count;
        }
    return best;
}

bool leaves_holding(const Observation& o) {
    return (o.op == ObservedOp::acquire && o.outcome == Outcome::acquired) ||
           (o.op == ObservedOp::extend && o.outcome == Outcome::renewed);
}

// How long a holder may be silent after `a` before its silence is a pause
// (rule 19.8.2): its extension period with half a period of slack for the
// client's jitter; a node that never extends has no period, and its lease
// (the PX of the acquisition that left it holding) bounds it instead. 0: no
// bound (no PX seen).
std::int64_t silence_bound_us(const Observation& a, std::int64_t period_us) {
    if (period_us > 0) return period_us + period_us / 2;
    return a.op == ObservedOp::acquire && a.ttl_ms ? *a.ttl_ms * 1000 : 0;
}

// A holder's silence past its bound followed by a write of its own (or, for
// a node that never extends, by its own extend or release): the node was stopped
// from its last command until its next command or its write, whichever came
// first (a stopped process neither extends nor writes).
void silent_pauses(const FaultContext& c, const std::string& node, const std::vector<const Observation*>& cmds,
                   const std::vector<LogEntry>& logs, std::vector<InferredFault>& out) {
    const std::int64_t period = extension_period_us(cmds);
    for (std::size_t i = 0; i < cmds.size(); ++i) {
        const Observation& a = *cmds[i];
        const Observation* b = i + 1 < cmds.size() ? cmds[i + 1] : nullptr;
        const std::int64_t bound = silence_bound_us(a, period);
        if (!leaves_holding(a) || bound <= 0) continue;
        const auto write = std::find_if(logs.begin(), logs.end(), [&](const LogEntry& l) {
            return l.node == node && (l.event == LogEvent::write || l.event == LogEvent::write_rejected) &&
                   l.wall_us > a.wall_us;
        });
        const bool wrote = write != logs.end();
        // Without a write only a command of a holder (an extend or release) shows
        // that it still believed it held; a new acquire shows nothing.
        if (!wrote && (period > 0 || b == nullptr || b->op == ObservedOp::acquire)) continue;
        const std::int64_t end_us = !wrote         ? b->wall_us
                                    : b != nullptr ? std::min(b->wall_us, write->wall_us)
                                                   : write->wall_us;
        if (end_us - a.wall_us <= bound) continue;
        const Tick at = c.time.tick_of(a.wall_us) + 1;
        const std::string next =
            b != nullptr ? fmt::format("line {} ({})", b->line, seconds_at(c, b->wall_us)) : std::string("the end");
        const std::string past = period > 0 ? std::string() : fmt::format(", past its lease of {} ms", *a.ttl_ms);
        const std::string then = wrote ? fmt::format(", yet it wrote at {}", seconds_at(c, write->wall_us)) : "";
        out.push_back({Evidence{EventOp::pause, node, at, std::max<Tick>(1, c.time.tick_of(end_us) - at),
                                fmt::format("no command from {} between line {} ({}) and {}{}{}", node, a.line,
                                            seconds_at(c, a.wall_us), next, past, then)}});
    }
}

// The node extended its lease (a watchdog ran), its last command left it
// holding, nothing of it follows, and its record expired afterwards: it
// stopped for good while it held. A node without a watchdog is silent while
// it holds anyway: its silence shows nothing.
void silent_crash(const FaultContext& c, const std::string& node, const std::vector<const Observation*>& cmds,
                  const std::vector<Observation>& observations, std::vector<InferredFault>& out) {
    const Observation& last = *cmds.back();
    if (!leaves_holding(last) || extension_period_us(cmds) <= 0) return;
    const auto expiry = std::find_if(observations.begin(), observations.end(), [&](const Observation& o) {
        return o.op == ObservedOp::expire && o.node == node && o.wall_us >= last.wall_us;
    });
    if (expiry == observations.end()) return;
    out.push_back(
        {Evidence{EventOp::crash, node, c.time.tick_of(last.wall_us) + 1, 0,
                  fmt::format("no command from {} after line {} ({}) while it held the lock; its record "
                              "expired at {}",
                              node, last.line, seconds_at(c, last.wall_us), seconds_at(c, expiry->wall_us))}});
}

}  // namespace

std::vector<InferredFault> infer_faults(const Trace& imported, const std::vector<Observation>& observations,
                                        const std::vector<LogEntry>& logs, const std::vector<std::string>& log_files) {
    FaultContext c;
    c.origin_us = imported.header.import ? imported.header.import->origin_us : 0;
    c.time = Timebase{c.origin_us, imported.header.tick_ms};
    c.log_files = &log_files;
    std::vector<InferredFault> out;
    std::map<std::string, bool> logged;
    faults_from_logs(c, logs, imported.summary.end_tick, out, logged);
    for (const auto& [node, cmds] : commands_by_node(observations)) {
        if (logged[node] || cmds.empty()) continue;
        silent_pauses(c, node, cmds, logs, out);
        silent_crash(c, node, cmds, observations, out);
    }
    for (const auto& o : observations) {
        if (o.op != ObservedOp::clock_step || o.step_ms == 0) continue;
        out.push_back({Evidence{EventOp::clock_jump, "store", c.time.tick_of(o.wall_us), 0,
                                fmt::format("the server's clock stepped {} {} ms at line {} ({})",
                                            o.step_ms < 0 ? "back" : "forward", std::llabs(o.step_ms), o.line,
                                            seconds_at(c, o.wall_us))},
                       o.step_ms});
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const InferredFault& a, const InferredFault& b) { return a.evidence.at < b.evidence.at; });
    return out;
}

}  // namespace leasescope::sim::import::history_detail

// The ready-made pairs of side by side, and the stopping rule of narrated play (compare_pairs.hpp).
#include "compare_pairs.hpp"

#include <algorithm>

#include "lanes.hpp"
#include "redlock_lanes.hpp"

namespace leasescope::gui {

const std::vector<ReadyPair>& ready_pairs() {
    // The presets' own lessons: the fence, the durable counter, the watchdog.
    static const std::vector<ReadyPair> pairs = {
        {"gc-pause", "gc-pause-fencing", "gc-pause-no-fencing", {}},
        {"failover", "failover-lost-lock", "failover-fencing-regressed", {}},
        {"expiry-autoextend", "expiry-takeover", "", {"defaults.auto_extend=true"}},
        // Replication (model.md §17): what WAIT and min-replicas-to-write change.
        {"replica-wait", "failover-fencing-tie", "failover-wait", {}},
        {"split-brain", "split-brain-old-primary", "split-brain-min-replicas", {}},
    };
    return pairs;
}

const ReadyPair* find_ready_pair(const std::string& name) {
    for (const ReadyPair& p : ready_pairs())
        if (p.name == name) return &p;
    return nullptr;
}

bool is_narration_stop(const sim::Event& event, sim::ResourceMode mode) {
    // The same marks the event table shows in red (is_alarm), and the start of
    // an overlap, which the timeline draws as a band rather than a mark.
    return event.op == sim::EventOp::overlap_begin || is_alarm(marker_kind_of(event, mode));
}

std::vector<Tick> narration_stops(const sim::Trace& trace, sim::ResourceMode mode) {
    std::vector<Tick> out;
    const bool redlock = trace.header.format == 5;  // an unlock that deletes nothing is no stop (§20.5)
    for (std::size_t k = 0; k < trace.events.size(); ++k) {
        const sim::Event& e = trace.events[k];
        const bool stop = redlock
                              ? e.op == sim::EventOp::overlap_begin || is_alarm(redlock_marker_kind(trace.events, k))
                              : is_narration_stop(e, mode);
        if (stop && (out.empty() || out.back() != e.tick)) out.push_back(e.tick);
    }
    return out;
}

Tick narrate_advance(const std::vector<Tick>& stops, Tick from, Tick ticks, Tick end, bool& stopped) {
    stopped = false;
    Tick to = std::min(from + std::max<Tick>(ticks, 0), end);
    const auto next = std::upper_bound(stops.begin(), stops.end(), from);
    if (next != stops.end() && *next <= to) {
        to = *next;
        stopped = true;
    }
    return std::max(to, from);
}

}  // namespace leasescope::gui

#pragma once
// What the runs of the other clients share (RedlockRun, model.md §20;
// RedissonRun, §21): the fault edges in the order §6.1 takes them, the
// overlap check of §9.2, a floor division for clock readings, and the
// results in declared order.
#include <algorithm>
#include <cstdint>
#include <tuple>
#include <vector>

#include "leasescope/sim/scenario.hpp"
#include "leasescope/sim/trace.hpp"

namespace leasescope::sim::client_run {

// ⌊a / b⌋ for b > 0, whatever a's sign.
inline std::int64_t floor_div(std::int64_t a, std::int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

// Every fault's start and end (a delay has neither: it changes arrivals),
// ends before starts at one tick (a pause may end as the next begins, §7.4),
// then list order; `last` is the last edge's tick.
inline std::vector<FaultEdge> fault_edges(const Scenario& scenario, Tick& last) {
    std::vector<FaultEdge> edges;
    for (std::size_t i = 0; i < scenario.faults.size(); ++i) {
        const Fault& f = scenario.faults[i];
        if (f.kind == FaultKind::delay) continue;
        edges.push_back(FaultEdge{f.at, static_cast<std::int32_t>(i), false});
        last = std::max(last, f.at);
        if (f.end() != tick_none) {
            edges.push_back(FaultEdge{f.end(), static_cast<std::int32_t>(i), true});
            last = std::max(last, f.end());
        }
    }
    std::sort(edges.begin(), edges.end(), [](const FaultEdge& a, const FaultEdge& b) {
        return std::tuple(a.tick, !a.end, a.fault) < std::tuple(b.tick, !b.end, b.fault);
    });
    return edges;
}

// A node's event at tick t: its name, run and token (the token or field it
// sends); n < 0 (and no token) for an event of no node.
inline EventView node_event(const Scenario& scenario, Tick t, Phase phase, EventOp op, NodeIndex n, std::int32_t run,
                            const Token* token) {
    EventView ev;
    ev.tick = t;
    ev.phase = phase;
    ev.op = op;
    if (n >= 0) {
        ev.node = scenario.candidates[static_cast<std::size_t>(n)].name;
        ev.run = run;
        if (token != nullptr) ev.token = *token;
    }
    return ev;
}

// The check phase (§9.2): an overlap begins when more than one node is
// executing and ends when at most one is; `emit` takes each event.
template <typename Emit>
void check_overlap(Tick t, std::int64_t executing, bool& in_overlap, Violations& violations, Emit&& emit) {
    EventView ev;
    ev.tick = t;
    ev.phase = Phase::check;
    if (executing > 1 && !in_overlap) {
        in_overlap = true;
        ++violations.overlap;
        ev.op = EventOp::overlap_begin;
        ev.overlap_count = executing;
        emit(ev);
    } else if (executing <= 1 && in_overlap) {
        in_overlap = false;
        ev.op = EventOp::overlap_end;
        emit(ev);
    }
}

// The results so far, in declared order: each node's `results`, one per run.
template <typename Node>
std::vector<RunSummary> results(const Scenario& scenario, const std::vector<Node>& nodes) {
    std::vector<RunSummary> out;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        for (std::size_t k = 0; k < nodes[i].results.size(); ++k)
            out.push_back(RunSummary{scenario.candidates[i].name, static_cast<std::int32_t>(k),
                                     to_string(nodes[i].results[k]), std::nullopt});
    }
    return out;
}

}  // namespace leasescope::sim::client_run

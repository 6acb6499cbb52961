// find_fault (docs/model.md §18.4): the faults the student may add, one
// try, and the smallest fault that meets the goal, laid out by the explorer.
#include <algorithm>
#include <cstdlib>
#include <tuple>

#include "exercise_internal.hpp"
#include "leasescope/sim/explorer.hpp"
#include "leasescope/sim/limits.hpp"
#include "leasescope/sim/simulation.hpp"

namespace leasescope::sim {
namespace {

using exercise_detail::exercise_of;
using exercise_detail::exercise_path;

// The menu of the exercise's kinds: the explorer's for the scenario
// (fault_kinds_for), but no delay on Redlock, where a find_fault takes none
// (§18.4 item 1).
FaultMenu menu_of(const Scenario& s, const FaultMenu& parsed) {
    FaultMenu m = fault_kinds_for(s, parsed);
    if (s.is_redlock()) m.delay_request = m.delay_reply = m.delay_write = false;
    return m;
}

ExploreOptions options_of(const Scenario& s, const Exercise& e, const FaultMenu& menu) {
    ExploreOptions o;
    o.max_faults = 1;
    o.kinds = menu;
    o.max_pause = e.max_ticks;
    o.max_delay = menu.delays() ? e.max_ticks : 0;
    o.max_link_cut = e.max_ticks;
    o.max_lag = e.max_ticks;
    o.max_clock_jump_ms = menu.clock_jumps() ? e.max_ticks * s.tick_ms : 0;
    o.max_tick = std::max<Tick>(s.horizon - 1, 0);
    o.shuffles = 0;
    o.prune = false;
    // The explorer only lays out the faults here; on Redlock and Redisson it
    // refuses the fencing properties, which can never fail there
    // (docs/explorer.md).
    if (s.is_redlock() || s.is_redisson()) o.properties = Properties{false, true, false, true};
    return o;
}

// A fault's size for "smallest" (§18.4 item 3): ticks, a jump's |ms|, a lag.
std::int64_t magnitude(const Fault& f) {
    switch (f.kind) {
        case FaultKind::pause:
        case FaultKind::partition:
        case FaultKind::replica_link:
        case FaultKind::restart: return f.ticks;
        case FaultKind::delay: return f.extra;
        case FaultKind::clock_jump: return std::llabs(f.ms);
        case FaultKind::failover: return f.lag;
        case FaultKind::crash: return 0;
    }
    return 0;
}

bool kind_allowed(const FaultMenu& m, const Fault& f) {
    switch (f.kind) {
        case FaultKind::pause: return m.pause;
        case FaultKind::partition:
            return f.mode == PartitionMode::drop_requests ? m.partition_drop_requests : m.partition_drop_replies;
        case FaultKind::crash: return m.crash;
        case FaultKind::failover:
            return f.promotes()                     ? m.failover_promote
                   : f.lose == FailoverLoss::leases ? m.failover_leases
                                                    : m.failover_all;
        case FaultKind::clock_jump: return f.node < 0 && (f.ms > 0 ? m.clock_jump_forward : m.clock_jump_back);
        case FaultKind::delay:
            return f.link == Link::request ? m.delay_request : f.link == Link::reply ? m.delay_reply : m.delay_write;
        case FaultKind::replica_link: return m.replica_link;
        case FaultKind::restart:
            return f.persistence == Persistence::none       ? m.restart_none
                   : f.persistence == Persistence::everysec ? m.restart_everysec
                                                            : m.restart_always;
    }
    return false;
}

// Why the fault is outside the budget, or nothing.
std::optional<std::string> outside(const Scenario& s, const Exercise& e, const FaultMenu& m, const Fault& f) {
    if (!kind_allowed(m, f))
        return fmt::format("a {} is not among this exercise's faults ({})", to_string(f.kind), e.faults);
    if (f.at < 0 || f.at > s.horizon - 1) return fmt::format("at {}: expected 0 to {}", f.at, s.horizon - 1);
    const auto nodes = static_cast<NodeIndex>(s.candidates.size());
    const bool on_node = f.kind == FaultKind::pause || f.kind == FaultKind::partition || f.kind == FaultKind::crash ||
                         f.kind == FaultKind::delay;
    if (on_node && (f.node < 0 || f.node >= nodes)) return fmt::format("node {}: not a candidate", f.node);
    if (f.old_primary) {
        for (const NodeIndex n : f.old_primary->reachable_by) {
            if (n < 0 || n >= nodes) return fmt::format("old_primary: node {} is not a candidate", n);
        }
    }
    const std::int64_t longest = f.kind == FaultKind::clock_jump ? e.max_ticks * s.tick_ms : e.max_ticks;
    if (magnitude(f) > longest)
        return fmt::format("{} {} is more than this exercise allows ({})", to_string(f.kind), magnitude(f), longest);
    return std::nullopt;
}

Result<FaultMenu, std::string> exercise_menu(const ExerciseBase& base, const Exercise& e) {
    auto parsed = parse_fault_kinds(e.faults);
    if (!parsed.ok()) return Err{parsed.error()};
    return menu_of(base.scenario, parsed.value());
}

}  // namespace

Result<FaultBudget, ScenarioError> fault_budget(const ExerciseBase& base, std::size_t index) {
    const Exercise& e = exercise_of(base, index);
    LS_ASSERT(e.kind == ExerciseKind::find_fault);
    auto menu = exercise_menu(base, e);
    if (!menu.ok() || !menu.value().any())
        return Err{ScenarioError{base.file, exercise_path(index) + "/faults",
                                 menu.ok() ? "no fault kind this scenario allows" : menu.error()}};
    const FaultMenu& m = menu.value();
    // The explorer lays out the single faults (smallest_fault): its refusal
    // (too many faults for its bounds) is this exercise's problem.
    if (auto explorer = Explorer::create(base.scenario, options_of(base.scenario, e, m)); !explorer.ok())
        return Err{ScenarioError{base.file, exercise_path(index) + "/max_ticks", explorer.error()}};
    FaultBudget b;
    const std::pair<bool, FaultKind> kinds[] = {
        {m.pause, FaultKind::pause},
        {m.partition_drop_requests || m.partition_drop_replies, FaultKind::partition},
        {m.crash, FaultKind::crash},
        {m.failover_leases || m.failover_all || m.failover_promote, FaultKind::failover},
        {m.clock_jumps(), FaultKind::clock_jump},
        {m.delays(), FaultKind::delay},
        {m.replica_link, FaultKind::replica_link},
        {m.restarts(), FaultKind::restart}};
    for (const auto& [on, kind] : kinds) {
        if (on) b.kinds.push_back(kind);
    }
    if (m.partition_drop_requests) b.partition_modes.push_back(PartitionMode::drop_requests);
    if (m.partition_drop_replies) b.partition_modes.push_back(PartitionMode::drop_replies);
    if (m.delay_request) b.delay_links.push_back(Link::request);
    if (m.delay_reply) b.delay_links.push_back(Link::reply);
    if (m.delay_write) b.delay_links.push_back(Link::write);
    if (m.failover_leases) b.failover_losses.push_back(FailoverLoss::leases);
    if (m.failover_all) b.failover_losses.push_back(FailoverLoss::all);
    b.at_max = std::max<Tick>(base.scenario.horizon - 1, 0);
    b.ticks_max = e.max_ticks;
    return b;
}

Result<Attempt, std::string> try_fault(const ExerciseBase& base, std::size_t index, const Fault& fault) {
    const Exercise& e = exercise_of(base, index);
    LS_ASSERT(e.kind == ExerciseKind::find_fault);
    auto menu = exercise_menu(base, e);
    if (!menu.ok()) return Err{menu.error()};
    if (auto why = outside(base.scenario, e, menu.value(), fault)) return Err{std::move(*why)};
    // Valid beside the file's own faults (§7): the scenario with it, written
    // and read back, passes every check of a file.
    Scenario s = base.scenario;
    s.faults.push_back(fault);
    auto checked = parse_scenario(scenario_to_json(s), base.file);
    if (!checked.ok()) return Err{checked.error().message};
    return exercise_detail::attempt_of(base, e.goal, std::move(checked).value());
}

std::optional<Fault> smallest_fault(const ExerciseBase& base, std::size_t index) {
    const Exercise& e = exercise_of(base, index);
    LS_ASSERT(e.kind == ExerciseKind::find_fault);
    auto menu = exercise_menu(base, e);
    if (!menu.ok() || !menu.value().any()) return std::nullopt;
    auto explorer = Explorer::create(base.scenario, options_of(base.scenario, e, menu.value()));
    if (!explorer.ok()) return std::nullopt;
    const std::vector<Fault>& atoms = explorer.value().atoms();
    std::vector<std::int32_t> order(atoms.size());
    for (std::size_t i = 0; i < atoms.size(); ++i) order[i] = static_cast<std::int32_t>(i);
    std::stable_sort(order.begin(), order.end(), [&](std::int32_t a, std::int32_t b) {
        const Fault& fa = atoms[static_cast<std::size_t>(a)];
        const Fault& fb = atoms[static_cast<std::size_t>(b)];
        return std::tuple(magnitude(fa), fa.at) < std::tuple(magnitude(fb), fb.at);
    });
    const std::size_t tries = std::min<std::size_t>(order.size(), limits::exercise_tries_max);
    for (std::size_t t = 0; t < tries; ++t) {
        const Scenario s = explorer.value().to_scenario(Schedule{0, {order[t]}});
        const Trace trace = simulate(s);
        if (evaluate(e.goal, s, trace).met) return atoms[static_cast<std::size_t>(order[t])];
    }
    return std::nullopt;
}

}  // namespace leasescope::sim

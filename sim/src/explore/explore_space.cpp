// The search space: the atoms (every single fault the budget allows, in
// canonical order), the levels' sizes, and the due tables that prune a fault
// which provably changes nothing (docs/explorer.md, Pruning).
#include "leasescope/sim/explorer.hpp"

#include <algorithm>
#include <array>
#include <utility>
#include <limits>
#include <optional>

#include <fmt/format.h>

#include "explore_internal.hpp"
#include "leasescope/engine/model_store.hpp"

namespace leasescope::sim {

using namespace explore_detail;

namespace {

// "Never" in a due table: larger than any tick, so `due < end` is false.
constexpr Tick tick_never = std::numeric_limits<Tick>::max();

// Due-table flags, one byte per tick.
constexpr std::uint8_t flag_finished = 1;      // the run ended before this tick: nothing can change any more
constexpr std::uint8_t flag_store_held = 2;    // a slot is occupied or a hold-off is set: a failover drops it
constexpr std::uint8_t flag_counter_used = 4;  // the fencing counter moved: lose = all would reset it
constexpr std::uint8_t flag_someone_left = 8;  // some node may still act (so a reset counter can be reissued)

// What a node has due, seen before tick t: the first tick at or after t at
// which it acts at all (a pause before then changes nothing), and the first
// at which it calls the store (a partition before then changes nothing).
// Pauses already in force are ignored: they only delay, so these are lower
// bounds, which keeps the pruning on the safe side.
struct NodeDue {
    Tick act = tick_never;
    Tick call = tick_never;
};

NodeDue node_due(const Elector& e, const NodeFaults& faults, Tick t) {
    NodeDue due;
    if (faults.crashed) return due;
    switch (e.state()) {
        case ElectorState::finished: break;
        case ElectorState::idle: {
            const Tick run_at = e.next_run_at();
            if (run_at != tick_none) due.act = due.call = std::max(t, run_at);
            break;
        }
        case ElectorState::waiting: due.act = due.call = std::max(t, e.next_attempt()); break;
        case ElectorState::running: {
            // Progress grows every active tick; the release comes when it
            // reaches the end of the action, no sooner than this.
            due.act = t;
            const ElectorOptions& o = e.options();
            const Tick end_progress = o.fail_at > 0 ? std::min(o.fail_at, o.action) : o.action;
            const Tick left = std::max<Tick>(end_progress - e.progress(), 1);
            due.call = t + left - 1;
            if (e.watchdog_running()) due.call = std::min(due.call, std::max(t, e.next_extend()));
            break;
        }
    }
    return due;
}

void record_row(Explorer::DueTable& table, Tick t, const Simulation& sim, const ModelStore& store) {
    const auto row = static_cast<std::size_t>(t - table.first);
    const auto nodes = static_cast<std::size_t>(table.nodes);
    std::uint8_t flags = 0;
    const auto& electors = sim.electors();
    for (std::size_t i = 0; i < nodes; ++i) {
        const NodeDue due = node_due(electors[i], sim.faults()[i], t);
        table.act_due[row * nodes + i] = due.act;
        table.call_due[row * nodes + i] = due.call;
        if (due.act != tick_never) flags |= flag_someone_left;
    }
    for (const SlotRecord& slot : store.slots()) {
        if (slot.occupied) flags |= flag_store_held;
    }
    if (store.holdoff_until() != tick_none) flags |= flag_store_held;
    if (store.counter() != store.config().fencing_start - 1) flags |= flag_counter_used;
    table.flags[row] = flags;
}

void finish_rows(Explorer::DueTable& table, std::size_t from_row) {
    const auto nodes = static_cast<std::size_t>(table.nodes);
    for (std::size_t row = from_row; row < table.flags.size(); ++row) {
        table.flags[row] = flag_finished;
        std::fill_n(table.act_due.begin() + static_cast<std::ptrdiff_t>(row * nodes), nodes, tick_never);
        std::fill_n(table.call_due.begin() + static_cast<std::ptrdiff_t>(row * nodes), nodes, tick_never);
    }
}

}  // namespace

void explore_detail::size_table(Explorer::DueTable& table, Tick first, Tick last, std::int32_t nodes) {
    LS_ASSERT(first <= last + 1);
    table.first = first;
    table.nodes = nodes;
    const auto rows = static_cast<std::size_t>(last - first + 1);
    table.flags.assign(rows, 0);
    table.act_due.assign(rows * static_cast<std::size_t>(nodes), tick_never);
    table.call_due.assign(rows * static_cast<std::size_t>(nodes), tick_never);
}

// Whether adding `f` can change anything, given what is due (the table is the
// run without `f`). False only when provably not: then the schedule with `f`
// behaves like the one without it, which the search covers with fewer faults.
bool explore_detail::relevant(const Fault& f, const Explorer::DueTable& table) {
    LS_ASSERT(f.at >= table.first);
    const auto row = static_cast<std::size_t>(f.at - table.first);
    LS_ASSERT(row < table.flags.size());
    const std::uint8_t flags = table.flags[row];
    if ((flags & flag_finished) != 0) return false;
    const std::size_t cell = row * static_cast<std::size_t>(table.nodes) + static_cast<std::size_t>(f.node);
    switch (f.kind) {
        case FaultKind::pause: return table.act_due[cell] < f.at + f.ticks;
        case FaultKind::partition: return table.call_due[cell] < f.at + f.ticks;
        case FaultKind::crash: return table.act_due[cell] != tick_never;
        case FaultKind::failover:
            if ((flags & flag_store_held) != 0) return true;
            return f.lose == FailoverLoss::all && (flags & flag_counter_used) != 0 && (flags & flag_someone_left) != 0;
        case FaultKind::clock_jump:
            // A jump of the store's clock moves every deadline it reads
            // against (model.md §3.3 rules 4-6), but a record or hold-off set
            // after the jump gets its deadline on the moved clock, so the
            // jump cancels out: only what the store holds now can change.
            // (The search adds no jumps of a node's clock.)
            return f.node >= 0 || (flags & flag_store_held) != 0;
        case FaultKind::delay:
            // It slows what is sent in tick f.at (a window of one tick). A
            // request or a write is sent by the node itself, so only when it
            // acts then; a reply is sent by the store whenever it applies a
            // request, which may have been on the wire for a while.
            if (f.link == Link::reply || f.ticks != 1) return true;
            return table.act_due[cell] <= f.at;
    }
    return true;
}

// Runs a scenario to its end on the model store, discarding events. With a
// table, records what is due before each tick from table.first on.
Verdict explore_detail::simulate_verdict(const Scenario& scenario, const Properties& checked, Explorer::DueTable* table,
                                         std::uint64_t& ticks) {
    Simulation sim(scenario);
    ModelStore store(scenario.lock);
    NullSink sink;
    const Tick last_row = table != nullptr ? table->first + static_cast<Tick>(table->flags.size()) - 1 : -1;
    while (!sim.finished()) {
        // Quiet ticks are passed over at once, except the due table's rows,
        // which are recorded tick by tick.
        const Tick limit =
            table != nullptr && sim.next_tick() <= last_row ? table->first : std::numeric_limits<Tick>::max();
        sim.skip_quiet_ticks(store, limit);
        const Tick t = sim.next_tick();
        if (table != nullptr && t >= table->first && t <= last_row) record_row(*table, t, sim, store);
        auto stepped = sim.step(store, sink);
        LS_ASSERT(stepped.ok());  // the model store never fails
    }
    ticks = saturating_add(ticks, static_cast<std::uint64_t>(sim.end_tick() + 1));
    if (table != nullptr) {
        const Tick first_finished = std::max(sim.end_tick() + 1, table->first);
        finish_rows(*table, static_cast<std::size_t>(first_finished - table->first));
    }
    Verdict v;
    v.violations = sim.violations();
    v.end_tick = sim.end_tick();
    for (const Elector& e : sim.electors()) {
        for (const RunOutcome& r : e.outcomes()) v.elected = v.elected || r.result == RunResult::elected;
    }
    v.failed.overlap = checked.overlap && v.violations.overlap > 0;
    v.failed.unsafe_write = checked.unsafe_write && v.violations.unsafe_write > 0;
    v.failed.fencing_regressed = checked.fencing_regressed && v.violations.fencing_regressed > 0;
    v.failed.liveness = checked.liveness && !v.elected;
    v.failed.stale_after_successor = checked.stale_after_successor && v.violations.stale_after_successor > 0;
    v.failed.holder_rejected = checked.holder_rejected && v.violations.holder_rejected > 0;
    v.failed.fencing_duplicate = checked.fencing_duplicate && v.violations.fencing_duplicate > 0;
    return v;
}

namespace {

// What is wrong with the options' ranges and choices, or nothing.
std::optional<std::string> option_error(const ExploreOptions& options) {
    if (options.max_faults < 0 || options.max_faults > explore_faults_max)
        return fmt::format("max faults: expected 0 to {}, found {}", explore_faults_max, options.max_faults);
    if (options.max_pause < 1 || options.max_pause > explore_pause_max)
        return fmt::format("max pause: expected 1 to {} ticks, found {}", explore_pause_max, options.max_pause);
    if (options.shuffles < 0 || options.shuffles > explore_shuffles_max)
        return fmt::format("shuffles: expected 0 to {}, found {}", explore_shuffles_max, options.shuffles);
    if (options.max_tick && *options.max_tick < 0)
        return fmt::format("max tick: expected 0 or more, found {}", *options.max_tick);
    if (options.max_delay < 0 || options.max_delay > explore_delay_max)
        return fmt::format("--max-delay: expected 0 to {} ticks (explore_delay_max), found {}", explore_delay_max,
                           options.max_delay);
    if (options.max_clock_jump_ms < 0)
        return fmt::format("--max-clock-jump-ms: expected 0 or more, found {}", options.max_clock_jump_ms);
    if (!options.properties.any()) return std::string("no property to check; choose at least one");
    return std::nullopt;
}

// The single faults that start at tick t, in the search's order, less those
// that clash with the base's own faults.
void atoms_at(Tick t, const Scenario& base, const ExploreOptions& options, std::vector<Fault>& out) {
    const FaultMenu& k = options.kinds;
    const auto nodes = static_cast<std::int64_t>(base.candidates.size());
    const bool partitions = k.partition_drop_requests || k.partition_drop_replies;
    auto add = [&](Fault f) {
        for (const Fault& b : base.faults) {
            if (clashes(f, b)) return;
            // A pause or partition that ends at the tick where one of
            // the base's own of the same node starts is left out: the
            // scheduler applies the base's start first (it is listed
            // first) and then this one's end, which would cancel the
            // base's fault, an artefact rather than a fault.
            if (b.kind == f.kind && b.node == f.node && f.end() != tick_none && b.at == f.end()) return;
        }
        out.push_back(f);
    };
    for (NodeIndex n = 0; n < nodes && k.pause; ++n) {
        for (Tick d = 1; d <= options.max_pause; ++d) add(Fault{FaultKind::pause, n, t, d, {}, {}});
    }
    for (NodeIndex n = 0; n < nodes && partitions; ++n) {
        for (Tick d = 1; d <= options.max_pause; ++d) {
            if (k.partition_drop_requests) add(Fault{FaultKind::partition, n, t, d, PartitionMode::drop_requests, {}});
            if (k.partition_drop_replies) add(Fault{FaultKind::partition, n, t, d, PartitionMode::drop_replies, {}});
        }
    }
    for (NodeIndex n = 0; n < nodes && k.crash; ++n) add(Fault{FaultKind::crash, n, t, 0, {}, {}});
    if (k.failover_leases) add(Fault{FaultKind::failover, -1, t, 0, {}, FailoverLoss::leases});
    if (k.failover_all) add(Fault{FaultKind::failover, -1, t, 0, {}, FailoverLoss::all});
    // The store's clock, on a grid of whole ticks, back (most first) then forward.
    const std::int64_t steps = options.max_clock_jump_ms / base.tick_ms;
    for (std::int64_t i = steps; i >= 1 && k.clock_jump_back; --i) {
        add(Fault{FaultKind::clock_jump, -1, t, 0, {}, {}, -i * base.tick_ms, {}, 0});
    }
    for (std::int64_t i = 1; i <= steps && k.clock_jump_forward; ++i) {
        add(Fault{FaultKind::clock_jump, -1, t, 0, {}, {}, i * base.tick_ms, {}, 0});
    }
    // Delays of what one node sends on one link in tick t.
    const std::array<std::pair<Link, bool>, 3> links{
        {{Link::request, k.delay_request}, {Link::reply, k.delay_reply}, {Link::write, k.delay_write}}};
    for (NodeIndex n = 0; n < nodes; ++n) {
        for (const auto& [link, on] : links) {
            for (Tick e = 1; on && e <= options.max_delay; ++e)
                add(Fault{FaultKind::delay, n, t, 1, {}, {}, 0, link, e});
        }
    }
}

// Delays and clock jumps only with a budget for them: without one, the menu's
// default ("all") means the kinds of the search before they existed.
FaultMenu effective_kinds(const ExploreOptions& options) {
    FaultMenu k = options.kinds;
    if (options.max_delay == 0) k.delay_request = k.delay_reply = k.delay_write = false;
    if (options.max_clock_jump_ms == 0) k.clock_jump_forward = k.clock_jump_back = false;
    return k;
}

// The clock jumps' grid must hold at least one step and at most
// explore_clock_jump_steps_max of them.
std::optional<std::string> clock_jump_error(const ExploreOptions& options, std::int64_t tick_ms) {
    if (options.max_clock_jump_ms == 0) return std::nullopt;
    const std::int64_t steps = options.max_clock_jump_ms / tick_ms;
    if (steps < 1)
        return fmt::format(
            "--max-clock-jump-ms: expected 0 or at least one tick ({} ms), found {}: jumps are whole "
            "ticks",
            tick_ms, options.max_clock_jump_ms);
    if (steps > explore_clock_jump_steps_max)
        return fmt::format(
            "--max-clock-jump-ms: expected at most {} ticks' worth ({} ms at tick_ms {}; "
            "explore_clock_jump_steps_max), found {}",
            explore_clock_jump_steps_max, explore_clock_jump_steps_max * tick_ms, tick_ms, options.max_clock_jump_ms);
    return std::nullopt;
}

// How many single faults the budget asks for, and the error naming the flags
// to lower when that is too many.
std::optional<std::string> atoms_error(const ExploreOptions& options, std::int64_t nodes, Tick max_tick,
                                       std::int64_t tick_ms, std::int64_t& estimate) {
    const FaultMenu& k = options.kinds;
    const std::int64_t partition_modes = (k.partition_drop_requests ? 1 : 0) + (k.partition_drop_replies ? 1 : 0);
    const std::int64_t links = (k.delay_request ? 1 : 0) + (k.delay_reply ? 1 : 0) + (k.delay_write ? 1 : 0);
    const std::int64_t per_node =
        (k.pause ? options.max_pause : 0) + partition_modes * options.max_pause + (k.crash ? 1 : 0);
    const std::int64_t jumps =
        ((k.clock_jump_forward ? 1 : 0) + (k.clock_jump_back ? 1 : 0)) * (options.max_clock_jump_ms / tick_ms);
    const std::int64_t delays = nodes * links * options.max_delay;
    const std::int64_t per_tick =
        nodes * per_node + (k.failover_leases ? 1 : 0) + (k.failover_all ? 1 : 0) + jumps + delays;
    estimate = options.max_faults == 0 ? 0 : (max_tick + 1) * per_tick;
    if (estimate <= explore_atoms_max) return std::nullopt;
    std::string of_which, levers = "--max-pause";
    if (delays > 0) {
        of_which += fmt::format(", {} of them delays from --max-delay {}", (max_tick + 1) * delays, options.max_delay);
        levers += ", --max-delay";
    }
    if (jumps > 0) {
        of_which += fmt::format(", {} of them clock jumps from --max-clock-jump-ms {}", (max_tick + 1) * jumps,
                                options.max_clock_jump_ms);
        levers += ", --max-clock-jump-ms";
    }
    return fmt::format(
        "budget too large: {} single faults (at most {}){}; lower {} or --max-tick, or choose fewer "
        "fault kinds",
        estimate, explore_atoms_max, of_which, levers);
}

}  // namespace

Result<Explorer, std::string> Explorer::create(const Scenario& base, const ExploreOptions& given) {
    if (auto error = option_error(given)) return Err{std::move(*error)};
    LS_ASSERT(!base.candidates.empty());
    LS_ASSERT(base.tick_ms > 0);
    if (auto error = clock_jump_error(given, base.tick_ms)) return Err{std::move(*error)};
    ExploreOptions options = given;
    options.kinds = effective_kinds(given);
    if (options.max_faults > 0 && !options.kinds.any())
        return Err{std::string("no fault kind to add; choose at least one")};

    Explorer ex;
    ex.options_ = options;
    ex.variants_.push_back(base);
    for (int v = 1; v <= options.shuffles; ++v) {
        Scenario s = base;
        s.order = Order::shuffled;
        s.seed = base.seed + static_cast<std::uint64_t>(v);
        ex.variants_.push_back(std::move(s));
    }
    std::uint64_t ticks = 0;
    ex.base_end_tick_ = simulate_verdict(base, options.properties, nullptr, ticks).end_tick;
    // Each added pause (or delay, or jump back) can stretch the run by up to
    // its length, so later faults may matter that much past the base's end.
    // Faults past a run's end are pruned at once, so a generous margin costs
    // little.
    const Tick stretch = std::max({options.max_pause, options.max_delay,
                                   options.kinds.clock_jump_back ? options.max_clock_jump_ms / base.tick_ms : 0});
    const Tick margin = stretch * std::max(options.max_faults, 1);
    ex.max_tick_ = options.max_tick ? *options.max_tick : ex.base_end_tick_ + margin;
    ex.max_tick_ = std::min(ex.max_tick_, base.horizon);

    // Lay out the atoms, refusing a budget too large to hold.
    const auto nodes = static_cast<std::int64_t>(base.candidates.size());
    std::int64_t estimate = 0;
    if (auto error = atoms_error(options, nodes, ex.max_tick_, base.tick_ms, estimate)) return Err{std::move(*error)};
    if (options.max_faults > 0) {
        ex.atoms_.reserve(static_cast<std::size_t>(estimate));
        for (Tick t = 0; t <= ex.max_tick_; ++t) atoms_at(t, base, options, ex.atoms_);
        LS_ASSERT(std::is_sorted(ex.atoms_.begin(), ex.atoms_.end(), fault_less));
    }

    // What is due at each tick of each bare variant, for judging first faults.
    for (const Scenario& s : ex.variants_) {
        DueTable table;
        size_table(table, 0, ex.max_tick_, static_cast<std::int32_t>(nodes));
        simulate_verdict(s, options.properties, &table, ticks);
        ex.base_tables_.push_back(std::move(table));
    }
    return ex;
}

std::uint64_t Explorer::level_units(int level) const {
    if (level < 0 || level > options_.max_faults) return 0;
    const auto variants = static_cast<std::uint64_t>(variants_.size());
    if (level == 0) return variants;
    return saturating_mul(variants, static_cast<std::uint64_t>(atoms_.size()));
}

std::uint64_t Explorer::level_schedules(int level) const {
    if (level < 0 || level > options_.max_faults) return 0;
    return saturating_mul(static_cast<std::uint64_t>(variants_.size()), binomial(atoms_.size(), level));
}

}  // namespace leasescope::sim

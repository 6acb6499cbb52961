// The search space: the atoms (every single fault the budget allows, in
// canonical order), the levels' sizes, and the due tables that prune a fault
// which provably changes nothing (docs/explorer.md, Pruning).
#include "leasescope/sim/explorer.hpp"

#include <algorithm>
#include <array>
#include <utility>
#include <limits>
#include <optional>
#include <tuple>

#include <fmt/format.h>
#include <fmt/ranges.h>

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

bool held_by_any_server(const ModelStore& store) {
    // Every server's copy: a cut replica's, and in split brain the old
    // primary's, may differ from the primary's seen above.
    for (std::int32_t server = 0; server < store.server_count(); ++server) {
        const ModelStore::ServerCopy copy = store.server_copy(server);
        if (copy.holdoff_until != tick_none) return true;
        for (const SlotRecord& slot : copy.slots) {
            if (slot.occupied) return true;
        }
    }
    return false;
}

// A client whose waits are not an elector's schedule (Redlock's, docs/
// explorer.md On Redlock; Redisson's, On Redisson): a node acts at every
// tick until it has crashed or finished its runs (a finished Redisson
// node's watchdog is off, model.md §21.5 rule 1), and `held` says whether a
// store holds something a jump of its clock would move.
template <class Run>
void record_client_row(Explorer::DueTable& table, Tick t, const Run& run, bool held) {
    const auto row = static_cast<std::size_t>(t - table.first);
    const auto nodes = static_cast<std::size_t>(table.nodes);
    std::uint8_t flags = held ? flag_store_held : 0;
    for (std::size_t i = 0; i < nodes; ++i) {
        const auto& node = run.nodes()[i];
        const bool done = node.crashed || node.state == decltype(node.state)::finished;
        table.act_due[row * nodes + i] = table.call_due[row * nodes + i] = done ? tick_never : t;
        if (!done) flags |= flag_someone_left;
    }
    table.flags[row] = flags;
}

// A Redlock store holds something while its key, its disk copy (everysec)
// or the key it went down with (always) is set: a jump of its clock moves
// that deadline, else only deadlines set after the jump. Redisson's store
// while the lock's hash is set.
bool redlock_held(const RedlockRun& run) {
    return std::any_of(run.stores().begin(), run.stores().end(),
                       [](const RedlockStore& st) { return st.key.held || st.disk.held || st.kept.held; });
}

void record_row(Explorer::DueTable& table, Tick t, const Simulation& sim, const ModelStore& store) {
    if (const RedlockRun* run = sim.redlock()) {
        record_client_row(table, t, *run, redlock_held(*run));
        return;
    }
    if (const RedissonRun* run = sim.redisson()) {
        record_client_row(table, t, *run, run->record().held);
        return;
    }
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
    // A cut replica's copy, or an old primary's, may hold a record the
    // primary does not (model.md §17.2, §17.5): a clock jump still moves
    // its deadline.
    if ((flags & flag_store_held) == 0 && store.server_count() > 0 && held_by_any_server(store))
        flags |= flag_store_held;
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
        case FaultKind::replica_link:
        case FaultKind::restart: return true;  // Redlock: only the end of the run makes it harmless
        case FaultKind::failover:
            // A promotion changes which server answers and what it holds
            // (model.md §17.3): only the end of the run makes it harmless.
            if (f.promotes()) return true;
            if ((flags & flag_store_held) != 0) return true;
            return f.lose == FailoverLoss::all && (flags & flag_counter_used) != 0 && (flags & flag_someone_left) != 0;
        case FaultKind::clock_jump:
            // A jump of the store's clock moves every deadline it reads
            // against (model.md §3.3 rules 4-6), but a record or hold-off set
            // after the jump gets its deadline on the moved clock, so the
            // jump cancels out: only what the store holds now can change.
            // (The search adds no jumps of a node's clock.) On Redlock the
            // flag is set while any store holds a key (§20.2 rule 4).
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

namespace {

// The server that is the primary at the start of tick t, before its edges:
// server 0, or the last promoted before t. `failovers` is in tick order.
std::int32_t primary_before(const std::vector<const Fault*>& failovers, Tick t) {
    std::int32_t primary = 0;
    for (const Fault* f : failovers) {
        if (f->at < t) primary = f->server;
    }
    return primary;
}

// Whether `server` is a primary, or the old primary of a split brain, at
// any moment of ticks from … to (to >= from; its start when equal).
bool primary_in(const std::vector<const Fault*>& failovers, std::int32_t server, Tick from, Tick to) {
    if (primary_before(failovers, from) == server) return true;
    for (const Fault* f : failovers) {
        if (f->at >= from && f->at <= to && f->server == server) return true;
        if (f->old_primary && f->at <= to && from < f->old_primary->until && primary_before(failovers, f->at) == server)
            return true;
    }
    return false;
}

// A cut of `cut.server` that outlives that server's promotion and meets a
// later failover: what it means then is not said (model.md §17.3 rule 3).
bool cut_outlives_into_failover(const std::vector<const Fault*>& failovers, const Fault& cut) {
    for (const Fault* promoted : failovers) {
        if (promoted->server != cut.server || promoted->at <= cut.at || promoted->at >= cut.end()) continue;
        for (const Fault* later : failovers) {
            if (later->at > promoted->at && later->at < cut.end()) return true;
        }
    }
    return false;
}

}  // namespace

bool explore_detail::roles_valid(const std::vector<Fault>& faults) {
    std::vector<const Fault*> failovers;
    for (const Fault& f : faults) {
        if (f.promotes()) failovers.push_back(&f);
    }
    std::sort(failovers.begin(), failovers.end(), [](const Fault* a, const Fault* b) { return a->at < b->at; });
    for (const Fault* g : failovers) {
        // Strictly before its own tick: at `at` itself it is the one promoted.
        if (primary_in(failovers, g->server, g->at - g->lag, g->at - 1) && g->lag > 0) return false;
        if (primary_before(failovers, g->at) == g->server) return false;
        for (const Fault* h : failovers) {
            if (h->old_primary && h->at < g->at && g->at < h->old_primary->until) return false;
        }
    }
    for (const Fault& c : faults) {
        if (c.kind != FaultKind::replica_link) continue;
        if (primary_in(failovers, c.server, c.at, c.at)) return false;
        if (cut_outlives_into_failover(failovers, c)) return false;
    }
    return true;
}

// Runs a scenario to its end on the model store, discarding events. With a
// table, records what is due before each tick from table.first on.
Verdict explore_detail::simulate_verdict(const Scenario& scenario, const Properties& checked, Explorer::DueTable* table,
                                         std::uint64_t& ticks, MergeProbe* probe) {
    Simulation sim(scenario);
    ModelStore store(scenario.lock);
    return finish_verdict(sim, store, checked, table, ticks, probe);
}

void explore_detail::advance_to(Simulation& sim, ModelStore& store, Tick to, std::uint64_t& ticks) {
    NullSink sink;
    const Tick from = sim.next_tick();
    while (!sim.finished() && sim.next_tick() < to) {
        sim.skip_quiet_ticks(store, to);
        if (sim.next_tick() >= to) break;
        auto stepped = sim.step(store, sink);
        LS_ASSERT(stepped.ok());  // the model store never fails
    }
    ticks = saturating_add(ticks, static_cast<std::uint64_t>(sim.next_tick() - from));
}

namespace {

// What the run that ended in `sim` did, against the properties checked.
Verdict verdict_of(const Simulation& sim, const Properties& checked) {
    Verdict v;
    v.violations = sim.violations();
    v.end_tick = sim.end_tick();
    if (const RedlockRun* run = sim.redlock()) {
        for (const RedlockNode& node : run->nodes()) {
            for (const RunResult r : node.results) v.elected = v.elected || r == RunResult::elected;
        }
    }
    if (const RedissonRun* run = sim.redisson()) {
        for (const RedissonNode& node : run->nodes()) {
            for (const RunResult r : node.results) v.elected = v.elected || r == RunResult::elected;
        }
    }
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

// When a run samples its state for the memo: on multiples of `period`,
// which starts at merge_sample_ticks and doubles after each sample that met
// nothing, up to merge_sample_ticks_max. Two runs that have met sample the
// same ticks from the next multiple of the larger period on (a multiple of
// a period is one of every smaller one), so they are caught; a long run that
// meets nothing hashes only a few times.
struct Sampling {
    Tick next = std::numeric_limits<Tick>::max();
    Tick period = merge_sample_ticks;
    explicit Sampling(const MergeProbe* probe) {
        if (probe != nullptr) next = (probe->from + period - 1) / period * period;
    }
    void missed(Tick t) {
        period = std::min(period * 2, merge_sample_ticks_max);
        next = (t / period + 1) * period;
    }
};

// Samples the state at sim's next tick boundary into the probe's memo when
// it is due. The verdict of a state met before, if the probe may stop there.
const Verdict* sample_state(const Simulation& sim, const ModelStore& store, MergeProbe& probe, Sampling& sampling) {
    const Tick t = sim.next_tick();
    if (t < sampling.next) return nullptr;
    sampling.missed(t);
    const std::optional<StateHasher::Digest> digest = verdict_digest(sim, store);
    if (!digest) {  // a run the hash does not cover (Redlock, Redisson, a spill)
        sampling.next = std::numeric_limits<Tick>::max();
        return nullptr;
    }
    const MergeMemo::Key key{*digest, t, probe.variant};
    if (probe.lookup) {
        if (const Verdict* met = probe.memo->find(key)) return met;
    }
    probe.memo->note(key);
    return nullptr;
}

}  // namespace

Verdict explore_detail::finish_verdict(Simulation& sim, ModelStore& store, const Properties& checked,
                                       Explorer::DueTable* table, std::uint64_t& ticks, MergeProbe* probe) {
    NullSink sink;
    const Tick from = sim.next_tick();
    LS_ASSERT(table == nullptr || from <= table->first);
    LS_ASSERT(probe == nullptr || table == nullptr || !probe->lookup);
    const Tick last_row = table != nullptr ? table->first + static_cast<Tick>(table->flags.size()) - 1 : -1;
    Sampling sampling(probe);  // a run too short to reach a multiple hashes nothing
    while (!sim.finished()) {
        // Quiet ticks are passed over at once, except the due table's rows,
        // which are recorded tick by tick.
        const Tick limit =
            table != nullptr && sim.next_tick() <= last_row ? table->first : std::numeric_limits<Tick>::max();
        sim.skip_quiet_ticks(store, limit);
        const Tick t = sim.next_tick();
        if (const Verdict* met = probe != nullptr ? sample_state(sim, store, *probe, sampling) : nullptr) {
            // The rest of this run is the rest of the run that reached this
            // state (docs/explorer.md, Merging states).
            const Verdict verdict = *met;
            probe->memo->finish(verdict);
            *probe->merged = saturating_add(*probe->merged, 1);
            ticks = saturating_add(ticks, static_cast<std::uint64_t>(t - from));
            return verdict;
        }
        if (table != nullptr && t >= table->first && t <= last_row) record_row(*table, t, sim, store);
        auto stepped = sim.step(store, sink);
        LS_ASSERT(stepped.ok());  // the model store never fails
    }
    ticks = saturating_add(ticks, static_cast<std::uint64_t>(sim.end_tick() + 1 - from));
    if (table != nullptr) {
        const Tick first_finished = std::max(sim.end_tick() + 1, table->first);
        finish_rows(*table, static_cast<std::size_t>(first_finished - table->first));
    }
    Verdict v = verdict_of(sim, checked);
    if (probe != nullptr) probe->memo->finish(v);
    return v;
}

namespace {

// A grid's sizes must be ascending, distinct and at most
// explore_grid_size_max ticks, whatever the kind.
std::optional<std::string> grids_error(const SizeGrids& grids) {
    const std::tuple<const char*, const std::vector<Tick>*, Tick, const char*> kinds[] = {
        {"pause", &grids.pause, explore_grid_size_max, "explore_grid_size_max"},
        {"partition", &grids.partition, explore_grid_size_max, "explore_grid_size_max"},
        {"delay", &grids.delay, explore_grid_size_max, "explore_grid_size_max"},
        {"clock_jump", &grids.clock_jump, explore_grid_size_max, "explore_grid_size_max"}};
    for (const auto& [name, grid, most, limit] : kinds) {
        for (std::size_t i = 0; i < grid->size(); ++i) {
            const Tick v = (*grid)[i];
            if (v < 1 || v > most || (i > 0 && v <= (*grid)[i - 1]))
                return fmt::format("--grid {}: sizes must rise from 1 to at most {} ticks ({}), found {}", name, most,
                                   limit, v);
        }
    }
    return std::nullopt;
}

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
    if (auto error = start_every_error(options.start_every)) return error;
    if (options.max_delay < 0 || options.max_delay > explore_delay_max)
        return fmt::format("--max-delay: expected 0 to {} ticks (explore_delay_max), found {}", explore_delay_max,
                           options.max_delay);
    if (options.max_link_cut < 1 || options.max_link_cut > explore_link_cut_max)
        return fmt::format("--max-link-cut: expected 1 to {} ticks (explore_link_cut_max), found {}",
                           explore_link_cut_max, options.max_link_cut);
    if (options.max_lag < 0 || options.max_lag > explore_lag_max)
        return fmt::format("--max-lag: expected 0 to {} ticks (explore_lag_max), found {}", explore_lag_max,
                           options.max_lag);
    if (options.max_clock_jump_ms < 0)
        return fmt::format("--max-clock-jump-ms: expected 0 or more, found {}", options.max_clock_jump_ms);
    if (!options.properties.any()) return std::string("no property to check; choose at least one");
    return grids_error(options.grids);
}

// When the budget cannot add a promotion before another fault (one fault a
// schedule, or no promotions), the servers' roles are the base's: a cut or
// a promotion they do not allow would only ever be an invalid schedule, so
// it is no atom at all. Otherwise any server may be a replica by then.
bool roles_allowed_alone(const Fault& f, const Scenario& base, const ExploreOptions& options) {
    if (f.kind != FaultKind::replica_link && !f.promotes()) return true;
    if (options.kinds.failover_promote && options.max_faults >= 2) return true;
    std::vector<Fault> faults = base.faults;
    faults.push_back(f);
    return roles_valid(faults);
}

Fault promote_atom(Tick t, std::int32_t server, Tick lag) {
    Fault f{FaultKind::failover, -1, t, 0, {}, {}};
    f.server = server;
    f.lag = lag;
    return f;
}

Fault link_cut_atom(Tick t, std::int32_t server, Tick ticks) {
    Fault f{FaultKind::replica_link, -1, t, ticks, {}, {}};
    f.server = server;
    return f;
}

// The sizes of a kind's faults that the budget lays out, ascending: its
// grid when it has one (--grid; docs/explorer.md, Grids), else every size
// lo … hi; with only_magnitude just that one of them (none when it is not).
using Sizes = std::vector<std::int64_t>;

Sizes laid_out_sizes(const ExploreOptions& options, const std::vector<Tick>& grid, std::int64_t lo, std::int64_t hi) {
    Sizes sizes;
    if (!grid.empty()) {
        sizes.assign(grid.begin(), grid.end());
    } else {
        for (std::int64_t v = lo; v <= hi; ++v) sizes.push_back(v);
    }
    if (!options.only_magnitude) return sizes;
    const std::int64_t m = *options.only_magnitude;
    return std::find(sizes.begin(), sizes.end(), m) != sizes.end() ? Sizes{m} : Sizes{};
}

Sizes laid_out_sizes(const ExploreOptions& options, std::int64_t lo, std::int64_t hi) {
    return laid_out_sizes(options, {}, lo, hi);
}

// Crashes and failovers that lose have magnitude 0: laid out unless only
// another magnitude is asked for.
bool sizeless_on(const ExploreOptions& options) { return !options.only_magnitude || *options.only_magnitude == 0; }

// Adds a single fault to the atoms unless it clashes with the base's own.
struct AtomSink {
    const Scenario& base;
    const ExploreOptions& options;
    std::vector<Fault>& out;
    void operator()(const Fault& f) const {
        for (const Fault& b : base.faults) {
            if (clashes(f, b)) return;
            // A pause, partition, link cut or restart that ends at the tick
            // where one of the base's own of the same node (or server, or
            // store) starts is left out: the scheduler applies the base's
            // start first (it is listed first) and then this one's end,
            // which would cancel the base's fault, an artefact rather than a
            // fault.
            if (b.kind == f.kind && b.node == f.node && b.server == f.server && b.store == f.store &&
                f.end() != tick_none && b.at == f.end())
                return;
        }
        if (!roles_allowed_alone(f, base, options)) return;
        out.push_back(f);
    }
};

// Jumps of the store's clock at tick t (on Redlock, of each store's clock,
// model.md §20.2 rule 4), on a grid of whole ticks, back (most first) then
// forward; within one size, the stores in list order.
void clock_jump_atoms_at(Tick t, const Scenario& base, const ExploreOptions& options, const AtomSink& add) {
    const FaultMenu& k = options.kinds;
    const Sizes steps = laid_out_sizes(options, options.grids.clock_jump, 1, options.max_clock_jump_ms / base.tick_ms);
    const std::int32_t clocks = base.is_redlock() ? static_cast<std::int32_t>(base.stores.size()) : 1;
    auto jump = [&](std::int64_t ms) {
        for (std::int32_t c = 0; c < clocks; ++c) {
            Fault f{FaultKind::clock_jump, -1, t, 0, {}, {}, ms, {}, 0};
            if (base.is_redlock()) f.store = c;
            add(f);
        }
    };
    for (auto i = steps.rbegin(); i != steps.rend() && k.clock_jump_back; ++i) jump(-*i * base.tick_ms);
    for (auto i = steps.begin(); i != steps.end() && k.clock_jump_forward; ++i) jump(*i * base.tick_ms);
}

// Restarts of a Redlock store at tick t (model.md §20.3): down 1 …
// max_pause ticks, by length, then store, then what it keeps.
void restart_atoms_at(Tick t, const Scenario& base, const ExploreOptions& options, const AtomSink& add) {
    const FaultMenu& k = options.kinds;
    if (!k.restarts()) return;
    const Sizes lengths = laid_out_sizes(options, 1, options.max_pause);
    const std::array<std::pair<Persistence, bool>, 3> kept{{{Persistence::none, k.restart_none},
                                                            {Persistence::everysec, k.restart_everysec},
                                                            {Persistence::always, k.restart_always}}};
    const auto stores = static_cast<std::int32_t>(base.stores.size());
    for (const Tick d : lengths) {
        for (std::int32_t store = 0; store < stores; ++store) {
            for (const auto& [persistence, on] : kept) {
                if (!on) continue;
                Fault f{FaultKind::restart, -1, t, d, {}, {}};
                f.store = store;
                f.persistence = persistence;
                add(f);
            }
        }
    }
}

// The single faults that start at tick t, in the search's order, less those
// that clash with the base's own faults.
void atoms_at(Tick t, const Scenario& base, const ExploreOptions& options, std::vector<Fault>& out) {
    const FaultMenu& k = options.kinds;
    const Sizes pauses = laid_out_sizes(options, options.grids.pause, 1, options.max_pause);
    const Sizes partitions_ = laid_out_sizes(options, options.grids.partition, 1, options.max_pause);
    const Sizes lags = laid_out_sizes(options, 0, std::min(options.max_lag, t));
    const Sizes extras = laid_out_sizes(options, options.grids.delay, 1, options.max_delay);
    const Sizes cuts = laid_out_sizes(options, 1, options.max_link_cut);
    const bool sizeless = sizeless_on(options);
    const auto nodes = static_cast<std::int64_t>(base.candidates.size());
    const bool partitions = k.partition_drop_requests || k.partition_drop_replies;
    const AtomSink add{base, options, out};
    for (NodeIndex n = 0; n < nodes && k.pause; ++n) {
        for (const Tick d : pauses) add(Fault{FaultKind::pause, n, t, d, {}, {}});
    }
    // On Redlock a partition from every store, then from each store alone
    // (model.md §20.7: `stores`, bit i for store i; 0 every store).
    const std::uint32_t store_sets = base.is_redlock() ? static_cast<std::uint32_t>(base.stores.size()) + 1 : 1;
    const auto store_set = [](std::uint32_t i) { return i == 0 ? 0u : 1u << (i - 1); };
    for (NodeIndex n = 0; n < nodes && partitions; ++n) {
        for (const Tick d : partitions_) {
            for (std::uint32_t i = 0; i < store_sets; ++i) {
                Fault f{FaultKind::partition, n, t, d, PartitionMode::drop_requests, {}};
                f.stores = store_set(i);
                if (k.partition_drop_requests) add(f);
                f.mode = PartitionMode::drop_replies;
                if (k.partition_drop_replies) add(f);
            }
        }
    }
    for (NodeIndex n = 0; n < nodes && k.crash && sizeless; ++n) add(Fault{FaultKind::crash, n, t, 0, {}, {}});
    if (k.failover_leases && sizeless) add(Fault{FaultKind::failover, -1, t, 0, {}, FailoverLoss::leases});
    if (k.failover_all && sizeless) add(Fault{FaultKind::failover, -1, t, 0, {}, FailoverLoss::all});
    // Promotions of any server (which one is a replica then depends on the
    // schedule's earlier failovers: roles_valid), lagging 0 … max_lag, at most t.
    const std::int32_t servers = base.lock.replication.replicas + 1;
    for (std::int32_t server = 0; server < servers && k.failover_promote; ++server) {
        for (const Tick lag : lags) add(promote_atom(t, server, lag));
    }
    clock_jump_atoms_at(t, base, options, add);
    // Delays of what one node sends on one link in tick t; on Redlock a
    // request's or reply's to or from every store, then each store alone
    // (a write goes to the resource, no store).
    const std::array<std::pair<Link, bool>, 3> links{
        {{Link::request, k.delay_request}, {Link::reply, k.delay_reply}, {Link::write, k.delay_write}}};
    for (NodeIndex n = 0; n < nodes; ++n) {
        for (const auto& [link, on] : links) {
            for (auto e = extras.begin(); on && e != extras.end(); ++e) {
                const std::uint32_t sets = link == Link::write ? 1 : store_sets;
                for (std::uint32_t i = 0; i < sets; ++i) {
                    Fault f{FaultKind::delay, n, t, 1, {}, {}, 0, link, *e};
                    f.stores = store_set(i);
                    add(f);
                }
            }
        }
    }
    // Cuts of one server's link (the canonical order puts the length before the server).
    for (auto d = cuts.begin(); d != cuts.end() && k.replica_link; ++d) {
        for (std::int32_t server = 0; server < servers; ++server) add(link_cut_atom(t, server, *d));
    }
    restart_atoms_at(t, base, options, add);
}

// The kinds the base allows (fault_kinds_for); delays and clock jumps only
// with a budget for them: without one, the menu's default ("all") means the
// kinds of the search before they existed.
FaultMenu effective_kinds(const ExploreOptions& options, const Scenario& base) {
    FaultMenu k = fault_kinds_for(base, options.kinds);
    if (options.max_delay == 0 && options.grids.delay.empty()) k.delay_request = k.delay_reply = k.delay_write = false;
    if (options.max_clock_jump_ms == 0 && options.grids.clock_jump.empty())
        k.clock_jump_forward = k.clock_jump_back = false;
    return k;
}

// What the explorer cannot do on a Redlock or Redisson scenario
// (docs/explorer.md, On Redlock, On Redisson): check a property that such a
// run never breaks (neither client issues a fencing number, model.md §20.6
// and §21.6, so only overlap, unsafe_write and liveness can fail), or add
// delays on Redisson (its scenarios refuse them, §21.1 rule 3).
std::optional<std::string> fenceless_error(const ExploreOptions& options, bool redisson) {
    const Properties& p = options.properties;
    const char* client = redisson ? "Redisson" : "Redlock";
    const char* rule = redisson ? "§21.6" : "§20.6";
    std::vector<std::string> never;
    if (p.fencing_regressed) never.emplace_back("fencing_regressed");
    if (p.stale_after_successor) never.emplace_back("stale_after_successor");
    if (p.holder_rejected) never.emplace_back("holder_rejected");
    if (p.fencing_duplicate) never.emplace_back("fencing_duplicate");
    if (!never.empty())
        return fmt::format(
            "--property: {} can never fail on a {} scenario ({} issues no fencing number, docs/model.md {}); check "
            "overlap, unsafe_write or liveness",
            fmt::join(never, ", "), client, client, rule);
    if (redisson && options.max_delay > 0 && options.kinds.delays())
        return fmt::format(
            "--max-delay: the explorer adds no delays to a {} scenario (docs/explorer.md, On {}); "
            "leave --max-delay at 0",
            client, client);
    return std::nullopt;
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
std::optional<std::string> atoms_error(const ExploreOptions& options, std::int64_t nodes, std::int64_t servers,
                                       std::int64_t stores, Tick max_tick, std::int64_t tick_ms,
                                       std::int64_t& estimate) {
    const FaultMenu& k = options.kinds;
    const std::int64_t partition_modes = (k.partition_drop_requests ? 1 : 0) + (k.partition_drop_replies ? 1 : 0);
    const std::int64_t links = (k.delay_request ? 1 : 0) + (k.delay_reply ? 1 : 0) + (k.delay_write ? 1 : 0);
    // Each kind's count of sizes: its whole range, or one with only_magnitude.
    const auto count = [](const Sizes& sizes) { return static_cast<std::int64_t>(sizes.size()); };
    const std::int64_t lengths = count(laid_out_sizes(options, 1, options.max_pause));
    const std::int64_t pauses = count(laid_out_sizes(options, options.grids.pause, 1, options.max_pause));
    const std::int64_t partitions = count(laid_out_sizes(options, options.grids.partition, 1, options.max_pause));
    const std::int64_t sizeless = sizeless_on(options) ? 1 : 0;
    const std::int64_t per_node = (k.pause ? pauses : 0) + partition_modes * partitions + (k.crash ? sizeless : 0);
    // On Redlock (stores > 0) a jump and a restart of each store.
    const std::int64_t jumps =
        ((k.clock_jump_forward ? 1 : 0) + (k.clock_jump_back ? 1 : 0)) *
        count(laid_out_sizes(options, options.grids.clock_jump, 1, options.max_clock_jump_ms / tick_ms)) *
        std::max<std::int64_t>(stores, 1);
    const std::int64_t restarts =
        stores * ((k.restart_none ? 1 : 0) + (k.restart_everysec ? 1 : 0) + (k.restart_always ? 1 : 0)) * lengths;
    const std::int64_t delays =
        nodes * links * count(laid_out_sizes(options, options.grids.delay, 1, options.max_delay));
    // With replicas: a promotion of each server with each lag, a cut of each server's link of each length.
    const std::int64_t promotions =
        k.failover_promote ? servers * count(laid_out_sizes(options, 0, options.max_lag)) : 0;
    const std::int64_t cuts = k.replica_link ? servers * count(laid_out_sizes(options, 1, options.max_link_cut)) : 0;
    const std::int64_t losing = (k.failover_leases ? sizeless : 0) + (k.failover_all ? sizeless : 0);
    const std::int64_t per_tick = nodes * per_node + losing + jumps + delays + promotions + cuts + restarts;
    const std::int64_t starts = start_count(max_tick, options.start_every);
    estimate = options.max_faults == 0 ? 0 : starts * per_tick;
    if (estimate <= explore_atoms_max) return std::nullopt;
    std::string of_which, levers = "--max-pause";
    if (delays > 0) {
        of_which += fmt::format(", {} of them delays from --max-delay {}", starts * delays, options.max_delay);
        levers += ", --max-delay";
    }
    if (jumps > 0) {
        of_which += fmt::format(", {} of them clock jumps from --max-clock-jump-ms {}", starts * jumps,
                                options.max_clock_jump_ms);
        levers += ", --max-clock-jump-ms";
    }
    if (cuts > 0) {
        of_which += fmt::format(", {} of them link cuts from --max-link-cut {}", starts * cuts, options.max_link_cut);
        levers += ", --max-link-cut";
    }
    if (promotions > 0) {
        of_which += fmt::format(", {} of them promotions from --max-lag {}", starts * promotions, options.max_lag);
        levers += ", --max-lag";
    }
    // The largest --max-tick that fits with the rest as given (none when one tick is too much).
    // (With --start-every S, n start ticks fit up to --max-tick n·S - 1.)
    const std::int64_t tick_fits = explore_atoms_max / per_tick * options.start_every - 1;
    const std::string fits = tick_fits >= 0 ? fmt::format(" (with the rest as given, --max-tick {} fits)", tick_fits)
                                            : std::string(" (one tick alone is too much)");
    return fmt::format(
        "budget too large: {} single faults (at most {}){}; lower {} or --max-tick{}, raise --start-every, "
        "or choose fewer fault kinds",
        estimate, explore_atoms_max, of_which, levers, fits);
}

}  // namespace

Result<Explorer, std::string> Explorer::create(const Scenario& base, const ExploreOptions& given) {
    if (auto error = option_error(given)) return Err{std::move(*error)};
    if (base.is_redlock() || base.is_redisson()) {
        if (auto error = fenceless_error(given, base.is_redisson())) return Err{std::move(*error)};
    }
    LS_ASSERT(!base.candidates.empty());
    LS_ASSERT(base.tick_ms > 0);
    if (auto error = clock_jump_error(given, base.tick_ms)) return Err{std::move(*error)};
    ExploreOptions options = given;
    options.kinds = effective_kinds(given, base);
    // Redlock and Redisson run in one order, the declared (model.md §20.1
    // rule 3, §21.1 rule 3).
    if (base.is_redlock() || base.is_redisson()) options.shuffles = 0;
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
                                   options.kinds.clock_jump_back ? options.max_clock_jump_ms / base.tick_ms : 0,
                                   options.kinds.replica_link ? options.max_link_cut : 0, options.grids.longest()});
    const Tick margin = stretch * std::max(options.max_faults, 1);
    ex.max_tick_ = options.max_tick ? *options.max_tick : ex.base_end_tick_ + margin;
    ex.max_tick_ = std::min(ex.max_tick_, base.horizon);
    ex.forks_ = options.fork && !base.is_redlock() && !base.is_redisson();

    // Lay out the atoms, refusing a budget too large to hold.
    const auto nodes = static_cast<std::int64_t>(base.candidates.size());
    std::int64_t estimate = 0;
    if (auto error = atoms_error(options, nodes, base.lock.replication.replicas + 1,
                                 static_cast<std::int64_t>(base.stores.size()), ex.max_tick_, base.tick_ms, estimate))
        return Err{std::move(*error)};
    if (options.max_faults > 0) {
        ex.atoms_.reserve(static_cast<std::size_t>(estimate));
        for (Tick t = 0; t <= ex.max_tick_; t += options.start_every) atoms_at(t, base, options, ex.atoms_);
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

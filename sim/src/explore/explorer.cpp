// The explorer's evaluation of schedules: the depth-first walk of a level's
// work units with pruning, the random draws, one schedule's verdict, and the
// ranking "fewest faults, then smallest, then earliest".
#include "leasescope/sim/explorer.hpp"

#include <algorithm>
#include <limits>
#include <optional>

#include "explore_internal.hpp"
#include "leasescope/engine/prng.hpp"

namespace leasescope::sim {

using namespace explore_detail;

namespace {

bool cancelled(const ExploreControl* control) {
    return control != nullptr && control->cancel.load(std::memory_order_relaxed);
}

void report_progress(ExploreControl* control, const SearchStats& before, const SearchStats& after) {
    if (control == nullptr) return;
    control->schedules_done.fetch_add(after.schedules - before.schedules, std::memory_order_relaxed);
    control->ticks_done.fetch_add(after.ticks - before.ticks, std::memory_order_relaxed);
}

// The classes of fault a draw picks from, evenly: 0 pause, 1 partition,
// 2 crash, 3 failover that loses, 4 clock jump, 5 delay, 6 link cut,
// 7 promotion, 8 a Redlock store's restart. Clock jumps and delays only with
// a budget, link cuts and promotions only with replicas, restarts only on
// Redlock (Explorer::create).
std::vector<int> fault_classes(const FaultMenu& k) {
    std::vector<int> classes;
    if (k.pause) classes.push_back(0);
    if (k.partition_drop_requests || k.partition_drop_replies) classes.push_back(1);
    if (k.crash) classes.push_back(2);
    if (k.failover_leases || k.failover_all) classes.push_back(3);
    if (k.clock_jumps()) classes.push_back(4);
    if (k.delays()) classes.push_back(5);
    if (k.replica_link) classes.push_back(6);
    if (k.failover_promote) classes.push_back(7);
    if (k.restarts()) classes.push_back(8);
    return classes;
}

// A size drawn from a kind's grid, or from 1 … most without one (the
// draws of a search without grids are as they were).
Tick draw_size(SplitMix64& rng, const std::vector<Tick>& grid, Tick most) {
    if (grid.empty()) return static_cast<Tick>(1 + rng.next() % static_cast<std::uint64_t>(most));
    return grid[static_cast<std::size_t>(rng.next() % grid.size())];
}

bool is_replication(const Fault& f) { return f.kind == FaultKind::replica_link || f.promotes(); }

// The servers' roles allow the base's faults, the schedule's atoms and
// `extra` together (model.md §17; roles_valid).
bool schedule_roles_valid(const Scenario& variant, const std::vector<Fault>& table,
                          const std::vector<std::int32_t>& atoms, const Fault* extra) {
    std::vector<Fault> faults = variant.faults;
    for (const std::int32_t a : atoms) faults.push_back(table[static_cast<std::size_t>(a)]);
    if (extra != nullptr) faults.push_back(*extra);
    return roles_valid(faults);
}

}  // namespace

// A run of a schedule's prefix stopped at some tick, from which runs of
// longer schedules fork (docs/explorer.md, Forking from checkpoints).
struct Checkpoint {
    std::optional<Simulation> sim;
    std::optional<ModelStore> store;
    std::int32_t variant = -1;  // depth 0: the variant it runs (the others are reset by their parent)
};

// Scratch space of one evaluation: a scenario to put schedules in, a due
// table per depth, the schedule being built, and one checkpoint per depth:
// depth 0 the bare variant, moved forward to each unit's first fault in
// turn; depth d + 1 the prefix of d + 1 faults, moved forward to each of its
// children's faults in turn. One per call, never shared.
struct Explorer::Worker {
    Scenario scenario;
    std::int32_t variant = -1;  // which variant `scenario` holds
    std::size_t base_faults = 0;
    std::vector<DueTable> tables;
    std::vector<std::int32_t> prefix;
    std::vector<Checkpoint> checkpoints;
    ExploreControl* control = nullptr;
    // Merging (docs/explorer.md, Merging states): the states this chunk's
    // runs reached, and how many runs stopped at one.
    MergeMemo memo;
    std::uint64_t merged = 0;
    // Sharing subtrees (docs/explorer.md): the subtrees this chunk searched
    // whole without a failure, keyed by the state their prefix reached.
    SubtreeMemo subtrees;
};

// The probe of a run of variant `variant` in w, or null when the search
// does not merge; a run that records a due table only adds its states.
MergeProbe* Explorer::probe(Worker& w, std::int32_t variant, bool records, MergeProbe& storage) const {
    if (!options_.merge) return nullptr;
    Tick from = 0;
    for (const std::int32_t a : w.prefix) from = std::max(from, settled_from(atoms_[static_cast<std::size_t>(a)]));
    storage = MergeProbe{&w.memo, variant, from, !records, &w.merged};
    return &storage;
}

void Explorer::put_faults(Worker& w, std::int32_t variant, const std::vector<std::int32_t>& atoms) const {
    if (w.variant != variant) {
        w.scenario = variants_[static_cast<std::size_t>(variant)];
        w.variant = variant;
        w.base_faults = w.scenario.faults.size();
    }
    w.scenario.faults.resize(w.base_faults);
    for (const std::int32_t a : atoms) w.scenario.faults.push_back(atoms_[static_cast<std::size_t>(a)]);
}

Verdict Explorer::fork_run(Worker& w, std::int32_t variant, DueTable* record, std::uint64_t& ticks) const {
    const std::size_t depth = w.prefix.size() - 1;
    const Fault& f = atoms_[static_cast<std::size_t>(w.prefix.back())];
    const Tick first = Simulation::fault_first_tick(f);
    put_faults(w, variant, w.prefix);
    if (record != nullptr)
        size_table(*record, f.at, max_tick_, static_cast<std::int32_t>(w.scenario.candidates.size()));
    MergeProbe storage;
    MergeProbe* const merging = probe(w, variant, record != nullptr, storage);
    if (!forks_) return simulate_verdict(w.scenario, options_.properties, record, ticks, merging);
    Checkpoint& from = w.checkpoints[depth];
    if (depth == 0 && (from.variant != variant || !from.sim || from.sim->next_tick() > first)) {
        // The bare variant (its own faults only) from tick 0.
        const Scenario& bare = variants_[static_cast<std::size_t>(variant)];
        from.sim.emplace(bare);
        from.store.emplace(bare.lock);
        from.variant = variant;
    }
    // A deeper checkpoint past this fault's first tick: a promotion whose
    // lag starts before its parent's fault. Such a schedule runs from tick 0.
    if (!from.sim || from.sim->next_tick() > first)
        return simulate_verdict(w.scenario, options_.properties, record, ticks, merging);
    // Moving the bare variant's checkpoint is shared by the units of a chunk,
    // so it is not counted: the simulated ticks must not depend on how the
    // work was cut into chunks (docs/explorer.md, Forking from checkpoints).
    std::uint64_t uncounted = 0;
    advance_to(*from.sim, *from.store, first, depth == 0 ? uncounted : ticks);
    Simulation sim = *from.sim;
    ModelStore store = *from.store;
    const bool appended = sim.append_faults(w.scenario);
    LS_ASSERT(appended);
    if (record != nullptr) {
        Checkpoint& next = w.checkpoints[depth + 1];
        next.sim = sim;
        next.store = store;
    }
    return finish_verdict(sim, store, options_.properties, record, ticks, merging);
}

Verdict Explorer::run(Worker& w, std::int32_t variant, const std::vector<std::int32_t>& atoms, DueTable* record,
                      Tick record_from, std::uint64_t& ticks) const {
    put_faults(w, variant, atoms);
    if (record != nullptr)
        size_table(*record, record_from, max_tick_, static_cast<std::int32_t>(w.scenario.candidates.size()));
    return simulate_verdict(w.scenario, options_.properties, record, ticks);
}

void Explorer::consider(const Schedule& schedule, const Verdict& verdict, std::uint64_t draw, ChunkResult& out) const {
    LS_ASSERT(verdict.fails());
    out.stats.failing = saturating_add(out.stats.failing, 1);
    if (!out.best || ranks_before(schedule, *out.best) || (schedule == *out.best && draw < out.best_draw)) {
        out.best = schedule;
        out.best_draw = draw;
    }
}

void Explorer::visit(Worker& w, int level, std::int32_t variant, std::size_t depth, const DueTable& table,
                     std::int32_t atom, ChunkResult& out) const {
    const int remaining = level - static_cast<int>(depth) - 1;  // faults still to add after this one
    const auto after = static_cast<std::uint64_t>(atoms_.size() - static_cast<std::size_t>(atom) - 1);
    const std::uint64_t subtree = binomial(after, remaining);
    if (subtree == 0) return;  // not enough later atoms to complete a schedule
    const Fault& f = atoms_[static_cast<std::size_t>(atom)];
    bool valid = true;
    for (const std::int32_t p : w.prefix) valid = valid && !clashes(f, atoms_[static_cast<std::size_t>(p)]);
    // Roles depend on every failover at or before f's tick, all in the
    // prefix or the base (atoms are in tick order).
    if (valid && is_replication(f))
        valid = schedule_roles_valid(variants_[static_cast<std::size_t>(variant)], atoms_, w.prefix, &f);
    if (!valid) {
        out.stats.invalid = saturating_add(out.stats.invalid, subtree);
        out.stats.schedules = saturating_add(out.stats.schedules, subtree);
        return;
    }
    if (options_.prune && !relevant(f, table)) {
        out.stats.pruned = saturating_add(out.stats.pruned, subtree);
        out.stats.schedules = saturating_add(out.stats.schedules, subtree);
        return;
    }
    if (cancelled(w.control)) {
        out.complete = false;
        return;
    }
    w.prefix.push_back(atom);
    if (remaining == 0) {
        const Verdict verdict = fork_run(w, variant, nullptr, out.stats.ticks);
        out.stats.simulated = saturating_add(out.stats.simulated, 1);
        out.stats.schedules = saturating_add(out.stats.schedules, 1);
        if (verdict.fails()) consider(Schedule{variant, w.prefix}, verdict, 0, out);
    } else {
        // The prefix was a whole schedule one level down (and did not fail,
        // or the search would have stopped there); it is run again, from its
        // last fault's checkpoint, only to learn what is due when the next
        // fault starts, and leaves the checkpoint its children fork from.
        fork_run(w, variant, &w.tables[depth], out.stats.ticks);
        visit_children(w, level, variant, depth, atom, out);
    }
    w.prefix.pop_back();
}

// Whether the children of a prefix may share subtrees with another prefix
// that reached the same state: only when merging, from checkpoints, and
// with no fault kind whose validity depends on the faults before it (a cut
// or a promotion: roles_valid reads the whole schedule, not the state).
bool Explorer::shares_subtrees() const {
    return options_.merge && options_.share && forks_ && !options_.kinds.replica_link &&
           !options_.kinds.failover_promote;
}

void Explorer::visit_children(Worker& w, int level, std::int32_t variant, std::size_t depth, std::int32_t atom,
                              ChunkResult& out) const {
    const DueTable& table = w.tables[depth];
    // Sharing subtrees (docs/explorer.md): from a tick at which every fault
    // of the prefix has settled, the schedules that extend it with faults
    // from that tick on are the same atoms for every prefix, none clashes
    // with the prefix, and what each does depends only on the state there.
    // A pause or partition settles the tick after it begins: its end is in
    // the state (node and tick), and a later fault clashes with it by its
    // node and end alone.
    Tick next_sample = std::numeric_limits<Tick>::max();
    if (shares_subtrees()) {
        Tick settled = 0;
        for (const std::int32_t a : w.prefix) {
            const Fault& f = atoms_[static_cast<std::size_t>(a)];
            const bool ends_alone = f.kind == FaultKind::pause || f.kind == FaultKind::partition;
            settled = std::max(settled, ends_alone ? f.at + 1 : settled_from(f));
        }
        next_sample = (settled + share_sample_ticks - 1) / share_sample_ticks * share_sample_ticks;
    }
    struct Noted {
        SubtreeMemo::Key key;
        SearchStats before;
    };
    std::vector<Noted> noted;
    const int faults = level - static_cast<int>(depth) - 1;  // still to add after the prefix
    for (auto c = static_cast<std::size_t>(atom) + 1; c < atoms_.size() && out.complete; ++c) {
        const Tick t = atoms_[c].at;
        if (t >= next_sample) {
            next_sample = (t / share_sample_ticks + 1) * share_sample_ticks;
            const std::optional<StateHasher::Digest> state = subtree_state(w, variant, depth, t, out.stats.ticks);
            if (!state) {
                next_sample = std::numeric_limits<Tick>::max();
            } else {
                const SubtreeMemo::Key key{{*state, t, variant}, faults};
                if (const SearchStats* met = w.subtrees.find(key)) {
                    // Every schedule from here on is one that prefix's search
                    // counted, with the same verdict, and none failed.
                    for (auto field : {&SearchStats::schedules, &SearchStats::simulated, &SearchStats::pruned,
                                       &SearchStats::invalid})
                        out.stats.*field = saturating_add(out.stats.*field, met->*field);
                    w.merged = saturating_add(w.merged, met->simulated);
                    break;
                }
                noted.push_back(Noted{key, out.stats});
            }
        }
        visit(w, level, variant, depth + 1, table, static_cast<std::int32_t>(c), out);
    }
    // Stopped part way, no subtree is whole; at counts too large to hold,
    // a difference would be wrong.
    if (!out.complete || out.stats.schedules == std::numeric_limits<std::uint64_t>::max()) return;
    for (const Noted& n : noted) {
        SearchStats counts;
        for (auto field : {&SearchStats::schedules, &SearchStats::simulated, &SearchStats::pruned,
                           &SearchStats::invalid, &SearchStats::failing})
            counts.*field = out.stats.*field - n.before.*field;
        if (counts.failing == 0) w.subtrees.keep(n.key, counts);
    }
}

std::optional<StateHasher::Digest> Explorer::subtree_state(Worker& w, std::int32_t variant, std::size_t depth, Tick t,
                                                           std::uint64_t& ticks) const {
    Checkpoint& at = w.checkpoints[depth + 1];
    if (!at.sim || at.sim->finished() || at.sim->next_tick() > t) return std::nullopt;
    // The checkpoint runs the scenario of its prefix, which the last child
    // run extended: put it back to the prefix's faults.
    put_faults(w, variant, w.prefix);
    advance_to(*at.sim, *at.store, t, ticks);
    if (at.sim->finished() || at.sim->next_tick() != t) return std::nullopt;
    return verdict_digest(*at.sim, *at.store);
}

void Explorer::run_unit(Worker& w, int level, std::uint64_t unit, ChunkResult& out) const {
    if (level == 0) {
        const auto variant = static_cast<std::int32_t>(unit);
        w.prefix.clear();
        const Verdict verdict = run(w, variant, w.prefix, nullptr, 0, out.stats.ticks);
        out.stats.simulated = saturating_add(out.stats.simulated, 1);
        out.stats.schedules = saturating_add(out.stats.schedules, 1);
        if (verdict.fails()) consider(Schedule{variant, {}}, verdict, 0, out);
        return;
    }
    const auto atoms = static_cast<std::uint64_t>(atoms_.size());
    const auto variant = static_cast<std::int32_t>(unit / atoms);
    const auto atom = static_cast<std::int32_t>(unit % atoms);
    w.prefix.clear();
    visit(w, level, variant, 0, base_tables_[static_cast<std::size_t>(variant)], atom, out);
}

ChunkResult Explorer::evaluate_level(int level, std::uint64_t begin, std::uint64_t end, ExploreControl* control,
                                     std::uint64_t stride) const {
    LS_ASSERT(level >= 0);
    LS_ASSERT(level <= options_.max_faults);
    LS_ASSERT(stride >= 1);
    LS_ASSERT(end <= level_units(level));
    ChunkResult out;
    Worker w;
    w.control = control;
    w.memo = MergeMemo(options_.merge_states_max);
    w.subtrees = SubtreeMemo(options_.merge_states_max);
    w.tables.resize(static_cast<std::size_t>(std::max(level, 1)));
    w.checkpoints.resize(static_cast<std::size_t>(std::max(level, 1)) + 1);
    for (std::uint64_t unit = begin; unit<end; unit = end - unit> stride ? unit + stride : end) {
        if (cancelled(control)) {
            out.complete = false;
            break;
        }
        const SearchStats before = out.stats;
        run_unit(w, level, unit, out);
        report_progress(control, before, out.stats);
        if (!out.complete) break;
    }
    out.stats.merged = w.merged;
    out.stats.states = saturating_add(w.memo.states(), w.subtrees.size());
    return out;
}

// A jump of the store's clock at tick `at` (on Redlock, of one store's), on
// the grid of the budget.
Fault Explorer::draw_clock_jump(SplitMix64& rng, Tick at) const {
    const FaultMenu& k = options_.kinds;
    const std::int64_t tick_ms = variants_.front().tick_ms;
    const Tick steps = options_.max_clock_jump_ms / tick_ms;
    Fault f{FaultKind::clock_jump, -1, at, 0, {}, {}, 0, {}, 0};
    const bool back = k.clock_jump_forward && k.clock_jump_back ? rng.next() % 2 == 0 : k.clock_jump_back;
    f.ms = draw_size(rng, options_.grids.clock_jump, steps) * tick_ms * (back ? -1 : 1);
    const auto stores = static_cast<std::uint64_t>(variants_.front().stores.size());
    if (stores > 0) f.store = static_cast<std::int32_t>(rng.next() % stores);
    return f;
}

// A restart of one Redlock store at tick `at`, down 1 … max_pause ticks,
// keeping what one of the budget's persistences keeps (model.md §20.3).
Fault Explorer::draw_restart(SplitMix64& rng, Tick at) const {
    const FaultMenu& k = options_.kinds;
    std::vector<Persistence> kept;
    if (k.restart_none) kept.push_back(Persistence::none);
    if (k.restart_everysec) kept.push_back(Persistence::everysec);
    if (k.restart_always) kept.push_back(Persistence::always);
    Fault f{FaultKind::restart, -1, at, 0, {}, {}};
    const auto stores = static_cast<std::uint64_t>(variants_.front().stores.size());
    f.store = static_cast<std::int32_t>(rng.next() % stores);
    f.ticks = static_cast<Tick>(1 + rng.next() % static_cast<std::uint64_t>(options_.max_pause));
    f.persistence = kept[static_cast<std::size_t>(rng.next() % kept.size())];
    return f;
}

// A delay of what one node sends on one link in tick `at`.
Fault Explorer::draw_delay(SplitMix64& rng, Tick at, std::uint64_t nodes) const {
    const FaultMenu& k = options_.kinds;
    std::vector<Link> links;
    if (k.delay_request) links.push_back(Link::request);
    if (k.delay_reply) links.push_back(Link::reply);
    if (k.delay_write) links.push_back(Link::write);
    Fault f{FaultKind::delay, 0, at, 1, {}, {}, 0, {}, 0};
    f.node = static_cast<NodeIndex>(rng.next() % nodes);
    f.link = links[static_cast<std::size_t>(rng.next() % links.size())];
    f.extra = draw_size(rng, options_.grids.delay, options_.max_delay);
    if (f.link != Link::write) f.stores = draw_stores(rng);
    return f;
}

// On Redlock, the stores a partition or a delay concerns, as the exhaustive
// search lays them out: every store (0) or one store alone, evenly; nothing
// is drawn on one store.
std::uint32_t Explorer::draw_stores(SplitMix64& rng) const {
    const auto stores = static_cast<std::uint64_t>(variants_.front().stores.size());
    if (stores == 0) return 0;
    const auto i = rng.next() % (stores + 1);
    return i == 0 ? 0u : 1u << (i - 1);
}

// A cut of one server's link of 1 … max_link_cut ticks, or a promotion of
// one server lagging 0 … max_lag ticks (at most `at`), at tick `at`.
Fault Explorer::draw_replication(SplitMix64& rng, Tick at, bool cut) const {
    const auto servers = static_cast<std::uint64_t>(variants_.front().lock.replication.replicas + 1);
    Fault f{cut ? FaultKind::replica_link : FaultKind::failover, -1, at, 0, {}, {}};
    f.server = static_cast<std::int32_t>(rng.next() % servers);
    if (cut) {
        f.ticks = static_cast<Tick>(1 + rng.next() % static_cast<std::uint64_t>(options_.max_link_cut));
    } else {
        const Tick lags = std::min(options_.max_lag, at) + 1;
        f.lag = static_cast<Tick>(rng.next() % static_cast<std::uint64_t>(lags));
    }
    return f;
}

Schedule Explorer::draw(std::uint64_t seed, std::uint64_t index) const {
    // Draw `index` gets its own generator, seeded from the index-th output of
    // the seed's stream: any range of draws can be evaluated on its own.
    SplitMix64 stream(seed + index * 0x9e3779b97f4a7c15ULL);
    SplitMix64 rng(stream.next());
    Schedule s;
    const auto variants = static_cast<std::uint64_t>(variants_.size());
    s.variant = static_cast<std::int32_t>(rng.next() % variants);
    if (options_.max_faults == 0 || atoms_.empty()) return s;
    const auto wanted = static_cast<std::size_t>(1 + rng.next() % static_cast<std::uint64_t>(options_.max_faults));
    // Kinds are picked evenly, so crashes and failovers are not drowned by
    // the many lengths of pauses and partitions.
    const FaultMenu& k = options_.kinds;
    const std::vector<int> classes = fault_classes(k);
    const auto nodes = static_cast<std::uint64_t>(variants_.front().candidates.size());
    // One draw among the start ticks (start_count), then its multiple of the step.
    const auto starts = static_cast<std::uint64_t>(start_count(max_tick_, options_.start_every));
    for (std::size_t tries = 0; tries < 16 * wanted && s.atoms.size() < wanted; ++tries) {
        Fault f;
        f.at = static_cast<Tick>(rng.next() % starts) * options_.start_every;
        switch (classes[static_cast<std::size_t>(rng.next() % classes.size())]) {
            case 0:
                f.kind = FaultKind::pause;
                f.node = static_cast<NodeIndex>(rng.next() % nodes);
                f.ticks = draw_size(rng, options_.grids.pause, options_.max_pause);
                break;
            case 1:
                f.kind = FaultKind::partition;
                f.node = static_cast<NodeIndex>(rng.next() % nodes);
                f.ticks = draw_size(rng, options_.grids.partition, options_.max_pause);
                if (k.partition_drop_requests && k.partition_drop_replies) {
                    f.mode = rng.next() % 2 == 0 ? PartitionMode::drop_requests : PartitionMode::drop_replies;
                } else {
                    f.mode = k.partition_drop_requests ? PartitionMode::drop_requests : PartitionMode::drop_replies;
                }
                f.stores = draw_stores(rng);
                break;
            case 2:
                f.kind = FaultKind::crash;
                f.node = static_cast<NodeIndex>(rng.next() % nodes);
                break;
            case 4: f = draw_clock_jump(rng, f.at); break;
            case 5: f = draw_delay(rng, f.at, nodes); break;
            case 6: f = draw_replication(rng, f.at, true); break;
            case 7: f = draw_replication(rng, f.at, false); break;
            case 8: f = draw_restart(rng, f.at); break;
            default:
                f.kind = FaultKind::failover;
                f.node = -1;
                if (k.failover_leases && k.failover_all) {
                    f.lose = rng.next() % 2 == 0 ? FailoverLoss::leases : FailoverLoss::all;
                } else {
                    f.lose = k.failover_leases ? FailoverLoss::leases : FailoverLoss::all;
                }
                break;
        }
        const auto it = std::lower_bound(atoms_.begin(), atoms_.end(), f, fault_less);
        if (it == atoms_.end() || fault_less(f, *it)) continue;  // clashes with a fault of the base
        const auto index_of = static_cast<std::int32_t>(it - atoms_.begin());
        if (std::find(s.atoms.begin(), s.atoms.end(), index_of) != s.atoms.end()) continue;
        bool ok = true;
        for (const std::int32_t a : s.atoms) ok = ok && !clashes(f, atoms_[static_cast<std::size_t>(a)]);
        if (ok && is_replication(f)) ok = schedule_roles_valid(variant(s.variant), atoms_, s.atoms, &f);
        if (ok) s.atoms.push_back(index_of);
    }
    std::sort(s.atoms.begin(), s.atoms.end());
    return s;
}

ChunkResult Explorer::evaluate_draws(std::uint64_t seed, std::uint64_t begin, std::uint64_t end,
                                     ExploreControl* control, std::uint64_t stride) const {
    LS_ASSERT(stride >= 1);
    ChunkResult out;
    Worker w;
    w.control = control;
    for (std::uint64_t i = begin; i<end; i = end - i> stride ? i + stride : end) {
        if (cancelled(control)) {
            out.complete = false;
            break;
        }
        const SearchStats before = out.stats;
        const Schedule s = draw(seed, i);
        const Verdict verdict = run(w, s.variant, s.atoms, nullptr, 0, out.stats.ticks);
        out.stats.simulated = saturating_add(out.stats.simulated, 1);
        out.stats.schedules = saturating_add(out.stats.schedules, 1);
        if (verdict.fails()) consider(s, verdict, i, out);
        report_progress(control, before, out.stats);
    }
    return out;
}

Verdict Explorer::check(const Schedule& schedule) const {
    LS_ASSERT(schedule.variant >= 0);
    LS_ASSERT(schedule.variant < variant_count());
    Worker w;
    std::uint64_t ticks = 0;
    return run(w, schedule.variant, schedule.atoms, nullptr, 0, ticks);
}

std::int64_t fault_magnitude(const Fault& f, std::int64_t tick_ms) {
    LS_ASSERT(tick_ms > 0);
    switch (f.kind) {
        case FaultKind::pause:
        case FaultKind::partition:
        case FaultKind::replica_link:
        case FaultKind::restart: return f.ticks;
        case FaultKind::delay: return f.extra;
        case FaultKind::clock_jump: {
            const std::int64_t size = f.ms < 0 ? -f.ms : f.ms;
            return (size + tick_ms - 1) / tick_ms;
        }
        case FaultKind::failover: return f.promotes() ? f.lag : 0;
        case FaultKind::crash: return 0;
    }
    return 0;
}

namespace {

std::int64_t total_magnitude(const Schedule& s, const std::vector<Fault>& atoms, std::int64_t tick_ms) {
    std::int64_t sum = 0;
    for (const std::int32_t a : s.atoms) sum += fault_magnitude(atoms[static_cast<std::size_t>(a)], tick_ms);
    return sum;
}

// A crash and a failover that loses have no size: they are not small faults
// (docs/explorer.md, Ranking), so a schedule with fewer of them ranks first.
std::size_t sizeless_count(const Schedule& s, const std::vector<Fault>& atoms) {
    std::size_t n = 0;
    for (const std::int32_t a : s.atoms) {
        const Fault& f = atoms[static_cast<std::size_t>(a)];
        if (f.kind == FaultKind::crash || (f.kind == FaultKind::failover && !f.promotes())) ++n;
    }
    return n;
}

}  // namespace

std::int64_t Explorer::magnitude(const Schedule& schedule) const {
    return total_magnitude(schedule, atoms_, variants_.front().tick_ms);
}

bool Explorer::ranks_before(const Schedule& a, const Schedule& b, const std::vector<Fault>& atoms,
                            std::int64_t tick_ms) {
    if (a.atoms.size() != b.atoms.size()) return a.atoms.size() < b.atoms.size();
    const std::size_t sa = sizeless_count(a, atoms);
    const std::size_t sb = sizeless_count(b, atoms);
    if (sa != sb) return sa < sb;
    const std::int64_t ma = total_magnitude(a, atoms, tick_ms);
    const std::int64_t mb = total_magnitude(b, atoms, tick_ms);
    if (ma != mb) return ma < mb;
    for (std::size_t i = 0; i < a.atoms.size(); ++i) {
        const Tick ta = atoms[static_cast<std::size_t>(a.atoms[i])].at;
        const Tick tb = atoms[static_cast<std::size_t>(b.atoms[i])].at;
        if (ta != tb) return ta < tb;
    }
    if (a.variant != b.variant) return a.variant < b.variant;
    return a.atoms < b.atoms;
}

Scenario Explorer::to_scenario(const Schedule& schedule) const {
    Scenario s = variant(schedule.variant);
    for (const std::int32_t a : schedule.atoms) s.faults.push_back(atoms_.at(static_cast<std::size_t>(a)));
    return s;
}

}  // namespace leasescope::sim

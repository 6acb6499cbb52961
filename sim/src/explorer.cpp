#include "leasescope/sim/explorer.hpp"

#include <algorithm>
#include <limits>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "leasescope/engine/model_store.hpp"
#include "leasescope/engine/prng.hpp"
#include "leasescope/sim/limits.hpp"
#include "leasescope/sim/simulation.hpp"

namespace leasescope::sim {
namespace {

// "Never" in a due table: larger than any tick, so `due < end` is false.
constexpr Tick tick_never = std::numeric_limits<Tick>::max();

// Due-table flags, one byte per tick.
constexpr std::uint8_t flag_finished = 1;      // the run ended before this tick: nothing can change any more
constexpr std::uint8_t flag_store_held = 2;    // a slot is occupied or a hold-off is set: a failover drops it
constexpr std::uint8_t flag_counter_used = 4;  // the fencing counter moved: lose = all would reset it
constexpr std::uint8_t flag_someone_left = 8;  // some node may still act (so a reset counter can be reissued)

// Chunks one search is split into at most; a bigger search gets bigger chunks
// (the result does not depend on the chunk size).
constexpr std::uint64_t chunks_max = 1 << 16;

class NullSink final : public EventSink {
public:
    void on_event(const Event&) override {}
};

std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) {
    const std::uint64_t sum = a + b;
    return sum < a ? std::numeric_limits<std::uint64_t>::max() : sum;
}

std::uint64_t saturating_mul(std::uint64_t a, std::uint64_t b) {
    std::uint64_t product = 0;
    if (__builtin_mul_overflow(a, b, &product)) return std::numeric_limits<std::uint64_t>::max();
    return product;
}

// C(n, r), saturating at UINT64_MAX; r is small (at most explore_faults_max).
std::uint64_t binomial(std::uint64_t n, int r) {
    if (r < 0) return 0;
    const auto rr = static_cast<std::uint64_t>(r);
    if (n < rr) return 0;
    __extension__ typedef unsigned __int128 Wide;
    Wide c = 1;
    for (std::uint64_t i = 0; i < rr; ++i) {
        // c · (n − i) is divisible by i + 1 because c = C(n, i).
        c = c * static_cast<Wide>(n - i) / static_cast<Wide>(i + 1);
        if (c > static_cast<Wide>(std::numeric_limits<std::uint64_t>::max())) {
            return std::numeric_limits<std::uint64_t>::max();
        }
    }
    return static_cast<std::uint64_t>(c);
}

std::vector<std::string_view> split_list(std::string_view text) {
    std::vector<std::string_view> items;
    std::size_t begin = 0;
    while (begin <= text.size()) {
        std::size_t end = text.find(',', begin);
        if (end == std::string_view::npos) end = text.size();
        std::string_view item = text.substr(begin, end - begin);
        while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
        while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
        items.push_back(item);
        begin = end + 1;
    }
    return items;
}

// Canonical order of faults: tick, kind, node, duration, mode, loss. The atom
// table is sorted by it, so a schedule in increasing atom order is in tick order.
bool fault_less(const Fault& a, const Fault& b) {
    if (a.at != b.at) return a.at < b.at;
    if (a.kind != b.kind) return a.kind < b.kind;
    if (a.node != b.node) return a.node < b.node;
    if (a.ticks != b.ticks) return a.ticks < b.ticks;
    if (a.mode != b.mode) return a.mode < b.mode;
    return a.lose < b.lose;
}

// Two pauses, or two partitions, on one node must not overlap (DESIGN §7).
bool clashes(const Fault& a, const Fault& b) {
    if (a.kind != b.kind || a.node != b.node) return false;
    if (a.kind != FaultKind::pause && a.kind != FaultKind::partition) return false;
    return a.at < b.end() && b.at < a.end();
}

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

void size_table(Explorer::DueTable& table, Tick first, Tick last, std::int32_t nodes) {
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
bool relevant(const Fault& f, const Explorer::DueTable& table) {
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
            return f.lose == FailoverLoss::all && (flags & flag_counter_used) != 0 &&
                   (flags & flag_someone_left) != 0;
    }
    return true;
}

// Runs a scenario to its end on the model store, discarding events. With a
// table, records what is due before each tick from table.first on.
Verdict simulate_verdict(const Scenario& scenario, const Properties& checked, Explorer::DueTable* table,
                         std::uint64_t& ticks) {
    Simulation sim(scenario);
    ModelStore store(scenario.lock);
    NullSink sink;
    const Tick last_row = table != nullptr ? table->first + static_cast<Tick>(table->flags.size()) - 1 : -1;
    while (!sim.finished()) {
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
        for (const RunRecord& r : e.runs()) v.elected = v.elected || r.result == RunResult::elected;
    }
    v.failed.overlap = checked.overlap && v.violations.overlap > 0;
    v.failed.unsafe_write = checked.unsafe_write && v.violations.unsafe_write > 0;
    v.failed.fencing_regressed = checked.fencing_regressed && v.violations.fencing_regressed > 0;
    v.failed.liveness = checked.liveness && !v.elected;
    return v;
}

bool cancelled(const ExploreControl* control) {
    return control != nullptr && control->cancel.load(std::memory_order_relaxed);
}

void report_progress(ExploreControl* control, const SearchStats& before, const SearchStats& after) {
    if (control == nullptr) return;
    control->schedules_done.fetch_add(after.schedules - before.schedules, std::memory_order_relaxed);
    control->ticks_done.fetch_add(after.ticks - before.ticks, std::memory_order_relaxed);
}

std::string plural(std::int64_t n, const char* one, const char* many) {
    return fmt::format("{} {}", n, n == 1 ? one : many);
}

// Cuts UTF-8 text to at most `max_bytes` without splitting a character.
std::string clip_utf8(std::string text, std::size_t max_bytes) {
    if (text.size() <= max_bytes) return text;
    std::size_t cut = max_bytes;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
    text.resize(cut);
    return text;
}

}  // namespace

// ---- Options ----

Result<Properties, std::string> parse_properties(std::string_view text) {
    Properties p{false, false, false, false};
    for (std::string_view item : split_list(text)) {
        if (item == "all") {
            p = Properties{true, true, true, true};
        } else if (item == "overlap") {
            p.overlap = true;
        } else if (item == "unsafe_write") {
            p.unsafe_write = true;
        } else if (item == "fencing_regressed") {
            p.fencing_regressed = true;
        } else if (item == "liveness") {
            p.liveness = true;
        } else {
            return Err{fmt::format("unknown property \"{}\"; expected overlap, unsafe_write, fencing_regressed, "
                                   "liveness or all, separated by commas",
                                   item)};
        }
    }
    return p;
}

std::string to_string(const Properties& p) {
    std::string out;
    auto add = [&](bool on, const char* name) {
        if (!on) return;
        if (!out.empty()) out += ',';
        out += name;
    };
    add(p.overlap, "overlap");
    add(p.unsafe_write, "unsafe_write");
    add(p.fencing_regressed, "fencing_regressed");
    add(p.liveness, "liveness");
    return out;
}

Result<FaultMenu, std::string> parse_fault_kinds(std::string_view text) {
    FaultMenu m{false, false, false, false, false, false};
    for (std::string_view item : split_list(text)) {
        if (item == "all") {
            m = FaultMenu{};
        } else if (item == "pause") {
            m.pause = true;
        } else if (item == "partition") {
            m.partition_drop_requests = m.partition_drop_replies = true;
        } else if (item == "partition:drop_requests") {
            m.partition_drop_requests = true;
        } else if (item == "partition:drop_replies") {
            m.partition_drop_replies = true;
        } else if (item == "crash") {
            m.crash = true;
        } else if (item == "failover") {
            m.failover_leases = m.failover_all = true;
        } else if (item == "failover:leases") {
            m.failover_leases = true;
        } else if (item == "failover:all") {
            m.failover_all = true;
        } else {
            return Err{fmt::format("unknown fault kind \"{}\"; expected pause, partition, crash or failover "
                                   "(narrowed as partition:drop_requests, partition:drop_replies, "
                                   "failover:leases, failover:all), separated by commas",
                                   item)};
        }
    }
    return m;
}

std::string to_string(const FaultMenu& m) {
    std::vector<std::string> items;
    if (m.pause) items.emplace_back("pause");
    if (m.partition_drop_requests && m.partition_drop_replies) {
        items.emplace_back("partition");
    } else if (m.partition_drop_requests) {
        items.emplace_back("partition:drop_requests");
    } else if (m.partition_drop_replies) {
        items.emplace_back("partition:drop_replies");
    }
    if (m.crash) items.emplace_back("crash");
    if (m.failover_leases && m.failover_all) {
        items.emplace_back("failover");
    } else if (m.failover_leases) {
        items.emplace_back("failover:leases");
    } else if (m.failover_all) {
        items.emplace_back("failover:all");
    }
    return fmt::format("{}", fmt::join(items, ","));
}

void SearchStats::add(const SearchStats& o) {
    schedules = saturating_add(schedules, o.schedules);
    simulated = saturating_add(simulated, o.simulated);
    pruned = saturating_add(pruned, o.pruned);
    invalid = saturating_add(invalid, o.invalid);
    failing = saturating_add(failing, o.failing);
    ticks = saturating_add(ticks, o.ticks);
}

// ---- The explorer ----

// Scratch space of one evaluation: a scenario to put schedules in, a due
// table per depth, the schedule being built. One per call, never shared.
struct Explorer::Worker {
    Scenario scenario;
    std::int32_t variant = -1;  // which variant `scenario` holds
    std::size_t base_faults = 0;
    std::vector<DueTable> tables;
    std::vector<std::int32_t> prefix;
    ExploreControl* control = nullptr;
};

Result<Explorer, std::string> Explorer::create(const Scenario& base, const ExploreOptions& options) {
    if (options.max_faults < 0 || options.max_faults > explore_faults_max)
        return Err{fmt::format("max faults: expected 0 to {}, found {}", explore_faults_max, options.max_faults)};
    if (options.max_pause < 1 || options.max_pause > explore_pause_max)
        return Err{fmt::format("max pause: expected 1 to {} ticks, found {}", explore_pause_max, options.max_pause)};
    if (options.shuffles < 0 || options.shuffles > explore_shuffles_max)
        return Err{fmt::format("shuffles: expected 0 to {}, found {}", explore_shuffles_max, options.shuffles)};
    if (options.max_tick && *options.max_tick < 0)
        return Err{fmt::format("max tick: expected 0 or more, found {}", *options.max_tick)};
    if (!options.properties.any()) return Err{std::string("no property to check; choose at least one")};
    if (options.max_faults > 0 && !options.kinds.any()) return Err{std::string("no fault kind to add; choose at least one")};
    LS_ASSERT(!base.candidates.empty());

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
    // Each added pause can stretch the run by up to max_pause ticks, so later
    // faults may matter that much past the base's end. Faults past a run's
    // end are pruned at once, so a generous margin costs little.
    const Tick margin = options.max_pause * std::max(options.max_faults, 1);
    ex.max_tick_ = options.max_tick ? *options.max_tick : ex.base_end_tick_ + margin;
    ex.max_tick_ = std::min(ex.max_tick_, base.horizon);

    // Lay out the atoms, refusing a budget too large to hold.
    const FaultMenu& k = options.kinds;
    const auto nodes = static_cast<std::int64_t>(base.candidates.size());
    const std::int64_t partition_modes = (k.partition_drop_requests ? 1 : 0) + (k.partition_drop_replies ? 1 : 0);
    const std::int64_t per_node = (k.pause ? options.max_pause : 0) + partition_modes * options.max_pause + (k.crash ? 1 : 0);
    const std::int64_t per_tick = nodes * per_node + (k.failover_leases ? 1 : 0) + (k.failover_all ? 1 : 0);
    const std::int64_t estimate = options.max_faults == 0 ? 0 : (ex.max_tick_ + 1) * per_tick;
    if (estimate > explore_atoms_max)
        return Err{fmt::format("budget too large: {} single faults (at most {}); lower --max-pause or --max-tick, "
                               "or choose fewer fault kinds",
                               estimate, explore_atoms_max)};
    if (options.max_faults > 0) {
        ex.atoms_.reserve(static_cast<std::size_t>(estimate));
        for (Tick t = 0; t <= ex.max_tick_; ++t) {
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
                ex.atoms_.push_back(f);
            };
            for (NodeIndex n = 0; n < nodes && k.pause; ++n) {
                for (Tick d = 1; d <= options.max_pause; ++d) add(Fault{FaultKind::pause, n, t, d, {}, {}});
            }
            for (NodeIndex n = 0; n < nodes && partition_modes > 0; ++n) {
                for (Tick d = 1; d <= options.max_pause; ++d) {
                    if (k.partition_drop_requests)
                        add(Fault{FaultKind::partition, n, t, d, PartitionMode::drop_requests, {}});
                    if (k.partition_drop_replies)
                        add(Fault{FaultKind::partition, n, t, d, PartitionMode::drop_replies, {}});
                }
            }
            for (NodeIndex n = 0; n < nodes && k.crash; ++n) add(Fault{FaultKind::crash, n, t, 0, {}, {}});
            if (k.failover_leases) add(Fault{FaultKind::failover, -1, t, 0, {}, FailoverLoss::leases});
            if (k.failover_all) add(Fault{FaultKind::failover, -1, t, 0, {}, FailoverLoss::all});
        }
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

Verdict Explorer::run(Worker& w, std::int32_t variant, const std::vector<std::int32_t>& atoms, DueTable* record,
                      Tick record_from, std::uint64_t& ticks) const {
    if (w.variant != variant) {
        w.scenario = variants_[static_cast<std::size_t>(variant)];
        w.variant = variant;
        w.base_faults = w.scenario.faults.size();
    }
    w.scenario.faults.resize(w.base_faults);
    for (const std::int32_t a : atoms) w.scenario.faults.push_back(atoms_[static_cast<std::size_t>(a)]);
    if (record != nullptr) size_table(*record, record_from, max_tick_, static_cast<std::int32_t>(w.scenario.candidates.size()));
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
    for (const std::int32_t p : w.prefix) {
        if (clashes(f, atoms_[static_cast<std::size_t>(p)])) {
            out.stats.invalid = saturating_add(out.stats.invalid, subtree);
            out.stats.schedules = saturating_add(out.stats.schedules, subtree);
            return;
        }
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
        const Verdict verdict = run(w, variant, w.prefix, nullptr, 0, out.stats.ticks);
        out.stats.simulated = saturating_add(out.stats.simulated, 1);
        out.stats.schedules = saturating_add(out.stats.schedules, 1);
        if (verdict.fails()) consider(Schedule{variant, w.prefix}, verdict, 0, out);
    } else {
        // The prefix was a whole schedule one level down (and did not fail,
        // or the search would have stopped there); it is run again only to
        // learn what is due when the next fault starts.
        DueTable& next = w.tables[depth];
        run(w, variant, w.prefix, &next, f.at, out.stats.ticks);
        for (auto c = static_cast<std::size_t>(atom) + 1; c < atoms_.size() && out.complete; ++c) {
            visit(w, level, variant, depth + 1, next, static_cast<std::int32_t>(c), out);
        }
    }
    w.prefix.pop_back();
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
    w.tables.resize(static_cast<std::size_t>(std::max(level, 1)));
    for (std::uint64_t unit = begin; unit < end; unit = end - unit > stride ? unit + stride : end) {
        if (cancelled(control)) {
            out.complete = false;
            break;
        }
        const SearchStats before = out.stats;
        run_unit(w, level, unit, out);
        report_progress(control, before, out.stats);
        if (!out.complete) break;
    }
    return out;
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
    std::vector<int> classes;
    if (k.pause) classes.push_back(0);
    if (k.partition_drop_requests || k.partition_drop_replies) classes.push_back(1);
    if (k.crash) classes.push_back(2);
    if (k.failover_leases || k.failover_all) classes.push_back(3);
    const auto nodes = static_cast<std::uint64_t>(variants_.front().candidates.size());
    const auto ticks = static_cast<std::uint64_t>(max_tick_ + 1);
    const auto durations = static_cast<std::uint64_t>(options_.max_pause);
    for (std::size_t tries = 0; tries < 16 * wanted && s.atoms.size() < wanted; ++tries) {
        Fault f;
        f.at = static_cast<Tick>(rng.next() % ticks);
        switch (classes[static_cast<std::size_t>(rng.next() % classes.size())]) {
            case 0:
                f.kind = FaultKind::pause;
                f.node = static_cast<NodeIndex>(rng.next() % nodes);
                f.ticks = static_cast<Tick>(1 + rng.next() % durations);
                break;
            case 1:
                f.kind = FaultKind::partition;
                f.node = static_cast<NodeIndex>(rng.next() % nodes);
                f.ticks = static_cast<Tick>(1 + rng.next() % durations);
                if (k.partition_drop_requests && k.partition_drop_replies) {
                    f.mode = rng.next() % 2 == 0 ? PartitionMode::drop_requests : PartitionMode::drop_replies;
                } else {
                    f.mode = k.partition_drop_requests ? PartitionMode::drop_requests : PartitionMode::drop_replies;
                }
                break;
            case 2:
                f.kind = FaultKind::crash;
                f.node = static_cast<NodeIndex>(rng.next() % nodes);
                break;
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
    for (std::uint64_t i = begin; i < end; i = end - i > stride ? i + stride : end) {
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

bool Explorer::ranks_before(const Schedule& a, const Schedule& b, const std::vector<Fault>& atoms) {
    if (a.atoms.size() != b.atoms.size()) return a.atoms.size() < b.atoms.size();
    for (std::size_t i = 0; i < a.atoms.size(); ++i) {
        const Tick ta = atoms[static_cast<std::size_t>(a.atoms[i])].at;
        const Tick tb = atoms[static_cast<std::size_t>(b.atoms[i])].at;
        if (ta != tb) return ta < tb;
    }
    if (a.variant != b.variant) return a.variant < b.variant;
    return a.atoms < b.atoms;
}

Schedule Explorer::shrink(const Schedule& failing) const {
    Schedule best = failing;
    if (!check(best).fails()) return best;
    auto try_take = [&](Schedule candidate) {
        std::sort(candidate.atoms.begin(), candidate.atoms.end());
        if (std::adjacent_find(candidate.atoms.begin(), candidate.atoms.end()) != candidate.atoms.end()) return false;
        for (std::size_t i = 0; i < candidate.atoms.size(); ++i) {
            for (std::size_t j = 0; j < i; ++j) {
                if (clashes(atoms_[static_cast<std::size_t>(candidate.atoms[i])],
                            atoms_[static_cast<std::size_t>(candidate.atoms[j])]))
                    return false;
            }
        }
        if (!check(candidate).fails()) return false;
        best = std::move(candidate);
        return true;
    };
    auto index_of = [&](const Fault& f) -> std::int32_t {
        const auto it = std::lower_bound(atoms_.begin(), atoms_.end(), f, fault_less);
        if (it == atoms_.end() || fault_less(f, *it)) return -1;
        return static_cast<std::int32_t>(it - atoms_.begin());
    };
    // Each pass makes the schedule strictly smaller or earlier, so this ends;
    // the bound only guards against a mistake.
    for (int pass = 0; pass < 1000; ++pass) {
        bool changed = false;
        for (std::size_t i = 0; i < best.atoms.size() && !changed; ++i) {
            Schedule c = best;
            c.atoms.erase(c.atoms.begin() + static_cast<std::ptrdiff_t>(i));
            changed = try_take(std::move(c));
        }
        if (!changed && best.variant != 0) {
            Schedule c = best;
            c.variant = 0;
            changed = try_take(std::move(c));
        }
        for (std::size_t i = 0; i < best.atoms.size() && !changed; ++i) {
            const Fault f = atoms_[static_cast<std::size_t>(best.atoms[i])];
            for (Tick d = 1; d < f.ticks && !changed; ++d) {
                Fault g = f;
                g.ticks = d;
                const std::int32_t a = index_of(g);
                if (a < 0) continue;
                Schedule c = best;
                c.atoms[i] = a;
                changed = try_take(std::move(c));
            }
        }
        for (std::size_t i = 0; i < best.atoms.size() && !changed; ++i) {
            const Fault f = atoms_[static_cast<std::size_t>(best.atoms[i])];
            for (Tick t = 0; t < f.at && !changed; ++t) {
                Fault g = f;
                g.at = t;
                const std::int32_t a = index_of(g);
                if (a < 0) continue;
                Schedule c = best;
                c.atoms[i] = a;
                changed = try_take(std::move(c));
            }
        }
        if (!changed) break;
    }
    return best;
}

Scenario Explorer::to_scenario(const Schedule& schedule) const {
    Scenario s = variant(schedule.variant);
    for (const std::int32_t a : schedule.atoms) s.faults.push_back(atoms_.at(static_cast<std::size_t>(a)));
    return s;
}

// ---- A whole search ----

namespace {

void merge_chunk(ChunkResult& into, const ChunkResult& from, const std::vector<Fault>& atoms) {
    into.stats.add(from.stats);
    into.complete = into.complete && from.complete;
    if (!from.best) return;
    if (!into.best || Explorer::ranks_before(*from.best, *into.best, atoms) ||
        (*from.best == *into.best && from.best_draw < into.best_draw)) {
        into.best = from.best;
        into.best_draw = from.best_draw;
    }
}

// Evaluates `total` units through the runner, chunk by chunk, and merges the
// chunks in index order: the merge is a sum and a minimum, so the result is
// the same whatever order the runner ran them in.
ChunkResult run_chunks(const ExploreRun& run, std::uint64_t total, const Explorer& ex,
                       const std::function<ChunkResult(std::uint64_t, std::uint64_t)>& evaluate) {
    std::uint64_t chunk = std::max<std::uint64_t>(run.chunk, 1);
    chunk = std::max(chunk, total / chunks_max + 1);
    const std::uint64_t count = total == 0 ? 0 : (total - 1) / chunk + 1;
    std::vector<ChunkResult> results(static_cast<std::size_t>(count));
    const std::function<void(std::size_t)> run_chunk = [&](std::size_t c) {
        const std::uint64_t begin = static_cast<std::uint64_t>(c) * chunk;
        results[c] = evaluate(begin, std::min(total, begin + chunk));
    };
    if (run.runner) {
        run.runner(static_cast<std::size_t>(count), run_chunk);
    } else {
        for (std::size_t c = 0; c < results.size(); ++c) run_chunk(c);
    }
    ChunkResult merged;
    for (const ChunkResult& r : results) merge_chunk(merged, r, ex.atoms());
    return merged;
}

// How many of `total` units (or draws) fall to a part: those whose index is
// `shard` modulo `shards`.
std::uint64_t part_size(std::uint64_t total, std::uint64_t shard, std::uint64_t shards) {
    return total > shard ? (total - shard - 1) / shards + 1 : 0;
}

}  // namespace

ExploreReport explore(const Explorer& ex, const ExploreRun& run, ExploreControl* control) {
    ExploreSession session(ex, run, control);
    while (!session.step(std::numeric_limits<std::uint64_t>::max())) {
    }
    return session.report();
}

ExploreSession::ExploreSession(const Explorer& explorer, ExploreRun run, ExploreControl* control)
    : explorer_(&explorer), run_(std::move(run)), control_(control) {
    LS_ASSERT(run_.shards >= 1);
    LS_ASSERT(run_.shards <= explore_shards_max);
    LS_ASSERT(run_.shard < run_.shards);
    if (run_.mode == ExploreMode::exhaustive) {
        begin_level();
    } else {
        LS_ASSERT(run_.draws <= explore_draws_max);
        total_ = part_size(run_.draws, run_.shard, run_.shards);
    }
}

void ExploreSession::begin_level() {
    if (control_ != nullptr) control_->level.store(level_, std::memory_order_relaxed);
    current_ = ChunkResult{};
    next_ = 0;
    total_ = part_size(explorer_->level_units(level_), run_.shard, run_.shards);
}

// Units [begin, end) of this part, counted within the part: unit i of the
// part is unit shard + i · shards of the level (or draw).
ChunkResult ExploreSession::evaluate(std::uint64_t begin, std::uint64_t end) const {
    if (begin >= end) return ChunkResult{};
    const std::uint64_t first = run_.shard + begin * run_.shards;
    const std::uint64_t last = run_.shard + (end - 1) * run_.shards;
    return run_.mode == ExploreMode::exhaustive
               ? explorer_->evaluate_level(level_, first, last + 1, control_, run_.shards)
               : explorer_->evaluate_draws(run_.seed, first, last + 1, control_, run_.shards);
}

bool ExploreSession::step(std::uint64_t units) {
    if (done_) return true;
    const std::uint64_t from = next_;
    const std::uint64_t count = std::min(units, total_ - next_);
    const ChunkResult chunk = run_chunks(run_, count, *explorer_, [&](std::uint64_t begin, std::uint64_t end) {
        return evaluate(from + begin, from + end);
    });
    merge_chunk(current_, chunk, explorer_->atoms());
    next_ = from + count;
    if (next_ < total_ && current_.complete) return false;
    if (run_.mode == ExploreMode::random) {
        report_.totals = current_.stats;
        report_.complete = current_.complete;
        if (current_.best) {
            report_.drawn = current_.best;
            report_.drawn_index = current_.best_draw;
            if (run_.shrink) report_.found = explorer_->shrink(*current_.best);
        }
        done_ = true;
        return true;
    }
    report_.levels.push_back(LevelReport{level_, current_.stats});
    report_.totals.add(current_.stats);
    if (!current_.complete) {
        report_.complete = false;
        done_ = true;
    } else if (current_.best) {
        // Every schedule with fewer faults passed, so the best failing
        // schedule of this level is the shortest counterexample overall.
        report_.found = current_.best;
        done_ = true;
    } else if (level_ >= explorer_->options().max_faults) {
        done_ = true;
    } else {
        ++level_;
        begin_level();
    }
    return done_;
}

ExploreReport merge_shard_reports(const Explorer& ex, const ExploreRun& run, const std::vector<ExploreReport>& parts) {
    LS_ASSERT(!parts.empty());
    ExploreReport merged;
    if (run.mode == ExploreMode::random) {
        ChunkResult best;
        for (const ExploreReport& part : parts) {
            ChunkResult c;
            c.stats = part.totals;
            c.complete = part.complete;
            c.best = part.drawn;
            c.best_draw = part.drawn_index;
            merge_chunk(best, c, ex.atoms());
        }
        merged.totals = best.stats;
        merged.complete = best.complete;
        if (best.best) {
            merged.drawn = best.best;
            merged.drawn_index = best.best_draw;
            if (run.shrink) merged.found = ex.shrink(*best.best);
        }
        return merged;
    }
    for (int level = 0; level <= ex.options().max_faults; ++level) {
        ChunkResult sum;
        for (const ExploreReport& part : parts) {
            // A part that stopped before this level failed at a lower one
            // and ended the search there.
            LS_ASSERT(static_cast<std::size_t>(level) < part.levels.size());
            ChunkResult c;
            c.stats = part.levels[static_cast<std::size_t>(level)].stats;
            c.complete = part.complete || static_cast<std::size_t>(level) + 1 < part.levels.size();
            if (static_cast<std::size_t>(level) + 1 == part.levels.size()) c.best = part.found;
            merge_chunk(sum, c, ex.atoms());
        }
        merged.levels.push_back(LevelReport{level, sum.stats});
        merged.totals.add(sum.stats);
        if (!sum.complete) {
            merged.complete = false;
            break;
        }
        if (sum.best) {
            merged.found = sum.best;
            break;
        }
    }
    return merged;
}

// ---- Words ----

Localized describe_fault(const Scenario& s, const Fault& f) {
    const std::string node = f.node >= 0 ? s.candidates.at(static_cast<std::size_t>(f.node)).name : std::string();
    switch (f.kind) {
        case FaultKind::pause:
            return {fmt::format("pause {} for {} at tick {}", node, plural(f.ticks, "tick", "ticks"), f.at),
                    fmt::format("{}틱부터 {}틱 동안 {} 멈춤", f.at, f.ticks, node)};
        case FaultKind::partition:
            return {fmt::format("partition {} from the store for {} at tick {} ({})", node,
                                plural(f.ticks, "tick", "ticks"), f.at, to_string(f.mode)),
                    fmt::format("{}틱부터 {}틱 동안 {}와 저장소 사이 네트워크 분리({})", f.at, f.ticks, node,
                                to_string(f.mode))};
        case FaultKind::crash:
            return {fmt::format("crash {} at tick {}", node, f.at), fmt::format("{}틱에 {} 크래시", f.at, node)};
        case FaultKind::failover:
            if (f.lose == FailoverLoss::all)
                return {fmt::format("fail the store over at tick {}, losing everything, the fencing counter included",
                                    f.at),
                        fmt::format("{}틱에 페일오버, 펜싱 카운터까지 모두 유실", f.at)};
            return {fmt::format("fail the store over at tick {}, losing the leases (the fencing counter survives)", f.at),
                    fmt::format("{}틱에 페일오버, 리스 유실(펜싱 카운터는 유지)", f.at)};
    }
    return {};
}

Localized describe_variant(const Explorer& ex, std::int32_t v) {
    if (v == 0) return {};
    const Scenario& s = ex.variant(v);
    return {fmt::format("order shuffled with seed {}", s.seed), fmt::format("순서 섞기(seed {})", s.seed)};
}

namespace {

bool has_detail(const Event& e, std::string_view item) {
    std::string_view d = e.detail;
    for (std::string_view part : split_list(d)) {
        if (part == item) return true;
    }
    return false;
}

std::optional<Localized> explain_unsafe_write(const Scenario& scenario, const Trace& trace) {
    for (std::size_t i = 0; i < trace.events.size(); ++i) {
        const Event& late = trace.events[i];
        if (late.op != EventOp::write || !has_detail(late, "unsafe_write")) continue;
        const Event* newer = nullptr;
        for (std::size_t j = 0; j < i; ++j) {
            const Event& e = trace.events[j];
            if (e.op != EventOp::write || e.outcome != Outcome::accepted || !e.fencing) continue;
            if (newer == nullptr || *e.fencing > *newer->fencing) newer = &e;
        }
        LS_ASSERT(newer != nullptr);
        return Localized{
            fmt::format("unsafe_write: {}'s write with fencing {} at tick {} lands after {}'s write with fencing {} "
                        "at tick {}; the resource (mode {}) accepts it",
                        late.node, *late.fencing, late.tick, newer->node, *newer->fencing, newer->tick,
                        to_string(scenario.resource)),
            fmt::format("unsafe_write: {}의 쓰기(펜싱 {}, {}틱)가 {}의 쓰기(펜싱 {}, {}틱) 뒤에 도착했는데도 "
                        "리소스({} 모드)가 받아들입니다",
                        late.node, *late.fencing, late.tick, newer->node, *newer->fencing, newer->tick,
                        to_string(scenario.resource))};
    }
    return std::nullopt;
}

std::optional<Localized> explain_fencing_regressed(const Trace& trace) {
    for (std::size_t i = 0; i < trace.events.size(); ++i) {
        const Event& low = trace.events[i];
        if (low.op != EventOp::acquire || !has_detail(low, "fencing_regressed")) continue;
        const Event* earlier = nullptr;
        for (std::size_t j = 0; j < i; ++j) {
            const Event& e = trace.events[j];
            if (e.op != EventOp::acquire || !e.fencing) continue;
            if (earlier == nullptr || *e.fencing > *earlier->fencing) earlier = &e;
        }
        LS_ASSERT(earlier != nullptr);
        return Localized{
            fmt::format("fencing_regressed: {} is issued fencing {} at tick {}, but {} was already issued {} at "
                        "tick {}: the fence is not above an earlier one",
                        low.node, *low.fencing, low.tick, earlier->node, *earlier->fencing, earlier->tick),
            fmt::format("fencing_regressed: {}의 획득(펜싱 {}, {}틱)이 {}의 획득(펜싱 {}, {}틱)보다 크지 않습니다. "
                        "펜싱 번호가 앞으로 나아가지 않았습니다",
                        low.node, *low.fencing, low.tick, earlier->node, *earlier->fencing, earlier->tick)};
    }
    return std::nullopt;
}

std::optional<Localized> explain_overlap(const Scenario& scenario, const Trace& trace) {
    for (const Event& e : trace.events) {
        if (e.op != EventOp::overlap_begin) continue;
        // Which nodes execute at the end of that tick: replay up to it.
        Simulation sim(scenario);
        ModelStore store(scenario.lock);
        NullSink sink;
        while (!sim.finished() && sim.next_tick() <= e.tick) {
            auto stepped = sim.step(store, sink);
            LS_ASSERT(stepped.ok());
        }
        std::vector<std::string> names;
        for (const Elector& el : sim.electors()) {
            if (el.executing()) names.push_back(el.owner());
        }
        const std::string list = fmt::format("{}", fmt::join(names, ", "));
        return Localized{fmt::format("overlap: at tick {}, {} nodes execute at once ({}) on a lock with {}", e.tick,
                                     names.size(), list, plural(scenario.lock.capacity, "slot", "slots")),
                         fmt::format("overlap: {}틱에 노드 {}개({})가 동시에 실행합니다. 슬롯은 {}개입니다", e.tick,
                                     names.size(), list, scenario.lock.capacity)};
    }
    return std::nullopt;
}

Localized explain_liveness(const Trace& trace) {
    if (trace.summary.results.empty())
        return {"liveness: no run starts before the end", "liveness: 끝날 때까지 시작한 실행이 없습니다"};
    std::vector<std::string> runs;
    for (const RunSummary& r : trace.summary.results) runs.push_back(fmt::format("{} run {} {}", r.node, r.run, r.result));
    const std::string list = fmt::format("{}", fmt::join(runs, ", "));
    return {fmt::format("liveness: no run ends elected ({})", list),
            fmt::format("liveness: elected로 끝난 실행이 없습니다({})", list)};
}

}  // namespace

Counterexample make_counterexample(const Explorer& ex, const Schedule& schedule) {
    Counterexample out;
    out.scenario = ex.to_scenario(schedule);
    out.verdict = ex.check(schedule);
    const Scenario& base = ex.base();
    Scenario& s = out.scenario;
    s.name = clip_utf8(base.name, static_cast<std::size_t>(limits::name_length_max) - 15) + "-counterexample";

    if (schedule.variant != 0) out.faults.push_back(describe_variant(ex, schedule.variant));
    for (const std::int32_t a : schedule.atoms) out.faults.push_back(describe_fault(s, ex.atoms().at(static_cast<std::size_t>(a))));

    out.trace = simulate(s);
    std::vector<Localized> reasons;
    const Properties& failed = out.verdict.failed;
    if (failed.unsafe_write) {
        if (auto r = explain_unsafe_write(s, out.trace)) reasons.push_back(*r);
    }
    if (failed.fencing_regressed) {
        if (auto r = explain_fencing_regressed(out.trace)) reasons.push_back(*r);
    }
    if (failed.overlap) {
        if (auto r = explain_overlap(s, out.trace)) reasons.push_back(*r);
    }
    if (failed.liveness) reasons.push_back(explain_liveness(out.trace));
    for (const Localized& r : reasons) {
        out.explanation.en += (out.explanation.en.empty() ? "" : "; ") + r.en;
        out.explanation.ko += (out.explanation.ko.empty() ? "" : "; ") + r.ko;
    }

    std::vector<std::string> faults_en, faults_ko;
    for (const Localized& f : out.faults) {
        faults_en.push_back(f.en);
        faults_ko.push_back(f.ko);
    }
    const std::string base_title_en = base.title.en.empty() ? base.name : base.title.en;
    const std::string base_title_ko = !base.title.ko.empty() ? base.title.ko : base_title_en;
    const auto text_max = static_cast<std::size_t>(limits::text_length_max);
    s.title.en = clip_utf8("Counterexample: " + base_title_en, text_max);
    s.title.ko = clip_utf8("반례: " + base_title_ko, text_max);
    if (out.faults.empty()) {
        s.summary.en = fmt::format("Found by the explorer: \"{}\" fails as it is, with no added fault. {}.", base.name,
                                   out.explanation.en);
        s.summary.ko = fmt::format("탐색기가 찾은 반례: \"{}\"는 결함을 더하지 않아도 실패합니다. {}.", base.name,
                                   out.explanation.ko);
    } else {
        s.summary.en = fmt::format("Found by the explorer from \"{}\": {}. {}.", base.name, fmt::join(faults_en, "; "),
                                   out.explanation.en);
        s.summary.ko = fmt::format("탐색기가 \"{}\"에서 찾은 반례: {}. {}.", base.name, fmt::join(faults_ko, "; "),
                                   out.explanation.ko);
    }
    s.summary.en = clip_utf8(s.summary.en, text_max);
    s.summary.ko = clip_utf8(s.summary.ko, text_max);
    return out;
}

}  // namespace leasescope::sim

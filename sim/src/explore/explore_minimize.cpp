// minimize(): per fault kind, the smallest single fault that breaks a checked
// property, found by an exact upward scan of the sizes, each size a search of
// one added fault on an explorer that lays out only that size
// (docs/explorer.md, "The smallest fault that breaks it").
#include <utility>

#include <fmt/format.h>

#include "explore_internal.hpp"
#include "leasescope/sim/explorer.hpp"

namespace leasescope::sim {

using namespace explore_detail;

namespace {

// The budget's menu narrowed to one kind (all of its forms that are on).
FaultMenu menu_of_kind(FaultClass kind, const FaultMenu& k) {
    FaultMenu m = FaultMenu::none();
    switch (kind) {
        case FaultClass::pause: m.pause = k.pause; break;
        case FaultClass::partition:
            m.partition_drop_requests = k.partition_drop_requests;
            m.partition_drop_replies = k.partition_drop_replies;
            break;
        case FaultClass::crash: m.crash = k.crash; break;
        case FaultClass::failover:
            m.failover_leases = k.failover_leases;
            m.failover_all = k.failover_all;
            break;
        case FaultClass::delay:
            m.delay_request = k.delay_request;
            m.delay_reply = k.delay_reply;
            m.delay_write = k.delay_write;
            break;
        case FaultClass::clock_jump:
            m.clock_jump_forward = k.clock_jump_forward;
            m.clock_jump_back = k.clock_jump_back;
            break;
        case FaultClass::replica_link: m.replica_link = k.replica_link; break;
        case FaultClass::failover_promote: m.failover_promote = k.failover_promote; break;
        case FaultClass::restart:
            m.restart_none = k.restart_none;
            m.restart_everysec = k.restart_everysec;
            m.restart_always = k.restart_always;
            break;
    }
    return m;
}

// The sizes a kind's faults take in the budget, in ticks (fault_magnitude).
KindThreshold kind_sizes(FaultClass kind, const ExploreOptions& o, std::int64_t tick_ms) {
    KindThreshold t;
    t.kind = kind;
    switch (kind) {
        case FaultClass::pause:
        case FaultClass::partition: t.smallest = 1, t.largest = o.max_pause; break;
        case FaultClass::crash:
        case FaultClass::failover: t.sized = false, t.smallest = t.largest = 0; break;
        case FaultClass::delay: t.smallest = 1, t.largest = o.max_delay; break;
        case FaultClass::clock_jump: t.smallest = 1, t.largest = o.max_clock_jump_ms / tick_ms; break;
        case FaultClass::replica_link: t.smallest = 1, t.largest = o.max_link_cut; break;
        case FaultClass::failover_promote: t.smallest = 0, t.largest = o.max_lag; break;
        case FaultClass::restart: t.smallest = 1, t.largest = o.max_pause; break;
    }
    const std::vector<Tick>* grid = kind == FaultClass::pause        ? &o.grids.pause
                                    : kind == FaultClass::partition  ? &o.grids.partition
                                    : kind == FaultClass::delay      ? &o.grids.delay
                                    : kind == FaultClass::clock_jump ? &o.grids.clock_jump
                                                                     : nullptr;
    if (grid != nullptr && !grid->empty()) {
        t.grid.assign(grid->begin(), grid->end());
        t.smallest = t.grid.front();
        t.largest = t.grid.back();
    }
    return t;
}

constexpr FaultClass minimize_kinds[] = {
    FaultClass::pause,  FaultClass::partition,  FaultClass::crash,        FaultClass::failover,
    FaultClass::delay,  FaultClass::clock_jump, FaultClass::replica_link, FaultClass::failover_promote,
    FaultClass::restart};

// Scans one kind's sizes upward; false when cancelled. Every size below the
// threshold is searched whole (every tick, node, form and order variant).
Result<bool, std::string> scan_kind(const Scenario& base, const ExploreOptions& options, const ExploreRun& run,
                                    ExploreControl* control, KindThreshold& kind) {
    std::vector<std::int64_t> sizes = kind.grid;
    if (sizes.empty())
        for (std::int64_t size = kind.smallest; size <= kind.largest; ++size) sizes.push_back(size);
    for (const std::int64_t size : sizes) {
        ExploreOptions o = options;
        o.kinds = menu_of_kind(kind.kind, options.kinds);
        o.only_magnitude = size;
        auto created = Explorer::create(base, o);
        if (!created.ok()) return Err{created.error()};
        Explorer step = std::move(created).value();
        const ExploreReport report = explore(step, run, control);
        if (!report.complete) return false;
        // Level 0 (the base) passed before the scan began; level 1 is this size.
        LS_ASSERT(!report.found || !report.found->atoms.empty());
        if (report.levels.size() > 1) kind.stats.add(report.levels[1].stats);
        if (report.found) {
            kind.threshold = size;
            kind.found = report.found;
            kind.step = std::move(step);
            return true;
        }
    }
    return true;
}

}  // namespace

std::string_view to_string(FaultClass kind) {
    switch (kind) {
        case FaultClass::pause: return "pause";
        case FaultClass::partition: return "partition";
        case FaultClass::crash: return "crash";
        case FaultClass::failover: return "failover";
        case FaultClass::delay: return "delay";
        case FaultClass::clock_jump: return "clock_jump";
        case FaultClass::replica_link: return "replica_link";
        case FaultClass::failover_promote: return "failover:promote";
        case FaultClass::restart: return "restart";
    }
    return "?";
}

Result<MinimizeReport, std::string> minimize(const Scenario& base, const ExploreOptions& given, const ExploreRun& run,
                                             ExploreControl* control) {
    LS_ASSERT(run.mode == ExploreMode::exhaustive);
    LS_ASSERT(run.shards == 1);
    if (given.max_faults != 1)
        return Err{fmt::format("--minimize searches one added fault at a time; expected --max-faults 1, found {}",
                               given.max_faults)};
    // The base alone, with the budget's max_tick and kinds: an explorer of
    // no atoms (max_faults 0 keeps the default max_tick of one fault).
    ExploreOptions bare = given;
    bare.max_faults = 0;
    auto created = Explorer::create(base, bare);
    if (!created.ok()) return Err{created.error()};
    MinimizeReport out;
    out.explorer = std::move(created).value();
    const Explorer& ex = *out.explorer;
    out.max_tick = ex.max_tick();
    out.start_every = given.start_every;
    out.variants = ex.variant_count();
    if (!ex.options().kinds.any()) return Err{std::string("no fault kind to add; choose at least one")};
    const ExploreReport alone = explore(ex, run, control);
    out.complete = alone.complete;
    if (!alone.levels.empty()) out.base = alone.levels[0].stats;
    out.totals = out.base;
    out.base_fails = alone.found;
    if (!out.complete || out.base_fails) return out;

    ExploreOptions options = given;
    options.kinds = ex.options().kinds;  // as create narrowed them (replicas, budgets)
    options.max_tick = out.max_tick;
    for (const FaultClass c : minimize_kinds) {
        if (!menu_of_kind(c, options.kinds).any()) continue;
        KindThreshold kind = kind_sizes(c, options, base.tick_ms);
        auto scanned = scan_kind(base, options, run, control, kind);
        if (!scanned.ok()) return Err{scanned.error()};
        out.totals.add(kind.stats);
        out.kinds.push_back(std::move(kind));
        if (!scanned.value()) {
            out.complete = false;
            break;
        }
    }
    return out;
}

}  // namespace leasescope::sim

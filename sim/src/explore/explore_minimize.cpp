// minimize(): per fault kind, the smallest single fault that breaks a checked
// property, found by an exact upward scan of the sizes, each size a search of
// one added fault on an explorer that lays out only that size
// (docs/explorer.md, "The smallest fault that breaks it").
#include <limits>
#include <memory>
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

}  // namespace

std::vector<std::int64_t> KindThreshold::sizes() const {
    std::vector<std::int64_t> out = grid;
    if (out.empty())
        for (std::int64_t size = smallest; size <= largest; ++size) out.push_back(size);
    return out;
}

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
    MinimizeSession session(base, given, run, control);
    while (!session.step(std::numeric_limits<std::uint64_t>::max())) {}
    if (!session.error().empty()) return Err{session.error()};
    return std::move(session).take_report();
}

MinimizeSession::MinimizeSession(const Scenario& base, const ExploreOptions& given, ExploreRun run,
                                 ExploreControl* control)
    : base_(&base), options_(given), run_(std::move(run)), control_(control) {
    LS_ASSERT(run_.mode == ExploreMode::exhaustive);
    LS_ASSERT(run_.shards == 1);
    done_ = true;  // until the base's search is open
    if (given.max_faults != 1) {
        error_ = fmt::format("--minimize searches one added fault at a time; expected --max-faults 1, found {}",
                             given.max_faults);
        return;
    }
    // The base alone, with the budget's max_tick and kinds: an explorer of
    // no atoms (max_faults 0 keeps the default max_tick of one fault).
    ExploreOptions bare = given;
    bare.max_faults = 0;
    auto created = Explorer::create(base, bare);
    if (!created.ok()) {
        error_ = created.error();
        return;
    }
    report_.explorer = std::move(created).value();
    const Explorer& ex = *report_.explorer;
    report_.max_tick = ex.max_tick();
    report_.start_every = given.start_every;
    report_.variants = ex.variant_count();
    if (!ex.options().kinds.any()) {
        error_ = "no fault kind to add; choose at least one";
        return;
    }
    options_.kinds = ex.options().kinds;  // as create narrowed them (replicas, budgets)
    options_.max_tick = report_.max_tick;
    for (const FaultClass c : minimize_kinds)
        if (menu_of_kind(c, options_.kinds).any()) classes_.push_back(c);
    session_ = std::make_unique<ExploreSession>(ex, run_, control_);
    done_ = false;
}

bool MinimizeSession::step(std::uint64_t units) {
    if (done_) return true;
    if (!session_->step(units)) return false;
    if (kind_ < 0) {
        // The base alone: it must pass before any kind is scanned.
        const ExploreReport& alone = session_->report();
        report_.complete = alone.complete;
        if (!alone.levels.empty()) report_.base = alone.levels[0].stats;
        report_.totals = report_.base;
        report_.base_fails = alone.found;
        session_.reset();
        if (!report_.complete || report_.base_fails) return done_ = true;
    } else {
        close_size();
        if (done_) return true;
    }
    done_ = !open_next();
    return done_;
}

// The search of the size just finished: a failure there is the kind's
// threshold; a search cut short ends the whole scan.
void MinimizeSession::close_size() {
    const ExploreReport& r = session_->report();
    KindThreshold& kind = report_.kinds.back();
    // Level 0 (the base) passed before the scan began; level 1 is this size.
    LS_ASSERT(!r.found || !r.found->atoms.empty());
    if (!r.complete) {
        // Cut short: what it covered is no proof, so it is not counted.
        session_.reset();
        report_.complete = false;
        done_ = true;
        return;
    }
    if (r.levels.size() > 1) {
        kind.stats.add(r.levels[1].stats);
        report_.totals.add(r.levels[1].stats);
    }
    const std::optional<Schedule> found = r.found;
    session_.reset();
    if (found) {
        kind.threshold = sizes_[size_];
        kind.found = found;
        kind.step = std::move(*size_explorer_);
        size_ = sizes_.size();  // this kind is over
    } else {
        ++size_;
    }
    size_explorer_.reset();
}

// Opens the search of the next size, of this kind or the next; false when
// every kind has been scanned (or an explorer could not be made: error()).
bool MinimizeSession::open_next() {
    while (kind_ < 0 || size_ >= sizes_.size()) {
        if (classes_.empty()) return false;
        const FaultClass c = classes_.front();
        classes_.erase(classes_.begin());
        report_.kinds.push_back(kind_sizes(c, options_, base_->tick_ms));
        kind_ = static_cast<std::int32_t>(report_.kinds.size()) - 1;
        sizes_ = report_.kinds.back().sizes();
        size_ = 0;
    }
    ExploreOptions o = options_;
    o.kinds = menu_of_kind(report_.kinds.back().kind, options_.kinds);
    o.only_magnitude = sizes_[size_];
    auto created = Explorer::create(*base_, o);
    if (!created.ok()) {
        error_ = created.error();
        return false;
    }
    size_explorer_ = std::make_unique<Explorer>(std::move(created).value());
    session_ = std::make_unique<ExploreSession>(*size_explorer_, run_, control_);
    return true;
}

MinimizeReport MinimizeSession::take_report() && { return std::move(report_); }

}  // namespace leasescope::sim

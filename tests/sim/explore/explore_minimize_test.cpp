// explore --minimize and --property safety: the smallest single fault of each
// kind is exact (one size below it, a plain exhaustive search without
// pruning finds nothing), it is what the ranked search of one fault finds,
// it does not depend on chunks or threads, the practitioner's question of
// issue 29 gets "two thirds of the lease" with the watchdog, and a fenced
// failover that loses everything fails `safety` although `unsafe_write`
// cannot fail in a fenced mode.
#include <atomic>
#include <thread>

#include <gtest/gtest.h>

#include "explore_report_checks.hpp"
#include "leasescope/sim/explorer.hpp"
#include "support/preset_loader.hpp"
#include "support/test_files.hpp"

namespace leasescope::sim {
namespace {

Scenario parsed(const std::string& path, const std::vector<Override>& overrides = {}) {
    auto p = parse_scenario(test::read_all(path), path, overrides);
    EXPECT_TRUE(p.ok()) << (p.ok() ? "" : p.error().to_string());
    return std::move(p).value();
}

Scenario preset(const std::string& name, const std::vector<Override>& overrides = {}) {
    return parsed(test::preset_path(name), overrides);
}

// Issue 29's configuration scaled down by ten (tests/data/explore/).
Scenario practitioner_small() { return parsed(test::source_dir + "/tests/data/explore/practitioner-small.json"); }

Explorer make(const Scenario& base, const ExploreOptions& options) {
    auto created = Explorer::create(base, options);
    EXPECT_TRUE(created.ok()) << (created.ok() ? "" : created.error());
    return std::move(created).value();
}

ExploreOptions pauses_for_overlap(Tick max_pause) {
    ExploreOptions o;
    o.max_faults = 1;
    o.max_pause = max_pause;
    o.shuffles = 0;
    o.kinds = parse_fault_kinds("pause").value();
    o.properties = parse_properties("overlap").value();
    return o;
}

MinimizeReport minimized(const Scenario& base, const ExploreOptions& options, const ExploreRun& run = {}) {
    auto m = minimize(base, options, run);
    EXPECT_TRUE(m.ok()) << (m.ok() ? "" : m.error());
    return std::move(m).value();
}

const Fault& the_fault(const KindThreshold& k) {
    EXPECT_TRUE(k.found);
    EXPECT_EQ(k.found->atoms.size(), 1u);
    return k.step->atoms().at(static_cast<std::size_t>(k.found->atoms.at(0)));
}

// The practitioner's regression, at a tenth of the scale (lease 60 ticks,
// watchdog every 20, wait 10): the shortest pause of the holder that lets
// another worker in is 40 ticks, two thirds of the lease: it starts when the
// first renewal is due (tick 20), stopping it, and must outlast the 40 ticks
// left of the lease acquired at tick 0. Up to 39 ticks a plain search of
// every pause, every start and every node, unpruned, finds nothing.
TEST(ExploreMinimize, ShortestPauseIsTwoThirdsOfTheLeaseWithTheWatchdog) {
    const Scenario base = practitioner_small();
    ASSERT_EQ(base.candidates[0].options.lease, 60);
    const MinimizeReport m = minimized(base, pauses_for_overlap(60));
    ASSERT_TRUE(m.complete);
    ASSERT_FALSE(m.base_fails);
    ASSERT_EQ(m.kinds.size(), 1u);
    const KindThreshold& pause = m.kinds[0];
    EXPECT_EQ(pause.kind, FaultClass::pause);
    ASSERT_TRUE(pause.threshold);
    EXPECT_EQ(*pause.threshold, 40);
    const Fault& f = the_fault(pause);
    EXPECT_EQ(f.kind, FaultKind::pause);
    EXPECT_EQ(f.ticks, 40);
    EXPECT_EQ(f.at, 20);
    EXPECT_EQ(base.candidates[static_cast<std::size_t>(f.node)].name, "worker-1");
    EXPECT_TRUE(pause.step->check(*pause.found).failed.overlap);

    ExploreOptions below = pauses_for_overlap(39);
    below.max_tick = m.max_tick;
    below.prune = false;
    const ExploreReport plain = explore(make(base, below), ExploreRun{});
    ASSERT_TRUE(plain.complete);
    EXPECT_FALSE(plain.found);
    EXPECT_EQ(plain.levels.at(1).stats.simulated, 3u * 39u * static_cast<std::uint64_t>(m.max_tick + 1));
}

// The threshold is exact on other kinds too, and the same fault as the
// ranked search of one fault of that kind finds (smallest, then earliest):
// watchdog-pause without its pause, for overlap, with pauses and jumps of
// the store's clock.
TEST(ExploreMinimize, ThresholdIsWhatTheRankedSearchFindsAndNothingBelowBreaks) {
    const Scenario base = preset("watchdog-pause", {{"faults", "[]"}});
    ExploreOptions options = pauses_for_overlap(8);
    options.kinds = parse_fault_kinds("pause,crash,clock_jump").value();
    options.max_clock_jump_ms = 300;
    options.shuffles = 1;
    const MinimizeReport m = minimized(base, options);
    ASSERT_TRUE(m.complete);
    ASSERT_EQ(m.kinds.size(), 3u);
    for (const KindThreshold& k : m.kinds) {
        SCOPED_TRACE(std::string(to_string(k.kind)));
        ExploreOptions one = options;
        one.kinds = parse_fault_kinds(std::string(to_string(k.kind))).value();
        one.max_tick = m.max_tick;
        const ExploreReport ranked = explore(make(base, one), ExploreRun{});
        ASSERT_EQ(ranked.found.has_value(), k.found.has_value());
        if (!k.found) continue;
        const Explorer whole = make(base, one);
        const Fault& g = whole.atoms().at(static_cast<std::size_t>(ranked.found->atoms.at(0)));
        const Fault& f = the_fault(k);
        EXPECT_EQ(fault_magnitude(f, base.tick_ms), *k.threshold);
        EXPECT_EQ(f.at, g.at);
        EXPECT_EQ(f.kind, g.kind);
        EXPECT_EQ(fault_magnitude(g, base.tick_ms), *k.threshold);
        EXPECT_EQ(k.found->variant, ranked.found->variant);
        if (!k.sized || *k.threshold == k.smallest) continue;
        // One size below, and every size under it: nothing, unpruned.
        ExploreOptions below = one;
        below.prune = false;
        if (k.kind == FaultClass::pause) below.max_pause = *k.threshold - 1;
        if (k.kind == FaultClass::clock_jump) below.max_clock_jump_ms = (*k.threshold - 1) * base.tick_ms;
        EXPECT_FALSE(explore(make(base, below), ExploreRun{}).found);
    }
    EXPECT_EQ(*m.kinds[0].threshold, 4);  // pause: 2/3 of the 6-tick lease, as at full scale
    EXPECT_FALSE(m.kinds[1].sized);       // crash
}

// The budget with every size below `threshold` of one kind, for checking
// that none of them breaks anything.
ExploreOptions sizes_below(ExploreOptions o, FaultClass kind, std::int64_t threshold, std::int64_t tick_ms) {
    switch (kind) {
        case FaultClass::pause:
        case FaultClass::partition:
        case FaultClass::restart: o.max_pause = threshold - 1; break;
        case FaultClass::delay: o.max_delay = threshold - 1; break;
        case FaultClass::clock_jump: o.max_clock_jump_ms = (threshold - 1) * tick_ms; break;
        case FaultClass::replica_link: o.max_link_cut = threshold - 1; break;
        case FaultClass::failover_promote: o.max_lag = threshold - 1; break;
        case FaultClass::crash:
        case FaultClass::failover: ADD_FAILURE() << "no size"; break;
    }
    return o;
}

// Delays (extra ticks) and promotions (lag, from 0) have thresholds too:
// the write held 3 ticks of delayed-write, the promotion 1 tick behind of
// failover-fencing-tie; a cut link alone never issues a number twice. At
// every smaller size a plain unpruned search finds nothing.
TEST(ExploreMinimize, DelaysAndPromotionsHaveExactThresholds) {
    struct Case {
        const char* preset;
        const char* kinds;
        const char* property;
        std::vector<std::int64_t> thresholds;  // per kind in FaultClass order, -1: none
    };
    const std::vector<Case> cases = {
        {"delayed-write", "delay", "stale_after_successor", {3}},
        {"failover-fencing-tie", "failover:promote,replica_link", "fencing_duplicate", {-1, 1}},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.preset);
        const Scenario base = preset(c.preset, {{"faults", "[]"}});
        ExploreOptions options;
        options.max_faults = 1;
        options.max_delay = 8;
        options.shuffles = 1;
        options.kinds = parse_fault_kinds(c.kinds).value();
        options.properties = parse_properties(c.property).value();
        const MinimizeReport m = minimized(base, options);
        ASSERT_EQ(m.kinds.size(), c.thresholds.size());
        for (std::size_t i = 0; i < m.kinds.size(); ++i) {
            const KindThreshold& k = m.kinds[i];
            SCOPED_TRACE(std::string(to_string(k.kind)));
            EXPECT_EQ(k.threshold.value_or(-1), c.thresholds[i]);
            if (!k.threshold || *k.threshold == k.smallest) continue;
            ExploreOptions below = sizes_below(options, k.kind, *k.threshold, base.tick_ms);
            below.kinds = parse_fault_kinds(std::string(to_string(k.kind))).value();
            below.max_tick = m.max_tick;
            below.prune = false;
            EXPECT_FALSE(explore(make(base, below), ExploreRun{}).found);
        }
    }
}

// Runs chunks on two threads from a shared counter.
ChunkRunner two_threads() {
    return [](std::size_t count, const std::function<void(std::size_t)>& run_chunk) {
        std::atomic<std::size_t> next{0};
        auto work = [&] {
            for (std::size_t c; (c = next.fetch_add(1)) < count;) run_chunk(c);
        };
        std::thread other(work);
        work();
        other.join();
    };
}

// The answer and the counters do not depend on chunks or threads.
TEST(ExploreMinimize, SameAnswerWhateverChunksAndThreads) {
    const Scenario base = practitioner_small();
    const MinimizeReport reference = minimized(base, pauses_for_overlap(45));
    for (const std::uint64_t chunk : {std::uint64_t{1}, std::uint64_t{7}, std::uint64_t{1000}}) {
        ExploreRun run;
        run.chunk = chunk;
        run.runner = two_threads();
        const MinimizeReport other = minimized(base, pauses_for_overlap(45), run);
        ASSERT_EQ(other.kinds.size(), reference.kinds.size());
        EXPECT_EQ(other.kinds[0].threshold, reference.kinds[0].threshold);
        EXPECT_EQ(other.kinds[0].found, reference.kinds[0].found);
        test::expect_same_stats(other.kinds[0].stats, reference.kinds[0].stats);
    }
}

// The app's Find panel steps a MinimizeSession one work unit a frame:
// stepped so, it gives minimize()'s answer, proof and counters for every
// kind (a grid of pauses and partitions, crashes, failovers), its progress
// only moves forward, and a bad budget is an error before any step.
TEST(ExploreMinimize, ASessionSteppedUnitByUnitIsMinimize) {
    const Scenario base = practitioner_small();
    ExploreOptions options;
    options.max_faults = 1;
    options.shuffles = 0;
    options.properties = parse_properties("overlap").value();
    ASSERT_TRUE(parse_grid("pause=1..60", base.tick_ms, options.grids).ok());
    ASSERT_TRUE(parse_grid("partition=1..60", base.tick_ms, options.grids).ok());
    const MinimizeReport whole = minimized(base, options);
    MinimizeSession session(base, options, ExploreRun{});
    ASSERT_TRUE(session.error().empty()) << session.error();
    std::int32_t kind = -1;
    std::size_t size = 0, steps = 0;
    while (!session.step(1)) {
        ++steps;
        ASSERT_GE(session.kind(), kind);
        if (session.kind() == kind) {
            ASSERT_GE(session.size_index(), size);
        }
        kind = session.kind();
        size = session.size_index();
        ASSERT_NE(session.search(), nullptr);
    }
    EXPECT_GT(steps, 100u);  // many frames, not one
    EXPECT_TRUE(session.error().empty()) << session.error();
    const MinimizeReport stepped = std::move(session).take_report();
    EXPECT_TRUE(stepped.complete);
    test::expect_same_stats(stepped.base, whole.base);
    test::expect_same_stats(stepped.totals, whole.totals);
    ASSERT_EQ(stepped.kinds.size(), whole.kinds.size());
    ASSERT_EQ(stepped.kinds.size(), 4u);  // pause, partition, crash, failover
    bool any_found = false;
    for (std::size_t k = 0; k < whole.kinds.size(); ++k) {
        SCOPED_TRACE(std::string(to_string(whole.kinds[k].kind)));
        EXPECT_EQ(stepped.kinds[k].kind, whole.kinds[k].kind);
        EXPECT_EQ(stepped.kinds[k].grid, whole.kinds[k].grid);
        EXPECT_EQ(stepped.kinds[k].threshold, whole.kinds[k].threshold);
        EXPECT_EQ(stepped.kinds[k].found, whole.kinds[k].found);
        test::expect_same_stats(stepped.kinds[k].stats, whole.kinds[k].stats);
        any_found = any_found || whole.kinds[k].found.has_value();
    }
    EXPECT_TRUE(any_found);
    EXPECT_EQ(whole.kinds[0].threshold, 40);  // 2 s: a point of the grid, and the exact scan's answer

    options.max_faults = 2;
    MinimizeSession refused(base, options, ExploreRun{});
    EXPECT_TRUE(refused.done());
    EXPECT_NE(refused.error().find("one added fault at a time"), std::string::npos) << refused.error();
}

// A base that fails on its own is said so, and no kind is scanned; a budget
// of more than one fault is refused (one fault at a time).
TEST(ExploreMinimize, BaseThatFailsAndMoreThanOneFaultAreSaid) {
    ExploreOptions options = pauses_for_overlap(3);
    const MinimizeReport m = minimized(preset("expiry-takeover"), options);  // overlaps with no fault
    EXPECT_TRUE(m.base_fails);
    EXPECT_TRUE(m.kinds.empty());
    options.max_faults = 2;
    auto refused = minimize(preset("expiry-takeover"), options, ExploreRun{});
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.error().find("one added fault at a time"), std::string::npos) << refused.error();
}

// `safety` is every property but overlap and liveness; an unknown name is
// refused with the list.
TEST(ExploreProperties, SafetyIsEverySafetyPropertyButOverlap) {
    const Properties safety = parse_properties("safety").value();
    EXPECT_EQ(to_string(safety),
              "unsafe_write,fencing_regressed,stale_after_successor,holder_rejected,fencing_duplicate");
    EXPECT_FALSE(safety.overlap);
    EXPECT_FALSE(safety.liveness);
    EXPECT_TRUE(parse_properties("safety,liveness").value().liveness);
    auto unknown = parse_properties("safty");
    ASSERT_FALSE(unknown.ok());
    EXPECT_NE(unknown.error().find("safety"), std::string::npos) << unknown.error();
}

// Issue 29's Done-when: a fenced resource (mode check) with a failover that
// loses everything fails --property safety (a fencing number issued again),
// although the same search for unsafe_write alone, which a fenced mode
// cannot fail, comes back green. With failovers that keep the counter,
// safety comes back green: there the fence did save the data.
TEST(ExploreProperties, FencedFailoverLosingAllFailsSafety) {
    const Scenario base = preset("failover-lost-lock", {{"faults", "[]"}});
    ASSERT_EQ(base.resource, ResourceMode::check);
    ExploreOptions options;
    options.max_faults = 2;
    options.shuffles = 1;
    options.kinds = parse_fault_kinds("failover:all").value();
    options.properties = parse_properties("unsafe_write").value();
    EXPECT_FALSE(explore(make(base, options), ExploreRun{}).found);
    options.properties = parse_properties("safety").value();
    const Explorer ex = make(base, options);
    const ExploreReport report = explore(ex, ExploreRun{});
    ASSERT_TRUE(report.found);
    EXPECT_EQ(report.found->atoms.size(), 1u);
    const Verdict v = ex.check(*report.found);
    EXPECT_FALSE(v.failed.unsafe_write);
    EXPECT_TRUE(v.failed.fencing_duplicate);
    EXPECT_TRUE(v.failed.stale_after_successor || v.failed.holder_rejected);

    options.kinds = parse_fault_kinds("pause,crash,failover:leases").value();
    const ExploreReport kept = explore(make(base, options), ExploreRun{});
    ASSERT_TRUE(kept.complete);
    EXPECT_FALSE(kept.found);
}

}  // namespace
}  // namespace leasescope::sim

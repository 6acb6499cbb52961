// Passing over quiet ticks at once (Simulation::skip_quiet_ticks,
// Elector::quiet_advances): the same events and the same state as stepping
// through every tick, on every preset and on generated scenarios with faults.
#include <gtest/gtest.h>

#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "leasescope/sim/generator.hpp"
#include "leasescope/sim/scenario.hpp"
#include "leasescope/sim/simulation.hpp"
#include "support/generated_scenario.hpp"
#include "support/preset_loader.hpp"

using namespace leasescope;
using namespace leasescope::sim;

namespace {

class Collect final : public EventSink {
public:
    void on_event(const Event& event) override { events.push_back(event); }
    std::vector<Event> events;
};

// Everything a later tick can depend on, written out to compare two runs.
std::string state_of(const Simulation& sim, ModelStore& store) {
    std::ostringstream out;
    out << "next " << sim.next_tick() << " finished " << sim.finished() << " events " << sim.events_emitted()
        << " overlap " << sim.in_overlap() << " accepted " << sim.resource().accepted << " rejected "
        << sim.resource().rejected << " violations " << sim.violations().total() << "\n";
    for (const Elector& e : sim.electors()) {
        out << e.owner() << " state " << static_cast<int>(e.state()) << " runs " << e.run_count() << " progress "
            << e.progress() << " attempt " << e.next_attempt() << " deadline " << e.deadline() << " watchdog "
            << e.watchdog_running() << " extend " << (e.watchdog_running() ? e.next_extend() : 0) << "\n";
    }
    for (const SlotRecord& s : store.slots()) {
        out << "slot " << s.occupied << " " << s.owner << " " << s.token << " " << s.fencing << " " << s.expires_at
            << "\n";
    }
    out << "counter " << store.counter() << " holdoff " << store.holdoff_until() << " first_expiry "
        << store.first_expiry() << "\n";
    return out.str();
}

// Runs `scenario` twice side by side: tick by tick, and with quiet ticks
// passed over; after every skip and every step, both must agree. Returns
// the ticks passed over.
Tick compare_runs(const Scenario& scenario, const std::string& name) {
    Simulation each(scenario);
    ModelStore each_store(scenario.lock);
    Collect each_events;
    Simulation fast(scenario);
    ModelStore fast_store(scenario.lock);
    Collect fast_events;
    Tick skipped = 0;
    while (!fast.finished()) {
        const Tick passed = fast.skip_quiet_ticks(fast_store, std::numeric_limits<Tick>::max());
        skipped += passed;
        if (passed == 0) {
            EXPECT_TRUE(fast.step(fast_store, fast_events).ok());
        }
        while (!each.finished() && each.next_tick() < fast.next_tick()) {
            EXPECT_TRUE(each.step(each_store, each_events).ok());
        }
        EXPECT_EQ(each_events.events.size(), fast_events.events.size()) << name << " at tick " << fast.next_tick();
        const std::string expected = state_of(each, each_store);
        const std::string found = state_of(fast, fast_store);
        if (expected != found) {
            ADD_FAILURE() << name << ": the state differs before tick " << fast.next_tick() << "\nstepped:\n"
                          << expected << "skipped:\n"
                          << found;
            return skipped;
        }
    }
    EXPECT_TRUE(each.finished()) << name;
    EXPECT_EQ(each.end_tick(), fast.end_tick()) << name;
    EXPECT_TRUE(each_events.events == fast_events.events) << name;
    EXPECT_EQ(each.results(), fast.results()) << name;
    return skipped;
}

Scenario generated(std::int64_t candidates, Tick horizon, std::uint64_t seed, bool faults) {
    return test::generated_scenario({candidates, horizon, seed, seed % 2 == 0, faults});
}

}  // namespace

TEST(QuietTicks, PresetsMatchSteppingEveryTick) {
    Tick skipped = 0;
    for (const std::string& name : test::preset_names()) skipped += compare_runs(test::load_preset(name), name);
    EXPECT_GT(skipped, 0);  // the comparison is not empty
}

TEST(QuietTicks, GeneratedScenariosMatchSteppingEveryTick) {
    Tick skipped = 0;
    for (std::uint64_t seed = 1; seed <= 60; ++seed) {
        const auto candidates = static_cast<std::int64_t>(1 + seed * 7 % 40);
        const Tick horizon = 200 + static_cast<Tick>(seed * 131 % 3000);
        skipped +=
            compare_runs(generated(candidates, horizon, seed, seed % 4 != 0), "generated seed " + std::to_string(seed));
    }
    EXPECT_GT(skipped, 10'000);
}

// Clocks that drift and jump (model.md §3.3) move deadlines, retries,
// watchdog runs and expiries off the true-time ticks: passing over quiet
// ticks still gives what stepping gives.
TEST(QuietTicks, DriftingClocksMatchSteppingEveryTick) {
    Tick skipped = 0;
    for (std::uint64_t seed = 1; seed <= 30; ++seed) {
        Scenario s = generated(static_cast<std::int64_t>(1 + seed * 7 % 20), 400 + static_cast<Tick>(seed * 131 % 900),
                               seed, seed % 3 != 0);
        s.lock.clock.drift_ppm = static_cast<std::int32_t>(seed * 104'729 % 600'000) - 300'000;
        for (std::size_t i = 0; i < s.candidates.size(); ++i)
            s.candidates[i].options.drift_ppm = static_cast<std::int32_t>((seed + i) * 7'919 % 900'000) - 450'000;
        Fault jump;
        jump.kind = FaultKind::clock_jump;
        jump.at = static_cast<Tick>(seed * 37 % 300);
        jump.ms = seed % 2 == 0 ? 400 : -400;
        s.faults.push_back(jump);
        skipped += compare_runs(s, "drifting seed " + std::to_string(seed));
    }
    EXPECT_GT(skipped, 1'000);
}

// With messages on the wire (model.md §16) a skip must stop before each
// arrival, reply and timeout: the same check over generated scenarios with
// latencies and delays.
TEST(QuietTicks, GeneratedScenariosWithLatenciesMatchSteppingEveryTick) {
    Tick skipped = 0;
    for (std::uint64_t seed = 1; seed <= 30; ++seed) {
        GeneratorOptions o{static_cast<std::int64_t>(1 + seed * 7 % 20), 200 + static_cast<Tick>(seed * 131 % 1500),
                           seed, seed % 2 == 0, seed % 4 != 0};
        o.latencies = true;
        skipped += compare_runs(test::generated_scenario(o), "generated with latencies, seed " + std::to_string(seed));
        if (HasFailure()) return;
    }
    EXPECT_GT(skipped, 1'000);
}

// Once every run is over, a record can stay valid for long: here the store's
// clock steps back 1,000 s (20,000 ticks) while a holds, and a crashes. The
// ticks until its expiry are passed over at once, as stepping gives them (the
// import fuzzer's draft of such a capture stepped 9.6 million ticks one by
// one: 22 s under the sanitizers).
TEST(QuietTicks, ARecordValidLongAfterTheLastRunIsPassedOverAtOnce) {
    const std::string text = R"({"name": "held-after-runs", "tick_ms": 50, "horizon": 30000, "seed": 0,
        "lock": {"name": "l"}, "defaults": {"wait": 0},
        "candidates": [{"name": "a", "lease": 100, "auto_extend": true, "action": 20000},
                       {"name": "b", "lease": 100, "action": 1}],
        "faults": [{"kind": "clock_jump", "clock": "store", "at": 5, "ms": -1000000},
                   {"kind": "crash", "node": "a", "at": 10}]})";
    const auto parsed = parse_scenario(text, "held-after-runs.json");
    ASSERT_TRUE(parsed.ok()) << parsed.error().to_string();
    EXPECT_GT(compare_runs(parsed.value(), "held-after-runs"), 20'000);
    EXPECT_EQ(simulate(parsed.value()).summary.end_tick, 20'100);  // the record's expiry
}

TEST(QuietTicks, StopsBeforeTheLimitAndTheHorizon) {
    const Scenario scenario = generated(3, 5'000, 7, false);
    Simulation sim(scenario);
    ModelStore store(scenario.lock);
    Collect events;
    bool skipped_any = false;
    while (!sim.finished()) {
        const Tick before = sim.next_tick();
        const Tick limit = before + 5;
        const Tick passed = sim.skip_quiet_ticks(store, limit);
        EXPECT_LE(sim.next_tick(), limit);
        EXPECT_LE(sim.next_tick(), scenario.horizon);
        EXPECT_EQ(sim.next_tick(), before + passed);
        skipped_any = skipped_any || passed > 0;
        if (passed == 0) {
            ASSERT_TRUE(sim.step(store, events).ok());
        }
    }
    EXPECT_TRUE(skipped_any);
    // At the limit itself, nothing is passed.
    Simulation fresh(scenario);
    ModelStore fresh_store(scenario.lock);
    EXPECT_EQ(fresh.skip_quiet_ticks(fresh_store, fresh.next_tick()), 0);
}

TEST(QuietTicks, TimelineSnapshotsMatchTheStateSteppedTo) {
    // The Timeline passes over quiet ticks when it builds and when it seeks:
    // its trace is simulate()'s, and a snapshot is the state stepped to.
    for (const char* name : {"gc-pause-fencing", "auto-extension", "partition-extend", "scheduled-job"}) {
        const Scenario scenario = test::load_preset(name);
        const Timeline timeline(scenario, 8);
        const Trace whole = simulate(scenario);
        EXPECT_TRUE(timeline.trace().events == whole.events) << name;
        Simulation sim(scenario);
        ModelStore store(scenario.lock);
        Collect events;
        while (!sim.finished()) {
            const Tick t = sim.next_tick();
            ASSERT_TRUE(sim.step(store, events).ok());
            const Snapshot stepped = take_snapshot(sim, store, t);
            const Snapshot sought = timeline.snapshot_at(t);
            ASSERT_EQ(stepped.nodes.size(), sought.nodes.size());
            for (std::size_t i = 0; i < stepped.nodes.size(); ++i) {
                EXPECT_EQ(stepped.nodes[i].progress, sought.nodes[i].progress) << name << " tick " << t;
                EXPECT_EQ(stepped.nodes[i].status, sought.nodes[i].status) << name << " tick " << t;
            }
            EXPECT_EQ(stepped.counter, sought.counter) << name << " tick " << t;
        }
    }
}

TEST(QuietTicks, ElectorQuietAdvancesStopBeforeEachWriteFailureAndEnd) {
    ElectorOptions o;
    o.lease = 30;
    o.action = 12;
    o.writes = {3, 7};
    o.fail_at = 9;
    Elector e("node-a", o);
    ModelStore store(LockConfig{"lock", 1, 1});
    e.begin_run(0, "tok");
    ASSERT_TRUE(e.executing() || (e.attempt(0, store), e.executing()));
    // Progress 0: two quiet ticks, then the write at progress 3.
    EXPECT_EQ(e.quiet_advances(), 2);
    e.advance_quietly(2);
    EXPECT_TRUE(e.advance(1).write);
    // Progress 3: three quiet ticks, then the write at 7.
    EXPECT_EQ(e.quiet_advances(), 3);
    e.advance_quietly(3);
    EXPECT_TRUE(e.advance(2).write);
    // Progress 7: one quiet tick, then the failure at 9 (before the end, 12).
    EXPECT_EQ(e.quiet_advances(), 1);
    e.advance_quietly(1);
    const WorkEffect failed = e.advance(3);
    EXPECT_FALSE(failed.write);
    ASSERT_TRUE(failed.ended.has_value());
    EXPECT_EQ(*failed.ended, RunResult::action_failed);
}

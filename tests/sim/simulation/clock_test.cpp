// Clocks that drift and jump (docs/model.md §3.3): the clock arithmetic, the
// store's deadlines on its own clock, the elector's timers on its node's
// monotonic clock, the scenario keys and fault, the trace's clock_jump event,
// and properties over generated scenarios (a clock at true time, or jumps
// that cancel out, change nothing; every run is deterministic).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "leasescope/engine/clock.hpp"
#include "leasescope/engine/elector.hpp"
#include "leasescope/engine/model_store.hpp"
#include "leasescope/sim/generator.hpp"
#include "leasescope/sim/scenario.hpp"
#include "leasescope/sim/simulation.hpp"
#include "leasescope/sim/trace.hpp"

using namespace leasescope;
using namespace leasescope::sim;

namespace {

LockConfig lock_with_drift(std::int32_t drift_ppm) {
    LockConfig lock{"lock", 1, 1};
    lock.clock = DriftClock{50, drift_ppm};
    return lock;
}

Scenario parsed(const std::string& text) {
    auto s = parse_scenario(text, "clock.json");
    EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().to_string());
    return s.value();
}

std::string first_error(const std::string& text) {
    auto s = parse_scenario(text, "clock.json");
    EXPECT_FALSE(s.ok());
    return s.ok() ? "" : s.error().where + ": " + s.error().message;
}

// The events of a trace without the clock_jump events and without seq.
std::vector<Event> without_jumps(const Trace& t) {
    std::vector<Event> out;
    for (Event e : t.events) {
        if (e.op == EventOp::clock_jump) continue;
        e.seq = 0;
        out.push_back(e);
    }
    return out;
}

const Event* find_event(const Trace& t, EventOp op, const std::string& node = "") {
    for (const Event& e : t.events) {
        if (e.op == op && (node.empty() || e.node == node)) return &e;
    }
    return nullptr;
}

// One holder (node-a, lease 10 ticks from tick 0) and a waiter that polls
// every tick; the store's clock as given.
std::string holder_and_waiter(const std::string& store, const std::string& faults) {
    return R"({"name": "clock", "tick_ms": 50, "horizon": 60, )" + store + R"(
      "candidates": [ {"name": "node-a", "wait": 0, "lease": 10, "action": 30, "writes": [30]},
                      {"name": "node-b", "start": 1, "wait": 40, "lease": 10, "action": 2} ],
      "faults": [ )" +
           faults + "]}";
}

}  // namespace

// A clock at true time reads true time; a drift scales it with a floor, and
// the inverse finds the first tick whose middle's reading reaches a value.
TEST(Clock, DriftClockArithmetic) {
    const DriftClock truth{50, 0};
    EXPECT_EQ(truth.reading_at_tick(7), 750);
    EXPECT_EQ(truth.after(7, 3), 10);
    const DriftClock fast{50, 100'000};  // 10 % fast
    EXPECT_EQ(fast.reading(1000), 1100);
    EXPECT_EQ(fast.reading(55), 60);  // 60.5, rounded down
    EXPECT_EQ(fast.first_tick_reaching(fast.reading_at_tick(12)), 12);
    const DriftClock half{50, -500'000};
    EXPECT_EQ(half.reading_at_tick(0), 25);
    EXPECT_EQ(half.after(0, 4), 8);  // 4 ticks of a half-speed clock take 8
    EXPECT_EQ(half.moment_reaching(225), 450);
    EXPECT_EQ(half.first_tick_reaching(0), 0);
}

// §3.3 rule 5: a forward jump of the store's clock ends a record early, at
// the first tick whose store moment has reached its deadline.
TEST(Clock, StoreJumpForwardExpiresARecordEarly) {
    ModelStore store(lock_with_drift(0));
    ASSERT_TRUE(store.do_acquire(0, "a", "tok-a", 10).acquired);
    EXPECT_EQ(store.slots()[0].expires_at, 10);
    store.do_clock_jump(3, 300);  // 6 ticks of 50 ms
    EXPECT_EQ(store.slots()[0].expires_at, 4);
    EXPECT_EQ(store.do_validate(3, "tok-a"), Validity::current);
    // The time left read back is the store's: 50 ms, one tick.
    const AcquireReply busy = store.do_acquire(3, "b", "tok-b", 10);
    EXPECT_FALSE(busy.acquired);
    EXPECT_EQ(busy.remaining, 1);
    EXPECT_EQ(store.do_validate(4, "tok-a"), Validity::vacant);
    std::vector<ExpiredRecord> gone;
    store.do_expire(4, gone);
    ASSERT_EQ(gone.size(), 1u);
    EXPECT_EQ(gone[0].owner, "a");
}

// A jump past the deadline: vacant at once, for any access after the jump,
// and swept in the same tick's expiry phase.
TEST(Clock, StoreJumpPastTheDeadlineEndsTheRecordAtOnce) {
    ModelStore store(lock_with_drift(0));
    ASSERT_TRUE(store.do_acquire(0, "a", "tok-a", 10).acquired);
    store.do_clock_jump(3, 500);
    EXPECT_EQ(store.do_validate(3, "tok-a"), Validity::vacant);
    EXPECT_TRUE(store.do_acquire(3, "b", "tok-b", 10).acquired);  // the slot counts as vacant
}

// A backward jump keeps the record longer.
TEST(Clock, StoreJumpBackwardKeepsARecordLonger) {
    ModelStore store(lock_with_drift(0));
    ASSERT_TRUE(store.do_acquire(0, "a", "tok-a", 10).acquired);
    store.do_clock_jump(3, -300);
    EXPECT_EQ(store.slots()[0].expires_at, 16);
    EXPECT_EQ(store.do_validate(15, "tok-a"), Validity::current);
    EXPECT_EQ(store.do_status(3).slots.at(0).remaining, 13);
}

// A first jump after true time: a kept record and a hold-off keep their
// deadlines (the moments of their ticks) and move with the clock.
TEST(Clock, StoreJumpMovesKeptRecordsAndTheHoldOff) {
    ModelStore store(LockConfig{"lock", 2, 1});
    ASSERT_TRUE(store.do_acquire(0, "a", "tok-a", 20).acquired);
    ASSERT_TRUE(store.do_acquire(0, "b", "tok-b", 20).acquired);
    EXPECT_EQ(store.do_release(1, "tok-a", 9, 0).until, 10);  // kept until tick 10
    store.do_release(1, "tok-b", 0, 12);                      // hold-off until tick 13
    EXPECT_EQ(store.holdoff_until(), 13);
    store.do_clock_jump(2, 200);  // 4 ticks forward
    EXPECT_EQ(store.slots()[0].expires_at, 6);
    EXPECT_EQ(store.holdoff_until(), 9);
    const AcquireReply held_off = store.do_acquire(2, "c", "tok-c", 5);
    EXPECT_FALSE(held_off.acquired);
    EXPECT_EQ(held_off.remaining, 7);
    store.do_clock_jump(3, -400);  // 8 ticks back
    EXPECT_EQ(store.slots()[0].expires_at, 14);
    EXPECT_EQ(store.holdoff_until(), 17);
}

// Drift: a fast store clock ends a lease early, a slow one late (lease 20
// ticks written in tick 0; 10 % either way).
TEST(Clock, StoreDriftFastAndSlow) {
    ModelStore fast(lock_with_drift(100'000));
    ASSERT_TRUE(fast.do_acquire(0, "a", "tok-a", 20).acquired);
    EXPECT_EQ(fast.slots()[0].expires_at, 19);
    ModelStore slow(lock_with_drift(-100'000));
    ASSERT_TRUE(slow.do_acquire(0, "a", "tok-a", 20).acquired);
    EXPECT_EQ(slow.slots()[0].expires_at, 23);
    // The time left is the store's own, in its milliseconds: 20 ticks at once.
    EXPECT_EQ(slow.do_status(0).slots.at(0).remaining, 20);
    // A hold-off is a key with a TTL: on the same clock.
    ModelStore held(lock_with_drift(-100'000));
    ASSERT_TRUE(held.do_acquire(0, "a", "tok-a", 20).acquired);
    held.do_release(0, "tok-a", 0, 20);
    EXPECT_EQ(held.holdoff_until(), 23);
}

// §3.3 rule 7: a node's drift stretches its wait deadline and retry poll.
TEST(Clock, NodeDriftStretchesTheWaitDeadline) {
    ModelStore store(lock_with_drift(0));
    ASSERT_TRUE(store.do_acquire(0, "other", "tok-o", 50).acquired);
    ElectorOptions o;
    o.wait = 4;
    o.lease = 6;
    o.action = 2;
    o.writes = {2};
    o.drift_ppm = -500'000;  // half speed
    Elector e("node-a", o);
    e.begin_run(0, "tok-a");
    EXPECT_EQ(e.deadline(), 8);
    const AttemptEffect first = e.attempt(0, store);
    ASSERT_TRUE(first.reply.has_value());
    EXPECT_EQ(e.next_attempt(), 2);
    ElectorOptions true_time = o;
    true_time.drift_ppm = 0;
    Elector t("node-t", true_time);
    t.begin_run(0, "tok-t");
    EXPECT_EQ(t.deadline(), 4);
}

// §3.3 rule 7: the watchdog's period is measured on the node's clock.
TEST(Clock, NodeDriftStretchesTheWatchdog) {
    ElectorOptions o;
    o.wait = 0;
    o.lease = 6;  // 300 ms: the library's period is 100 ms
    o.action = 20;
    o.writes = {20};
    o.auto_extend = true;
    o.drift_ppm = -500'000;
    ModelStore store(lock_with_drift(0));
    Elector slow("node-a", o);
    slow.begin_run(0, "tok-a");
    slow.attempt(0, store);
    ASSERT_TRUE(slow.executing());
    EXPECT_EQ(slow.next_extend(), 4);  // 200 ms of true time, not 100
    o.drift_ppm = 0;
    ModelStore store2(lock_with_drift(0));
    Elector truth("node-a", o);
    truth.begin_run(0, "tok-a");
    truth.attempt(0, store2);
    EXPECT_EQ(truth.next_extend(), 2);
}

// The scenario keys: the store's clock, a candidate's (or the defaults')
// clock and the clock_jump fault, read and written back.
TEST(Clock, ScenarioKeysReadAndWriteBack) {
    const Scenario s = parsed(R"({"name": "c", "store": {"clock": {"drift_ppm": -2500}},
      "defaults": {"wait": 1, "lease": 4, "action": 2, "clock": {"drift_ppm": 300}},
      "candidates": [{"name": "node-a"}, {"name": "node-b", "clock": {"drift_ppm": -7}}],
      "faults": [{"kind": "clock_jump", "clock": "store", "at": 2, "ms": -250},
                 {"kind": "clock_jump", "clock": "node-b", "at": 3, "ms": 90}]})");
    EXPECT_EQ(s.lock.clock.drift_ppm, -2500);
    EXPECT_EQ(s.lock.clock.tick_ms, 50);
    EXPECT_EQ(s.candidates[0].options.drift_ppm, 300);
    EXPECT_EQ(s.candidates[1].options.drift_ppm, -7);
    ASSERT_EQ(s.faults.size(), 2u);
    EXPECT_EQ(s.faults[0].kind, FaultKind::clock_jump);
    EXPECT_EQ(s.faults[0].node, -1);
    EXPECT_EQ(s.faults[0].ms, -250);
    EXPECT_EQ(s.faults[1].node, 1);
    const Scenario back = parsed(scenario_to_json(s));
    EXPECT_EQ(scenario_to_json(back), scenario_to_json(s));
    EXPECT_EQ(back.lock.clock.drift_ppm, -2500);
    EXPECT_EQ(back.faults[1].ms, 90);
    // At true time nothing is written: a scenario without clocks stays as it was.
    const std::string plain = scenario_to_json(parsed(R"({"name": "p", "defaults": {"wait": 1, "lease": 4,
      "action": 2}, "candidates": [{"name": "node-a"}]})"));
    EXPECT_EQ(plain.find("clock"), std::string::npos);
    EXPECT_EQ(plain.find("store"), std::string::npos);
}

// Bad clocks: JSON paths and what was expected.
TEST(Clock, BadClocksNameTheirPath) {
    const std::string head = R"({"name": "c", "defaults": {"wait": 1, "lease": 4, "action": 2},
      "candidates": [{"name": "node-a"}], )";
    EXPECT_EQ(first_error(head + R"("store": {"clock": {"drift_ppm": 1000000}}})").rfind("/store/clock/drift_ppm", 0),
              0u);
    EXPECT_EQ(first_error(head + R"("store": {"clok": {}}})").rfind("/store/clok", 0), 0u);
    EXPECT_EQ(first_error(head + R"("faults": [{"kind": "clock_jump", "clock": "store", "at": 1, "ms": 0}]})")
                  .rfind("/faults/0/ms", 0),
              0u);
    EXPECT_NE(first_error(head + R"("faults": [{"kind": "clock_jump", "clock": "store", "at": 1,
      "ms": 1000000000001}]})")
                  .find("1000000000000"),
              std::string::npos);
    EXPECT_EQ(first_error(head + R"("faults": [{"kind": "clock_jump", "clock": "node-z", "at": 1, "ms": 5}]})")
                  .rfind("/faults/0/clock", 0),
              0u);
    EXPECT_EQ(
        first_error(head + R"("faults": [{"kind": "clock_jump", "clock": "store", "at": 1}]})").find("missing \"ms\""),
        std::string("/faults/0: ").size());
    // A candidate named "store" makes the store's clock ambiguous.
    EXPECT_EQ(first_error(R"({"name": "c", "defaults": {"wait": 1, "lease": 4, "action": 2},
      "candidates": [{"name": "store"}], "faults": [{"kind": "clock_jump", "clock": "store", "at": 1, "ms": 5}]})")
                  .rfind("/faults/0/clock", 0),
              0u);
    EXPECT_EQ(first_error(R"({"name": "c", "defaults": {"wait": 1, "lease": 4, "action": 2, "clock": {"drift": 1}},
      "candidates": [{"name": "node-a"}]})")
                  .rfind("/defaults/clock/drift", 0),
              0u);
}

// The simulation: a store jump forward at tick 3 expires node-a's record in
// the expiry phase of tick 4 instead of 10, and node-b takes the lock then.
TEST(Clock, SimulatedStoreJumpExpiresEarlyAndIsAnEvent) {
    const Trace before = simulate(parsed(holder_and_waiter("", "")));
    const Trace after = simulate(parsed(holder_and_waiter("", R"({"kind": "clock_jump", "clock": "store", "at": 3,
      "ms": 300})")));
    ASSERT_NE(find_event(before, EventOp::expire), nullptr);
    EXPECT_EQ(find_event(before, EventOp::expire)->tick, 10);
    const Event* jump = find_event(after, EventOp::clock_jump);
    ASSERT_NE(jump, nullptr);
    EXPECT_EQ(jump->tick, 3);
    EXPECT_EQ(jump->node, "store");
    EXPECT_EQ(detail_text(*jump), "300");
    ASSERT_NE(find_event(after, EventOp::expire), nullptr);
    EXPECT_EQ(find_event(after, EventOp::expire)->tick, 4);
    // The line is canonical and reads back.
    std::string line;
    append_event_line(line, *jump);
    EXPECT_NE(line.find(R"("op":"clock_jump")"), std::string::npos);
    EXPECT_NE(line.find(R"("detail":"300")"), std::string::npos);
}

// §3.3 rule 8: a node's jump is an event and changes nothing else.
TEST(Clock, NodeJumpChangesNothingButItsEvent) {
    const Trace plain = simulate(parsed(holder_and_waiter("", "")));
    const Trace jumped = simulate(parsed(holder_and_waiter("", R"({"kind": "clock_jump", "clock": "node-a",
      "at": 3, "ms": -5000}, {"kind": "clock_jump", "clock": "node-b", "at": 4, "ms": 9000})")));
    const Event* jump = find_event(jumped, EventOp::clock_jump, "node-a");
    ASSERT_NE(jump, nullptr);
    EXPECT_EQ(detail_text(*jump), "-5000");
    EXPECT_EQ(jumped.events.size(), plain.events.size() + 2);
    EXPECT_TRUE(without_jumps(jumped) == without_jumps(plain));
}

// A slow client clock lets the lease lapse before its watchdog runs: the
// record expires while node-a still works (the client-clock-drift story).
TEST(Clock, SlowClientClockLetsTheLeaseLapse) {
    auto scenario = [](int drift) {
        return R"({"name": "drift", "horizon": 40, "candidates": [
          {"name": "node-a", "wait": 0, "lease": 6, "action": 20, "auto_extend": true,
           "clock": {"drift_ppm": )" +
               std::to_string(drift) + R"(}}]})";
    };
    EXPECT_EQ(find_event(simulate(parsed(scenario(0))), EventOp::expire), nullptr);
    const Trace slow = simulate(parsed(scenario(-700'000)));
    const Event* expired = find_event(slow, EventOp::expire);
    ASSERT_NE(expired, nullptr);
    EXPECT_EQ(expired->tick, 6);
}

// Properties over generated scenarios: store jumps that cancel out in one
// tick and any node jumps change nothing but their events; drift and jumps
// give the same trace twice (determinism).
TEST(Clock, GeneratedScenariosCancellingJumpsAndDeterminism) {
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
        auto text = generate_scenario({static_cast<std::int64_t>(seed % 7 + 2), 300, seed, seed % 2 == 0, true});
        auto parsed_scenario = parse_scenario(text, "gen.json");
        ASSERT_TRUE(parsed_scenario.ok());
        const Scenario base = parsed_scenario.value();
        Scenario jumped = base;
        const Tick at = static_cast<Tick>(seed * 7 % 250);
        const auto ms = static_cast<std::int64_t>(seed * 37 % 900 + 1);
        jumped.faults.push_back(Fault{FaultKind::clock_jump, -1, at, 0, {}, {}, ms});
        jumped.faults.push_back(Fault{FaultKind::clock_jump, -1, at, 0, {}, {}, -ms});
        jumped.faults.push_back(Fault{FaultKind::clock_jump, 0, at + 3, 0, {}, {}, ms * 11});
        const Trace a = simulate(base);
        const Trace b = simulate(jumped);
        EXPECT_TRUE(without_jumps(a) == without_jumps(b)) << "seed " << seed;

        Scenario drifting = jumped;
        drifting.lock.clock.drift_ppm = static_cast<std::int32_t>(seed * 9973 % 400'000) - 200'000;
        for (std::size_t i = 0; i < drifting.candidates.size(); ++i)
            drifting.candidates[i].options.drift_ppm = static_cast<std::int32_t>((seed + i) * 7919 % 600'000) - 300'000;
        drifting.faults.push_back(Fault{FaultKind::clock_jump, -1, at + 5, 0, {}, {}, ms * 3});
        const Trace once = simulate(drifting);
        const Trace twice = simulate(drifting);
        EXPECT_EQ(once.summary.trace_sha256, twice.summary.trace_sha256) << "seed " << seed;
    }
}

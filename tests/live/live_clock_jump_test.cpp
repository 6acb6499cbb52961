// A store's clock jump in live mode (docs/model.md §13.6): no clock moves; one
// script moves the deadlines of the lock's records and hold-off by whole ticks.
// Pinned here: the step's size, what the step does to the keys on a real
// server (a test that fails if the step is not sent), that live runs with a
// jump forward and back, on a held record and on a hold-off, are identical to
// their simulations, and what live mode still refuses.
#include <gtest/gtest.h>

#include <unistd.h>

#include "leasescope/live/live_driver.hpp"
#include "leasescope/live/os_token_source.hpp"
#include "leasescope/redis/live_timing.hpp"
#include "leasescope/redis/redis_store.hpp"
#include "leasescope/sim/simulation.hpp"
#include "support/live_compare_support.hpp"
#include "support/live_test_support.hpp"

using namespace leasescope;

namespace {

sim::Scenario parse_jump_scenario(const std::string& text, const std::string& path) {
    auto parsed = sim::parse_scenario(text, path);
    if (!parsed.ok()) {
        ADD_FAILURE() << parsed.error().to_string();
        return {};
    }
    return parsed.value();
}

// node-a holds from tick 0 and releases at tick 3 with a hold-off of 3 ticks
// (until tick 6); the store's clock jumps `ms` at tick 4; node-b waits for it.
sim::Scenario hold_off_jump_scenario(std::int64_t ms) {
    const std::string text =
        R"({"name":"holdoff-jump","tick_ms":50,"horizon":30,"seed":5,"lock":{"name":"holdoff-jump"},)"
        R"("defaults":{"lease":10,"action":3},"candidates":[{"name":"node-a","start":0,"wait":1,"hold_off":3},)"
        R"({"name":"node-b","start":1,"wait":12}],"faults":[{"kind":"clock_jump","clock":"store","at":4,"ms":)" +
        std::to_string(ms) + "}]}";
    return parse_jump_scenario(text, "holdoff-jump");
}

}  // namespace

TEST(LiveClockJump, StepIsWholeTicksRoundedDown) {
    EXPECT_EQ(redis::clock_jump_step_ms(300, 50), 300);
    EXPECT_EQ(redis::clock_jump_step_ms(300, 200), 200);
    EXPECT_EQ(redis::clock_jump_step_ms(49, 50), 0);
    EXPECT_EQ(redis::clock_jump_step_ms(-20, 50), -50);
    EXPECT_EQ(redis::clock_jump_step_ms(-50, 50), -50);
    EXPECT_EQ(redis::clock_jump_step_ms(-1050, 200), -1200);
}

// The step on one server, in long ticks (1 s) so that no timing can blur it:
// a jump forward shortens what PTTL reads back by its whole ticks, a jump back
// lengthens it, for the held record and for the hold-off; the counter keeps no
// TTL; a jump past a record's deadline deletes it and expire reports it. Fails
// when the store sends no step (every time left stays where it was).
TEST(LiveClockJump, StepMovesTheRecordAndTheHoldOffOnTheServer) {
    const redis::RedisUrl url = live_test::parsed_url_or_fail();
    LockConfig config;
    config.name = "clockjump-" + std::to_string(::getpid());
    config.capacity = 2;
    auto connected = redis::RedisStore::connect(url, config, 1'000);
    ASSERT_TRUE(connected.ok()) << connected.error().message;
    redis::RedisStore& store = *connected.value();
    ASSERT_TRUE(store.reset_namespace().ok());
    // The lock's keys go even when an assertion below stops the test.
    struct RemoveAtEnd {
        redis::RedisStore& store;
        ~RemoveAtEnd() { (void)store.remove_namespace(); }
    } remove_at_end{store};
    live::OsTokenSource tokens;
    const Token a = tokens.next_token({});
    const Token b = tokens.next_token({});
    ASSERT_TRUE(store.acquire(0, "a", a, 10).value().acquired);
    ASSERT_TRUE(store.acquire(0, "b", b, 4).value().acquired);
    ASSERT_TRUE(store.clock_jump(0, 3'000).ok());  // forward 3 ticks
    auto status = store.status(0).value();
    ASSERT_EQ(status.slots.size(), 2u);
    EXPECT_EQ(status.slots[0].remaining, 7);
    EXPECT_EQ(status.slots[1].remaining, 1);
    ASSERT_TRUE(store.clock_jump(0, -4'500).ok());  // back: ⌊−4.5⌋ = −5 ticks
    status = store.status(0).value();
    EXPECT_EQ(status.slots[0].remaining, 12);
    EXPECT_EQ(status.slots[1].remaining, 6);
    ASSERT_EQ(store.release(0, b, 0, 4).value().outcome, ReleaseOutcome::released);
    EXPECT_EQ(store.status(0).value().holdoff_remaining, 4);
    ASSERT_TRUE(store.clock_jump(0, 2'000).ok());
    EXPECT_EQ(store.status(0).value().holdoff_remaining, 2);
    ASSERT_TRUE(store.clock_jump(0, -1'000).ok());
    EXPECT_EQ(store.status(0).value().holdoff_remaining, 3);
    auto counter_ttl = store.connection().command({"PTTL", store.keys().counter()});
    ASSERT_TRUE(counter_ttl.ok());
    EXPECT_EQ(counter_ttl.value()->integer, -1);    // the counter has no deadline to move
    ASSERT_TRUE(store.clock_jump(0, 12'000).ok());  // past a's deadline and the hold-off's
    status = store.status(0).value();
    EXPECT_TRUE(status.slots.empty());
    EXPECT_EQ(status.holdoff_remaining, 0);
    const auto expired = store.expire(0).value();
    ASSERT_EQ(expired.size(), 1u);
    EXPECT_EQ(expired[0].token, a);
}

TEST(LiveClockJump, HeldRecordForwardAndBackRunIdentical) {
    const std::string url_text = live_test::redis_url_or_fail();
    ASSERT_FALSE(url_text.empty());
    for (const std::int64_t ms : {300, -300, 70, -20}) {
        SCOPED_TRACE(ms);
        sim::Scenario s = live_test::load_preset("store-clock-jump");
        ASSERT_EQ(s.faults.size(), 1u);
        s.faults[0].ms = ms;
        live_test::expect_live_equals_simulation(s, url_text);
    }
}

TEST(LiveClockJump, HoldOffForwardAndBackRunIdentical) {
    const std::string url_text = live_test::redis_url_or_fail();
    ASSERT_FALSE(url_text.empty());
    for (const std::int64_t ms : {100, -100, -20}) {
        SCOPED_TRACE(ms);
        live_test::expect_live_equals_simulation(hold_off_jump_scenario(ms), url_text);
    }
}

// What a step cannot stand for stays refused (model.md §13.6 rule 4): a
// store jump beside replicas, a second jump that is not whole ticks, and a
// drift. One such jump, or whole-tick ones, run.
TEST(LiveClockJump, RefusesWhatAStepCannotStandFor) {
    sim::Scenario s = hold_off_jump_scenario(70);
    EXPECT_EQ(live::simulated_only(s), std::nullopt);
    sim::Fault second = s.faults[0];
    second.at = 6;
    second.ms = 100;
    s.faults.push_back(second);
    EXPECT_EQ(live::simulated_only(s), std::nullopt);
    s.faults[1].ms = 30;
    const auto refused = live::simulated_only(s);
    ASSERT_TRUE(refused);
    EXPECT_NE(refused->find("fault 1 (/faults/1) jumps the store's clock by 30 ms"), std::string::npos) << *refused;
    sim::Scenario replicas = hold_off_jump_scenario(100);
    replicas.lock.replication.replicas = 1;
    const auto with_replicas = live::simulated_only(replicas);
    ASSERT_TRUE(with_replicas);
    EXPECT_NE(with_replicas->find("with replicas"), std::string::npos) << *with_replicas;
    sim::Scenario drift = hold_off_jump_scenario(100);
    drift.lock.clock.drift_ppm = 1000;
    ASSERT_TRUE(live::simulated_only(drift));
}

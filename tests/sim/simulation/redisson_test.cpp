// Redisson's RLock (docs/model.md §21, redisson-parent-3.31.0): one test per
// rule, each on a small inline scenario, and the input a Redisson scenario
// refuses.
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "leasescope/sim/scenario.hpp"
#include "leasescope/sim/simulation.hpp"
#include "support/trace_test_helpers.hpp"

namespace {

using namespace leasescope;
using sim::Event;
using sim::EventOp;
using sim::Outcome;
using trace_test::find;

// Tick 100 ms; lease 10 ticks (1 s), wait 50 ticks (5 s), action 5 ticks;
// `extra` is spliced into the top level (faults, redisson options, …).
std::string scenario(const std::string& candidates, const std::string& extra = "") {
    return R"({"name": "rs", "tick_ms": 100, "horizon": 500, "client": "redisson",
               "defaults": {"wait": 50, "lease": 10, "action": 5}, "candidates": [)" +
           candidates + "]" + extra + "}";
}

sim::Trace run(const std::string& text) { return sim::simulate(trace_test::parse(text)); }

std::string error_of(const std::string& text) {
    auto s = sim::parse_scenario(text, "rs.json");
    return s.ok() ? std::string("(accepted)") : s.error().to_string();
}

std::vector<Tick> ticks_of(const std::vector<Event>& events) {
    std::vector<Tick> out;
    for (const Event& e : events) out.push_back(e.tick);
    return out;
}

// A watchdog client: lockWatchdogTimeout 3 s (30 ticks), renewed every 1 s.
const std::string watchdog = R"(, "redisson": {"lock_watchdog_timeout_ms": 3000})";

// Rules 21.2.1-21.2.2: the lock script sets the client's field
// "<uuid>:<thread id>" with the lease as TTL; the trace is /6; the field is
// the same for every run of one candidate.
TEST(Redisson, TheLockScriptSetsTheClientsField) {
    const sim::Trace t = run(scenario(R"({"name": "a", "runs": 2, "every": 10})"));
    EXPECT_EQ(t.header.format, 6);
    const auto acquired = find(t, "a", EventOp::acquire);
    ASSERT_EQ(acquired.size(), 2u);
    EXPECT_EQ(acquired[0].outcome, Outcome::acquired);
    EXPECT_EQ(acquired[0].ttl, 10);
    EXPECT_FALSE(acquired[0].fencing);
    const std::regex uuid("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}:1");
    EXPECT_TRUE(std::regex_match(acquired[0].token, uuid)) << acquired[0].token;
    EXPECT_EQ(acquired[1].token, acquired[0].token);
    EXPECT_EQ(acquired[1].tick, 10);
    const auto released = find(t, "a", EventOp::release);
    ASSERT_EQ(released.size(), 2u);
    EXPECT_EQ(released[0].tick, 5);
    EXPECT_EQ(released[0].outcome, Outcome::released);
    EXPECT_EQ(trace_test::result_of(t, "a"), "elected");
}

// Rule 21.2.3: the same field re-enters and raises the hold count, so one
// unlock leaves the key (kept) until its TTL.
TEST(Redisson, ReentranceRaisesTheHoldCount) {
    const std::string faults = R"(, "faults": [{"kind": "partition", "node": "a", "at": 2, "ticks": 1}])";
    const sim::Trace t = run(scenario(R"({"name": "a", "runs": 2, "every": 10, "action": 2, "lease": 50})", faults));
    const auto released = find(t, "a", EventOp::release);
    ASSERT_EQ(released.size(), 2u);
    EXPECT_EQ(released[0].outcome, Outcome::error);  // the first unlock never reached the store
    EXPECT_EQ(released[1].tick, 12);
    EXPECT_EQ(released[1].outcome, Outcome::kept);  // 2 - 1 = 1: pexpire, answer 0
    const auto expired = find(t, "a", EventOp::expire);
    ASSERT_EQ(expired.size(), 1u);
    EXPECT_EQ(expired[0].tick, 62);  // the kept key's TTL is the lease again, from tick 12
}

// Rules 21.3.2-21.3.4: busy, then subscribe and attempt again at once: two
// attempts in the first tick, each told the holder's PTTL.
TEST(Redisson, ABusyRunAttemptsTwiceInItsFirstTick) {
    const sim::Trace t = run(scenario(R"({"name": "a"}, {"name": "b", "start": 1})"));
    const auto b = find(t, "b", EventOp::acquire);
    ASSERT_GE(b.size(), 3u);
    EXPECT_EQ(b[0].tick, 1);
    EXPECT_EQ(b[1].tick, 1);
    EXPECT_EQ(b[0].outcome, Outcome::busy);
    EXPECT_EQ(b[1].outcome, Outcome::busy);
    EXPECT_EQ(b[0].ttl, 9);  // 900 ms left
}

// Rule 21.3.2: waitTime 0 is one attempt, then false.
TEST(Redisson, WaitZeroIsOneAttempt) {
    const sim::Trace t = run(scenario(R"({"name": "a"}, {"name": "b", "start": 1, "wait": 0})"));
    EXPECT_EQ(find(t, "b", EventOp::acquire).size(), 1u);
    const auto skips = find(t, "b", EventOp::skip);
    ASSERT_EQ(skips.size(), 1u);
    EXPECT_EQ(skips[0].tick, 1);
    EXPECT_EQ(trace_test::result_of(t, "b"), "skipped");
}

// Rules 21.5.1-21.5.2, 21.3.6: the unlock deletes the key and publishes;
// the subscribed waiter gets a permit and acquires in that same tick.
TEST(Redisson, TheUnlockMessageWakesTheWaiter) {
    const sim::Trace t = run(scenario(R"({"name": "a"}, {"name": "b", "start": 1})"));
    const auto messages = find(t, "b", EventOp::message);
    ASSERT_EQ(messages.size(), 1u);
    EXPECT_EQ(messages[0].tick, 5);
    EXPECT_EQ(messages[0].phase, sim::Phase::work);
    EXPECT_EQ(messages[0].outcome, Outcome::delivered);
    const auto b = find(t, "b", EventOp::acquire);
    ASSERT_EQ(b.size(), 3u);
    EXPECT_EQ(b[2].tick, 5);
    EXPECT_EQ(b[2].outcome, Outcome::acquired);
}

// Rule 21.5.3: a drop_replies partition at the PUBLISH loses the message;
// the waiter sleeps until the PTTL it was told (900 ms from tick 1) runs out.
TEST(Redisson, ALostMessageCostsTheTtlItWasTold) {
    const std::string faults =
        R"(, "faults": [{"kind": "partition", "node": "b", "at": 5, "ticks": 1, "mode": "drop_replies"}])";
    const sim::Trace t = run(scenario(R"({"name": "a"}, {"name": "b", "start": 1})", faults));
    const auto messages = find(t, "b", EventOp::message);
    ASSERT_EQ(messages.size(), 1u);
    EXPECT_EQ(messages[0].outcome, Outcome::lost);
    const auto b = find(t, "b", EventOp::acquire);
    ASSERT_EQ(b.size(), 3u);
    EXPECT_EQ(b[2].tick, 10);
    EXPECT_EQ(b[2].outcome, Outcome::acquired);
    // drop_requests cuts only what the node sends: the message arrives.
    const std::string requests =
        R"(, "faults": [{"kind": "partition", "node": "b", "at": 5, "ticks": 1, "mode": "drop_requests"}])";
    const sim::Trace u = run(scenario(R"({"name": "a"}, {"name": "b", "start": 1})", requests));
    EXPECT_EQ(find(u, "b", EventOp::message).at(0).outcome, Outcome::delivered);
}

// Rule 21.3.4: the budget spent after a timed wait gives up without an attempt.
TEST(Redisson, ASpentBudgetGivesUpWithoutAnAttempt) {
    const sim::Trace t =
        run(scenario(R"({"name": "a", "action": 30, "lease": 40}, {"name": "b", "start": 1, "wait": 5})"));
    EXPECT_EQ(ticks_of(find(t, "b", EventOp::acquire)), (std::vector<Tick>{1, 1}));
    const auto skips = find(t, "b", EventOp::skip);
    ASSERT_EQ(skips.size(), 1u);
    EXPECT_EQ(skips[0].tick, 6);  // waited min(PTTL, 500 ms) from tick 1
}

// Rule 21.3.5: the budget is counted on the wall clock, so a jump forward of
// the waiter's clock spends it: woken by the message, it gives up.
TEST(Redisson, AWallClockJumpSpendsTheBudget) {
    const std::string candidates = R"({"name": "a", "action": 10, "lease": 40}, {"name": "b", "start": 1, "wait": 20})";
    const sim::Trace calm = run(scenario(candidates));
    EXPECT_EQ(find(calm, "b", EventOp::acquire).back().tick, 10);
    EXPECT_EQ(trace_test::result_of(calm, "b"), "elected");
    const std::string jump = R"(, "faults": [{"kind": "clock_jump", "clock": "b", "at": 3, "ms": 1500}])";
    const sim::Trace t = run(scenario(candidates, jump));
    EXPECT_EQ(find(t, "b", EventOp::acquire).size(), 2u);
    ASSERT_EQ(find(t, "b", EventOp::skip).size(), 1u);
    EXPECT_EQ(find(t, "b", EventOp::skip)[0].tick, 10);
}

// Rules 21.4.1-21.4.3: with no lease the TTL is lockWatchdogTimeout, renewed
// every third of it after the previous renewal; the unlock stops it.
TEST(Redisson, TheWatchdogRenewsEveryThird) {
    const sim::Trace t = run(scenario(R"({"name": "a", "auto_extend": true, "action": 100})", watchdog));
    EXPECT_EQ(find(t, "a", EventOp::acquire).at(0).ttl, 30);
    EXPECT_EQ(ticks_of(find(t, "a", EventOp::extend)), (std::vector<Tick>{10, 20, 30, 40, 50, 60, 70, 80, 90}));
    EXPECT_TRUE(find(t, "a", EventOp::expire).empty());
    EXPECT_EQ(find(t, "a", EventOp::release).at(0).outcome, Outcome::released);
}

// Rule 21.4.4 (3.31.0): one failed renewal stops the watchdog for good; the
// key expires 3 s after the last good one while the action goes on, the
// waiter takes it, and the old holder's write is unsafe, its unlock refused.
TEST(Redisson, AWatchdogErrorStopsRenewalForGood) {
    const std::string extra = watchdog + R"(, "faults": [{"kind": "partition", "node": "a", "at": 20, "ticks": 1}])";
    const sim::Trace t =
        run(scenario(R"({"name": "a", "auto_extend": true, "action": 100}, {"name": "b", "start": 1, "wait": 100,
                        "auto_extend": true, "action": 100})",
                     extra));
    const auto extends = find(t, "a", EventOp::extend);
    ASSERT_EQ(extends.size(), 2u);
    EXPECT_EQ(extends[1].tick, 20);
    EXPECT_EQ(extends[1].outcome, Outcome::error);
    EXPECT_EQ(find(t, "a", EventOp::expire).at(0).tick, 40);
    EXPECT_EQ(find(t, "b", EventOp::acquire).back().tick, 40);
    const auto writes = find(t, "a", EventOp::write);
    ASSERT_EQ(writes.size(), 1u);
    EXPECT_TRUE(writes[0].details.has(sim::Detail::unsafe_write));
    EXPECT_TRUE(writes[0].details.has(sim::Detail::stale));
    EXPECT_EQ(find(t, "a", EventOp::release).at(0).outcome, Outcome::not_owner);
    EXPECT_EQ(trace_test::result_of(t, "a"), "elected");
    EXPECT_GE(t.summary.violations.overlap, 1);
    EXPECT_EQ(t.summary.violations.unsafe_write, 1);
}

// Rules 21.7.1, 21.4.3: a GC pause longer than the TTL loses the lock; the
// late renewal after it answers 0 and the watchdog stops.
TEST(Redisson, APauseOutlivesTheWatchdogTtl) {
    const std::string extra = watchdog + R"(, "faults": [{"kind": "pause", "node": "a", "at": 5, "ticks": 40}])";
    const sim::Trace t = run(scenario(R"({"name": "a", "auto_extend": true, "action": 60})", extra));
    EXPECT_EQ(find(t, "a", EventOp::expire).at(0).tick, 30);
    const auto extends = find(t, "a", EventOp::extend);
    ASSERT_EQ(extends.size(), 1u);
    EXPECT_EQ(extends[0].tick, 45);
    EXPECT_EQ(extends[0].outcome, Outcome::lost);
}

// Rule 21.5.1: an unlock by a client whose field no longer holds the key
// answers nil (IllegalMonitorStateException); the run stays elected.
TEST(Redisson, UnlockByANonOwnerIsRefused) {
    const sim::Trace t = run(scenario(R"({"name": "a", "action": 20}, {"name": "b", "start": 1})"));
    EXPECT_EQ(find(t, "a", EventOp::expire).at(0).tick, 10);
    EXPECT_EQ(find(t, "b", EventOp::acquire).back().tick, 10);
    const auto released = find(t, "a", EventOp::release);
    ASSERT_EQ(released.size(), 1u);
    EXPECT_EQ(released[0].outcome, Outcome::not_owner);
    EXPECT_EQ(trace_test::result_of(t, "a"), "elected");
    EXPECT_EQ(find(t, "b", EventOp::release).at(0).outcome, Outcome::released);
}

// Rule 21.7.2: a crash unlocks nothing; the key lives until its TTL.
TEST(Redisson, ACrashLeavesTheKeyUntilItsTtl) {
    const std::string extra = watchdog + R"(, "faults": [{"kind": "crash", "node": "a", "at": 5}])";
    const sim::Trace t = run(scenario(R"({"name": "a", "auto_extend": true, "action": 60})", extra));
    EXPECT_TRUE(find(t, "a", EventOp::release).empty());
    EXPECT_EQ(find(t, "a", EventOp::expire).at(0).tick, 30);
    EXPECT_EQ(trace_test::result_of(t, "a"), "crashed");
}

// Rule 21.7.3: a partitioned attempt throws (acquire_failed); under
// drop_replies the store took the lock, an orphan until its TTL.
TEST(Redisson, APartitionedAttemptFails) {
    const std::string faults =
        R"(, "faults": [{"kind": "partition", "node": "a", "at": 0, "ticks": 1, "mode": "drop_replies"}])";
    const sim::Trace t = run(scenario(R"({"name": "a"})", faults));
    const auto a = find(t, "a", EventOp::acquire);
    ASSERT_EQ(a.size(), 1u);
    EXPECT_EQ(a[0].outcome, Outcome::error);
    EXPECT_TRUE(a[0].details.has(sim::Detail::reply_lost));
    EXPECT_EQ(trace_test::result_of(t, "a"), "acquire_failed");
    EXPECT_EQ(find(t, "a", EventOp::expire).at(0).tick, 10);
}

// Rule 21.9.1: a /6 trace reads back as written; its op and outcome are /6's only.
TEST(Redisson, TheTraceIsFormat6) {
    const sim::Trace t = run(scenario(R"({"name": "a"}, {"name": "b", "start": 1})"));
    const std::string bytes = trace_test::trace_bytes(t);
    EXPECT_NE(bytes.find(R"("format":"leasescope-trace/6")"), std::string::npos);
    EXPECT_NE(bytes.find(R"("client":"redisson")"), std::string::npos);
    auto back = sim::parse_trace(bytes, "t.jsonl");
    ASSERT_TRUE(back.ok()) << back.error().to_string();
    EXPECT_EQ(trace_test::trace_bytes(back.value()), bytes);
    std::string as2 = bytes;
    as2.replace(as2.find("leasescope-trace/6"), 18, "leasescope-trace/2");
    as2.replace(as2.find(R"(,"client":"redisson")"), 20, "");
    auto refused = sim::parse_trace(as2, "t.jsonl");
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.error().to_string().find("op \"message\" is not in format"), std::string::npos)
        << refused.error().to_string();
}

// Rule 21.1.3: what the redisson client does not have, at its JSON path.
TEST(Redisson, RefusesWhatItDoesNotHave) {
    EXPECT_NE(error_of(scenario(R"({"name": "a", "min_lease": 1})")).find("/candidates/0/min_lease"),
              std::string::npos);
    EXPECT_NE(error_of(scenario(R"({"name": "a", "retry_every": 2})")).find("Redisson does not poll"),
              std::string::npos);
    EXPECT_NE(error_of(scenario(R"({"name": "a"})", R"(, "order": "shuffled")")).find("/order"), std::string::npos);
    EXPECT_NE(error_of(scenario(R"({"name": "a"})", R"(, "resource": {"mode": "check"})")).find("/resource/mode"),
              std::string::npos);
    EXPECT_NE(error_of(scenario(R"({"name": "a", "network": {"reply": 1}})")).find("/candidates/0/network"),
              std::string::npos);
    EXPECT_NE(error_of(scenario(R"({"name": "a"})", R"(, "redisson": {"lock_watchdog_timeout_ms": 2})"))
                  .find("/redisson/lock_watchdog_timeout_ms"),
              std::string::npos);
    EXPECT_NE(error_of(scenario(R"({"name": "a"})", R"(, "redisson": {"watchdog": 2})")).find("/redisson"),
              std::string::npos);
    EXPECT_NE(error_of(scenario(R"({"name": "a"})",
                                R"(, "faults": [{"kind": "delay", "node": "a", "at": 0, "ticks": 1, "link": "write",
                                    "extra": 1}])"))
                  .find("/faults/0/kind"),
              std::string::npos);
    const std::string elector = R"({"name": "e", "redisson": {}, "candidates": [{"name": "a", "wait": 0, "lease": 1,
                                   "action": 1}]})";
    EXPECT_NE(error_of(elector).find("/redisson: these are Redisson's options"), std::string::npos)
        << error_of(elector);
    // A scenario written back reads back the same.
    const sim::Scenario s = trace_test::parse(scenario(R"({"name": "a", "auto_extend": true})", watchdog));
    auto again = sim::parse_scenario(sim::scenario_to_json(s), "again.json");
    ASSERT_TRUE(again.ok()) << again.error().to_string();
    EXPECT_TRUE(again.value().is_redisson());
    EXPECT_EQ(again.value().redisson.lock_watchdog_timeout_ms, 3000);
}

}  // namespace

// Unit tests of the elector rules of DESIGN §5, driven tick by tick by hand.
#include <gtest/gtest.h>

#include "leasescope/engine/elector.hpp"
#include "leasescope/engine/model_store.hpp"
#include "leasescope/engine/run_if_leader.hpp"

using namespace leasescope;

namespace {

// Every call fails as a dead connection would.
class DownStore final : public Store {
public:
    StoreResult<AcquireReply> acquire(Tick, std::string_view, std::string_view, Tick) override { return down(); }
    StoreResult<ExtendReply> extend(Tick, std::string_view, Tick) override { return down(); }
    StoreResult<ReleaseReply> release(Tick, std::string_view, Tick, Tick) override { return down(); }
    StoreResult<StatusReply> status(Tick) override { return down(); }
    StoreResult<Validity> validate(Tick, std::string_view) override { return down(); }
    StoreResult<std::vector<ExpiredRecord>> expire(Tick) override { return down(); }
    StoreResult<Unit> failover(Tick, FailoverLoss) override { return down(); }

private:
    static Err<StoreError> down() { return Err{StoreError{"down", true}}; }
};

ElectorOptions options(Tick wait, Tick lease, Tick action) {
    ElectorOptions o;
    o.wait = wait;
    o.lease = lease;
    o.action = action;
    o.extend_every = default_extend_every(lease);
    o.writes = {action};
    return o;
}

ModelStore held_store() {
    ModelStore s(LockConfig{"lock", 1, 1});
    s.do_acquire(0, "other", "other-token", 100);
    return s;
}

// Drives the acquiring phase from `from` to `to`, returning the ticks with an attempt.
std::vector<Tick> attempt_ticks(Elector& e, Store& store, Tick from, Tick to) {
    std::vector<Tick> ticks;
    for (Tick t = from; t <= to && e.state() == ElectorState::waiting; ++t) {
        if (!e.attempt_due(t, true)) continue;
        ticks.push_back(t);
        (void)e.attempt(t, store);
    }
    return ticks;
}

}  // namespace

// waitTime 0 is a do-while: exactly one attempt, then skipped.
TEST(ElectorAcquire, WaitZeroIsOneAttempt) {
    auto store = held_store();
    Elector e("a", options(0, 5, 3));
    e.begin_run(0, "t");
    EXPECT_EQ(attempt_ticks(e, store, 0, 10), std::vector<Tick>({0}));
    EXPECT_EQ(e.runs()[0].result, RunResult::skipped);
}

// Attempts at the start, every retry_every, and one last exactly at the deadline.
TEST(ElectorAcquire, RetryCadenceEndsAtDeadline) {
    auto store = held_store();
    auto o = options(5, 5, 3);
    o.retry_every = 2;
    Elector e("a", o);
    e.begin_run(3, "t");
    EXPECT_EQ(attempt_ticks(e, store, 3, 20), std::vector<Tick>({3, 5, 7, 8}));
    EXPECT_EQ(e.runs()[0].result, RunResult::skipped);
    EXPECT_EQ(e.runs()[0].ended_at, 8);
}

// A waiter paused past its deadline makes one attempt at its first active tick, which may acquire.
TEST(ElectorAcquire, PausedPastDeadlineStillTriesOnce) {
    ModelStore store(LockConfig{"lock", 1, 1});
    Elector e("a", options(2, 5, 3));
    e.begin_run(0, "t");
    EXPECT_FALSE(e.attempt_due(0, false));  // paused
    EXPECT_TRUE(e.attempt_due(9, true));
    auto effect = e.attempt(9, store);
    EXPECT_TRUE(effect.reply->acquired);
    EXPECT_EQ(e.state(), ElectorState::running);
}

// A backend error while acquiring is acquire_failed at once, never relabelled as skipped.
TEST(ElectorAcquire, BackendErrorIsAcquireFailed) {
    DownStore store;
    Elector e("a", options(5, 5, 3));
    e.begin_run(0, "t");
    auto effect = e.attempt(0, store);
    EXPECT_FALSE(effect.reply.ok());
    EXPECT_EQ(effect.ended, RunResult::acquire_failed);
    EXPECT_EQ(e.runs()[0].result, RunResult::acquire_failed);
    EXPECT_FALSE(e.runs()[0].fencing.has_value());
}

// Progress grows by one per advance; writes fire at their offsets; the action ends at `action`.
TEST(ElectorRun, WritesAndElected) {
    ModelStore store(LockConfig{"lock", 1, 1});
    auto o = options(0, 10, 4);
    o.writes = {1, 3};
    Elector e("a", o);
    e.begin_run(0, "t");
    (void)e.attempt(0, store);
    std::vector<bool> writes;
    std::optional<RunResult> ended;
    for (Tick t = 1; !ended; ++t) {
        const WorkEffect w = e.advance(t);
        writes.push_back(w.write);
        ended = w.ended;
    }
    EXPECT_EQ(writes, std::vector<bool>({true, false, true, false}));
    EXPECT_EQ(ended, RunResult::elected);
}

// At fail_at a write due at the same progress still happens, then the action fails.
TEST(ElectorRun, FailAtAfterItsWrite) {
    ModelStore store(LockConfig{"lock", 1, 1});
    auto o = options(0, 10, 6);
    o.writes = {3, 5};
    o.fail_at = 3;
    Elector e("a", o);
    e.begin_run(0, "t");
    (void)e.attempt(0, store);
    e.advance(1);
    e.advance(2);
    const WorkEffect w = e.advance(3);
    EXPECT_TRUE(w.write);
    EXPECT_EQ(w.ended, RunResult::action_failed);
    auto reply = e.end_action(3, *w.ended, store);
    EXPECT_EQ(reply->outcome, ReleaseOutcome::released);
    EXPECT_EQ(e.runs()[0].result, RunResult::action_failed);
}

// The release keeps the record for what is left of min_lease: max(0, min_lease - elapsed).
TEST(ElectorRun, MinLeaseKeepFor) {
    ModelStore store(LockConfig{"lock", 1, 1});
    auto o = options(0, 10, 2);
    o.min_lease = 5;
    Elector e("a", o);
    e.begin_run(0, "t");
    (void)e.attempt(0, store);
    EXPECT_EQ(e.keep_for(2), 3);
    EXPECT_EQ(e.keep_for(7), 0);
    auto reply = e.end_action(2, RunResult::elected, store);
    EXPECT_EQ(reply->outcome, ReleaseOutcome::kept);
    EXPECT_EQ(reply->until, 5);
}

// The result stands whatever the release answers: a stale release does not change elected.
TEST(ElectorRun, ResultStandsOnRejectedRelease) {
    ModelStore store(LockConfig{"lock", 1, 1});
    Elector e("a", options(0, 2, 4));
    e.begin_run(0, "t");
    (void)e.attempt(0, store);
    auto reply = e.end_action(4, RunResult::elected, store);
    EXPECT_EQ(reply->outcome, ReleaseOutcome::not_owner);
    EXPECT_EQ(e.runs()[0].result, RunResult::elected);
}

// The watchdog is first due at acquired_at + extend_every, then a fixed delay after each attempt.
TEST(ElectorWatchdog, FixedDelayCadence) {
    ModelStore store(LockConfig{"lock", 1, 1});
    auto o = options(0, 6, 20);
    o.auto_extend = true;
    Elector e("a", o);  // extend_every = 2
    e.begin_run(1, "t");
    (void)e.attempt(1, store);
    std::vector<Tick> due;
    for (Tick t = 1; t <= 9; ++t) {
        // Paused at 4 and 5: the extension due at 5 fires at 6, and the next at 8.
        if (e.extend_due(t, t != 4 && t != 5)) {
            due.push_back(t);
            EXPECT_TRUE(e.extend(t, store)->renewed);
        }
    }
    EXPECT_EQ(due, std::vector<Tick>({3, 6, 8}));
}

// A lost answer stops the watchdog for good; the action keeps running.
TEST(ElectorWatchdog, LostStopsForGood) {
    ModelStore store(LockConfig{"lock", 1, 1});
    auto o = options(0, 3, 20);
    o.auto_extend = true;
    Elector e("a", o);  // extend_every = 1
    e.begin_run(0, "t");
    (void)e.attempt(0, store);
    std::vector<ExpiredRecord> gone;
    store.do_expire(3, gone);
    EXPECT_TRUE(e.extend_due(5, true));
    EXPECT_FALSE(e.extend(5, store)->renewed);
    EXPECT_FALSE(e.watchdog_running());
    EXPECT_FALSE(e.extend_due(6, true));
    EXPECT_TRUE(e.executing());
}

// A backend error while extending is transient: retried at the next due tick.
TEST(ElectorWatchdog, ErrorIsTransient) {
    ModelStore model(LockConfig{"lock", 1, 1});
    DownStore down;
    auto o = options(0, 6, 20);
    o.auto_extend = true;
    Elector e("a", o);
    e.begin_run(0, "t");
    (void)e.attempt(0, model);
    EXPECT_FALSE(e.extend(2, down).ok());
    EXPECT_TRUE(e.watchdog_running());
    EXPECT_FALSE(e.extend_due(3, true));
    EXPECT_TRUE(e.extend_due(4, true));
    EXPECT_TRUE(e.extend(4, model)->renewed);
}

// Run k is scheduled at start + k*every, but never before the tick after run k-1 ended.
TEST(ElectorRuns, ScheduleWaitsForPreviousEnd) {
    ModelStore store(LockConfig{"lock", 1, 1});
    auto o = options(0, 10, 6);
    o.start = 2;
    o.runs = 3;
    o.every = 4;
    Elector e("a", o);
    EXPECT_EQ(e.next_run_at(), 2);
    EXPECT_FALSE(e.run_due(1, true));
    EXPECT_FALSE(e.run_due(2, false));  // paused: starts at the first active tick
    e.begin_run(3, "t0");
    (void)e.attempt(3, store);
    for (Tick t = 4; t <= 9; ++t) {
        if (auto w = e.advance(t); w.ended) (void)e.end_action(t, *w.ended, store);
    }
    EXPECT_EQ(e.state(), ElectorState::idle);
    EXPECT_EQ(e.next_run_at(), 10);  // scheduled at 6, but run 0 ended at 9
    e.begin_run(10, "t1");
    (void)e.attempt(10, store);  // the record kept nothing: released at 9
    EXPECT_EQ(e.runs()[1].fencing, 2);
}

// A crash ends the current run as crashed and no later run starts.
TEST(ElectorRuns, CrashEndsEverything) {
    ModelStore store(LockConfig{"lock", 1, 1});
    auto o = options(0, 10, 6);
    o.runs = 3;
    o.every = 2;
    Elector e("a", o);
    e.begin_run(0, "t");
    (void)e.attempt(0, store);
    EXPECT_TRUE(e.crash(1));
    EXPECT_EQ(e.runs()[0].result, RunResult::crashed);
    EXPECT_EQ(e.state(), ElectorState::finished);
    EXPECT_EQ(e.next_run_at(), tick_none);
    EXPECT_FALSE(e.crash(2));
}

namespace {

// Logical time for run_if_leader: waiting jumps straight to the tick asked for.
class LogicalTime final : public TickSource {
public:
    Tick now() override { return now_; }
    void wait_until(Tick t) override { now_ = std::max(now_, t); }

private:
    Tick now_ = 0;
};

}  // namespace

// run_if_leader: the direct API acquires, calls the action each tick and releases.
TEST(RunIfLeader, ElectedWithFencing) {
    ModelStore store(LockConfig{"jobs", 1, 7});
    LogicalTime time;
    SplitMix64 rng(1);
    int calls = 0;
    const LeaderRun r = run_if_leader(store, time, rng, "node-a", options(2, 5, 1), [&](const ActionContext& c) {
        ++calls;
        EXPECT_EQ(c.fencing, 7);
        return c.progress == 3 ? ActionStep::done : ActionStep::keep_going;
    });
    EXPECT_EQ(r.result, RunResult::elected);
    EXPECT_EQ(r.fencing, 7);
    EXPECT_EQ(calls, 3);
    EXPECT_FALSE(store.do_status(time.now()).held());
}

// run_if_leader: contention ends skipped without calling the action; failure is action_failed.
TEST(RunIfLeader, SkippedAndActionFailed) {
    auto store = held_store();
    LogicalTime time;
    SplitMix64 rng(1);
    bool called = false;
    const LeaderRun skipped = run_if_leader(store, time, rng, "node-a", options(3, 5, 1), [&](const ActionContext&) {
        called = true;
        return ActionStep::done;
    });
    EXPECT_EQ(skipped.result, RunResult::skipped);
    EXPECT_FALSE(called);
    EXPECT_EQ(time.now(), 3);  // the last attempt was exactly at the deadline

    ModelStore free_store(LockConfig{"lock", 1, 1});
    const LeaderRun failed = run_if_leader(free_store, time, rng, "node-a", options(0, 5, 1),
                                           [](const ActionContext&) { return ActionStep::failed; });
    EXPECT_EQ(failed.result, RunResult::action_failed);
}

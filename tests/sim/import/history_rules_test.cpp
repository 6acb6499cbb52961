// The history's rules one by one (docs/model.md §19.4.3, §19.5.2, §19.6.2–4,
// §19.7.2–4): ticks and origin, runs and start events, beliefs from logs or
// inferred, the counter anchored by a log, writes and their marks, the
// fencing marks, clock steps, undecided events, the header and summary.
#include "history_support.hpp"

namespace {

using namespace history_test;

TEST(HistoryTicks, TheFinestStepThatFitsIsTakenAndNamed) {
    // 30 h of history: 1 ms would give 108 000 000 ticks, 10 ms 10 800 000,
    // 20 ms 5 400 000, the first within import_ticks_max (10 000 000).
    std::vector<Observation> o = {acquired(0, "a", "t1", 1),
                                  obs(30LL * 3600 * 1000, ObservedOp::status, "b", "", Outcome::held)};
    auto b = build(o, {}, 0);
    ASSERT_TRUE(b.history) << b.error;
    EXPECT_EQ(b.history->trace.header.tick_ms, 20);
    EXPECT_EQ(b.history->trace.summary.end_tick, 5'400'000);
    const auto& notes = b.history->notes;
    EXPECT_TRUE(
        std::any_of(notes.begin(), notes.end(), [](const std::string& n) { return n.rfind("tick_ms 20:", 0) == 0; }));
}

TEST(HistoryTicks, AGivenStepTooFineIsAnErrorThatSaysWhatToDo) {
    std::vector<Observation> o = {acquired(0, "a", "t1", 1),
                                  obs(30LL * 3600 * 1000, ObservedOp::status, "b", "", Outcome::held)};
    auto b = build(o, {}, 1);
    EXPECT_FALSE(b.history);
    EXPECT_EQ(b.error,
              "the history spans 30 h 0 min at --tick-ms 1: more than 10000000 ticks (import_ticks_max); "
              "give a coarser --tick-ms or leave it out");
}

TEST(HistoryTicks, OriginIsTheFirstLineFlooredToATickAndTicksAreFloored) {
    std::vector<Observation> o = {acquired(7, "a", "t1", 1), obs(26, ObservedOp::status, "b", "", Outcome::held)};
    auto b = build(o, {}, 10);
    ASSERT_TRUE(b.history) << b.error;
    const Trace& t = b.history->trace;
    ASSERT_TRUE(t.header.import);
    EXPECT_EQ(t.header.import->origin_us, t0_us);
    const auto status = of_op(t, EventOp::status);
    ASSERT_EQ(status.size(), 1u);
    EXPECT_EQ(status[0]->tick, 2);  // 26 ms after a 0-ms origin, 10 ms ticks
    EXPECT_EQ(status[0]->wall_us, at_ms(26));
}

TEST(HistoryTicks, ALogThatBeginsBeforeTheCaptureMovesTheOriginBack) {
    std::vector<Observation> o = {acquired(1000, "a", "t1", 1)};
    auto b = build(o, {log(-500, "a", LogEvent::pause_end, std::nullopt, std::nullopt, 1)}, 10);
    ASSERT_TRUE(b.history) << b.error;
    const Trace& t = b.history->trace;
    EXPECT_EQ(t.header.import->origin_us, at_ms(-500));
    EXPECT_EQ(t.events.front().op, EventOp::resume);
    EXPECT_EQ(t.events.front().tick, 0);
    EXPECT_EQ(of_op(t, EventOp::acquire)[0]->tick, 150);
}

TEST(HistoryHeader, HoldsTheImportAndTheFirstCapturesName) {
    std::vector<Observation> o = {acquired(0, "a", "t1", 1)};
    auto b = build(o, {log(5, "a", LogEvent::write, "t1")});
    ASSERT_TRUE(b.history) << b.error;
    const TraceHeader& h = b.history->trace.header;
    EXPECT_EQ(h.format, 4);
    EXPECT_EQ(h.scenario, "cap.txt");
    EXPECT_EQ(h.seed, 0u);
    EXPECT_EQ(h.lock, "lock:orders");
    EXPECT_EQ(h.candidates, std::vector<std::string>({"a"}));
    ASSERT_TRUE(h.import);
    EXPECT_EQ(h.import->lock_key, "lock:orders");
    EXPECT_EQ(h.import->ignored, 7);
    ASSERT_EQ(h.import->sources.size(), 2u);
    EXPECT_EQ(h.import->sources[0].kind, "capture");
    EXPECT_EQ(h.import->sources[1].file, "app.jsonl");
    EXPECT_EQ(h.import->sources[1].kind, "log");
    EXPECT_EQ(h.import->sources[1].used, 1);
}

TEST(HistoryRuns, ARunStartsAtItsFirstAttemptAndEndsAtARelease) {
    std::vector<Observation> o = {busy(0, "a", "t1"), busy(50, "a", "t1"), acquired(100, "a", "t1", 1),
                                  obs(200, ObservedOp::release, "a", "", Outcome::released),
                                  acquired(300, "a", "t2", 2)};
    auto b = build(o);
    ASSERT_TRUE(b.history) << b.error;
    const Trace& t = b.history->trace;
    const auto starts = of_op(t, EventOp::start);
    ASSERT_EQ(starts.size(), 2u);
    EXPECT_EQ(starts[0]->tick, 0);
    EXPECT_EQ(starts[0]->run, 0);
    EXPECT_EQ(starts[1]->tick, 30);
    EXPECT_EQ(starts[1]->run, 1);
    EXPECT_EQ(t.events[0].op, EventOp::start);  // before the attempt it starts
    const auto releases = of_op(t, EventOp::release);
    ASSERT_EQ(releases.size(), 1u);
    EXPECT_EQ(releases[0]->token, "t1");  // a DEL shows no token: the run's
    EXPECT_EQ(releases[0]->fencing, 1);
    ASSERT_EQ(t.summary.results.size(), 2u);
    EXPECT_EQ(t.summary.results[0], (RunSummary{"a", 0, "elected", 1}));
    EXPECT_EQ(t.summary.results[1], (RunSummary{"a", 1, "unfinished", 2}));
}

TEST(HistoryRuns, AnExpiryOrALostExtendEndsTheRunAndANeverAcquiredRunIsSkipped) {
    std::vector<Observation> o = {acquired(0, "a", "t1", 1),
                                  busy(10, "b", "u1"),
                                  expired(1000, "a", "t1"),
                                  acquired(1010, "b", "u1", 2),
                                  obs(1020, ObservedOp::extend, "a", "", Outcome::lost),
                                  acquired(3000, "a", "t3", 3)};
    auto b = build(o);
    ASSERT_TRUE(b.history) << b.error;
    const auto& r = b.history->trace.summary.results;
    ASSERT_EQ(r.size(), 3u);
    EXPECT_EQ(r[0], (RunSummary{"a", 0, "elected", 1}));
    EXPECT_EQ(r[1], (RunSummary{"a", 1, "unfinished", 3}));
    EXPECT_EQ(r[2], (RunSummary{"b", 0, "elected", 2}));
    std::vector<Observation> waiting = {acquired(0, "a", "t1", 1), busy(10, "b", "u1")};
    auto w = build(waiting);
    ASSERT_TRUE(w.history);
    EXPECT_EQ(w.history->trace.summary.results[1], (RunSummary{"b", 0, "skipped", std::nullopt}));
}

TEST(HistoryBeliefs, InferredFromRepliesUntilOwnReleaseNotUntilExpiry) {
    // a's record expires at 1000 but a cannot see it: it believes it leads
    // until its release at 1500, while b leads from 1010: an overlap.
    std::vector<Observation> o = {acquired(0, "a", "t1", 1), expired(1000, "a", "t1"), acquired(1010, "b", "u1", 2),
                                  obs(1500, ObservedOp::release, "a", "t1", Outcome::not_owner)};
    auto b = build(o);
    ASSERT_TRUE(b.history) << b.error;
    const Trace& t = b.history->trace;
    const auto beliefs = of_op(t, EventOp::believe);
    ASSERT_EQ(beliefs.size(), 3u);
    EXPECT_EQ(beliefs[0]->node, "a");
    EXPECT_EQ(beliefs[0]->outcome, Outcome::leader);
    EXPECT_TRUE(beliefs[0]->details.has(Detail::inferred));
    EXPECT_EQ(beliefs[0]->phase, Phase::ops);
    EXPECT_EQ(beliefs[1]->node, "b");
    EXPECT_EQ(beliefs[2]->node, "a");
    EXPECT_EQ(beliefs[2]->outcome, Outcome::follower);
    EXPECT_EQ(beliefs[2]->tick, 150);
    const auto begin = of_op(t, EventOp::overlap_begin);
    const auto end = of_op(t, EventOp::overlap_end);
    ASSERT_EQ(begin.size(), 1u);
    ASSERT_EQ(end.size(), 1u);
    EXPECT_EQ(begin[0]->tick, 101);
    EXPECT_EQ(begin[0]->overlap_count, 2);
    EXPECT_EQ(end[0]->tick, 150);
    EXPECT_EQ(t.summary.violations.overlap, 1);
}

TEST(HistoryBeliefs, ALogsWordsReplaceTheInferredBeliefsOfItsNode) {
    std::vector<Observation> o = {acquired(0, "a", "t1", 1), expired(1000, "a", "t1"), acquired(1010, "b", "u1", 2)};
    std::vector<LogEntry> logs = {log(2, "a", LogEvent::acquired, "t1"), log(990, "a", LogEvent::lost, "t1")};
    auto b = build(o, logs);
    ASSERT_TRUE(b.history) << b.error;
    const Trace& t = b.history->trace;
    const auto beliefs = of_op(t, EventOp::believe);
    ASSERT_EQ(beliefs.size(), 3u);
    EXPECT_TRUE(beliefs[0]->details.has(Detail::acquired));
    EXPECT_EQ(beliefs[0]->wall_us, at_ms(2));
    EXPECT_TRUE(beliefs[1]->details.has(Detail::lost));
    EXPECT_EQ(beliefs[1]->outcome, Outcome::follower);
    EXPECT_TRUE(beliefs[2]->details.has(Detail::inferred));  // b has no log
    EXPECT_EQ(t.summary.violations.overlap, 0);
}

TEST(HistoryFencing, TheFirstMatchingLogFencingAnchorsTheCounter) {
    CaptureReport unused;
    std::vector<Observation> o = {acquired(0, "a", "t1", 1), expired(1000, "a", "t1"), acquired(1010, "b", "u1", 2)};
    std::vector<LogEntry> logs = {log(1011, "b", LogEvent::acquired, std::nullopt, 42)};
    auto b = build(o, logs);
    ASSERT_TRUE(b.history) << b.error;
    const auto acquires = of_op(b.history->trace, EventOp::acquire);
    ASSERT_EQ(acquires.size(), 2u);
    EXPECT_EQ(acquires[0]->fencing, 41);
    EXPECT_EQ(acquires[1]->fencing, 42);
    const auto& notes = b.history->notes;
    EXPECT_TRUE(std::any_of(notes.begin(), notes.end(), [](const std::string& n) {
        return n == "fencing: the counter moved by 40 from app.jsonl:1012 (b's acquisition has fencing 42)";
    }));
}

TEST(HistoryWrites, StaleWhenTheTokenIsNotTheRecordsAndHolderRejectedWhenItIs) {
    std::vector<Observation> o = {acquired(0, "a", "t1", 1), expired(1000, "a", "t1"), acquired(1010, "b", "u1", 2)};
    std::vector<LogEntry> logs = {log(500, "a", LogEvent::write_rejected), log(1005, "a", LogEvent::write),
                                  log(1020, "b", LogEvent::write), log(1030, "a", LogEvent::write)};
    auto b = build(o, logs);
    ASSERT_TRUE(b.history) << b.error;
    const auto writes = of_op(b.history->trace, EventOp::write);
    ASSERT_EQ(writes.size(), 4u);
    EXPECT_EQ(detail_text(*writes[0]), "holder_rejected");
    EXPECT_EQ(writes[0]->outcome, Outcome::rejected);
    EXPECT_EQ(writes[0]->token, "t1");  // the node's belief's token
    EXPECT_EQ(writes[0]->fencing, 1);
    EXPECT_EQ(detail_text(*writes[1]), "stale");
    EXPECT_EQ(detail_text(*writes[2]), "");
    // a's write after b's accepted one: lower number, older holder.
    EXPECT_EQ(detail_text(*writes[3]), "stale,unsafe_write,stale_after_successor");
    const Violations& v = b.history->trace.summary.violations;
    EXPECT_EQ(v.holder_rejected, 1);
    EXPECT_EQ(v.unsafe_write, 1);
    EXPECT_EQ(v.stale_after_successor, 1);
}

TEST(HistoryWrites, AWriteAtTheRecordsVeryDeadlineStillFindsItCurrent) {
    // Redis keeps a key while now <= its deadline (rule 19.4.2): the expiry
    // at 100 ms comes after the write of that same moment.
    std::vector<Observation> o = {acquired(0, "a", "t1", 1, 100), expired(100, "a", "t1")};
    auto b = build(o, {log(100, "a", LogEvent::write, "t1", 1, 5), log(101, "a", LogEvent::write, "t1", 1, 6)});
    ASSERT_TRUE(b.history) << b.error;
    const auto writes = of_op(b.history->trace, EventOp::write);
    ASSERT_EQ(writes.size(), 2u);
    EXPECT_EQ(detail_text(*writes[0]), "");
    EXPECT_EQ(detail_text(*writes[1]), "stale");
}

// Rule 19.6.5: a log written to the millisecond happened somewhere in that
// millisecond; the SET NX 540 µs into it made its node holder, and the write
// logged in the same millisecond followed it (the example incident's case).
TEST(HistoryWrites, AWriteLoggedInTheMillisecondOfItsNodesAcquisitionIsNotStale) {
    std::vector<Observation> o = {acquired(0, "a", "t1", 7), expired(1000, "a", "t1"), acquired(2000, "b", "u1", 8)};
    o[0].wall_us += 540;
    o[2].wall_us += 999;
    auto ms_log = [](std::int64_t ms, std::string node, LogEvent event, std::optional<std::string> token) {
        LogEntry l = log(ms, std::move(node), event, std::move(token));
        l.resolution_us = 1000;
        return l;
    };
    std::vector<LogEntry> logs = {ms_log(0, "a", LogEvent::write, "t1"),
                                  ms_log(2000, "b", LogEvent::write, std::nullopt),
                                  ms_log(2000, "b", LogEvent::write_rejected, "u1")};
    LogEntry fine = log(2000, "b", LogEvent::write, "u1");  // to the microsecond: before the SET at +999 µs
    fine.line = 4000;
    logs.push_back(fine);
    logs.push_back(log(2500, "a", LogEvent::write, "t1"));  // after b's write: b is a's successor
    auto b = build(o, logs);
    ASSERT_TRUE(b.history) << b.error;
    const auto writes = of_op(b.history->trace, EventOp::write);
    ASSERT_EQ(writes.size(), 5u);
    EXPECT_EQ(detail_text(*writes[0]), "");
    EXPECT_EQ(writes[0]->wall_us, at_ms(0));  // it keeps its written time
    EXPECT_EQ(writes[0]->run, 0);             // and belongs to the run its acquisition begins
    EXPECT_EQ(writes[1]->run, 0);
    EXPECT_EQ(detail_text(*writes[1]), "");  // no token in the log: its node's acquisition in the window
    EXPECT_EQ(writes[1]->token, "u1");
    EXPECT_EQ(writes[1]->fencing, 8);
    EXPECT_EQ(detail_text(*writes[2]), "holder_rejected");
    EXPECT_EQ(detail_text(*writes[3]), "stale");
    EXPECT_EQ(detail_text(*writes[4]), "stale,unsafe_write,stale_after_successor");
    EXPECT_EQ(b.history->trace.summary.violations.holder_rejected, 1);
    EXPECT_EQ(b.history->trace.summary.violations.stale_after_successor, 1);
}

TEST(HistoryAcquisitions, ANumberNotAboveThoseIssuedIsRegressedAndOneIssuedToAnotherTokenDuplicate) {
    std::vector<Observation> o = {acquired(0, "a", "t1", 5), expired(1000, "a", "t1"), acquired(1010, "b", "u1", 5),
                                  expired(2010, "b", "u1"), acquired(2020, "a", "t2", 3)};
    auto b = build(o);
    ASSERT_TRUE(b.history) << b.error;
    const auto acquires = of_op(b.history->trace, EventOp::acquire);
    ASSERT_EQ(acquires.size(), 3u);
    EXPECT_EQ(detail_text(*acquires[0]), "");
    EXPECT_EQ(detail_text(*acquires[1]), "fencing_regressed,fencing_duplicate");
    EXPECT_EQ(detail_text(*acquires[2]), "fencing_regressed");
    EXPECT_EQ(b.history->trace.summary.violations.fencing_regressed, 2);
    EXPECT_EQ(b.history->trace.summary.violations.fencing_duplicate, 1);
}

TEST(HistoryEvents, ClockStepsUndecidedPausesAndCrashesBecomeTheirEvents) {
    Observation step = obs(100, ObservedOp::clock_step, "", "", Outcome::none);
    step.step_ms = -1204;
    Observation odd = obs(200, ObservedOp::undecided, "a", "", Outcome::none);
    odd.why = Detail::unknown_sha;
    std::vector<Observation> o = {acquired(0, "a", "t1", 1), step, odd};
    std::vector<LogEntry> logs = {log(300, "a", LogEvent::pause_start), log(400, "a", LogEvent::pause_end),
                                  log(500, "a", LogEvent::crashed)};
    auto b = build(o, logs);
    ASSERT_TRUE(b.history) << b.error;
    const Trace& t = b.history->trace;
    const auto jumps = of_op(t, EventOp::clock_jump);
    ASSERT_EQ(jumps.size(), 1u);
    EXPECT_EQ(jumps[0]->node, "store");
    EXPECT_EQ(jumps[0]->clock_ms, -1204);
    EXPECT_EQ(jumps[0]->phase, Phase::faults);
    const auto undecided = of_op(t, EventOp::undecided);
    ASSERT_EQ(undecided.size(), 1u);
    EXPECT_EQ(detail_text(*undecided[0]), "unknown_sha");
    EXPECT_EQ(undecided[0]->outcome, Outcome::none);
    EXPECT_EQ(of_op(t, EventOp::pause).size(), 1u);
    EXPECT_EQ(of_op(t, EventOp::resume).size(), 1u);
    EXPECT_EQ(of_op(t, EventOp::crash).size(), 1u);
}

TEST(HistoryOrder, EventsFollowTimeThenLineAndSeqCounts) {
    std::vector<Observation> o = {acquired(0, "a", "t1", 1), obs(20, ObservedOp::status, "b", "", Outcome::held)};
    std::vector<LogEntry> logs = {log(10, "a", LogEvent::write, "t1", 1, 3)};
    auto b = build(o, logs);
    ASSERT_TRUE(b.history) << b.error;
    const Trace& t = b.history->trace;
    for (std::size_t i = 0; i < t.events.size(); ++i) {
        EXPECT_EQ(t.events[i].seq, static_cast<std::int64_t>(i));
        if (i > 0) {
            EXPECT_LE(t.events[i - 1].tick, t.events[i].tick);
            EXPECT_LE(*t.events[i - 1].wall_us, *t.events[i].wall_us);
        }
    }
    EXPECT_EQ(t.summary.events, static_cast<std::int64_t>(t.events.size()));
}

TEST(HistoryLogs, ALogWhollyOutsideTheCaptureByMoreThanTenMinutesIsRefused) {
    std::vector<Observation> o = {acquired(0, "a", "t1", 1), obs(1000, ObservedOp::status, "b", "", Outcome::held)};
    std::vector<LogEntry> logs = {log(9LL * 3600 * 1000 + 5000, "a", LogEvent::write)};
    auto b = build(o, logs);
    EXPECT_FALSE(b.history);
    EXPECT_EQ(b.error,
              "app.jsonl: its times lie 9 h 0 min after the capture's (more than 10 minutes): was it "
              "written in another zone without its offset? Move it with --log-shift -32404000 "
              "(milliseconds) before --log app.jsonl");
    std::vector<LogEntry> near = {log(9LL * 60 * 1000, "a", LogEvent::write)};
    EXPECT_TRUE(build(o, near).history);
}

TEST(HistoryErrors, NoObservationIsAnError) {
    auto b = build({});
    EXPECT_FALSE(b.history);
    EXPECT_EQ(b.error, "the capture shows nothing of the lock: no observation to build a history from");
}

}  // namespace

namespace {

using namespace history_test;

// A history with every kind of event the sweep writes.
Built rich_history() {
    Observation step = obs(100, ObservedOp::clock_step, "", "", Outcome::none);
    step.step_ms = -300;
    Observation odd = obs(200, ObservedOp::undecided, "", "", Outcome::none);
    odd.why = Detail::capture_gap;
    Observation check = obs(300, ObservedOp::validate, "auditor", "t1", Outcome::current);
    Observation renew = obs(400, ObservedOp::extend, "a", "t1", Outcome::renewed);
    renew.ttl_ms = 1000;
    std::vector<Observation> o = {acquired(0, "a", "t1", 1),
                                  busy(50, "b", "u1"),
                                  step,
                                  odd,
                                  check,
                                  renew,
                                  expired(1400, "a", "t1"),
                                  acquired(1410, "b", "u1", 2),
                                  obs(1500, ObservedOp::release, "a", "t1", Outcome::not_owner),
                                  obs(1600, ObservedOp::status, "auditor", "", Outcome::held)};
    std::vector<LogEntry> logs = {log(10, "b", LogEvent::pause_start), log(20, "b", LogEvent::pause_end),
                                  log(1420, "b", LogEvent::acquired, "u1", 2), log(1430, "b", LogEvent::write, "u1", 2),
                                  log(1440, "a", LogEvent::write, "t1", 1)};
    return build(o, logs);
}

TEST(HistoryTrace, ReadsBackWithTheTraceReaderAsItWasBuilt) {
    auto b = rich_history();
    ASSERT_TRUE(b.history) << b.error;
    const Trace& t = b.history->trace;
    const std::string text = trace_to_jsonl(t);
    auto back = parse_trace(text, "incident.jsonl");
    ASSERT_TRUE(back.ok()) << back.error().to_string() << "\n" << text;
    EXPECT_EQ(back.value().header, t.header);
    EXPECT_EQ(back.value().events, t.events);
    EXPECT_EQ(back.value().summary, t.summary);
    EXPECT_EQ(t.summary.violations.overlap, 1);
    EXPECT_EQ(t.summary.violations.stale_after_successor, 1);
}

TEST(HistoryTrace, AfterAKeptClockStepTicksFollowThePlacedTimeAndWallUsTheServersOwn) {
    auto b = rich_history();
    ASSERT_TRUE(b.history) << b.error;
    const Trace& t = b.history->trace;
    const auto jump = of_op(t, EventOp::clock_jump);
    ASSERT_EQ(jump.size(), 1u);
    EXPECT_EQ(jump[0]->wall_us, at_ms(100));
    const auto renew = of_op(t, EventOp::extend);
    ASSERT_EQ(renew.size(), 1u);
    EXPECT_EQ(renew[0]->tick, 40);                   // placed at 400 ms
    EXPECT_EQ(renew[0]->wall_us, at_ms(400 - 300));  // the server said 100 ms
    const auto pause = of_op(t, EventOp::pause);     // a log line: its own time
    ASSERT_EQ(pause.size(), 1u);
    EXPECT_EQ(pause[0]->wall_us, at_ms(10));
}

TEST(HistoryTrace, IsTheSameBytesWhenBuiltTwice) {
    auto a = rich_history();
    auto b = rich_history();
    ASSERT_TRUE(a.history);
    ASSERT_TRUE(b.history);
    EXPECT_EQ(trace_to_jsonl(a.history->trace), trace_to_jsonl(b.history->trace));
    EXPECT_EQ(a.history->draft_json, b.history->draft_json);
    EXPECT_EQ(a.history->differences, b.history->differences);
}

}  // namespace

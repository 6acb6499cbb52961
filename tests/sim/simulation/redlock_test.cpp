// Redlock over independent stores (docs/model.md §20): one test per rule,
// each on a small inline scenario, and the input a Redlock scenario refuses.
#include <gtest/gtest.h>

#include <algorithm>
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

// Three stores A, B, C (quorum 2), tick 10 ms, lease 100 ticks (1 s);
// `extra` is spliced into the top level (faults, redlock options, …).
std::string scenario(const std::string& candidates, const std::string& extra = "",
                     const std::string& stores = R"(["A", "B", "C"])") {
    return R"({"name": "rl", "tick_ms": 10, "horizon": 2000, "client": "redlock", "stores": )" + stores +
           R"(, "defaults": {"wait": 0, "lease": 100, "action": 20}, "candidates": [)" + candidates + "]" + extra + "}";
}

sim::Trace run(const std::string& text) { return sim::simulate(trace_test::parse(text)); }

std::vector<Event> counts(const sim::Trace& t, const std::string& node) {
    std::vector<Event> out;
    for (const Event& e : find(t, node, EventOp::quorum))
        if (e.phase == sim::Phase::acquire) out.push_back(e);
    return out;
}

std::string error_of(const std::string& text) {
    auto s = sim::parse_scenario(text, "rl.json");
    return s.ok() ? std::string("(accepted)") : s.error().to_string();
}

// Rule 20.4.1-20.4.5: one attempt asks every store, and a quorum of yes
// within the validity is the lock; the trace is /5 with the stores named.
TEST(Redlock, AQuorumOfYesIsTheLock) {
    const sim::Trace t = run(scenario(R"({"name": "a"})"));
    EXPECT_EQ(t.header.format, 5);
    EXPECT_EQ(t.header.stores, (std::vector<std::string>{"A", "B", "C"}));
    const auto answers = find(t, "a", EventOp::acquire);
    ASSERT_EQ(answers.size(), 3u);
    for (std::int32_t s = 0; s < 3; ++s) {
        EXPECT_EQ(answers[static_cast<std::size_t>(s)].server, s);
        EXPECT_EQ(answers[static_cast<std::size_t>(s)].outcome, Outcome::acquired);
    }
    const auto c = counts(t, "a");
    ASSERT_EQ(c.size(), 1u);
    EXPECT_EQ(c[0].outcome, Outcome::acquired);
    EXPECT_EQ(c[0].overlap_count, 3);
    EXPECT_EQ(sim::detail_text(c[0]), "3");
    EXPECT_EQ(trace_test::result_of(t, "a"), "elected");
    // The release: every store, then its count (rule 20.5.2).
    const auto released = find(t, "a", EventOp::quorum);
    ASSERT_EQ(released.size(), 2u);
    EXPECT_EQ(released[1].outcome, Outcome::released);
    EXPECT_EQ(released[1].tick, 20);
}

// Rule 20.1.1: the quorum is ⌊N/2⌋ + 1, so with 4 stores 2 yes are not enough.
TEST(Redlock, FourStoresNeedThree) {
    const std::string faults =
        R"(, "faults": [{"kind": "restart", "store": "C", "at": 0, "ticks": 5},
                        {"kind": "restart", "store": "D", "at": 0, "ticks": 5}],
           "redlock": {"retry_count": 0})";
    const sim::Trace t = run(scenario(R"({"name": "a"})", faults, R"(["A", "B", "C", "D"])"));
    const auto c = counts(t, "a");
    ASSERT_EQ(c.size(), 1u);
    EXPECT_EQ(c[0].overlap_count, 2);
    EXPECT_EQ(c[0].outcome, Outcome::busy);
    EXPECT_EQ(trace_test::result_of(t, "a"), "skipped");  // retry_count 0: one attempt (rule 20.4.6)
    const auto skips = find(t, "a", EventOp::skip);
    ASSERT_EQ(skips.size(), 1u);
    // As §12.3 has a skip (rule 20.8.2); the real package's trace says so
    // (tests/redlock/compare.sh found it null).
    EXPECT_EQ(skips[0].outcome, Outcome::skipped);
}

// Rule 20.4.6: a failed attempt unlocks on every store, also those that said
// no, then retries after retry_delay_ms; retry_count N makes N + 1 attempts.
TEST(Redlock, AFailedAttemptUnlocksEverywhereAndRetries) {
    const std::string opts = R"(, "redlock": {"retry_count": 2, "retry_delay_ms": 50, "retry_jitter_ms": 0})";
    const sim::Trace t = run(scenario(R"({"name": "a", "action": 500}, {"name": "b", "start": 1})", opts));
    const auto c = counts(t, "b");
    ASSERT_EQ(c.size(), 3u);  // 1 + retry_count
    EXPECT_EQ(c[0].tick, 1);
    EXPECT_EQ(c[1].tick, 6);  // 50 ms at 10 ms a tick
    EXPECT_EQ(c[2].tick, 11);
    for (const Event& e : c) EXPECT_EQ(e.outcome, Outcome::busy);
    // Each failed attempt's unlock went to all three stores.
    std::size_t unlocks = 0;
    for (const Event& e : find(t, "b", EventOp::release))
        if (e.phase == sim::Phase::acquire) ++unlocks;
    EXPECT_EQ(unlocks, 9u);
    EXPECT_EQ(trace_test::result_of(t, "b"), "skipped");
}

// Rule 20.4.5: the validity is ttl - round(drift_factor * ttl) - 2 ms from
// the attempt's start; an answer later than that is no lock even with a quorum.
TEST(Redlock, AQuorumAfterTheValidityIsNoLock) {
    // lease 100 ticks = 1000 ms, drift 12 ms: validity 988 ms. Replies take 99 ticks (990 ms).
    const std::string slow = R"({"name": "a", "network": {"reply": 99}})";
    const std::string opts = R"(, "redlock": {"retry_count": 0})";
    const sim::Trace t = run(scenario(slow, opts));
    auto c = counts(t, "a");
    ASSERT_EQ(c.size(), 1u);
    EXPECT_EQ(c[0].overlap_count, 3);
    EXPECT_EQ(c[0].outcome, Outcome::busy);
    // 98 ticks (980 ms) is inside the validity.
    const sim::Trace ok = run(scenario(R"({"name": "a", "network": {"reply": 98}})", opts));
    c = counts(ok, "a");
    ASSERT_EQ(c.size(), 1u);
    EXPECT_EQ(c[0].outcome, Outcome::acquired);
}

// Rules 20.2.3-20.2.4: a store's clock jump ends its key alone, at once.
TEST(Redlock, AStoresClockJumpEndsItsKeyOnly) {
    const std::string faults = R"(, "faults": [{"kind": "clock_jump", "clock": "B", "at": 10, "ms": 5000}])";
    const sim::Trace t = run(scenario(R"({"name": "a"})", faults));
    const auto expired = find(t, "a", EventOp::expire);
    ASSERT_EQ(expired.size(), 1u);
    EXPECT_EQ(expired[0].tick, 10);
    EXPECT_EQ(expired[0].server, 1);
    // The release then deletes on A and C only: still a quorum of 3.
    const auto released = find(t, "a", EventOp::quorum).back();
    EXPECT_EQ(released.overlap_count, 2);
    EXPECT_EQ(released.outcome, Outcome::released);
}

// Rule 20.2.5: a store that expires by a monotonic clock keeps its key
// through its clock's jump; the jump is still in the trace.
TEST(Redlock, AMonotonicStoreKeepsItsKeyThroughAJump) {
    const std::string faults =
        R"(, "stores_clock": "monotonic", "faults": [{"kind": "clock_jump", "clock": "B", "at": 10, "ms": 5000}])";
    const sim::Trace t = run(scenario(R"({"name": "a"})", faults));
    EXPECT_TRUE(find(t, "a", EventOp::expire).empty());
    ASSERT_EQ(find(t, "B", EventOp::clock_jump).size(), 1u);
    const auto released = find(t, "a", EventOp::quorum).back();
    EXPECT_EQ(released.overlap_count, 3);
    // Written back only when not the default, and only with the redlock client.
    const sim::Scenario sc = trace_test::parse(scenario(R"({"name": "a"})", faults));
    EXPECT_NE(sim::scenario_to_json(sc).find("\"stores_clock\": \"monotonic\""), std::string::npos);
    EXPECT_EQ(sim::scenario_to_json(trace_test::parse(scenario(R"({"name": "a"})"))).find("stores_clock"),
              std::string::npos);
}

// Rule 20.3: a restart keeps what its persistence kept.
TEST(Redlock, ARestartKeepsWhatItsPersistenceKept) {
    auto restart = [&](const char* persistence) {
        const std::string faults = std::string(R"(, "faults": [{"kind": "restart", "store": "A", "at": 5, "ticks": 3,
                                                  "persistence": ")") +
                                   persistence + R"("}])";
        const sim::Trace t = run(scenario(R"({"name": "a"})", faults));
        for (const Event& e : t.events)
            if (e.op == EventOp::restart) return e.outcome;
        return Outcome::stale;  // none: the test fails below
    };
    EXPECT_EQ(restart("always"), Outcome::kept);
    EXPECT_EQ(restart("none"), Outcome::lost);
    // everysec: the key was set at tick 0 (0 ms), and tick 0 is the last
    // whole second before the crash at 50 ms: the fsync of tick 0 came before
    // the key was written, so the key is lost.
    EXPECT_EQ(restart("everysec"), Outcome::lost);
}

TEST(Redlock, EverysecKeepsWhatTheLastWholeSecondHad) {
    // The key is set at tick 0; the restart at 1.05 s follows the fsync at tick 100 (1 s).
    const std::string faults =
        R"(, "faults": [{"kind": "restart", "store": "A", "at": 105, "ticks": 3, "persistence": "everysec"}])";
    const sim::Trace t = run(scenario(R"({"name": "a", "action": 200, "lease": 150})", faults));
    bool kept = false;
    for (const Event& e : t.events)
        if (e.op == EventOp::restart) kept = e.outcome == Outcome::kept;
    EXPECT_TRUE(kept);
}

// Rule 20.3: a call to a store that is down fails at once.
TEST(Redlock, ADownStoreAnswersAnError) {
    const std::string faults = R"(, "faults": [{"kind": "restart", "store": "C", "at": 0, "ticks": 50}])";
    const sim::Trace t = run(scenario(R"({"name": "a"})", faults));
    const auto answers = find(t, "a", EventOp::acquire);
    ASSERT_EQ(answers.size(), 3u);
    EXPECT_EQ(answers[2].outcome, Outcome::error);
    EXPECT_EQ(counts(t, "a")[0].outcome, Outcome::acquired);  // 2 of 3
}

// Rule 20.7: a partition holds the messages to its stores until it ends.
TEST(Redlock, APartitionHoldsMessagesUntilItEnds) {
    const std::string faults =
        R"(, "faults": [{"kind": "partition", "node": "a", "at": 0, "ticks": 30, "stores": ["C"]}],
           "redlock": {"retry_count": 0})";
    const sim::Trace t = run(scenario(R"({"name": "a"})", faults));
    const auto c = counts(t, "a");
    ASSERT_EQ(c.size(), 1u);
    EXPECT_EQ(c[0].tick, 30);  // it waited for C's answer (rule 20.4.4)
    EXPECT_EQ(c[0].outcome, Outcome::acquired);
    const auto answers = find(t, "a", EventOp::acquire);
    EXPECT_EQ(answers[2].sent, 0);
    EXPECT_FALSE(answers[2].applied);  // applied at 30, the tick of the event: not written (§16.6)
}

// Rule 20.7: a delay adds its extra ticks to what is sent in [at, at + ticks)
// to its stores only; the count waits for the late answer (rule 20.4.4).
TEST(Redlock, ADelayAddsItsTicksToItsStoresOnly) {
    const std::string faults = R"(, "faults": [{"kind": "delay", "node": "a", "at": 0, "ticks": 1, "link": "request",
                                                "extra": 7, "stores": ["B"]}], "redlock": {"retry_count": 0})";
    const sim::Trace t = run(scenario(R"({"name": "a"})", faults));
    const auto answers = find(t, "a", EventOp::acquire);
    ASSERT_EQ(answers.size(), 3u);
    EXPECT_EQ(answers[0].tick, 0);  // A, undelayed
    const auto b = std::find_if(answers.begin(), answers.end(), [](const Event& e) { return e.server == 1; });
    ASSERT_NE(b, answers.end());
    EXPECT_EQ(b->tick, 7);
    EXPECT_EQ(counts(t, "a")[0].tick, 7);
    // Sent after the delay's span: no extra.
    const std::string later = R"(, "faults": [{"kind": "delay", "node": "a", "at": 1, "ticks": 5, "link": "request",
                                               "extra": 7}], "redlock": {"retry_count": 0})";
    EXPECT_EQ(counts(run(scenario(R"({"name": "a"})", later)), "a")[0].tick, 0);
}

// Rule 20.6: a paused holder's late write is stale, and unsafe once another
// client holds a quorum; the resource accepts it.
TEST(Redlock, ALateWriteIsStaleAndUnsafe) {
    const std::string faults = R"(, "faults": [{"kind": "pause", "node": "a", "at": 2, "ticks": 150}])";
    // a's keys expire at tick 100; b locks at 110 and works until 210; a resumes at 152 and writes at 160.
    const sim::Trace t = run(scenario(
        R"({"name": "a", "writes": [10]}, {"name": "b", "start": 110, "action": 100, "writes": [50]})", faults));
    const auto writes = find(t, "a", EventOp::write);
    ASSERT_EQ(writes.size(), 1u);
    EXPECT_EQ(writes[0].outcome, Outcome::accepted);
    EXPECT_TRUE(writes[0].details.has(sim::Detail::stale));
    EXPECT_TRUE(writes[0].details.has(sim::Detail::unsafe_write));
    EXPECT_EQ(t.summary.violations.unsafe_write, 1);
    EXPECT_EQ(t.summary.violations.overlap, 1);
    EXPECT_FALSE(find(t, "b", EventOp::write).front().details.has(sim::Detail::stale));
}

// §10: the same scenario and seed give the same bytes; the jitter draws come from the seed.
TEST(Redlock, JitterIsSeededAndRepeatable) {
    const std::string opts = R"(, "seed": 9, "redlock": {"retry_count": 5, "retry_jitter_ms": 100})";
    const std::string cands = R"({"name": "a", "action": 500}, {"name": "b", "start": 1})";
    EXPECT_EQ(trace_test::trace_bytes(run(scenario(cands, opts))), trace_test::trace_bytes(run(scenario(cands, opts))));
    const auto c = counts(run(scenario(cands, opts)), "b");
    ASSERT_EQ(c.size(), 6u);
    bool varied = false;
    for (std::size_t k = 2; k < c.size(); ++k)
        varied = varied || (c[k].tick - c[k - 1].tick) != (c[1].tick - c[0].tick);
    EXPECT_TRUE(varied);  // ±100 ms around 200 ms at 10 ms a tick
}

// The trace reads back, and its summary counts what its events mark.
TEST(Redlock, TheTraceReadsBack) {
    const sim::Trace t = run(scenario(R"({"name": "a", "writes": [10]}, {"name": "b", "start": 110})",
                                      R"(, "faults": [{"kind": "pause", "node": "a", "at": 2, "ticks": 150}])"));
    const std::string bytes = trace_test::trace_bytes(t);
    auto back = sim::parse_trace(bytes, "t.jsonl");
    ASSERT_TRUE(back.ok()) << back.error().to_string();
    EXPECT_EQ(trace_test::trace_bytes(back.value()), bytes);
}

// §20.1: what a Redlock scenario refuses, each at its JSON path.
TEST(Redlock, BadInputNamesItsPath) {
    EXPECT_NE(error_of(scenario(R"({"name": "a"})", "", "[]")).find("/stores: expected at least one store"),
              std::string::npos);
    EXPECT_NE(error_of(scenario(R"({"name": "a"})", "", R"(["A", "A"])")).find("/stores/1: store \"A\" is named twice"),
              std::string::npos);
    EXPECT_NE(error_of(scenario(R"({"name": "a"})",
                                R"(, "faults": [{"kind": "restart", "store": "F", "at": 1, "ticks": 1}])"))
                  .find("/faults/0/store: unknown store \"F\""),
              std::string::npos);
    EXPECT_NE(error_of(scenario(R"({"name": "a", "auto_extend": true})"))
                  .find("/candidates/0/auto_extend: \"auto_extend\" is not an option of the redlock client"),
              std::string::npos);
    EXPECT_NE(error_of(scenario(R"({"name": "A"})")).find("/stores/0: store \"A\" has a candidate's name"),
              std::string::npos);
    EXPECT_NE(
        error_of(scenario(R"({"name": "a"})", R"(, "redlock": {"retry_count": 1, "drift": 0.1})")).find("/redlock"),
        std::string::npos);
    EXPECT_NE(error_of(scenario(R"({"name": "a"})", R"(, "redlock": {"drift_factor": 2})"))
                  .find("/redlock/drift_factor: expected a number from 0 to 1"),
              std::string::npos);
    EXPECT_NE(error_of(scenario(R"({"name": "a"})", R"(, "resource": {"mode": "check"})")).find("/resource/mode"),
              std::string::npos);
    EXPECT_NE(error_of(R"({"name": "x", "stores": ["A"], "defaults": {"wait": 0, "lease": 5, "action": 2},
                           "candidates": [{"name": "a"}]})")
                  .find("/stores: \"stores\" are Redlock's masters: set \"client\": \"redlock\""),
              std::string::npos);
    EXPECT_NE(error_of(R"({"name": "x", "client": "redlock", "defaults": {"wait": 0, "lease": 5, "action": 2},
                           "candidates": [{"name": "a"}]})")
                  .find("/client: client \"redlock\" needs \"stores\""),
              std::string::npos);
    EXPECT_NE(error_of(scenario(R"({"name": "a"})", R"(, "stores_clock": "steady")")).find("/stores_clock"),
              std::string::npos);
    EXPECT_NE(error_of(R"({"name": "x", "stores_clock": "monotonic", "defaults": {"wait": 0, "lease": 5, "action": 2},
                           "candidates": [{"name": "a"}]})")
                  .find("/stores_clock: \"stores_clock\" is the clock of Redlock's stores"),
              std::string::npos);
    // An even number of stores is what the client allows (redlock.js 130-132).
    EXPECT_EQ(error_of(scenario(R"({"name": "a"})", "", R"(["A", "B"])")), "(accepted)");
}

// A scenario without stores is the Kotlin elector's, as before: its trace is /2.
TEST(Redlock, ScenariosWithoutStoresAreUnchanged) {
    const sim::Trace t = run(R"({"name": "x", "defaults": {"wait": 0, "lease": 5, "action": 2},
                                 "candidates": [{"name": "a"}]})");
    EXPECT_EQ(t.header.format, 2);
    EXPECT_TRUE(t.header.stores.empty());
    EXPECT_EQ(sim::header_line(t.header).find("stores"), std::string::npos);
}

}  // namespace

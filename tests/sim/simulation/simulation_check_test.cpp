// Check, then act (docs/model.md §5.8): a candidate with "check": "validate"
// calls validate(own token) before each write and writes only on current;
// the call takes time like the others, the action waits for it, a pause
// after the answer sends the write late, and any other answer makes the
// action throw. The trace's event, its read-back and the key's write-back.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "leasescope/sim/generator.hpp"
#include "leasescope/sim/simulation.hpp"
#include "support/trace_test_helpers.hpp"

using namespace leasescope;
using namespace leasescope::sim;

// A named namespace: the unity build puts this file next to the other simulation tests.
namespace check_test {

using namespace trace_test;

// The preset's story (scenarios/check-then-act.json): node-a checks at 4, the
// answer comes at 5 as a 12-tick pause begins; node-b takes over at 10.
constexpr const char* paused_after_check = R"({"name": "t", "horizon": 30, "resource": {"mode": "off"},
    "defaults": {"lease": 10},
    "candidates": [{"name": "node-a", "wait": 0, "action": 6, "writes": [4], "check": "validate"},
                   {"name": "node-b", "start": 1, "wait": 15, "action": 4, "writes": [1]}],
    "faults": [{"kind": "delay", "node": "node-a", "at": 4, "ticks": 1, "link": "reply", "extra": 1},
               {"kind": "pause", "node": "node-a", "at": 5, "ticks": 12}]})";

}  // namespace check_test

using namespace check_test;

// §5.8 rules 1, 5, 6: with every latency 0 the check and the write share the
// tick, the check's event (phase work, op validate, the node naming itself)
// right before the write's; the writes are where they were without a check.
TEST(SimulationCheck, ZeroLatencyCheckComesRightBeforeTheWrite) {
    const char* text = R"({"name": "t", "horizon": 30, "defaults": {"wait": 0, "lease": 10, "action": 5},
        "candidates": [{"name": "node-a", "writes": [2, 4], "check": "validate"}]})";
    const Trace t = simulate(check_test::parse(text));
    const auto checks = check_test::find(t, "node-a", EventOp::validate);
    const auto writes = check_test::find(t, "node-a", EventOp::write);
    ASSERT_EQ(checks.size(), 2u);
    ASSERT_EQ(writes.size(), 2u);
    for (std::size_t k = 0; k < 2; ++k) {
        EXPECT_EQ(checks[k].phase, Phase::work);
        EXPECT_EQ(checks[k].outcome, Outcome::current);
        EXPECT_EQ(checks[k].named_node, "node-a");
        EXPECT_EQ(checks[k].run, 0);
        EXPECT_EQ(checks[k].fencing, std::nullopt);
        EXPECT_EQ(checks[k].tick, writes[k].tick);
        EXPECT_EQ(checks[k].seq + 1, writes[k].seq);
        EXPECT_EQ(checks[k].sent, std::nullopt);
    }
    EXPECT_EQ(writes[0].tick, 2);
    EXPECT_EQ(writes[1].tick, 4);
    EXPECT_EQ(check_test::result_of(t, "node-a"), "elected");
}

// §5.8 rule 4: the lease (3 ticks) ended before the check at progress 4:
// vacant, so no write, and the run ends action_failed with its release.
TEST(SimulationCheck, VacantAnswerThrowsAndWritesNothing) {
    const Trace t = simulate(check_test::parse(R"({"name": "t", "horizon": 30,
        "defaults": {"wait": 0, "lease": 3, "action": 6},
        "candidates": [{"name": "node-a", "writes": [4], "check": "validate"}]})"));
    const auto checks = check_test::find(t, "node-a", EventOp::validate);
    ASSERT_EQ(checks.size(), 1u);
    EXPECT_EQ(checks[0].tick, 4);
    EXPECT_EQ(checks[0].outcome, Outcome::vacant);
    EXPECT_TRUE(check_test::find(t, "node-a", EventOp::write).empty());
    EXPECT_EQ(check_test::result_of(t, "node-a"), "action_failed");
    const auto releases = check_test::find(t, "node-a", EventOp::release);
    ASSERT_EQ(releases.size(), 1u);
    EXPECT_EQ(releases[0].tick, 4);
}

// §5.8 rule 4: node-b holds the lock when node-a checks: stale, no write.
TEST(SimulationCheck, StaleAnswerThrows) {
    const Trace t = simulate(check_test::parse(R"({"name": "t", "horizon": 30,
        "defaults": {"wait": 10, "lease": 3, "action": 6},
        "candidates": [{"name": "node-a", "writes": [5], "check": "validate"},
                       {"name": "node-b", "start": 1, "writes": [6]}]})"));
    const auto checks = check_test::find(t, "node-a", EventOp::validate);
    ASSERT_EQ(checks.size(), 1u);
    EXPECT_EQ(checks[0].outcome, Outcome::stale);
    EXPECT_TRUE(check_test::find(t, "node-a", EventOp::write).empty());
    EXPECT_EQ(check_test::result_of(t, "node-a"), "action_failed");
    EXPECT_EQ(t.summary.violations.stale_after_successor, 0);
    EXPECT_EQ(t.summary.violations.unsafe_write, 0);
}

// §5.8 rules 1-3: the check sent at 2 has its reply delayed 2 ticks; the
// action stands still meanwhile and the write goes when the answer comes
// (learned at 4); the action then goes on from 5 and ends at 6, two late.
TEST(SimulationCheck, TheActionWaitsForTheAnswer) {
    const Trace t = simulate(check_test::parse(R"({"name": "t", "horizon": 40,
        "defaults": {"wait": 0, "lease": 20, "action": 4},
        "candidates": [{"name": "node-a", "writes": [2], "check": "validate"}],
        "faults": [{"kind": "delay", "node": "node-a", "at": 2, "ticks": 1, "link": "reply", "extra": 2}]})"));
    const auto checks = check_test::find(t, "node-a", EventOp::validate);
    ASSERT_EQ(checks.size(), 1u);
    EXPECT_EQ(checks[0].tick, 4);
    EXPECT_EQ(checks[0].outcome, Outcome::current);
    EXPECT_EQ(checks[0].sent, std::optional<Tick>(2));
    EXPECT_EQ(checks[0].applied, std::optional<Tick>(2));
    const auto writes = check_test::find(t, "node-a", EventOp::write);
    ASSERT_EQ(writes.size(), 1u);
    EXPECT_EQ(writes[0].tick, 4);
    EXPECT_EQ(writes[0].sent, std::nullopt);
    const auto releases = check_test::find(t, "node-a", EventOp::release);
    ASSERT_EQ(releases.size(), 1u);
    EXPECT_EQ(releases[0].tick, 6);
    EXPECT_EQ(check_test::result_of(t, "node-a"), "elected");
}

// §5.8 rule 3: the answer (current at 4) arrives at 5, in node-a's pause;
// the write goes at its first active tick, 17, long after its lease ended
// and node-b's write was accepted: mode off accepts it, a lost update.
TEST(SimulationCheck, PauseBetweenCheckAndWriteSendsTheWriteLate) {
    const Trace t = simulate(check_test::parse(check_test::paused_after_check));
    const auto checks = check_test::find(t, "node-a", EventOp::validate);
    ASSERT_EQ(checks.size(), 1u);
    EXPECT_EQ(checks[0].tick, 17);
    EXPECT_EQ(checks[0].outcome, Outcome::current);
    EXPECT_EQ(checks[0].applied, std::optional<Tick>(4));
    const auto writes = check_test::find(t, "node-a", EventOp::write);
    ASSERT_EQ(writes.size(), 1u);
    EXPECT_EQ(writes[0].tick, 17);
    EXPECT_EQ(writes[0].outcome, Outcome::accepted);
    EXPECT_TRUE(writes[0].details.has(Detail::stale));
    EXPECT_TRUE(writes[0].details.has(Detail::stale_after_successor));
    const auto b_writes = check_test::find(t, "node-b", EventOp::write);
    ASSERT_EQ(b_writes.size(), 1u);
    EXPECT_EQ(b_writes[0].tick, 11);
    EXPECT_EQ(t.summary.violations.stale_after_successor, 1);
}

// The lesson's other half: the same story in mode check, where the resource
// compares fencing numbers at arrival and refuses node-a's late write.
TEST(SimulationCheck, OnlyTheResourcesFenceRefusesTheLateWrite) {
    Scenario s = check_test::parse(check_test::paused_after_check);
    s.resource = ResourceMode::check;
    const Trace t = simulate(s);
    const auto writes = check_test::find(t, "node-a", EventOp::write);
    ASSERT_EQ(writes.size(), 1u);
    EXPECT_EQ(writes[0].outcome, Outcome::rejected);
    EXPECT_EQ(t.summary.violations.stale_after_successor, 0);
}

// §5.8 rule 1: a partition fails the check in its tick (no answer), and the
// action throws; so does a command timeout (reply 5 ticks late, timeout 2).
TEST(SimulationCheck, PartitionAndTimeoutFailTheCheck) {
    const Trace cut = simulate(check_test::parse(R"({"name": "t", "horizon": 30,
        "defaults": {"wait": 0, "lease": 10, "action": 5},
        "candidates": [{"name": "node-a", "writes": [3], "check": "validate"}],
        "faults": [{"kind": "partition", "node": "node-a", "at": 2, "ticks": 4, "mode": "drop_replies"}]})"));
    auto checks = check_test::find(cut, "node-a", EventOp::validate);
    ASSERT_EQ(checks.size(), 1u);
    EXPECT_EQ(checks[0].tick, 3);
    EXPECT_EQ(checks[0].outcome, Outcome::error);
    EXPECT_TRUE(check_test::find(cut, "node-a", EventOp::write).empty());
    EXPECT_EQ(check_test::result_of(cut, "node-a"), "action_failed");

    const Trace slow = simulate(check_test::parse(R"({"name": "t", "horizon": 30,
        "defaults": {"wait": 0, "lease": 10, "action": 5},
        "candidates": [{"name": "node-a", "writes": [3], "check": "validate", "command_timeout": 2}],
        "faults": [{"kind": "delay", "node": "node-a", "at": 3, "ticks": 1, "link": "reply", "extra": 5}]})"));
    checks = check_test::find(slow, "node-a", EventOp::validate);
    ASSERT_EQ(checks.size(), 1u);
    EXPECT_EQ(checks[0].tick, 5);
    EXPECT_EQ(checks[0].outcome, Outcome::error);
    EXPECT_EQ(checks[0].sent, std::optional<Tick>(3));
    EXPECT_TRUE(check_test::find(slow, "node-a", EventOp::write).empty());
    EXPECT_EQ(check_test::result_of(slow, "node-a"), "action_failed");
}

// §5.8 rule 5, §16.4: a node that crashes while its check is on the wire
// never hears the answer: the check is reported as error when the reply
// arrives, nothing is written, the run stays crashed.
TEST(SimulationCheck, CrashWhileCheckingWritesNothing) {
    const Trace t = simulate(check_test::parse(R"({"name": "t", "horizon": 30,
        "defaults": {"wait": 0, "lease": 10, "action": 5},
        "candidates": [{"name": "node-a", "writes": [2], "check": "validate"}],
        "faults": [{"kind": "delay", "node": "node-a", "at": 2, "ticks": 1, "link": "reply", "extra": 3},
                   {"kind": "crash", "node": "node-a", "at": 3}]})"));
    const auto checks = check_test::find(t, "node-a", EventOp::validate);
    ASSERT_EQ(checks.size(), 1u);
    EXPECT_EQ(checks[0].tick, 5);
    EXPECT_EQ(checks[0].outcome, Outcome::error);
    EXPECT_TRUE(check_test::find(t, "node-a", EventOp::write).empty());
    EXPECT_EQ(check_test::result_of(t, "node-a"), "crashed");
}

// §12.1: the check's event with sent and applied is read back as written.
TEST(SimulationCheck, CheckEventReadsBack) {
    const Trace t = simulate(check_test::parse(check_test::paused_after_check));
    std::string text = header_line(t.header) + "\n";
    for (const Event& e : t.events) text += event_line(e) + "\n";
    text += summary_line(t.summary) + "\n";
    auto back = parse_trace(text, "t.jsonl");
    ASSERT_TRUE(back.ok()) << back.error().to_string();
    EXPECT_EQ(back.value().events, t.events);
}

// §11: "check" is written back only when it is not "none", and reads back;
// an unknown word names its JSON path and the words.
TEST(SimulationCheck, KeyWritesBackAndRejectsUnknownWords) {
    const Scenario s = check_test::parse(check_test::paused_after_check);
    EXPECT_EQ(s.candidates[0].options.check, WriteCheck::validate);
    EXPECT_EQ(s.candidates[1].options.check, WriteCheck::none);
    const std::string written = scenario_to_json(s);
    const auto json = nlohmann::json::parse(written);
    EXPECT_EQ(json["candidates"][0]["check"], "validate") << written;
    EXPECT_FALSE(json["candidates"][1].contains("check")) << written;
    EXPECT_EQ(check_test::parse(written).candidates[0].options.check, WriteCheck::validate);
    auto bad = parse_scenario(R"({"name": "t", "defaults": {"wait": 0, "lease": 3, "action": 2},
        "candidates": [{"name": "node-a", "check": "validated"}]})",
                              "bad.json");
    ASSERT_FALSE(bad.ok());
    const std::string error = bad.error().to_string();
    EXPECT_NE(error.find("/candidates/0/check"), std::string::npos) << error;
    EXPECT_NE(error.find("validate"), std::string::npos) << error;
}

// §5.8 over generated scenarios (faults, no time on the wire): with every
// candidate checking, each write comes right after its own node's check,
// answered current in the same tick, so no write is ever stale or a lost
// update; every check that is not current is followed by no write of that
// run at that tick; and the run is deterministic.
TEST(SimulationCheck, GeneratedScenariosWithChecksNeverWriteStale) {
    std::int64_t writes = 0;
    std::int64_t refused = 0;  // checks that stopped a write
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
        GeneratorOptions o;
        o.candidates = 6;
        o.horizon = 300;
        o.seed = seed;
        Scenario s = check_test::parse(generate_scenario(o));
        for (Candidate& c : s.candidates) c.options.check = WriteCheck::validate;
        const Trace t = simulate(s);
        EXPECT_EQ(t.summary.trace_sha256, simulate(s).summary.trace_sha256) << seed;
        for (std::size_t k = 0; k < t.events.size(); ++k) {
            const Event& e = t.events[k];
            if (e.op == EventOp::validate && e.phase == Phase::work && e.outcome != Outcome::current) ++refused;
            if (e.op != EventOp::write) continue;
            ++writes;
            ASSERT_GT(k, 0u) << seed;
            const Event& before = t.events[k - 1];
            EXPECT_EQ(before.op, EventOp::validate) << seed << " event " << k;
            EXPECT_EQ(before.node, e.node) << seed << " event " << k;
            EXPECT_EQ(before.tick, e.tick) << seed << " event " << k;
            EXPECT_EQ(before.outcome, Outcome::current) << seed << " event " << k;
            EXPECT_FALSE(e.details.has(Detail::stale)) << seed << " event " << k;
            EXPECT_FALSE(e.details.has(Detail::stale_after_successor)) << seed << " event " << k;
        }
    }
    // The generated runs do write, and some checks do stop a stale write.
    EXPECT_GT(writes, 100);
    EXPECT_GT(refused, 0);
}

// Time on the wire (docs/model.md §16): requests applied at their arrival,
// replies learned at theirs, the command timeout, paused nodes, writes judged
// at arrival, the delay fault's window, the trace keys sent/applied, and the
// properties: causality, determinism, and zero latency is today's model.
#include <gtest/gtest.h>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "leasescope/sim/generator.hpp"
#include "leasescope/sim/simulation.hpp"
#include "support/trace_test_helpers.hpp"
#include "support/preset_loader.hpp"

using namespace leasescope;
using namespace leasescope::sim;

// A named namespace: the unity build puts this file next to simulation_test.cpp.
namespace wire_test {

using namespace trace_test;

}  // namespace wire_test

using namespace wire_test;

// §16.3: a request with latency 3 is applied by the store at tick 3, so the
// record's lease counts from there (it expires at 3 + 5), and the node learns
// the answer at 3 (reply latency 0): the event says sent 0 and no applied key.
TEST(SimulationWire, RequestIsAppliedAtItsArrival) {
    const Trace t = simulate(wire_test::parse(R"({"name": "t", "horizon": 40,
        "defaults": {"wait": 0, "lease": 5, "action": 2},
        "candidates": [{"name": "node-a", "network": {"request": 3}}]})"));
    const auto acquires = wire_test::find(t, "node-a", EventOp::acquire);
    ASSERT_EQ(acquires.size(), 1u);
    EXPECT_EQ(acquires[0].tick, 3);
    EXPECT_EQ(acquires[0].outcome, Outcome::acquired);
    EXPECT_EQ(acquires[0].sent, std::optional<Tick>(0));
    EXPECT_EQ(acquires[0].applied, std::nullopt);
    const auto expires = wire_test::find(t, "node-a", EventOp::expire);
    ASSERT_EQ(expires.size(), 1u);
    EXPECT_EQ(expires[0].tick, 8);
    // The release sent at 5 arrives at 8, after the expiry phase: not_owner.
    const auto releases = wire_test::find(t, "node-a", EventOp::release);
    ASSERT_EQ(releases.size(), 1u);
    EXPECT_EQ(releases[0].tick, 8);
    EXPECT_EQ(releases[0].outcome, Outcome::not_owner);
    EXPECT_EQ(releases[0].sent, std::optional<Tick>(5));
}

// §16.4: while its reply is on the wire the elector waits: node-b attempts
// at 1, learns busy only at 5, retries at 6 and learns acquired at 10; its
// action (3 ticks) counts from 10, and its release's reply takes 4 ticks too.
TEST(SimulationWire, LateReplyTheElectorWaits) {
    const Trace t = simulate(wire_test::parse(R"({"name": "t", "horizon": 60,
        "defaults": {"wait": 20, "lease": 10, "action": 3},
        "candidates": [{"name": "node-a"}, {"name": "node-b", "start": 1, "network": {"reply": 4}}]})"));
    const auto acquires = wire_test::find(t, "node-b", EventOp::acquire);
    ASSERT_EQ(acquires.size(), 2u);
    EXPECT_EQ(acquires[0].tick, 5);
    EXPECT_EQ(acquires[0].outcome, Outcome::busy);
    EXPECT_EQ(acquires[0].ttl, std::optional<Tick>(9));  // the time left at application, tick 1
    EXPECT_EQ(acquires[0].sent, std::optional<Tick>(1));
    EXPECT_EQ(acquires[0].applied, std::optional<Tick>(1));
    EXPECT_EQ(acquires[1].tick, 10);
    EXPECT_EQ(acquires[1].outcome, Outcome::acquired);
    EXPECT_EQ(acquires[1].sent, std::optional<Tick>(6));
    EXPECT_EQ(acquires[1].applied, std::optional<Tick>(6));
    const auto writes = wire_test::find(t, "node-b", EventOp::write);
    ASSERT_EQ(writes.size(), 1u);
    EXPECT_EQ(writes[0].tick, 13);
    const auto releases = wire_test::find(t, "node-b", EventOp::release);
    ASSERT_EQ(releases.size(), 1u);
    EXPECT_EQ(releases[0].tick, 17);
    EXPECT_EQ(releases[0].outcome, Outcome::released);
    EXPECT_EQ(releases[0].sent, std::optional<Tick>(13));
    EXPECT_EQ(releases[0].applied, std::optional<Tick>(13));
}

// §16.4: the reply takes 10 ticks, the command timeout is 3: the call fails
// at 3 as a transient error although the store applied it at 0; the orphaned
// lease shows as a lost reply and expires by its TTL.
TEST(SimulationWire, TimeoutIsAnErrorAlthoughApplied) {
    const Trace t = simulate(wire_test::parse(R"({"name": "t", "horizon": 60,
        "defaults": {"wait": 0, "lease": 8, "action": 2},
        "candidates": [{"name": "node-a", "network": {"reply": 10}, "command_timeout": 3}]})"));
    const auto acquires = wire_test::find(t, "node-a", EventOp::acquire);
    ASSERT_EQ(acquires.size(), 1u);
    EXPECT_EQ(acquires[0].tick, 3);
    EXPECT_EQ(acquires[0].outcome, Outcome::error);
    EXPECT_TRUE(acquires[0].details.has(Detail::reply_lost));
    EXPECT_EQ(acquires[0].fencing, std::optional<Fencing>(1));
    EXPECT_EQ(acquires[0].sent, std::optional<Tick>(0));
    EXPECT_EQ(acquires[0].applied, std::optional<Tick>(0));
    EXPECT_EQ(wire_test::result_of(t, "node-a"), "acquire_failed");
    ASSERT_EQ(wire_test::find(t, "node-a", EventOp::expire).size(), 1u);
    EXPECT_EQ(wire_test::find(t, "node-a", EventOp::expire)[0].tick, 8);
}

// §16.6: a request slower than the timeout: the call fails at 3 with nothing
// applied, and the store applies it at 10 anyway, reported then.
TEST(SimulationWire, RequestAppliedAfterItsTimeoutIsReported) {
    const Trace t = simulate(wire_test::parse(R"({"name": "t", "horizon": 60,
        "defaults": {"wait": 0, "lease": 8, "action": 2},
        "candidates": [{"name": "node-a", "network": {"request": 10}, "command_timeout": 3}]})"));
    const auto acquires = wire_test::find(t, "node-a", EventOp::acquire);
    ASSERT_EQ(acquires.size(), 2u);
    EXPECT_EQ(acquires[0].tick, 3);
    EXPECT_EQ(acquires[0].outcome, Outcome::error);
    EXPECT_EQ(acquires[0].fencing, std::nullopt);
    EXPECT_EQ(acquires[0].applied, std::nullopt);
    EXPECT_EQ(acquires[1].tick, 10);
    EXPECT_EQ(acquires[1].outcome, Outcome::error);
    EXPECT_TRUE(acquires[1].details.has(Detail::reply_lost));
    EXPECT_EQ(acquires[1].fencing, std::optional<Fencing>(1));
    EXPECT_EQ(acquires[1].sent, std::optional<Tick>(0));
    EXPECT_EQ(wire_test::result_of(t, "node-a"), "acquire_failed");
    ASSERT_EQ(wire_test::find(t, "node-a", EventOp::expire).size(), 1u);
    EXPECT_EQ(wire_test::find(t, "node-a", EventOp::expire)[0].tick, 18);
}

// §16.3: the reply arrives at 2, during a pause of ticks 1-4: the node
// handles it at 5, its first active tick, and its action counts from there.
TEST(SimulationWire, PausedNodeHandlesALateReplyWhenItWakes) {
    const Trace t = simulate(wire_test::parse(R"({"name": "t", "horizon": 60,
        "defaults": {"wait": 0, "lease": 20, "action": 2},
        "candidates": [{"name": "node-a", "network": {"reply": 2}}],
        "faults": [{"kind": "pause", "node": "node-a", "at": 1, "ticks": 4}]})"));
    const auto acquires = wire_test::find(t, "node-a", EventOp::acquire);
    ASSERT_EQ(acquires.size(), 1u);
    EXPECT_EQ(acquires[0].tick, 5);
    EXPECT_EQ(acquires[0].outcome, Outcome::acquired);
    EXPECT_EQ(acquires[0].sent, std::optional<Tick>(0));
    EXPECT_EQ(acquires[0].applied, std::optional<Tick>(0));
    ASSERT_EQ(wire_test::find(t, "node-a", EventOp::write).size(), 1u);
    EXPECT_EQ(wire_test::find(t, "node-a", EventOp::write)[0].tick, 7);
}

// §16.3, §16.4: the timeout (3) falls in a pause (ticks 2-11) and the
// request arrives at 10, inside it too: the node learns of its timeout at
// 12, its first active tick, and the event shows what the store applied at 10.
TEST(SimulationWire, TimeoutInAPauseBeforeTheApplication) {
    const Trace t = simulate(wire_test::parse(R"({"name": "t", "horizon": 60,
        "defaults": {"wait": 0, "lease": 30, "action": 2},
        "candidates": [{"name": "node-a", "network": {"request": 10}, "command_timeout": 3}],
        "faults": [{"kind": "pause", "node": "node-a", "at": 2, "ticks": 10}]})"));
    const auto acquires = wire_test::find(t, "node-a", EventOp::acquire);
    ASSERT_EQ(acquires.size(), 1u);
    EXPECT_EQ(acquires[0].tick, 12);
    EXPECT_EQ(acquires[0].outcome, Outcome::error);
    EXPECT_TRUE(acquires[0].details.has(Detail::reply_lost));
    EXPECT_EQ(acquires[0].sent, std::optional<Tick>(0));
    EXPECT_EQ(acquires[0].applied, std::optional<Tick>(10));
    EXPECT_EQ(wire_test::result_of(t, "node-a"), "acquire_failed");
    EXPECT_EQ(t.summary.end_tick, 40);  // the orphaned record, applied at 10, expires at 40
}

// §8, §16.5: node-a's write, sent at 2 while it leads, arrives at 10, after
// node-b (fencing 34) wrote: mode off accepts it (stale, unsafe), mode check
// refuses it; the event is at the arrival and says when it was sent.
TEST(SimulationWire, WriteIsJudgedAtItsArrival) {
    const std::string text = R"({"name": "t", "horizon": 40, "seed": 3,
        "lock": {"fencing_start": 33}, "resource": {"mode": "MODE"},
        "defaults": {"wait": 10, "lease": 5},
        "candidates": [{"name": "node-a", "action": 3, "writes": [2]},
                       {"name": "node-b", "start": 1, "action": 4, "writes": [2]}],
        "faults": [{"kind": "delay", "node": "node-a", "at": 0, "ticks": 5, "link": "write", "extra": 8}]})";
    for (const std::string mode : {"off", "check"}) {
        std::string s = text;
        s.replace(s.find("MODE"), 4, mode);
        const Trace t = simulate(wire_test::parse(s));
        const auto writes = wire_test::find(t, "node-a", EventOp::write);
        ASSERT_EQ(writes.size(), 1u) << mode;
        EXPECT_EQ(writes[0].tick, 10) << mode;
        EXPECT_EQ(writes[0].sent, std::optional<Tick>(2)) << mode;
        EXPECT_TRUE(writes[0].details.has(Detail::stale)) << mode;
        EXPECT_EQ(writes[0].outcome, mode == "off" ? Outcome::accepted : Outcome::rejected) << mode;
        EXPECT_EQ(writes[0].details.has(Detail::unsafe_write), mode == "off") << mode;
        ASSERT_EQ(wire_test::find(t, "node-b", EventOp::write).size(), 1u);
        EXPECT_EQ(wire_test::find(t, "node-b", EventOp::write)[0].tick, 5) << mode;
    }
}

// §9.4, §9.6, §9.8 with time on the wire: numbers and the acquisition order
// are judged when the store issues them, not when the node learns them. The
// store gives node-a fencing 1 at tick 0, its reply is held 11 ticks; node-b
// gets 2 at tick 10 and learns it at once. node-a's acquire, reported at 11,
// is not a regression (1 was issued before 2), and node-b is node-a's
// successor, so node-a's write accepted after node-b's is the lost update.
TEST(SimulationWire, NumbersAndOrderAreJudgedWhenTheStoreIssuesThem) {
    const Trace t = simulate(wire_test::parse(R"({"name": "t", "horizon": 40, "seed": 7,
        "defaults": {"lease": 10},
        "candidates": [{"name": "node-a", "wait": 0, "action": 5, "writes": [4]},
                       {"name": "node-b", "start": 1, "wait": 12, "action": 4, "writes": [1]}],
        "faults": [{"kind": "delay", "node": "node-a", "at": 0, "ticks": 1, "link": "reply", "extra": 11}]})"));
    const auto a = wire_test::find(t, "node-a", EventOp::acquire);
    ASSERT_EQ(a.size(), 1u);
    EXPECT_EQ(a[0].tick, 11);
    EXPECT_EQ(a[0].applied, std::optional<Tick>(0));
    EXPECT_EQ(a[0].fencing, std::optional<Fencing>(1));
    EXPECT_FALSE(a[0].details.has(Detail::fencing_regressed));
    EXPECT_EQ(t.summary.violations.fencing_regressed, 0);
    const auto w = wire_test::find(t, "node-a", EventOp::write);
    ASSERT_EQ(w.size(), 1u);
    EXPECT_EQ(w[0].outcome, Outcome::accepted);
    EXPECT_TRUE(w[0].details.has(Detail::stale_after_successor));
    EXPECT_EQ(t.summary.violations.stale_after_successor, 1);
}

// §7.6: a delay holds for messages SENT in [at, at + ticks): of writes sent
// at 1 … 8, only those sent at 3 and 4 take 10 more ticks.
TEST(SimulationWire, DelayWindowIsBySendTick) {
    const Trace t = simulate(wire_test::parse(R"({"name": "t", "horizon": 60,
        "defaults": {"wait": 0, "lease": 30, "action": 8, "writes": [1, 2, 3, 4, 5, 6, 7, 8]},
        "candidates": [{"name": "node-a"}],
        "faults": [{"kind": "delay", "node": "node-a", "at": 3, "ticks": 2, "link": "write", "extra": 10}]})"));
    std::vector<std::pair<Tick, Tick>> seen;  // (arrival, sent)
    for (const Event& e : wire_test::find(t, "node-a", EventOp::write))
        seen.emplace_back(e.tick, e.sent.value_or(e.tick));
    const std::vector<std::pair<Tick, Tick>> expected = {{1, 1}, {2, 2}, {5, 5},  {6, 6},
                                                         {7, 7}, {8, 8}, {13, 3}, {14, 4}};
    EXPECT_EQ(seen, expected);
}

// §16.4: scheduleWithFixedDelay counts from the run's completion. Lease 6
// ticks of 50 ms: a 100 ms period. Acquired at 1 (reply latency 1), the first
// run is due at moment(1) + 100 = 175 ms, tick 3; it completes at 4, so the
// next is due at 225 + 100 ms, tick 6 (not tick 5, as counted from its start).
TEST(SimulationWire, WatchdogCountsItsDelayFromTheReply) {
    const Trace t = simulate(wire_test::parse(R"({"name": "t", "horizon": 60,
        "defaults": {"wait": 0, "lease": 6, "action": 10, "auto_extend": true},
        "candidates": [{"name": "node-a", "network": {"reply": 1}}]})"));
    std::vector<std::pair<Tick, Tick>> extends;  // (learned, sent)
    for (const Event& e : wire_test::find(t, "node-a", EventOp::extend)) {
        EXPECT_EQ(e.outcome, Outcome::renewed);
        EXPECT_EQ(e.applied, e.sent);
        extends.emplace_back(e.tick, e.sent.value_or(e.tick));
    }
    const std::vector<std::pair<Tick, Tick>> expected = {{4, 3}, {7, 6}, {10, 9}};
    EXPECT_EQ(extends, expected);
    const auto releases = wire_test::find(t, "node-a", EventOp::release);
    ASSERT_EQ(releases.size(), 1u);
    EXPECT_EQ(releases[0].tick, 12);
    EXPECT_EQ(releases[0].sent, std::optional<Tick>(11));
}

// §16.4: a node that crashes with its acquire's reply on the wire learns
// nothing; the call ends when the reply arrives, as an error that shows the
// lease the store granted (an orphan, left to its TTL).
TEST(SimulationWire, CrashedNodesCallEndsWithItsReply) {
    const Trace t = simulate(wire_test::parse(R"({"name": "t", "horizon": 60,
        "defaults": {"wait": 0, "lease": 9, "action": 2},
        "candidates": [{"name": "node-a", "network": {"reply": 5}}],
        "faults": [{"kind": "crash", "node": "node-a", "at": 2}]})"));
    const auto acquires = wire_test::find(t, "node-a", EventOp::acquire);
    ASSERT_EQ(acquires.size(), 1u);
    EXPECT_EQ(acquires[0].tick, 5);
    EXPECT_EQ(acquires[0].outcome, Outcome::error);
    EXPECT_TRUE(acquires[0].details.has(Detail::reply_lost));
    EXPECT_EQ(acquires[0].fencing, std::optional<Fencing>(1));
    EXPECT_EQ(wire_test::result_of(t, "node-a"), "crashed");
    ASSERT_EQ(wire_test::find(t, "node-a", EventOp::expire).size(), 1u);
    EXPECT_EQ(wire_test::find(t, "node-a", EventOp::expire)[0].tick, 9);
}

// §11, §16.1: a scenario with time on the wire, written back, reads back the
// same: the top level's network, a candidate's own (merged per key with
// "defaults"), its command timeout and the delay faults.
TEST(SimulationWire, WriteBackKeepsTheNetwork) {
    const Scenario s = wire_test::parse(R"({"name": "t", "horizon": 60, "network": {"request": 1, "reply": 2},
        "defaults": {"wait": 10, "lease": 8, "network": {"write": 3}},
        "candidates": [{"name": "node-a", "action": 12, "network": {"reply": 4}, "command_timeout": 5},
                       {"name": "node-b", "start": 1, "action": 3}],
        "faults": [{"kind": "delay", "node": "node-a", "at": 5, "ticks": 2, "link": "reply", "extra": 20}]})");
    ASSERT_EQ(s.candidates.size(), 2u);
    EXPECT_EQ(s.candidates[0].network, (Network{1, 4, 3}));
    EXPECT_EQ(s.candidates[1].network, (Network{1, 2, 3}));
    EXPECT_EQ(s.candidates[0].options.command_timeout_ticks(), 5);
    EXPECT_EQ(s.candidates[1].options.command_timeout_ticks(), 1200);  // Lettuce's 60 s at 50 ms
    const Scenario back = wire_test::parse(scenario_to_json(s));
    EXPECT_EQ(back.network, s.network);
    EXPECT_EQ(back.candidates[0].network, s.candidates[0].network);
    EXPECT_EQ(back.candidates[1].network, s.candidates[1].network);
    EXPECT_EQ(back.candidates[0].options.command_timeout, 5);
    EXPECT_EQ(wire_test::trace_bytes(simulate(back)), wire_test::trace_bytes(simulate(s)));
}

// §12.1: the reader takes sent/applied where they may be and refuses them
// elsewhere, equal to the tick, or applied before sent.
TEST(SimulationWire, TraceReaderChecksSentAndApplied) {
    const Trace t = simulate(wire_test::parse(R"({"name": "t", "horizon": 60,
        "defaults": {"wait": 20, "lease": 10, "action": 3},
        "candidates": [{"name": "node-a"}, {"name": "node-b", "start": 1, "network": {"reply": 4}}]})"));
    const std::string bytes = trace_bytes(t);
    auto back = parse_trace(bytes, "t.jsonl");
    ASSERT_TRUE(back.ok()) << back.error().to_string();
    EXPECT_EQ(back.value().events, t.events);
    const std::string good = R"(,"sent":1,"applied":1})";
    ASSERT_NE(bytes.find(good), std::string::npos);
    for (const std::string bad :
         {R"(,"sent":5,"applied":1})", R"(,"applied":1,"sent":1})", R"(,"sent":2,"applied":1})"}) {
        std::string s = bytes;
        s.replace(s.find(good), good.size(), bad);
        EXPECT_FALSE(parse_trace(s, "t.jsonl").ok()) << bad;
    }
    std::string on_start = bytes;
    const std::size_t start = on_start.find(R"("op":"start")");
    ASSERT_NE(start, std::string::npos);
    const std::size_t close = on_start.find("}\n", start);
    on_start.insert(close, R"(,"sent":0)");
    EXPECT_FALSE(parse_trace(on_start, "t.jsonl").ok());
}

// Properties over generated scenarios with latencies and delays: no message
// is handled before it was sent or applied before it was sent (causality),
// and the same scenario gives the same bytes twice (determinism).
TEST(SimulationWire, GeneratedScenariosAreCausalAndDeterministic) {
    int with_wire = 0;
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
        GeneratorOptions o;
        o.candidates = static_cast<std::int64_t>(seed % 9 + 2);
        o.horizon = 300;
        o.seed = seed;
        o.shuffled = seed % 2 == 0;
        o.latencies = true;
        const Scenario s = wire_test::parse(generate_scenario(o));
        const Trace a = simulate(s);
        const Trace b = simulate(s);
        EXPECT_EQ(trace_bytes(a), trace_bytes(b)) << seed;
        for (const Event& e : a.events) {
            if (e.sent) {
                ++with_wire;
                EXPECT_LT(*e.sent, e.tick) << seed << " seq " << e.seq;
            }
            if (e.applied) {
                EXPECT_LE(e.sent.value_or(e.tick), *e.applied) << seed << " seq " << e.seq;
                EXPECT_LT(*e.applied, e.tick) << seed << " seq " << e.seq;
            }
        }
        EXPECT_TRUE(parse_trace(trace_bytes(a), "g.jsonl").ok()) << seed;
    }
    EXPECT_GT(with_wire, 100);  // the option does put messages on the wire
}

// Off, the generator's option changes nothing: the corpus stays the same.
TEST(SimulationWire, GeneratorWithoutLatenciesIsUnchanged) {
    GeneratorOptions o;
    o.candidates = 7;
    o.horizon = 500;
    const std::string plain = generate_scenario(o);
    EXPECT_EQ(plain.find("network"), std::string::npos);
    EXPECT_EQ(plain.find("delay"), std::string::npos);
    o.latencies = true;
    EXPECT_NE(generate_scenario(o).find("\"network\""), std::string::npos);
}

// §16 preamble: every preset with "network" all 0 written out, at the top
// level, in defaults and in each candidate (and a command timeout of 1, which
// no zero-latency call waits for), gives the preset's own trace, byte for byte.
TEST(SimulationWire, ExplicitZeroLatencyIsTodaysModel) {
    std::size_t checked = 0;
    for (const std::string& name : test::preset_names()) {
        // A preset about time on the wire (delayed-write, late-reply) has
        // latencies or delays of its own: zeroing them changes its story.
        const Scenario preset = test::load_preset(name);
        const bool timed = !preset.network.zero() ||
                           std::any_of(preset.candidates.begin(), preset.candidates.end(),
                                       [](const auto& c) { return !c.network.zero(); }) ||
                           std::any_of(preset.faults.begin(), preset.faults.end(),
                                       [](const Fault& f) { return f.kind == FaultKind::delay; }) ||
                           // WAIT blocks at the store for ticks of its own (model.md §17.6 rule 3).
                           std::any_of(preset.candidates.begin(), preset.candidates.end(),
                                       [](const auto& c) { return c.options.wait_replicas > 0; });
        // Redlock's client has no command timeout (model.md §20.1 rule 3),
        // and Redisson's takes none (§21.1 rule 3: not modelled for it).
        if (timed || preset.is_redlock() || preset.is_redisson()) continue;
        ++checked;
        auto json = nlohmann::json::parse(test::read_preset(name), nullptr, true, /*ignore_comments=*/true);
        const nlohmann::json zero = {{"request", 0}, {"reply", 0}, {"write", 0}};
        json["network"] = zero;
        if (!json.contains("defaults")) json["defaults"] = nlohmann::json::object();
        json["defaults"]["network"] = zero;
        for (auto& c : json["candidates"]) {
            c["network"] = zero;
            c["command_timeout"] = 1;
        }
        const Trace today = simulate(test::load_preset(name));
        const Trace zeroed = simulate(wire_test::parse(json.dump()));
        EXPECT_EQ(trace_bytes(today), trace_bytes(zeroed)) << name;
    }
    EXPECT_GE(checked, 21u);  // every preset without time on the wire (21 today)
}

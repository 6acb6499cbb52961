// Pins trace format /3 (model.md §12.1 item 5, §17.7): the reader accepts
// what a store with replicas writes (ops link_cut, link_restored, wait;
// outcomes synced, not_synced; the word no_replicas; the trailing key
// server) and every /3 line reads and writes back to the same bytes; a /2
// file with any of it is refused naming the line; the text view's rows for it.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "leasescope/sim/scenario.hpp"
#include "leasescope/sim/simulation.hpp"
#include "leasescope/sim/trace.hpp"

namespace {

namespace sim = leasescope::sim;
using sim::EventOp;
using sim::Outcome;

sim::Scenario scenario_of(const std::string& text) {
    auto s = sim::parse_scenario(text, "r.json");
    EXPECT_TRUE(s.ok()) << s.error().to_string();
    return s.value();
}

// Two replicas: both links cut at once (a release refused, no_replicas), WAITs
// that are answered, a failover with a lag and a split brain whose old
// primary answers node d.
const char* split_brain = R"({ "name": "r3", "horizon": 40,
  "store": { "replicas": 2, "min_replicas_to_write": 1 },
  "defaults": { "wait": 6, "lease": 8, "action": 4 },
  "candidates": [ { "name": "a", "wait_replicas": 1 }, { "name": "b", "start": 5, "wait_replicas": 2 },
                  { "name": "c", "start": 12 }, { "name": "d", "start": 22 } ],
  "faults": [ { "kind": "replica_link", "replica": 1, "at": 2, "ticks": 8 },
              { "kind": "replica_link", "replica": 2, "at": 3, "ticks": 2 },
              { "kind": "failover", "at": 20, "promote": 1, "lag": 3,
                "old_primary": { "reachable_by": ["d"], "until": 30 } } ] })";

// One replica cut while a acquires: its WAIT counts 0 and the lock is released.
const char* not_synced = R"({ "name": "r4", "horizon": 20, "store": { "replicas": 1 },
  "defaults": { "wait": 0, "lease": 8, "action": 4 },
  "candidates": [ { "name": "a", "wait_replicas": 1, "wait_timeout": 2 } ],
  "faults": [ { "kind": "replica_link", "replica": 1, "at": 0, "ticks": 5 } ] })";

std::string jsonl_of(const char* text) { return sim::trace_to_jsonl(sim::simulate(scenario_of(text))); }

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    for (std::size_t from = 0; from < text.size();) {
        const std::size_t nl = text.find('\n', from);
        lines.push_back(text.substr(from, nl - from));
        from = nl + 1;
    }
    return lines;
}

std::string error_of(const std::string& text) {
    auto r = sim::parse_trace(text, "t.jsonl");
    return r.ok() ? std::string("(accepted)") : r.error().to_string();
}

bool has(const std::vector<sim::Event>& events, EventOp op, Outcome outcome = Outcome::none) {
    for (const sim::Event& e : events)
        if (e.op == op && (outcome == Outcome::none || e.outcome == outcome)) return true;
    return false;
}

}  // namespace

TEST(TraceFormat3, EveryLineReadsAndWritesBackTheSameBytes) {
    // The /3 traces of two scenarios hold every /3 addition; each event line read and written again is itself.
    for (const char* text : {split_brain, not_synced}) {
        const std::string bytes = jsonl_of(text);
        auto back = sim::parse_trace(bytes, "r.jsonl");
        ASSERT_TRUE(back.ok()) << back.error().to_string();
        EXPECT_EQ(back.value().header.format, 3);
        EXPECT_EQ(sim::trace_to_jsonl(back.value()), bytes);
        const std::vector<std::string> lines = lines_of(bytes);
        ASSERT_EQ(lines.size(), back.value().events.size() + 2);
        for (std::size_t i = 0; i < back.value().events.size(); ++i)
            EXPECT_EQ(sim::event_line(back.value().events[i]), lines[i + 1]);
    }
    const auto a = sim::parse_trace(jsonl_of(split_brain), "r.jsonl").value();
    EXPECT_TRUE(has(a.events, EventOp::link_cut));
    EXPECT_TRUE(has(a.events, EventOp::link_restored));
    EXPECT_TRUE(has(a.events, EventOp::wait, Outcome::synced));
    const auto b = sim::parse_trace(jsonl_of(not_synced), "r.jsonl").value();
    EXPECT_TRUE(has(b.events, EventOp::wait, Outcome::not_synced));
    const std::string bytes = jsonl_of(split_brain);
    EXPECT_NE(bytes.find(R"("op":"failover","token":null,"fencing":3,"slot":null,"ttl":null,"outcome":null,)"
                         R"("detail":null,"server":1})"),
              std::string::npos);
    EXPECT_NE(bytes.find(R"("outcome":"error","detail":"no_replicas"})"), std::string::npos);
    EXPECT_NE(bytes.find(R"("outcome":"acquired","detail":null,"server":0})"), std::string::npos);
    EXPECT_NE(jsonl_of(not_synced).find(R"("outcome":"not_synced","detail":"0"})"), std::string::npos);
}

TEST(TraceFormat3, Format2LacksWhatReplicasAdd) {
    // The same lines under a /2 header are refused at the first that /2 cannot hold, naming it.
    std::string text = jsonl_of(split_brain);
    const std::vector<std::string> lines = lines_of(text);
    std::size_t first = 0;
    for (std::size_t i = 1; i < lines.size() && first == 0; ++i)
        if (lines[i].find("\"op\":\"wait\"") != std::string::npos) first = i + 1;
    text.replace(text.find("leasescope-trace/3"), 18, "leasescope-trace/2");
    EXPECT_EQ(error_of(text), "t.jsonl:" + std::to_string(first) +
                                  ": op \"wait\" is not in format \"leasescope-trace/2\"; a store with replicas writes "
                                  "\"leasescope-trace/3\" (model.md §17.7)");
    // Each addition on its own, in a /2 line: an op, an outcome, the word, the key.
    const std::string header = lines[0].substr(0, lines[0].find("leasescope-trace/3")) + "leasescope-trace/2" +
                               lines[0].substr(lines[0].find("leasescope-trace/3") + 18) + "\n";
    const std::string plain =
        R"({"type":"event","tick":1,"seq":0,"phase":"faults","node":"store","run":null,"op":"link_cut","token":null,)"
        R"("fencing":null,"slot":null,"ttl":null,"outcome":null,"detail":null})";
    EXPECT_NE(error_of(header + plain + "\n").find("t.jsonl:2: op \"link_cut\" is not in format"), std::string::npos);
    std::string line = plain;
    line.replace(line.find("link_cut"), 8, "acquire");
    line.replace(line.find("\"outcome\":null"), 14, "\"outcome\":\"synced\"");
    EXPECT_NE(error_of(header + line + "\n").find("t.jsonl:2: outcome \"synced\" is not in format"), std::string::npos);
    line = plain;
    line.replace(line.find("link_cut"), 8, "release");
    line.replace(line.find("\"detail\":null"), 13, "\"detail\":\"no_replicas\"");
    EXPECT_NE(error_of(header + line + "\n")
                  .find("t.jsonl:2: \"detail\" has the word \"no_replicas\", which format "
                        "\"leasescope-trace/2\" does not have"),
              std::string::npos);
    line = plain;
    line.replace(line.find("link_cut"), 8, "release");
    line.replace(line.rfind('}'), 1, ",\"server\":0}");
    EXPECT_NE(error_of(header + line + "\n").find("t.jsonl:2: the key \"server\" is not in format"), std::string::npos);
}

TEST(TraceFormat3, ServerAndWaitCountsAreChecked) {
    // server: 0 … replicas_max, after applied, only where §17.7 puts it; wait's detail a canonical count.
    const std::string text = jsonl_of(split_brain);
    auto error_with = [&](const std::string& from, const std::string& to) {
        std::string t = text;
        const std::size_t at = t.find(from);
        EXPECT_NE(at, std::string::npos) << from;
        if (at == std::string::npos) return std::string();
        t.replace(at, from.size(), to);
        return error_of(t);
    };
    const std::string failover = R"("detail":null,"server":1})";
    EXPECT_NE(
        error_with(failover, R"("detail":null,"server":9})").find("\"server\" is 9; expected an integer from 0 to 8"),
        std::string::npos);
    EXPECT_NE(error_with(failover, R"("detail":null,"server":null})").find("\"server\" must be an integer"),
              std::string::npos);
    const std::string start = R"("op":"start","token":"rZcyNKpd","fencing":null,"slot":null,"ttl":null,)"
                              R"("outcome":null,"detail":null})";
    EXPECT_NE(error_with(start, start.substr(0, start.size() - 1) + ",\"server\":0}")
                  .find("\"server\" on a start event; only on link_cut"),
              std::string::npos);
    const std::string wait = R"("outcome":"synced","detail":"2"})";
    EXPECT_NE(error_with(wait, R"("outcome":"synced","detail":"02"})").find("\"detail\" of wait is \"02\""),
              std::string::npos);
    EXPECT_NE(error_with(wait, R"("outcome":"synced","detail":"9"})").find("from 0 to 8"), std::string::npos);
    EXPECT_NE(error_with(wait, R"("outcome":"synced","detail":null})").find("\"detail\" of wait is \"\""),
              std::string::npos);
    EXPECT_NE(error_with(wait, R"("outcome":"synced","detail":"2","server":1,"sent":1})").find("expected key"),
              std::string::npos);
}

TEST(TraceFormat3, TextRows) {
    // The text view tells link edges, a promoting failover, WAIT's count, a NOREPLICAS refusal and the old primary.
    std::string a = sim::trace_to_text(sim::simulate(scenario_of(split_brain)), {});
    for (
        const char* row : {
            "    2  store        link_cut      -               -    -  link to replica 1 cut\n",
            "    5  store        link_restored -               -    -  link to replica 2 restored: it resynchronises\n",
            "    0  a            wait          rZcyNKpd        1    -  WAIT: 2 replicas acknowledged, enough\n",
            "   20  -            failover      -               3    -  failover: server 1 promoted, counter 3\n",
            "    4  a            release       rZcyNKpd        1    -  error: NOREPLICAS, too few good replicas: "
            "record "
            "left to expire\n",
            "   22  d            acquire       eajPfHpL        4    8  acquired slot 0 (server 0)\n",
            "   30  store        link_restored -               -    -  link to replica 0 restored: it resynchronises\n",
        })
        EXPECT_NE(a.find(row), std::string::npos) << row << "\nin\n" << a;
    const std::string b = sim::trace_to_text(sim::simulate(scenario_of(not_synced)), {});
    EXPECT_NE(b.find("WAIT: 0 replicas acknowledged, too few: the lock is released\n"), std::string::npos) << b;
    sim::Event e;
    e.op = EventOp::wait;
    e.outcome = Outcome::synced;
    e.overlap_count = 1;
    EXPECT_NE(sim::text_row(e).find("WAIT: 1 replica acknowledged, enough"), std::string::npos);
    e = sim::Event{};
    e.op = EventOp::failover;
    e.server = 2;
    EXPECT_NE(sim::text_row(e).find("failover: server 2 promoted, no number issued yet"), std::string::npos);
    e = sim::Event{};
    e.op = EventOp::extend;
    e.outcome = Outcome::error;
    e.details.add(sim::Detail::no_replicas);
    EXPECT_NE(sim::text_row(e).find("error: NOREPLICAS, too few good replicas: watchdog stops"), std::string::npos);
}

// Pins trace format /4 (model.md §12.1 item 6, §19.7): the header's import
// object, the trailing key wall_us on every event, the ops believe and
// undecided with their outcomes and words; a /4 trace reads and writes back
// to the same bytes; a /1-/3 file with any of it is refused naming the line;
// the order rule of §19.7.3 (wall_us goes back only by a store's clock step);
// the text view's wall clock column.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "leasescope/sim/trace.hpp"

namespace {

namespace sim = leasescope::sim;
using sim::Detail;
using sim::EventOp;
using sim::Outcome;
using sim::Phase;

// 2026-12-04 09:30:00 UTC in microseconds since the epoch.
constexpr std::int64_t origin_us = 1'796'376'600'000'000;

sim::Event event_at(leasescope::Tick tick, std::int64_t wall_ms, Phase phase, EventOp op, std::string node) {
    sim::Event e;
    e.tick = tick;
    e.phase = phase;
    e.op = op;
    e.node = std::move(node);
    e.wall_us = origin_us + wall_ms * 1000 + 123;
    return e;
}

sim::Event belief(leasescope::Tick tick, std::int64_t wall_ms, std::string node, Outcome outcome, Detail word) {
    sim::Event e = event_at(tick, wall_ms, Phase::ops, EventOp::believe, std::move(node));
    e.outcome = outcome;
    e.details.add(word);
    return e;
}

sim::Event undecided(leasescope::Tick tick, std::int64_t wall_ms, Detail why) {
    sim::Event e = event_at(tick, wall_ms, Phase::ops, EventOp::undecided, "");
    e.details.add(why);
    return e;
}

// A small imported history (tick 100 ms): node-a acquires and believes it
// leads (its belief, phase ops, written before a later acquire of the same
// tick: within a tick /4 is ordered by time, not phase), an unknown SHA, the
// store's clock steps back 300 ms and the lines after it go back 250 ms, then
// node-a releases.
sim::Trace history() {
    sim::Trace t;
    t.header.format = 4;
    t.header.scenario = "cap.txt";
    t.header.seed = 0;
    t.header.tick_ms = 100;
    t.header.lock = "leader";
    t.header.candidates = {"node-a", "node-b"};
    t.header.import =
        sim::ImportInfo{origin_us, "leader", {{"cap.txt", "capture", 40, 9}, {"a.jsonl", "log", 3, 3}}, 31};
    sim::Event acquire = event_at(0, 5, Phase::acquire, EventOp::acquire, "node-a");
    acquire.run = 0;
    acquire.token = "tok-a";
    acquire.fencing = 7;
    acquire.slot = 0;
    acquire.ttl = 50;
    acquire.outcome = Outcome::acquired;
    sim::Event busy = event_at(0, 9, Phase::acquire, EventOp::acquire, "node-b");
    busy.run = 0;
    busy.token = "tok-b";
    busy.ttl = 49;
    busy.outcome = Outcome::busy;
    sim::Event jump = event_at(2, 260, Phase::faults, EventOp::clock_jump, "store");
    jump.clock_ms = -300;
    sim::Event release = event_at(2, 10, Phase::work, EventOp::release, "node-a");
    release.run = 0;
    release.token = "tok-a";
    release.slot = 0;
    release.outcome = Outcome::released;
    t.events = {acquire,
                belief(0, 6, "node-a", Outcome::leader, Detail::acquired),
                busy,
                undecided(1, 150, Detail::unknown_sha),
                jump,
                release,
                belief(2, 11, "node-a", Outcome::follower, Detail::released),
                belief(2, 12, "node-b", Outcome::follower, Detail::inferred)};
    sim::TraceHasher hasher;
    for (std::size_t i = 0; i < t.events.size(); ++i) {
        t.events[i].seq = static_cast<std::int64_t>(i);
        hasher.add_line(sim::event_line(t.events[i]));
    }
    t.summary.end_tick = 2;
    t.summary.results = {{"node-a", 0, "elected", 7}, {"node-b", 0, "skipped", std::nullopt}};
    t.summary.events = static_cast<std::int64_t>(t.events.size());
    t.summary.trace_sha256 = hasher.hex();
    return t;
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    for (std::size_t from = 0; from < text.size();) {
        const std::size_t nl = text.find('\n', from);
        lines.push_back(text.substr(from, nl - from));
        from = nl + 1;
    }
    return lines;
}

bool starts(const std::string& text, const std::string& prefix) { return text.rfind(prefix, 0) == 0; }

// Every line was read: only the hash, which the test's change made wrong, is refused.
bool lines_pass(const std::string& error) { return starts(error, "t.jsonl:10: trace_sha256 does not match"); }

std::string error_of(const std::string& text) {
    auto r = sim::parse_trace(text, "t.jsonl");
    return r.ok() ? std::string("(accepted)") : r.error().to_string();
}

// The history's file with event `index` changed by `change` (the hash is
// then wrong, but a line's error is found first).
template <class F>
std::string with_event(F&& change, std::size_t index, const sim::Trace& t = history()) {
    sim::Trace copy = t;
    change(copy.events[index]);
    return sim::trace_to_jsonl(copy);
}

// The history's text under a /3 header without the import object.
std::string as_format3(std::string text) {
    const std::size_t import = text.find(R"(,"import":)");
    text.erase(import, text.find('\n') - 1 - import);
    text.replace(text.find("leasescope-trace/4"), 18, "leasescope-trace/3");
    return text;
}

}  // namespace

TEST(TraceFormat4, RoundTripKeepsEveryByte) {
    // Header, events and summary of a /4 trace read back equal and write back the same bytes.
    const sim::Trace t = history();
    const std::string bytes = sim::trace_to_jsonl(t);
    auto back = sim::parse_trace(bytes, "h.jsonl");
    ASSERT_TRUE(back.ok()) << back.error().to_string();
    EXPECT_EQ(back.value().header, t.header);
    EXPECT_EQ(back.value().events, t.events);
    EXPECT_EQ(back.value().summary, t.summary);
    EXPECT_EQ(sim::trace_to_jsonl(back.value()), bytes);
    const std::vector<std::string> lines = lines_of(bytes);
    EXPECT_EQ(lines[0],
              R"({"type":"header","format":"leasescope-trace/4","scenario":"cap.txt","seed":0,"tick_ms":100,)"
              R"("lock":"leader","capacity":1,"candidates":["node-a","node-b"],"import":{"origin_us":1796376600000000,)"
              R"("lock_key":"leader","sources":[{"file":"cap.txt","kind":"capture","lines":40,"used":9},)"
              R"({"file":"a.jsonl","kind":"log","lines":3,"used":3}],"ignored":31}})");
    EXPECT_EQ(lines[2], R"({"type":"event","tick":0,"seq":1,"phase":"ops","node":"node-a","run":null,"op":"believe",)"
                        R"("token":null,"fencing":null,"slot":null,"ttl":null,"outcome":"leader","detail":"acquired",)"
                        R"("wall_us":1796376600006123})");
    EXPECT_EQ(lines[4], R"({"type":"event","tick":1,"seq":3,"phase":"ops","node":null,"run":null,"op":"undecided",)"
                        R"("token":null,"fencing":null,"slot":null,"ttl":null,"outcome":null,"detail":"unknown_sha",)"
                        R"("wall_us":1796376600150123})");
    // The fast writer and the slow one (names that need escaping) agree on the trailing key.
    sim::Event odd = t.events[1];
    odd.node = "n\u00e9ud";
    EXPECT_NE(sim::event_line(odd).find(R"("detail":"acquired","wall_us":1796376600006123})"), std::string::npos);
}

TEST(TraceFormat4, OlderFormatsRefuseWhatImportAdds) {
    // Each /4 addition in a /3 file is refused, naming the line and the format that has it.
    const std::string bytes = sim::trace_to_jsonl(history());
    EXPECT_EQ(error_of(bytes.substr(0, bytes.find("leasescope-trace/4")) + "leasescope-trace/3" +
                       bytes.substr(bytes.find("leasescope-trace/4") + 18)),
              "t.jsonl:1: the key \"import\" is not in format \"leasescope-trace/3\"; an imported history writes "
              "\"leasescope-trace/4\" (model.md §19.7)");
    EXPECT_EQ(error_of(as_format3(bytes)),
              "t.jsonl:2: the key \"wall_us\" is not in format \"leasescope-trace/3\"; an imported history writes "
              "\"leasescope-trace/4\" (model.md §19.7)");
    sim::Trace plain = history();
    for (sim::Event& e : plain.events) e.wall_us.reset();
    const std::string three = as_format3(sim::trace_to_jsonl(plain));
    EXPECT_TRUE(starts(error_of(three), "t.jsonl:3: op \"believe\" is not in format \"leasescope-trace/3\""));
    auto only = [&](auto change) { return error_of(as_format3(with_event(change, 0, plain))); };
    EXPECT_TRUE(starts(only([](sim::Event& e) { e.op = EventOp::undecided; }),
                       "t.jsonl:2: op \"undecided\" is not in format \"leasescope-trace/3\""));
    EXPECT_TRUE(starts(only([](sim::Event& e) { e.outcome = Outcome::leader; }),
                       "t.jsonl:2: outcome \"leader\" is not in format \"leasescope-trace/3\""));
    EXPECT_EQ(only([](sim::Event& e) { e.details.add(Detail::capture_gap); }),
              "t.jsonl:2: the detail word \"capture_gap\" is not in format \"leasescope-trace/3\"; an imported "
              "history writes \"leasescope-trace/4\" (model.md §19.7)");
    // A /2 file names /2.
    std::string two = as_format3(with_event([](sim::Event& e) { e.details.add(Detail::inferred); }, 0, plain));
    two.replace(two.find("leasescope-trace/3"), 18, "leasescope-trace/2");
    EXPECT_TRUE(
        starts(error_of(two), "t.jsonl:2: the detail word \"inferred\" is not in format \"leasescope-trace/2\""))
        << error_of(two);
}

TEST(TraceFormat4, EveryEventHasItsWallClock) {
    // A /4 event without wall_us is refused naming its line; sent and applied are never in /4.
    EXPECT_EQ(error_of(with_event([](sim::Event& e) { e.wall_us.reset(); }, 3)),
              "t.jsonl:5: missing key \"wall_us\": every event of an imported history has its server time (model.md "
              "§19.7.1)");
    const std::string sent = error_of(with_event(
        [](sim::Event& e) {
            e.sent = 0;
            e.tick = 1;
        },
        2));
    EXPECT_TRUE(starts(sent, "t.jsonl:4: \"sent\" and \"applied\" are never written in an imported history")) << sent;
}

TEST(TraceFormat4, WallClockGoesBackOnlyByTheStoresStep) {
    // The history's events after the store's -300 ms step go back 250 ms: accepted. Without the step, or
    // going back more than the step, they are refused naming the line.
    EXPECT_EQ(error_of(sim::trace_to_jsonl(history())), "(accepted)");
    EXPECT_EQ(error_of(with_event([](sim::Event& e) { e.clock_ms = -200; }, 4)),
              "t.jsonl:7: \"wall_us\" 1796376600010123 goes back 250000 µs from the event before (1796376600260123), "
              "more than the store's clock stepped back (200999 µs at most)");
    EXPECT_EQ(error_of(with_event([](sim::Event& e) { e.node = "node-b"; }, 4)),
              "t.jsonl:7: \"wall_us\" 1796376600010123 goes back 250000 µs from the event before (1796376600260123) "
              "without a clock_jump of store before it");
    // The allowance is used once: after going back 250 ms of 300.999, the lines may go back 50.999 ms more.
    sim::Trace t = history();
    t.events[6].wall_us = *t.events[4].wall_us;
    t.events[7].wall_us = *t.events[6].wall_us - 50'999;
    EXPECT_TRUE(lines_pass(error_of(sim::trace_to_jsonl(t)))) << error_of(sim::trace_to_jsonl(t));
    const std::string more = error_of(with_event([](sim::Event& e) { e.wall_us = *e.wall_us - 1; }, 7, t));
    EXPECT_TRUE(starts(more, "t.jsonl:9: \"wall_us\" 1796376600209123 goes back 51000 µs")) << more;
    // Ticks never go back, a step or not.
    EXPECT_EQ(error_of(with_event([](sim::Event& e) { e.tick = 1; }, 5)),
              "t.jsonl:7: tick 1 goes backwards (previous event at 2)");
}

TEST(TraceFormat4, BeliefsAndUndecidedHaveTheirShape) {
    // believe and undecided: phase ops, no slot or ttl, exactly one of their words, their outcomes.
    auto at = [](std::size_t i, auto change) { return error_of(with_event(change, i)); };
    EXPECT_EQ(at(1, [](sim::Event& e) { e.details.add(Detail::inferred); }),
              "t.jsonl:3: \"detail\" of believe must be exactly one of: acquired, extended, lost, released, inferred");
    EXPECT_EQ(at(1, [](sim::Event& e) { e.details = {Detail::capture_gap}; }),
              "t.jsonl:3: \"detail\" of believe must be exactly one of: acquired, extended, lost, released, inferred");
    EXPECT_EQ(at(3, [](sim::Event& e) { e.details = {Detail::lost}; }),
              "t.jsonl:5: \"detail\" of undecided must be exactly one of: unrecognised_script, unknown_sha, "
              "other_command, expiry_boundary, capture_gap");
    EXPECT_TRUE(starts(at(3, [](sim::Event& e) { e.details = {}; }), "t.jsonl:5: \"detail\" of undecided must be"));
    EXPECT_EQ(at(1, [](sim::Event& e) { e.outcome = Outcome::follower; }),
              "t.jsonl:3: believe with the log's word \"acquired\" must have the outcome \"leader\" (model.md "
              "§19.6.3)");
    EXPECT_EQ(at(1, [](sim::Event& e) { e.outcome = Outcome::acquired; }),
              "t.jsonl:3: the outcome of believe must be \"leader\" or \"follower\"");
    EXPECT_EQ(at(1, [](sim::Event& e) { e.node.clear(); }),
              "t.jsonl:3: op \"believe\" has no \"node\"; a belief is a node's");
    EXPECT_EQ(at(3, [](sim::Event& e) { e.outcome = Outcome::held; }),
              "t.jsonl:5: the outcome of undecided must be null");
    EXPECT_EQ(at(3, [](sim::Event& e) { e.phase = Phase::check; }),
              "t.jsonl:5: op \"undecided\" in phase check; expected phase ops");
    EXPECT_EQ(at(1, [](sim::Event& e) { e.ttl = 3; }),
              "t.jsonl:3: op \"believe\" has a \"slot\" or \"ttl\"; expected null for both");
    EXPECT_EQ(at(0, [](sim::Event& e) { e.details.add(Detail::acquired); }),
              "t.jsonl:2: the detail word \"acquired\" on op \"acquire\"; only on believe and undecided (model.md "
              "§19.7.1)");
    // inferred goes with either belief; a token and a fencing number may come with a belief.
    EXPECT_TRUE(lines_pass(at(7, [](sim::Event& e) { e.outcome = Outcome::leader; })));
    EXPECT_TRUE(lines_pass(at(1, [](sim::Event& e) {
        e.token = "tok-a";
        e.fencing = 7;
        e.run = 0;
    })));
}

TEST(TraceFormat4, HeaderImportIsChecked) {
    // The import object's keys, kinds and counts are checked, naming line 1.
    const std::string bytes = sim::trace_to_jsonl(history());
    auto header_with = [&](const std::string& from, const std::string& to) {
        std::string text = bytes;
        text.replace(text.find(from), from.size(), to);
        return error_of(text);
    };
    EXPECT_EQ(header_with(R"("kind":"log")", R"("kind":"journal")"),
              "t.jsonl:1: \"kind\" is \"journal\"; expected \"capture\" or \"log\"");
    EXPECT_EQ(header_with(R"("lines":40,"used":9)", R"("lines":4,"used":9)"),
              "t.jsonl:1: \"used\" is 9; expected an integer from 0 to 4");
    EXPECT_EQ(header_with(R"(,"ignored":31)", ""), "t.jsonl:1: in \"import\": missing key \"ignored\"");
    EXPECT_EQ(
        header_with(
            R"(,"import":{"origin_us":1796376600000000,"lock_key":"leader","sources":[{"file":"cap.txt","kind":"capture","lines":40,"used":9},{"file":"a.jsonl","kind":"log","lines":3,"used":3}],"ignored":31})",
            ""),
        "t.jsonl:1: missing key \"import\"");
}

TEST(TraceFormat4, TextRowsShowTheWallClock) {
    // A /4 trace's text view has the UTC wall clock after the tick; an event without wall_us has no such column.
    const std::string text = sim::trace_to_text(history());
    EXPECT_NE(text.find(" Tick  Wall (UTC)    Candidate"), std::string::npos) << text;
    EXPECT_NE(text.find("    0  09:30:00.006  node-a       believe"), std::string::npos) << text;
    EXPECT_NE(text.find("believes it leads (its log: acquired)"), std::string::npos);
    EXPECT_NE(text.find("believes it does not lead (inferred from its commands)"), std::string::npos);
    EXPECT_NE(text.find("? cannot tell: EVALSHA of a script the capture never showed"), std::string::npos);
    EXPECT_EQ(sim::wall_time_text(origin_us + 86'399'999'000), "09:29:59.999");
    sim::Event e = history().events[0];
    const std::string with_wall = sim::text_row(e);
    e.wall_us.reset();
    EXPECT_EQ(with_wall.substr(0, 7) + with_wall.substr(21), sim::text_row(e));
    EXPECT_EQ(sim::text_table_header(), sim::text_table_header(false));
    EXPECT_EQ(sim::text_table_header().find("Wall"), std::string::npos);
}

TEST(TraceFormat4, DiffIgnoringTokensIgnoresTheWallClock) {
    // An imported history against a simulated run of the same events (model.md §19.8.3): with
    // --ignore-tokens only the headers differ; without it the first event differs by its wall_us.
    const sim::Trace imported = history();
    sim::Trace simulated = imported;
    simulated.header.format = 2;
    simulated.header.import.reset();
    for (sim::Event& e : simulated.events) {
        e.wall_us.reset();
        e.token = "other";
    }
    const auto ignoring = sim::first_divergence(imported, simulated, true);
    ASSERT_TRUE(ignoring.has_value());
    EXPECT_EQ(ignoring->index, -1) << ignoring->description;
    const auto exact = sim::first_divergence(imported, simulated, false);
    ASSERT_TRUE(exact.has_value());
    EXPECT_EQ(exact->index, 0);
    EXPECT_NE(exact->description.find("  A     0  09:30:00.005  node-a"), std::string::npos) << exact->description;
}

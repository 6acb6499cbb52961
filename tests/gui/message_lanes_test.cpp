// The message view's data (core/message_lanes.hpp), read from traces alone
// (model.md §16.6): each call's request and reply, each write, when they were
// sent and arrived, which were lost and which were late; nothing arrives
// before it was sent, over the presets with time on the wire and a generated set.
#include <gtest/gtest.h>

#include "core/lanes.hpp"
#include "core/message_lanes.hpp"
#include "leasescope/sim/generator.hpp"
#include "support/preset_loader.hpp"
#include "support/string_tables.hpp"

using namespace leasescope;
using namespace leasescope::gui;

namespace {

struct NamedRun {
    std::string name;
    sim::Scenario scenario;
};

// Generated scenarios with latencies and delays; every other one with a
// short command timeout, so that calls time out and replies get lost.
std::vector<NamedRun> generated_on_the_wire(int count) {
    std::vector<NamedRun> out;
    for (int i = 0; i < count; ++i) {
        sim::GeneratorOptions o;
        o.candidates = 3 + i % 4;
        o.horizon = 120;
        o.seed = static_cast<std::uint64_t>(4000 + i);
        o.latencies = true;
        std::vector<sim::Override> sets;
        if (i % 2 == 0) sets.push_back({"defaults.command_timeout", std::to_string(2 + i % 3)});
        auto parsed = sim::parse_scenario(sim::generate_scenario(o), "<generated>", sets);
        EXPECT_TRUE(parsed.ok()) << i << ": " << (parsed.ok() ? "" : parsed.error().to_string());
        if (parsed.ok()) out.push_back({"generated #" + std::to_string(i), std::move(parsed).value()});
    }
    return out;
}

const Message* find(const MessageTrack& t, MessageKind kind, const std::string& node, Tick sent) {
    for (const Message& m : t.messages)
        if (m.kind == kind && t.nodes[static_cast<std::size_t>(m.node)] == node && m.sent == sent) return &m;
    return nullptr;
}

}  // namespace

// delayed-write: node-a's write sent at 4 is held 8 ticks and arrives at 12,
// late (its link's latency is 0); node-b's write at 6 takes no time.
TEST(MessageLanes, DelayedWriteArrivesLate) {
    const ShownRun run = run_scenario(test::load_preset("delayed-write"));
    const MessageTrack& t = run.lanes.messages;
    ASSERT_EQ(t.nodes, (std::vector<std::string>{"node-a", "node-b"}));
    const Message* a = find(t, MessageKind::write, "node-a", 4);
    ASSERT_NE(a, nullptr);
    EXPECT_EQ(a->arrived, 12);
    EXPECT_TRUE(a->late);
    EXPECT_FALSE(a->lost);
    const Message* b = find(t, MessageKind::write, "node-b", 6);
    ASSERT_NE(b, nullptr);
    EXPECT_EQ(b->arrived, 6);
    EXPECT_FALSE(b->late);
}

// late-reply: the acquire's request is applied at once, its reply held 7
// ticks: the reply's arrow goes from the store at 0 to node-a at 7.
TEST(MessageLanes, LateReplyIsTheReplyArrow) {
    const ShownRun run = run_scenario(test::load_preset("late-reply"));
    const MessageTrack& t = run.lanes.messages;
    const Message* request = find(t, MessageKind::request, "node-a", 0);
    const Message* reply = find(t, MessageKind::reply, "node-a", 0);
    ASSERT_NE(request, nullptr);
    ASSERT_NE(reply, nullptr);
    EXPECT_EQ(request->arrived, 0);
    EXPECT_FALSE(request->late);
    EXPECT_EQ(reply->arrived, 7);
    EXPECT_TRUE(reply->late);
    EXPECT_EQ(reply->op, sim::EventOp::acquire);
}

// A run without time on the wire has no message view (today's screenshots
// and layouts stay as they were).
TEST(MessageLanes, NoneWithoutTimeOnTheWire) {
    for (const std::string& name : test::app_preset_names()) {
        const sim::Scenario s = test::load_preset(name);
        const ShownRun run = run_scenario(s);
        const bool wire = scenario_has_wire_time(s) || trace_has_wire_time(run.timeline->trace());
        EXPECT_EQ(!run.lanes.messages.messages.empty(), wire) << name;
    }
    EXPECT_TRUE(run_scenario(test::load_preset("expiry-takeover")).lanes.messages.messages.empty());
}

// A call that timed out before the store applied it, applied later (its
// two events, model.md §16.6): one request, from its send to the store at
// the application tick, that tells the timeout; its reply is lost there.
TEST(MessageLanes, RequestAppliedAfterItsTimeout) {
    sim::Trace trace;
    trace.header.candidates = {"node-a"};
    sim::Event timeout;
    timeout.tick = 5;
    timeout.node = "node-a";
    timeout.run = 0;
    timeout.op = sim::EventOp::acquire;
    timeout.outcome = sim::Outcome::error;
    timeout.sent = 1;
    sim::Event applied = timeout;
    applied.tick = 8;
    applied.fencing = 3;
    applied.details.add(sim::Detail::reply_lost);
    trace.events = {timeout, applied};
    const MessageTrack t = message_track(trace, {});
    ASSERT_EQ(t.messages.size(), 2u);
    EXPECT_EQ(t.messages[0].kind, MessageKind::request);
    EXPECT_EQ(t.messages[0].sent, 1);
    EXPECT_EQ(t.messages[0].arrived, 8);
    EXPECT_FALSE(t.messages[0].lost);
    EXPECT_EQ(t.messages[0].gave_up, 5);
    EXPECT_EQ(t.messages[0].event, 1);
    EXPECT_EQ(t.messages[1].kind, MessageKind::reply);
    EXPECT_TRUE(t.messages[1].lost);
    EXPECT_EQ(t.messages[1].sent, 8);
    const Strings en = test::string_tables(Lang::en);
    EXPECT_EQ(message_summary(t, 0, en),
              "node-a's acquire request: sent at tick 1, arrived at tick 8.\n"
              "Late: 7 ticks on the wire; the link's latency is 0.\n"
              "The call had already timed out at tick 5.");
    EXPECT_EQ(message_summary(t, 1, en), "Reply to node-a's acquire: sent at tick 8, lost: the node never read it.");

    // Never applied: the request ends in a cross at the timeout.
    trace.events = {timeout};
    const MessageTrack only = message_track(trace, {});
    ASSERT_EQ(only.messages.size(), 1u);
    EXPECT_TRUE(only.messages[0].lost);
    EXPECT_EQ(only.messages[0].arrived, 5);
    EXPECT_EQ(message_summary(only, 0, test::string_tables(Lang::ko)),
              "node-a의 획득 요청: 1틱에 보냈지만 5틱까지 응답이 없었습니다.");
}

// Causality: no message arrives (or is given up) before it was sent, a
// request reaches the store no later than its reply leaves it, and a late
// message took longer than its link's latency; over the presets with time
// on the wire and 40 generated runs, some with timeouts and lost replies.
TEST(MessageLanes, NothingArrivesBeforeItWasSent) {
    std::vector<NamedRun> runs;
    for (const char* name : {"delayed-write", "late-reply"}) runs.push_back({name, test::load_preset(name)});
    for (NamedRun& g : generated_on_the_wire(40)) runs.push_back(std::move(g));
    std::size_t messages = 0, lost = 0, late = 0, slanted = 0;
    for (const NamedRun& r : runs) {
        const ShownRun run = run_scenario(r.scenario);
        const MessageTrack& t = run.lanes.messages;
        for (std::size_t i = 0; i < t.messages.size(); ++i) {
            const Message& m = t.messages[i];
            ASSERT_GE(m.arrived, m.sent) << r.name << ", message " << i;
            EXPECT_EQ(m.late, !m.lost && m.arrived - m.sent > m.base_latency) << r.name << ", message " << i;
            if (m.kind == MessageKind::reply && i > 0 && t.messages[i - 1].kind == MessageKind::request &&
                t.messages[i - 1].event == m.event) {
                EXPECT_LE(t.messages[i - 1].arrived, m.sent) << r.name << ", message " << i;
            }
            ++messages;
            lost += m.lost ? 1 : 0;
            late += m.late ? 1 : 0;
            slanted += m.arrived > m.sent ? 1 : 0;
        }
    }
    EXPECT_GT(messages, 1000u);
    EXPECT_GT(lost, 0u);
    EXPECT_GT(late, 0u);
    EXPECT_GT(slanted, 100u);
}

// The words of a message in both languages: when it was sent and arrived,
// late or not, then its event.
TEST(MessageLanes, WordsInBothLanguages) {
    const ShownRun run = run_scenario(test::load_preset("delayed-write"));
    const MessageTrack& t = run.lanes.messages;
    const Message* a = find(t, MessageKind::write, "node-a", 4);
    ASSERT_NE(a, nullptr);
    const auto index = static_cast<std::int32_t>(a - t.messages.data());
    const std::string en = message_words(t, index, run.timeline->trace(), test::string_tables(Lang::en));
    const std::string ko = message_words(t, index, run.timeline->trace(), test::string_tables(Lang::ko));
    EXPECT_NE(en.find("Write from node-a: sent at tick 4, arrived at tick 12."), std::string::npos) << en;
    EXPECT_NE(en.find("Late: 8 ticks on the wire; the link's latency is 0."), std::string::npos) << en;
    EXPECT_NE(ko.find("node-a의 쓰기: 4틱에 보내 12틱에 도착했습니다."), std::string::npos) << ko;
    EXPECT_NE(ko.find("늦게 도착: 전송에 8틱이 걸렸습니다."), std::string::npos) << ko;

    const ShownRun late = run_scenario(test::load_preset("late-reply"));
    const MessageTrack& lt = late.lanes.messages;
    const Message* reply = find(lt, MessageKind::reply, "node-a", 0);
    ASSERT_NE(reply, nullptr);
    const auto r = static_cast<std::int32_t>(reply - lt.messages.data());
    EXPECT_EQ(message_summary(lt, r, test::string_tables(Lang::en)),
              "Reply to node-a's acquire: sent at tick 0, arrived at tick 7.\n"
              "Late: 7 ticks on the wire; the link's latency is 0.");
    EXPECT_EQ(message_summary(lt, r, test::string_tables(Lang::ko)),
              "node-a에게 가는 획득 응답: 0틱에 보내 7틱에 도착했습니다.\n"
              "늦게 도착: 전송에 7틱이 걸렸습니다. 이 링크의 지연은 0틱입니다.");
}

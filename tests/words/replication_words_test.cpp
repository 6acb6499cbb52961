// Replication told in words (model.md §17): every new event has its texts in
// both languages, a promoting failover tells what the promoted replica held
// and what was lost with numbers the run shows, and over generated scenarios
// with replicas, link cuts, lagging promotions, min-replicas-to-write and
// WAIT every sentence is finished text whose numbers are the run's.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <cstdint>
#include <string>
#include <vector>

#include "leasescope/sim/scenario.hpp"
#include "leasescope/sim/simulation.hpp"
#include "leasescope/words/strings.hpp"
#include "leasescope/words/words.hpp"
#include "support/string_tables.hpp"
#include "support/replication_test_helpers.hpp"
#include "support/trace_test_helpers.hpp"

using namespace leasescope;
using namespace leasescope::words;

namespace {

Explanation explain_at(const sim::Scenario& s, const sim::Timeline& t, std::size_t k, Lang lang,
                       const sim::Snapshot& snap) {
    ExplainContext ctx;
    ctx.scenario = &s;
    ctx.trace = &t.trace();
    ctx.event_index = k;
    ctx.snapshot = &snap;
    return explain(ctx, test::string_tables(lang));
}

std::size_t first_of(const sim::Trace& t, sim::EventOp op, const std::string& node = "") {
    for (std::size_t k = 0; k < t.events.size(); ++k)
        if (t.events[k].op == op && (node.empty() || t.events[k].node == node)) return k;
    return t.events.size();
}

const Sentence* with_key(const Explanation& ex, const std::string& key) {
    for (const Sentence& s : ex.sentences)
        if (s.key == key) return &s;
    return nullptr;
}

}  // namespace

// Every new (op, outcome, detail) of §17.7 has its table texts in both languages.
TEST(ReplicationWords, EveryNewEventKeyHasTexts) {
    const Strings s = test::string_tables();
    using O = sim::Outcome;
    using P = sim::EventOp;
    std::vector<sim::Event> events;
    const auto ev = [&](P op, O outcome, sim::Details d = {}) {
        sim::Event e;
        e.op = op;
        e.outcome = outcome;
        e.details = d;
        e.node = "node-a";
        e.server = 1;
        events.push_back(e);
    };
    ev(P::link_cut, O::none);
    ev(P::link_restored, O::none);
    ev(P::failover, O::none);
    ev(P::wait, O::synced);
    ev(P::wait, O::not_synced);
    ev(P::acquire, O::error, {sim::Detail::no_replicas});
    ev(P::extend, O::error, {sim::Detail::no_replicas});
    ev(P::release, O::error, {sim::Detail::no_replicas});
    std::vector<std::string> keys;
    for (const sim::Event& e : events) keys.push_back(event_key(e));
    EXPECT_EQ(keys, (std::vector<std::string>{"link_cut", "link_restored", "failover.promote", "wait.synced",
                                              "wait.not_synced", "acquire.no_replicas", "extend.no_replicas",
                                              "release.no_replicas"}));
    for (Lang lang : {Lang::en, Lang::ko})
        for (const sim::Event& e : events) {
            EXPECT_TRUE(s.has(lang, "ev." + event_key(e))) << lang_code(lang) << " ev." << event_key(e);
            EXPECT_TRUE(s.has(lang, "out." + event_key(e))) << lang_code(lang) << " out." << event_key(e);
            EXPECT_TRUE(s.has(lang, std::string("op.") + sim::to_string(e.op))) << sim::to_string(e.op);
        }
}

// §17.3 with lag 1: the replica promoted at 5 had not received node-b's
// acquisition at 4, so the counter goes back from 2 to 1; it still holds
// node-a's record (acquired at 0, expired by the primary at 4); node-c is then issued 2 again,
// and its explanation says why, from the failover before it.
TEST(ReplicationWords, APromotionThatMissedAnAcquisitionTellsTheRollback) {
    sim::Scenario s = repl_test::three_nodes(1);
    s.faults.push_back(repl_test::promote(5, 1, 1));
    const sim::Timeline t(s);
    const std::size_t f = first_of(t.trace(), sim::EventOp::failover);
    ASSERT_LT(f, t.trace().events.size());
    const sim::Snapshot snap = t.snapshot_at(5);
    const Explanation en = explain_at(s, t, f, Lang::en, snap);
    const Sentence* rollback = with_key(en, "explain.failover.rollback");
    ASSERT_NE(rollback, nullptr) << en.body();
    EXPECT_EQ(rollback->text,
              "Its link was cut at tick 4, so it had not received node-b's acquisition at tick 4: the counter goes "
              "back from 2 to 1, and the next acquisition is issued 2 again.");
    // It still held node-a's record, which the old primary expired at 4 (a cut replica receives no DEL).
    const Sentence* kept = with_key(en, "explain.failover.promote_kept");
    ASSERT_NE(kept, nullptr) << en.body();
    EXPECT_NE(kept->text.find("Replica 1 held node-a #1;"), std::string::npos) << kept->text;
    const Sentence* lost = with_key(en, "explain.failover.records");
    ASSERT_NE(lost, nullptr) << en.body();
    EXPECT_NE(lost->text.find("node-b #2"), std::string::npos);
    const Explanation ko = explain_at(s, t, f, Lang::ko, snap);
    const Sentence* ko_rollback = with_key(ko, "explain.failover.rollback");
    ASSERT_NE(ko_rollback, nullptr);
    EXPECT_EQ(ko_rollback->text,
              "그 링크는 4틱에 끊겼으므로 4틱의 node-b 획득을 받지 못했습니다: 카운터가 2에서 1로 돌아가고, 다음 "
              "획득은 2를 다시 발급받습니다.");
    // node-c's acquisition: 2 again.
    std::size_t c = t.trace().events.size();
    for (std::size_t k = 0; k < t.trace().events.size(); ++k) {
        const sim::Event& e = t.trace().events[k];
        if (e.node == "node-c" && e.op == sim::EventOp::acquire && e.outcome == sim::Outcome::acquired) c = k;
    }
    ASSERT_LT(c, t.trace().events.size());
    const sim::Snapshot at_c = t.snapshot_at(t.trace().events[c].tick);
    const Explanation cx = explain_at(s, t, c, Lang::en, at_c);
    const Sentence* again = with_key(cx, "explain.acquire.rollback");
    ASSERT_NE(again, nullptr) << cx.body();
    EXPECT_EQ(again->text,
              "The replica promoted at tick 5 had not received node-b's acquisition at tick 4: the counter went back "
              "from 2 to 1, so node-c is issued 2 again.");
    EXPECT_EQ(with_key(cx, "explain.acquire.regressed"), nullptr) << "the lose = all sentence on a promotion";
    EXPECT_NE(with_key(cx, "explain.acquire.duplicate"), nullptr) << cx.body();
}

// §17.3 with lag 0 and the link up: the replica holds node-b's record, the
// counter stays; node-b's lease is not told as lost in the failover.
TEST(ReplicationWords, ALinkedReplicaKeepsTheRecordsAndTheCounter) {
    sim::Scenario s = repl_test::three_nodes(1);
    s.faults.push_back(repl_test::promote(5, 1, 0));
    const sim::Timeline t(s);
    const std::size_t f = first_of(t.trace(), sim::EventOp::failover);
    ASSERT_LT(f, t.trace().events.size());
    const sim::Snapshot snap = t.snapshot_at(5);
    const Explanation en = explain_at(s, t, f, Lang::en, snap);
    const Sentence* kept = with_key(en, "explain.failover.promote_kept");
    ASSERT_NE(kept, nullptr) << en.body();
    EXPECT_EQ(kept->text,
              "Replica 1 held node-b #2; each keeps the deadline it had, and one whose deadline has passed expires at "
              "once.");
    EXPECT_NE(with_key(en, "explain.failover.counter_kept"), nullptr) << en.body();
    EXPECT_EQ(with_key(en, "explain.failover.records"), nullptr) << en.body();
}

// A cut and its restore, and WAIT's answers, in both languages.
TEST(ReplicationWords, LinkCutsAndWaitAreTold) {
    sim::Scenario s = repl_test::three_nodes(1);
    s.faults.push_back(repl_test::cut(1, 3, 4));
    s.candidates[1].options.wait_replicas = 1;
    s.candidates[1].options.wait_timeout = 2;
    const sim::Timeline t(s);
    const std::size_t c = first_of(t.trace(), sim::EventOp::link_cut);
    const std::size_t r = first_of(t.trace(), sim::EventOp::link_restored);
    const std::size_t w = first_of(t.trace(), sim::EventOp::wait);
    ASSERT_LT(c, t.trace().events.size());
    ASSERT_LT(r, t.trace().events.size());
    ASSERT_LT(w, t.trace().events.size());
    const sim::Snapshot at3 = t.snapshot_at(3);
    EXPECT_EQ(explain_at(s, t, c, Lang::en, at3).sentences.at(1).text,
              "From this tick on, server 1 receives nothing from the primary: it keeps the copy it had at the end of "
              "tick 2 (fencing counter 1).");
    const sim::Event& we = t.trace().events[w];
    const Explanation wx = explain_at(s, t, w, Lang::en, t.snapshot_at(we.tick));
    // node-b acquires at 4 while replica 1 is cut (3 … 6): WAIT 1 times out with 0 after 2 ticks.
    EXPECT_EQ(we.outcome, sim::Outcome::not_synced);
    ASSERT_NE(with_key(wx, "explain.wait.not_synced"), nullptr) << wx.body();
    EXPECT_EQ(with_key(wx, "explain.wait.not_synced")->text,
              "WAIT 1: 0 replicas acknowledged within 2 ticks; node-b releases its record and fails.");
    const Explanation kx = explain_at(s, t, w, Lang::ko, t.snapshot_at(we.tick));
    EXPECT_EQ(with_key(kx, "explain.wait.not_synced")->text,
              "WAIT 1: 2틱 안에 복제본 0개가 확인했습니다. node-b는 자기 레코드를 해제하고 실패합니다.");
    EXPECT_NE(with_key(explain_at(s, t, r, Lang::en, t.snapshot_at(7)), "explain.link_restored"), nullptr);
}

// min-replicas-to-write refuses node-b's acquisition while replica 1 is cut.
TEST(ReplicationWords, ARefusalNamesMinReplicasToWrite) {
    sim::Scenario s = repl_test::three_nodes(1);
    s.lock.replication.min_replicas_to_write = 1;
    s.faults.push_back(repl_test::cut(1, 3, 4));
    const sim::Timeline t(s);
    std::size_t k = t.trace().events.size();
    for (std::size_t i = 0; i < t.trace().events.size(); ++i)
        if (t.trace().events[i].details.has(sim::Detail::no_replicas)) {
            k = i;
            break;
        }
    ASSERT_LT(k, t.trace().events.size());
    const sim::Event& e = t.trace().events[k];
    const Explanation ex = explain_at(s, t, k, Lang::en, t.snapshot_at(e.tick));
    EXPECT_EQ(ex.sentences.front().key, "ev." + event_key(e));
    ASSERT_NE(with_key(ex, "explain.no_replicas"), nullptr) << ex.body();
    EXPECT_NE(with_key(ex, "explain.no_replicas")->text.find("min-replicas-to-write is 1"), std::string::npos);
}

// Split brain (§17.5): a call the old primary answered says so.
TEST(ReplicationWords, ACallTheOldPrimaryAnsweredSaysSo) {
    sim::Scenario s = repl_test::three_nodes(1);
    sim::Fault f = repl_test::promote(2, 1, 0);
    f.old_primary = SplitBrain{{1}, 12};
    s.faults.push_back(f);
    const sim::Timeline t(s);
    std::size_t k = t.trace().events.size();
    for (std::size_t i = 0; i < t.trace().events.size(); ++i) {
        const sim::Event& e = t.trace().events[i];
        if (e.server && e.node == "node-b" && e.op == sim::EventOp::acquire) k = i;
    }
    ASSERT_LT(k, t.trace().events.size());
    const Explanation ex = explain_at(s, t, k, Lang::en, t.snapshot_at(t.trace().events[k].tick));
    const Sentence* old = with_key(ex, "explain.split.old_primary");
    ASSERT_NE(old, nullptr) << ex.body();
    EXPECT_EQ(old->text,
              "Answered by the old primary, server 0, which node-b can still reach: it answers from its own copy and "
              "issues numbers from its own counter.");
    const std::size_t fo = first_of(t.trace(), sim::EventOp::failover);
    const Explanation fx = explain_at(s, t, fo, Lang::ko, t.snapshot_at(2));
    ASSERT_NE(with_key(fx, "explain.failover.split"), nullptr) << fx.body();
}

namespace {

// A small deterministic generator (no <random> distributions: CONVENTIONS.md).
struct Draw {
    std::uint64_t s;
    std::int64_t operator()(std::int64_t lo, std::int64_t hi) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        return lo + static_cast<std::int64_t>((s >> 33) % static_cast<std::uint64_t>(hi - lo + 1));
    }
};

// Three or four nodes that contend, one or two replicas, link cuts before a
// promoting failover with some lag, sometimes min-replicas-to-write, a WAIT,
// or split brain.
sim::Scenario replication_scenario(std::uint64_t seed) {
    Draw d{seed * 2654435761ULL + 1};
    std::string nodes;
    for (const char* name : {"node-a", "node-b", "node-c"}) {
        const std::int64_t lease = d(2, 6);
        nodes += std::string(nodes.empty() ? "" : ",") + R"({"name": ")" + name + R"(", "start": )" +
                 std::to_string(d(0, 6)) + R"(, "wait": )" + std::to_string(d(0, 8)) + R"(, "lease": )" +
                 std::to_string(lease) + R"(, "action": )" + std::to_string(d(1, 9)) +
                 (d(0, 1) == 0 ? R"(, "auto_extend": true)" : "") + "}";
    }
    sim::Scenario s = trace_test::parse(R"({"name": "replication", "horizon": 30, "resource": {"mode": "check"},
      "candidates": [)" + nodes + "]}");
    s.lock.replication.replicas = static_cast<std::int32_t>(d(1, 2));
    s.name = "replication-" + std::to_string(seed);
    const std::int32_t replicas = s.lock.replication.replicas;
    const Tick at = d(3, 14);
    const auto promoted = static_cast<std::int32_t>(d(1, replicas));
    for (std::int32_t r = 1; r <= replicas; ++r)
        if (d(0, 2) > 0) s.faults.push_back(repl_test::cut(r, d(1, at - 1), d(1, 6)));
    sim::Fault f = repl_test::promote(at, promoted, d(0, 3) == 0 ? 0 : d(1, std::min<Tick>(at, 4)));
    if (d(0, 4) == 0) f.old_primary = SplitBrain{{static_cast<NodeIndex>(d(0, 2))}, at + d(1, 6)};
    s.faults.push_back(f);
    if (d(0, 3) == 0) s.lock.replication.min_replicas_to_write = 1;
    if (d(0, 2) == 0) {
        sim::Candidate& c = s.candidates[static_cast<std::size_t>(d(0, 2))];
        c.options.wait_replicas = 1;
        c.options.wait_timeout = d(1, 4);
    }
    return s;
}

std::size_t count_of(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (std::size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
    return n;
}

// The numbers a promoting failover states are the run's: the counter before
// is the primary's at the end of the tick before, after it the failover's
// fencing, and one missed acquisition is named per number lost.
void check_promotion(const sim::Timeline& t, std::size_t k, const Explanation& ex, const std::string& where) {
    const sim::Event& e = t.trace().events[k];
    const sim::Snapshot before = t.snapshot_at(e.tick - 1);
    Fencing was = 0;
    for (const sim::ServerSnapshot& sv : before.servers)
        if (sv.role == sim::ServerRole::primary) was = sv.counter;
    const Fencing now = e.fencing.value_or(0);
    const Sentence* back = with_key(ex, "explain.failover.rollback");
    const Sentence* kept = with_key(ex, "explain.failover.counter_kept");
    if (now < was && back) {
        EXPECT_NE(back->text.find("from " + std::to_string(was) + " to " + std::to_string(now) + ","),
                  std::string::npos)
            << where << ": " << back->text;
        EXPECT_EQ(count_of(back->text, "'s acquisition at tick"), static_cast<std::size_t>(was - now))
            << where << ": " << back->text;
    } else {
        ASSERT_NE(kept, nullptr) << where << ": " << ex.body();
        EXPECT_NE(kept->text.find("stays at " + std::to_string(now) + "."), std::string::npos) << where;
        EXPECT_EQ(now, was) << where << ": the counter went back and no sentence says so";
    }
}

}  // namespace

// Every event of 200 generated replication scenarios in both languages:
// finished text, the numbers of a promotion and of a WAIT are the run's.
TEST(ReplicationWords, EveryEventOfGeneratedReplicationScenarios) {
    std::set<std::string> seen;
    std::size_t checked = 0;
    for (std::uint64_t seed = 0; seed < 200; ++seed) {
        const sim::Scenario s = replication_scenario(seed);
        const sim::Timeline t(s);
        const auto& events = t.trace().events;
        for (std::size_t k = 0; k < events.size(); ++k) {
            const sim::Snapshot snap = t.snapshot_at(events[k].tick);
            const std::string where = s.name + " event " + std::to_string(k);
            for (Lang lang : {Lang::en, Lang::ko}) {
                const Explanation ex = explain_at(s, t, k, lang, snap);
                ++checked;
                for (const Sentence& sentence : ex.sentences) {
                    seen.insert(sentence.key);
                    EXPECT_EQ(sentence.text.find_first_of("{}"), std::string::npos) << where << ": " << sentence.text;
                    EXPECT_NE(sentence.text, sentence.key) << where << ": no text for " << sentence.key;
                }
                if (lang != Lang::en) continue;
                if (events[k].op == sim::EventOp::failover && events[k].server) check_promotion(t, k, ex, where);
                if (events[k].op == sim::EventOp::wait) {
                    const std::string acked = ": " + std::to_string(events[k].overlap_count) + " replicas";
                    EXPECT_NE(ex.body().find(acked), std::string::npos) << where << ": " << ex.body();
                }
            }
            if (::testing::Test::HasFatalFailure()) return;
        }
    }
    EXPECT_GT(checked, 4000u);
    for (const char* key :
         {"explain.failover.rollback", "explain.failover.counter_kept", "explain.failover.promote_kept",
          "explain.failover.promote_nothing", "explain.link_cut", "explain.link_restored", "explain.wait.synced",
          "explain.wait.not_synced", "explain.no_replicas", "explain.acquire.rollback", "explain.split.old_primary",
          "explain.failover.split", "explain.link_restored.split_end"})
        EXPECT_TRUE(seen.count(key)) << "no generated event tells " << key;
}

// The record panel's server lines (words.hpp server_lines): each server's
// role, copy, counter and link, from the snapshot; none without replicas.
TEST(ReplicationWords, TheRecordPanelListsEveryServer) {
    sim::Scenario s = repl_test::three_nodes(1);
    s.faults.push_back(repl_test::promote(5, 1, 1));
    const sim::Timeline t(s);
    const Strings en = test::string_tables(Lang::en);
    EXPECT_EQ(
        server_lines(t.snapshot_at(4), en),
        (std::vector<std::string>{"primary 0: node-b #2 · counter 2", "replica 1: no record · counter 1 · link cut"}));
    EXPECT_EQ(server_lines(t.snapshot_at(5), test::string_tables(Lang::ko)),
              (std::vector<std::string>{"복제본 0: node-c #2 · 카운터 2 · 링크 연결됨",
                                        "프라이머리 1: node-c #2 · 카운터 2"}));
    const sim::Timeline plain(repl_test::three_nodes(0));
    EXPECT_TRUE(server_lines(plain.snapshot_at(4), en).empty());
}

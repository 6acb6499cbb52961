// The words of a Redisson trace (model.md §21, redisson_explain.cpp): every
// event of a few runs that together reach each of its sentences renders
// whole in English and Korean, and the events Redisson tells in its own
// words get them.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "leasescope/sim/simulation.hpp"
#include "leasescope/words/words.hpp"
#include "support/string_tables.hpp"

using namespace leasescope;
using namespace leasescope::words;

namespace {

// Tick 100 ms, lease 10, wait 50, action 5; `extra` at the top level.
std::string scenario(const std::string& candidates, const std::string& extra = "") {
    return R"({"name": "rs", "tick_ms": 100, "horizon": 400, "client": "redisson",
               "redisson": {"lock_watchdog_timeout_ms": 3000},
               "defaults": {"wait": 50, "lease": 10, "action": 5}, "candidates": [)" +
           candidates + "]" + extra + "}";
}

bool own_words(sim::EventOp op) {
    using sim::EventOp;
    return op == EventOp::start || op == EventOp::acquire || op == EventOp::extend || op == EventOp::release ||
           op == EventOp::message || op == EventOp::write || op == EventOp::expire || op == EventOp::skip;
}

TEST(RedissonWords, EveryEventRendersWholeInBothLanguages) {
    const std::string runs[] = {
        scenario(R"({"name": "a"}, {"name": "b", "start": 1})"),
        scenario(R"({"name": "a"}, {"name": "b", "start": 1})",
                 R"(, "faults": [{"kind": "partition", "node": "b", "at": 5, "ticks": 1, "mode": "drop_replies"}])"),
        scenario(R"({"name": "a", "auto_extend": true, "action": 100},
                    {"name": "b", "start": 1, "wait": 100, "auto_extend": true, "action": 100})",
                 R"(, "faults": [{"kind": "partition", "node": "a", "at": 20, "ticks": 1}])"),
        scenario(
            R"({"name": "a", "action": 20}, {"name": "b", "start": 1, "wait": 5}, {"name": "c", "start": 2, "action": 20})"),
        scenario(R"({"name": "a", "auto_extend": true, "action": 60})",
                 R"(, "faults": [{"kind": "pause", "node": "a", "at": 5, "ticks": 40}])"),
        scenario(R"({"name": "a", "runs": 2, "every": 10, "action": 2, "lease": 50},
                    {"name": "b", "start": 3, "wait": 0})",
                 R"(, "faults": [{"kind": "partition", "node": "a", "at": 2, "ticks": 1}])"),
        scenario(R"({"name": "a"})",
                 R"(, "faults": [{"kind": "partition", "node": "a", "at": 0, "ticks": 1, "mode": "drop_replies"}])"),
    };
    std::set<std::string> seen;
    for (const std::string& text : runs) {
        auto parsed = sim::parse_scenario(text, "rs.json");
        ASSERT_TRUE(parsed.ok()) << parsed.error().to_string();
        const sim::Timeline timeline(parsed.value());
        const sim::Trace& trace = timeline.trace();
        ASSERT_EQ(trace.header.format, 6);
        for (std::size_t k = 0; k < trace.events.size(); ++k) {
            const sim::Snapshot snap = timeline.snapshot_at(trace.events[k].tick);
            const ExplainContext ctx{&timeline.scenario(), &trace, k, &snap};
            for (const Lang lang : {Lang::en, Lang::ko}) {
                Strings s = leasescope::test::string_tables();
                s.set_lang(lang);
                const Explanation ex = explain(ctx, s);
                const std::string where = "event " + std::to_string(k) + " of " + text;
                ASSERT_FALSE(ex.sentences.empty()) << where;
                if (own_words(trace.events[k].op)) {
                    EXPECT_EQ(ex.sentences[0].key.rfind("rs.", 0), 0u) << where << ": " << ex.sentences[0].key;
                }
                for (const Sentence& sentence : ex.sentences) {
                    seen.insert(sentence.key);
                    EXPECT_TRUE(s.has(lang, sentence.key)) << where << ": missing key " << sentence.key;
                    EXPECT_EQ(sentence.text.find_first_of("{}"), std::string::npos) << where << ": " << sentence.text;
                    EXPECT_EQ(sentence.text.find("–"), std::string::npos) << where << ": " << sentence.text;
                }
                const std::string cell = outcome_words(trace.events[k], s, 1);
                EXPECT_NE(cell.rfind("out.", 0), 0u) << where << ": missing key " << cell;
                // The Events table's cell, in Redisson's words where it has them.
                const std::string own = outcome_words(trace.events[k], s, trace.header);
                EXPECT_NE(own.rfind("rso.", 0), 0u) << where << ": missing key " << own;
                EXPECT_NE(own.rfind("out.", 0), 0u) << where << ": missing key " << own;
                if (trace.events[k].op == sim::EventOp::acquire) {
                    EXPECT_EQ(own.find(lang == Lang::en ? "slot" : "슬롯"), std::string::npos) << where << ": " << own;
                }
                // The one-sentence form (a timeline mark's tooltip, the compare view's, an exercise's
                // evidence) in Redisson's words too: no slot, no fencing number shown as "–".
                const std::string told = describe_event(trace.events[k], s, trace.header);
                EXPECT_EQ(told.rfind("ev.", 0), std::string::npos) << where << ": missing key " << told;
                EXPECT_EQ(told.find_first_of("{}"), std::string::npos) << where << ": " << told;
                EXPECT_EQ(told.find("–"), std::string::npos) << where << ": " << told;
                EXPECT_EQ(told.find(lang == Lang::en ? "slot" : "슬롯"), std::string::npos) << where << ": " << told;
            }
        }
    }
    // Each of redisson_explain.cpp's sentences is reached by one of the runs.
    for (const char* key : {"rs.start",
                            "rs.acquire.acquired",
                            "rs.acquire.watchdog",
                            "rs.acquire.busy",
                            "rs.acquire.subscribe",
                            "rs.acquire.sleep",
                            "rs.acquire.reply_lost",
                            "rs.extend.renewed",
                            "rs.extend.lost",
                            "rs.extend.error",
                            "rs.release.released",
                            "rs.release.kept",
                            "rs.release.not_owner",
                            "rs.release.error",
                            "rs.message.delivered",
                            "rs.message.lost",
                            "rs.write",
                            "rs.write.held",
                            "rs.write.stale",
                            "rs.write.unsafe",
                            "rs.expire",
                            "rs.skip"})
        EXPECT_TRUE(seen.count(key)) << key;
}

}  // namespace

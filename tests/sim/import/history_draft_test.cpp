// The draft scenario of an imported history (docs/model.md §19.8): what each
// candidate gets from the history, the faults it infers with their evidence,
// and the comparison of its simulated run with the trace.
#include <nlohmann/json.hpp>

#include "history_support.hpp"
#include "leasescope/sim/scenario.hpp"

namespace {

using namespace history_test;
using json = nlohmann::json;

json draft_of(const ImportedHistory& h) {
    auto parsed = parse_scenario(h.draft_json, "draft.json");
    EXPECT_TRUE(parsed.ok()) << (parsed.ok() ? "" : parsed.error().to_string()) << "\n" << h.draft_json;
    return json::parse(h.draft_json);
}

// a holds from tick 0 to 20 and writes at 10; b acquires at 25 and releases at 40.
std::vector<Observation> two_turns() {
    return {acquired(0, "a", "t1", 1), obs(200, ObservedOp::release, "a", "t1", Outcome::released),
            acquired(250, "b", "u1", 2), obs(400, ObservedOp::release, "b", "u1", Outcome::released)};
}

TEST(HistoryDraft, CandidatesTakeLeaseStartActionAndWritesFromTheHistory) {
    auto b = build(two_turns(), {log(100, "a", LogEvent::write, "t1", 1)});
    ASSERT_TRUE(b.history) << b.error;
    const json d = draft_of(*b.history);
    EXPECT_EQ(d["name"], "import-cap");
    EXPECT_EQ(d["tick_ms"], 10);
    EXPECT_EQ(d["lock"]["name"], "lock:orders");
    EXPECT_EQ(d["lock"]["fencing_start"], 1);
    ASSERT_EQ(d["candidates"].size(), 2u);
    const json& a = d["candidates"][0];
    EXPECT_EQ(a["name"], "a");
    EXPECT_EQ(a["start"], 0);
    EXPECT_EQ(a["lease"], 100);
    EXPECT_EQ(a["wait"], 0);
    EXPECT_EQ(a["auto_extend"], false);
    EXPECT_EQ(a["action"], 20);
    EXPECT_EQ(a["writes"], json::array({10}));
    EXPECT_EQ(d["candidates"][1]["start"], 25);
}

TEST(HistoryDraft, AHistoryTheModelCanExpressHasNoDifferences) {
    auto b = build(two_turns(), {log(100, "a", LogEvent::write, "t1", 1)});
    ASSERT_TRUE(b.history) << b.error;
    draft_of(*b.history);
    EXPECT_TRUE(b.history->differences.empty()) << ::testing::PrintToString(b.history->differences);
    EXPECT_TRUE(b.history->evidence.empty());
}

TEST(HistoryDraft, WhereTheDraftPartsTheDifferenceNamesNodeAndTicks) {
    // b's attempts are 300 ms apart: the model retries every tick, so the
    // draft's b acquires as soon as a releases, not when the capture's did.
    std::vector<Observation> o = {
        acquired(0, "a", "t1", 1),   busy(50, "b", "u1"),
        busy(350, "b", "u1"),        obs(400, ObservedOp::release, "a", "t1", Outcome::released),
        acquired(650, "b", "u1", 2), obs(800, ObservedOp::release, "b", "u1", Outcome::released)};
    auto b = build(o);
    ASSERT_TRUE(b.history) << b.error;
    const json d = draft_of(*b.history);
    EXPECT_EQ(d["candidates"][1]["wait"], 60);  // 600 ms of attempts, whole 50 ms
    const auto& diffs = b.history->differences;
    ASSERT_FALSE(diffs.empty());
    EXPECT_EQ(diffs[0].rfind("b acquires at tick 65 in the capture, at tick ", 0), 0u) << diffs[0];
}

TEST(HistoryDraft, ALoggedPauseIsAFaultWithItsEvidence) {
    std::vector<LogEntry> logs = {log(50, "a", LogEvent::pause_start), log(150, "a", LogEvent::pause_end)};
    auto b = build(two_turns(), logs);
    ASSERT_TRUE(b.history) << b.error;
    ASSERT_EQ(b.history->evidence.size(), 1u);
    const Evidence& e = b.history->evidence[0];
    EXPECT_EQ(e.fault, EventOp::pause);
    EXPECT_EQ(e.node, "a");
    EXPECT_EQ(e.at, 5);
    EXPECT_EQ(e.ticks, 10);
    EXPECT_EQ(e.because, "app.jsonl:51 says a paused at t=0.050 s and app.jsonl:151 that it resumed at t=0.150 s");
    const json d = draft_of(*b.history);
    ASSERT_EQ(d["faults"].size(), 1u);
    EXPECT_EQ(d["faults"][0], json::parse(R"({"kind":"pause","node":"a","at":5,"ticks":10})"));
    EXPECT_NE(d["summary"]["en"].get<std::string>().find(e.because), std::string::npos);
}

TEST(HistoryDraft, AHoldersSilenceFollowedByAWriteIsAPause) {
    // a extends every 300 ms, then nothing from 900 to 3000 ms, and it writes at 3010.
    std::vector<Observation> o = {acquired(0, "a", "t1", 1, 1000)};
    for (std::int64_t ms : {300, 600, 900}) {
        Observation x = obs(ms, ObservedOp::extend, "a", "t1", Outcome::renewed);
        x.ttl_ms = 1000;
        o.push_back(x);
    }
    o.push_back(expired(1900, "a", "t1"));
    o.push_back(obs(3000, ObservedOp::extend, "a", "t1", Outcome::lost));
    auto b = build(o, {log(3010, "a", LogEvent::write, "t1", 1)});
    ASSERT_TRUE(b.history) << b.error;
    ASSERT_EQ(b.history->evidence.size(), 1u);
    const Evidence& e = b.history->evidence[0];
    EXPECT_EQ(e.fault, EventOp::pause);
    EXPECT_EQ(e.at, 91);
    EXPECT_EQ(e.ticks, 209);
    EXPECT_EQ(e.because,
              "no command from a between line 901 (t=0.900 s) and line 3001 (t=3.000 s), yet it wrote at "
              "t=3.010 s");
    draft_of(*b.history);
}

TEST(HistoryDraft, AnExtendingHolderThatFallsSilentForGoodIsACrash) {
    std::vector<Observation> o = {acquired(0, "a", "t1", 1, 1000), busy(100, "b", "u1")};
    for (std::int64_t ms : {300, 600}) {
        Observation x = obs(ms, ObservedOp::extend, "a", "t1", Outcome::renewed);
        x.ttl_ms = 1000;
        o.push_back(x);
    }
    o.push_back(expired(1600, "a", "t1"));
    o.push_back(acquired(1610, "b", "u1", 2));
    auto b = build(o);
    ASSERT_TRUE(b.history) << b.error;
    ASSERT_EQ(b.history->evidence.size(), 1u);
    const Evidence& e = b.history->evidence[0];
    EXPECT_EQ(e.fault, EventOp::crash);
    EXPECT_EQ(e.at, 61);
    EXPECT_EQ(e.because,
              "no command from a after line 601 (t=0.600 s) while it held the lock; its record expired at "
              "t=1.600 s");
    const json d = draft_of(*b.history);
    EXPECT_EQ(d["faults"][0], json::parse(R"({"kind":"crash","node":"a","at":61})"));
}

TEST(HistoryDraft, AHolderWithoutAWatchdogIsSilentWhileItHoldsAndNoCrash) {
    std::vector<Observation> o = {acquired(0, "a", "t1", 1, 1000), busy(100, "b", "u1"), expired(1000, "a", "t1"),
                                  acquired(1010, "b", "u1", 2)};
    auto b = build(o);
    ASSERT_TRUE(b.history) << b.error;
    EXPECT_TRUE(b.history->evidence.empty());
}

// Rule 19.8.2: a holder that never extends has no extension period; its
// lease bounds its silence (the example incident's worker-a).
TEST(HistoryDraft, ANonExtendingHoldersSilencePastItsLeaseThenAWriteIsAPause) {
    std::vector<Observation> o = {acquired(0, "a", "t1", 1, 1000), busy(100, "b", "u1"), expired(1000, "a", "t1"),
                                  acquired(1010, "b", "u1", 2),
                                  obs(1601, ObservedOp::release, "a", "t1", Outcome::not_owner)};
    auto b = build(o, {log(1600, "a", LogEvent::write, "t1", 1)});
    ASSERT_TRUE(b.history) << b.error;
    ASSERT_EQ(b.history->evidence.size(), 1u);
    const Evidence& e = b.history->evidence[0];
    EXPECT_EQ(e.fault, EventOp::pause);
    EXPECT_EQ(e.at, 1);
    EXPECT_EQ(e.ticks, 159);
    EXPECT_EQ(e.because,
              "no command from a between line 1 (t=0.000 s) and line 1602 (t=1.601 s), past its lease of 1000 ms, "
              "yet it wrote at t=1.600 s");
    const json d = draft_of(*b.history);
    EXPECT_EQ(d["faults"][0], json::parse(R"({"kind":"pause","node":"a","at":1,"ticks":159})"));
    // A paused node's action stands still: its write and release come 1 tick
    // of its own time after acquiring, at tick 160 of the run.
    EXPECT_EQ(d["candidates"][0]["action"], 1);
    EXPECT_EQ(d["candidates"][0]["writes"], json::parse("[1]"));
}

TEST(HistoryDraft, ANonExtendingHolderWithinItsLeaseOrOnlyAcquiringAgainIsNoPause) {
    // a writes within its lease and releases late; c lets its record expire and acquires again.
    std::vector<Observation> o = {
        acquired(0, "a", "t1", 1, 1000), obs(900, ObservedOp::release, "a", "t1", Outcome::released),
        acquired(1000, "c", "v1", 2, 300), expired(1300, "c", "v1"), acquired(3000, "c", "v2", 3, 300)};
    auto b = build(o, {log(500, "a", LogEvent::write, "t1", 1)});
    ASSERT_TRUE(b.history) << b.error;
    EXPECT_TRUE(b.history->evidence.empty()) << b.history->evidence.front().because;
}

TEST(HistoryDraft, ANonExtendingHoldersReleasePastItsLeaseIsAPauseWithoutAWrite) {
    std::vector<Observation> o = {acquired(0, "a", "t1", 1, 1000), expired(1000, "a", "t1"),
                                  obs(2500, ObservedOp::release, "a", "t1", Outcome::not_owner)};
    auto b = build(o);
    ASSERT_TRUE(b.history) << b.error;
    ASSERT_EQ(b.history->evidence.size(), 1u);
    EXPECT_EQ(b.history->evidence[0].because,
              "no command from a between line 1 (t=0.000 s) and line 2501 (t=2.500 s), past its lease of 1000 ms");
    EXPECT_EQ(b.history->evidence[0].ticks, 249);
}

TEST(HistoryDraft, AKeptClockStepIsAStoreClockJump) {
    Observation step = obs(100, ObservedOp::clock_step, "", "", Outcome::none, 90);
    step.step_ms = -1204;
    std::vector<Observation> o = two_turns();
    o.insert(o.begin() + 1, step);
    auto b = build(o);
    ASSERT_TRUE(b.history) << b.error;
    ASSERT_EQ(b.history->evidence.size(), 1u);
    EXPECT_EQ(b.history->evidence[0].because, "the server's clock stepped back 1204 ms at line 90 (t=0.100 s)");
    const json d = draft_of(*b.history);
    EXPECT_EQ(d["faults"][0], json::parse(R"({"kind":"clock_jump","clock":"store","at":10,"ms":-1204})"));
}

TEST(HistoryDraft, IrregularRunStartsAreANoteNotAFakedPeriod) {
    std::vector<Observation> o = {
        acquired(0, "a", "t1", 1),   obs(50, ObservedOp::release, "a", "t1", Outcome::released),
        acquired(200, "a", "t2", 2), obs(250, ObservedOp::release, "a", "t2", Outcome::released),
        acquired(300, "a", "t3", 3), obs(350, ObservedOp::release, "a", "t3", Outcome::released),
        acquired(500, "a", "t4", 4), obs(550, ObservedOp::release, "a", "t4", Outcome::released)};
    auto b = build(o);
    ASSERT_TRUE(b.history) << b.error;
    const json d = draft_of(*b.history);
    EXPECT_EQ(d["candidates"][0]["runs"], 4);
    EXPECT_EQ(d["candidates"][0]["every"], 20);
    const auto& notes = b.history->notes;
    EXPECT_TRUE(std::any_of(notes.begin(), notes.end(), [](const std::string& n) {
        return n ==
               "a's runs start at irregular ticks (0, 20, 30, 50): the model starts runs at a fixed period, so "
               "the draft starts them every 20 ticks, the most common gap";
    })) << ::testing::PrintToString(notes);
}

// The draft's title names the lock key as the trace's header does (rule
// 19.5.4): a raw byte that is not UTF-8 (the import fuzzer's capture had
// "orders-lo\x96ck" written raw) and a long key cut inside a character both
// gave text that JSON cannot hold, and the import aborted.
TEST(HistoryDraft, ALockKeyThatIsNotTextIsNamedAsTheTraceNamesIt) {
    const std::string long_key = std::string(299, 'k') + "\xed\x95\x9c";  // 299 bytes, then one Korean character
    const std::string raw_byte = std::string("orders-lo") + '\x96' + "ck";
    for (const std::string& key : {raw_byte, long_key}) {
        CaptureReport report = report_of(two_turns());
        report.lock_key = key;
        report.lock_keys = {key};
        ImportOptions options;
        options.tick_ms = 10;
        std::string error;
        const auto h = build_history(two_turns(), report, {}, {}, options, error);
        ASSERT_TRUE(h) << error;
        const json d = draft_of(*h);
        EXPECT_EQ(d["title"]["en"], "Draft of the imported history of " + h->trace.header.lock);
    }
}

}  // namespace

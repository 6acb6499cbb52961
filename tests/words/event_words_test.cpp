// Events in words, the string tables and the tour: every key an event can
// produce exists in English and Korean, texts name the node and numbers, and
// every event of every preset reads as finished text in both languages.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "leasescope/sim/scenario.hpp"
#include "leasescope/sim/simulation.hpp"
#include "leasescope/sim/trace.hpp"
#include "leasescope/words/strings.hpp"
#include "leasescope/words/tour.hpp"
#include "leasescope/words/words.hpp"
#include "support/preset_loader.hpp"
#include "support/string_tables.hpp"
#include "support/test_files.hpp"

using namespace leasescope;
using namespace leasescope::words;

namespace {

sim::Event event_of(sim::EventOp op, sim::Outcome outcome, sim::Details details = {}) {
    sim::Event e;
    e.tick = 12;
    e.op = op;
    e.outcome = outcome;
    e.node = "node-a";
    e.token = "4xNabcde";
    e.fencing = 1;
    e.details = details;
    if (op == sim::EventOp::validate) e.named_node = "node-b";
    if (op == sim::EventOp::overlap_begin) e.overlap_count = 2;
    return e;
}

// The explanation, in `lang`, of the first event with `op` in preset `name`
// (empty, and a failure, when the preset has none).
std::string explain_first(const std::string& name, sim::EventOp op, Lang lang) {
    const sim::Scenario scenario = test::load_preset(name);
    sim::Timeline timeline(scenario);
    const auto& events = timeline.trace().events;
    std::size_t k = 0;
    while (k < events.size() && events[k].op != op) ++k;
    if (k == events.size()) {
        ADD_FAILURE() << name << " has no event of that op";
        return "";
    }
    ExplainContext ctx;
    ctx.scenario = &scenario;
    ctx.trace = &timeline.trace();
    ctx.event_index = k;
    return explain_event(ctx, test::string_tables(lang));
}

}  // namespace

TEST(Strings, MissingKeyFallsBackToTheKey) {
    Strings s = test::string_tables();
    s.set_lang(Lang::ko);
    EXPECT_EQ(s.tr("no.such.key"), "no.such.key");
    EXPECT_EQ(s.tr("lane.slot", {{"slot", "3"}}), "슬롯 3");
}

// Every (op, outcome, detail) the trace format allows maps to texts in both languages.
TEST(Words, EveryEventKeyHasTexts) {
    const Strings s = test::string_tables();
    using O = sim::Outcome;
    using P = sim::EventOp;
    const std::vector<sim::Event> events = {
        event_of(P::pause, O::none),
        event_of(P::resume, O::none),
        event_of(P::crash, O::none),
        event_of(P::partition, O::none, {sim::Detail::drop_replies}),
        event_of(P::heal, O::none),
        event_of(P::failover, O::none, {sim::Detail::leases}),
        event_of(P::failover, O::none, {sim::Detail::all}),
        event_of(P::expire, O::expired),
        event_of(P::write, O::accepted),
        event_of(P::write, O::accepted, {sim::Detail::stale}),
        event_of(P::write, O::accepted, {sim::Detail::stale, sim::Detail::unsafe_write}),
        event_of(P::write, O::rejected),
        event_of(P::write, O::rejected, {sim::Detail::stale}),
        event_of(P::release, O::released),
        event_of(P::release, O::kept),
        event_of(P::release, O::not_owner),
        event_of(P::release, O::error),
        event_of(P::extend, O::renewed),
        event_of(P::extend, O::lost),
        event_of(P::extend, O::error),
        event_of(P::start, O::none),
        event_of(P::acquire, O::acquired),
        event_of(P::acquire, O::acquired, {sim::Detail::fencing_regressed}),
        event_of(P::acquire, O::error, {sim::Detail::reply_lost}),
        event_of(P::acquire, O::error),
        event_of(P::acquire, O::busy),
        event_of(P::acquire, O::busy, {sim::Detail::hold_off}),
        event_of(P::skip, O::skipped),
        event_of(P::status, O::held),
        event_of(P::status, O::vacant),
        event_of(P::validate, O::current),
        event_of(P::validate, O::stale),
        event_of(P::validate, O::vacant),
        event_of(P::overlap_begin, O::none),
        event_of(P::overlap_end, O::none),
        // An imported history's (model.md §19.7).
        event_of(P::believe, O::leader, {sim::Detail::acquired}),
        event_of(P::believe, O::leader, {sim::Detail::extended}),
        event_of(P::believe, O::follower, {sim::Detail::lost}),
        event_of(P::believe, O::follower, {sim::Detail::released}),
        event_of(P::believe, O::leader, {sim::Detail::inferred}),
        event_of(P::believe, O::follower, {sim::Detail::inferred}),
        event_of(P::undecided, O::none, {sim::Detail::unrecognised_script}),
        event_of(P::undecided, O::none, {sim::Detail::unknown_sha}),
        event_of(P::undecided, O::none, {sim::Detail::other_command}),
        event_of(P::undecided, O::none, {sim::Detail::expiry_boundary}),
        event_of(P::undecided, O::none, {sim::Detail::capture_gap}),
    };
    for (Lang lang : {Lang::en, Lang::ko}) {
        for (const sim::Event& e : events) {
            const std::string key = event_key(e);
            EXPECT_TRUE(s.has(lang, "ev." + key)) << lang_code(lang) << " ev." << key;
            EXPECT_TRUE(s.has(lang, "out." + key)) << lang_code(lang) << " out." << key;
            EXPECT_TRUE(s.has(lang, std::string("op.") + sim::to_string(e.op))) << sim::to_string(e.op);
        }
        EXPECT_TRUE(s.has(lang, "ev.skip"));
    }
}

// An imported history's events say what a node believed, with its log's word
// or as inferred, and why the capture cannot tell; each of the five reasons
// has its own key, in both languages.
TEST(Words, ImportedEventsSayBeliefsAndWhatTheCaptureCannotTell) {
    Strings s = test::string_tables();
    const sim::Event led = event_of(sim::EventOp::believe, sim::Outcome::leader, {sim::Detail::acquired});
    EXPECT_EQ(event_key(led), "believe.leader");
    EXPECT_EQ(describe_event(led, s), "node-a believed it led (its log: acquired).");
    EXPECT_EQ(outcome_words(led, s), "believes it leads (its log: acquired)");
    const sim::Event inferred = event_of(sim::EventOp::believe, sim::Outcome::follower, {sim::Detail::inferred});
    EXPECT_EQ(event_key(inferred), "believe.follower_inferred");
    const sim::Event script = event_of(sim::EventOp::undecided, sim::Outcome::none, {sim::Detail::unrecognised_script});
    EXPECT_EQ(outcome_words(script, s), "cannot tell: a script LeaseScope does not know");
    EXPECT_EQ(describe_event(script, s).rfind("The capture cannot tell: a script LeaseScope does not know", 0), 0u);
    EXPECT_EQ(op_words(script, s), "cannot tell");
    std::vector<std::string> keys;
    for (const sim::Detail why : {sim::Detail::unrecognised_script, sim::Detail::unknown_sha,
                                  sim::Detail::other_command, sim::Detail::expiry_boundary, sim::Detail::capture_gap})
        keys.push_back(event_key(event_of(sim::EventOp::undecided, sim::Outcome::none, {why})));
    EXPECT_EQ(keys, (std::vector<std::string>{"undecided.unrecognised_script", "undecided.unknown_sha",
                                              "undecided.other_command", "undecided.expiry_boundary",
                                              "undecided.capture_gap"}));
    s.set_lang(Lang::ko);
    EXPECT_EQ(describe_event(led, s), "node-a는 자신이 리더라고 믿었습니다 (로그: acquired).");
    EXPECT_EQ(outcome_words(script, s), "판단 불가: LeaseScope가 모르는 스크립트");
    EXPECT_EQ(op_words(led, s), "믿음");
}

// A write of an imported history (model.md §19.9): the trace says what the
// real resource did, not its mode, so Explain names no mode (it said "Mode
// off (accept all): the resource compares nothing" of the example incident).
TEST(Words, AnImportedWriteIsToldAsRecordedWithoutAMode) {
    const std::string path = test::source_dir + "/tests/data/import/example/incident.trace.jsonl";
    auto parsed = sim::parse_trace(test::read_all(path), path);
    ASSERT_TRUE(parsed.ok()) << parsed.error().to_string();
    const sim::Trace& trace = parsed.value();
    std::size_t late = trace.events.size();
    for (std::size_t i = 0; i < trace.events.size(); ++i)
        if (trace.events[i].op == sim::EventOp::write &&
            trace.events[i].details.has(sim::Detail::stale_after_successor))
            late = i;
    ASSERT_LT(late, trace.events.size()) << "the example has worker-a's late write";
    for (const Lang lang : {Lang::en, Lang::ko}) {
        ExplainContext ctx;
        ctx.trace = &trace;
        ctx.event_index = late;
        const Explanation e = explain(ctx, test::string_tables(lang));
        std::vector<std::string> keys;
        for (const Sentence& sentence : e.sentences) keys.push_back(sentence.key);
        EXPECT_NE(std::find(keys.begin(), keys.end(), "explain.write.recorded_accepted"), keys.end());
        EXPECT_NE(std::find(keys.begin(), keys.end(), "explain.write.recorded_stale"), keys.end());
        for (const std::string& key : keys) EXPECT_EQ(key.rfind("explain.write.off", 0), std::string::npos) << key;
        EXPECT_EQ(e.body().find("{"), std::string::npos) << e.body();
    }
}

TEST(Words, RejectedReleaseIsToldAsStaleToken) {
    Strings s = test::string_tables();
    const sim::Event e = event_of(sim::EventOp::release, sim::Outcome::not_owner);
    EXPECT_EQ(event_key(e), "release.not_owner");
    EXPECT_EQ(outcome_words(e, s), "rejected: stale token");
    const std::string sentence = describe_event(e, s);
    EXPECT_NE(sentence.find("node-a"), std::string::npos);
    EXPECT_NE(sentence.find("not_owner"), std::string::npos);
    s.set_lang(Lang::ko);
    EXPECT_EQ(outcome_words(e, s), "거부: 낡은 토큰");
}

TEST(Words, ExplainNamesWhenTheTokenExpired) {
    const std::string path = std::string(LEASESCOPE_SOURCE_DIR) + "/scenarios/expiry-takeover.json";
    auto parsed = sim::parse_scenario(test::read_all(path), path);
    ASSERT_TRUE(parsed.ok());
    sim::Timeline timeline(std::move(parsed).value());
    const auto& events = timeline.trace().events;
    std::size_t k = 0;
    while (k < events.size() &&
           !(events[k].op == sim::EventOp::release && events[k].outcome == sim::Outcome::not_owner))
        ++k;
    ASSERT_LT(k, events.size());
    const sim::Snapshot snap = timeline.snapshot_at(events[k].tick);
    ExplainContext ctx;
    ctx.trace = &timeline.trace();
    ctx.event_index = k;
    ctx.snapshot = &snap;
    const Strings s = test::string_tables();
    const std::string text = explain_event(ctx, s);
    EXPECT_NE(text.find("expired at tick 6"), std::string::npos) << text;
}

// Explain tells what a jump of Redis's clock did to each record, from the
// facts of the trace (model.md §3.3 rules 4-5): node-a's record had 250 ms
// left and the 300 ms jump ends it at once; a node's jump changes nothing it decides.
TEST(Words, ExplainStoreClockJumpNamesTheRecordItEnded) {
    sim::Scenario scenario = test::load_preset("store-clock-jump");
    sim::Timeline timeline(scenario);
    const auto& events = timeline.trace().events;
    std::size_t k = 0;
    while (k < events.size() && events[k].op != sim::EventOp::clock_jump) ++k;
    ASSERT_LT(k, events.size());
    ExplainContext ctx;
    ctx.scenario = &scenario;
    ctx.trace = &timeline.trace();
    ctx.event_index = k;
    const std::string en = explain_event(ctx, test::string_tables());
    EXPECT_NE(en.find("node-a's record (fencing 1), which had 250 ms left, expires at once."), std::string::npos) << en;
    const std::string ko = explain_event(ctx, test::string_tables(Lang::ko));
    EXPECT_NE(ko.find("250 ms가 남아 있던 node-a의 레코드(펜싱 1)는 곧바로 만료됩니다."), std::string::npos) << ko;

    // The expiry that follows names the jump as its cause, not a TTL that ran out.
    ctx.event_index = k + 1;
    ASSERT_EQ(events[k + 1].op, sim::EventOp::expire);
    const std::string expiry = explain_event(ctx, test::string_tables());
    EXPECT_NE(expiry.find("Redis's clock jumped past its deadline"), std::string::npos) << expiry;
    EXPECT_NE(expiry.find("Redis's clock jumped 300 ms forward this tick"), std::string::npos) << expiry;
    EXPECT_EQ(expiry.find("its TTL ran out."), std::string::npos) << expiry;
    EXPECT_EQ(expiry.find("autoExtend is off"), std::string::npos) << expiry;
    ctx.event_index = k;

    // A smaller jump leaves the record with 50 ms.
    scenario.faults[0].ms = 200;
    sim::Timeline smaller(scenario);
    ctx.trace = &smaller.trace();
    const std::string kept = explain_event(ctx, test::string_tables());
    EXPECT_NE(kept.find("had 250 ms left on Redis's clock and now has 50 ms left."), std::string::npos) << kept;

    // node-a's own clock: the library's timers are monotonic.
    scenario.faults[0].node = 0;
    sim::Timeline node_jump(scenario);
    ctx.trace = &node_jump.trace();
    const std::string node = explain_event(ctx, test::string_tables());
    EXPECT_NE(node.find("monotonic clock, which a jump does not move, so nothing node-a decides changes"),
              std::string::npos)
        << node;
    EXPECT_EQ(node.find("record"), std::string::npos) << node;
}

// client-clock-drift: node-a's record expires before its watchdog runs; the
// explanation names the slow clock (model.md §3.3 rule 7), not "nothing renewed it".
TEST(Words, ExplainExpiryUnderASlowWatchdogClock) {
    const std::string en = explain_first("client-clock-drift", sim::EventOp::expire, Lang::en);
    EXPECT_NE(en.find("which runs at 30 % of true time (drift_ppm -700000)"), std::string::npos) << en;
    EXPECT_EQ(en.find("before anything renewed it"), std::string::npos) << en;
    const std::string ko = explain_first("client-clock-drift", sim::EventOp::expire, Lang::ko);
    EXPECT_NE(ko.find("실제 시간의 30 %로 가므로"), std::string::npos) << ko;
}

// The same preset at tick 7: the watchdog's renewal comes after the record
// expired, and the lost extend says why it came late: its period is measured
// on node-a's slow clock (model.md §3.3 rule 7), not a pause or a partition.
TEST(Words, ExplainLostExtendUnderASlowWatchdogClock) {
    const sim::Scenario scenario = test::load_preset("client-clock-drift");
    sim::Timeline timeline(scenario);
    const auto& events = timeline.trace().events;
    std::size_t k = 0;
    while (k < events.size() && !(events[k].op == sim::EventOp::extend && events[k].outcome == sim::Outcome::lost)) ++k;
    ASSERT_LT(k, events.size());
    ASSERT_EQ(events[k].tick, 7);
    ExplainContext ctx;
    ctx.scenario = &scenario;
    ctx.trace = &timeline.trace();
    ctx.event_index = k;
    const std::string en = explain_event(ctx, test::string_tables());
    EXPECT_NE(en.find("The watchdog ran late: it measures its period on node-a's own clock, which runs at 30 % of "
                      "true time (drift_ppm -700000)"),
              std::string::npos)
        << en;
    const std::string ko = explain_event(ctx, test::string_tables(Lang::ko));
    EXPECT_NE(ko.find("워치독이 늦게 돌았습니다"), std::string::npos) << ko;
}

TEST(Words, ShortToken) {
    EXPECT_EQ(short_token("", 5), "–");
    EXPECT_EQ(short_token("abc", 5), "abc");
    EXPECT_EQ(short_token("abcdefgh", 5), "abcde…");
}

// The tour has at least five steps, each in both languages, on presets that exist.
TEST(Tour, LoadsAndResolves) {
    std::string error;
    const std::string text = test::read_all(test::source_dir + "/assets/tour.json");
    std::vector<TourStep> steps;
    ASSERT_TRUE(load_tour(text, steps, error)) << error;
    EXPECT_GE(steps.size(), 5u);
    for (const TourStep& step : steps) {
        EXPECT_FALSE(step.title_ko.empty());
        EXPECT_FALSE(step.body_ko.empty());
        const std::string path = std::string(LEASESCOPE_SOURCE_DIR) + "/scenarios/" + step.preset + ".json";
        auto parsed = sim::parse_scenario(test::read_all(path), path);
        ASSERT_TRUE(parsed.ok());
        const sim::Trace trace = sim::simulate(*parsed);
        const Tick t = resolve_tour_tick(step, trace);
        if (!step.tick) {
            EXPECT_GT(t, 0) << step.title_en << ": its event never happens";
        }
    }
}

// Every event of every preset reads as finished text in both languages: no
// field left unfilled ("{node}"), no empty sentence.
TEST(Words, EveryPresetEventFormatsCompletely) {
    Strings s = test::string_tables();
    std::size_t checked = 0;
    for (const auto& entry : std::filesystem::directory_iterator(std::string(LEASESCOPE_SOURCE_DIR) + "/scenarios")) {
        if (entry.path().extension() != ".json") continue;
        auto parsed = sim::parse_scenario(test::read_all(entry.path().string()), entry.path().string());
        ASSERT_TRUE(parsed.ok()) << entry.path();
        sim::Timeline timeline(std::move(parsed).value());
        const auto& events = timeline.trace().events;
        for (Lang lang : {Lang::en, Lang::ko}) {
            s.set_lang(lang);
            for (std::size_t k = 0; k < events.size(); ++k) {
                const sim::Snapshot snap = timeline.snapshot_at(events[k].tick);
                ExplainContext ctx;
                ctx.trace = &timeline.trace();
                ctx.event_index = k;
                ctx.snapshot = &snap;
                ctx.scenario = &timeline.scenario();
                // The state at the end of the tick is empty when nothing is held and nobody works
                // (never a bare heading); the other texts always say something.
                const std::string state = explain_state(snap, s);
                EXPECT_EQ(state.find('{'), std::string::npos)
                    << entry.path().filename() << " event " << k << ": " << state;
                for (const std::string& text :
                     {describe_event(events[k], s), describe_event(events[k], s, timeline.trace().header.stores),
                      outcome_words(events[k], s), explain_event(ctx, s)}) {
                    EXPECT_FALSE(text.empty()) << entry.path().filename() << " event " << k;
                    EXPECT_EQ(text.find('{'), std::string::npos)
                        << entry.path().filename() << " event " << k << ": " << text;
                }
                ++checked;
            }
        }
    }
    EXPECT_GT(checked, 200u);
}

// A node's own check (model.md §5.8) is told as a check, not as an auditor's
// validate: what it answered, when Redis read the token, and, in mode off,
// that only a fence at the resource refuses the late write it allows.
TEST(Words, ExplainOwnCheckSaysTheAnswerIsNoFence) {
    const std::string en = explain_first("check-then-act", sim::EventOp::validate, Lang::en);
    EXPECT_NE(en.find("node-a checks its own token before it writes: current. It sends the write now."),
              std::string::npos)
        << en;
    EXPECT_NE(en.find("Redis read the token at tick 4; node-a learns the answer at tick 17"), std::string::npos) << en;
    EXPECT_NE(en.find("only a fence at the resource"), std::string::npos) << en;
    EXPECT_EQ(en.find("validates node-a's token"), std::string::npos) << en;
    const std::string ko = explain_first("check-then-act", sim::EventOp::validate, Lang::ko);
    EXPECT_NE(ko.find("node-a가 쓰기 전에 자신의 토큰을 확인합니다: 현재 소유자."), std::string::npos) << ko;
}

// A Redlock store that expires by a monotonic clock (model.md §20.2 rule 5):
// its jump is told as moving no deadline, in both languages; and a store's
// answer is told in Redlock's words, not as the elector's "held for N ticks".
TEST(Words, RedlockMonotonicJumpAndAStoresAnswer) {
    const std::string en = explain_first("redlock-monotonic", sim::EventOp::clock_jump, Lang::en);
    EXPECT_NE(en.find("Store C's wall clock jumps 10000 ms forward."), std::string::npos) << en;
    EXPECT_NE(en.find("so no deadline moves"), std::string::npos) << en;
    const std::string ko = explain_first("redlock-monotonic", sim::EventOp::clock_jump, Lang::ko);
    EXPECT_NE(ko.find("어떤 마감 시각도 움직이지 않고"), std::string::npos) << ko;
    const sim::Scenario scenario = test::load_preset("redlock-monotonic");
    const sim::Trace trace = sim::simulate(scenario);
    const Strings s = test::string_tables();
    std::size_t refused = 0;
    for (const sim::Event& e : trace.events) {
        if (e.op != sim::EventOp::acquire || e.node != "client-2" || e.outcome != sim::Outcome::busy) continue;
        const std::string words = describe_event(e, s, trace.header.stores);
        EXPECT_EQ(words.find("held for"), std::string::npos) << words;
        EXPECT_EQ(words.rfind("Store ", 0), 0u) << words;
        ++refused;
    }
    EXPECT_GT(refused, 3u);
}

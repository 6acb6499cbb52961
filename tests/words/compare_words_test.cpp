// Properties of the side-by-side words over the three ready-made pairs
// (gc-pause-fencing vs gc-pause-no-fencing, failover-lost-lock vs
// failover-fencing-regressed, expiry-takeover without vs with autoExtend) at
// every tick, in English and Korean: the divergence is sim::first_divergence's
// (the tick `leasescope-cli diff --ignore-tokens` prints), told only once the playhead reaches
// it and with each side's own event; every count agrees with the simulator's
// state at that tick (its violations and resource counters) or with the
// trace; the settings named are the ones that differ; the text renders whole.
#include <gtest/gtest.h>

#include "support/test_files.hpp"

#include <fstream>
#include <regex>
#include <sstream>

#include "leasescope/sim/simulation.hpp"
#include "leasescope/words/compare_words.hpp"
#include "leasescope/words/particles.hpp"

using namespace leasescope;
using namespace leasescope::words;

namespace {

using leasescope::test::read_all;
using leasescope::test::source_dir;

Strings strings_in(Lang lang) {
    Strings t;
    std::string error;
    for (Lang l : {Lang::en, Lang::ko})
        EXPECT_TRUE(t.load(l, read_all(source_dir + "/assets/i18n/" + lang_code(l) + ".json"), error)) << error;
    t.set_lang(lang);
    return t;
}

sim::Scenario preset(const std::string& name, const std::vector<sim::Override>& sets = {}) {
    const std::string path = source_dir + "/scenarios/" + name + ".json";
    auto parsed = sim::parse_scenario(read_all(path), path, sets);
    EXPECT_TRUE(parsed.ok()) << path;
    return std::move(parsed).value();
}

struct Pair {
    std::string name;
    sim::Timeline a, b;
};

// The app's ready-made pairs (app/gui/core/compare_pairs.cpp), built the same way.
std::vector<std::unique_ptr<Pair>> pairs() {
    std::vector<std::unique_ptr<Pair>> out;
    out.push_back(std::make_unique<Pair>(
        Pair{"gc-pause", sim::Timeline(preset("gc-pause-fencing")), sim::Timeline(preset("gc-pause-no-fencing"))}));
    out.push_back(std::make_unique<Pair>(Pair{"failover", sim::Timeline(preset("failover-lost-lock")),
                                              sim::Timeline(preset("failover-fencing-regressed"))}));
    out.push_back(
        std::make_unique<Pair>(Pair{"expiry-autoextend", sim::Timeline(preset("expiry-takeover")),
                                    sim::Timeline(preset("expiry-takeover", {{"defaults.auto_extend", "true"}}))}));
    out.push_back(std::make_unique<Pair>(
        Pair{"replica-wait", sim::Timeline(preset("failover-fencing-tie")), sim::Timeline(preset("failover-wait"))}));
    out.push_back(std::make_unique<Pair>(Pair{"split-brain", sim::Timeline(preset("split-brain-old-primary")),
                                              sim::Timeline(preset("split-brain-min-replicas"))}));
    return out;
}

// A pointer into a temporary list would dangle: only a kept list is searched.
const Sentence* with_key(std::vector<Sentence>&& s, const std::string& key) = delete;
const Sentence* with_key(const std::vector<Sentence>& s, const std::string& key) {
    for (const Sentence& x : s)
        if (x.key == key) return &x;
    return nullptr;
}

bool has_text(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// What the simulator's state says at the end of tick t, tally by tally where
// it keeps one; the rest is counted from the events by their own keys.
std::array<std::int64_t, tally_count> from_state(const sim::Timeline& tl, Tick t) {
    std::array<std::int64_t, tally_count> n{};
    const sim::Snapshot snap = tl.snapshot_at(t);
    n[static_cast<std::size_t>(Tally::unsafe_write)] = snap.violations.unsafe_write;
    n[static_cast<std::size_t>(Tally::overlap)] = snap.violations.overlap;
    n[static_cast<std::size_t>(Tally::fencing_regressed)] = snap.violations.fencing_regressed;
    n[static_cast<std::size_t>(Tally::rejected_write)] = snap.resource.rejected;
    for (const sim::Event& e : tl.trace().events) {
        if (e.tick > t) continue;
        const std::string key = event_key(e);
        // A lost update (model.md §9.6) is a stale write accepted too.
        if (key == "write.accepted_stale" || key == "write.lost_update")
            ++n[static_cast<std::size_t>(Tally::stale_write)];
        if (key == "expire") ++n[static_cast<std::size_t>(Tally::expired)];
        if (key == "extend.renewed") ++n[static_cast<std::size_t>(Tally::renewed)];
    }
    return n;
}

}  // namespace

TEST(CompareWords, EveryTickOfTheReadyMadePairsAgreesWithBothTraces) {
    for (const auto& p : pairs()) {
        const sim::Trace& ta = p->a.trace();
        const sim::Trace& tb = p->b.trace();
        // The divergence is diff's: its index, and the tick its text names.
        const auto diff = sim::first_divergence(ta, tb, /*ignore_tokens=*/true);
        ASSERT_TRUE(diff.has_value()) << p->name;
        std::smatch m;
        ASSERT_TRUE(std::regex_search(diff->description, m, std::regex("\\(tick (\\d+),"))) << diff->description;
        const Tick diff_tick = std::stoll(m[1].str());
        const PairDivergence d = pair_divergence(ta, tb);
        ASSERT_TRUE(d.differ) << p->name;
        EXPECT_EQ(d.index, diff->index) << p->name;
        EXPECT_EQ(d.tick, diff_tick) << p->name;
        const Tick end = std::max(ta.summary.end_tick, tb.summary.end_tick);
        for (Lang lang : {Lang::en, Lang::ko}) {
            const Strings s = strings_in(lang);
            for (Tick t = 0; t <= end; ++t) {
                SCOPED_TRACE(p->name + " tick " + std::to_string(t) + " " + lang_code(lang));
                const CompareContext ctx{&p->a.scenario(), &p->b.scenario(), &ta, &tb, t};
                const auto sentences = compare_sentences(ctx, s);
                for (const Sentence& x : sentences) {
                    EXPECT_TRUE(s.has(Lang::en, x.key) && s.has(Lang::ko, x.key)) << x.key;
                    // Plain words: no command line, no particle pair left unresolved.
                    EXPECT_FALSE(has_text(x.text, "leasescope-cli")) << x.text;
                    EXPECT_FALSE(has_text(x.text, "--")) << x.text;
                    EXPECT_FALSE(has_text(x.text, "(이)")) << x.text;
                    EXPECT_EQ(x.text.find('{'), std::string::npos) << x.text;
                    EXPECT_FALSE(x.text.empty()) << x.key;
                }
                // Where the runs part is told from its tick on, never before.
                const Sentence* parted = with_key(sentences, "compare.parted");
                const Sentence* same = with_key(sentences, "compare.same_so_far");
                // They part at the earlier of the two sides' divergent events.
                const Tick first = std::min(d.a ? d.a->tick : end + 1, d.b ? d.b->tick : end + 1);
                EXPECT_EQ(d.first_tick, first);
                EXPECT_EQ(parted != nullptr, t >= first);
                EXPECT_EQ(same != nullptr, t < first);
                if (parted != nullptr) {
                    EXPECT_TRUE(has_text(parted->text, std::to_string(first)));
                    // Each side's event is told once the playhead has reached it, and not before.
                    for (const sim::Event* e : {d.a, d.b}) {
                        if (e == nullptr) continue;
                        EXPECT_EQ(has_text(parted->text, describe_event(*e, s)), e->tick <= t) << parted->text;
                    }
                    // The two sides really differ at the event it names, tokens aside.
                    if (d.a != nullptr && d.b != nullptr) {
                        sim::Event x = *d.a, y = *d.b;
                        x.token = y.token = "";
                        EXPECT_FALSE(x == y);
                    }
                }
                if (same != nullptr) {
                    // … and they really are the same up to here, on both sides.
                    auto upto = [t](const sim::Trace& tr) {
                        std::size_t n = 0;
                        while (n < tr.events.size() && tr.events[n].tick <= t) ++n;
                        return n;
                    };
                    EXPECT_EQ(upto(ta), upto(tb));
                    // It names how far they agree, the tick before they part, and that tick
                    // (the "first divergence" mark is on screen from the start).
                    EXPECT_TRUE(has_text(same->text, std::to_string(first - 1))) << same->text;
                    EXPECT_TRUE(has_text(same->text, std::to_string(first))) << same->text;
                    for (std::size_t k = 0; k < upto(ta); ++k) {
                        ASSERT_LT(k, tb.events.size());
                        sim::Event x = ta.events[k], y = tb.events[k];
                        x.token = y.token = "";  // as diff --ignore-tokens
                        EXPECT_EQ(x, y);
                    }
                }
                // Every count agrees with the simulator's state at this tick.
                const auto fa = from_state(p->a, t), fb = from_state(p->b, t);
                const CompareFacts facts = compare_facts(ctx);
                EXPECT_EQ(facts.tally_a, fa);
                EXPECT_EQ(facts.tally_b, fb);
                const Sentence* tally = with_key(sentences, "compare.tally");
                const Sentence* none = with_key(sentences, "compare.tally_none");
                EXPECT_EQ(tally != nullptr, none == nullptr);
                for (std::size_t k = 0; k < tally_count; ++k) {
                    if (fa[k] == 0 && fb[k] == 0) continue;
                    ASSERT_NE(tally, nullptr);
                    const std::string item =
                        s.tr("compare.item",
                             {{"what", s.tr(std::string("compare.what.") + tally_name(static_cast<Tally>(k)))},
                              {"a", std::to_string(fa[k])},
                              {"b", std::to_string(fb[k])}});
                    EXPECT_TRUE(has_text(tally->text, item)) << tally->text << " lacks " << item;
                }
            }
        }
    }
}

TEST(CompareWords, TheSettingsNamedAreTheOnesThatDiffer) {
    const Strings s = strings_in(Lang::en);
    for (const auto& p : pairs()) {
        const auto diffs = setting_diffs(p->a.scenario(), p->b.scenario());
        ASSERT_FALSE(diffs.empty()) << p->name;
        std::vector<std::string> paths;
        for (const SettingDiff& d : diffs) {
            EXPECT_NE(d.a, d.b) << d.path;
            paths.push_back(d.path);
        }
        const auto has = [&](const std::string& path) {
            return std::find(paths.begin(), paths.end(), path) != paths.end();
        };
        if (p->name == "gc-pause") {
            EXPECT_TRUE(has("/resource/mode"));
            const auto sentences =
                compare_sentences({&p->a.scenario(), &p->b.scenario(), &p->a.trace(), &p->b.trace(), 0}, s);
            const Sentence* mode = with_key(sentences, "compare.setup.mode");
            ASSERT_NE(mode, nullptr);
            EXPECT_TRUE(has_text(mode->text, s.tr("mode.check")) && has_text(mode->text, s.tr("mode.off")));
            // The fenced run rejects the late write; the other lets it land as unsafe, at the same tick.
            const PairDivergence d = pair_divergence(p->a.trace(), p->b.trace());
            ASSERT_TRUE(d.a && d.b);
            EXPECT_EQ(event_key(*d.a), "write.rejected_stale");
            EXPECT_EQ(event_key(*d.b), "write.unsafe");
        }
        if (p->name == "failover") {
            EXPECT_TRUE(has("/faults/0/lose"));
        }
        if (p->name == "expiry-autoextend") {
            bool extend = false;
            for (const std::string& path : paths) extend = extend || has_text(path, "auto_extend");
            EXPECT_TRUE(extend);
        }
        // The replication pairs differ in the setting their lesson is about (model.md §17.4, §17.6).
        for (const auto& [pair, key] :
             {std::pair{"replica-wait", "wait_replicas"}, std::pair{"split-brain", "min_replicas_to_write"}}) {
            if (p->name != pair) continue;
            bool found = false;
            for (const std::string& path : paths) found = found || has_text(path, key);
            EXPECT_TRUE(found) << pair;
        }
        // Titles, summaries, names and exercises always differ and are never told as a setting.
        for (const std::string& path : paths) {
            EXPECT_FALSE(has_text(path, "/title") || has_text(path, "/summary") || path == "/name" ||
                         has_text(path, "/exercises"))
                << path;
        }
    }
}

// "이벤트 11이", never "이벤트 11가": the Korean divergence sentence takes the
// particle the event's number is read with.
TEST(CompareWords, KoreanParticleFollowsTheEventNumber) {
    const Strings s = strings_in(Lang::ko);
    for (const auto& p : pairs()) {
        const PairDivergence d = pair_divergence(p->a.trace(), p->b.trace());
        const CompareContext ctx{&p->a.scenario(), &p->b.scenario(), &p->a.trace(), &p->b.trace(), 40};
        const std::vector<Sentence> sentences = compare_sentences(ctx, s);  // kept: `parted` points into it
        const Sentence* parted = with_key(sentences, "compare.parted");
        ASSERT_NE(parted, nullptr) << p->name;
        const std::string n = std::to_string(d.index);
        EXPECT_TRUE(has_text(parted->text, "이벤트 " + n + particle_after(n, "(이)가") + " "))
            << p->name << ": " << parted->text;
    }
    // The reading of 11 (십일) ends in ㄹ: 이.
    const std::string eleven = s.tr("compare.parted", {{"tick", "15"}, {"event", "11"}, {"a", "-"}, {"b", "-"}});
    EXPECT_TRUE(has_text(eleven, "이벤트 11이 ")) << eleven;
}

// The seed draws tokens only: two runs that differ in nothing else show no
// setting difference. Under order "shuffled" it decides who calls first, and
// is named.
TEST(CompareWords, TheSeedIsASettingOnlyWhenItOrdersTheCallers) {
    EXPECT_TRUE(setting_diffs(preset("gc-pause-fencing"), preset("gc-pause-fencing", {{"seed", "8"}})).empty());
    const auto shuffled = setting_diffs(preset("racing-acquire"), preset("racing-acquire", {{"seed", "8"}}));
    ASSERT_EQ(shuffled.size(), 1u);
    EXPECT_EQ(shuffled.front().path, "/seed");
}

// Two presets of the same story under two clients (model.md §21): the
// differences named are the run's (the client, its options, the lease),
// never the lessons' exercises, which every pair of presets differs in.
TEST(CompareWords, TwoPresetsSideBySideDifferInTheirRunsNotTheirExercises) {
    const auto diffs = setting_diffs(preset("watchdog-elector"), preset("watchdog-redisson"));
    ASSERT_FALSE(diffs.empty());
    bool client = false;
    for (const SettingDiff& d : diffs) {
        EXPECT_FALSE(has_text(d.path, "/exercises")) << d.path;
        client = client || d.path == "/client";
    }
    EXPECT_TRUE(client);
}

// An imported history beside its draft (model.md §19.9.5): the import's
// believe and undecided events, which a simulated run never has, are not
// where the two stories part; the first real difference is, with each side's
// own event.
TEST(CompareWords, AnImportsBelieveAndUndecidedEventsAreNotWhereTheRunsPart) {
    const sim::Trace draft = sim::simulate(preset("gc-pause-fencing"));
    ASSERT_GE(draft.events.size(), 4u);
    sim::Trace replay = draft;
    sim::Event believe = replay.events[1];
    believe.op = sim::EventOp::believe;
    believe.outcome = sim::Outcome::leader;
    sim::Event undecided = replay.events[2];
    undecided.op = sim::EventOp::undecided;
    undecided.outcome = sim::Outcome::none;
    replay.events.insert(replay.events.begin() + 2, undecided);
    replay.events.insert(replay.events.begin() + 1, believe);
    EXPECT_FALSE(pair_divergence(replay, draft).differ);
    EXPECT_FALSE(pair_divergence(draft, replay).differ);
    // A real difference after them: found at the draft's event 3, the replay's 5.
    replay.events[5].tick += 1;
    const PairDivergence d = pair_divergence(replay, draft);
    ASSERT_TRUE(d.differ);
    EXPECT_EQ(d.index, 3);
    EXPECT_EQ(d.a, &replay.events[5]);
    EXPECT_EQ(d.b, &draft.events[3]);
    EXPECT_EQ(d.tick_a, replay.events[5].tick);
}

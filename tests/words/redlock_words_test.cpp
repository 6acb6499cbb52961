// The words the app shows for a Redlock run (model.md §15, §20): the quorum
// mark's words and the card's client states, in English and Korean, over
// every count of every Redlock preset. The mark's validity is explain's (one
// computation, words::redlock_count, which the simulation's own decision
// uses through sim::redlock_validity_ms), so the timeline and "Explain this
// tick" never disagree.
#include "support/preset_loader.hpp"
#include "support/string_tables.hpp"
#include <gtest/gtest.h>

#include <set>

#include "leasescope/sim/redlock_validity.hpp"
#include "leasescope/sim/simulation.hpp"
#include "leasescope/words/redlock_facts.hpp"
#include "leasescope/words/words.hpp"

using namespace leasescope;
using namespace leasescope::words;

namespace {

std::vector<std::string> redlock_presets() {
    std::vector<std::string> out;
    for (const std::string& name : test::preset_names())
        if (test::load_preset(name).is_redlock()) out.push_back(name);
    return out;
}

}  // namespace

// Each count's mark words name its votes, the stores and the validity that
// Explain's sentence names, in both languages; a lock won has a validity
// above 0 (the rule the simulation decided by), and its window ends after it began.
TEST(RedlockWords, QuorumMarkWordsAreExplainsCount) {
    ASSERT_EQ(redlock_presets().size(), 4u);
    for (const Lang lang : {Lang::en, Lang::ko}) {
        const Strings s = test::string_tables(lang);
        for (const std::string& name : redlock_presets()) {
            const sim::Scenario scenario = test::load_preset(name);
            const sim::Trace trace = sim::simulate(scenario);
            std::size_t counts = 0;
            for (std::size_t k = 0; k < trace.events.size(); ++k) {
                const auto count = redlock_count(&scenario, trace, k);
                if (!count) continue;
                ++counts;
                const sim::Event& e = trace.events[k];
                const Fields f{{"votes", std::to_string(count->votes)},
                               {"stores", std::to_string(count->stores)},
                               {"validity", std::to_string(count->validity_ms)}};
                const std::string mark = s.tr(
                    e.outcome == sim::Outcome::acquired ? "mark.label.quorum_locked" : "mark.label.quorum_failed", f);
                EXPECT_NE(mark.find(std::to_string(count->votes)), std::string::npos) << name << " " << mark;
                EXPECT_NE(mark.find(std::to_string(count->stores)), std::string::npos) << name << " " << mark;
                // A count short of the quorum is told without a validity (it decides nothing).
                if (e.outcome != sim::Outcome::acquired) continue;
                const ExplainContext ctx{&scenario, &trace, k, nullptr};
                const std::string told = explain_event(ctx, s);
                EXPECT_NE(told.find(std::to_string(count->validity_ms)), std::string::npos)
                    << name << " tick " << e.tick << ": explain does not name " << count->validity_ms << ": " << told;
                EXPECT_NE(mark.find(std::to_string(count->validity_ms)), std::string::npos) << name << " " << mark;
                EXPECT_GT(count->validity_ms, 0) << name;
                EXPECT_GT(count->valid_until, count->start) << name;
                const sim::Candidate& c = *std::find_if(scenario.candidates.begin(), scenario.candidates.end(),
                                                        [&](const sim::Candidate& x) { return x.name == e.node; });
                const std::int64_t ttl = c.options.lease * scenario.tick_ms;
                EXPECT_EQ(count->drift_ms, sim::redlock_drift_ms(scenario.redlock.drift_factor, ttl));
            }
            EXPECT_GT(counts, 0u) << name;
        }
    }
}

// Every client state the cards and the Code panel name has words in both
// tables, and no two states share them.
TEST(RedlockWords, EveryClientStateHasItsOwnWords) {
    for (const Lang lang : {Lang::en, Lang::ko}) {
        const Strings s = test::string_tables(lang);
        std::set<std::string> seen;
        for (int k = 0; k <= static_cast<int>(RedlockClientState::crashed); ++k) {
            const std::string key = std::string("rlp.state.") + to_string(static_cast<RedlockClientState>(k));
            ASSERT_TRUE(s.has(lang, key)) << key;
            EXPECT_TRUE(seen.insert(s.tr(key)).second) << key << " shares its words";
        }
    }
}

// The drift is Math.round(driftFactor · ttl) + 2, halves up (redlock.js 415),
// and the validity is start + ttl − drift − now (416, 419).
TEST(RedlockWords, DriftAndValidityAreThePackages) {
    EXPECT_EQ(sim::redlock_drift_ms(0.01, 10000), 102);
    EXPECT_EQ(sim::redlock_drift_ms(0.01, 250), 5);  // 2.5 rounds up to 3
    EXPECT_EQ(sim::redlock_drift_ms(0.0, 10000), 2);
    EXPECT_EQ(sim::redlock_validity_ms(0.01, 10000, 50, 50), 9898);
    EXPECT_EQ(sim::redlock_validity_ms(0.01, 10000, 0, 9898), 0);
}

// The store card's heading names the end of the tick ("state at the end of
// tick 220, at 0:11.050"), so its TTL is read there too: in redlock-gc-pause
// client-2 sets its 10000 ms key on every store at tick 220 (50 ms ticks),
// which has 9950 ms left at the end of 220 and 9900 at the end of 221, not
// the full TTL the clock at the tick's start would give.
TEST(RedlockWords, StoreTtlIsReadAtTheEndOfTheTickTheCardNames) {
    const sim::Scenario scenario = test::load_preset("redlock-gc-pause");
    const sim::Trace trace = sim::simulate(scenario);
    ASSERT_EQ(trace.header.tick_ms, 50);
    for (const Tick t : {Tick{220}, Tick{221}}) {
        const RedlockFacts facts = redlock_facts_at(trace, t);
        ASSERT_EQ(facts.stores.size(), 5u);
        for (const RedlockStoreFact& st : facts.stores) {
            ASSERT_EQ(st.node, "client-2") << "tick " << t;
            ASSERT_EQ(st.set_at, 220);
            ASSERT_EQ(st.ttl_ms, 10000);
            EXPECT_EQ(redlock_ttl_left_ms(st, t, trace.header.tick_ms), 10000 - (t - 219) * 50) << "tick " << t;
        }
    }
}

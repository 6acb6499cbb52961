// The canonical state hash (docs/explorer.md, Merging states): two runs of
// different schedules of one scenario whose 128-bit hashes are equal at the
// same tick boundary continue identically (the same remaining events, byte
// for byte, and the same summary and verdict). A member left out of a
// hash_into that a later step reads makes some pair of schedules hash alike
// and then part: this test is what catches it, on every elector preset and
// on generated scenarios. It also pins down that the hash is deterministic
// and that Redlock and Redisson runs are not hashed.
#include "support/preset_loader.hpp"
#include "explore_report_checks.hpp"

#include <gtest/gtest.h>

#include <map>

#include "leasescope/engine/prng.hpp"
#include "leasescope/sim/explorer.hpp"
#include "leasescope/sim/generator.hpp"
#include "leasescope/sim/simulation.hpp"

namespace leasescope::sim {
namespace {

using test::preset_names;
using test::read_preset;
using Digest = StateHasher::Digest;

// With `numbered` false, every event's seq is written as 0: the rest of two
// runs that met on verdict_digest, which leaves the count of events out, is
// the same but for that numbering.
class Lines final : public EventSink {
public:
    explicit Lines(bool numbered) : numbered_(numbered) {}
    void on_event(const Event& e) override {
        if (numbered_) {
            lines.push_back(event_line(e));
        } else {
            Event unnumbered = e;
            unnumbered.seq = 0;
            lines.push_back(event_line(unnumbered));
        }
    }
    std::vector<std::string> lines;

private:
    bool numbered_;
};

// One run, stepped tick by tick, with the state's hash before every tick and
// how many events came before it.
struct SampledRun {
    std::vector<std::string> lines;
    std::vector<RunSummary> results;
    Violations violations;
    Tick end_tick = 0;
    struct Mark {
        Tick tick;
        Digest digest;
        std::size_t events;
    };
    std::vector<Mark> marks;
};

// `verdict`: sample the explorer's memo key (verdict_digest) instead.
SampledRun run_sampled(const Scenario& s, bool verdict) {
    SampledRun out;
    Simulation sim(s);
    ModelStore store(s.lock);
    Lines sink(!verdict);
    while (!sim.finished()) {
        const auto digest = verdict ? verdict_digest(sim, store) : state_digest(sim, store);
        EXPECT_TRUE(digest.has_value());
        if (!digest) break;
        out.marks.push_back({sim.next_tick(), *digest, sink.lines.size()});
        EXPECT_TRUE(sim.step(store, sink).ok());
    }
    out.lines = std::move(sink.lines);
    out.results = sim.results();
    out.violations = sim.violations();
    out.end_tick = sim.end_tick();
    return out;
}

// Single faults the explorer would add to `base`, at most `most` of them
// picked evenly (every kind but the replication ones).
std::vector<Fault> some_faults(const Scenario& base, std::size_t most) {
    ExploreOptions o;
    o.max_faults = 1;
    o.kinds = parse_fault_kinds("pause,partition,crash,failover,delay,clock_jump").value();
    o.max_pause = 6;
    o.max_delay = 2;
    o.max_clock_jump_ms = 2 * base.tick_ms;
    o.shuffles = 0;
    o.max_tick = 60;
    auto explorer = Explorer::create(base, o);
    if (!explorer.ok()) return {};
    const std::vector<Fault>& all = explorer.value().atoms();
    if (all.size() <= most) return all;
    std::vector<Fault> picked;
    for (std::size_t i = 0; i < most; ++i) picked.push_back(all[i * all.size() / most]);
    return picked;
}

// Runs the base with each fault in turn; wherever two runs hash alike at a
// tick, their rests must be the same. Returns the pairs of different
// schedules that hashed alike (the merges a search could make).
int check_equal_hashes_continue_alike(const Scenario& base, std::size_t faults, const std::string& label,
                                      bool verdict = false) {
    std::vector<SampledRun> runs;
    std::vector<Scenario> scenarios;
    for (const Fault& f : some_faults(base, faults)) {
        scenarios.push_back(base);
        scenarios.back().faults.push_back(f);
    }
    runs.reserve(scenarios.size());
    std::map<std::pair<Tick, Digest>, std::pair<std::size_t, std::size_t>> seen;  // -> (run, mark)
    int merged = 0;
    for (std::size_t r = 0; r < scenarios.size(); ++r) {
        runs.push_back(run_sampled(scenarios[r], verdict));
        const SampledRun& b = runs.back();
        for (std::size_t m = 0; m < b.marks.size(); ++m) {
            const auto [it, fresh] = seen.try_emplace({b.marks[m].tick, b.marks[m].digest}, r, m);
            if (fresh) continue;
            const SampledRun& a = runs[it->second.first];
            const std::size_t ea = a.marks[it->second.second].events;
            const std::size_t eb = b.marks[m].events;
            const std::string pair = label + ": fault " + std::to_string(it->second.first) + " and fault " +
                                     std::to_string(r) + " at tick " + std::to_string(b.marks[m].tick);
            ++merged;
            EXPECT_EQ(a.lines.size() - ea, b.lines.size() - eb) << pair;
            if (a.lines.size() - ea != b.lines.size() - eb) return merged;
            for (std::size_t i = 0; ea + i < a.lines.size(); ++i) {
                EXPECT_EQ(a.lines[ea + i], b.lines[eb + i]) << pair << ", event " << i << " after it";
                if (a.lines[ea + i] != b.lines[eb + i]) return merged;
            }
            EXPECT_EQ(a.results, b.results) << pair;
            EXPECT_EQ(a.violations, b.violations) << pair;
            EXPECT_EQ(a.end_tick, b.end_tick) << pair;
            if (::testing::Test::HasFailure()) return merged;
        }
    }
    return merged;
}

TEST(ExploreStateHash, EqualHashesContinueIdenticallyOnEveryPreset) {
    int merged = 0;
    for (const std::string& name : preset_names()) {
        auto parsed = parse_scenario(read_preset(name), name + ".json");
        ASSERT_TRUE(parsed.ok()) << name;
        if (parsed->is_redlock() || parsed->is_redisson()) continue;  // not hashed (own test)
        merged += check_equal_hashes_continue_alike(parsed.value(), 40, name);
        if (HasFailure()) return;
    }
    RecordProperty("pairs_hashed_alike", merged);
    EXPECT_GT(merged, 100);  // schedules do converge: the check is not empty
}

Scenario generated(std::uint64_t seed) {
    return test::generated_scenario(seed, 2 + static_cast<std::int64_t>(seed % 3), 200, seed % 2 == 0, seed % 4 == 0);
}

TEST(ExploreStateHash, EqualHashesContinueIdenticallyOnGeneratedScenarios) {
    int merged = 0;
    for (std::uint64_t seed = 1; seed <= 24; ++seed) {
        merged += check_equal_hashes_continue_alike(generated(seed), 30, "generated seed " + std::to_string(seed));
        if (HasFailure()) return;
    }
    RecordProperty("pairs_hashed_alike", merged);
    EXPECT_GT(merged, 100);
}

// The memo's key (verdict_digest, the count of events left out): runs that
// meet on it continue alike but for the events' numbering, with the same
// summary and violations, so the same verdict; and they meet more often.
TEST(ExploreStateHash, EqualVerdictKeysContinueAlikeButForNumbering) {
    int merged = 0;
    int merged_numbered = 0;
    for (const std::string& name : preset_names()) {
        auto parsed = parse_scenario(read_preset(name), name + ".json");
        ASSERT_TRUE(parsed.ok()) << name;
        if (parsed->is_redlock() || parsed->is_redisson()) continue;
        merged += check_equal_hashes_continue_alike(parsed.value(), 40, name, true);
        if (HasFailure()) return;
        merged_numbered += check_equal_hashes_continue_alike(parsed.value(), 40, name);
    }
    for (std::uint64_t seed = 1; seed <= 24; ++seed) {
        merged +=
            check_equal_hashes_continue_alike(generated(seed), 30, "generated seed " + std::to_string(seed), true);
        if (HasFailure()) return;
    }
    RecordProperty("pairs_keyed_alike", merged);
    EXPECT_GT(merged, merged_numbered);
}

// Runs practitioner.json twice, with a pause of `node` at a.first for
// a.second ticks and at b.first for b.second; expects their states to hash
// apart at tick `apart` and alike at tick `alike`, and the rest of the runs
// from there to be the same, event for event.
void expect_pauses_meet(NodeIndex node, std::pair<Tick, Tick> a, std::pair<Tick, Tick> b, Tick apart, Tick alike) {
    auto parsed =
        parse_scenario(test::read_all(test::source_dir + "/tests/data/explore/practitioner.json"), "practitioner.json");
    ASSERT_TRUE(parsed.ok());
    const auto paused = [&](std::pair<Tick, Tick> p) {
        Scenario s = parsed.value();
        s.faults.push_back(Fault{FaultKind::pause, node, p.first, p.second, {}, {}});
        return run_sampled(s, false);
    };
    const SampledRun ra = paused(a);
    const SampledRun rb = paused(b);
    const auto at = static_cast<std::size_t>(alike);
    ASSERT_GT(ra.marks.size(), at);
    ASSERT_GT(rb.marks.size(), at);
    ASSERT_EQ(ra.marks[at].tick, alike);
    EXPECT_NE(ra.marks[static_cast<std::size_t>(apart)].digest, rb.marks[static_cast<std::size_t>(apart)].digest);
    EXPECT_EQ(ra.marks[at].digest, rb.marks[at].digest);
    const std::size_t ea = ra.marks[at].events;
    const std::size_t eb = rb.marks[at].events;
    ASSERT_EQ(ra.lines.size() - ea, rb.lines.size() - eb);
    for (std::size_t i = 0; ea + i < ra.lines.size(); ++i)
        EXPECT_EQ(ra.lines[ea + i], rb.lines[eb + i]) << "event " << i << " after tick " << alike;
    EXPECT_EQ(ra.results, rb.results);
}

// When the last fault's end was does not count once it has passed: two
// pauses of the holder of the same length, inside one stretch in which it
// only makes progress (no renewal, no write), leave the same state behind
// once the later has ended (the subtrees of two such prefixes are shared,
// docs/explorer.md, Sharing subtrees).
TEST(ExploreStateHash, APassedFaultEndIsForgotten) { expect_pauses_meet(0, {250, 20}, {260, 20}, 275, 288); }

// The end of a pause that has begun is read by its node and tick alone: two
// pauses of worker-3 before its first run (tick 51), from 10 and from 20,
// both to 60, hash alike as soon as both have begun.
TEST(ExploreStateHash, ABegunPauseIsKnownByItsNodeAndEnd) { expect_pauses_meet(2, {10, 50}, {20, 40}, 20, 21); }

// The same state hashes alike in a copy and in a second run; a step changes it.
TEST(ExploreStateHash, IsDeterministicAndSeesAStep) {
    auto parsed = parse_scenario(read_preset("contention"), "contention.json");
    ASSERT_TRUE(parsed.ok());
    const Scenario& s = parsed.value();
    Simulation a(s);
    Simulation b(s);
    ModelStore sa(s.lock);
    ModelStore sb(s.lock);
    NullSink sink;
    for (int i = 0; i < 12; ++i) {
        const auto da = state_digest(a, sa);
        ASSERT_TRUE(da.has_value());
        EXPECT_EQ(da, state_digest(b, sb));
        const Simulation copy = a;
        const ModelStore copy_store = sa;
        EXPECT_EQ(da, state_digest(copy, copy_store));
        ASSERT_TRUE(a.step(sa, sink).ok());
        ASSERT_TRUE(b.step(sb, sink).ok());
        EXPECT_NE(da, state_digest(a, sa));  // the tick at least moved on
    }
}

// Redlock and Redisson runs keep their own clients' state: never hashed.
TEST(ExploreStateHash, RedlockAndRedissonAreNotHashed) {
    int refused = 0;
    for (const std::string& name : preset_names()) {
        auto parsed = parse_scenario(read_preset(name), name + ".json");
        ASSERT_TRUE(parsed.ok()) << name;
        if (!parsed->is_redlock() && !parsed->is_redisson()) continue;
        Simulation sim(parsed.value());
        ModelStore store(parsed->lock);
        EXPECT_FALSE(state_digest(sim, store).has_value()) << name;
        ++refused;
    }
    EXPECT_GT(refused, 0);
}

}  // namespace
}  // namespace leasescope::sim

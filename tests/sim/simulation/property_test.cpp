// Property tests: random scenarios (seeded, so a failure names its seed and
// replays) checked against the invariants that must hold in every history.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "leasescope/sim/simulation.hpp"

using namespace leasescope;
using namespace leasescope::sim;

namespace {

std::int64_t pick(SplitMix64& rng, std::int64_t lo, std::int64_t hi) {
    return lo + static_cast<std::int64_t>(rng.next() % static_cast<std::uint64_t>(hi - lo + 1));
}

// A random but valid scenario: candidates, runs, faults (non-overlapping per node and kind) and ops.
Scenario random_scenario(std::uint64_t seed, bool with_failover_all) {
    SplitMix64 rng(seed);
    Scenario s;
    s.name = "random";
    s.seed = seed;
    s.horizon = pick(rng, 20, 80);
    s.order = pick(rng, 0, 1) == 0 ? Order::declared : Order::shuffled;
    s.lock.capacity = static_cast<std::int32_t>(pick(rng, 1, 3));
    s.lock.fencing_start = pick(rng, 1, 5);
    // The group elector for more than one slot; either for one.
    s.elector = s.lock.capacity > 1 || pick(rng, 0, 1) == 1 ? ElectorKind::group : ElectorKind::lock;
    constexpr std::int64_t tick_ms_choices[] = {50, 10, 200};
    s.tick_ms = tick_ms_choices[pick(rng, 0, 2)];
    s.resource = static_cast<ResourceMode>(pick(rng, 0, 2));
    const int n = static_cast<int>(pick(rng, 1, 6));
    for (int i = 0; i < n; ++i) {
        Candidate c;
        c.name = std::string("n").append(std::to_string(i));  // (not "n" + …: a GCC 12 -O3 false warning)
        ElectorOptions& o = c.options;
        o.start = pick(rng, 0, 15);
        o.wait = pick(rng, 0, 6);
        o.lease = pick(rng, 2, 10);
        o.min_lease = pick(rng, 0, o.lease);
        o.auto_extend = pick(rng, 0, 2) == 0;
        // 0: the library's period in milliseconds.
        o.extend_every = pick(rng, 0, 2) == 0 ? 0 : pick(rng, 1, o.lease - 1);
        o.elector = s.elector;
        o.tick_ms = s.tick_ms;
        o.retry_every = pick(rng, 1, 3);
        o.action = pick(rng, 1, 14);
        o.writes.clear();
        for (Tick w = 1; w <= o.action; ++w)
            if (pick(rng, 0, 3) == 0) o.writes.push_back(w);
        o.fail_at = pick(rng, 0, 5) == 0 ? pick(rng, 1, o.action) : 0;
        o.hold_off = pick(rng, 0, 4) == 0 ? pick(rng, 1, 4) : 0;
        o.runs = static_cast<std::int32_t>(pick(rng, 1, 3));
        o.every = o.runs > 1 ? pick(rng, 1, 12) : 0;
        s.candidates.push_back(c);
    }
    const int faults = static_cast<int>(pick(rng, 0, 5));
    std::map<std::pair<NodeIndex, int>, Tick> busy_until;  // (node, kind) -> end of the last fault
    for (int i = 0; i < faults; ++i) {
        Fault f;
        f.kind = static_cast<FaultKind>(pick(rng, 0, 3));
        f.at = pick(rng, 0, 30);
        if (f.kind == FaultKind::failover) {
            f.lose = with_failover_all && pick(rng, 0, 1) == 1 ? FailoverLoss::all : FailoverLoss::leases;
        } else {
            f.node = static_cast<NodeIndex>(pick(rng, 0, n - 1));
        }
        if (f.kind == FaultKind::pause || f.kind == FaultKind::partition) {
            f.ticks = pick(rng, 1, 10);
            f.mode = static_cast<PartitionMode>(pick(rng, 0, 1));
            auto& until = busy_until[{f.node, static_cast<int>(f.kind)}];
            f.at = std::max(f.at, until);  // keep same-kind faults on one node apart
            until = f.at + f.ticks;
        }
        s.faults.push_back(f);
    }
    if (pick(rng, 0, 1) == 1) s.ops.push_back(Op{pick(rng, 0, 20), "auditor", OpKind::status, -1});
    if (pick(rng, 0, 1) == 1)
        s.ops.push_back(Op{pick(rng, 0, 20), "proxy", OpKind::validate, static_cast<NodeIndex>(pick(rng, 0, n - 1))});
    return s;
}

// Watches the trace as it is made and checks the invariants tick by tick.
class InvariantSink final : public EventSink {
public:
    void on_event(const Event& e) override {
        EXPECT_EQ(e.seq, expected_seq_++);
        if (last_) {
            EXPECT_LE(last_->tick, e.tick);
            if (last_->tick == e.tick) {
                EXPECT_LE(static_cast<int>(last_->phase), static_cast<int>(e.phase));
            }
        }
        last_ = e;
        if (e.op == EventOp::acquire && (e.outcome == Outcome::acquired || e.details.has(Detail::reply_lost))) {
            if (!e.details.has(Detail::fencing_regressed) && e.fencing) fencings.push_back(*e.fencing);
        }
        if (e.op == EventOp::overlap_begin) ++begins;
        if (e.op == EventOp::overlap_end) ++ends;
        if (e.op == EventOp::write && e.details.has(Detail::unsafe_write)) ++unsafe;
        if (e.op == EventOp::acquire && e.details.has(Detail::fencing_regressed)) ++regressed;
    }
    std::vector<Fencing> fencings;
    std::int64_t begins = 0, ends = 0, unsafe = 0, regressed = 0;

private:
    std::int64_t expected_seq_ = 0;
    std::optional<Event> last_;
};

}  // namespace

// Over many random scenarios: at most N valid slots, fencing strictly increasing unless
// flagged, check mode never accepts an older fence, the summary agrees with the events,
// every started run has exactly one result, and the trace reads back byte for byte.
TEST(Property, InvariantsHoldInRandomHistories) {
    for (std::uint64_t seed = 1; seed <= 400; ++seed) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        const Scenario s = random_scenario(seed, /*with_failover_all=*/true);
        Simulation sim(s);
        ModelStore store(s.lock);
        InvariantSink sink;
        std::int64_t starts = 0;
        while (!sim.finished()) {
            ASSERT_TRUE(sim.step(store, sink).ok());
            std::int32_t valid = 0;
            for (const auto& slot : store.slots()) valid += slot.valid_at(sim.end_tick()) ? 1 : 0;
            ASSERT_LE(valid, s.lock.capacity);
        }
        for (std::size_t i = 1; i < sink.fencings.size(); ++i) EXPECT_LT(sink.fencings[i - 1], sink.fencings[i]);
        EXPECT_EQ(sim.violations().unsafe_write, sink.unsafe);
        EXPECT_EQ(sim.violations().fencing_regressed, sink.regressed);
        EXPECT_EQ(sim.violations().overlap, sink.begins);
        EXPECT_LE(sink.begins - sink.ends, 1);
        if (s.resource == ResourceMode::check) {
            EXPECT_EQ(sink.unsafe, 0);
        }
        for (const auto& e : sim.electors()) starts += static_cast<std::int64_t>(e.run_count());
        EXPECT_EQ(static_cast<std::int64_t>(sim.results().size()), starts);
        EXPECT_LE(sim.end_tick(), s.horizon);

        const Trace t = simulate(s);
        auto back = parse_trace(trace_to_jsonl(t), "random.jsonl");
        ASSERT_TRUE(back.ok()) << back.error().to_string();
        EXPECT_EQ(trace_to_jsonl(back.value()), trace_to_jsonl(t));
        EXPECT_EQ(simulate(s).summary.trace_sha256, t.summary.trace_sha256);
    }
}

// Without failover lose=all no fencing number is ever issued twice, in any random history.
TEST(Property, FencingNeverRegressesWithoutLoseAll) {
    for (std::uint64_t seed = 1000; seed < 1300; ++seed) {
        const Trace t = simulate(random_scenario(seed, /*with_failover_all=*/false));
        EXPECT_EQ(t.summary.violations.fencing_regressed, 0) << "seed " << seed;
    }
}

// Every random scenario written out by scenario_to_json parses back to the same behaviour.
TEST(Property, ScenarioJsonRoundTrip) {
    for (std::uint64_t seed = 2000; seed < 2100; ++seed) {
        Scenario s = random_scenario(seed, true);
        for (auto& c : s.candidates) {
            c.extend_every_given = c.options.extend_every > 0;
            c.writes_given = true;
        }
        auto back = parse_scenario(scenario_to_json(s), "round.json");
        ASSERT_TRUE(back.ok()) << "seed " << seed << ": " << back.error().to_string();
        EXPECT_EQ(simulate(back.value()).summary.trace_sha256, simulate(s).summary.trace_sha256) << "seed " << seed;
    }
}

namespace {

// An oracle for the safety marks of model.md §9.6-§9.8, computed from the
// trace alone: each write's holder (its acquire event), per slot the latest
// acquisition whose holder had a write accepted, the numbers issued so far.
struct SafetyOracle {
    std::int64_t stale_after_successor = 0, holder_rejected = 0, fencing_duplicate = 0;
    void check(const Trace& t) {
        std::map<std::pair<std::string, std::int32_t>, std::pair<SlotIndex, std::int64_t>> holder;
        std::map<SlotIndex, std::int64_t> latest_writer;
        std::set<Fencing> issued;
        for (const Event& e : t.events) {
            if (e.op == EventOp::acquire && e.fencing) {
                const bool again = issued.count(*e.fencing) > 0;
                EXPECT_EQ(e.details.has(Detail::fencing_duplicate), again) << "seq " << e.seq;
                fencing_duplicate += again ? 1 : 0;
                issued.insert(*e.fencing);
                // The store's order (§9.6): by the tick it applied the acquire,
                // then the trace's (equal without time on the wire).
                if (e.outcome == Outcome::acquired)
                    holder[{e.node, e.run}] = {*e.slot, e.applied.value_or(e.tick) * (std::int64_t{1} << 32) + e.seq};
            }
            if (e.op != EventOp::write) continue;
            const bool rejected_holder = e.outcome == Outcome::rejected && !e.details.has(Detail::stale);
            EXPECT_EQ(e.details.has(Detail::holder_rejected), rejected_holder) << "seq " << e.seq;
            holder_rejected += rejected_holder ? 1 : 0;
            if (e.outcome != Outcome::accepted) continue;
            const auto [slot, order] = holder.at({e.node, e.run});
            auto it = latest_writer.find(slot);
            const bool lost = it != latest_writer.end() && it->second > order;
            EXPECT_EQ(e.details.has(Detail::stale_after_successor), lost) << "seq " << e.seq;
            stale_after_successor += lost ? 1 : 0;
            latest_writer[slot] = it == latest_writer.end() ? order : std::max(it->second, order);
        }
    }
};

}  // namespace

// The safety marks of model.md §9.6-§9.8 over random histories: each mark is
// where an oracle on the trace puts it, each counter equals its marks, and
// what §9.6-§9.8 say follows from the rules holds: validate never loses an
// update, only check rejects a valid holder, check loses an update only after
// a number was issued again, a duplicate number is a regressed one (and the
// reverse), and with one slot and no number issued again a lost update is
// exactly an unsafe write of mode off.
TEST(Property, SafetyMarksInRandomHistories) {
    std::int64_t seen_lost = 0, seen_rejected = 0, seen_duplicate = 0;
    for (std::uint64_t seed = 1; seed <= 1500; ++seed) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        const Scenario s = random_scenario(seed, /*with_failover_all=*/true);
        const Trace t = simulate(s);
        SafetyOracle oracle;
        oracle.check(t);
        const Violations& v = t.summary.violations;
        EXPECT_EQ(v.stale_after_successor, oracle.stale_after_successor);
        EXPECT_EQ(v.holder_rejected, oracle.holder_rejected);
        EXPECT_EQ(v.fencing_duplicate, oracle.fencing_duplicate);
        if (s.resource == ResourceMode::validate) {
            EXPECT_EQ(v.stale_after_successor, 0);
        }
        if (s.resource != ResourceMode::check) {
            EXPECT_EQ(v.holder_rejected, 0);
        }
        bool regressed = false;
        for (const Event& e : t.events) {
            if (e.op == EventOp::acquire) {
                EXPECT_EQ(e.details.has(Detail::fencing_duplicate), e.details.has(Detail::fencing_regressed));
                regressed = regressed || e.details.has(Detail::fencing_regressed);
            }
            if (e.op != EventOp::write) continue;
            if (s.resource == ResourceMode::check && e.details.has(Detail::stale_after_successor)) {
                EXPECT_TRUE(regressed) << "seq " << e.seq;
            }
            if (s.resource == ResourceMode::off && s.lock.capacity == 1 && v.fencing_regressed == 0) {
                EXPECT_EQ(e.details.has(Detail::stale_after_successor), e.details.has(Detail::unsafe_write));
            }
        }
        seen_lost += v.stale_after_successor;
        seen_rejected += v.holder_rejected;
        seen_duplicate += v.fencing_duplicate;
    }
    // The histories reach every mark, so the checks above are not empty.
    EXPECT_GT(seen_lost, 0);
    EXPECT_GT(seen_rejected, 0);
    EXPECT_GT(seen_duplicate, 0);
}

// Properties of replication (docs/model.md §17) over generated scenarios
// (GeneratorOptions::replication: 1-2 replicas, cuts of their links, a
// failover promoting a replica with lag 0-2, sometimes min_replicas_to_write
// and WAIT), besides the generator's pauses, partitions and crash:
// (a) a failover with lag 0, no cut of the promoted server's link and no
//     split brain never issues a number twice (§17.3 rule 1: the replica
//     holds everything);
// (b) no server's counter ever exceeds the highest counter a primary has
//     held so far (a replica only copies, §17.1 rule 4), at every tick;
// (c) the same scenario twice gives byte-identical traces.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "../../support/trace_test_helpers.hpp"
#include "leasescope/sim/generator.hpp"
#include "leasescope/sim/simulation.hpp"

namespace {

using namespace leasescope;
using namespace leasescope::sim;

constexpr std::uint64_t replicated_seeds = 240;

GeneratorOptions replicated_options(std::uint64_t seed) {
    GeneratorOptions o;
    o.candidates = static_cast<std::int64_t>(3 + seed % 5);
    o.horizon = 200;
    o.seed = seed;
    o.shuffled = seed % 2 == 1;
    o.replication = true;
    return o;
}

// The generated scenario with its replication, read from the generator's JSON.
Scenario replicated_generated(std::uint64_t seed) {
    return trace_test::parse(generate_scenario(replicated_options(seed)));
}

const Fault& promotion_of(const Scenario& s) {
    const auto it = std::find_if(s.faults.begin(), s.faults.end(), [](const Fault& f) { return f.promotes(); });
    EXPECT_NE(it, s.faults.end());
    return *it;
}

bool promoted_link_cut(const Scenario& s, const Fault& promotion) {
    return std::any_of(s.faults.begin(), s.faults.end(), [&](const Fault& f) {
        return f.kind == FaultKind::replica_link && f.server == promotion.server && f.at < promotion.at;
    });
}

// The generator's replication is its own draw: off, the bytes are as
// before; on, the same seed gives the same servers and faults, and every
// scenario has replicas, a promoting failover with lag 0-2 and no other.
TEST(ReplicationProperties, TheGeneratorDrawsReplicationOnItsOwn) {
    GeneratorOptions o = replicated_options(5);
    o.replication = false;
    const std::string without = generate_scenario(o);
    EXPECT_EQ(without.find("replica"), std::string::npos);
    EXPECT_NE(without.find(R"("lose": "leases")"), std::string::npos);
    o.replication = true;
    const std::string with = generate_scenario(o);
    EXPECT_EQ(with, generate_scenario(o));
    EXPECT_NE(with.find(R"("store": { "replicas": )"), std::string::npos);
    EXPECT_EQ(with.find(R"("lose")"), std::string::npos);
    EXPECT_NE(with.find(R"("promote": )"), std::string::npos);
    int lags[3] = {0, 0, 0};
    int min_write = 0, waits = 0, cuts = 0;
    for (std::uint64_t seed = 1; seed <= replicated_seeds; ++seed) {
        const GeneratedReplication r = generated_replication(replicated_options(seed));
        ASSERT_GE(r.replicas, 1);
        ASSERT_LE(r.replicas, 2);
        const auto promotions =
            std::count_if(r.faults.begin(), r.faults.end(), [](const Fault& f) { return f.promotes(); });
        ASSERT_EQ(promotions, 1);
        const Fault& p = r.faults.back();
        ASSERT_GE(p.lag, 0);
        ASSERT_LE(p.lag, 2);
        ++lags[p.lag];
        min_write += r.min_replicas_to_write > 0;
        waits += !r.waits.empty();
        cuts += static_cast<int>(r.faults.size()) - 1;
    }
    EXPECT_GT(lags[0], 0);
    EXPECT_GT(lags[1] + lags[2], 0);
    EXPECT_GT(min_write, 0);
    EXPECT_GT(waits, 0);
    EXPECT_GT(cuts, 0);
}

// What the JSON says is what generated_replication() drew: the servers, the
// nodes' WAIT and the faults, after the others (the failover that loses the
// leases gives way to the promoting one).
TEST(ReplicationProperties, TheJsonSaysWhatWasDrawn) {
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
        const GeneratorOptions o = replicated_options(seed);
        const Scenario s = replicated_generated(seed);
        const GeneratedReplication r = generated_replication(o);
        EXPECT_EQ(s.lock.replication.replicas, r.replicas);
        EXPECT_EQ(s.lock.replication.min_replicas_to_write, r.min_replicas_to_write);
        auto wait = r.waits.begin();
        for (std::size_t i = 0; i < s.candidates.size(); ++i) {
            const bool drawn = wait != r.waits.end() && wait->first == static_cast<std::int64_t>(i);
            EXPECT_EQ(s.candidates[i].options.wait_replicas, drawn ? wait->second : 0) << "seed " << seed;
            if (drawn) ++wait;
        }
        ASSERT_GE(s.faults.size(), r.faults.size());
        const std::size_t first = s.faults.size() - r.faults.size();
        for (std::size_t k = 0; k < r.faults.size(); ++k) {
            const Fault& a = s.faults[first + k];
            const Fault& b = r.faults[k];
            EXPECT_EQ(a.kind, b.kind);
            EXPECT_EQ(a.server, b.server);
            EXPECT_EQ(a.at, b.at);
            EXPECT_EQ(a.ticks, b.ticks);
            EXPECT_EQ(a.lag, b.lag);
        }
        for (std::size_t k = 0; k < first; ++k) EXPECT_NE(s.faults[k].kind, FaultKind::failover) << "seed " << seed;
    }
}

// (a) and, to show the check can fail, the other side: a lag above 0 or a
// cut promoted server does issue numbers twice in some of them.
TEST(ReplicationProperties, APromotionWithEverythingNeverIssuesANumberTwice) {
    int clean = 0, lossy = 0, lossy_duplicates = 0;
    for (std::uint64_t seed = 1; seed <= replicated_seeds; ++seed) {
        const Scenario s = replicated_generated(seed);
        const Fault& p = promotion_of(s);
        const Trace t = simulate(s);
        if (p.lag == 0 && !promoted_link_cut(s, p) && !p.old_primary) {
            ++clean;
            EXPECT_EQ(t.summary.violations.fencing_duplicate, 0) << "seed " << seed;
            EXPECT_EQ(t.summary.violations.fencing_regressed, 0) << "seed " << seed;
        } else {
            ++lossy;
            lossy_duplicates += t.summary.violations.fencing_duplicate > 0;
        }
    }
    std::printf("replication (a): %d scenarios promoting with everything, %d lagging or cut (%d of them duplicate)\n",
                clean, lossy, lossy_duplicates);
    EXPECT_GT(clean, 10);
    EXPECT_GT(lossy_duplicates, 0);
}

// (b) at every tick, from Snapshot.servers.
TEST(ReplicationProperties, NoServerCounterExceedsWhatAPrimaryHeld) {
    std::int64_t ticks_checked = 0, replica_counters = 0;
    for (std::uint64_t seed = 1; seed <= replicated_seeds; ++seed) {
        const Scenario s = replicated_generated(seed);
        Simulation sim(s);
        ModelStore store(s.lock);
        NullSink sink;
        Fencing highest = s.lock.fencing_start - 1;
        while (!sim.finished()) {
            const Tick t = sim.next_tick();
            ASSERT_TRUE(sim.step(store, sink).ok());
            const Snapshot snap = take_snapshot(sim, store, t);
            ASSERT_EQ(snap.servers.size(), static_cast<std::size_t>(s.lock.replication.replicas + 1));
            for (const ServerSnapshot& server : snap.servers) {
                if (server.role != ServerRole::replica) highest = std::max(highest, server.counter);
            }
            for (const ServerSnapshot& server : snap.servers) {
                EXPECT_LE(server.counter, highest) << "seed " << seed << " tick " << t << " server " << server.server;
                if (server.role == ServerRole::replica && server.counter > s.lock.fencing_start - 1) ++replica_counters;
            }
            ++ticks_checked;
        }
    }
    std::printf("replication (b): %lld ticks checked, %lld replica counters above the start\n",
                static_cast<long long>(ticks_checked), static_cast<long long>(replica_counters));
    EXPECT_GT(replica_counters, 0);
}

// (c)
TEST(ReplicationProperties, TheSameScenarioTwiceGivesTheSameBytes) {
    for (std::uint64_t seed = 1; seed <= replicated_seeds; seed += 3) {
        const Scenario s = replicated_generated(seed);
        const std::string first = trace_test::trace_bytes(simulate(s));
        EXPECT_EQ(first, trace_test::trace_bytes(simulate(s))) << "seed " << seed;
        EXPECT_NE(first.find(R"("format":"leasescope-trace/3")"), std::string::npos);
    }
}

}  // namespace

// The live driver on a real primary and two real replicas (model.md §13.8):
// generated replication scenarios (link cuts, a promotion with lag 0-2,
// split brain, WAIT, min-replicas-to-write) run live identical to their
// simulation at tick 100 ms, and leave the topology as they found it.
#include <gtest/gtest.h>

#include <cstdio>
#include <sstream>
#include <vector>

#include "leasescope/engine/prng.hpp"
#include "leasescope/live/live_driver.hpp"
#include "leasescope/redis/replication_admin.hpp"
#include "leasescope/sim/simulation.hpp"
#include "support/live_test_support.hpp"

using namespace leasescope;

namespace {

// Two or three candidates; a cut of a replica's link in ticks 1-9; a
// failover at 12-14 promoting either replica with lag 0-2, split brain for
// one node in a third of them (then no min-replicas-to-write); after it, a
// cut of the old primary's link (a replica again) in half; WAIT 1 or 2 on
// some candidates; min_replicas_to_write 2 in a third (so a cut refuses).
std::string replication_scenario(std::uint64_t seed) {
    SplitMix64 rng(seed);
    const auto below = [&](std::uint64_t n) { return static_cast<int>(rng.next() % n); };
    const int n = 2 + below(2);
    const bool split = below(3) == 0;
    const bool min_replicas = !split && below(3) == 0;
    const int failover_at = 12 + below(3);
    const int promote = 1 + below(2);
    const int lag = below(3);
    const int cut_at = 1 + below(5);
    const int cut_ticks = 1 + below(4);
    const int cut_replica = 1 + below(2);
    std::ostringstream j;
    j << "{\"name\":\"repl-" << seed << "\",\"tick_ms\":100,\"horizon\":30,\"seed\":" << seed
      << ",\"lock\":{\"name\":\"repl-" << seed << "\",\"capacity\":1},\"resource\":{\"mode\":\"check\"}"
      << ",\"store\":{\"replicas\":2" << (min_replicas ? ",\"min_replicas_to_write\":2" : "") << "}"
      << ",\"defaults\":{\"wait\":" << 2 + below(4) << ",\"lease\":" << 3 + below(5) << ",\"action\":" << 2 + below(5)
      << "},\"candidates\":[";
    for (int i = 0; i < n; ++i) {
        const int start = below(16);
        const int wait_replicas = below(3);
        j << (i ? "," : "") << "{\"name\":\"n" << i << "\",\"start\":" << start << ",\"writes\":[1]";
        if (wait_replicas > 0) j << ",\"wait_replicas\":" << wait_replicas << ",\"wait_timeout\":" << 1 + below(3);
        j << "}";
    }
    j << "],\"faults\":[{\"kind\":\"replica_link\",\"replica\":" << cut_replica << ",\"at\":" << cut_at
      << ",\"ticks\":" << cut_ticks << "},{\"kind\":\"failover\",\"at\":" << failover_at << ",\"promote\":" << promote
      << ",\"lag\":" << lag;
    if (split) j << ",\"old_primary\":{\"reachable_by\":[\"n0\"],\"until\":" << failover_at + 2 + below(4) << "}";
    j << "}";
    if (!split && below(2) == 0) {
        j << ",{\"kind\":\"replica_link\",\"replica\":0,\"at\":" << failover_at + 1 + below(3)
          << ",\"ticks\":" << 1 + below(3) << "}";
    }
    j << "]}";
    return j.str();
}

}  // namespace

TEST(LiveReplication, GeneratedScenariosRunIdenticalToTheSimulation) {
    const std::string primary = live_test::redis_url_or_fail();
    const std::vector<std::string> replicas = live_test::replica_url_texts_or_fail();
    ASSERT_FALSE(primary.empty());
    ASSERT_EQ(replicas.size(), 2u);
    const auto count = static_cast<std::uint64_t>(live_test::env_int("LEASESCOPE_LIVE_REPLICATION_SCENARIOS", 8));
    std::int64_t cuts = 0, waits = 0, refusals = 0, duplicates = 0;
    for (std::uint64_t seed = 1; seed <= count; ++seed) {
        const std::string text = replication_scenario(seed);
        SCOPED_TRACE(text);
        auto parsed = sim::parse_scenario(text, "replication");
        ASSERT_TRUE(parsed.ok()) << parsed.error().to_string();
        const sim::Trace simulated = sim::simulate(parsed.value());
        for (const auto& e : simulated.events) {
            cuts += e.op == sim::EventOp::link_cut;
            waits += e.op == sim::EventOp::wait;
            refusals += e.details.has(sim::Detail::no_replicas);
        }
        duplicates += simulated.summary.violations.fencing_duplicate;
        live::LiveOptions options;
        options.redis_url = primary;
        options.replica_urls = replicas;
        options.allow_failover = true;
        bool compared = false;
        for (int attempt = 0; attempt < 5 && !compared; ++attempt) {
            const live::LiveReport report = live::run_live(parsed.value(), options);
            ASSERT_FALSE(report.input_error) << *report.input_error;
            ASSERT_FALSE(report.backend_error) << report.backend_error->message;
            if (!report.timing_faults.empty()) {
                std::printf("seed %llu: timing fault at tick %lld (+%.1f ms); running again\n",
                            static_cast<unsigned long long>(seed),
                            static_cast<long long>(report.timing_faults.front().tick),
                            report.timing_faults.front().late_ms);
                continue;
            }
            const auto comparison = live::compare_with_model(parsed.value(), report);
            EXPECT_FALSE(comparison.divergence) << comparison.divergence->description;
            compared = true;
        }
        EXPECT_TRUE(compared) << "five live runs in a row could not keep time";
    }
    std::printf("generated: %lld link cuts, %lld waits, %lld no_replicas refusals, %lld duplicate numbers\n",
                static_cast<long long>(cuts), static_cast<long long>(waits), static_cast<long long>(refusals),
                static_cast<long long>(duplicates));
    EXPECT_GT(cuts, 0);
    EXPECT_GT(waits, 0);
    EXPECT_GT(refusals, 0);
}

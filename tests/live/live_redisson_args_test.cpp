// Redisson live's bad input (docs/model.md rule 21.9.5), decided before any
// connection: a drift of the store's clock (§13.6), a --replica, a second
// --redis; the faults live mode emulates (pause, crash, partition, a
// client's clock jump, a jump of the store's clock) are not refused. And the
// scripts it sends are the bytes of a real capture of Redisson.
#include <gtest/gtest.h>

#include <string>

#include "leasescope/live/live_driver.hpp"
#include "leasescope/redis/redisson_scripts.hpp"
#include "leasescope/sim/import.hpp"
#include "support/trace_test_helpers.hpp"

namespace {

using namespace leasescope;

sim::Scenario redisson_scenario(const std::string& extra = "") {
    return trace_test::parse(
        R"({"name": "rs", "tick_ms": 10, "client": "redisson",
            "defaults": {"wait": 5, "lease": 5, "action": 2}, "candidates": [{"name": "a"}, {"name": "b"}])" +
        extra + "}");
}

// Nobody listens on port 1: a run that gets past the refusals fails to connect.
live::LiveReport run_on_port_1(const sim::Scenario& s, live::LiveOptions options = {}) {
    options.redis_url = "redis://127.0.0.1:1";
    return live::run_live(s, options);
}

TEST(RedissonLiveArgs, TheStoresDriftIsRefusedAndItsJumpsAreNot) {
    const sim::Scenario jumps = redisson_scenario(
        R"(, "faults": [{"kind": "pause", "node": "a", "at": 1, "ticks": 2},
                        {"kind": "clock_jump", "clock": "store", "at": 3, "ms": 505},
                        {"kind": "clock_jump", "clock": "store", "at": 4, "ms": -7}])");
    EXPECT_EQ(live::simulated_only(jumps), std::nullopt);  // exact for any jumps (§13.6 rule 3)
    const live::LiveReport jumped = run_on_port_1(jumps);
    EXPECT_FALSE(jumped.input_error.has_value()) << *jumped.input_error;
    EXPECT_TRUE(jumped.backend_error.has_value());  // nobody listens on port 1
    const live::LiveReport drifting = run_on_port_1(redisson_scenario(R"(, "store": {"clock": {"drift_ppm": 100}})"));
    ASSERT_TRUE(drifting.input_error.has_value());
    EXPECT_NE(drifting.input_error->find("store.clock.drift_ppm"), std::string::npos) << *drifting.input_error;
}

TEST(RedissonLiveArgs, OneServerAndNoReplica) {
    const sim::Scenario s = redisson_scenario();
    live::LiveOptions replica;
    replica.replica_urls = {"redis://127.0.0.1:2"};
    const live::LiveReport with_replica = run_on_port_1(s, replica);
    ASSERT_TRUE(with_replica.input_error.has_value());
    EXPECT_NE(with_replica.input_error->find("a Redisson scenario runs on one server"), std::string::npos)
        << *with_replica.input_error;
    live::LiveOptions two;
    two.store_urls = {"redis://127.0.0.1:1", "redis://127.0.0.1:2"};
    const live::LiveReport with_two = run_on_port_1(s, two);
    ASSERT_TRUE(with_two.input_error.has_value());
    EXPECT_NE(with_two.input_error->find("the scenario has one store"), std::string::npos) << *with_two.input_error;
}

TEST(RedissonLiveArgs, EmulatedFaultsAreNotRefused) {
    const sim::Scenario s = redisson_scenario(
        R"(, "faults": [{"kind": "pause", "node": "a", "at": 1, "ticks": 2}, {"kind": "crash", "node": "b", "at": 9},
                        {"kind": "partition", "node": "a", "mode": "drop_replies", "at": 4, "ticks": 1},
                        {"kind": "clock_jump", "clock": "a", "at": 3, "ms": 500}])");
    EXPECT_EQ(live::simulated_only(s), std::nullopt);
    const live::LiveReport report = run_on_port_1(s);
    EXPECT_FALSE(report.input_error.has_value()) << *report.input_error;
    EXPECT_TRUE(report.backend_error.has_value());
    const std::vector<std::string> lines = live::emulated_faults(s);
    ASSERT_EQ(lines.size(), 5u);
    EXPECT_NE(lines[0].find("Redisson 3.31.0's lock, renew and unlock scripts"), std::string::npos) << lines[0];
}

// Rule 21.9.5: the three scripts live mode sends are, byte for byte, those
// of the real capture tests/data/import/redisson.monitor (Redisson's own
// EVALs): their SHA-1, which EVALSHA names, is the one of the captured bodies.
TEST(RedissonLiveArgs, TheScriptsAreRedissonsBytes) {
    EXPECT_EQ(sim::import::sha1_hex(redis::redisson_lock_script), "149c5a8bf18676fd99e9e6e24923bd64d9b62f94");
    EXPECT_EQ(sim::import::sha1_hex(redis::redisson_renew_script), "8e19a1ddbdee9138df9f32a480c57addab4353d1");
    EXPECT_EQ(sim::import::sha1_hex(redis::redisson_unlock_script), "6866459238a13a701d42f4971f12d9f3a50e2442");
}

}  // namespace

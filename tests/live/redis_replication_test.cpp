// The Redis store on a real primary and two real replicas (model.md §13.8):
// a link cut and restored for real, read back with INFO, and the figures
// (how long each step takes) printed for docs/live-mode.md. test.sh starts
// the replicas and exports LEASESCOPE_REPLICA_URLS; without it these fail.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <sstream>

#include "leasescope/redis/redis_store.hpp"
#include "leasescope/redis/replication_admin.hpp"
#include "support/live_test_support.hpp"

using namespace leasescope;
using namespace leasescope::redis;

namespace {

std::vector<RedisUrl> replica_store_urls_or_fail() {
    std::vector<RedisUrl> out;
    for (const std::string& w : live_test::replica_url_texts_or_fail()) {
        auto url = parse_redis_url(w);
        if (!url.ok()) {
            ADD_FAILURE() << url.error();
            return {};
        }
        out.push_back(url.value());
    }
    return out;
}

// A store on the test primary with its two replicas attached.
std::unique_ptr<RedisStore> replicated_store_or_fail(const std::string& name) {
    const RedisUrl primary = live_test::parsed_url_or_fail();
    const std::vector<RedisUrl> replicas = replica_store_urls_or_fail();
    if (primary.host.empty() || replicas.size() != 2) {
        ADD_FAILURE() << "need a primary and two replicas";
        return nullptr;
    }
    LockConfig lock;
    lock.name = name + "-" + std::to_string(::getpid());
    lock.replication.replicas = 2;
    auto store = RedisStore::connect(primary, lock, 50);
    if (!store.ok()) {
        ADD_FAILURE() << store.error().message;
        return nullptr;
    }
    for (const RedisUrl& r : replicas) {
        auto c = RedisConnection::open(r);
        if (!c.ok()) {
            ADD_FAILURE() << c.error().message;
            return nullptr;
        }
        store.value()->add_replica(std::move(c.value()), r);
    }
    EXPECT_TRUE(store.value()->reset_namespace().ok());
    return std::move(store.value());
}

double ms_since(std::chrono::steady_clock::time_point begin) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin).count();
}

ReplicationInfo info_of(RedisStore& store, std::int32_t s) {
    auto info = replication_info(store.server(s));
    EXPECT_TRUE(info.ok()) << (info.ok() ? "" : info.error().message);
    return info.ok() ? info.value() : ReplicationInfo{};
}

}  // namespace

// A cut replica is a primary of its own (REPLICAOF NO ONE) that keeps what
// it had; a restored one is a linked replica again and holds the primary's
// state; the primary counts it as synced only while linked.
TEST(RedisReplication, CutAndRestoreALinkForReal) {
    auto store = replicated_store_or_fail("repl-cut");
    ASSERT_TRUE(store);
    ASSERT_TRUE(info_of(*store, 1).link_up);
    auto first = store->acquire(0, "node-a", "token-a", 100);
    ASSERT_TRUE(first.ok());
    auto begin = std::chrono::steady_clock::now();
    ASSERT_TRUE(store->cut_link(1, 1).ok());
    const double cut_ms = ms_since(begin);
    EXPECT_EQ(info_of(*store, 1).role, "master");
    auto synced = store->synced_replicas(1);
    ASSERT_TRUE(synced.ok());
    EXPECT_EQ(synced.value(), 1);
    // What the cut replica holds: node-a's record (fencing 1), not later writes.
    ASSERT_TRUE(store->release(2, "token-a", 0, 0).ok());
    auto held = store->server(1).command({"HGET", store->keys().slot(0), "fencing"});
    ASSERT_TRUE(held.ok());
    EXPECT_EQ(std::string(held.value()->str, held.value()->len), "1");
    begin = std::chrono::steady_clock::now();
    ASSERT_TRUE(store->restore_link(3, 1).ok());
    const double restore_ms = ms_since(begin);
    const ReplicationInfo after = info_of(*store, 1);
    EXPECT_EQ(after.role, "slave");
    EXPECT_TRUE(after.link_up);
    EXPECT_TRUE(is_replica_of(after, store->server_url(0)));
    // WAIT after a write: both linked replicas acknowledge it, long before
    // the timeout (the slowest of five is the figure).
    double wait_ms = 0;
    for (int i = 0; i < 5; ++i) {
        ASSERT_TRUE(store->acquire(4, "node-b", "token-b", 100).ok());
        begin = std::chrono::steady_clock::now();
        synced = store->synced_replicas(4);
        wait_ms = std::max(wait_ms, ms_since(begin));
        ASSERT_TRUE(synced.ok());
        EXPECT_EQ(synced.value(), 2);
        ASSERT_TRUE(store->release(4, "token-b", 0, 0).ok());
    }
    auto gone = store->server(1).command({"EXISTS", store->keys().slot(0)});
    ASSERT_TRUE(gone.ok());
    EXPECT_EQ(gone.value()->integer, 0);  // resynchronised: the release reached it
    std::printf(
        "figures: cut_link %.1f ms, restore_link %.1f ms, synced_replicas (ROLE + WAIT 2 100, slowest of 5) %.1f ms\n",
        cut_ms, restore_ms, wait_ms);
    EXPECT_TRUE(store->reset_topology().ok());
    EXPECT_TRUE(store->remove_namespace().ok());
}

// A promotion moves the node calls to the promoted server, which keeps
// what it held; the old primary follows it; reset_topology puts it all back.
TEST(RedisReplication, PromoteMovesTheCallsAndResetTopologyPutsThemBack) {
    auto store = replicated_store_or_fail("repl-promote");
    ASSERT_TRUE(store);
    ASSERT_TRUE(store->acquire(0, "node-a", "token-a", 100).ok());
    const auto begin = std::chrono::steady_clock::now();
    auto counter = store->promote(1, 2, nullptr);
    const double promote_ms = ms_since(begin);
    ASSERT_TRUE(counter.ok()) << counter.error().message;
    EXPECT_EQ(counter.value(), 1);
    EXPECT_EQ(info_of(*store, 2).role, "master");
    EXPECT_TRUE(is_replica_of(info_of(*store, 0), store->server_url(2)));
    EXPECT_TRUE(is_replica_of(info_of(*store, 1), store->server_url(2)));
    auto next = store->acquire(2, "node-b", "token-b", 100);  // busy: the new primary holds node-a's record
    ASSERT_TRUE(next.ok()) << next.error().message;
    EXPECT_FALSE(next.value().acquired);
    std::printf("figures: promote (2 servers re-attached) %.1f ms\n", promote_ms);
    ASSERT_TRUE(store->remove_namespace().ok());
    ASSERT_TRUE(store->reset_topology().ok());
    EXPECT_EQ(info_of(*store, 0).role, "master");
    EXPECT_TRUE(is_replica_of(info_of(*store, 1), store->server_url(0)));
    EXPECT_TRUE(is_replica_of(info_of(*store, 2), store->server_url(0)));
    EXPECT_TRUE(info_of(*store, 2).link_up);
    EXPECT_TRUE(store->remove_namespace().ok());
}

// min-replicas-to-write refuses a write as an error reply marked no_replicas
// (model.md §17.4 rule 3), not as a dead connection.
TEST(RedisReplication, NoReplicasReplyIsMarked) {
    auto store = replicated_store_or_fail("repl-norep");
    ASSERT_TRUE(store);
    ASSERT_TRUE(config_set(store->server(0), "min-replicas-max-lag", "10").ok());
    ASSERT_TRUE(config_set(store->server(0), "min-replicas-to-write", "3").ok());
    auto refused = store->acquire(0, "node-a", "token-a", 10);
    EXPECT_TRUE(config_set(store->server(0), "min-replicas-to-write", "0").ok());
    ASSERT_FALSE(refused.ok());
    EXPECT_TRUE(refused.error().no_replicas) << refused.error().message;
    EXPECT_FALSE(refused.error().connection);
    EXPECT_NE(refused.error().message.find("NOREPLICAS"), std::string::npos);
    EXPECT_TRUE(store->remove_namespace().ok());
}

// The Redis store's edges: the tick/millisecond rule, key ownership, errors
// kept apart (dead connection versus error reply), the NOSCRIPT fallback, and
// that it only ever touches its own namespace.
#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <thread>

#include "leasescope/redis/redis_store.hpp"
#include "support/live_test_support.hpp"

using namespace leasescope;
using namespace leasescope::redis;
using leasescope::live_test::parsed_url_or_fail;

namespace {

LockConfig lock_named(const std::string& name, std::int32_t capacity = 1, Fencing fencing_start = 1) {
    LockConfig lock;
    lock.name = name + "-" + std::to_string(::getpid());
    lock.capacity = capacity;
    lock.fencing_start = fencing_start;
    return lock;
}

std::unique_ptr<RedisStore> connect_or_fail(const LockConfig& lock, std::int64_t tick_ms) {
    const RedisUrl url = parsed_url_or_fail();
    if (url.host.empty()) return nullptr;
    auto store = RedisStore::connect(url, lock, tick_ms);
    if (!store.ok()) {
        ADD_FAILURE() << store.error().message;
        return nullptr;
    }
    EXPECT_TRUE(store.value()->reset_namespace().ok());
    return std::move(store.value());
}

}  // namespace

TEST(RedisTime, TtlIsTicksMinusHalfAndRemainingRoundsUp) {
    EXPECT_EQ(ttl_ms_for(1, 50), 25);
    EXPECT_EQ(ttl_ms_for(6, 50), 275);
    EXPECT_EQ(ttl_ms_for(1, 1), 1);
    EXPECT_EQ(ttl_ms_for(3, 15), 38);
    // A record with (k - 1/2) ticks left, read half a tick later or earlier
    // than ideal, still reads as k.
    EXPECT_EQ(ticks_left(275, 50), 6);
    EXPECT_EQ(ticks_left(251, 50), 6);
    EXPECT_EQ(ticks_left(250, 50), 5);
    EXPECT_EQ(ticks_left(201, 50), 5);
    EXPECT_EQ(ticks_left(0, 50), 1);
}

// The pacer's side of the same rule (live_timing.hpp): commands at the exact
// middle of the tick, done by its end less the 2 ms margin.
TEST(RedisTime, TickMiddleAndDeadline) {
    EXPECT_EQ(timing_margin_ms, 2);
    EXPECT_EQ(tick_mid_us(0, 50), 25'000);
    EXPECT_EQ(tick_mid_us(3, 50), 175'000);
    EXPECT_EQ(tick_mid_us(1, 15), 22'500);  // an odd tick_ms keeps its half millisecond
    EXPECT_EQ(tick_deadline_ms(0, 50), 48);
    EXPECT_EQ(tick_deadline_ms(3, 15), 58);
    // Together with the TTLs, and allowing Redis its 1 ms of truncation: a
    // record written in tick s with a lease of L ticks (at the latest, just
    // before s's deadline) is gone before tick s + L's middle, and (at the
    // earliest, at s's middle) still there until tick s + L - 1's deadline.
    constexpr std::int64_t redis_slack_ms = 1;
    for (std::int64_t tick_ms : {10, 15, 50, 1000}) {
        for (Tick s : {0, 1, 7}) {
            for (Tick lease : {1, 2, 6}) {
                const std::int64_t latest_gone_ms =
                    tick_deadline_ms(s, tick_ms) + ttl_ms_for(lease, tick_ms) + redis_slack_ms;
                EXPECT_LT(latest_gone_ms * 1000, tick_mid_us(s + lease, tick_ms));
                const std::int64_t earliest_gone_ms =
                    tick_mid_us(s, tick_ms) / 1000 + ttl_ms_for(lease, tick_ms) - redis_slack_ms;
                EXPECT_GE(earliest_gone_ms, tick_deadline_ms(s + lease - 1, tick_ms));
            }
        }
    }
}

TEST(RedisKeys, OwnsExactlyItsOwnKeys) {
    const KeyLayout keys("orders", 2);
    EXPECT_EQ(keys.slot(1), "leasescope:{orders}:slot:1");
    EXPECT_EQ(keys.counter(), "leasescope:{orders}:fencing");
    EXPECT_EQ(keys.holdoff(), "leasescope:{orders}:holdoff");
    EXPECT_TRUE(keys.owns("leasescope:{orders}:slot:0"));
    EXPECT_TRUE(keys.owns("leasescope:{orders}:slot:17"));  // left by a larger capacity
    EXPECT_TRUE(keys.owns("leasescope:{orders}:fencing"));
    EXPECT_TRUE(keys.owns("leasescope:{orders}:holdoff"));
    EXPECT_FALSE(keys.owns("leasescope:{orders}:slot:"));
    EXPECT_FALSE(keys.owns("leasescope:{orders}:slot:1:x"));
    EXPECT_FALSE(keys.owns("leasescope:{orders}:fencing2"));
    EXPECT_FALSE(keys.owns("leasescope:{orders-2}:slot:0"));
    EXPECT_FALSE(keys.owns("leasescope:{order}:slot:0"));
    EXPECT_FALSE(keys.owns("leasescope:{orders}x"));
    EXPECT_FALSE(keys.owns("orders"));
}

TEST(RedisStoreErrors, UnreachableServerIsAConnectionErrorWithoutHanging) {
    auto url = parse_redis_url("redis://127.0.0.1:1");
    ASSERT_TRUE(url.ok());
    const auto begin = std::chrono::steady_clock::now();
    auto store = RedisStore::connect(url.value(), lock_named("unreachable"), 50, Timeouts{500, 500});
    const auto took = std::chrono::steady_clock::now() - begin;
    ASSERT_FALSE(store.ok());
    EXPECT_TRUE(store.error().connection);
    EXPECT_NE(store.error().message.find("cannot connect to redis://127.0.0.1:1"), std::string::npos)
        << store.error().message;
    EXPECT_LT(took, std::chrono::seconds(3));
}

TEST(RedisStoreErrors, LockNamesWithBracesAreRefused) {
    const RedisUrl url = parsed_url_or_fail();
    LockConfig lock;
    lock.name = "a}b";
    auto store = RedisStore::connect(url, lock, 50);
    ASSERT_FALSE(store.ok());
    EXPECT_FALSE(store.error().connection);
}

TEST(RedisStoreErrors, AnErrorReplyIsNotAConnectionError) {
    const LockConfig lock = lock_named("wrongtype");
    auto store = connect_or_fail(lock, 50);
    ASSERT_TRUE(store);
    // A slot key of the wrong type makes the script fail on the server side.
    ASSERT_TRUE(store->connection().command({"SET", store->keys().slot(0), "not a hash"}).ok());
    auto reply = store->acquire(0, "node-a", "tok", 5);
    ASSERT_FALSE(reply.ok());
    EXPECT_FALSE(reply.error().connection);
    EXPECT_NE(reply.error().message.find("WRONGTYPE"), std::string::npos) << reply.error().message;
    // The connection is still good.
    EXPECT_FALSE(store->connection().broken());
    ASSERT_TRUE(store->remove_namespace().ok());
    EXPECT_TRUE(store->acquire(0, "node-a", "tok", 5).ok());
    ASSERT_TRUE(store->remove_namespace().ok());
}

TEST(RedisStoreScripts, FallsBackToEvalAfterTheScriptCacheIsFlushed) {
    const LockConfig lock = lock_named("noscript");
    auto store = connect_or_fail(lock, 50);
    ASSERT_TRUE(store);
    auto first = store->acquire(0, "node-a", "tok-a", 5);
    ASSERT_TRUE(first.ok()) << first.error().message;
    ASSERT_TRUE(store->connection().command({"SCRIPT", "FLUSH"}).ok());
    auto again = store->acquire(0, "node-a", "tok-a", 5);
    ASSERT_TRUE(again.ok()) << again.error().message;
    EXPECT_TRUE(again->acquired);
    EXPECT_FALSE(again->fresh);
    EXPECT_EQ(again->fencing, first->fencing);
    ASSERT_TRUE(store->remove_namespace().ok());
}

TEST(RedisStoreLayout, WritesTheDocumentedKeysAndTheCounterHasNoTtl) {
    const LockConfig lock = lock_named("layout", 2, 40);
    auto store = connect_or_fail(lock, 1000);
    ASSERT_TRUE(store);
    auto a = store->acquire(0, "node-a", "tok-a", 3);
    ASSERT_TRUE(a.ok());
    EXPECT_EQ(a->fencing, 40);  // fencing_start
    auto& c = store->connection();
    auto owner = c.command({"HGET", store->keys().slot(0), "owner"});
    ASSERT_TRUE(owner.ok());
    EXPECT_EQ(std::string(owner.value()->str, owner.value()->len), "node-a");
    auto fencing = c.command({"HGET", store->keys().slot(0), "fencing"});
    ASSERT_TRUE(fencing.ok());
    EXPECT_EQ(std::string(fencing.value()->str, fencing.value()->len), "40");
    auto pttl = c.command({"PTTL", store->keys().slot(0)});
    ASSERT_TRUE(pttl.ok());
    EXPECT_GT(pttl.value()->integer, 2000);
    EXPECT_LE(pttl.value()->integer, 2500);  // (3 - 1/2) ticks of 1000 ms
    auto counter_ttl = c.command({"PTTL", store->keys().counter()});
    ASSERT_TRUE(counter_ttl.ok());
    EXPECT_EQ(counter_ttl.value()->integer, -1);  // never expires
    auto released = store->release(0, "tok-a", 0, 2);
    ASSERT_TRUE(released.ok());
    auto holdoff_ttl = c.command({"PTTL", store->keys().holdoff()});
    ASSERT_TRUE(holdoff_ttl.ok());
    EXPECT_GT(holdoff_ttl.value()->integer, 1000);
    ASSERT_TRUE(store->remove_namespace().ok());
    auto exists = c.command({"EXISTS", store->keys().counter(), store->keys().holdoff()});
    ASSERT_TRUE(exists.ok());
    EXPECT_EQ(exists.value()->integer, 0);
}

TEST(RedisStoreSafety, ARecordItDidNotWriteIsReportedAsAnotherClient) {
    const LockConfig lock = lock_named("shared");
    auto mine = connect_or_fail(lock, 1000);
    auto theirs = connect_or_fail(lock, 1000);
    ASSERT_TRUE(mine && theirs);
    auto expired = mine->expire(0);
    ASSERT_TRUE(expired.ok());
    ASSERT_TRUE(theirs->acquire(0, "intruder", "tok-x", 5).ok());
    expired = mine->expire(0);
    ASSERT_FALSE(expired.ok());
    EXPECT_FALSE(expired.error().connection);
    EXPECT_NE(expired.error().message.find("another client"), std::string::npos) << expired.error().message;
    ASSERT_TRUE(mine->remove_namespace().ok());
}

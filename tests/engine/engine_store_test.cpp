// Unit tests of the store model: one group per operation of docs/model.md §4.
#include <gtest/gtest.h>

#include "leasescope/engine/model_store.hpp"

using namespace leasescope;

namespace {

ModelStore make_store(std::int32_t capacity = 1, Fencing fencing_start = 1) {
    return ModelStore(LockConfig{"lock", capacity, fencing_start});
}

}  // namespace

// A fresh acquire takes slot 0, issues fencing_start and reports the lease as TTL.
TEST(StoreAcquire, FreshAcquireIssuesFencingStart) {
    auto s = make_store(1, 33);
    const AcquireReply r = s.do_acquire(0, "a", "tok-a", 6);
    EXPECT_TRUE(r.acquired);
    EXPECT_TRUE(r.fresh);
    EXPECT_EQ(r.slot, 0);
    EXPECT_EQ(r.fencing, 33);
    EXPECT_EQ(r.ttl, 6);
    EXPECT_EQ(s.slots()[0].expires_at, 6);
    EXPECT_EQ(s.counter(), 33);
}

// While the slot is valid another token is busy, with the time left until it frees.
TEST(StoreAcquire, HeldIsBusyWithRemaining) {
    auto s = make_store();
    s.do_acquire(0, "a", "tok-a", 6);
    const AcquireReply r = s.do_acquire(4, "b", "tok-b", 6);
    EXPECT_FALSE(r.acquired);
    EXPECT_EQ(r.reason, BusyReason::held);
    EXPECT_EQ(r.remaining, 2);
    EXPECT_EQ(s.counter(), 1);  // busy never touches the counter
}

// The token already holding a slot gets that slot back unchanged: no new fencing, no new TTL.
TEST(StoreAcquire, SameTokenGetsItsSlotUnchanged) {
    auto s = make_store(2);
    s.do_acquire(0, "a", "tok-a", 6);
    const AcquireReply r = s.do_acquire(2, "a", "tok-a", 6);
    EXPECT_TRUE(r.acquired);
    EXPECT_FALSE(r.fresh);
    EXPECT_EQ(r.slot, 0);
    EXPECT_EQ(r.fencing, 1);
    EXPECT_EQ(r.ttl, 4);
    EXPECT_EQ(s.slots()[0].expires_at, 6);
    EXPECT_FALSE(s.slots()[1].occupied);
}

// The lowest-numbered vacant slot is taken; busy's remaining is the minimum over slots.
TEST(StoreAcquire, LowestVacantSlotAndMinRemaining) {
    auto s = make_store(3);
    EXPECT_EQ(s.do_acquire(0, "a", "ta", 10).slot, 0);
    EXPECT_EQ(s.do_acquire(1, "b", "tb", 3).slot, 1);
    EXPECT_EQ(s.do_acquire(2, "c", "tc", 10).slot, 2);
    ASSERT_EQ(s.do_release(3, "ta", 0, 0).outcome, ReleaseOutcome::released);
    const AcquireReply d = s.do_acquire(3, "d", "td", 10);
    EXPECT_EQ(d.slot, 0);
    EXPECT_EQ(d.fencing, 4);
    const AcquireReply e = s.do_acquire(3, "e", "te", 10);
    EXPECT_FALSE(e.acquired);
    EXPECT_EQ(e.remaining, 1);  // slot 1 expires at 4
}

// A slot is valid iff now < expires_at: at expires_at it counts as vacant.
TEST(StoreAcquire, ExpiryBoundaryIsExclusive) {
    auto s = make_store();
    s.do_acquire(0, "a", "ta", 6);
    EXPECT_FALSE(s.do_acquire(5, "b", "tb", 6).acquired);
    const AcquireReply r = s.do_acquire(6, "b", "tb", 6);
    EXPECT_TRUE(r.acquired);
    EXPECT_EQ(r.fencing, 2);
}

// The hold-off blocks every acquirer, the releaser's new token included, until it elapses.
TEST(StoreAcquire, HoldOffBlocksEveryone) {
    auto s = make_store();
    s.do_acquire(0, "a", "ta", 10);
    s.do_release(2, "ta", 0, 3);
    const AcquireReply r = s.do_acquire(3, "a", "ta2", 10);
    EXPECT_FALSE(r.acquired);
    EXPECT_EQ(r.reason, BusyReason::hold_off);
    EXPECT_EQ(r.remaining, 2);
    EXPECT_FALSE(s.do_acquire(4, "b", "tb", 10).acquired);
    EXPECT_TRUE(s.do_acquire(5, "b", "tb", 10).acquired);
}

// The token check comes before the hold-off: a holder asking again is answered acquired.
TEST(StoreAcquire, HolderPassesHoldOff) {
    auto s = make_store(2);
    s.do_acquire(0, "a", "ta", 10);
    s.do_acquire(0, "b", "tb", 10);
    s.do_release(1, "tb", 0, 5);
    EXPECT_TRUE(s.do_acquire(2, "a", "ta", 10).acquired);
    EXPECT_FALSE(s.do_acquire(2, "c", "tc", 10).acquired);
}

// extend moves the expiry to now + lease and keeps the fencing number; an invalid token is lost.
TEST(StoreExtend, RenewsOrLost) {
    auto s = make_store();
    s.do_acquire(0, "a", "ta", 6);
    const ExtendReply r = s.do_extend(4, "ta", 6);
    EXPECT_TRUE(r.renewed);
    EXPECT_EQ(r.slot, 0);
    EXPECT_EQ(r.fencing, 1);
    EXPECT_EQ(s.slots()[0].expires_at, 10);
    EXPECT_FALSE(s.do_extend(4, "other", 6).renewed);
    EXPECT_FALSE(s.do_extend(10, "ta", 6).renewed);  // expired at 10
}

// release without keep_for vacates the slot; a stale token is not_owner and changes nothing.
TEST(StoreRelease, ReleasedAndNotOwner) {
    auto s = make_store();
    s.do_acquire(0, "a", "ta", 6);
    EXPECT_EQ(s.do_release(2, "tb", 0, 0).outcome, ReleaseOutcome::not_owner);
    EXPECT_TRUE(s.slots()[0].occupied);
    const ReleaseReply r = s.do_release(2, "ta", 0, 0);
    EXPECT_EQ(r.outcome, ReleaseOutcome::released);
    EXPECT_EQ(r.slot, 0);
    EXPECT_FALSE(s.slots()[0].occupied);
    EXPECT_EQ(s.do_release(3, "ta", 0, 0).outcome, ReleaseOutcome::not_owner);
}

// keep_for shortens the expiry to min(expires_at, now + keep_for) and reports kept.
TEST(StoreRelease, KeepForShortensNeverLengthens) {
    auto s = make_store();
    s.do_acquire(0, "a", "ta", 10);
    const ReleaseReply r = s.do_release(2, "ta", 3, 0);
    EXPECT_EQ(r.outcome, ReleaseOutcome::kept);
    EXPECT_EQ(r.until, 5);
    auto t = make_store();
    t.do_acquire(0, "a", "ta", 4);
    EXPECT_EQ(t.do_release(2, "ta", 8, 0).until, 4);
}

// The hold-off is armed by kept and released, never by not_owner, and only grows.
TEST(StoreRelease, HoldOffArmingRules) {
    auto s = make_store();
    s.do_acquire(0, "a", "ta", 10);
    s.do_release(1, "zz", 0, 9);
    EXPECT_EQ(s.holdoff_until(), tick_none);
    s.do_release(1, "ta", 2, 4);  // kept until 3, hold-off until 5
    EXPECT_EQ(s.holdoff_until(), 5);
    auto t = make_store(2);
    t.do_acquire(0, "a", "ta", 10);
    t.do_acquire(0, "b", "tb", 10);
    t.do_release(1, "ta", 0, 8);  // until 9
    t.do_release(2, "tb", 0, 2);  // until 4: max keeps 9
    EXPECT_EQ(t.holdoff_until(), 9);
}

// status lists valid slots without tokens and the hold-off left.
TEST(StoreStatus, HeldOrVacant) {
    auto s = make_store(2);
    EXPECT_FALSE(s.do_status(0).held());
    s.do_acquire(0, "a", "ta", 6);
    const StatusReply r = s.do_status(2);
    ASSERT_EQ(r.slots.size(), 1u);
    EXPECT_EQ(r.slots[0].owner, "a");
    EXPECT_EQ(r.slots[0].fencing, 1);
    EXPECT_EQ(r.slots[0].remaining, 4);
    EXPECT_EQ(r.holdoff_remaining, 0);
    EXPECT_FALSE(s.do_status(6).held());
}

// validate answers current, stale (valid but another token) or vacant; read-only.
TEST(StoreValidate, CurrentStaleVacant) {
    auto s = make_store();
    EXPECT_EQ(s.do_validate(0, "ta"), Validity::vacant);
    s.do_acquire(0, "a", "ta", 6);
    EXPECT_EQ(s.do_validate(1, "ta"), Validity::current);
    EXPECT_EQ(s.do_validate(1, "tb"), Validity::stale);
    EXPECT_EQ(s.do_validate(6, "ta"), Validity::vacant);
    EXPECT_TRUE(s.slots()[0].occupied);  // validate never drops a record
}

// expire drops records whose time has come, in slot order, and ends an elapsed hold-off.
TEST(StoreExpire, DropsDueRecordsInSlotOrder) {
    auto s = make_store(3);
    s.do_acquire(0, "a", "ta", 5);
    s.do_acquire(0, "b", "tb", 9);
    s.do_acquire(0, "c", "tc", 5);
    std::vector<ExpiredRecord> out;
    s.do_expire(4, out);
    EXPECT_TRUE(out.empty());
    s.do_expire(5, out);
    ASSERT_EQ(out.size(), 2u);
    EXPECT_EQ(out[0].slot, 0);
    EXPECT_EQ(out[0].owner, "a");
    EXPECT_EQ(out[0].token, "ta");
    EXPECT_EQ(out[1].slot, 2);
    EXPECT_EQ(out[1].fencing, 3);
    EXPECT_EQ(s.occupied_count(), 1);
    s.do_release(6, "tb", 0, 2);
    s.do_expire(8, out);
    EXPECT_EQ(s.holdoff_until(), tick_none);
}

// failover lose=leases empties slots and hold-off but keeps the counter; lose=all resets it.
TEST(StoreFailover, LeasesVersusAll) {
    auto s = make_store(1, 10);
    s.do_acquire(0, "a", "ta", 6);
    s.do_failover(FailoverLoss::leases);
    EXPECT_EQ(s.occupied_count(), 0);
    EXPECT_EQ(s.do_acquire(1, "b", "tb", 6).fencing, 11);
    s.do_failover(FailoverLoss::all);
    EXPECT_EQ(s.counter(), 9);
    EXPECT_EQ(s.do_acquire(2, "c", "tc", 6).fencing, 10);
}

namespace {

// What a plain scan of the store's own slots says a token holds at `now`:
// the first valid slot with the whole token, and the first slot not valid.
struct Scan {
    SlotIndex held = -1;
    SlotIndex vacant = -1;
    bool any_valid = false;
};

Scan scan(const ModelStore& s, Tick now, const std::string& token) {
    Scan r;
    for (std::size_t i = 0; i < s.slots().size(); ++i) {
        const SlotRecord& slot = s.slots()[i];
        const auto index = static_cast<SlotIndex>(i);
        if (slot.valid_at(now)) {
            r.any_valid = true;
            if (r.held < 0 && slot.token == token) r.held = index;
        } else if (r.vacant < 0) {
            r.vacant = index;
        }
    }
    return r;
}

// One random operation on `s` at `now`, its answer checked against scan().
void random_step(ModelStore& s, Tick now, std::uint64_t draw, const std::vector<std::string>& tokens) {
    const std::string& token = tokens[(draw >> 8) % tokens.size()];
    const Scan before = scan(s, now, token);
    const bool holdoff = s.holdoff_until() != tick_none && now < s.holdoff_until();
    switch (draw % 16) {
        case 0:
        case 1:
        case 2:
        case 3:
        case 4:
        case 5: {
            const AcquireReply r = s.do_acquire(now, "owner", token, 1 + static_cast<Tick>((draw >> 20) % 40));
            const SlotIndex want = before.held >= 0 ? before.held : (holdoff ? -1 : before.vacant);
            ASSERT_EQ(r.acquired, want >= 0) << token << " at " << now;
            if (r.acquired) {
                EXPECT_EQ(r.slot, want) << token << " at " << now;
                EXPECT_EQ(r.fresh, before.held < 0);
            }
            break;
        }
        case 6:
        case 7: {
            const ExtendReply r = s.do_extend(now, token, 1 + static_cast<Tick>((draw >> 20) % 40));
            ASSERT_EQ(r.renewed, before.held >= 0) << token << " at " << now;
            if (r.renewed) {
                EXPECT_EQ(r.slot, before.held);
            }
            break;
        }
        case 8:
        case 9: {
            const Tick keep_for = (draw >> 20) % 3 == 0 ? static_cast<Tick>((draw >> 24) % 5) : 0;
            const Tick hold_off = (draw >> 28) % 5 == 0 ? 2 : 0;
            const ReleaseReply r = s.do_release(now, token, keep_for, hold_off);
            ASSERT_EQ(r.outcome != ReleaseOutcome::not_owner, before.held >= 0) << token << " at " << now;
            if (before.held >= 0) {
                EXPECT_EQ(r.slot, before.held);
            }
            break;
        }
        case 10:
        case 11: {
            const Validity want = before.held >= 0   ? Validity::current
                                  : before.any_valid ? Validity::stale
                                                     : Validity::vacant;
            EXPECT_EQ(s.do_validate(now, token), want) << token << " at " << now;
            break;
        }
        case 12: s.do_clock_jump(now, static_cast<std::int64_t>((draw >> 20) % 400) - 200); break;
        case 13:
            if ((draw >> 20) % 8 == 0) s.do_failover((draw >> 24) % 2 == 0 ? FailoverLoss::leases : FailoverLoss::all);
            break;
        default: {
            std::vector<ExpiredRecord> out;
            s.do_expire(now, out);
            for (const ExpiredRecord& e : out) EXPECT_FALSE(s.slots()[static_cast<std::size_t>(e.slot)].occupied);
        }
    }
}

}  // namespace

// The store finds a token's slot and the first vacant one through an index by
// the token's first eight bytes and a bit per slot once it has two slots or
// more (ModelStore::by_key_). Whatever the operations, their answers are a
// plain scan's of the slots: tokens that share their first eight bytes, locks
// of 2 to 130 slots (past one 64-bit word of vacant bits), clock jumps that
// leave expired records to sweep, failovers that empty every slot, hold-offs.
TEST(StoreIndex, AnswersAreAPlainScansOfTheSlots) {
    std::vector<std::string> tokens;
    for (int i = 0; i < 40; ++i) tokens.push_back("sharedpfx-" + std::to_string(i));  // one key for all
    for (int i = 0; i < 40; ++i) tokens.push_back(std::to_string(i) + "-own-key");
    tokens.push_back("short");
    for (const std::int32_t capacity : {1, 2, 3, 7, 63, 64, 65, 130}) {
        for (std::uint64_t seed = 1; seed <= 4; ++seed) {
            LockConfig config{"lock", capacity, 1};
            config.clock.tick_ms = 50;
            ModelStore s(config);
            std::uint64_t x = seed * 0x9E3779B97F4A7C15ULL + static_cast<std::uint64_t>(capacity);
            Tick now = 0;
            for (int step = 0; step < 6000; ++step) {
                x ^= x << 13;  // xorshift64
                x ^= x >> 7;
                x ^= x << 17;
                if (x % 5 == 0) ++now;
                random_step(s, now, x, tokens);
                if (testing::Test::HasFatalFailure()) {
                    ADD_FAILURE() << "capacity " << capacity << ", seed " << seed << ", step " << step;
                    return;
                }
            }
        }
    }
}

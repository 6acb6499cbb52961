// The Redis store equals the model: random sequences of store operations (all
// five, expire and failover; capacities 1 to 8; keep_for; hold-off; many
// operations on expiry boundaries) applied to ModelStore and to RedisStore at
// the same ticks give the same results.
//
// Time is real here, not injected: Redis expires keys by its own clock, and a
// store whose TTLs followed an injected clock would be a different store
// (absolute expiry times compared in Lua) from the one live mode runs. So each
// sequence runs with real ticks of LEASESCOPE_LIVE_DIFF_TICK_MS (default 30)
// and its commands at mid-tick, exactly as the live driver issues them. To
// keep the wall time short, several sequences run at once, each in its own
// namespace over its own connection. A sequence with a late tick is a timing
// fault: it is thrown away and run again with another seed, never counted as
// agreement or disagreement. When the machine cannot keep the tick (more
// timing faults at one tick than sequences asked for, as under AddressSanitizer
// beside other tests), the tick doubles, up to 8 times the first; the test
// fails for load only when even that tick cannot be kept.
//
// LEASESCOPE_LIVE_SOAK=N runs N sequences instead of 300.
#include <gtest/gtest.h>

#include <unistd.h>

#include <atomic>
#include <mutex>
#include <sstream>
#include <thread>

#include "leasescope/engine/model_store.hpp"
#include "leasescope/engine/prng.hpp"
#include "leasescope/live/tick_pacer.hpp"
#include "leasescope/redis/redis_store.hpp"
#include "support/live_test_support.hpp"

using namespace leasescope;

namespace {

constexpr std::int64_t sequences_default = 300;
constexpr Tick sequence_ticks = 24;
constexpr std::int64_t workers_default = 8;

enum class OpKind { acquire, extend, release, status, validate, expire, failover };

struct Op {
    OpKind kind = OpKind::status;
    std::int32_t who = 0;  // index of the owner/token
    Tick lease = 1;
    Tick keep_for = 0;
    Tick hold_off = 0;
    FailoverLoss loss = FailoverLoss::leases;
};

std::string token_of(std::int32_t who) { return "tok-" + std::to_string(who); }
std::string owner_of(std::int32_t who) { return "node-" + std::to_string(who); }

std::string describe(const Op& op) {
    std::ostringstream s;
    switch (op.kind) {
        case OpKind::acquire: s << "acquire(" << owner_of(op.who) << ", lease " << op.lease << ")"; break;
        case OpKind::extend: s << "extend(" << token_of(op.who) << ", lease " << op.lease << ")"; break;
        case OpKind::release:
            s << "release(" << token_of(op.who) << ", keep " << op.keep_for << ", hold_off " << op.hold_off << ")";
            break;
        case OpKind::status: s << "status()"; break;
        case OpKind::validate: s << "validate(" << token_of(op.who) << ")"; break;
        case OpKind::expire: s << "expire()"; break;
        case OpKind::failover: s << "failover(" << (op.loss == FailoverLoss::all ? "all" : "leases") << ")"; break;
    }
    return s.str();
}

// Results as text: equal text, equal result.
template <class T>
std::string text(const StoreResult<T>& r, std::string (*show)(const T&)) {
    if (!r.ok()) return "error: " + r.error().message;
    return show(r.value());
}
std::string show_acquire(const AcquireReply& a) {
    std::ostringstream s;
    if (a.acquired) {
        s << "acquired slot " << a.slot << " fencing " << a.fencing << " ttl " << a.ttl
          << (a.fresh ? " fresh" : " again");
    } else {
        s << "busy " << (a.reason == BusyReason::hold_off ? "hold_off" : "held") << " remaining " << a.remaining;
    }
    return s.str();
}
std::string show_extend(const ExtendReply& e) {
    std::ostringstream s;
    if (e.renewed)
        s << "renewed slot " << e.slot << " fencing " << e.fencing;
    else
        s << "lost";
    return s.str();
}
std::string show_release(const ReleaseReply& r) {
    std::ostringstream s;
    switch (r.outcome) {
        case ReleaseOutcome::released: s << "released slot " << r.slot; break;
        case ReleaseOutcome::kept: s << "kept slot " << r.slot << " until " << r.until; break;
        case ReleaseOutcome::not_owner: s << "not_owner"; break;
    }
    return s.str();
}
std::string show_status(const StatusReply& st) {
    std::ostringstream s;
    s << (st.held() ? "held" : "vacant") << " holdoff " << st.holdoff_remaining;
    for (const auto& slot : st.slots) {
        s << " [" << slot.slot << " " << slot.owner << " f" << slot.fencing << " r" << slot.remaining << "]";
    }
    return s.str();
}
std::string show_validity(const Validity& v) {
    return v == Validity::current ? "current" : v == Validity::stale ? "stale" : "vacant";
}
std::string show_expired(const std::vector<ExpiredRecord>& records) {
    std::ostringstream s;
    s << records.size() << " expired";
    for (const auto& r : records) s << " [" << r.slot << " " << r.owner << " " << r.token << " f" << r.fencing << "]";
    return s.str();
}
std::string show_unit(const Unit&) { return "ok"; }

std::string apply(Store& store, Tick now, const Op& op) {
    switch (op.kind) {
        case OpKind::acquire:
            return text(store.acquire(now, owner_of(op.who), token_of(op.who), op.lease), show_acquire);
        case OpKind::extend: return text(store.extend(now, token_of(op.who), op.lease), show_extend);
        case OpKind::release: return text(store.release(now, token_of(op.who), op.keep_for, op.hold_off), show_release);
        case OpKind::status: return text(store.status(now), show_status);
        case OpKind::validate: return text(store.validate(now, token_of(op.who)), show_validity);
        case OpKind::expire: return text(store.expire(now), show_expired);
        case OpKind::failover: return text(store.failover(now, op.loss), show_unit);
    }
    return "?";
}

// The next operation, drawn with the model's state in view so that holders'
// tokens come up often and operations cluster on expiry boundaries.
Op draw_op(SplitMix64& rng, const ModelStore& model, std::int32_t people) {
    Op op;
    const auto roll = rng.next() % 100;
    op.kind = roll < 30   ? OpKind::acquire
              : roll < 45 ? OpKind::extend
              : roll < 65 ? OpKind::release
              : roll < 74 ? OpKind::status
              : roll < 84 ? OpKind::validate
              : roll < 98 ? OpKind::expire
                          : OpKind::failover;
    op.who = static_cast<std::int32_t>(rng.next() % static_cast<std::uint64_t>(people));
    // Half the time, a token that holds (or held) a slot.
    if (rng.next() % 2 == 0) {
        std::vector<std::int32_t> holders;
        for (const auto& s : model.slots()) {
            if (s.occupied) holders.push_back(std::stoi(s.token.substr(4)));
        }
        if (!holders.empty()) op.who = holders[rng.next() % holders.size()];
    }
    op.lease = 1 + static_cast<Tick>(rng.next() % 4);
    op.keep_for = rng.next() % 2 == 0 ? 0 : 1 + static_cast<Tick>(rng.next() % 4);
    op.hold_off = rng.next() % 3 != 0 ? 0 : 1 + static_cast<Tick>(rng.next() % 3);
    op.loss = rng.next() % 2 == 0 ? FailoverLoss::leases : FailoverLoss::all;
    return op;
}

struct SequenceOutcome {
    bool timing_fault = false;
    std::optional<std::string> mismatch;
    std::optional<std::string> error;
    std::int64_t ops = 0;
    std::int64_t boundary_ops = 0;  // ops at a tick where some record's expires_at is now or now + 1
};

SequenceOutcome run_sequence(const redis::RedisUrl& url, std::uint64_t seed, std::int64_t tick_ms) {
    SequenceOutcome out;
    SplitMix64 rng(seed);
    LockConfig lock;
    lock.name = "difftest-" + std::to_string(::getpid()) + "-" + std::to_string(seed);
    lock.capacity = 1 + static_cast<std::int32_t>(rng.next() % 8);
    lock.fencing_start = rng.next() % 4 == 0 ? 1 + static_cast<Fencing>(rng.next() % 1000) : 1;
    const auto people = lock.capacity + 1 + static_cast<std::int32_t>(rng.next() % 3);

    auto connected = redis::RedisStore::connect(url, lock, tick_ms);
    if (!connected.ok()) {
        out.error = connected.error().message;
        return out;
    }
    redis::RedisStore& real = *connected.value();
    if (auto reset = real.reset_namespace(); !reset.ok()) {
        out.error = reset.error().message;
        return out;
    }
    ModelStore model(lock);
    std::ostringstream history;
    history << "seed " << seed << ", capacity " << lock.capacity << ", fencing_start " << lock.fencing_start
            << ", tick_ms " << tick_ms << "\n";

    live::TickPacer pacer(tick_ms);
    pacer.start();
    for (Tick t = 0; t < sequence_ticks && !out.mismatch; ++t) {
        pacer.wait_for_mid(t);
        const auto count = rng.next() % 4;
        for (std::uint64_t k = 0; k < count; ++k) {
            const Op op = draw_op(rng, model, people);
            for (const auto& s : model.slots()) {
                if (s.occupied && (s.expires_at == t || s.expires_at == t + 1)) {
                    ++out.boundary_ops;
                    break;
                }
            }
            const std::string expected = apply(model, t, op);
            const std::string got = apply(real, t, op);
            ++out.ops;
            history << "  tick " << t << ": " << describe(op) << " -> " << expected << "\n";
            if (expected != got) {
                out.mismatch = history.str() + "  the Redis store answered: " + got + "\n";
                break;
            }
        }
        if (!pacer.within(t)) {
            out.timing_fault = true;
            break;
        }
    }
    // A late tick voids the mismatch too: it may be the clock's doing.
    if (out.timing_fault) out.mismatch.reset();
    if (auto removed = real.remove_namespace(); !removed.ok() && !out.error) out.error = removed.error().message;
    return out;
}

}  // namespace

TEST(Differential, RedisStoreEqualsModelStoreOnRandomSequences) {
    const redis::RedisUrl url = live_test::parsed_url_or_fail();
    ASSERT_FALSE(url.host.empty());
    const std::int64_t wanted = live_test::env_int("LEASESCOPE_LIVE_SOAK", sequences_default);
    const std::int64_t tick_ms = live_test::env_int("LEASESCOPE_LIVE_DIFF_TICK_MS", 30);
    const std::int64_t workers =
        std::max<std::int64_t>(1, live_test::env_int("LEASESCOPE_LIVE_DIFF_WORKERS", workers_default));
    const std::uint64_t base_seed = static_cast<std::uint64_t>(live_test::env_int("LEASESCOPE_LIVE_DIFF_SEED", 1));

    // Sequences lost to timing faults are replaced, up to as many again as
    // were asked for at each tick; past that the tick doubles (a longer tick
    // leaves more room for a late command), and past 8 times the first tick
    // the machine is too loaded for the test to mean anything, and it says so.
    const std::int64_t retries_max = wanted;
    const std::int64_t tick_max = tick_ms * 8;
    std::atomic<std::int64_t> tick_now{tick_ms};
    std::atomic<std::int64_t> next_seed{0};
    std::atomic<std::int64_t> agreed{0};
    std::atomic<std::int64_t> timing_faults{0};  // in all
    std::atomic<bool> too_loaded{false};
    std::atomic<std::int64_t> ops{0};
    std::atomic<std::int64_t> boundary_ops{0};
    std::mutex failures_mutex;
    std::vector<std::string> failures;
    std::int64_t faults_at_tick = 0;  // guarded by failures_mutex

    auto worker = [&] {
        for (;;) {
            if (agreed.load() >= wanted || too_loaded.load()) return;
            {
                std::lock_guard<std::mutex> lock(failures_mutex);
                if (!failures.empty()) return;
            }
            const auto seed = base_seed + static_cast<std::uint64_t>(next_seed.fetch_add(1));
            const std::int64_t tick = tick_now.load();
            const SequenceOutcome outcome = run_sequence(url, seed, tick);
            ops += outcome.ops;
            boundary_ops += outcome.boundary_ops;
            std::lock_guard<std::mutex> lock(failures_mutex);
            if (outcome.error || outcome.mismatch) {
                failures.push_back(outcome.error ? "seed " + std::to_string(seed) + ": " + *outcome.error
                                                 : *outcome.mismatch);
                return;
            }
            if (!outcome.timing_fault) {
                ++agreed;
                continue;
            }
            ++timing_faults;
            // Only faults at the current tick count toward its limit.
            if (tick != tick_now.load() || ++faults_at_tick <= retries_max) continue;
            if (tick * 2 > tick_max) {
                too_loaded = true;
                return;
            }
            std::printf("differential: %lld timing faults at ticks of %lld ms; going on with ticks of %lld ms\n",
                        static_cast<long long>(faults_at_tick), static_cast<long long>(tick),
                        static_cast<long long>(tick * 2));
            tick_now = tick * 2;
            faults_at_tick = 0;
        }
    };
    std::vector<std::thread> threads;
    for (std::int64_t i = 0; i < workers; ++i) threads.emplace_back(worker);
    for (auto& t : threads) t.join();

    for (const auto& f : failures) ADD_FAILURE() << "the Redis store differs from the model:\n" << f;
    EXPECT_FALSE(too_loaded.load()) << "too many sequences lost to timing faults: the machine is too loaded "
                                       "even for ticks of "
                                    << tick_now.load() << " ms";
    EXPECT_GE(agreed.load(), wanted);
    std::printf(
        "differential: %lld sequences agreed (%lld operations, %lld on an expiry boundary), "
        "%lld discarded for timing faults, last tick %lld ms\n",
        static_cast<long long>(agreed.load()), static_cast<long long>(ops.load()),
        static_cast<long long>(boundary_ops.load()), static_cast<long long>(timing_faults.load()),
        static_cast<long long>(tick_now.load()));
    // The sequences must actually reach the boundaries they are meant to test.
    EXPECT_GT(boundary_ops.load(), ops.load() / 10);
}

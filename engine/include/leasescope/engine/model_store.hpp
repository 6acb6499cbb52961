#pragma once
// The store model: N slots, a persistent fencing counter and a hold-off
// marker, exactly as docs/model.md §4. Pure, copyable (the simulator checkpoints it).
#include <algorithm>
#include <cstring>
#include <limits>
#include <optional>
#include <vector>

#include "leasescope/engine/state_hasher.hpp"
#include "leasescope/engine/store.hpp"

namespace leasescope {

struct SlotRecord {
    bool occupied = false;
    std::string owner;
    Token token;
    Fencing fencing = 0;
    Tick acquired_at = 0;
    Tick expires_at = 0;
    // The deadline on the store's clock, in half milliseconds (model.md §3.3
    // rule 4); expires_at is the first tick whose store moment reaches it.
    // Kept only once the store's clock left true time (ModelStore::true_clock).
    std::int64_t deadline_half_ms = 0;

    bool valid_at(Tick t) const { return occupied && t < expires_at; }
    void hash_into(StateHasher& h) const {
        h.add(occupied);
        h.add(owner);
        h.add(token);
        h.add(fencing);
        h.add(acquired_at);
        h.add(expires_at);
        h.add(deadline_half_ms);
    }
};

class ModelStore final : public Store {
public:
    explicit ModelStore(LockConfig config);

    StoreResult<AcquireReply> acquire(Tick now, std::string_view owner, std::string_view token, Tick lease) override;
    StoreResult<ExtendReply> extend(Tick now, std::string_view token, Tick lease) override;
    StoreResult<ReleaseReply> release(Tick now, std::string_view token, Tick keep_for, Tick hold_off) override;
    StoreResult<StatusReply> status(Tick now) override;
    StoreResult<Validity> validate(Tick now, std::string_view token) override;
    StoreResult<std::vector<ExpiredRecord>> expire(Tick now) override;
    StoreResult<Unit> failover(Tick now, FailoverLoss loss) override;
    StoreResult<Unit> clock_jump(Tick now, std::int64_t ms) override;
    StoreResult<Unit> cut_link(Tick now, std::int32_t server) override;
    StoreResult<Unit> restore_link(Tick now, std::int32_t server) override;
    StoreResult<Fencing> promote(Tick now, std::int32_t server, const SplitBrain* split) override;
    StoreResult<Unit> end_split(Tick now) override;
    void route(std::int32_t server) override;
    StoreResult<std::int32_t> synced_replicas(Tick now) override;
    ModelStore* model() override { return this; }

    // Plain (error-free) forms, for callers that know they hold a model.
    AcquireReply do_acquire(Tick now, std::string_view owner, std::string_view token, Tick lease);
    ExtendReply do_extend(Tick now, std::string_view token, Tick lease);
    ReleaseReply do_release(Tick now, std::string_view token, Tick keep_for, Tick hold_off);
    StatusReply do_status(Tick now) const;
    Validity do_validate(Tick now, std::string_view token) const;
    void do_expire(Tick now, std::vector<ExpiredRecord>& out);
    void do_failover(FailoverLoss loss);
    void do_clock_jump(Tick now, std::int64_t ms);

    // The store's clock at the middle of tick t, in half milliseconds
    // (model.md §3.3 rule 1): drift and the jumps so far.
    std::int64_t store_time(Tick t) const { return config_.clock.reading_at_tick(t) + jumps_half_ms_; }
    // True while the store's clock reads true time (no drift, no jump yet):
    // every tick then is exactly the rule of §4.1, and no deadline is converted.
    bool true_clock() const { return true_clock_; }
    // Feeds every member a later call reads (docs/explorer.md, Merging
    // states), but the configuration, which the scenario fixes.
    void hash_into(StateHasher& h) const;

    // ---- Servers (model.md §17) ----
    // One server's own copy of the record: a cut replica's (frozen when its
    // link was cut) or, in split brain, the primary not being served.
    struct ServerCopy {
        std::vector<SlotRecord> slots;
        Fencing counter = 0;
        Tick holdoff_until = tick_none;
        std::int64_t holdoff_deadline_half_ms = 0;
    };
    struct ServerLink {
        bool linked = true;             // a replica's link to the primary is up
        std::optional<ServerCopy> own;  // while cut: what it holds
    };
    std::int32_t server_count() const { return static_cast<std::int32_t>(servers_.size()); }
    std::int32_t primary() const { return primary_; }
    // The old primary living on in split brain (§17.5), or -1.
    std::int32_t old_primary() const { return old_primary_; }
    const ServerLink& server_link(std::int32_t server) const { return servers_[static_cast<std::size_t>(server)]; }
    // The copy server `server` holds now (the primary's for the primary and a
    // linked replica). Not while routed to the old primary.
    ServerCopy server_copy(std::int32_t server) const;
    // The replicas the primary being served counts as good at `now` (§17.4 rule 2).
    std::int32_t good_replicas(Tick now) const;
    // §17.4 rule 1: the primary being served refuses writes at `now`.
    bool writes_refused(Tick now) const {
        const std::int32_t m = config_.replication.min_replicas_to_write;
        return m > 0 && good_replicas(now) < m;
    }

    // Read-only views for snapshots and tests.
    const LockConfig& config() const { return config_; }
    const std::vector<SlotRecord>& slots() const { return slots_; }
    Fencing counter() const { return counter_; }
    // tick_none when there is no hold-off marker.
    Tick holdoff_until() const { return holdoff_until_; }
    // Records occupying a slot (valid or awaiting their expiry phase).
    std::int32_t occupied_count() const;
    // True when do_expire(now) would change nothing: no record and no
    // hold-off has come to its end.
    bool nothing_expires(Tick now) { return now < first_expiry(); }
    // The first tick at which do_expire may change something: the earliest
    // expires_at of an occupied slot or the hold-off's end (max() when none).
    Tick first_expiry() {
        const Tick records = min_expiry();
        return holdoff_until_ == tick_none ? records : std::min(records, holdoff_until_);
    }

private:
    // Index of the valid slot holding `token`, or -1.
    SlotIndex find_valid(Tick now, std::string_view token) const;
    // The earliest expires_at of an occupied slot (max() when none).
    Tick min_expiry() {
        if (min_dirty_) recompute_min();
        return min_expiry_;
    }
    void recompute_min();
    // Keeps hot_[i] in step with slots_[i], and the index by key and the
    // vacant bits with hot_[i].
    void sync(std::size_t i);
    // The first slot not valid at `now` (vacant, or expired and not yet
    // swept), or -1.
    std::ptrdiff_t first_vacant(Tick now);
    // The index by key (by_key_): an open-addressing table of the occupied
    // slots, placed by their hot key (linear probing, deletion by backward
    // shift). A lookup finds every occupied slot whose key is the token's
    // without a scan of all the slots.
    std::size_t key_home(std::uint64_t key) const {
        return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ULL) >> key_shift_);
    }
    void index_insert(std::int32_t slot);
    void index_remove(std::int32_t slot);
    void index_clear();
    void note_expiry(Tick previous, Tick now_expires);
    // A deadline `ticks` nominal ticks after tick `now` on the store's clock,
    // and the first tick (at least `now`) at which it has come (§3.3 rule 4).
    std::int64_t deadline_after(Tick now, Tick ticks) const {
        return store_time(now) + 2 * ticks * config_.clock.tick_ms;
    }
    Tick tick_of(Tick now, std::int64_t deadline) const {
        return std::max(now, config_.clock.first_tick_reaching(deadline - jumps_half_ms_));
    }
    // What the store reports as time left for a deadline at tick `now`:
    // its remaining time in ticks, rounded up as §13.3 (§3.3 rule 6).
    Tick remaining(Tick now, Tick until, std::int64_t deadline) const;
    void set_expiry(SlotRecord& s, Tick now, Tick lease);

    // What the scans read, packed beside the slot records: the tick until
    // which the slot is valid (tick_none when vacant) and the token's first
    // eight bytes, so a lookup compares two integers per slot and touches
    // the record (and its token string) only on a match.
    struct HotSlot {
        Tick valid_until = tick_none;
        std::uint64_t key = 0;
    };
    static std::uint64_t key_of(std::string_view token) {
        std::uint64_t key = 0;
        std::memcpy(&key, token.data(), token.size() < 8 ? token.size() : 8);
        return key ^ (static_cast<std::uint64_t>(token.size()) << 59);
    }

    static void hash_copy(const ServerCopy& c, StateHasher& h);
    ServerCopy capture() const;
    void install(ServerCopy copy);
    void swap_with_old_primary();
    Err<StoreError> refusal() const;
    // The replicas linked to the primary being served (a linked replica holds
    // everything it applied, §17.1 rule 4); not while routed to the old primary.
    std::int32_t linked_replicas() const;

    LockConfig config_;
    // Servers (model.md §17): empty without replicas. The fields below are
    // the copy of the primary being served (route()).
    std::vector<ServerLink> servers_;
    std::int32_t primary_ = 0;
    std::int32_t old_primary_ = -1;
    ServerCopy old_copy_;          // the old primary's copy while it is not being served
    bool routed_old_ = false;      // the fields below hold the old primary's copy
    Tick split_at_ = 0;            // split brain began
    std::int32_t split_good_ = 0;  // replicas linked to the old primary when it fell silent
    std::vector<SlotRecord> slots_;
    std::vector<HotSlot> hot_;
    // Caches of hot_ (so not fed to hash_into: hot_ is): the occupied slots
    // by key, -1 where a table entry is empty, and one bit per slot set while
    // it is unoccupied (hot_[i].valid_until == tick_none).
    std::vector<std::int32_t> by_key_;
    unsigned key_shift_ = 63;
    std::vector<std::uint64_t> vacant_bits_;
    Tick min_expiry_ = std::numeric_limits<Tick>::max();
    bool min_dirty_ = false;
    Fencing counter_;
    Tick holdoff_until_ = tick_none;
    std::int64_t holdoff_deadline_half_ms_ = 0;
    std::int64_t jumps_half_ms_ = 0;
    bool true_clock_ = true;
};

}  // namespace leasescope

#pragma once
// The store model: N slots, a persistent fencing counter and a hold-off
// marker, exactly as docs/model.md §4. Pure, copyable (the simulator checkpoints it).
#include <vector>

#include "leasescope/engine/store.hpp"

namespace leasescope {

struct SlotRecord {
    bool occupied = false;
    std::string owner;
    Token token;
    Fencing fencing = 0;
    Tick acquired_at = 0;
    Tick expires_at = 0;

    bool valid_at(Tick t) const { return occupied && t < expires_at; }
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

    // Plain (error-free) forms, for callers that know they hold a model.
    AcquireReply do_acquire(Tick now, std::string_view owner, std::string_view token, Tick lease);
    ExtendReply do_extend(Tick now, std::string_view token, Tick lease);
    ReleaseReply do_release(Tick now, std::string_view token, Tick keep_for, Tick hold_off);
    StatusReply do_status(Tick now) const;
    Validity do_validate(Tick now, std::string_view token) const;
    void do_expire(Tick now, std::vector<ExpiredRecord>& out);
    void do_failover(FailoverLoss loss);

    // Read-only views for snapshots and tests.
    const LockConfig& config() const { return config_; }
    const std::vector<SlotRecord>& slots() const { return slots_; }
    Fencing counter() const { return counter_; }
    // tick_none when there is no hold-off marker.
    Tick holdoff_until() const { return holdoff_until_; }
    // Records occupying a slot (valid or awaiting their expiry phase).
    std::int32_t occupied_count() const;

private:
    // Index of the valid slot holding `token`, or -1.
    SlotIndex find_valid(Tick now, std::string_view token) const;

    LockConfig config_;
    std::vector<SlotRecord> slots_;
    Fencing counter_;
    Tick holdoff_until_ = tick_none;
};

}  // namespace leasescope

#pragma once
// The Store: the Redis record of one lock, as the elector and the scheduler
// see it (docs/model.md §4). Two implementations: ModelStore (pure, in memory) and
// RedisStore (engine/redis/, hiredis). Every operation is atomic; `now` is the
// tick at which the operation is processed.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "leasescope/engine/clock.hpp"
#include "leasescope/engine/result.hpp"
#include "leasescope/engine/types.hpp"

namespace leasescope {

// A backend failure. `connection` keeps hiredis's distinction: a dead
// connection (ctx->err) versus a server error reply (REDIS_REPLY_ERROR).
// The simulator's partitions produce errors with `connection` set.
struct StoreError {
    std::string message;
    bool connection = true;
};

template <class T>
using StoreResult = Result<T, StoreError>;

enum class BusyReason { held, hold_off };

struct AcquireReply {
    bool acquired = false;                 // false: busy
    bool fresh = false;                    // acquired by this call (false: the token already held it)
    SlotIndex slot = -1;                   // on acquired
    Fencing fencing = 0;                   // on acquired
    Tick ttl = 0;                          // acquired: lease (fresh) or remaining (held already)
    BusyReason reason = BusyReason::held;  // on busy
    Tick remaining = 0;                    // on busy: ticks until a slot frees or the hold-off ends
};

struct ExtendReply {
    bool renewed = false;  // false: lost
    SlotIndex slot = -1;
    Fencing fencing = 0;
};

enum class ReleaseOutcome { released, kept, not_owner };

struct ReleaseReply {
    ReleaseOutcome outcome = ReleaseOutcome::not_owner;
    SlotIndex slot = -1;  // on released and kept
    Tick until = 0;       // on kept: the record now expires at this tick
};

struct SlotStatus {
    SlotIndex slot = 0;
    std::string owner;
    Fencing fencing = 0;
    Tick remaining = 0;
};

// Never reveals a token.
struct StatusReply {
    std::vector<SlotStatus> slots;  // valid slots only, slot order; empty: vacant
    Tick holdoff_remaining = 0;     // 0: no hold-off
    bool held() const { return !slots.empty(); }
};

enum class Validity { current, stale, vacant };

// A record that vanished because its time came (reported by expire()).
struct ExpiredRecord {
    SlotIndex slot = 0;
    std::string owner;
    Token token;
    Fencing fencing = 0;
};

// failover{lose}: "leases" drops slots and the hold-off; "all" also resets the
// fencing counter to fencing_start - 1.
enum class FailoverLoss { leases, all };

struct LockConfig {
    std::string name = "lock";
    std::int32_t capacity = 1;
    Fencing fencing_start = 1;
    // The store's clock (model.md §3.3): its tick_ms and drift. At true time
    // by default; jumps come as clock_jump() calls.
    DriftClock clock{};
};

class ModelStore;

class Store {
public:
    virtual ~Store() = default;

    // The in-memory model behind this store, or null: the simulator asks once
    // a tick and then calls the model without a virtual call per operation.
    virtual ModelStore* model() { return nullptr; }

    virtual StoreResult<AcquireReply> acquire(Tick now, std::string_view owner, std::string_view token, Tick lease) = 0;
    virtual StoreResult<ExtendReply> extend(Tick now, std::string_view token, Tick lease) = 0;
    virtual StoreResult<ReleaseReply> release(Tick now, std::string_view token, Tick keep_for, Tick hold_off) = 0;
    virtual StoreResult<StatusReply> status(Tick now) = 0;
    virtual StoreResult<Validity> validate(Tick now, std::string_view token) = 0;

    // Drop the records whose time has come and report them in slot order; an
    // elapsed hold-off ends.
    virtual StoreResult<std::vector<ExpiredRecord>> expire(Tick now) = 0;

    // Store fault: the primary is lost (docs/model.md §4, "Store faults").
    virtual StoreResult<Unit> failover(Tick now, FailoverLoss loss) = 0;

    // Store fault: the store's clock steps by `ms` milliseconds (model.md
    // §3.3 rules 3-5). Only the model can do it: a real server's clock is
    // not moved (model.md §13.6), so other stores answer an error.
    virtual StoreResult<Unit> clock_jump(Tick /*now*/, std::int64_t /*ms*/) {
        return Err{StoreError{"a store clock jump is simulated only: a real server's clock is not moved", false}};
    }
};

}  // namespace leasescope

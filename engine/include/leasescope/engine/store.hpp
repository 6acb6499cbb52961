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
    // A primary refused a write for want of good replicas (-NOREPLICAS,
    // model.md §17.4): an error reply that is not transient.
    bool no_replicas = false;
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

// Redis's min-replicas-max-lag default, 10 s, in ticks (model.md §17.4).
inline constexpr std::int64_t redis_min_replicas_max_lag_ms = 10'000;
inline constexpr Tick default_min_replicas_max_lag(std::int64_t tick_ms) {
    return (redis_min_replicas_max_lag_ms + tick_ms - 1) / tick_ms;
}

// The store's servers (model.md §17.1): server 0 is the first primary,
// 1 ... replicas its replicas.
struct Replication {
    std::int32_t replicas = 0;
    std::int32_t min_replicas_to_write = 0;  // 0: off (§17.4)
    Tick min_replicas_max_lag = 0;           // ticks; 0: Redis's 10 s
    bool operator==(const Replication&) const = default;
};

// Split brain (model.md §17.5): the old primary stays the primary of these
// nodes (by declared index) until `until`.
struct SplitBrain {
    std::vector<NodeIndex> reachable_by;
    Tick until = 0;
};

struct LockConfig {
    std::string name = "lock";
    std::int32_t capacity = 1;
    Fencing fencing_start = 1;
    Replication replication{};
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

    // ---- Replication (model.md §17). A store without replicas answers an
    // error to each; the scenario never asks it (validation refuses). ----

    // Cut or restore the link between `server` (a replica) and the primary
    // (§17.2): while cut it keeps what it had; restored, it resynchronises.
    virtual StoreResult<Unit> cut_link(Tick /*now*/, std::int32_t /*server*/) { return no_replicas_error(); }
    virtual StoreResult<Unit> restore_link(Tick /*now*/, std::int32_t /*server*/) { return no_replicas_error(); }
    // Failover (§17.3): `server` becomes the primary with what it holds; the
    // others follow it, except the old primary when `split` keeps it alive
    // for some nodes (§17.5). Answers the counter the new primary holds.
    virtual StoreResult<Fencing> promote(Tick /*now*/, std::int32_t /*server*/, const SplitBrain* /*split*/) {
        return no_replicas_error();
    }
    // Split brain ends (§17.5 rule 3): the old primary becomes a replica of the new one.
    virtual StoreResult<Unit> end_split(Tick /*now*/) { return no_replicas_error(); }
    // Which server the next node calls go to: -1 the primary, else the old
    // primary in split brain (§17.5 rule 1). The simulator sets it before each call of a node.
    virtual void route(std::int32_t /*server*/) {}
    // The replicas that hold everything the primary applied so far (WAIT's
    // count, §17.6 rule 2): those linked to it now.
    virtual StoreResult<std::int32_t> synced_replicas(Tick /*now*/) { return no_replicas_error(); }

protected:
    static Err<StoreError> no_replicas_error() { return Err{StoreError{"this store has no replicas", false}}; }
};

}  // namespace leasescope

#pragma once
// The Store on a real Redis (docs/model.md §4, §13): one Lua script per operation,
// keys `leasescope:{<lock>}:slot:<i>` (a hash: owner, token, fencing),
// `…:fencing` (the counter, no TTL) and `…:holdoff`.
//
// Time: the store turns ticks into TTLs and back by the live timing rule
// (live_timing.hpp, docs/model.md §13.3), which holds while tick t's commands
// arrive between its middle and its deadline, as the live driver's pacer
// ensures. `now` itself is only used to turn a remaining time into an
// absolute tick (release's `kept until`).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "leasescope/engine/store.hpp"
#include "leasescope/redis/live_timing.hpp"
#include "leasescope/redis/redis_connection.hpp"
#include "leasescope/redis/script_calls.hpp"

namespace leasescope::redis {

class RedisStore final : public Store {
public:
    RedisStore(RedisConnection connection, LockConfig config, std::int64_t tick_ms);

    // Connects (AUTH, SELECT, PING) with the URL's credentials.
    static Result<std::unique_ptr<RedisStore>, StoreError> connect(const RedisUrl& url, LockConfig config,
                                                                   std::int64_t tick_ms, const Timeouts& timeouts = {});

    StoreResult<AcquireReply> acquire(Tick now, std::string_view owner, std::string_view token, Tick lease) override;
    StoreResult<ExtendReply> extend(Tick now, std::string_view token, Tick lease) override;
    StoreResult<ReleaseReply> release(Tick now, std::string_view token, Tick keep_for, Tick hold_off) override;
    StoreResult<StatusReply> status(Tick now) override;
    StoreResult<Validity> validate(Tick now, std::string_view token) override;
    // Reads the slots and reports the records this store wrote that are no
    // longer there (their TTL ran out). Redis ends an elapsed hold-off itself.
    // A slot holding a record this store did not write is an error: another
    // client is using the same lock on this server.
    StoreResult<std::vector<ExpiredRecord>> expire(Tick now) override;
    // lose = leases: deletes the slots and the hold-off; lose = all: also
    // resets the counter to fencing_start − 1.
    StoreResult<Unit> failover(Tick now, FailoverLoss loss) override;

    // Deletes every key of this lock's namespace (any capacity) and sets the
    // counter to fencing_start − 1. Touches no other key.
    StoreResult<Unit> reset_namespace();
    // Deletes every key of this lock's namespace, the counter included.
    StoreResult<Unit> remove_namespace();

    // One live run per lock and server. claim_run sets the run-ownership key
    // to `run_id` for `lease_ms` unless it exists (false: another run holds
    // it; `held_for_ms` says for how long yet). renew_run extends it while it
    // is still `run_id`'s (false: it was lost). release_run deletes it if it
    // is still `run_id`'s.
    StoreResult<bool> claim_run(std::string_view run_id, std::int64_t lease_ms, std::int64_t& held_for_ms);
    StoreResult<bool> renew_run(std::string_view run_id, std::int64_t lease_ms);
    StoreResult<Unit> release_run(std::string_view run_id);

    const LockConfig& config() const { return config_; }
    std::int64_t tick_ms() const { return tick_ms_; }
    const KeyLayout& keys() const { return keys_; }
    RedisConnection& connection() { return connection_; }
    // Records this store wrote that it has not yet seen vanish, by slot.
    const std::vector<std::optional<ExpiredRecord>>& known() const { return known_; }

private:
    // Runs a call by EVALSHA, loading its script on first use and falling
    // back to EVAL when the server has forgotten it (NOSCRIPT).
    Result<ReplyPtr, StoreError> run_script(const ScriptCall& call);
    StoreResult<Unit> delete_namespace();

    RedisConnection connection_;
    LockConfig config_;
    std::int64_t tick_ms_;
    KeyLayout keys_;
    std::vector<std::string> shas_;  // per script; empty until loaded
    std::vector<std::optional<ExpiredRecord>> known_;
};

}  // namespace leasescope::redis

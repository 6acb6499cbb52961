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
    // The store's clock jumps by `ms` (docs/model.md §13.6): no clock moves;
    // one script moves the deadline of every slot record and of the hold-off
    // by clock_jump_step_ms (a key whose new deadline has passed is deleted,
    // and the next expire reports it). The counter has no TTL and is not
    // touched. Live mode refuses a jump with replicas (§13.6 rule 4).
    StoreResult<Unit> clock_jump(Tick now, std::int64_t ms) override;

    // ---- Real replicas (docs/model.md §13.8, redis_replication.cpp) ----
    // Server i + 1 of the scenario is the i-th replica added; server 0 is the
    // connection this store was made with (at `primary_url`).
    void set_primary_url(RedisUrl url);
    void add_replica(RedisConnection connection, RedisUrl url);
    std::int32_t server_count() const { return static_cast<std::int32_t>(servers_.size()); }
    RedisConnection& server(std::int32_t s) { return servers_[static_cast<std::size_t>(s)]; }
    const RedisUrl& server_url(std::int32_t s) const { return urls_[static_cast<std::size_t>(s)]; }
    // Servers that answered as this run's primary at some point (their keys are this run's).
    const std::vector<bool>& was_primary() const { return was_primary_; }
    std::int32_t primary() const { return primary_; }
    std::int32_t old_primary() const { return old_primary_; }
    // cut_link: REPLICAOF NO ONE on the replica. restore_link: REPLICAOF the
    // current primary, then waits (link_wait_ms at most) until it is online.
    StoreResult<Unit> cut_link(Tick now, std::int32_t server) override;
    StoreResult<Unit> restore_link(Tick now, std::int32_t server) override;
    // Detaches `server`, points every other linked server (the old primary
    // too, unless `split` keeps it) at it and waits for them; the node calls
    // go to it from now on. Answers its counter.
    StoreResult<Fencing> promote(Tick now, std::int32_t server, const SplitBrain* split) override;
    StoreResult<Unit> end_split(Tick now) override;
    void route(std::int32_t server) override;
    // WAIT (link_wait_ms at most) until every online replica of the primary
    // has acknowledged everything it applied; an error when one did not.
    StoreResult<Unit> catch_up();
    // Puts back the topology found: server 0 the primary (REPLICAOF NO ONE
    // when it is not), every other server its linked replica.
    StoreResult<Unit> reset_topology();
    // ROLE (the online replicas), then WAIT for that many with a timeout of
    // wait_probe_ms: the replicas that acknowledged everything so far.
    StoreResult<std::int32_t> synced_replicas(Tick now) override;
    // How long restore_link and promote wait for a replica to be online.
    static constexpr std::int64_t link_wait_ms = 2'000;
    static constexpr std::int64_t wait_probe_ms = 100;

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
    // The connection the next node call uses (the primary, or the old
    // primary while a split-brain node is routed to it).
    RedisConnection& connection() { return conn(); }
    // Records this store wrote on that server that it has not yet seen vanish, by slot.
    const std::vector<std::optional<ExpiredRecord>>& known() const {
        return known_[static_cast<std::size_t>(active())];
    }

private:
    // Runs a call by EVALSHA, loading its script on first use and falling
    // back to EVAL when the server has forgotten it (NOSCRIPT).
    Result<ReplyPtr, StoreError> run_script(const ScriptCall& call);
    StoreResult<Unit> delete_namespace();
    using Known = std::vector<std::optional<ExpiredRecord>>;
    std::int32_t active() const { return routed_ >= 0 ? routed_ : primary_; }
    RedisConnection& conn() { return servers_[static_cast<std::size_t>(active())]; }
    Known& kn() { return known_[static_cast<std::size_t>(active())]; }
    // What `server` holds of this run's records, read after it became the primary.
    StoreResult<Unit> reload_known(std::int32_t server);
    StoreResult<Unit> link(std::int32_t replica);

    std::vector<RedisConnection> servers_;
    std::vector<RedisUrl> urls_;
    std::vector<Known> known_;  // by server
    std::vector<bool> cut_;     // by server: detached by cut_link
    std::vector<bool> was_primary_;
    std::vector<Tick> cut_at_;  // by server: the tick of its last cut
    // Every record this run wrote, for a promotion: which of them the
    // promoted server held (model.md §17.3 rule 1), even one that has expired
    // since, which Redis no longer lets anyone read.
    struct Written {
        ExpiredRecord record;
        Tick acquired = 0;
        Tick gone = -1;           // released or reported expired at; -1: not yet
        std::int32_t server = 0;  // the primary it was written on; -1: lost with a failover
    };
    std::vector<Written> written_;
    void note_gone(Tick now, std::string_view token);
    void adopt_history(Tick now, std::int32_t old, std::int32_t server, Tick held_before, bool split);
    std::int32_t primary_ = 0;
    std::int32_t old_primary_ = -1;
    std::int32_t routed_ = -1;
    LockConfig config_;
    std::int64_t tick_ms_;
    KeyLayout keys_;
    std::vector<std::string> shas_;  // per script; empty until loaded (a script cache per server: NOSCRIPT reloads)
};

}  // namespace leasescope::redis

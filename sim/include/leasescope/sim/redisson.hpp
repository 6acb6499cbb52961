#pragma once
// Redisson's RLock on the one store (docs/model.md §21): the lock, renew and
// unlock scripts of redisson-parent-3.31.0, tryLock's wait on the unlock
// message or the TTL, and the watchdog, tick by tick. A Simulation whose
// scenario has "client": "redisson" holds one RedissonRun and steps it
// instead of its electors. Pure and copyable, like the Simulation; its
// store answers through RedissonStoreOps (redisson_store.hpp).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "leasescope/engine/clock.hpp"
#include "leasescope/engine/elector.hpp"
#include "leasescope/engine/prng.hpp"
#include "leasescope/sim/redisson_store.hpp"
#include "leasescope/sim/scenario.hpp"
#include "leasescope/sim/trace.hpp"

namespace leasescope::sim {

class EventSink;

enum class RedissonState : std::uint8_t { idle, waiting, working, finished };

// One candidate: one RedissonClient with one thread (rule 21.1.1).
struct RedissonNode {
    RedissonState state = RedissonState::idle;
    std::int32_t run = -1;
    Tick next_run_at = 0;
    Token field;                // drawn once: the client's UUID and ":1" (rule 21.2.1)
    std::int64_t start_ms = 0;  // System.currentTimeMillis() when tryLock began (RL 233)
    bool subscribed = false;
    std::int64_t permits = 0;  // the lock entry's semaphore (LE 37)
    Tick wake_at = tick_none;  // the timed wait's end (rule 21.3.5)
    Tick acquired_at = tick_none;
    Tick progress = 0;
    std::size_t next_write = 0;
    bool watchdog = false;
    std::int64_t renew_due = 0;  // half ms on its monotonic clock (rule 21.4.1)
    std::int32_t pauses = 0;
    bool crashed = false;
    std::int64_t jumps = 0;  // half milliseconds: its wall clock's steps so far
    std::vector<RunResult> results;
    bool paused() const { return pauses > 0; }
};

class RedissonRun {
public:
    explicit RedissonRun(const Scenario& scenario);

    // Processes tick t. True when the run is over after it (§6.3's end).
    bool step(Tick t, EventSink& sink);

    // Live mode (model.md rule 21.9.5): the store's answers come from `live`
    // (not owned, outliving the run; null: the model's), the model's store
    // becoming the run's record of what the real one answered.
    void use_store(RedissonStoreOps* live) { live_ = live; }

    const RedissonRecord& record() const { return model_.record(); }
    const std::vector<RedissonNode>& nodes() const { return nodes_; }
    const Violations& violations() const { return violations_; }
    std::int64_t events_emitted() const { return seq_; }
    std::vector<RunSummary> results() const;
    // System.currentTimeMillis() of node n at tick t (rule 21.3.1).
    std::int64_t now_ms(NodeIndex n, Tick t) const;
    // The record's TTL in ms when node n takes it: its lease, or the watchdog's timeout.
    std::int64_t lease_ms(NodeIndex n) const;

private:
    enum class Answer : std::uint8_t { nil, busy, error };
    EventView node_event(Tick t, Phase phase, EventOp op, NodeIndex n) const;
    void emit(EventSink& sink, EventView& ev);
    RedissonStoreOps& ops() { return live_ != nullptr ? *live_ : static_cast<RedissonStoreOps&>(model_); }
    std::optional<PartitionMode> partition_of(NodeIndex n, Tick t) const;
    void phase_faults(Tick t, EventSink& sink);
    void fault_edge(Tick t, const Fault& f, bool end, EventSink& sink);
    void phase_expiry(Tick t, EventSink& sink);
    void phase_work(Tick t, EventSink& sink);
    void phase_extend(Tick t, EventSink& sink);
    void phase_acquire(Tick t, EventSink& sink);
    void phase_check(Tick t, EventSink& sink);
    void begin_run(NodeIndex n, Tick t, EventSink& sink);
    void wake(NodeIndex n, Tick t, EventSink& sink);
    void attempt_loop(NodeIndex n, Tick t, EventSink& sink);
    Answer try_lock(NodeIndex n, Tick t, EventSink& sink, std::int64_t& pttl_ms);
    void acquired(NodeIndex n, Tick t);
    void give_up(NodeIndex n, Tick t, EventSink& sink);
    void renew(NodeIndex n, Tick t, std::int64_t reading, EventSink& sink);
    void unlock(NodeIndex n, Tick t, EventSink& sink);
    void publish(NodeIndex from, Tick t, EventSink& sink);
    void write(NodeIndex n, Tick t, EventSink& sink);
    std::int64_t budget_ms(NodeIndex n, Tick t) const;
    void end_run(NodeIndex n, RunResult result);
    bool quiet_after(Tick t) const;

    const Scenario* scenario_;
    SplitMix64 rng_;
    ModelRedissonStore model_;
    RedissonStoreOps* live_ = nullptr;
    std::vector<RedissonNode> nodes_;
    std::vector<FaultEdge> edges_;
    std::size_t next_edge_ = 0;
    std::int64_t seq_ = 0;
    Tick last_edge_tick_ = 0;
    bool in_overlap_ = false;
    Violations violations_;
};

}  // namespace leasescope::sim

#pragma once
// Redlock over independent stores (docs/model.md §20): the algorithm of the
// npm package redlock 4.2.0, tick by tick. A Simulation whose scenario has
// `stores` holds one RedlockRun and steps it instead of its electors. Pure
// and copyable, like the Simulation (the Timeline copies it).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "leasescope/engine/clock.hpp"
#include "leasescope/engine/elector.hpp"
#include "leasescope/engine/prng.hpp"
#include "leasescope/sim/redlock_stores.hpp"
#include "leasescope/sim/scenario.hpp"
#include "leasescope/sim/trace.hpp"

namespace leasescope::sim {

class EventSink;

enum class RedlockState : std::uint8_t { idle, locking, unlocking, retrying, working, releasing, finished };

// One candidate running the client (rules 20.4, 20.5).
struct RedlockNode {
    RedlockState state = RedlockState::idle;
    std::int32_t run = -1;  // the current (or last) run
    Tick next_run_at = 0;
    Token token;
    std::int64_t attempts = 0;
    std::int64_t start_ms = 0;  // Date.now() when the attempt began
    std::int32_t waiting = 0;   // answers still to come
    std::int32_t votes = 0;
    Tick retry_at = tick_none;
    Tick acquired_at = tick_none;
    Tick progress = 0;
    std::size_t next_write = 0;
    std::int32_t pauses = 0;  // pauses going on (one may end as the next begins)
    bool crashed = false;
    std::int64_t jumps = 0;  // half milliseconds: its wall clock's steps so far
    std::vector<RunResult> results;
    bool paused() const { return pauses > 0; }
};

// A message between a node and a store, or a write on its way to the resource.
struct RedlockMessage {
    enum class Kind : std::uint8_t { lock, unlock, release, write };
    Tick at = 0;
    Phase phase = Phase::acquire;
    Tick sent = 0;
    std::int64_t number = 0;
    bool reply = false;
    Kind kind = Kind::lock;
    NodeIndex node = -1;
    std::int32_t run = -1;
    std::int32_t store = -1;
    std::int32_t epoch = 0;   // the store's epoch when the request was sent
    std::int32_t answer = 0;  // a reply: 1, 0, or -1 for an error
    Tick applied = tick_none;
    Tick request_sent = 0;  // a reply: when its request was sent
    Token token;            // the run's
    bool operator>(const RedlockMessage& o) const;
};

class RedlockRun {
public:
    explicit RedlockRun(const Scenario& scenario);

    // Processes tick t. True when the run is over after it (§6.3's end).
    bool step(Tick t, EventSink& sink);

    // Live mode (model.md rule 20.9.4): the stores' answers come from `live`
    // (not owned, outliving the run; null: the model's), the model's stores
    // becoming the run's record of what it set.
    void use_stores(RedlockStoreOps* live) { live_ = live; }

    const std::vector<RedlockStore>& stores() const { return model_.stores(); }
    const std::vector<RedlockNode>& nodes() const { return nodes_; }
    const Violations& violations() const { return violations_; }
    std::int64_t events_emitted() const { return seq_; }
    std::int32_t quorum() const { return static_cast<std::int32_t>(model_.size() / 2 + 1); }
    // The results so far, in declared order (unfinished runs as such).
    std::vector<RunSummary> results() const;
    // Date.now() of node n at tick t, in ms (rule 20.4.2).
    std::int64_t now_ms(NodeIndex n, Tick t) const;

private:
    EventView node_event(Tick t, Phase phase, EventOp op, NodeIndex n) const;
    void emit(EventSink& sink, EventView& ev);
    RedlockStoreOps& ops() { return live_ != nullptr ? *live_ : static_cast<RedlockStoreOps&>(model_); }
    void phase_faults(Tick t, EventSink& sink);
    void fault_edge(Tick t, const Fault& f, bool end, EventSink& sink);
    void restart_edge(const Fault& f, bool end, EventView& ev);
    void phase_expiry(Tick t, EventSink& sink);
    void phase_work(Tick t, EventSink& sink);
    void phase_acquire(Tick t, EventSink& sink);
    void phase_check(Tick t, EventSink& sink);
    void start_attempt(NodeIndex n, Tick t);
    void send_to_all(NodeIndex n, RedlockMessage::Kind kind, Tick t, Phase phase);
    Tick arrival(NodeIndex n, std::int32_t store, Link link, Tick sent) const;
    void push(RedlockMessage m);
    void deliver(Tick t, Phase phase, EventSink& sink);
    void apply(RedlockMessage m, Tick t);
    void answer(const RedlockMessage& m, Tick t, EventSink& sink);
    void decide(NodeIndex n, Tick t, EventSink& sink);
    void unlocked(NodeIndex n, Tick t, EventSink& sink);
    void released(NodeIndex n, Tick t, EventSink& sink);
    void write_arrives(const RedlockMessage& m, Tick t, EventSink& sink);
    void end_run(NodeIndex n, RunResult result);
    bool quiet_after(Tick t) const;

    const Scenario* scenario_;
    SplitMix64 rng_;
    ModelRedlockStores model_;
    RedlockStoreOps* live_ = nullptr;
    std::vector<RedlockNode> nodes_;
    std::vector<RedlockMessage> wire_;                   // a min-heap
    std::vector<std::vector<RedlockMessage>> deferred_;  // per node: answers held by a pause (§16.3)
    std::vector<FaultEdge> edges_;
    std::size_t next_edge_ = 0;
    std::int64_t sends_ = 0;
    std::int64_t seq_ = 0;
    Tick last_edge_tick_ = 0;
    bool in_overlap_ = false;
    Violations violations_;
};

}  // namespace leasescope::sim

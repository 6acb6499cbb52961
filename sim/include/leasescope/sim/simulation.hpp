#pragma once
// The tick scheduler (docs/model.md §6): faults, the protected resource, invariants
// and scripted ops around one Elector per candidate. The simulation state holds
// no store: each step is given the Store to drive, so the same code runs on
// the model (copyable, checkpointed by Timeline) and on a real Redis.
#include <functional>
#include <memory>
#include <tuple>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "leasescope/engine/assert.hpp"
#include "leasescope/engine/elector.hpp"
#include "leasescope/engine/model_store.hpp"
#include "leasescope/engine/prng.hpp"
#include "leasescope/engine/state_hasher.hpp"
#include "leasescope/sim/limits.hpp"
#include "leasescope/sim/outcome_spill.hpp"
#include "leasescope/sim/redisson.hpp"
#include "leasescope/sim/redlock.hpp"
#include "leasescope/sim/scenario.hpp"
#include "leasescope/sim/trace.hpp"
#include "leasescope/sim/wake_queue.hpp"

namespace leasescope::sim {

class EventSink {
public:
    virtual ~EventSink() = default;
    virtual void on_event(const Event& event) = 0;
    // What the simulator calls: the event seen in place, no string copied.
    // By default it becomes an Event for on_event; a sink that only counts,
    // drops or writes events overrides this and copies nothing.
    virtual void on_event_view(const EventView& view) { on_event(to_event(view)); }
    // The same, with the event's canonical line (ending in its newline), when
    // the caller made it anyway (run_to_end hashes it): a sink that writes
    // the line can take these bytes instead of formatting them again.
    virtual void on_event_line(const EventView& view, std::string_view /*line*/) { on_event_view(view); }
    // Whether the sink looks at what an event says. The simulator tells a sink
    // that does not (NullSink, CountingSink) only that an event happened, by
    // on_unread_event, and builds no view for it; the event is numbered all
    // the same. Rare events (faults, ops, overlaps, replication, late
    // applications, Redlock and Redisson runs) still come as views, so such
    // a sink takes both. Fixed when the sink is made.
    bool reads_events() const { return reads_events_; }
    virtual void on_unread_event() {}

protected:
    EventSink() = default;
    explicit EventSink(bool reads_events) : reads_events_(reads_events) {}
    EventSink(const EventSink&) = default;
    EventSink& operator=(const EventSink&) = default;

private:
    bool reads_events_ = true;
};

// Drops every event: a run whose trace nobody reads (seeking, replays, the
// explorer's verdicts).
class NullSink final : public EventSink {
public:
    NullSink() : EventSink(false) {}
    void on_event(const Event&) override {}
    void on_event_view(const EventView&) override {}
};

// Counts the events and drops them: what the benchmarks (leasescope-cli
// bench, bench/) measure the simulator with, without a trace's cost.
class CountingSink final : public EventSink {
public:
    CountingSink() : EventSink(false) {}
    void on_event(const Event&) override { ++count; }
    void on_event_view(const EventView&) override { ++count; }
    void on_unread_event() override { ++count; }
    std::int64_t count = 0;
};

// Live mode draws tokens from the operating system; the simulator still
// draws its own first, so shuffles stay the same as in the model.
class TokenSource {
public:
    virtual ~TokenSource() = default;
    virtual Token next_token(const Token& simulated) = 0;
};

struct NodeFaults {
    bool paused = false;
    bool crashed = false;
    std::optional<PartitionMode> partition;
    // Pauses (and partitions) of one node never overlap, but one may end at the
    // very tick the next begins, and the fault list decides which edge comes
    // first: counting them keeps the node paused whatever that order.
    std::int32_t pauses_active = 0;
    std::int32_t partitions_active = 0;
    bool active() const { return !paused && !crashed; }
};

// The fencing numbers issued so far, as sorted disjoint ranges [first, last]:
// a counter issues them one by one, so a run keeps a few ranges however many
// acquisitions it makes (model.md §9.8).
class IssuedNumbers {
public:
    bool contains(Fencing f) const;
    void add(Fencing f);
    void hash_into(StateHasher& h) const;

private:
    std::vector<std::pair<Fencing, Fencing>> ranges_;
};

struct ResourceState {
    std::optional<Fencing> highest_accepted;
    std::int64_t accepted = 0;
    std::int64_t rejected = 0;
};

class Simulation {
public:
    // The scenario must outlive the simulation (and its copies).
    explicit Simulation(const Scenario& scenario, TokenSource* tokens = nullptr);

    const Scenario& scenario() const { return *scenario_; }
    // The tick step() processes next.
    Tick next_tick() const { return next_tick_; }
    bool finished() const { return finished_; }
    // The last tick processed; valid once finished.
    Tick end_tick() const { return end_tick_; }

    // Processes one tick against `store`. A store error outside a node's call
    // (expire, failover, ops) stops the run: it is returned, and the
    // simulation is finished.
    Result<Unit, StoreError> step(Store& store, EventSink& sink);

    // Passes over the quiet ticks from next_tick() on, at once: ticks in
    // which step() on this model store would emit nothing and change nothing
    // but the progress of the actions going on (no fault, op, expiry, run
    // start, attempt, write, action end or watchdog run is due, and runs are
    // still to come). Stops before `limit` and before the horizon; step()
    // then processes the next tick as usual. Returns the ticks passed (0:
    // the next tick is not quiet). The trace is the same as stepping through
    // them; live mode does not call it (its store is not the model).
    Tick skip_quiet_ticks(ModelStore& store, Tick limit);

    // ---- Forking (docs/explorer.md, Forking from checkpoints) ----
    // A fault that starts at tick t changes nothing before t (model.md §7.9):
    // so a copy of this simulation, taken before next_tick(), may be
    // re-pointed at a scenario that is the one it runs plus faults appended
    // at the end, each starting at or after next_tick(), and it continues
    // exactly as a run of that scenario from tick 0 (same events, same
    // verdict). `scenario` must equal the current one but for those faults,
    // and must outlive the simulation. A run that had ended quiet before the
    // new faults resumes (a run of the whole scenario would not have ended).
    // False, and nothing changed, when a fault starts too early, for a
    // Redlock or Redisson run (their clients copy the faults when built), in
    // live mode, or with an outcome spill.
    bool can_append_faults(const Scenario& scenario) const;
    bool append_faults(const Scenario& scenario);
    // The first tick a fault acts: its start, or a promoting failover's lag cut.
    static Tick fault_first_tick(const Fault& f);

    // ---- Merging (docs/explorer.md, Merging states) ----
    // Feeds the whole state at a tick boundary, everything step() reads (the
    // store aside: ModelStore::hash_into), with the faults still to come by
    // their content and tick rather than their place in the list. False, and
    // nothing fed, for a Redlock or Redisson run, in live mode, with an
    // outcome spill, or while faults of the scenario are not yet filed.
    // Two runs of the same variant whose hashes (with their stores') are
    // equal at the same tick continue identically. Without `events`, the
    // count of events emitted so far is left out: it numbers the events
    // (their seq) and nothing else, so two such runs continue identically
    // but for that numbering, and reach the same verdict.
    bool hash_into(StateHasher& h, bool events = true) const;

    // From this many nodes on, phase 5 asks for the electors it is about to
    // read before reading them (Elector::prefetch): their memory no longer
    // stays in the caches between a node's visits. Below it the hints would
    // only cost instructions (docs/performance.md, "The core, sixth pass").
    // Hints change no state (tests/sim/simulation/many_nodes_test.cpp).
    static constexpr std::size_t prefetch_from_nodes = 4096;

    // Per-node state.
    const std::vector<Elector>& electors() const { return electors_; }
    const std::vector<NodeFaults>& faults() const { return node_faults_; }
    const ResourceState& resource() const { return resource_; }
    const Violations& violations() const {
        return redlock_ ? redlock_->violations() : redisson_ ? redisson_->violations() : violations_;
    }
    bool in_overlap() const { return in_overlap_; }
    std::int64_t events_emitted() const {
        return redlock_ ? redlock_->events_emitted() : redisson_ ? redisson_->events_emitted() : seq_;
    }
    // A Redlock scenario's run (model.md §20): its stores and clients; null
    // for every other scenario, whose electors are the ones above.
    const RedlockRun* redlock() const { return redlock_ ? &*redlock_ : nullptr; }
    // Live mode: a Redlock run's stores answer from `live` (model.md rule
    // 20.9.4; not owned, outliving this simulation). Asserts a Redlock scenario.
    void use_redlock_stores(RedlockStoreOps* live) {
        LS_ASSERT(redlock_.has_value());
        redlock_->use_stores(live);
    }
    // A Redisson scenario's run (model.md §21); null for every other scenario.
    const RedissonRun* redisson() const { return redisson_ ? &*redisson_ : nullptr; }
    // Live mode: a Redisson run's store answers from `live` (model.md rule
    // 21.9.5; not owned, outliving this simulation). Asserts a Redisson scenario.
    void use_redisson_store(RedissonStoreOps* live) {
        LS_ASSERT(redisson_.has_value());
        redisson_->use_store(live);
    }
    std::optional<Fencing> highest_issued() const { return highest_issued_; }

    // Hands the final outcomes of finished runs to `spill` at the end of a
    // tick once more than `held_max` outcomes are held, so that a long run's
    // memory does not grow with its runs (null: keep them all, the default).
    // write_summary_line reads them back. The spill must outlive the run.
    void set_outcome_spill(OutcomeSpill* spill, std::size_t held_max);
    OutcomeSpill* outcome_spill() const { return spill_; }
    // The spill refused outcomes: run_to_end stops, the summary is incomplete.
    bool spill_failed() const { return spill_failed_; }
    // Spills done so far.
    std::int64_t spills() const { return spills_; }

    // The summary of the run so far; events and trace_sha256 are the caller's
    // (the sink saw the lines). Not after a spill (the outcomes are elsewhere).
    std::vector<RunSummary> results() const;
    TraceHeader header() const;

private:
    void add_fault_edges(std::size_t first);
    struct Call;
    static void hash_call(const Call& c, StateHasher& h);
    void hash_wire(StateHasher& h) const;
    void hash_faults(StateHasher& h) const;
    // Numbers the event and hands it to the sink.
    void emit(EventSink& sink, EventView& event);
    // The same for the event `build` returns, built only for a sink that
    // reads events (EventSink::reads_events); `build` changes no state.
    template <class Build>
    void emit_built(EventSink& sink, Build&& build) {
        if (!sink.reads_events()) {
            ++seq_;
            sink.on_unread_event();
            return;
        }
        EventView event = build();
        emit(sink, event);
    }
    bool quiescent_after(Tick t, Store& store) const;
    void phase_faults(Tick t, Store& store, EventSink& sink, std::optional<StoreError>& failure);
    void node_fault_edge(Tick t, const Fault& f, bool is_end, EventView& ev);
    // A crash fault: false when the node had crashed already (no event).
    bool crash_node(Tick t, NodeIndex node);
    void phase_expiry(Tick t, Store& store, EventSink& sink, std::optional<StoreError>& failure);
    void expire_primary(Tick t, Store& store, EventSink& sink, std::optional<StoreError>& failure);
    // An event about one run of one node: who, which run, which token.
    static EventView run_event(Tick t, Phase phase, EventOp op, const Elector& e, const RunRecord& run);
    // The event of a record that vanished because its time came (§4.3).
    static EventView expire_event(Tick t, const ExpiredRecord& r);
    void phase_work(Tick t, Store& store, EventSink& sink, std::optional<StoreError>& failure);
    // A holder's slot and its place in the acquisition order (model.md §9.6).
    struct Holding {
        SlotIndex slot = 0;
        std::int64_t acquisition = -1;
    };
    // How a fresh acquisition's number compares with those issued before it
    // (§9.4, §9.8) and its place in the acquisition order (§9.6): judged when
    // the store issues it, whenever the node learns it (§16.4).
    struct Issue {
        bool regressed = false;
        bool duplicate = false;
        std::int64_t acquisition = -1;
    };
    Issue issue(const AcquireReply& acquired);
    struct WriteVerdict {
        bool accepted = true;
        Details marks;
    };
    // The resource's verdict on one write at its arrival (§8, §9.3, §9.6, §9.7).
    WriteVerdict judge_write(const Holding& holding, Fencing fencing, bool current);
    void phase_extend(Tick t, Store& store, EventSink& sink);
    void phase_acquire(Tick t, Store& store, EventSink& sink);
    void act_in_acquire_phase(Tick t, NodeIndex n, Store& store, EventSink& sink);
    // What an acquire's reply changes besides the trace: a fresh
    // acquisition's issue and its marks counted (§9.4, §9.8), the holder's
    // place (§9.6). `issued`: the judgement made when the store applied the
    // acquire; null when it is applied now (no time on the wire). Returns the
    // judgement, for acquire_event.
    std::optional<Issue> note_acquire(const Elector& e, const StoreResult<AcquireReply>& reply,
                                      const std::optional<AcquireReply>& lost_acquire, const Issue* issued = nullptr);
    // A run that gave up without an attempt (model.md §6.2).
    static EventView skip_event(Tick t, const Elector& e, const RunRecord& run);
    // The acquire's event; `judged` is what note_acquire returned for it.
    static EventView acquire_event(Tick t, const Elector& e, const RunRecord& run,
                                   const StoreResult<AcquireReply>& reply,
                                   const std::optional<AcquireReply>& lost_acquire, const std::optional<Issue>& judged);
    void phase_ops(Tick t, Store& store, EventSink& sink, std::optional<StoreError>& failure);
    void phase_check(Tick t, Store& store, EventSink& sink);
    void spill_outcomes();
    // Phase 3's pieces: a write judged by the resource, a release answered.
    static EventView release_event(Tick t, const Elector& e, const RunRecord& run, Fencing fencing,
                                   const StoreResult<ReleaseReply>& reply);
    static EventView extend_event(Tick t, const Elector& e, const RunRecord& run,
                                  const StoreResult<ExtendReply>& reply);
    // Check, then act (model.md §5.8): a check answered in its tick, its
    // event, and what a step of the action does (true: it ended).
    WorkEffect check_now(NodeIndex node, Tick t, Store& store, EventSink& sink, std::optional<StoreError>& failure);
    static EventView check_event(Tick t, const Elector& e, const RunRecord& run, const StoreResult<Validity>& validity);
    bool work_effect(NodeIndex node, Tick t, const WorkEffect& effect, Store& store, EventSink& sink,
                     std::optional<StoreError>& failure);

    // ---- Messages on the wire (model.md §16; simulation_wire.cpp) ----
    // One call (acquire, extend, release, a check's validate) or write that takes time.
    struct Call {
        EventOp op = EventOp::acquire;
        NodeIndex node = -1;
        std::int32_t run = -1;
        Token token;
        Fencing fencing = 0;  // the run's number (release, write)
        Tick sent = 0;
        std::int64_t number = 0;  // the send number: order among arrivals of one tick
        Tick timeout_at = 0;
        Tick applied = tick_none;  // when the store applied the request
        Tick reply_at = tick_none;
        Tick keep_for = 0;         // release
        Holding holding;           // write: the writer's holding when it was sent (§9.6)
        bool ended = false;        // the node learned its answer, or gave up on it
        std::int32_t entries = 0;  // its arrivals on the wire or deferred: freed at 0, once done
        std::optional<AcquireReply> acquire;
        std::optional<Issue> issued;  // a fresh acquisition, judged when applied
        std::optional<ExtendReply> extend;
        std::optional<ReleaseReply> release;
        std::optional<Validity> validity;    // a check (model.md §5.8)
        std::optional<StoreError> error;     // the store answered an error (-NOREPLICAS, §17.4)
        std::optional<std::int32_t> server;  // answered by an old primary in split brain (§17.5)
        // WAIT (§17.6): the last tick it may block, its answer and when it came.
        Tick wait_until = tick_none;
        std::int32_t wait_count = -1;
        bool unlock = false;  // a release after a failed WAIT: no hold-off, not the run's end
    };
    // What a message of `node`'s latest run sent at t carries (a write: the
    // writer's holding, §9.6); new_call adds its place on the wire.
    Call call_for(EventOp op, NodeIndex node, Tick t) const;
    // A write arriving at t (sent at write.sent, maybe t): judged and told (§8, §16.5).
    void write_arrives(Tick t, const Call& write, Store& store, EventSink& sink, std::optional<StoreError>& failure);
    enum class Stage : std::uint8_t { request, reply, timeout, write, wait };
    // Something due on the wire: ordered by (tick, phase, sent, send number, stage).
    struct Arrival {
        Tick at = 0;
        Phase phase = Phase::work;
        Tick sent = 0;
        std::int64_t number = 0;
        Stage stage = Stage::request;
        std::int32_t call = 0;
        bool operator>(const Arrival& o) const {
            return std::tie(at, phase, sent, number, stage) > std::tie(o.at, o.phase, o.sent, o.number, o.stage);
        }
    };
    // The tick a message of `node` on `link` sent at `sent` arrives (§16.2).
    Tick arrival(NodeIndex node, Link link, Tick sent) const;
    // A call of `node` sent now takes time (else it is the immediate path of §4-§8).
    bool call_on_wire(NodeIndex node, Tick t, EventOp op = EventOp::release) const;
    Phase call_phase(const Call& c) const;
    bool write_on_wire(NodeIndex node, Tick t) const;
    std::int32_t new_call(EventOp op, NodeIndex node, Tick t);
    void push(const Arrival& a);
    // `unlock`: a release after a failed WAIT (model.md §17.6 rule 4), of the
    // acquisition numbered so.
    void send_call(EventOp op, NodeIndex node, Tick t, Tick keep_for, Store& store, EventSink& sink,
                   std::optional<StoreError>& failure, std::optional<Fencing> unlock = std::nullopt);
    void send_write(NodeIndex node, Tick t);
    void deliver(Tick t, Phase phase, Store& store, EventSink& sink, std::optional<StoreError>& failure);
    void apply_request(std::int32_t id, Tick t, Store& store, EventSink& sink, std::optional<StoreError>& failure);
    // The store sends the reply of call `id` at t (after a WAIT, when it answered).
    void send_reply(std::int32_t id, Tick t);
    void answer(std::int32_t id, Tick t, bool timed_out, Store& store, EventSink& sink,
                std::optional<StoreError>& failure);
    // The keys an answered call's event carries (model.md §12.1): the call's
    // run, token and server, and when it was sent and applied if not now.
    static void stamp_answer(EventView& ev, const Call& c);
    void answer_acquire(Call& c, Tick t, const StoreResult<AcquireReply>& reply, bool learned, EventSink& sink,
                        Store& store, std::optional<StoreError>& failure);
    void answer_extend(Call& c, Tick t, const StoreResult<ExtendReply>& reply, bool learned, EventSink& sink);
    void answer_release(Call& c, Tick t, const StoreResult<ReleaseReply>& reply, bool learned, EventSink& sink);
    void answer_check(Call& c, Tick t, const StoreResult<Validity>& reply, bool learned, Store& store, EventSink& sink,
                      std::optional<StoreError>& failure);
    void late_application(std::int32_t id, Tick t, EventSink& sink);
    void free_call(std::int32_t id);
    void free_if_done(std::int32_t id);
    void undefer(NodeIndex node, Tick t);
    void join_executing_all();
    bool wire_idle() const { return wire_.empty() && deferred_.empty(); }

    std::vector<std::uint8_t> latent_;  // per node: some latency or delay (else no message ever waits)
    std::vector<std::int32_t> delays_;  // the delay faults, in list order
    std::vector<Call> calls_;
    std::vector<std::int32_t> free_calls_;
    std::vector<Arrival> wire_;      // a min-heap
    std::vector<Arrival> deferred_;  // answers for paused nodes (§16.3)
    std::int64_t sends_ = 0;

    std::optional<RedlockRun> redlock_;
    std::optional<RedissonRun> redisson_;
    const Scenario* scenario_;
    TokenSource* tokens_;
    SplitMix64 rng_;
    std::vector<Elector> electors_;
    std::vector<NodeFaults> node_faults_;
    ResourceState resource_;
    Violations violations_;
    bool in_overlap_ = false;
    std::optional<Fencing> highest_issued_;
    IssuedNumbers issued_;  // for fencing_duplicate (§9.8)
    // The acquisition order of §9.6 (struct Holding above): fresh
    // acquisitions so far, each executing node's, and per slot the latest
    // acquisition whose holder had a write accepted (-1: none yet).
    std::int64_t acquisitions_ = 0;
    std::vector<Holding> holdings_;
    std::vector<std::int64_t> slot_latest_writer_;
    // Faults and ops in processing order: (tick, index, kind). A promoting
    // failover has up to three edges: its lag's link cut, the promotion, the
    // end of its split brain (model.md §17.3, §17.5).
    enum class EdgeKind : std::uint8_t { start, end, lag_cut, split_end };
    struct FaultEdge {
        Tick tick;
        std::int32_t fault;
        EdgeKind kind;
    };
    // ---- Replication (model.md §17; simulation_replication.cpp) ----
    void replication_edge(Tick t, const Fault& f, EdgeKind kind, Store& store, EventView& ev, bool& emitted,
                          std::optional<StoreError>& failure);
    // The server a node's calls go to now: the old primary's number when
    // split brain keeps it for this node, else -1 (the primary).
    std::int32_t server_of(NodeIndex node) const;
    // A call routed to the node's server for its lifetime (Store::route).
    class Routed {
    public:
        Routed(Store& store, std::int32_t server) : store_(store), server_(server) {
            if (server_ >= 0) store_.route(server_);
        }
        ~Routed() {
            if (server_ >= 0) store_.route(-1);
        }
        Routed(const Routed&) = delete;
        Routed& operator=(const Routed&) = delete;
        std::optional<std::int32_t> server() const {
            return server_ >= 0 ? std::optional<std::int32_t>(server_) : std::nullopt;
        }

    private:
        Store& store_;
        std::int32_t server_;
    };
    void after_attempt(Tick t, NodeIndex n, const AttemptEffect& effect,
                       const std::optional<AcquireReply>& lost_acquire, const Routed& routed, EventSink& sink);
    void expire_old_primary(Tick t, Store& store, EventSink& sink, std::optional<StoreError>& failure);
    // WAIT (model.md §17.6): checks a pending WAIT at t; true when it answered.
    bool wait_step(Call& c, std::int32_t id, Tick t, Store& store, std::optional<StoreError>& failure);
    void answer_wait(Call& c, Tick t, EventSink& sink, Store& store, std::optional<StoreError>& failure);
    std::int32_t primary_server_ = 0;
    bool has_replication_faults_ = false;
    std::int32_t split_fault_ = -1;  // the failover whose split brain is on, or -1
    std::int32_t old_primary_server_ = -1;
    std::vector<std::int32_t> link_cuts_;  // per server: cuts holding its link (model.md §17.3)
    std::vector<std::uint8_t> cut_void_;   // per fault: a replica_link ended by its server's promotion
    std::vector<FaultEdge> fault_edges_;
    std::size_t next_fault_edge_ = 0;
    std::vector<std::int32_t> op_order_;
    std::size_t next_op_ = 0;
    // Whether the next fault edge (op) is at t. Most steps have none, and
    // step() then calls no phase for it.
    bool fault_edge_at(Tick t) const {
        return next_fault_edge_ < fault_edges_.size() && fault_edges_[next_fault_edge_].tick == t;
    }
    bool op_at(Tick t) const {
        return next_op_ < op_order_.size() && scenario_->ops[static_cast<std::size_t>(op_order_[next_op_])].at == t;
    }
    Tick last_scheduled_tick_ = 0;        // the last tick at which a fault or op starts or ends
    std::vector<NodeIndex> acting_;       // scratch for phase 5
    std::vector<ExpiredRecord> expired_;  // scratch for phase 2
    // The model behind the store of the current step (Store::model()), or
    // null: node calls without a partition then go to it directly.
    ModelStore* model_ = nullptr;

    // Bookkeeping that keeps a tick's work proportional to what is due, not to
    // the number of candidates. None of it changes behaviour: the electors'
    // own predicates (run_due, attempt_due, extend_due) still decide.
    void arm(NodeIndex node);  // files a waiting or idle node under its next due tick
    void note_finished(std::size_t node, bool was_finished);
    // Nodes executing (acquired, action not ended, not crashed), sorted by
    // declared index so that phases 3 and 4 go in declared order.
    std::vector<NodeIndex> executing_;
    std::vector<NodeIndex> joined_;  // scratch: nodes that acquired in phase 5
    // Min-queue of (due tick, node) for run starts and attempts. An entry is a
    // hint: a node may have stale entries (they are skipped), and a paused node
    // whose entry came due is filed again when it resumes. Each entry is one
    // integer (wake_entry) that orders as its pair does: one comparison a
    // step, half the bytes.
    WakeQueue wake_queue_;
    static constexpr int wake_node_bits = WakeQueue::node_bits;
    static constexpr NodeIndex wake_node_max = (NodeIndex{1} << wake_node_bits) - 1;
    static std::uint64_t wake_entry(Tick due, NodeIndex node) {
        // tick_none first, then 0, 1, …: every tick a scenario reaches
        // (at most a few horizon_max) is far below 2^43.
        LS_ASSERT(due == tick_none || (due >= 0 && due < (Tick{1} << 43)));
        LS_ASSERT(node >= 0 && node < (NodeIndex{1} << wake_node_bits));
        const std::uint64_t rank = due == tick_none ? 0 : static_cast<std::uint64_t>(due) + 1;
        return rank << wake_node_bits | static_cast<std::uint64_t>(node);
    }
    static Tick wake_tick(std::uint64_t entry) {
        const std::uint64_t rank = entry >> wake_node_bits;
        return rank == 0 ? tick_none : static_cast<Tick>(rank - 1);
    }
    static NodeIndex wake_node(std::uint64_t entry) {
        return static_cast<NodeIndex>(entry & ((std::uint64_t{1} << wake_node_bits) - 1));
    }
    std::int64_t unfinished_ = 0;  // electors not in ElectorState::finished
    // Outcome spilling (set_outcome_spill): outcomes held by all electors.
    OutcomeSpill* spill_ = nullptr;
    std::size_t spill_held_max_ = 0;
    std::size_t outcomes_held_ = 0;
    std::int64_t spills_ = 0;
    bool spill_failed_ = false;
    Tick next_tick_ = 0;
    Tick end_tick_ = 0;
    bool finished_ = false;
    bool quiesced_ = false;         // finished by quiescent_after, before the horizon
    std::size_t faults_known_ = 0;  // scenario faults whose edges are filed
    std::int64_t seq_ = 0;
};

// The 128-bit hash of `sim` with its model store at a tick boundary
// (Simulation::hash_into, ModelStore::hash_into); empty where hash_into is.
std::optional<StateHasher::Digest> state_digest(const Simulation& sim, const ModelStore& store);
// The same without the count of events emitted (hash_into's `events`): the
// explorer's memo key, since a verdict does not depend on how events are
// numbered.
std::optional<StateHasher::Digest> verdict_digest(const Simulation& sim, const ModelStore& store);

// Runs a whole scenario on the model store, collecting the trace. `until`
// stops early (the summary then reports unfinished runs at that tick).
Trace simulate(const Scenario& scenario, std::optional<Tick> until = std::nullopt);

// Drives `sim` to the end against any store, calling `on_tick_begin(t)` as
// each tick begins (live mode waits for the tick's moment there). Returns the
// summary with the hash of the events `sink` saw. keep_results false leaves
// summary.results empty (a streamed run writes them with write_summary_line,
// from the electors' compact outcomes, instead of one record per run).
Result<TraceSummary, StoreError> run_to_end(Simulation& sim, Store& store, EventSink& sink,
                                            const std::function<void(Tick)>& on_tick_begin = {},
                                            std::optional<Tick> until = std::nullopt, bool keep_results = true);

// Writes the summary line of `summary` (without its newline) to `write` in
// pieces of about 64 KiB, the results taken from `sim` (summary.results is
// not read) and from its outcome spill, if any: the same bytes as
// summary_line with sim.results(), without a record per run or the whole line
// in memory. false: the spill could not be read back (the line is cut short).
bool write_summary_line(const Simulation& sim, const TraceSummary& summary,
                        const std::function<void(std::string_view)>& write);

// ---- Snapshots: the state at the end of a tick, for the GUI ----

enum class NodeStatus {
    idle,     // no run yet, or between runs
    waiting,  // trying to acquire
    running,  // executing with a current token
    stale,    // executing, but its token is no longer current
    done,     // all runs over
    crashed,
};
const char* to_string(NodeStatus);

struct NodeSnapshot {
    std::string name;
    NodeStatus status = NodeStatus::idle;
    bool paused = false;
    std::optional<PartitionMode> partition;
    std::int32_t run = -1;  // current or latest run
    Token token;
    std::optional<Fencing> fencing;  // learned by the current or latest run
    Tick progress = 0;
    Tick action = 0;
    bool believes_leader = false;  // executing: it acts as the leader
    bool watchdog = false;         // the watchdog is still running
    std::optional<RunResult> last_result;
};

// One server of a store with replicas (model.md §17), at the end of a tick.
enum class ServerRole { primary, replica, old_primary };
const char* to_string(ServerRole);
struct ServerSnapshot {
    std::int32_t server = 0;
    ServerRole role = ServerRole::primary;
    bool linked = true;             // a replica: its link to the primary is up
    std::vector<SlotRecord> slots;  // its copy of the record (validity: tick < expires_at)
    Fencing counter = 0;
    Tick holdoff_until = tick_none;
    std::int32_t good_replicas = 0;  // a primary: the replicas it counts for min_replicas_to_write (§17.4)
};

struct Snapshot {
    Tick tick = 0;
    std::vector<NodeSnapshot> nodes;
    std::vector<SlotRecord> slots;  // as stored (validity: tick < expires_at): the primary's
    // Every server, in number order, when the store has replicas (model.md §17); else empty.
    std::vector<ServerSnapshot> servers;
    Fencing counter = 0;
    Tick holdoff_until = tick_none;
    ResourceState resource;
    Violations violations;
    bool in_overlap = false;
};

Snapshot take_snapshot(const Simulation& sim, const ModelStore& store, Tick tick);

// Sees the one run of a Timeline as it is made, so that nothing needs to
// simulate the scenario a second time (the GUI's lanes read it): after each
// tick, or each stretch of quiet ticks passed at once, it gets the state at
// the end of ticks `first` … `last`. Within a stretch only the tick differs
// (take_snapshot(sim, store, t) for each t gives the state at t). It reads,
// never changes: the trace is the same with or without one.
class TickObserver {
public:
    virtual ~TickObserver() = default;
    virtual void on_ticks(const Simulation& sim, const ModelStore& store, Tick first, Tick last) = 0;
};

// The state a recorded trace describes (model.md §19.9), folded from its
// events alone, as the app replays an imported history: the record (each
// slot's token, fencing and deadline from acquire, extend, release and
// expire), what each node believes (believe events; a start makes it wait, a
// crash ends it), pauses, the resource's accepted and rejected writes, the
// overlap episodes and the violations the events mark. A node that believes
// it leads while no valid record holds its token is stale.
class ReplayFold {
public:
    explicit ReplayFold(const TraceHeader& header);
    // Apply the events in trace order.
    void apply(const Event& e);
    // The state at the end of tick `t`, every event up to `t` applied.
    Snapshot at(Tick t) const;

private:
    std::int32_t node_of(const std::string& name) const;
    void apply_store(const Event& e);
    void apply_node(const Event& e, NodeSnapshot& node);
    void count_marks(const Event& e);
    Snapshot state_;
    bool infer_beliefs_ = false;  // a trace before /4: beliefs from the answers (inferred_belief)
};

// The scenario a replay shows (model.md §19.9): the header's name, tick_ms,
// lock, capacity and candidates, a horizon of `end_tick`, resource mode
// check (a recorded resource judged every write itself), nothing else.
Scenario replay_scenario(const TraceHeader& header, Tick end_tick);

// A whole simulated run, kept for seeking: every event, plus checkpoints of
// the state every `checkpoint_every` ticks, so the snapshot at any tick costs
// at most that many ticks of re-simulation. A checkpoint is a copy of the
// whole state (every elector and its runs), so on big scenarios the spacing
// adapts: when the checkpoints together would pass `checkpoint_bytes_max`,
// the spacing doubles and every other checkpoint goes. Memory stays bounded;
// a seek then re-simulates up to checkpoint_every() ticks.
class Timeline {
public:
    static constexpr std::size_t default_checkpoint_bytes_max = std::size_t{256} << 20;

    // A recorded history replayed (model.md §19.9): an imported trace (/4),
    // or any trace read from a file. Nothing is simulated: the state at a tick
    // is folded from the events up to it (ReplayFold), from a copy of the
    // fold kept every checkpoint_every() ticks. scenario() is replay_scenario
    // of the trace's header; the trace is kept as read.
    explicit Timeline(Trace recorded, Tick checkpoint_every = 64);
    // True for a replay: its scenario only names the candidates and the lock.
    bool replayed() const { return replayed_; }

    // A run that would emit more than `events_max` events (limits::trace_events_max:
    // every event is kept in memory) stops at the first tick that passes it,
    // with limit_error() saying so; the trace then holds what came before.
    explicit Timeline(Scenario scenario, Tick checkpoint_every = 64,
                      std::size_t checkpoint_bytes_max = default_checkpoint_bytes_max, TickObserver* observer = nullptr,
                      std::int64_t events_max = limits::trace_events_max);

    // Empty, or why the run was cut short (model.md §11.6): callers refuse such a timeline.
    const std::string& limit_error() const { return limit_error_; }

    // The spacing in use (at least the one asked for).
    Tick checkpoint_every() const { return checkpoint_every_; }
    // What the checkpoints hold, estimated.
    std::size_t checkpoint_bytes() const { return checkpoint_bytes_; }

    const Scenario& scenario() const { return *scenario_; }
    const Trace& trace() const { return trace_; }
    Tick end_tick() const { return trace_.summary.end_tick; }
    // The state at the end of tick `t` (clamped to [0, end_tick]).
    Snapshot snapshot_at(Tick t) const;
    // Index of the first event at tick >= t (events.size() when none).
    std::size_t first_event_at_or_after(Tick t) const;

private:
    Snapshot replay_snapshot(Tick t) const;  // a replay's snapshot_at (timeline_replay.cpp)
    struct Checkpoint {
        Simulation sim;
        ModelStore store;
    };
    std::unique_ptr<Scenario> scenario_;  // stable address for the checkpoints
    Trace trace_;
    std::vector<Checkpoint> checkpoints_;  // state before tick k * checkpoint_every
    // A replay's: the fold of the events before tick k * checkpoint_every.
    std::vector<ReplayFold> replay_points_;
    bool replayed_ = false;
    std::vector<std::size_t> checkpoint_sizes_;  // estimated bytes of each
    Tick checkpoint_every_;
    std::size_t checkpoint_bytes_ = 0;
    std::string limit_error_;
};

}  // namespace leasescope::sim

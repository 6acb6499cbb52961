#pragma once
// The elector: one candidate's runs of `runIfLeader`, in ticks (docs/model.md §5).
// The scheduler (sim/) or run_if_leader() decides *when* each step happens; the
// elector decides *what* it does and talks to any Store.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "leasescope/engine/model_store.hpp"
#include "leasescope/engine/state_hasher.hpp"
#include "leasescope/engine/store.hpp"

namespace leasescope {

// Which of the library's two waiting loops a candidate runs (model.md §5.2):
// the single lock never attempts at its deadline, the leader group does.
enum class ElectorKind { lock, group };
const char* to_string(ElectorKind k);

// The library's watchdog period for a lease, in whole milliseconds:
// max(floor(lease_ms / 3), 25) (model.md §5.5).
inline constexpr std::int64_t watchdog_period_floor_ms = 25;
inline std::int64_t library_watchdog_period_ms(Tick lease, std::int64_t tick_ms) {
    return std::max<std::int64_t>(lease * tick_ms / 3, watchdog_period_floor_ms);
}

// The middle of tick t, t·tick_ms + tick_ms/2, where every operation of the
// tick happens for timing purposes (model.md §5.5, §13.3), in half
// milliseconds so that an odd tick_ms still has an exact middle. The
// watchdog's schedule and the live driver's pacer (redis::tick_mid_us) both
// count from it.
inline constexpr std::int64_t tick_middle_half_ms(Tick t, std::int64_t tick_ms) { return 2 * t * tick_ms + tick_ms; }

// Lettuce's default command timeout, 60 s (RedisURI.DEFAULT_TIMEOUT; the
// elector sets none of its own), in ticks: ceil(60000 / tick_ms) (model.md §16.1).
inline constexpr std::int64_t library_command_timeout_ms = 60'000;
inline constexpr Tick library_command_timeout(std::int64_t tick_ms) {
    return (library_command_timeout_ms + tick_ms - 1) / tick_ms;
}

// Redisson's slavesSyncTimeout, 1000 ms, in ticks: ceil(1000 / tick_ms) (model.md §17.6).
inline constexpr std::int64_t redisson_wait_timeout_ms = 1'000;
inline constexpr Tick library_wait_timeout(std::int64_t tick_ms) {
    return (redisson_wait_timeout_ms + tick_ms - 1) / tick_ms;
}

// Whether the action checks its leadership before each write (model.md §5.8):
// `none`, the library's action, writes at once; `validate` first calls the
// store's validate(own token) and writes only when it learns `current`.
enum class WriteCheck : std::int32_t { none, validate };
const char* to_string(WriteCheck c);

// The fields are laid out for the scheduler's hot path (docs/performance.md,
// "The core, sixth pass"): those read at every step of a run first, the few
// read only by the wire or WAIT last, the narrow ones packed together.
struct ElectorOptions {
    Tick start = 0;
    Tick wait = 0;              // waitTime
    Tick lease = 1;             // leaseTime
    Tick min_lease = 0;         // minLeaseTime, 0 <= min_lease <= lease
    Tick extend_every = 0;      // the watchdog period in ticks; 0: the library's period in ms
    std::int64_t tick_ms = 50;  // only for the watchdog's millisecond schedule
    Tick retry_every = 1;
    Tick action = 1;   // duration in active ticks
    Tick fail_at = 0;  // 0: the action never throws
    Tick hold_off = 0;
    Tick every = 0;            // ticks between scheduled run starts, when runs > 1
    std::vector<Tick> writes;  // strictly increasing offsets in [1, action]
    std::int32_t runs = 1;
    // The drift of the node's clock in ppm (model.md §3.3 rule 7): the
    // deadline, the retry poll and the watchdog run on its monotonic reading.
    std::int32_t drift_ppm = 0;
    ElectorKind elector = ElectorKind::lock;
    WriteCheck check = WriteCheck::none;  // check, then act (model.md §5.8)
    bool auto_extend = false;
    // WAIT after each fresh acquisition (model.md §17.6): 0 sends no WAIT;
    // wait_timeout in ticks, 0: Redisson's 1000 ms.
    std::int32_t wait_replicas = 0;
    Tick wait_timeout = 0;
    Tick command_timeout = 0;  // ticks a call waits for its reply; 0: the library's (model.md §16.1)
    Tick wait_timeout_ticks() const { return wait_timeout > 0 ? wait_timeout : library_wait_timeout(tick_ms); }
    Tick command_timeout_ticks() const {
        return command_timeout > 0 ? command_timeout : library_command_timeout(tick_ms);
    }
};

enum class RunResult { elected, skipped, action_failed, acquire_failed, crashed, unfinished };
const char* to_string(RunResult r);

// Where the candidate stands. `idle`: no run going (before the first, between
// runs); `finished`: no run going and none will start.
enum class ElectorState { idle, waiting, running, finished };

struct RunRecord {
    std::int32_t run = 0;
    RunResult result = RunResult::unfinished;
    Tick started_at = 0;
    Tick acquired_at = tick_none;
    Tick ended_at = tick_none;
    std::optional<Fencing> fencing;  // the number the node learned
    Token token;
};

// What is kept of every run once it is over: the result and the fencing
// number the node learned (the trace's summary, model.md §12.4). 16 bytes a
// run, so a long run with repeating runs keeps little per run.
struct RunOutcome {
    Fencing fencing = 0;
    RunResult result = RunResult::unfinished;
    bool has_fencing = false;
    std::optional<Fencing> learned() const { return has_fencing ? std::optional<Fencing>(fencing) : std::nullopt; }
};

struct AttemptEffect {
    // The store's answer; empty when the check gave up without an attempt
    // (the single lock at or after its deadline).
    std::optional<StoreResult<AcquireReply>> reply;
    std::optional<RunResult> ended;  // skipped or acquire_failed
};

struct WorkEffect {
    bool write = false;  // a write is due at this progress
    // With check "validate": the write is due, but the action first calls
    // validate(own token) and waits (model.md §5.8); learn_check() says what
    // follows. `write` and `ended` are then empty.
    bool check = false;
    std::optional<RunResult> ended;  // elected or action_failed: release next
};

class Elector {
public:
    Elector(std::string owner, ElectorOptions options);

    const std::string& owner() const { return owner_; }
    const ElectorOptions& options() const { return options_; }
    ElectorState state() const { return state_; }
    bool executing() const { return state_ == ElectorState::running; }
    // The outcomes still held, in run order: of every run started so far (the
    // last is the current or latest), less the first first_held_run() ones,
    // which forget_outcomes() let go (a streamed run keeps them elsewhere).
    const std::vector<RunOutcome>& outcomes() const { return outcomes_; }
    std::int32_t first_held_run() const { return forgotten_; }
    std::int32_t run_count() const { return forgotten_ + static_cast<std::int32_t>(outcomes_.size()); }
    // How many of the held outcomes are final: all but a run still going.
    std::size_t final_outcomes_held() const {
        const bool going = state_ == ElectorState::waiting || state_ == ElectorState::running;
        return outcomes_.size() - (going && !outcomes_.empty() ? 1 : 0);
    }
    // Lets go of the first `count` held outcomes; count <= final_outcomes_held().
    void forget_outcomes(std::size_t count);
    // The whole record of the current run, or the latest one; null before the
    // first run. Earlier runs keep only their outcome.
    const RunRecord* latest_run() const { return run_count() == 0 ? nullptr : &latest_; }
    Tick progress() const { return progress_; }
    Tick deadline() const { return deadline_; }
    Tick next_attempt() const { return next_attempt_; }
    // The tick in which the next watchdog run is due (it may have passed: a
    // late run happens at the node's next active tick).
    Tick next_extend() const;
    // The watchdog period in milliseconds (model.md §5.5).
    std::int64_t watchdog_period_ms() const;
    bool watchdog_running() const { return executing() && options_.auto_extend && !watchdog_stopped_; }
    // The tick at which the next run is scheduled; tick_none when none will.
    Tick next_run_at() const;

    // Acquiring (phase 5).
    bool run_due(Tick now, bool active) const;
    void begin_run(Tick now, Token&& token);
    bool attempt_due(Tick now, bool active) const;
    // Calls that take time (model.md §16.4): the elector sends at one tick
    // and learns the answer at a later one; meanwhile it waits. The store
    // applies the request in between (the scheduler's business).
    // begin_attempt: an ended effect when the check gives up without an
    // attempt; else the acquire request is sent and the elector waits.
    std::optional<RunResult> begin_attempt(Tick now);
    AttemptEffect learn_acquire(Tick now, StoreResult<AcquireReply>&& reply);
    AttemptEffect learn_acquire(Tick now, const StoreResult<AcquireReply>& reply) {
        return learn_acquire(now, StoreResult<AcquireReply>(reply));
    }
    // The watchdog run due now sends its extend and waits.
    void begin_extend(Tick now);
    void learn_extend(Tick now, Tick sent, const StoreResult<ExtendReply>& reply);
    // The action ends and the release is sent: the result stands, the node no
    // longer executes; the run ends when learn_release() says the answer came.
    Tick begin_release(Tick now, RunResult result);
    void learn_release(Tick now);
    // Check, then act (model.md §5.8): the answer of the check advance()
    // asked for. `current`: the write goes now, and the action ends if that
    // progress ends it; anything else (stale, vacant, a failed call): the
    // action throws, no write, the run ends action_failed (release next).
    // The tick it is learned is the write's: the progress grows again from
    // the next active tick.
    WorkEffect learn_check(Tick now, bool current);
    bool awaiting_check() const { return check_awaited_; }
    // Whether the action advances at `now`: not while its check is on the
    // wire, nor in the tick its answer came.
    bool works_at(Tick now) const { return !check_awaited_ && check_learned_at_ != now; }
    bool awaiting_reply() const { return awaiting_ != Awaiting::none; }
    bool awaiting_extend() const { return extend_awaited_; }
    // Each store-calling step has two forms: any Store (through the
    // interface) and the ModelStore (final, so called directly: the
    // simulator's path for a node without a partition). Same rules.
    AttemptEffect attempt(Tick now, Store& store) { return attempt_on(now, store); }
    AttemptEffect attempt(Tick now, ModelStore& store) { return attempt_on(now, store); }

    // Running (phase 3): one more active tick of the action.
    WorkEffect advance(Tick now);
    // How many of the next advance() calls would return an empty effect (no
    // write, no end): the action's quiet stretch before its next write or end.
    Tick quiet_advances() const;
    // Those calls made at once: `count` <= quiet_advances() active ticks of
    // the action pass, with the effects advance() would have had (none).
    void advance_quietly(Tick count);
    // Ends the action with `result` (elected or action_failed) and releases.
    StoreResult<ReleaseReply> end_action(Tick now, RunResult result, Store& store) {
        return end_action_on(now, result, store);
    }
    StoreResult<ReleaseReply> end_action(Tick now, RunResult result, ModelStore& store) {
        return end_action_on(now, result, store);
    }
    Tick keep_for(Tick now) const;

    // Watchdog (phase 4). Several runs can be due in one tick when the
    // period is shorter than a tick: call extend() while extend_due().
    bool extend_due(Tick now, bool active) const;
    StoreResult<ExtendReply> extend(Tick now, Store& store) { return extend_on(now, store); }
    StoreResult<ExtendReply> extend(Tick now, ModelStore& store) { return extend_on(now, store); }

    // The node stops for good; true when a run was going.
    bool crash(Tick now);

    // A hint, and nothing more: the scheduler is about to read this elector.
    // At 100,000 candidates a node is touched again after thousands of ticks,
    // its memory has left the caches, and the nodes due in one tick are read
    // one after another; asking for all of them first lets their misses
    // overlap (docs/performance.md, "The core, sixth pass").
    void prefetch() const {
        const char* bytes = reinterpret_cast<const char*>(this);
        for (std::size_t at = 0; at < sizeof(Elector); at += 64) __builtin_prefetch(bytes + at);
        __builtin_prefetch(bytes + sizeof(Elector) - 1);  // the last line, when this does not start one
    }
    // The same hint for the memory a run reads beyond the elector itself: the
    // outcome a starting run appends, and the action's write offsets. Cheap
    // once prefetch()'s lines have come.
    void prefetch_beyond() const {
        if (outcomes_.size() < outcomes_.capacity()) __builtin_prefetch(outcomes_.data() + outcomes_.size(), 1);
        if (!options_.writes.empty()) __builtin_prefetch(options_.writes.data());
    }

    // Feeds every member that a later step reads (docs/explorer.md, Merging
    // states), but the options and owner, which the scenario fixes.
    void hash_into(StateHasher& h) const;

private:
    static void fold_outcome(StateHasher& h, const RunOutcome& o);
    enum class Awaiting : std::uint8_t { none, acquire, release };
    template <class S>
    AttemptEffect attempt_on(Tick now, S& store);
    std::int64_t extend_moment(Tick now) const;
    void extend_answered(std::int64_t moment, const StoreResult<ExtendReply>& reply);
    template <class S>
    StoreResult<ReleaseReply> end_action_on(Tick now, RunResult result, S& store);
    template <class S>
    StoreResult<ExtendReply> extend_on(Tick now, S& store);
    void end_run(Tick now, RunResult result);
    // The node's clock (model.md §3.3 rule 7).
    DriftClock clock() const { return DriftClock{options_.tick_ms, options_.drift_ppm}; }
    // The true moment (half ms) at which the watchdog's next run is due when
    // the previous one ran (or the lease began) at true moment `moment`.
    std::int64_t watchdog_due_after(std::int64_t moment) const;

    // The members are laid out for the scheduler's hot path (docs/performance.md,
    // "The core, sixth pass"): at 100,000 candidates a node is touched again
    // after thousands of ticks, and each cache line of it then costs a miss.
    // What a tick's checks read and write comes first, then the options, then
    // the record of the run; what only hashing or a rare step reads last.
    ElectorState state_ = ElectorState::idle;
    // A call in flight (model.md §16.4): an acquire or release blocks the
    // run; an extend blocks the watchdog only.
    Awaiting awaiting_ = Awaiting::none;
    bool attempted_ = false;  // the run's first check always attempts (do-while)
    bool watchdog_stopped_ = false;
    bool extend_awaited_ = false;
    // A check in flight (model.md §5.8): the action waits; what the offset
    // that asked for it would have ended, once the write is sent.
    bool check_awaited_ = false;
    std::int32_t forgotten_ = 0;  // runs whose outcomes were let go
    Tick deadline_ = 0;
    Tick next_attempt_ = 0;
    Tick progress_ = 0;
    std::size_t next_write_ = 0;
    // The moment the next watchdog run is due, in half milliseconds (so that
    // the middle of a tick, t·tick_ms + tick_ms/2, is a whole number).
    std::int64_t next_extend_half_ms_ = 0;
    Tick check_learned_at_ = tick_none;
    std::vector<RunOutcome> outcomes_;
    ElectorOptions options_;
    RunRecord latest_;
    std::optional<RunResult> check_then_ended_;
    std::int64_t extend_sent_half_ms_ = 0;  // the moment the extend in flight was sent
    std::string owner_;
    // The outcomes before the last one (no longer changed) folded into a
    // hash, so that hash_into need not walk them all: the first
    // `outcomes_folded_` of them, folded by hash_into when it is asked (the
    // simulation alone never pays for it). A cache of outcomes_, which is why
    // it may change in a const hash_into.
    mutable StateHasher settled_outcomes_;
    mutable std::int32_t outcomes_folded_ = 0;
};

extern template AttemptEffect Elector::attempt_on<Store>(Tick, Store&);
extern template AttemptEffect Elector::attempt_on<ModelStore>(Tick, ModelStore&);
extern template StoreResult<ReleaseReply> Elector::end_action_on<Store>(Tick, RunResult, Store&);
extern template StoreResult<ReleaseReply> Elector::end_action_on<ModelStore>(Tick, RunResult, ModelStore&);
extern template StoreResult<ExtendReply> Elector::extend_on<Store>(Tick, Store&);
extern template StoreResult<ExtendReply> Elector::extend_on<ModelStore>(Tick, ModelStore&);

}  // namespace leasescope

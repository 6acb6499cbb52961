#pragma once
// The explorer: adds fault schedules to a base scenario, runs each
// one deterministically and looks for a schedule that breaks a property
// (overlap, unsafe_write, fencing_regressed, liveness, and the marks of
// model.md §9.6-§9.8). It hands back the smallest counterexample: fewest
// added faults, then the smallest faults, then the earliest.
//
// The search is pure and, apart from ExploreControl's atomics, holds no shared
// mutable state: every evaluate_* member is const and safe to call from many
// threads at once. Threads belong to the caller (the CLI, the GUI); the result
// depends only on the base, the options and the seed, never on how the work
// was split into chunks or how many threads ran them.
#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "leasescope/engine/prng.hpp"
#include "leasescope/engine/result.hpp"
#include "leasescope/engine/state_hasher.hpp"
#include "leasescope/sim/limits.hpp"
#include "leasescope/sim/scenario.hpp"
#include "leasescope/sim/trace.hpp"

namespace leasescope::sim {

namespace explore_detail {
struct MergeProbe;
}

// Limits on a budget, defined with every other limit in limits.hpp.
using limits::explore_atoms_max;
using limits::explore_clock_jump_steps_max;
using limits::explore_delay_max;
using limits::explore_draws_max;
using limits::explore_faults_max;
using limits::explore_grid_size_max;
using limits::explore_lag_max;
using limits::explore_link_cut_max;
using limits::explore_pause_max;
using limits::explore_shards_max;
using limits::explore_shuffles_max;
using limits::explore_start_every_max;

// The properties a schedule is checked against. As a filter (options), true
// means "check it"; in a verdict, true means "it failed".
struct Properties {
    bool overlap = false;  // more than capacity nodes executing: expected with bare leases, so opt-in
    bool unsafe_write = true;
    bool fencing_regressed = true;
    bool liveness = true;  // some run of some node ends elected
    // The safety marks of model.md §9.6-§9.8: opt-in (or "all").
    bool stale_after_successor = false;
    bool holder_rejected = false;
    bool fencing_duplicate = false;
    bool any() const {
        return overlap || unsafe_write || fencing_regressed || liveness || stale_after_successor || holder_rejected ||
               fencing_duplicate;
    }
    bool operator==(const Properties&) const = default;
};
// "overlap,unsafe_write,fencing_regressed,liveness,stale_after_successor,
// holder_rejected,fencing_duplicate" (any subset, or "all"); "safety" is
// every one of them but overlap and liveness (docs/explorer.md, Properties).
Result<Properties, std::string> parse_properties(std::string_view text);
std::string to_string(const Properties& properties);  // comma-separated, in the order above

// The fault kinds the explorer may add. On a Redlock scenario (model.md
// §20) Explorer::create keeps pause, crash, partition (of a node from every
// store), clock_jump (of one store's clock) and restart (of one store), and
// turns the rest off; restarts only there. Delays and clock jumps are added
// only when their budget is given (ExploreOptions::max_delay,
// max_clock_jump_ms); Explorer::create turns them off otherwise. The
// replication kinds (model.md §17) only for a store with replicas, where a
// failover always promotes (§17.3 rule 5): Explorer::create turns
// replica_link and failover_promote off without replicas, and
// failover_leases and failover_all off with them.
struct FaultMenu {
    bool pause = true;
    bool partition_drop_requests = true;
    bool partition_drop_replies = true;
    bool crash = true;
    bool failover_leases = true;
    bool failover_all = true;
    bool delay_request = true;  // model.md §7.6, one per link
    bool delay_reply = true;
    bool delay_write = true;
    bool clock_jump_forward = true;  // the store's clock (model.md §7.5)
    bool clock_jump_back = true;
    bool replica_link = true;      // a cut of one replica's link (model.md §17.2)
    bool failover_promote = true;  // a failover promoting a replica, with a lag (§17.3)
    // Redlock only (model.md §20.3): a store's restart, by what it keeps.
    bool restart_none = true;
    bool restart_everysec = true;
    bool restart_always = true;
    bool delays() const { return delay_request || delay_reply || delay_write; }
    bool clock_jumps() const { return clock_jump_forward || clock_jump_back; }
    bool restarts() const { return restart_none || restart_everysec || restart_always; }
    bool any() const {
        return pause || partition_drop_requests || partition_drop_replies || crash || failover_leases || failover_all ||
               delays() || clock_jumps() || replica_link || failover_promote || restarts();
    }
    static FaultMenu none() {
        return FaultMenu{false, false, false, false, false, false, false, false,
                         false, false, false, false, false, false, false, false};
    }
};
// A fault's size in ticks, as the ranking counts it (docs/explorer.md,
// Ranking): a pause's, partition's or link cut's length, a delay's extra
// ticks, a store clock jump's |ms| in ticks (rounded up), a promoting
// failover's lag; 0 for a crash and a failover that loses.
std::int64_t fault_magnitude(const Fault& fault, std::int64_t tick_ms);

// "pause,partition,crash,failover,delay,clock_jump,replica_link"; a kind may
// be narrowed with a colon: partition:drop_requests, partition:drop_replies,
// failover:leases, failover:all, failover:promote, delay:request,
// delay:reply, delay:write, clock_jump:forward, clock_jump:back. "restart"
// (Redlock) narrows to restart:none, restart:everysec, restart:always.
// "all" is everything.
Result<FaultMenu, std::string> parse_fault_kinds(std::string_view text);
std::string to_string(const FaultMenu& menu);

// One item of such a list, read on its own, as the checks of a list name
// it: `all` marks the item "all", which stands for whatever the scenario
// and the budget allow and so is never refused.
struct FaultKindItem {
    std::string text;
    FaultMenu menu;
    bool all = false;
};
Result<std::vector<FaultKindItem>, std::string> fault_kind_items(std::string_view text);

// The kinds of `wanted` that can be added to `s`, by its client and its
// store: the one statement of those rules, which the explorer, the
// exercises and the command line's checks share (docs/explorer.md, With
// replicas, On Redlock, On Redisson). With replicas every failover promotes
// (model.md §17.3 rule 5), without them nothing is cut or promoted; neither
// Redlock nor Redisson has a failover or replicas, and Redisson no delay
// either (§21.1 rule 4); a restart is a Redlock store's (§20.3); on Redlock a
// partition holds messages whatever its mode (§20.7), so drop_replies is
// folded into drop_requests, the form the scenario file gets.
FaultMenu fault_kinds_for(const Scenario& s, FaultMenu wanted);

// Fault sizes on a grid (`--grid kind=LO..HI`; docs/explorer.md, Grids): a
// kind with a grid lays out those sizes, in ticks, ascending, instead of
// every size 1 … its maximum (--max-pause, --max-delay, --max-clock-jump-ms).
struct SizeGrids {
    std::vector<Tick> pause;
    std::vector<Tick> partition;
    std::vector<Tick> delay;       // a delay's extra ticks
    std::vector<Tick> clock_jump;  // a jump of the store's clock, in whole ticks (back and forward)
    bool any() const { return !pause.empty() || !partition.empty() || !delay.empty() || !clock_jump.empty(); }
    Tick longest() const;  // the largest size of any grid, 0 without one
    bool operator==(const SizeGrids&) const = default;
};
// The grid of lo … hi ticks: lo, hi, and between them 1, 2 and 5 times each
// power of ten milliseconds (100 ms, 200 ms, 500 ms, 1 s, 2 s, …), each
// rounded to the nearest whole tick, ascending, without repeats.
std::vector<Tick> size_grid(Tick lo, Tick hi, std::int64_t tick_ms);
// One `--grid` value, "kind=LO..HI" (kind pause, partition, delay or
// clock_jump; LO and HI whole ticks or durations such as "100ms", "60s" that
// are whole ticks of tick_ms), into its kind's grid. The error names the
// flag and, for a duration that is not whole ticks, the nearest ones.
Result<Unit, std::string> parse_grid(std::string_view text, std::int64_t tick_ms, SizeGrids& grids);
// `--start-every` (docs/explorer.md, Start ticks on a grid): whole ticks, or a
// duration of whole ticks of tick_ms, 1 to explore_start_every_max ticks; the
// error names the flag (and the two nearest whole ticks).
Result<Tick, std::string> parse_start_every(std::string_view text, std::int64_t tick_ms);
// The start ticks a search covers: "0..3800", or on a grid "0..3800 every 10
// ticks (500ms)".
std::string starts_text(Tick max_tick, Tick start_every, std::int64_t tick_ms);
// "pause=2..1200 (15 sizes)", one per kind with a grid, comma-separated.
std::string to_string(const SizeGrids& grids, std::int64_t tick_ms);

struct ExploreOptions {
    int max_faults = 2;  // added faults per schedule, 0 … explore_faults_max
    FaultMenu kinds;
    Tick max_pause = 8;  // pauses and partitions last 1 … max_pause ticks
    // Delays (model.md §7.6) add 1 … max_delay ticks to the messages one node
    // sends on one link in one tick (a window of 1 tick). 0: no delays.
    Tick max_delay = 0;
    // Jumps of the store's clock (model.md §7.5) of ±tick_ms, ±2·tick_ms, …
    // up to this many milliseconds (whole ticks). 0: no clock jumps.
    std::int64_t max_clock_jump_ms = 0;
    // With replicas (model.md §17): cuts of a replica's link last 1 …
    // max_link_cut ticks, and a promoting failover lags 0 … max_lag ticks
    // (at most its tick). Unused without replicas.
    Tick max_link_cut = 8;
    Tick max_lag = 2;
    // Faults start at ticks 0 … max_tick. Default: the base's end tick plus
    // max(max_pause, max_delay, the longest jump in ticks, max_link_cut when
    // links are cut) · max_faults (added pauses, delays and cuts can stretch
    // the run that long), capped at the horizon.
    std::optional<Tick> max_tick;
    // Faults start only at ticks 0, start_every, 2·start_every, … up to
    // max_tick (`--start-every`; docs/explorer.md, Start ticks on a grid), so
    // a search and its proof cover those starts alone. 1: every tick.
    Tick start_every = 1;
    // Besides the base's own order, try order = "shuffled" with seeds
    // base.seed + 1 … base.seed + shuffles.
    int shuffles = 2;
    Properties properties;
    // Skip schedules with a fault that provably changes nothing. Off only to
    // check the pruning itself (the counterexample must be the same).
    bool prune = true;
    // Lay out only the atoms of this magnitude (fault_magnitude), within the
    // ranges above: one step of minimize()'s upward scan. Not written into
    // a shard's result file, so a search with it is never split (an
    // assertion in shard_result_to_json).
    std::optional<std::int64_t> only_magnitude;
    SizeGrids grids;  // empty: every size up to the maxima above
    // Run each schedule from the checkpoint of its prefix rather than from
    // tick 0 (docs/explorer.md, Forking from checkpoints). The answer and
    // every counter but the simulated ticks are the same either way; off
    // only to check that.
    bool fork = true;
    // Stop a run at a state already reached by another run of the same
    // chunk and take that run's verdict (docs/explorer.md, Merging states).
    // The answer and every counter but ticks, merged and states are the
    // same either way (`--no-merge`).
    bool merge = true;
    // With merge: skip the subtree of schedules of a prefix that reached a
    // state whose subtree a prefix before it searched whole with nothing
    // failing, and take its counters (docs/explorer.md, Sharing subtrees).
    // Same answer and counters but ticks, merged and states; off only to
    // check that.
    bool share = true;
    // The most states one chunk's memo keeps (each about 72 bytes with its
    // share of the table): 2^19, about 40 MB per thread; and, apart, the
    // most subtrees it keeps (about 130 bytes each). Then it keeps no more
    // and the search goes on exactly, with fewer merges.
    std::size_t merge_states_max = std::size_t{1} << 19;
};
// Sizes of pauses and partitions scaled to a scenario (docs/explorer.md,
// "Sizes scaled to the scenario"), the budget `explore --minimize` and the
// app's Find panel use when none is given: up to the longest lease, action
// or waitTime of its candidates (at most explore_grid_size_max ticks); every
// length (max_pause) when that is at most scaled_every_size_max ticks, else
// the 1-2-5 grid from one tick for each of the two kinds that options.kinds
// has and that has no grid yet.
inline constexpr Tick scaled_every_size_max = 64;
Tick scaled_size_max(const Scenario& scenario);
void scale_fault_sizes(const Scenario& scenario, ExploreOptions& options);

// One schedule: an order variant plus added faults, as indices into
// Explorer::atoms() in increasing order (atoms are sorted by tick first).
struct Schedule {
    std::int32_t variant = 0;  // 0: the base's order and seed; v >= 1: shuffled, seed base.seed + v
    std::vector<std::int32_t> atoms;
    bool operator==(const Schedule&) const = default;
};

// What one run of a schedule did.
struct Verdict {
    Violations violations;
    bool elected = false;  // some run ended elected
    Properties failed;     // only the checked properties can be true here
    Tick end_tick = 0;
    bool fails() const { return failed.any(); }
    bool operator==(const Verdict&) const = default;
};

// Counters of a search. schedules = simulated + pruned + invalid: a schedule
// is pruned when one of its faults provably cannot change the outcome (so a
// schedule with fewer faults, also in the budget, behaves the same), invalid
// when two of its pauses or partitions overlap on one node.
struct SearchStats {
    std::uint64_t schedules = 0;  // saturates at UINT64_MAX for absurd budgets
    std::uint64_t simulated = 0;
    std::uint64_t pruned = 0;
    std::uint64_t invalid = 0;
    std::uint64_t failing = 0;  // simulated schedules that broke a checked property
    std::uint64_t ticks = 0;    // simulated ticks, counting the runs made only to prune
    // Merging (docs/explorer.md, Merging states): simulated schedules whose
    // run stopped at a state a run before it had reached (their verdict is
    // that run's), and the distinct states the memo kept. Both, like the
    // ticks, depend on how the work was cut into chunks; the others do not.
    std::uint64_t merged = 0;
    std::uint64_t states = 0;
    void add(const SearchStats& other);
};
// The counters by the names the JSON documents give them (a shard's result
// file, explore --format json; docs/cli-json.md), in that order: what writes
// and reads them iterates this one list.
inline constexpr std::array<std::pair<std::string_view, std::uint64_t SearchStats::*>, 8> search_stats_fields{{
    {"schedules", &SearchStats::schedules},
    {"simulated", &SearchStats::simulated},
    {"pruned", &SearchStats::pruned},
    {"invalid", &SearchStats::invalid},
    {"failing", &SearchStats::failing},
    {"ticks", &SearchStats::ticks},
    {"merged", &SearchStats::merged},
    {"states", &SearchStats::states},
}};

// Progress and cancellation, shared with a caller on another thread. The
// explorer adds to the counters after each work unit and checks `cancel`
// between schedules.
struct ExploreControl {
    std::atomic<bool> cancel{false};
    std::atomic<std::uint64_t> schedules_done{0};
    std::atomic<std::uint64_t> ticks_done{0};
    std::atomic<int> level{0};  // exhaustive: the fault count being searched
};

// The result of evaluating a range of work units or draws.
struct ChunkResult {
    SearchStats stats;
    std::optional<Schedule> best;  // the best-ranked failing schedule of the range
    std::uint64_t best_draw = 0;   // random mode: the draw that produced `best`
    bool complete = true;          // false when cancelled part way
};

class Explorer {
public:
    // Checks the options against the base and lays out the atoms (every single
    // fault the budget allows). The base is copied.
    static Result<Explorer, std::string> create(const Scenario& base, const ExploreOptions& options);

    const Scenario& base() const { return variants_.front(); }
    const ExploreOptions& options() const { return options_; }
    // Whether prefixes that meet share their subtrees (docs/explorer.md,
    // Sharing subtrees): merging and sharing on, runs forked from
    // checkpoints, and no link cut or promotion in the budget.
    bool shares_subtrees() const;
    // The scenario a variant runs: the base, or the base shuffled with another seed.
    const Scenario& variant(std::int32_t v) const { return variants_.at(static_cast<std::size_t>(v)); }
    std::int32_t variant_count() const { return static_cast<std::int32_t>(variants_.size()); }
    Tick base_end_tick() const { return base_end_tick_; }
    Tick max_tick() const { return max_tick_; }
    // Every fault the budget allows, valid beside the base's own faults, in
    // canonical order: tick, kind (pause, partition, crash, failover,
    // clock_jump, delay, replica_link), node, duration, mode, loss,
    // milliseconds, link, extra ticks, server, lag. Left out: a pause or partition ending exactly where one
    // of the base's own (same node, same kind) starts, since the scheduler
    // would let its end cancel the base's fault.
    const std::vector<Fault>& atoms() const { return atoms_; }

    // ---- Exhaustive search, one fault count ("level") at a time ----
    // Work units of a level: level 0 has one per variant (the base itself);
    // level k >= 1 one per (variant, first fault), each covering every
    // schedule of k faults that starts with that fault.
    std::uint64_t level_units(int level) const;
    // Schedules in the budget with exactly `level` faults (saturating).
    std::uint64_t level_schedules(int level) const;
    // Evaluates units begin, begin + stride, … below end of a level. Thread-safe.
    ChunkResult evaluate_level(int level, std::uint64_t begin, std::uint64_t end, ExploreControl* control = nullptr,
                               std::uint64_t stride = 1) const;

    // ---- Random search ----
    // Draw `index` of the stream of `seed`: 1 … max_faults faults picked
    // uniformly among the atoms, and a variant. Independent of other draws.
    Schedule draw(std::uint64_t seed, std::uint64_t index) const;
    // Evaluates draws begin, begin + stride, … below end. Thread-safe.
    ChunkResult evaluate_draws(std::uint64_t seed, std::uint64_t begin, std::uint64_t end,
                               ExploreControl* control = nullptr, std::uint64_t stride = 1) const;

    // ---- One schedule ----
    Verdict check(const Schedule& schedule) const;
    // Whether `a` ranks before `b` (docs/explorer.md, Ranking): fewer
    // faults, then fewer faults without a size (a crash, a failover that
    // loses), then a smaller total magnitude (fault_magnitude), then earlier
    // fault ticks, then a lower variant, then lower atom indices. A total
    // order, so a search's answer does not depend on how it was split.
    static bool ranks_before(const Schedule& a, const Schedule& b, const std::vector<Fault>& atoms,
                             std::int64_t tick_ms);
    bool ranks_before(const Schedule& a, const Schedule& b) const {
        return ranks_before(a, b, atoms_, variants_.front().tick_ms);
    }
    // The sum of the added faults' magnitudes, in ticks.
    std::int64_t magnitude(const Schedule& schedule) const;
    // A failing schedule made smaller while it still fails: faults removed,
    // the base order preferred, durations shortened, faults moved earlier.
    Schedule shrink(const Schedule& failing) const;
    // The schedule as a scenario: the variant plus the added faults after the
    // base's own.
    Scenario to_scenario(const Schedule& schedule) const;

    // What is due at each tick of one run, recorded so that a fault added
    // at a later tick can be judged (relevant or not) without simulating it.
    // Rows are ticks first … first + rows - 1, each the state before the tick.
    struct DueTable {
        Tick first = 0;
        std::int32_t nodes = 0;
        std::vector<Tick> act_due;        // per (tick, node): first tick >= t at which the node acts
        std::vector<Tick> call_due;       // per (tick, node): first tick >= t at which it calls the store
        std::vector<std::uint8_t> flags;  // per tick: see explore_space.cpp
    };
    struct Worker;

private:
    Explorer() = default;
    void run_unit(Worker& worker, int level, std::uint64_t unit, ChunkResult& out) const;
    void visit(Worker& worker, int level, std::int32_t variant, std::size_t depth, const DueTable& table,
               std::int32_t atom, ChunkResult& out) const;
    // The children of worker.prefix (its due table in worker.tables[depth]),
    // sharing subtrees where the prefix meets a state searched before.
    void visit_children(Worker& worker, int level, std::int32_t variant, std::size_t depth, std::int32_t atom,
                        ChunkResult& out) const;
    // The prefix's state at tick t before any fault of t, or none when its
    // run ended before t or its state is not hashed.
    std::optional<StateHasher::Digest> subtree_state(Worker& worker, std::int32_t variant, std::size_t depth, Tick t,
                                                     std::uint64_t& ticks) const;
    Verdict run(Worker& worker, std::int32_t variant, const std::vector<std::int32_t>& atoms, DueTable* record,
                Tick record_from, std::uint64_t& ticks) const;
    Verdict run_faults(const Scenario& scenario) const;
    void put_faults(Worker& worker, std::int32_t variant, const std::vector<std::int32_t>& atoms) const;
    // The verdict of worker.prefix, forked from the checkpoint of its prefix
    // (docs/explorer.md, Forking from checkpoints); with `record`, the due
    // table from its last fault's tick, and the checkpoint its children fork from.
    Verdict fork_run(Worker& worker, std::int32_t variant, DueTable* record, std::uint64_t& ticks) const;
    // Merging states (docs/explorer.md): a run's probe into the worker's memo
    // (null when the search does not merge).
    explore_detail::MergeProbe* probe(Worker& worker, std::int32_t variant, bool records,
                                      explore_detail::MergeProbe& storage) const;
    Fault draw_clock_jump(SplitMix64& rng, Tick at) const;
    Fault draw_delay(SplitMix64& rng, Tick at, std::uint64_t nodes) const;
    std::uint32_t draw_stores(SplitMix64& rng) const;
    Fault draw_replication(SplitMix64& rng, Tick at, bool cut) const;
    Fault draw_restart(SplitMix64& rng, Tick at) const;
    void consider(const Schedule& schedule, const Verdict& verdict, std::uint64_t draw, ChunkResult& out) const;

    ExploreOptions options_;
    std::vector<Scenario> variants_;
    std::vector<Fault> atoms_;
    std::vector<DueTable> base_tables_;  // per variant: what is due at each tick of the bare base
    Tick base_end_tick_ = 0;
    Tick max_tick_ = 0;
    // Exhaustive levels fork runs from checkpoints (false: every schedule
    // from tick 0, for Redlock and Redisson, whose clients copy their faults
    // when built, and when ExploreOptions::fork is off).
    bool forks_ = true;
};

// ---- A whole search ----

enum class ExploreMode { exhaustive, random };

// Runs run_chunk(c) exactly once for every c in [0, count), on any threads,
// and returns when all have returned.
using ChunkRunner = std::function<void(std::size_t count, const std::function<void(std::size_t)>& run_chunk)>;

struct ExploreRun {
    ExploreMode mode = ExploreMode::exhaustive;
    std::uint64_t seed = 0;    // random mode
    std::uint64_t draws = 0;   // random mode
    std::uint64_t chunk = 16;  // units or draws per chunk; the result does not depend on it
    ChunkRunner runner;        // empty: chunks run in order on the caller's thread
    // One part of a search split across machines: of every level's work
    // units (exhaustive) or of the draws (random), this run takes those whose
    // index is `shard` modulo `shards`. Round-robin rather than contiguous
    // ranges, because units differ in size. merge_shard_reports() combines
    // the parts into the report of the whole search.
    std::uint64_t shard = 0;
    std::uint64_t shards = 1;
    // Random: shrink the best failing draw into `found`. A shard leaves
    // that to the merge (false), which shrinks once.
    bool shrink = true;
};

struct LevelReport {
    int faults = 0;
    SearchStats stats;
};

struct ExploreReport {
    bool complete = true;             // false when cancelled
    std::vector<LevelReport> levels;  // exhaustive: each fault count searched, in order
    SearchStats totals;
    // The counterexample: the best-ranked failing schedule (exhaustive), or
    // the best-ranked failing draw after shrinking (random). Exhaustive and
    // stopped (complete false): the best-ranked failing schedule of the part
    // of the last level searched, if any; it fails, but a schedule of as many
    // faults that ranks before it may exist.
    std::optional<Schedule> found;
    std::optional<Schedule> drawn;  // random: the failing draw before shrinking
    std::uint64_t drawn_index = 0;  // random: its index in the seed's stream
};

// Exhaustive: levels 0, 1, … max_faults, stopping after the first level with
// a failure, whose best-ranked failing schedule is then the smallest overall.
// Random: `draws` draws of `seed`, the best-ranked failure shrunk.
// With run.shards > 1, only that part of the search (see ExploreRun::shard).
// It is an ExploreSession stepped a whole level (or all draws) at a time.
ExploreReport explore(const Explorer& explorer, const ExploreRun& run, ExploreControl* control = nullptr);

// The reports of parts 0 … shards − 1 of one search (each made with the same
// explorer and run but for ExploreRun::shard) combined into the report the
// whole search gives: per-level counters summed up to the first level where
// any part failed (a part stops after its own first failing level, which can
// only rank worse), the best-ranked failure of that level; in random mode the
// counters summed and the best-ranked failing draw (lowest index on a tie),
// shrunk here. `parts[k]` is part k.
ExploreReport merge_shard_reports(const Explorer& explorer, const ExploreRun& run,
                                  const std::vector<ExploreReport>& parts);

// The search, advanced a few work units at a time by the caller: for a GUI
// frame loop that wants progress without a thread, and the loop explore()
// runs. Each step's units are cut into chunks handed to run.runner (in
// order on this thread when it is empty). The explorer must outlive the
// session; `control`, when given, gets progress and may cancel.
class ExploreSession {
public:
    ExploreSession(const Explorer& explorer, ExploreRun run, ExploreControl* control = nullptr);
    // Evaluates up to `units` work units (exhaustive) or draws (random) of
    // this run's part. Returns true once the search is over.
    bool step(std::uint64_t units);
    bool done() const { return done_; }
    // The report so far (levels finished, totals); final once done().
    const ExploreReport& report() const { return report_; }
    // Exhaustive: the level being searched, and how far into it (counting
    // only this run's part of the units).
    int level() const { return level_; }
    std::uint64_t position() const { return next_; }
    std::uint64_t total() const { return total_; }

private:
    void begin_level();
    ChunkResult evaluate(std::uint64_t begin, std::uint64_t end) const;
    const Explorer* explorer_;
    ExploreRun run_;
    ExploreControl* control_ = nullptr;
    ExploreReport report_;
    ChunkResult current_;  // the level (or the draws) so far
    int level_ = 0;
    std::uint64_t next_ = 0;
    std::uint64_t total_ = 0;
    bool done_ = false;
};

// ---- The smallest single fault of each kind (explore --minimize) ----
// docs/explorer.md, "The smallest fault that breaks it".

// The kinds minimize() answers for: the top-level ones of --fault-kinds.
enum class FaultClass { pause, partition, crash, failover, delay, clock_jump, replica_link, failover_promote, restart };
// "pause", "partition", "crash", "failover", "delay", "clock_jump",
// "replica_link", "failover:promote", "restart".
std::string_view to_string(FaultClass kind);

struct KindThreshold {
    FaultClass kind = FaultClass::pause;
    bool sized = true;  // false: a crash or a failover that loses (magnitude 0)
    // The sizes the budget holds for this kind, in ticks (fault_magnitude),
    // scanned upward from `smallest`.
    std::int64_t smallest = 0;
    std::int64_t largest = 0;
    // On a grid (--grid): the sizes scanned, smallest … largest; the proof
    // then holds between two grid points. Empty: every size in between.
    std::vector<std::int64_t> grid;
    // The sizes the scan searches, upward: the grid, or every size
    // smallest … largest.
    std::vector<std::int64_t> sizes() const;
    // The first size at which a single fault of this kind breaks a checked
    // property; every smaller size was checked whole and none did.
    std::optional<std::int64_t> threshold;
    // The explorer of that size's step (its atoms are that size only) and
    // the best-ranked failing schedule in its terms, for make_counterexample.
    std::optional<Explorer> step;
    std::optional<Schedule> found;
    SearchStats stats;  // every single fault of this kind checked
};

struct MinimizeReport {
    bool complete = true;  // false when cancelled
    SearchStats base;      // the base alone, every order variant
    Tick max_tick = 0;     // faults started at ticks 0 … max_tick
    Tick start_every = 1;  // every start_every-th of them (ExploreOptions)
    int variants = 1;      // order variants searched
    // The base explorer (no atoms); when the base fails on its own, the
    // failing variant (with no fault) in its terms, and no kind is scanned.
    std::optional<Explorer> explorer;
    std::optional<Schedule> base_fails;
    std::vector<KindThreshold> kinds;  // in FaultClass order, those the budget adds
    SearchStats totals;
};

// Per kind of options.kinds (as Explorer::create narrows it), the smallest
// single fault that breaks a checked property, by an exact upward scan of
// the sizes. options.max_faults must be 1 (one fault at a time); max_tick
// defaults as for that. run must be exhaustive and unsplit; its runner and
// chunk are used as explore() uses them, so the answer does not depend on
// them. An error for a bad budget. It is a MinimizeSession stepped to its end.
Result<MinimizeReport, std::string> minimize(const Scenario& base, const ExploreOptions& options, const ExploreRun& run,
                                             ExploreControl* control = nullptr);

// minimize(), advanced a few work units at a time by the caller (the app's
// Find panel, which has no thread for it): the base alone, then each kind's
// sizes upward, each size an ExploreSession of one added fault on an
// explorer of that size only. The base scenario must outlive the session,
// which stays where it was made (its sessions point into it).
class MinimizeSession {
public:
    // A bad budget leaves error() set and the session done.
    MinimizeSession(const Scenario& base, const ExploreOptions& options, ExploreRun run,
                    ExploreControl* control = nullptr);
    MinimizeSession(const MinimizeSession&) = delete;
    MinimizeSession& operator=(const MinimizeSession&) = delete;
    // Passes `units` to the search of the size being scanned (one
    // ExploreSession::step), and moves on to the next size, kind or the end
    // when that search is over. Returns true once the whole scan is over.
    bool step(std::uint64_t units);
    bool done() const { return done_; }
    const std::string& error() const { return error_; }
    // The report so far: the kinds scanned, and the one being scanned with
    // the sizes below it that held; final once done().
    const MinimizeReport& report() const { return report_; }
    MinimizeReport take_report() &&;
    // Progress: the kind being scanned (an index into report().kinds; -1
    // while the base runs alone), its size being searched (an index into
    // its sizes) and how many sizes it has, and the search of that size.
    std::int32_t kind() const { return kind_; }
    std::size_t size_index() const { return size_; }
    std::size_t size_count() const { return sizes_.size(); }
    const ExploreSession* search() const { return session_.get(); }

private:
    bool open_next();
    void close_size();
    const Scenario* base_;
    ExploreOptions options_;  // max_tick and kinds as the base explorer set them
    ExploreRun run_;
    ExploreControl* control_;
    MinimizeReport report_;
    std::vector<FaultClass> classes_;  // the kinds still to scan, in FaultClass order
    std::int32_t kind_ = -1;
    std::vector<std::int64_t> sizes_;
    std::size_t size_ = 0;
    std::unique_ptr<Explorer> size_explorer_;
    std::unique_ptr<ExploreSession> session_;
    std::string error_;
    bool done_ = false;
};

// ---- The counterexample, as facts ----
// Words are the shells' (leasescope/words/counterexample_words.hpp renders
// these from the "explore.*" keys of assets/i18n).

// One act of a node in the trace: who, with which fencing number, when.
struct Act {
    std::string node;
    Fencing fencing = 0;
    Tick tick = 0;
};

// What the trace of a counterexample shows for one failed property
// (docs/model.md §9 for the invariants).
struct Failure {
    enum class Property {
        unsafe_write,
        fencing_regressed,
        overlap,
        liveness,
        stale_after_successor,
        holder_rejected,
        fencing_duplicate
    };
    Property property = Property::liveness;
    Tick tick = 0;  // when it shows: the late write, the low acquire, the overlap's start, the end (liveness)
    // unsafe_write: the write accepted late, and the accepted write with the
    // highest fencing number before it. fencing_regressed: the acquire with
    // the low number, and the acquire with the highest number before it.
    // stale_after_successor: the late write, and the last accepted write
    // before it of a successor of its slot (§9.6). holder_rejected: the
    // rejected write, and the accepted write with the highest number before
    // it. fencing_duplicate: the acquire, and the last earlier acquire
    // issued the same number.
    Act late, earlier;
    ResourceMode resource = ResourceMode::off;  // unsafe_write: what the resource did (§8)
    // unsafe_write on Redlock (model.md §20.6): `earlier` is the quorum that
    // another token held when the write landed (its node and the tick it
    // counted it), fencing 0: Redlock issues no number.
    bool quorum = false;
    // unsafe_write on Redisson (model.md §21.6): `earlier` is the acquisition
    // of the candidate whose field held the record when the write landed,
    // fencing 0: Redisson's lock issues no number.
    bool record = false;
    std::vector<std::string> nodes;  // overlap: the nodes executing at the end of that tick
    std::int32_t capacity = 0;       // overlap: the lock's slots
    std::vector<RunSummary> runs;    // liveness: how each run ended (empty: none started)
};

// An added fault and the name of its node, or of its store for a Redlock
// store's restart or clock jump (empty for a failover and a jump of the one
// store's clock).
struct AddedFault {
    Fault fault;
    std::string node;
    // A Redlock partition or delay (model.md §20.7): the names of the stores
    // it concerns, empty for every store; `redlock` tells those apart from
    // one store's faults.
    bool redlock = false;
    std::vector<std::string> stores;
};

// `f` of a schedule on `base`, named `node` (its candidate's or store's
// name), with a Redlock partition's or delay's stores by name.
AddedFault added_fault(const Scenario& base, const Fault& f, std::string node);

struct CounterexampleFacts {
    std::optional<std::uint64_t> shuffled_seed;  // the order was shuffled with this seed; else the base's own
    std::vector<AddedFault> faults;              // the added faults, in tick order
    // One per failed checked property, in the order unsafe_write,
    // fencing_regressed, stale_after_successor, holder_rejected,
    // fencing_duplicate, overlap, liveness.
    std::vector<Failure> failures;
};

struct Counterexample {
    // Opens in the GUI; its trace shows the violation. Named
    // "<base>-counterexample"; its title and summary are the base's until a
    // shell words them (words::title_counterexample).
    Scenario scenario;
    CounterexampleFacts facts;
    Verdict verdict;
    Trace trace;
};
// A schedule's order and faults as facts (no failures): for a draw as it
// came, before shrinking.
CounterexampleFacts schedule_facts(const Explorer& explorer, const Schedule& schedule);
// Builds the counterexample scenario and reads, from its trace, the first
// violation of each checked property that failed.
Counterexample make_counterexample(const Explorer& explorer, const Schedule& schedule);

}  // namespace leasescope::sim

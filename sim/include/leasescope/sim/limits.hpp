#pragma once
// Every limit on what LeaseScope reads, searches and generates, in one place
// (docs/scenario-format.md "Limits" and docs/trace-format.md "Limits" list
// them for users). The one limit below this layer, the database number of a
// Redis URL (redis_db_max), lives with the URL parser in
// engine/redis/include/leasescope/redis/redis_url.hpp. Each is checked
// before the work it protects: a file is never read past its size limit, a
// JSON document is never nested deeper than json_depth_max, a scenario whose
// runs would not fit in memory is refused at validation. Hitting one is an
// error that names the limit and the value, never silent growth.
#include <cstdint>

#include "leasescope/engine/types.hpp"

namespace leasescope::limits {

// ---- Numbers in a scenario ----
inline constexpr std::int64_t candidates_max = 100'000;
inline constexpr std::int64_t capacity_max = 1'024;
inline constexpr std::int64_t replicas_max = 8;  // store.replicas (model.md §17.1)
// Redlock (model.md §20.1): independent stores, and the client's retries
// (count, and each retry's delay and jitter in milliseconds: an hour).
inline constexpr std::int64_t stores_max = 9;
inline constexpr std::int64_t retry_count_max = 1'000'000;
inline constexpr std::int64_t retry_ms_max = 3'600'000;
// Redisson (model.md §21.1): lockWatchdogTimeout in milliseconds, a day.
inline constexpr std::int64_t lock_watchdog_timeout_ms_max = 86'400'000;
inline constexpr Tick horizon_max = 100'000'000;
inline constexpr Tick duration_max = horizon_max;    // wait, lease, action, every, …
inline constexpr std::int64_t runs_max = 1'000'000;  // one candidate's `runs`
inline constexpr std::int64_t writes_max = 10'000;   // per candidate
inline constexpr std::int64_t faults_max = 100'000;
inline constexpr std::int64_t ops_max = 100'000;
inline constexpr std::int64_t tick_ms_min = 1;
inline constexpr std::int64_t tick_ms_max = 60'000;
inline constexpr Fencing fencing_start_max = 1'000'000'000'000;
inline constexpr std::int64_t name_length_max = 200;
inline constexpr std::int64_t text_length_max = 4'000;  // title and summary
// Exercises (model.md §18): per file, knobs and choices per exercise, and
// the simulations one check of a goal or a find_fault may run.
inline constexpr std::int64_t exercises_max = 32;
inline constexpr std::int64_t knobs_max = 4;
inline constexpr std::int64_t choices_max = 8;
inline constexpr std::int64_t exercise_tries_max = 20'000;
// A clock's drift in ppm, either way: below one million, so that every clock
// still runs forward (model.md §3.3 rule 1).
inline constexpr std::int64_t drift_ppm_max = 999'999;
// One clock_jump, in milliseconds either way (about 31 years). With at most
// faults_max jumps the sum stays far inside 64 bits (model.md §3.3 rule 3).
inline constexpr std::int64_t clock_jump_ms_max = 1'000'000'000'000;
// A link's latency and a delay's extra ticks (model.md §16): about 14 hours
// at 50 ms a tick; longer is a typo, and sums of them stay far from overflow.
inline constexpr Tick latency_max = 1'000'000;
inline constexpr Tick delay_extra_max = latency_max;

// ---- Work a scenario may ask for (checked at validation) ----
// Runs that can start before the horizon, summed over the candidates: each
// candidate's min(runs, (horizon - start) / every + 1). Every run keeps a
// record (about 150 bytes with its token and its summary entry) for the whole
// simulation, so this bounds the memory of a run at about 3 GB. The largest
// benchmark, `bench --candidates 100000` over 1,000,000 ticks, starts about
// 9.4 million runs; a scenario of 1,000 candidates repeating every tick for
// 10^8 ticks (10^11 runs) is refused.
inline constexpr std::int64_t runs_total_max = 20'000'000;
// Events one simulation may emit (a Timeline keeps them in memory); also the
// largest event count a trace file may claim.
inline constexpr std::int64_t trace_events_max = 50'000'000;
// An imported history (model.md §19): the lines of the lock a capture may
// hold (what the importer keeps in memory; lines of other keys are never
// kept), and the ticks its trace may span (§19.7.2).
inline constexpr std::int64_t import_lock_lines_max = 2'000'000;
inline constexpr Tick import_ticks_max = 10'000'000;
// The draft's run that an import compares with the history (model.md rule
// 19.8.3) stops after this many events; the comparison then covers the ticks
// before it only, and says so.
inline constexpr std::int64_t import_draft_events_max = 500'000;
// One line of a capture or a log (the CLI reads them one at a time, so this
// bounds its memory however long the file), and --log-shift: two days
// either way covers every zone offset and a day's error in a log's date.
inline constexpr std::int64_t import_line_bytes_max = std::int64_t{64} << 20;
inline constexpr std::int64_t import_log_shift_ms_max = 2 * 86'400'000;
// Fencing numbers: a counter starts at most at fencing_start_max and is
// incremented once per acquisition, at most once per run.
inline constexpr Fencing fencing_max = fencing_start_max + runs_total_max;

// ---- JSON documents (scenario files and --set values) ----
// The whole file, checked before it is read past this size.
inline constexpr std::int64_t scenario_bytes_max = 32 * 1024 * 1024;
// Arrays and objects inside each other. A scenario needs 4 levels
// (root, candidates, a candidate, its writes).
inline constexpr std::int64_t json_depth_max = 64;
// One string or key, in bytes as written (escapes counted once decoded).
inline constexpr std::int64_t json_string_bytes_max = 16 * 1024;
// Keys of one object (a scenario object has at most 14).
inline constexpr std::int64_t json_object_keys_max = 1'024;
// Values in one document (objects, arrays, strings, numbers, booleans, nulls;
// keys not counted). The 100,000-candidate benchmark scenario has 1,042,110;
// parsed and validated it peaks at about 150 MB, so this bound keeps any
// accepted document near 200 MB and 2 s.
inline constexpr std::int64_t json_values_max = 1'500'000;
// Error messages quote at most this many bytes of a key or value, and "did
// you mean" looks for a close word only for words up to this length.
inline constexpr std::int64_t quoted_bytes_max = 64;

// ---- Trace files (docs/trace-format.md) ----
// The reader holds every event: a 59 MB trace is read and checked in 1.3 s
// at a peak of 157 MB, so 64 MiB stays within about 2 s and 256 MiB.
inline constexpr std::int64_t trace_bytes_max = 64 * 1024 * 1024;
// Tokens are 22 Base58 characters; live tokens are no longer.
inline constexpr std::int64_t token_length_max = 64;
// The `detail` of an event: a node name, or a few comma-separated words.
inline constexpr std::int64_t detail_length_max = name_length_max;

// ---- Explorer budgets (sim/explorer.hpp) ----
// Exhaustive search grows as atoms^faults, so these keep a typo from asking
// for a search that never ends. The explorer's header brings them into
// leasescope::sim under the same names.
inline constexpr int explore_faults_max = 4;
inline constexpr Tick explore_pause_max = 1'000;
// A size on a --grid (docs/explorer.md, Grids): a grid holds about three
// sizes a decade, so its sizes may be far longer than an every-tick range
// may reach (a pause of a minute at 1 ms ticks); the budget is counted in
// grid points, and each size stretches the searched ticks by its length.
inline constexpr Tick explore_grid_size_max = 100'000;
// The explorer's delays add at most this many ticks (--max-delay), and its
// store clock jumps take at most this many steps of one tick each way
// (--max-clock-jump-ms / tick_ms).
inline constexpr Tick explore_delay_max = 1'000;
inline constexpr std::int64_t explore_clock_jump_steps_max = 1'000;
// With replicas (model.md §17): the explorer's cuts of a replica's link last
// at most this many ticks (--max-link-cut), and a promoting failover's lag is
// at most this many ticks (--max-lag).
inline constexpr Tick explore_link_cut_max = 1'000;
inline constexpr Tick explore_lag_max = 1'000;
inline constexpr int explore_shuffles_max = 1'000;
// Faults start every --start-every ticks (docs/explorer.md, Start ticks on a
// grid): at most the longest horizon, past which only tick 0 is left.
inline constexpr Tick explore_start_every_max = horizon_max;
inline constexpr std::int64_t explore_atoms_max = 2'000'000;
inline constexpr std::uint64_t explore_draws_max = 1'000'000'000'000;
// Parts a search may be split into (ExploreRun::shards), one per machine or job.
inline constexpr std::uint64_t explore_shards_max = 100'000;

// ---- Generated scenarios (sim/generator.hpp, `leasescope-cli generate`) ----
inline constexpr std::int64_t generator_candidates_max = candidates_max;
inline constexpr Tick generator_horizon_min = 100;
inline constexpr Tick generator_horizon_max = horizon_max;

static_assert(capacity_max <= candidates_max);
static_assert(drift_ppm_max < 1'000'000);
static_assert(clock_jump_ms_max <= INT64_MAX / 4 / faults_max);
static_assert(duration_max <= horizon_max);
static_assert(latency_max <= duration_max);
// The longest trip: a latency plus every delay's extra, far inside a Tick.
static_assert(horizon_max + latency_max + faults_max * delay_extra_max < (Tick{1} << 62));
static_assert(runs_max <= runs_total_max);
static_assert(text_length_max <= json_string_bytes_max);
static_assert(name_length_max <= json_string_bytes_max);
static_assert(quoted_bytes_max < name_length_max);
static_assert(scenario_bytes_max <= trace_bytes_max);
// A find_fault's max_ticks (at most explore_pause_max) bounds every length the
// explorer lays out for it (model.md §18.4).
static_assert(explore_pause_max <= explore_delay_max);
static_assert(explore_pause_max <= explore_link_cut_max);
static_assert(explore_pause_max <= explore_lag_max);

}  // namespace leasescope::limits

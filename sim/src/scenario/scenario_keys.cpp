// The table of every scenario key (scenario_keys.hpp): the top level, /lock,
// /resource, texts, faults per kind and ops per op, followed by the
// candidate keys of candidate_keys.hpp. Adding a key is one row here; what
// reads its value is in scenario_read.cpp.
#include "leasescope/sim/scenario_keys.hpp"

#include <algorithm>
#include <limits>
#include <string_view>
#include <tuple>
#include <vector>

#include "leasescope/engine/assert.hpp"
#include "leasescope/sim/limits.hpp"
#include "sorted_map.hpp"

namespace leasescope::sim {
namespace {

constexpr const char* order_words[] = {"declared", "shuffled"};
constexpr const char* elector_words[] = {"lock", "group"};
constexpr const char* resource_words[] = {"off", "check", "validate"};
constexpr const char* fault_words[] = {"pause",      "partition", "crash",        "failover",
                                       "clock_jump", "delay",     "replica_link", "restart"};
constexpr const char* client_words[] = {"elector", "redlock", "redisson"};
constexpr const char* stores_clock_words[] = {"wall", "monotonic"};
constexpr const char* persistence_words[] = {"none", "everysec", "always"};
constexpr const char* link_words[] = {"request", "reply", "write"};
constexpr const char* partition_words[] = {"drop_requests", "drop_replies"};
constexpr const char* lose_words[] = {"leases", "all"};
constexpr const char* op_words[] = {"status", "validate"};
constexpr const char* exercise_words[] = {"predict", "goal", "find_fault"};
constexpr const char* question_words[] = {"acquirer", "write", "fencing", "release"};
constexpr const char* property_words[] = {
    "overlap",         "unsafe_write",      "fencing_regressed", "stale_after_successor",
    "holder_rejected", "fencing_duplicate", "liveness",          "stale_write"};

// The top level, in file order (model.md §11.2).
constexpr ScenarioKey top_rows[] = {
    {.name = "$schema",
     .type = ValueType::string,
     .hi = limits::text_length_max,
     .doc = "The schema of this file, for editors (share/leasescope/schema/scenario.schema.json, or the output of "
            "leasescope-cli schema)."},
    {.name = "name",
     .type = ValueType::identifier,
     .need = Need::required,
     .doc = "Names the scenario in traces; check looks for the golden trace NAME.jsonl."},
    {.name = "title", .type = ValueType::localized, .doc = "Shown by list and the app."},
    {.name = "summary", .type = ValueType::localized, .doc = "The lesson, in a few sentences."},
    {.name = "tick_ms",
     .type = ValueType::integer,
     .lo = limits::tick_ms_min,
     .hi = limits::tick_ms_max,
     .hi_name = "tick_ms_max",
     .fallback = "50",
     .doc = "Milliseconds per tick (display, live mode, and the watchdog's millisecond period)."},
    {.name = "horizon",
     .type = ValueType::integer,
     .hi = limits::horizon_max,
     .hi_name = "horizon_max",
     .fallback = "1000",
     .doc = "Last tick simulated; a run can end earlier once nothing else can happen.",
     .time = true},
    {.name = "seed",
     .type = ValueType::unsigned64,
     .fallback = "0",
     .doc = "Seeds the token generator and the shuffle."},
    {.name = "order",
     .type = ValueType::choice,
     .choices = order_words,
     .fallback = "\"declared\"",
     .doc = "Order in which nodes act within a tick's acquire phase."},
    {.name = "network",
     .type = ValueType::object,
     .fallback = "{}",
     .opens = Section::network,
     .doc = "Every node's latencies in ticks (docs/model.md §16.1); a candidate's own, or defaults', win per key."},
    {.name = "lock", .type = ValueType::object, .opens = Section::lock, .doc = "The Redis record."},
    {.name = "resource", .type = ValueType::object, .opens = Section::resource, .doc = "The protected resource."},
    {.name = "store",
     .type = ValueType::object,
     .fallback = "{}",
     .opens = Section::store,
     .doc = "The store (Redis) itself: its clock and its replicas."},
    {.name = "client",
     .type = ValueType::choice,
     .choices = client_words,
     .fallback = "\"elector\"",
     .doc = "The client every candidate runs: elector (the Kotlin elector, docs/model.md §5), redlock (the npm "
            "package redlock 4.2.0 over stores, §20) or redisson (Redisson 3.31.0's RLock on the one store, §21)."},
    {.name = "stores",
     .type = ValueType::array,
     .lo = 1,
     .hi = limits::stores_max,
     .hi_name = "stores_max",
     .item = "identifier",
     .doc = "Redlock's independent masters, by name, in the client's order (docs/model.md §20.1). Only with client "
            "redlock, which needs it."},
    {.name = "stores_clock",
     .type = ValueType::choice,
     .choices = stores_clock_words,
     .fallback = "\"wall\"",
     .doc = "Redlock only: the clock the stores expire keys by. wall (Redis: a jump of a store's clock moves its "
            "deadlines) or monotonic (antirez's proposal: a store's clock_jump does not move them; docs/model.md "
            "§20.2)."},
    {.name = "redlock",
     .type = ValueType::object,
     .fallback = "{}",
     .opens = Section::redlock,
     .doc = "The redlock client's options, named as the package names them (docs/model.md §20.1). Only with client "
            "redlock."},
    {.name = "redisson",
     .type = ValueType::object,
     .fallback = "{}",
     .opens = Section::redisson,
     .doc = "Redisson's Config options that RLock reads, named as Config names them (docs/model.md §21.1). Only with "
            "client redisson."},
    {.name = "defaults",
     .type = ValueType::object,
     .fallback = "{}",
     .opens = Section::candidate,
     .doc = "Values shared by every candidate (any candidate key except name)."},
    {.name = "candidates",
     .type = ValueType::array,
     .lo = 1,
     .hi = limits::candidates_max,
     .hi_name = "candidates_max",
     .need = Need::required,
     .item = "candidate",
     .doc = "The competing nodes."},
    {.name = "faults",
     .type = ValueType::array,
     .hi = limits::faults_max,
     .hi_name = "faults_max",
     .fallback = "[]",
     .item = "fault",
     .doc = "Things that go wrong."},
    {.name = "ops",
     .type = ValueType::array,
     .hi = limits::ops_max,
     .hi_name = "ops_max",
     .fallback = "[]",
     .item = "op",
     .doc = "Read-only checks by a third party."},
    {.name = "exercises",
     .type = ValueType::array,
     .hi = limits::exercises_max,
     .hi_name = "exercises_max",
     .fallback = "[]",
     .item = "exercise",
     .doc = "Questions about this scenario, judged by running it (docs/model.md §18, docs/exercises.md)."},
};

// /lock and /resource (model.md §5.2, §8).
constexpr ScenarioKey record_rows[] = {
    {.section = Section::lock,
     .name = "name",
     .type = ValueType::identifier,
     .fallback = "\"lock\"",
     .doc = "Part of the Redis keys in live mode."},
    {.section = Section::lock,
     .name = "capacity",
     .type = ValueType::integer,
     .lo = 1,
     .hi = limits::capacity_max,
     .hi_name = "capacity_max",
     .fallback = "1",
     .doc = "Slots: 1 is a single leader, more a leader group."},
    {.section = Section::lock,
     .name = "fencing_start",
     .type = ValueType::integer,
     .lo = 1,
     .hi = limits::fencing_start_max,
     .hi_name = "fencing_start_max",
     .fallback = "1",
     .doc = "The first fencing number handed out."},
    // Absent, it follows the capacity: "lock" for 1, else "group".
    {.section = Section::lock,
     .name = "elector",
     .type = ValueType::choice,
     .choices = elector_words,
     .doc = "Which elector of the library: \"lock\" (the single lock; capacity 1 only; it gives up at its deadline "
            "without a last try) or \"group\" (the leader group; it tries at its deadline). Absent: \"lock\" for "
            "capacity 1, else \"group\"."},
    {.section = Section::resource,
     .name = "mode",
     .type = ValueType::choice,
     .choices = resource_words,
     .fallback = "\"off\"",
     .doc = "off: every write is accepted; check: writes with a fencing number below the highest accepted are "
            "refused (the fence); validate: the store is asked whether the writer's token is current."},
    {.section = Section::store,
     .name = "clock",
     .type = ValueType::object,
     .fallback = "{}",
     .opens = Section::clock,
     .doc = "The store's clock, by which it expires records (docs/model.md §3.3); simulated only: live refuses a "
            "drift."},
    // Replication (model.md §17.1, §17.4).
    {.section = Section::store,
     .name = "replicas",
     .type = ValueType::integer,
     .hi = limits::replicas_max,
     .hi_name = "replicas_max",
     .fallback = "0",
     .doc = "Replicas of the primary: the store has servers 0 (the first primary) to replicas (docs/model.md §17.1). "
            "0: a single server, and a failover takes the forms of lose."},
    {.section = Section::store,
     .name = "min_replicas_to_write",
     .type = ValueType::integer,
     .hi = limits::replicas_max,
     .hi_name = "replicas_max",
     .fallback = "0",
     .doc = "Redis's min-replicas-to-write: a primary with fewer good replicas refuses acquire, extend and release "
            "(-NOREPLICAS); at most replicas; 0: off."},
    // Absent: Redis's 10 s, ceil(10000 / tick_ms) (default_min_replicas_max_lag).
    {.section = Section::store,
     .name = "min_replicas_max_lag",
     .type = ValueType::integer,
     .lo = 1,
     .hi = limits::duration_max,
     .hi_name = "duration_max",
     .doc = "Redis's min-replicas-max-lag in ticks: a replica whose link fell silent still counts as good this long. "
            "Absent: Redis's 10 s, ceil(10000 / tick_ms).",
     .time = true},
    {.section = Section::redlock,
     .name = "retry_count",
     .type = ValueType::integer,
     .lo = -1,
     .hi = limits::retry_count_max,
     .hi_name = "retry_count_max",
     .fallback = "10",
     .doc = "retryCount: attempts after the first; -1 retries for ever."},
    {.section = Section::redlock,
     .name = "retry_delay_ms",
     .type = ValueType::integer,
     .hi = limits::retry_ms_max,
     .hi_name = "retry_ms_max",
     .fallback = "200",
     .doc = "retryDelay in milliseconds: the wait before the next attempt."},
    {.section = Section::redlock,
     .name = "retry_jitter_ms",
     .type = ValueType::integer,
     .hi = limits::retry_ms_max,
     .hi_name = "retry_ms_max",
     .fallback = "100",
     .doc = "retryJitter in milliseconds: each wait is moved by a seeded draw in (-jitter, +jitter)."},
    {.section = Section::redlock,
     .name = "drift_factor",
     .type = ValueType::number,
     .lo = 0,
     .hi = 1,
     .fallback = "0.01",
     .doc = "driftFactor: the validity is ttl - round(drift_factor * ttl) - 2 ms after the attempt began."},
    {.section = Section::redisson,
     .name = "lock_watchdog_timeout_ms",
     .type = ValueType::integer,
     .lo = 3,
     .hi = limits::lock_watchdog_timeout_ms_max,
     .hi_name = "lock_watchdog_timeout_ms_max",
     .fallback = "30000",
     .doc = "lockWatchdogTimeout in milliseconds: the lock's TTL when no lease is given (auto_extend), renewed every "
            "third of it."},
    {.section = Section::clock,
     .name = "drift_ppm",
     .type = ValueType::integer,
     .lo = -limits::drift_ppm_max,
     .hi = limits::drift_ppm_max,
     .hi_name = "drift_ppm_max",
     .fallback = "0",
     .doc = "Drift in parts per million, either way: the clock runs at (1 + drift_ppm/1000000) of true time."},
    {.section = Section::network,
     .name = "request",
     .type = ValueType::integer,
     .hi = limits::latency_max,
     .hi_name = "latency_max",
     .fallback = "0",
     .doc = "Ticks on the wire of a call's request, from the node to the store.",
     .time = true},
    {.section = Section::network,
     .name = "reply",
     .type = ValueType::integer,
     .hi = limits::latency_max,
     .hi_name = "latency_max",
     .fallback = "0",
     .doc = "Ticks on the wire of a call's reply, from the store to the node.",
     .time = true},
    {.section = Section::network,
     .name = "write",
     .type = ValueType::integer,
     .hi = limits::latency_max,
     .hi_name = "latency_max",
     .fallback = "0",
     .doc = "Ticks on the wire of a write, from the node to the resource.",
     .time = true},
    {.section = Section::text,
     .name = "en",
     .type = ValueType::string,
     .hi = limits::text_length_max,
     .hi_name = "text_length_max",
     .doc = "English."},
    {.section = Section::text,
     .name = "ko",
     .type = ValueType::string,
     .hi = limits::text_length_max,
     .hi_name = "text_length_max",
     .doc = "Korean."},
};

// Faults (model.md §7): "kind" chooses which of the others an entry has.
constexpr ScenarioKey fault_rows[] = {
    {.section = Section::fault,
     .name = "kind",
     .type = ValueType::choice,
     .choices = fault_words,
     .need = Need::required,
     .doc = "pause, partition, crash, failover, clock_jump, delay, replica_link or restart (a Redlock store)."},
    {.section = Section::fault,
     .variants = "pause partition crash delay",
     .name = "node",
     .type = ValueType::name,
     .need = Need::required,
     .doc = "The candidate it happens to."},
    {.section = Section::fault,
     .variants = "clock_jump",
     .name = "clock",
     .type = ValueType::name,
     .need = Need::required,
     .doc = "\"store\", a Redlock store's name, or the candidate whose clock steps."},
    {.section = Section::fault,
     .variants = "restart",
     .name = "store",
     .type = ValueType::identifier,
     .need = Need::required,
     .doc = "The Redlock store that goes down and comes back (docs/model.md §20.3)."},
    {.section = Section::fault,
     .variants = "replica_link",
     .name = "replica",
     .type = ValueType::integer,
     .hi = limits::replicas_max,
     .hi_name = "replicas_max",
     .need = Need::required,
     .doc = "The server whose link to the primary is cut: a replica at that tick, 0 to store.replicas."},
    {.section = Section::fault,
     .name = "at",
     .type = ValueType::integer,
     .hi = limits::horizon_max,
     .hi_name = "horizon_max",
     .need = Need::required,
     .doc = "Tick at which the fault takes effect.",
     .time = true},
    {.section = Section::fault,
     .variants = "pause partition delay replica_link restart",
     .name = "ticks",
     .type = ValueType::integer,
     .lo = 1,
     .hi = limits::duration_max,
     .hi_name = "duration_max",
     .need = Need::required,
     .doc = "How many ticks it lasts.",
     .time = true},
    {.section = Section::fault,
     .variants = "partition",
     .name = "mode",
     .type = ValueType::choice,
     .choices = partition_words,
     .fallback = "\"drop_requests\"",
     .doc = "drop_requests: calls never arrive; drop_replies: calls are applied but the node sees an error."},
    {.section = Section::fault,
     .variants = "restart",
     .name = "persistence",
     .type = ValueType::choice,
     .choices = persistence_words,
     .fallback = "\"none\"",
     .doc = "What the store keeps: none (comes back empty), everysec (what it had at the last whole second), always "
            "(everything)."},
    {.section = Section::fault,
     .variants = "partition delay",
     .name = "stores",
     .type = ValueType::array,
     .lo = 1,
     .hi = limits::stores_max,
     .hi_name = "stores_max",
     .item = "identifier",
     .doc = "Redlock only: the stores whose messages it concerns (absent: every store); a partition holds them "
            "until it ends (docs/model.md §20.7)."},
    {.section = Section::fault,
     .variants = "failover",
     .name = "lose",
     .type = ValueType::choice,
     .choices = lose_words,
     .fallback = "\"leases\"",
     .doc = "leases: slots and hold-off vanish, the fencing counter survives; all: the counter is reset as well."},
    {.section = Section::fault,
     .variants = "clock_jump",
     .name = "ms",
     .type = ValueType::integer,
     .lo = -limits::clock_jump_ms_max,
     .hi = limits::clock_jump_ms_max,
     .hi_name = "clock_jump_ms_max",
     .need = Need::required,
     .doc = "The step in milliseconds: forward when positive, back when negative; not 0."},
    {.section = Section::fault,
     .variants = "delay",
     .name = "link",
     .type = ValueType::choice,
     .choices = link_words,
     .need = Need::required,
     .doc = "Which of the node's messages: its calls' requests, their replies, or its writes."},
    {.section = Section::fault,
     .variants = "delay",
     .name = "extra",
     .type = ValueType::integer,
     .hi = limits::delay_extra_max,
     .hi_name = "delay_extra_max",
     .need = Need::required,
     .doc = "Extra ticks on the wire for each message sent in the window.",
     .time = true},
    // A failover of a store with replicas (model.md §17.3, §17.5).
    {.section = Section::fault,
     .variants = "failover",
     .name = "promote",
     .type = ValueType::integer,
     .hi = limits::replicas_max,
     .hi_name = "replicas_max",
     .doc = "The server that becomes the primary, with what it holds: a replica at that tick. Required when "
            "store.replicas >= 1, refused without replicas."},
    {.section = Section::fault,
     .variants = "failover",
     .name = "lag",
     .type = ValueType::integer,
     .hi = limits::horizon_max,
     .hi_name = "horizon_max",
     .fallback = "0",
     .doc = "Ticks the promoted replica is behind: its link was cut at at - lag (at most at). Only with promote.",
     .time = true},
    {.section = Section::fault,
     .variants = "failover",
     .name = "old_primary",
     .type = ValueType::object,
     .opens = Section::old_primary,
     .doc = "Split brain: the old primary goes on answering the nodes in reachable_by until tick until. Only with "
            "promote."},
};

// A failover's old_primary (model.md §17.5).
constexpr ScenarioKey old_primary_rows[] = {
    {.section = Section::old_primary,
     .name = "reachable_by",
     .type = ValueType::array,
     .lo = 1,
     .hi = limits::candidates_max,
     .hi_name = "candidates_max",
     .need = Need::required,
     .item = "name",
     .doc = "The candidates whose calls still go to the old primary, each once."},
    {.section = Section::old_primary,
     .name = "until",
     .type = ValueType::integer,
     .hi = limits::horizon_max,
     .hi_name = "horizon_max",
     .need = Need::required,
     .doc = "The tick the partition heals: after the failover's at, not after the next failover's.",
     .time = true},
};

// Ops (model.md §6.1): "op" chooses whether token_of belongs.
constexpr ScenarioKey op_rows[] = {
    {.section = Section::op,
     .name = "at",
     .type = ValueType::integer,
     .hi = limits::horizon_max,
     .hi_name = "horizon_max",
     .need = Need::required,
     .doc = "Tick of the call (after the nodes have acted).",
     .time = true},
    {.section = Section::op,
     .name = "actor",
     .type = ValueType::name,
     .need = Need::required,
     .doc = "Who asks (any name; not necessarily a candidate)."},
    {.section = Section::op,
     .name = "op",
     .type = ValueType::choice,
     .choices = op_words,
     .need = Need::required,
     .doc = "status or validate."},
    {.section = Section::op,
     .variants = "validate",
     .name = "token_of",
     .type = ValueType::name,
     .need = Need::required,
     .doc = "The candidate whose token is checked."},
};

// Exercises (model.md §18): "kind" chooses which of the others an entry has.
constexpr ScenarioKey exercise_rows[] = {
    {.section = Section::exercise,
     .name = "kind",
     .type = ValueType::choice,
     .choices = exercise_words,
     .need = Need::required,
     .doc = "predict (what happens in tick at), goal (change knobs until a condition holds) or find_fault (add one "
            "fault that makes a condition hold)."},
    {.section = Section::exercise,
     .name = "prompt",
     .type = ValueType::localized,
     .need = Need::required,
     .doc = "The question, in English and Korean (both non-empty)."},
    {.section = Section::exercise,
     .name = "hint",
     .type = ValueType::localized,
     .doc = "Shown after a wrong try, in English and Korean (both non-empty)."},
    {.section = Section::exercise,
     .variants = "predict",
     .name = "at",
     .type = ValueType::integer,
     .hi = limits::horizon_max,
     .hi_name = "horizon_max",
     .need = Need::required,
     .doc = "The tick the student predicts: 0 to horizon - 1.",
     .time = true},
    {.section = Section::exercise,
     .variants = "predict",
     .name = "ask",
     .type = ValueType::choice,
     .choices = question_words,
     .need = Need::required,
     .doc = "acquirer (who acquires), write (accepted or rejected), fencing (the number issued) or release (whether "
            "it deletes the record)."},
    {.section = Section::exercise,
     .variants = "predict",
     .name = "node",
     .type = ValueType::name,
     .doc = "write and release: the candidate whose write or release is asked about (required for them, refused for "
            "the others)."},
    {.section = Section::exercise,
     .variants = "predict",
     .name = "choices",
     .type = ValueType::array,
     .lo = 2,
     .hi = limits::choices_max,
     .hi_name = "choices_max",
     .item = "choice",
     .doc = "acquirer: candidate names and \"nobody\"; fencing: integers. Absent: built from the scenario and its "
            "trace."},
    {.section = Section::exercise,
     .variants = "goal",
     .name = "knobs",
     .type = ValueType::array,
     .lo = 1,
     .hi = limits::knobs_max,
     .hi_name = "knobs_max",
     .need = Need::required,
     .item = "knob",
     .doc = "The values the student may change; at most exercise_tries_max combinations in all."},
    {.section = Section::exercise,
     .variants = "find_fault",
     .name = "faults",
     .type = ValueType::string,
     .hi = limits::text_length_max,
     .hi_name = "text_length_max",
     .fallback = "\"pause\"",
     .doc = "The fault kinds the student may add, as explore --fault-kinds takes them."},
    {.section = Section::exercise,
     .variants = "find_fault",
     .name = "max_ticks",
     .type = ValueType::integer,
     .lo = 1,
     .hi = limits::explore_pause_max,
     .hi_name = "explore_pause_max",
     .need = Need::required,
     .doc = "The longest pause, partition, delay or link cut the student may add; a clock jump at most max_ticks * "
            "tick_ms either way, a failover's lag at most max_ticks.",
     .time = true},
    {.section = Section::exercise,
     .variants = "goal find_fault",
     .name = "goal",
     .type = ValueType::object,
     .need = Need::required,
     .opens = Section::goal,
     .doc = "The condition to reach: exactly one of holds, fails, acquires, never_acquires, write_rejected."},
};

// A goal's knob (model.md §18.3): set, and range (+ step) or values.
constexpr ScenarioKey knob_rows[] = {
    {.section = Section::knob,
     .name = "set",
     .type = ValueType::string,
     .hi = limits::text_length_max,
     .hi_name = "text_length_max",
     .need = Need::required,
     .doc = "A --set path (defaults.lease, resource.mode, faults/0/ticks)."},
    {.section = Section::knob,
     .name = "range",
     .type = ValueType::array,
     .lo = 2,
     .hi = 2,
     .item = "integer",
     .doc = "[lo, hi]: the integers lo, lo + step, ... up to hi (lo <= hi). Either range or values."},
    {.section = Section::knob,
     .name = "step",
     .type = ValueType::integer,
     .lo = 1,
     .hi = limits::exercise_tries_max,
     .hi_name = "exercise_tries_max",
     .fallback = "1",
     .doc = "The step of a range."},
    {.section = Section::knob,
     .name = "values",
     .type = ValueType::array,
     .lo = 2,
     .hi = limits::choices_max,
     .hi_name = "choices_max",
     .item = "value",
     .doc = "The JSON values the knob may take, in order. Either range or values."},
};

// A condition (model.md §18.5): exactly one of these keys.
constexpr ScenarioKey goal_rows[] = {
    {.section = Section::goal,
     .name = "holds",
     .type = ValueType::choice,
     .choices = property_words,
     .doc = "The property holds: the trace counts no violation of it (liveness: some run ends elected)."},
    {.section = Section::goal,
     .name = "fails",
     .type = ValueType::choice,
     .choices = property_words,
     .doc = "The property fails: the trace counts a violation of it (stale_write: a stale write is accepted)."},
    {.section = Section::goal,
     .name = "acquires",
     .type = ValueType::name,
     .doc = "The candidate acquires at least once."},
    {.section = Section::goal,
     .name = "never_acquires",
     .type = ValueType::name,
     .doc = "The candidate never acquires."},
    {.section = Section::goal,
     .name = "write_rejected",
     .type = ValueType::name,
     .doc = "The resource rejects a write of the candidate."},
};

ScenarioKey from_candidate_key(const CandidateKey& k) {
    ScenarioKey row{.section = Section::candidate, .name = k.name, .lo = k.lo, .hi = k.hi, .need = k.need};
    row.time = k.tick != nullptr || k.offsets != nullptr;  // model.md §11.7
    switch (k.kind) {
        case KeyKind::name: row.type = ValueType::name; break;
        case KeyKind::integer: row.type = ValueType::integer; break;
        case KeyKind::flag: row.type = ValueType::boolean; break;
        case KeyKind::offsets: row.type = ValueType::array; break;
        case KeyKind::network:
            row.type = ValueType::object;
            row.opens = Section::network;
            row.lo = 0;
            row.hi = 0;
            break;
        case KeyKind::clock:
            row.type = ValueType::object;
            row.opens = Section::clock;
            row.lo = 0;
            row.hi = 0;
            break;
        case KeyKind::choice:
            row.type = ValueType::choice;
            row.choices = k.choices;
            // The one choice key's default, as JSON text (a row holds no built string).
            LS_ASSERT(std::string_view(k.choices[static_cast<std::size_t>(k.fallback)]) == "none");
            row.fallback = "\"none\"";
            break;
    }
    row.doc = k.doc;
    return row;
}

std::vector<ScenarioKey> all_rows() {
    using Rows = std::span<const ScenarioKey>;
    std::vector<ScenarioKey> rows;
    for (const Rows part : {Rows(top_rows), Rows(record_rows), Rows(fault_rows), Rows(old_primary_rows), Rows(op_rows),
                            Rows(exercise_rows), Rows(knob_rows), Rows(goal_rows)})
        rows.insert(rows.end(), part.begin(), part.end());
    for (const CandidateKey* k : candidate_keys()) rows.push_back(from_candidate_key(*k));
    return rows;
}

}  // namespace

std::span<const ScenarioKey> scenario_keys() {
    static const std::vector<ScenarioKey> rows = all_rows();  // built once, never changed
    return rows;
}

bool key_in_variant(const ScenarioKey& key, std::string_view variant) {
    const std::string_view list = key.variants;
    if (list.empty() || variant.empty()) return true;
    for (std::size_t from = 0; from <= list.size();) {
        const std::size_t space = std::min(list.find(' ', from), list.size());
        if (list.substr(from, space - from) == variant) return true;
        from = space + 1;
    }
    return false;
}

std::vector<const ScenarioKey*> keys_of(Section section, std::string_view variant) {
    std::vector<const ScenarioKey*> keys;
    for (const ScenarioKey& k : scenario_keys()) {
        if (k.section == section && key_in_variant(k, variant)) keys.push_back(&k);
    }
    return keys;
}

std::vector<std::string> key_names_of(Section section, std::string_view variant) {
    std::vector<std::string> names;
    for (const ScenarioKey* k : keys_of(section, variant)) names.emplace_back(k->name);
    return names;
}

namespace {

// (section, name, row) sorted by section and name, rows in table order
// within one name: built once from the table, like it, never changed.
using KeyIndex = std::vector<ScenarioKeyWalk::Entry>;

const KeyIndex& key_index() {
    static const KeyIndex index = [] {
        KeyIndex out;
        const auto rows = scenario_keys();
        for (std::size_t i = 0; i < rows.size(); ++i) out.emplace_back(rows[i].section, rows[i].name, i);
        std::sort(out.begin(), out.end());
        return out;
    }();
    return index;
}

// An entry of the index against a section alone.
struct SectionOrder {
    bool operator()(const KeyIndex::value_type& a, Section b) const { return std::get<0>(a) < b; }
    bool operator()(Section a, const KeyIndex::value_type& b) const { return a < std::get<0>(b); }
};

}  // namespace

const ScenarioKey* find_scenario_key(Section section, std::string_view name) {
    const KeyIndex& index = key_index();
    const auto it = std::lower_bound(index.begin(), index.end(), std::make_tuple(section, name, std::size_t{0}));
    if (it == index.end() || std::get<0>(*it) != section || std::get<1>(*it) != name) return nullptr;
    return &scenario_keys()[std::get<2>(*it)];
}

ScenarioKeyWalk::ScenarioKeyWalk(Section section) : rows_(scenario_keys().data()) {
    const KeyIndex& index = key_index();
    const auto [first, last] = std::equal_range(index.begin(), index.end(), section, SectionOrder{});
    at_ = index.data() + (first - index.begin());
    end_ = index.data() + (last - index.begin());
}

const ScenarioKey* ScenarioKeyWalk::next(std::string_view name) {
    while (at_ != end_ && scenario_detail::key_less(std::get<1>(*at_), name)) ++at_;
    if (at_ == end_ || !scenario_detail::key_equal(std::get<1>(*at_), name)) return nullptr;
    return &rows_[std::get<2>(*at_)];
}

const ScenarioKey& scenario_key(Section section, std::string_view name) {
    const ScenarioKey* key = find_scenario_key(section, name);
    LS_ASSERT(key != nullptr && "no such scenario key");
    return *key;
}

}  // namespace leasescope::sim

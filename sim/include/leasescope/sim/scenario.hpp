#pragma once
// Scenario files (docs/model.md §11): parse, validate, override, write back.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "leasescope/engine/elector.hpp"
#include "leasescope/engine/result.hpp"
#include "leasescope/sim/exercise_spec.hpp"

namespace leasescope::sim {

struct Localized {
    std::string en;
    std::string ko;
};

enum class Order { declared, shuffled };
enum class ResourceMode { off, check, validate };
enum class FaultKind { pause, partition, crash, failover, clock_jump, delay, replica_link, restart };
// What a Redlock store's restart keeps (model.md §20.3).
enum class Persistence { none, everysec, always };
// The client every candidate runs (model.md §20.1, §21.1): the Kotlin
// elector of §5, the npm package redlock 4.2.0 over `stores`, or Redisson
// 3.31.0's RLock on the one store.
enum class Client { elector, redlock, redisson };
// The clock a Redlock store expires keys by (model.md §20.2 rule 5).
enum class StoresClock { wall, monotonic };
enum class PartitionMode { drop_requests, drop_replies };
enum class OpKind { status, validate };
// The three links a message travels on (model.md §16.1).
enum class Link { request, reply, write };

const char* to_string(Order);
const char* to_string(ResourceMode);
const char* to_string(FaultKind);
const char* to_string(PartitionMode);
const char* to_string(FailoverLoss);
const char* to_string(OpKind);
const char* to_string(Persistence);
const char* to_string(Client);
const char* to_string(StoresClock);
const char* to_string(Link);

// Latencies in ticks, one per link (model.md §16.1); all 0 is the model
// without time on the wire.
struct Network {
    Tick request = 0;
    Tick reply = 0;
    Tick write = 0;
    bool zero() const { return request == 0 && reply == 0 && write == 0; }
    Tick of(Link link) const { return link == Link::request ? request : link == Link::reply ? reply : write; }
    bool operator==(const Network&) const = default;
};

struct Candidate {
    std::string name;
    ElectorOptions options;  // resolved: defaults applied, extend_every and writes filled in
    // Whether extend_every / writes were written (explicitly or in defaults),
    // so that a scenario written back stays minimal and still means the same.
    bool extend_every_given = false;
    bool writes_given = false;
    // Merged per key: the candidate's, then "defaults"', then the top level's (model.md §16.1).
    Network network;
};

struct Fault {
    FaultKind kind = FaultKind::pause;
    NodeIndex node = -1;  // -1 for failover and for a jump of the store's clock
    Tick at = 0;
    Tick ticks = 0;  // pause and partition
    PartitionMode mode = PartitionMode::drop_requests;
    FailoverLoss lose = FailoverLoss::leases;
    std::int64_t ms = 0;        // clock_jump: the step, either sign, never 0 (model.md §7.5)
    Link link = Link::request;  // delay: the link whose messages it slows
    Tick extra = 0;             // delay: the extra ticks (model.md §7.6)
    // replica_link: the replica's server; failover: the server promoted (-1:
    // the `lose` form of §4.4) (model.md §17.2, §17.3).
    std::int32_t server = -1;
    Tick lag = 0;                             // failover with promote: its link was cut at at - lag
    std::optional<SplitBrain> old_primary{};  // failover with promote: split brain (§17.5)
    // Redlock (model.md §20): the store a restart or a store's clock_jump
    // happens to (-1: none), what a restart keeps, and the stores a
    // partition or delay concerns (bit i: store i; 0: every store).
    std::int32_t store = -1;
    Persistence persistence = Persistence::none;
    std::uint32_t stores = 0;

    // The tick at which the fault ends (pause, partition), else tick_none: a
    // delay has no edges, it holds for messages sent in [at, at + ticks).
    Tick end() const {
        return (kind == FaultKind::pause || kind == FaultKind::partition || kind == FaultKind::replica_link ||
                kind == FaultKind::restart)
                   ? at + ticks
                   : tick_none;
    }
    bool promotes() const { return kind == FaultKind::failover && server >= 0; }
};

// A fault's start or its end, as a tick's first phase takes them (§6.1):
// the other clients' runs (model.md §20, §21) keep their faults as a list of
// these.
struct FaultEdge {
    Tick tick;
    std::int32_t fault;  // index in Scenario::faults
    bool end;
};

struct Op {
    Tick at = 0;
    std::string actor;
    OpKind op = OpKind::status;
    NodeIndex token_of = -1;  // validate only
};

// The redlock client's options, named as the package names them
// (model.md §20.1 rule 2; redlock.js 58-63 gives the defaults).
struct RedlockOptions {
    std::int64_t retry_count = 10;  // -1: for ever
    std::int64_t retry_delay_ms = 200;
    std::int64_t retry_jitter_ms = 100;
    double drift_factor = 0.01;
    bool operator==(const RedlockOptions&) const = default;
};

// Redisson's Config options that the lock reads (model.md §21.1 rule 1;
// config/Config.java 74 at redisson-parent-3.31.0 gives the default).
struct RedissonOptions {
    std::int64_t lock_watchdog_timeout_ms = 30'000;
    bool operator==(const RedissonOptions&) const = default;
};

struct Scenario {
    std::string name;
    Localized title;
    Localized summary;
    std::int64_t tick_ms = 50;
    Tick horizon = 1000;
    std::uint64_t seed = 0;
    Order order = Order::declared;
    LockConfig lock;
    ElectorKind elector = ElectorKind::lock;  // lock.elector; copied into every candidate's options
    ResourceMode resource = ResourceMode::off;
    Network network;  // the top level's "network", as written (each candidate holds its merged one)
    std::vector<Candidate> candidates;
    std::vector<Fault> faults;
    std::vector<Op> ops;
    // Questions about this scenario (model.md §18); the simulation ignores them.
    std::vector<Exercise> exercises;
    // Redlock (model.md §20): the client, the independent stores (empty: the
    // one store of §4) and the client's options.
    Client client = Client::elector;
    std::vector<std::string> stores;
    RedlockOptions redlock;
    StoresClock stores_clock = StoresClock::wall;
    bool redlock_given = false;  // "redlock" was written: written back
    bool is_redlock() const { return client == Client::redlock; }
    // Redisson's RLock (model.md §21): its Config options.
    RedissonOptions redisson;
    bool redisson_given = false;  // "redisson" was written: written back
    bool is_redisson() const { return client == Client::redisson; }

    // -1 when no candidate has this name.
    NodeIndex find(std::string_view candidate_name) const;
};

// An error in a scenario: where (file, line:column for syntax, JSON path for
// meaning) and what was expected.
struct ScenarioError {
    std::string file;
    std::string where;  // "12:5" or "/candidates/1/lease"
    std::string message;
    std::string to_string() const;
};

using ScenarioResult = Result<Scenario, ScenarioError>;

// `--set path=value`: path in dots or slashes (defaults.lease,
// candidates/1/start); value as JSON, or a plain string when it is not JSON.
struct Override {
    std::string path;
    std::string value;
};
Result<Override, std::string> parse_override(std::string_view text);

// How a scenario's JSON text is read. `fast` reads plain JSON (no escapes,
// comments or fractions, integers of at most 18 digits) with a scan of its
// own and hands anything else, errors included, to nlohmann's parser;
// `general` always uses nlohmann's parser. Both give the same scenario or
// the same errors (the tests and fuzz_scenario compare them).
enum class ScenarioJsonReader { fast, general };

// Parses and validates the bytes of a scenario file. `file` only names it in errors.
ScenarioResult parse_scenario(std::string_view text, const std::string& file,
                              const std::vector<Override>& overrides = {},
                              ScenarioJsonReader reader = ScenarioJsonReader::fast);
// The same, with every error of the file (validation goes on past the first
// where the next check does not depend on it), in file order by JSON path. A
// syntax error stops parsing: it is then the only one. parse_scenario
// returns the first of these.
Result<Scenario, std::vector<ScenarioError>> parse_scenario_all_errors(
    std::string_view text, const std::string& file, const std::vector<Override>& overrides = {},
    ScenarioJsonReader reader = ScenarioJsonReader::fast);

// The scenario as a JSON document (two-space indent, ending in a newline) that
// parses back to an equal scenario.
std::string scenario_to_json(const Scenario& scenario);

}  // namespace leasescope::sim

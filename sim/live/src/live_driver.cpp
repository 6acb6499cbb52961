// Live mode: the scenario's scheduler run in real time against Redis, compared with the simulation (live_driver.hpp,
// docs/model.md §13).
#include "leasescope/live/live_driver.hpp"

#include "live_redisson.hpp"
#include "live_redlock.hpp"
#include "live_replicas.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <csignal>
#include <memory>
#include <random>

#include <fmt/format.h>

#include "leasescope/live/os_token_source.hpp"
#include "leasescope/live/tick_pacer.hpp"
#include "leasescope/redis/redis_store.hpp"
#include "leasescope/sim/simulation.hpp"

namespace leasescope::live {
namespace {

// Between the scheduler and the Redis store. A node's call that fails is the
// node's business in the simulator (acquire_failed, an error event), but in
// live mode it means Redis is failing: the failure is remembered and the next
// tick-level call (failover, expire) returns it, which stops the run at the
// start of the next tick. Cancellation stops the run the same way, before any
// node makes a call in that tick.
class GuardedStore final : public Store {
public:
    GuardedStore(Store& inner, const std::atomic<bool>* cancel) : inner_(inner), cancel_(cancel) {}

    const std::optional<StoreError>& first_error() const { return first_error_; }
    bool cancelled() const { return cancel_ != nullptr && cancel_->load(); }

    StoreResult<AcquireReply> acquire(Tick now, std::string_view owner, std::string_view token, Tick lease) override {
        return note(inner_.acquire(now, owner, token, lease));
    }
    StoreResult<ExtendReply> extend(Tick now, std::string_view token, Tick lease) override {
        return note(inner_.extend(now, token, lease));
    }
    StoreResult<ReleaseReply> release(Tick now, std::string_view token, Tick keep_for, Tick hold_off) override {
        return note(inner_.release(now, token, keep_for, hold_off));
    }
    StoreResult<StatusReply> status(Tick now) override { return note(inner_.status(now)); }
    StoreResult<Validity> validate(Tick now, std::string_view token) override {
        return note(inner_.validate(now, token));
    }
    StoreResult<std::vector<ExpiredRecord>> expire(Tick now) override {
        if (auto stop = stop_reason()) return Err{*stop};
        return note(inner_.expire(now));
    }
    StoreResult<Unit> failover(Tick now, FailoverLoss loss) override {
        if (auto stop = stop_reason()) return Err{*stop};
        return note(inner_.failover(now, loss));
    }
    // A store clock jump is a fault, a tick-level call (model.md §13.6).
    StoreResult<Unit> clock_jump(Tick now, std::int64_t ms) override {
        if (auto stop = stop_reason()) return Err{*stop};
        return note(inner_.clock_jump(now, ms));
    }
    // Replication (model.md §13.8): the edges are tick-level calls, so a
    // remembered failure or a cancel stops the run there, as failover does.
    StoreResult<Unit> cut_link(Tick now, std::int32_t server) override {
        if (auto stop = stop_reason()) return Err{*stop};
        return note(inner_.cut_link(now, server));
    }
    StoreResult<Unit> restore_link(Tick now, std::int32_t server) override {
        if (auto stop = stop_reason()) return Err{*stop};
        return note(inner_.restore_link(now, server));
    }
    StoreResult<Fencing> promote(Tick now, std::int32_t server, const SplitBrain* split) override {
        if (auto stop = stop_reason()) return Err{*stop};
        return note(inner_.promote(now, server, split));
    }
    StoreResult<Unit> end_split(Tick now) override {
        if (auto stop = stop_reason()) return Err{*stop};
        return note(inner_.end_split(now));
    }
    void route(std::int32_t server) override { inner_.route(server); }
    StoreResult<std::int32_t> synced_replicas(Tick now) override { return note(inner_.synced_replicas(now)); }
    // Stops the run at the next tick, as a failed call would.
    void stop_with(StoreError error) {
        if (!first_error_) first_error_ = std::move(error);
    }

private:
    std::optional<StoreError> stop_reason() const {
        if (first_error_) return first_error_;
        if (cancelled()) return StoreError{"cancelled", false};
        return std::nullopt;
    }
    template <class T>
    StoreResult<T> note(StoreResult<T> result) {
        // A refusal for want of replicas is the model's answer (§17.4), not Redis failing.
        if (!result.ok() && !first_error_ && !result.error().no_replicas) first_error_ = result.error();
        return result;
    }

    Store& inner_;
    const std::atomic<bool>* cancel_;
    std::optional<StoreError> first_error_;
};

class CollectingSink final : public sim::EventSink {
public:
    CollectingSink(std::vector<sim::Event>& events, const std::function<void(const sim::Event&)>& on_event)
        : events_(events), on_event_(on_event) {}
    void on_event(const sim::Event& event) override {
        events_.push_back(event);
        if (on_event_) on_event_(event);
    }

private:
    std::vector<sim::Event>& events_;
    const std::function<void(const sim::Event&)>& on_event_;
};

// A summary of the events so far, for a run that stopped early.
sim::TraceSummary partial_summary(const sim::Simulation& sim, const std::vector<sim::Event>& events) {
    sim::TraceSummary summary;
    summary.end_tick = events.empty() ? 0 : events.back().tick;
    summary.results = sim.results();
    summary.violations = sim.violations();
    summary.events = static_cast<std::int64_t>(events.size());
    sim::TraceHasher hasher;
    for (const auto& e : events) hasher.add_line(sim::event_line(e));
    summary.trace_sha256 = hasher.hex();
    return summary;
}

// A random id for the run-ownership key (not a lease token: it never
// reaches a trace).
std::string new_run_id() {
    std::random_device device;
    std::string id;
    for (int i = 0; i < 4; ++i) {
        char part[9];
        std::snprintf(part, sizeof part, "%08x", static_cast<unsigned>(device()));
        id += part;
    }
    return id;
}

// hiredis writes with write(2): a server that closed the connection would
// raise SIGPIPE and kill the process instead of returning an error.
void ignore_sigpipe() { std::signal(SIGPIPE, SIG_IGN); }

}  // namespace

sim::Scenario with_tick_ms(const sim::Scenario& scenario, std::int64_t tick_ms) {
    sim::Scenario out = scenario;
    if (tick_ms <= 0) return out;
    // Every copy the reader made of tick_ms (scenario_read.cpp) follows: the
    // store's clock converts a store jump's ms to ticks (model.md §3.3), and
    // a candidate's options convert its watchdog and default timeouts.
    out.tick_ms = tick_ms;
    out.lock.clock.tick_ms = tick_ms;
    for (sim::Candidate& c : out.candidates) c.options.tick_ms = tick_ms;
    return out;
}

namespace {
// The replication faults live mode makes real (model.md §13.8).
std::vector<std::string> real_replication_lines(const sim::Scenario& scenario) {
    bool cut = false, promote = false, split = false;
    for (const auto& f : scenario.faults) {
        cut |= f.kind == sim::FaultKind::replica_link || (f.promotes() && f.lag > 0);
        promote |= f.promotes();
        split |= f.promotes() && f.old_primary.has_value();
    }
    std::vector<std::string> out;
    if (cut) {
        out.emplace_back(
            "replica_link (and a failover's lag): real, REPLICAOF NO ONE on the replica at the cut and REPLICAOF "
            "the primary when it ends (the run waits until the replica is online again)");
    }
    if (promote) {
        out.emplace_back(
            "failover with promote: real, REPLICAOF NO ONE on the promoted replica and REPLICAOF it on every other "
            "linked server; the nodes' calls move to it");
    }
    if (split) {
        out.emplace_back(
            "old_primary (split brain): the old primary is left a primary without replicas for the listed nodes' "
            "calls until `until`, then made a replica of the new one; no network is cut");
    }
    if (scenario.lock.replication.min_replicas_to_write > 0) {
        out.emplace_back(
            "min_replicas_to_write: real, CONFIG SET min-replicas-to-write and min-replicas-max-lag on every server "
            "for the run, restored after it");
    }
    return out;
}
}  // namespace

std::vector<std::string> emulated_faults(const sim::Scenario& scenario) {
    if (scenario.is_redlock()) return redlock_emulated_faults(scenario);
    if (scenario.is_redisson()) return redisson_emulated_faults(scenario);
    bool pause = false, partition = false, crash = false, lose_leases = false, lose_all = false;
    for (const auto& f : scenario.faults) {
        pause |= f.kind == sim::FaultKind::pause;
        partition |= f.kind == sim::FaultKind::partition;
        crash |= f.kind == sim::FaultKind::crash;
        lose_leases |= f.kind == sim::FaultKind::failover && !f.promotes() && f.lose == FailoverLoss::leases;
        lose_all |= f.kind == sim::FaultKind::failover && !f.promotes() && f.lose == FailoverLoss::all;
    }
    std::vector<std::string> out = real_replication_lines(scenario);
    if (pause) out.emplace_back("pause: emulated, the scheduler does not step the node (no process is stopped)");
    if (partition) {
        out.emplace_back(
            "partition: emulated, the scheduler drops the node's call before Redis (drop_requests) or its reply "
            "after Redis (drop_replies); the network is untouched");
    }
    if (crash) out.emplace_back("crash: emulated, the scheduler stops the node for good without releasing");
    // One line per loss present (model.md §4.4): the counter survives "leases".
    if (lose_leases) {
        out.emplace_back(
            "failover (lose = leases): emulated, this lock's slots and hold-off are deleted and its fencing "
            "counter is kept; no replica is involved");
    }
    if (lose_all) {
        out.emplace_back(
            "failover (lose = all): emulated, this lock's slots and hold-off are deleted and its fencing counter "
            "is reset to fencing_start - 1; no replica is involved");
    }
    const bool node_jump = std::any_of(scenario.faults.begin(), scenario.faults.end(), [](const sim::Fault& f) {
        return f.kind == sim::FaultKind::clock_jump && f.node >= 0;
    });
    const bool node_drift = std::any_of(scenario.candidates.begin(), scenario.candidates.end(),
                                        [](const sim::Candidate& c) { return c.options.drift_ppm != 0; });
    const bool store_jump = std::any_of(scenario.faults.begin(), scenario.faults.end(), [](const sim::Fault& f) {
        return f.kind == sim::FaultKind::clock_jump && f.node < 0;
    });
    if (store_jump) {
        out.emplace_back(
            "clock_jump of the store's clock: emulated, no clock moves: one script moves the deadlines of the "
            "lock's records and hold-off on the server by whole ticks (model.md §13.6)");
    }
    if (node_jump) {
        out.emplace_back(
            "clock_jump of a node's clock: an event only, as in the simulation: the elector's timers are on a "
            "monotonic clock (model.md §3.3)");
    }
    const bool wire = !scenario.network.zero() ||
                      std::any_of(scenario.candidates.begin(), scenario.candidates.end(),
                                  [](const sim::Candidate& c) { return !c.network.zero(); }) ||
                      std::any_of(scenario.faults.begin(), scenario.faults.end(),
                                  [](const sim::Fault& f) { return f.kind == sim::FaultKind::delay; });
    if (wire) {
        out.emplace_back(
            "time on the wire (latencies, delay): emulated, the scheduler holds each request until its arrival "
            "tick and each reply and write until theirs, so the real Redis applies a request at its arrival tick "
            "(model.md §16); the network itself is not slowed");
    }
    if (node_drift) {
        out.emplace_back(
            "clock drift of a node: emulated, the scheduler runs the elector's deadline, retries and watchdog on "
            "the node's drifting clock; the machine's clock is untouched");
    }
    return out;
}

std::optional<std::string> redis_count_error(const sim::Scenario& scenario, std::size_t given) {
    if (scenario.is_redlock()) {
        if (given == scenario.stores.size()) return std::nullopt;
        std::string names;
        for (const std::string& s : scenario.stores) names += (names.empty() ? "" : ", ") + s;
        return fmt::format(
            "the scenario has {} stores ({}, /stores): live mode needs {} servers (--redis), one per store in that "
            "order; {} given (model.md rule 20.9.4)",
            scenario.stores.size(), names, scenario.stores.size(), given);
    }
    if (given <= 1) return std::nullopt;
    return fmt::format(
        "the scenario has one store: give one --redis (and its replicas with --replica); {} given (several --redis "
        "are a Redlock scenario's stores, model.md rule 20.9.4)",
        given);
}

namespace {
std::string store_jump_words(const sim::Scenario& scenario, std::size_t i) {
    const sim::Fault& f = scenario.faults[i];
    return "fault " + std::to_string(i) + " (/faults/" + std::to_string(i) + ") jumps " +
           (f.store >= 0 ? "store " + scenario.stores[static_cast<std::size_t>(f.store)] + "'s clock"
                         : std::string("the store's clock"));
}

// The elector's one store, and each of a Redlock scenario's stores, runs a
// store clock jump by moving its keys' deadlines (model.md §13.6 rules 1-3),
// except where that step is not exact (rule 4): with replicas, or a second
// jump of one store that is not whole ticks.
std::optional<std::string> store_jump_refusal(const sim::Scenario& scenario) {
    std::vector<bool> partial_seen(std::max<std::size_t>(scenario.stores.size(), 1), false);
    for (std::size_t i = 0; i < scenario.faults.size(); ++i) {
        const sim::Fault& f = scenario.faults[i];
        if (f.kind != sim::FaultKind::clock_jump || f.node >= 0) continue;
        if (scenario.lock.replication.replicas > 0)
            return store_jump_words(scenario, i) +
                   " in a scenario with replicas; that fault is simulated only: live mode moves the primary's "
                   "deadlines only, and a cut replica would not get the step (model.md §13.6 rule 4)";
        if (f.ms % scenario.tick_ms == 0) continue;
        const auto store = static_cast<std::size_t>(std::max(f.store, 0));
        if (partial_seen[store])
            return store_jump_words(scenario, i) + " by " + std::to_string(f.ms) +
                   " ms, the second jump of that clock that is not whole ticks of " + std::to_string(scenario.tick_ms) +
                   " ms; that fault is simulated only: live mode rounds each step to whole ticks and cannot run "
                   "two such jumps exactly (model.md §13.6 rule 4)";
        partial_seen[store] = true;
    }
    return std::nullopt;
}
}  // namespace

std::optional<std::string> simulated_only(const sim::Scenario& scenario) {
    if (scenario.lock.clock.drift_ppm != 0)
        return std::string(
            "the scenario's store clock drifts (store.clock.drift_ppm); that fault is simulated only: live mode "
            "cannot change the clock of a real Redis server (model.md §13.6)");
    // Redisson's run moves its one key by its record's expiry tick, exact for any jumps (§13.6 rule 3).
    if (scenario.is_redisson()) return std::nullopt;
    return store_jump_refusal(scenario);
}

std::optional<std::string> live_refusal(const sim::Scenario& scenario) {
    if (scenario.lock.name.find_first_of("{}") != std::string::npos) {
        return "the lock name '" + scenario.lock.name +
               "' contains '{' or '}'; live mode keeps one lock in one Redis hash tag and cannot use it";
    }
    return std::nullopt;
}

namespace {

// What run_live needs before its first tick: a scenario live mode can run, a
// connection, this run's ownership of the lock on the server and an empty
// namespace. Null when any of it failed (the reason is in `report`).
std::unique_ptr<redis::RedisStore> open_store(const sim::Scenario& scenario, const LiveOptions& options,
                                              const std::string& run_id, std::int64_t owner_lease_ms,
                                              FoundTopology& found, LiveReport& report) {
    auto url = redis::parse_redis_url(options.redis_url);
    if (!url.ok()) {
        report.input_error = url.error();
        return nullptr;
    }
    report.redis = url.value().redacted();
    if (auto refused = simulated_only(scenario)) {
        report.input_error = std::move(refused);
        return nullptr;
    }
    if (auto refused = live_refusal(scenario)) {
        report.input_error = std::move(refused);
        return nullptr;
    }
    if (auto wrong = redis_count_error(scenario, options.store_urls.size())) {
        report.input_error = std::move(wrong);
        return nullptr;
    }
    if (auto refused = replication_argument_error(scenario, options)) {
        report.input_error = std::move(refused);
        return nullptr;
    }
    auto connected = redis::RedisStore::connect(url.value(), scenario.lock, scenario.tick_ms, options.timeouts);
    if (!connected.ok()) {
        report.backend_error = connected.error();
        return nullptr;
    }
    redis::RedisStore& store = *connected.value();
    // Every check of the replicas before this run touches anything.
    if (!attach_replicas(store, options, found, report)) return nullptr;
    std::int64_t held_for_ms = 0;
    auto claimed = store.claim_run(run_id, owner_lease_ms, held_for_ms);
    if (!claimed.ok()) {
        report.backend_error = claimed.error();
        return nullptr;
    }
    if (!claimed.value()) {
        report.lock_in_use = true;
        report.backend_error = StoreError{
            "another live run of lock '" + scenario.lock.name + "' is using " + report.redis + " (its key " +
                store.keys().run_owner() + " is held for " + std::to_string(held_for_ms) +
                " ms more and renewed while that run lives); wait for it to end, or give this scenario another "
                "lock name",
            false};
        return nullptr;
    }
    if (auto reset = store.reset_namespace(); !reset.ok()) {
        report.backend_error = reset.error();
        (void)store.release_run(run_id);
        return nullptr;
    }
    if (auto configured = configure_min_replicas(store, scenario, found); !configured.ok()) {
        report.backend_error = configured.error();
        (void)restore_topology(store, found);
        (void)store.remove_namespace();
        (void)store.release_run(run_id);
        return nullptr;
    }
    return std::move(connected.value());
}

// Removes this run's keys and its ownership of the lock. Over a lost
// connection this cannot work; the keys left then all carry TTLs, except the
// counter.
// With replicas, the topology and configs found come back first (model.md §13.8).
void leave_nothing_behind(redis::RedisStore& store, const std::string& run_id, const FoundTopology& found,
                          LiveReport& report) {
    if (auto restored = restore_topology(store, found); !restored.ok() && !report.backend_error) {
        report.backend_error = restored.error();
    }
    if (store.connection().broken()) return;
    if (auto removed = store.remove_namespace(); !removed.ok() && !report.backend_error) {
        report.backend_error = removed.error();
    }
    if (auto released = store.release_run(run_id); !released.ok() && !report.backend_error) {
        report.backend_error = released.error();
    }
    // The replicas hold the deletions before the command returns (asynchronous replication).
    if (auto settled = store.catch_up(); !settled.ok() && !report.backend_error) report.backend_error = settled.error();
}

}  // namespace

LiveReport run_live(const sim::Scenario& original, const LiveOptions& options) {
    ignore_sigpipe();
    LiveReport report;
    const sim::Scenario scenario = with_tick_ms(original, options.tick_ms);
    report.tick_ms = scenario.tick_ms;
    if (scenario.is_redlock()) return run_live_redlock(scenario, options);    // one server per store (rule 20.9.4)
    if (scenario.is_redisson()) return run_live_redisson(scenario, options);  // Redisson's scripts (rule 21.9.5)
    // One live run per lock and server: two would read each other's records and judge a history not theirs.
    const std::string run_id = new_run_id();
    const std::int64_t owner_lease_ms = run_owner_lease_ms(scenario.tick_ms);
    FoundTopology found;
    const std::unique_ptr<redis::RedisStore> opened =
        open_store(scenario, options, run_id, owner_lease_ms, found, report);
    if (!opened) return report;
    redis::RedisStore& store = *opened;
    report.replicas = store.server_count() - 1;

    OsTokenSource tokens;
    sim::Simulation sim(scenario, &tokens);
    GuardedStore guarded(store, options.cancel);
    report.trace.header = sim.header();
    CollectingSink sink(report.trace.events, options.on_event);

    TickPacer pacer(scenario.tick_ms);
    std::optional<Tick> previous;
    auto check_previous = [&] {
        if (previous && !pacer.within(*previous)) {
            report.timing_faults.push_back(TimingFault{*previous, pacer.ms_past_deadline(*previous)});
        }
    };
    auto renewed_at = std::chrono::steady_clock::now();
    auto on_tick_begin = [&](Tick t) {
        check_previous();
        // Renew the run-ownership key a third of its lease after the last time.
        const auto now = std::chrono::steady_clock::now();
        if (now - renewed_at >= std::chrono::milliseconds(owner_lease_ms / 3)) {
            auto renewed = store.renew_run(run_id, owner_lease_ms);
            if (!renewed.ok()) {
                guarded.stop_with(renewed.error());
            } else if (!renewed.value()) {
                report.lock_in_use = true;
                guarded.stop_with(StoreError{"this run lost its key " + store.keys().run_owner() +
                                                 " (deleted or taken by another client): its verdict would not be "
                                                 "its own",
                                             false});
            }
            renewed_at = now;
        }
        // A cancel during the wait is acted on by the guarded store, before
        // any node's call in this tick.
        (void)pacer.wait_for_mid(t, options.cancel);
        previous = t;
    };
    pacer.start();
    auto summary = sim::run_to_end(sim, guarded, sink, on_tick_begin);
    check_previous();

    if (summary.ok() && !guarded.first_error()) {
        report.trace.summary = std::move(summary.value());
        report.completed = true;
    } else {
        report.trace.summary = partial_summary(sim, report.trace.events);
        if (guarded.cancelled() && !guarded.first_error()) {
            report.cancelled = true;
        } else {
            report.backend_error = guarded.first_error() ? *guarded.first_error() : summary.error();
        }
    }
    leave_nothing_behind(store, run_id, found, report);
    return report;
}

Comparison compare_with_model(const sim::Scenario& scenario, const LiveReport& live) {
    Comparison out;
    const sim::Scenario at_tick = with_tick_ms(scenario, live.tick_ms);
    out.simulated = sim::simulate(at_tick);
    out.divergence = sim::first_divergence(out.simulated, live.trace, /*ignore_tokens=*/true);
    return out;
}

BenchResult bench_acquire_release(const std::string& redis_url, std::int64_t pairs, const redis::Timeouts& timeouts) {
    ignore_sigpipe();
    BenchResult result;
    LS_ASSERT(pairs >= 1);
    auto url = redis::parse_redis_url(redis_url);
    if (!url.ok()) {
        result.input_error = url.error();
        return result;
    }
    // A namespace of its own, so a bench never meets a live run's lock.
    std::random_device device;
    LockConfig lock;
    lock.name = "leasescope-bench-" + std::to_string(device()) + std::to_string(device());
    // Long ticks: nothing expires while the bench runs.
    auto connected = redis::RedisStore::connect(url.value(), lock, 60'000, timeouts);
    if (!connected.ok()) {
        result.backend_error = connected.error();
        return result;
    }
    redis::RedisStore& store = *connected.value();
    if (auto reset = store.reset_namespace(); !reset.ok()) {
        result.backend_error = reset.error();
        return result;
    }
    OsTokenSource tokens;
    const Token token = tokens.next_token({});
    const std::int64_t warmup = std::min<std::int64_t>(pairs / 10 + 1, 1000);
    std::vector<double> samples_us;
    samples_us.reserve(static_cast<std::size_t>(pairs));
    for (std::int64_t i = 0; i < warmup + pairs; ++i) {
        const auto begin = std::chrono::steady_clock::now();
        auto acquired = store.acquire(0, "bench", token, 10);
        if (!acquired.ok()) {
            result.backend_error = acquired.error();
            return result;
        }
        auto released = store.release(0, token, 0, 0);
        if (!released.ok()) {
            result.backend_error = released.error();
            return result;
        }
        const auto end = std::chrono::steady_clock::now();
        LS_ASSERT(acquired.value().acquired);
        LS_ASSERT(released.value().outcome == ReleaseOutcome::released);
        if (i >= warmup) samples_us.push_back(std::chrono::duration<double, std::micro>(end - begin).count());
    }
    (void)store.remove_namespace();
    std::sort(samples_us.begin(), samples_us.end());
    auto quantile = [&](double q) {
        const auto index = static_cast<std::size_t>(q * static_cast<double>(samples_us.size() - 1) + 0.5);
        return samples_us[std::min(index, samples_us.size() - 1)];
    };
    result.pairs = pairs;
    result.p50_us = quantile(0.50);
    result.p99_us = quantile(0.99);
    result.max_us = samples_us.back();
    double sum = 0;
    for (double s : samples_us) sum += s;
    result.mean_us = sum / static_cast<double>(samples_us.size());
    return result;
}

}  // namespace leasescope::live

// Live mode on real replicas: checks, configuration and restoration (live_replicas.hpp, docs/model.md §13.8).
#include "live_replicas.hpp"

#include <algorithm>

#include "leasescope/redis/replication_admin.hpp"

namespace leasescope::live {
namespace {

bool needs_replicas(const sim::Scenario& scenario) {
    return scenario.lock.replication.replicas > 0 ||
           std::any_of(scenario.faults.begin(), scenario.faults.end(),
                       [](const sim::Fault& f) { return f.kind == sim::FaultKind::replica_link || f.promotes(); });
}

std::string min_lag_seconds(const sim::Scenario& scenario) {
    const Tick ticks = scenario.lock.replication.min_replicas_max_lag > 0
                           ? scenario.lock.replication.min_replicas_max_lag
                           : default_min_replicas_max_lag(scenario.tick_ms);
    // Redis counts whole seconds; a closed link stops counting at once (§17.4 rule 2).
    return std::to_string(std::max<std::int64_t>(1, (ticks * scenario.tick_ms + 999) / 1000));
}

}  // namespace

std::optional<std::string> replication_argument_error(const sim::Scenario& scenario, const LiveOptions& options) {
    const auto replicas = static_cast<std::size_t>(scenario.lock.replication.replicas);
    if (needs_replicas(scenario) && !options.allow_failover) {
        return "the scenario has replicas, a replica_link or a promoting failover: live mode would run REPLICAOF on "
               "the real servers and change their configuration for the run; add --allow-failover to permit it "
               "(model.md §13.8)";
    }
    if (options.replica_urls.size() != replicas) {
        return "the scenario's store.replicas is " + std::to_string(replicas) + " but " +
               std::to_string(options.replica_urls.size()) +
               " --replica URL(s) were given: server i + 1 of the scenario is the i-th --replica";
    }
    const bool min_replicas = scenario.lock.replication.min_replicas_to_write > 0;
    for (std::size_t i = 0; i < scenario.faults.size(); ++i) {
        if (min_replicas && scenario.faults[i].old_primary) {
            return "fault " + std::to_string(i) + " (/faults/" + std::to_string(i) +
                   "/old_primary) keeps an old primary alive with min_replicas_to_write set: its replicas' links "
                   "would have to fall silent (model.md §17.4 rule 2), which needs a network partition; on one "
                   "machine REPLICAOF closes them at once, so live mode refuses it (model.md §13.8)";
        }
    }
    return std::nullopt;
}

// Why server `s` cannot serve the run: a wrong argument (`bad_input`: the
// same server twice) or the servers' state; nothing when it can.
static std::optional<StoreError> check_replica(redis::RedisStore& store, std::int32_t s,
                                               std::vector<std::string>& run_ids, bool& bad_input) {
    auto info = redis::replication_info(store.server(s));
    if (!info.ok()) return info.error();
    const auto& i = info.value();
    const std::string where = store.server(s).where();
    if (std::find(run_ids.begin(), run_ids.end(), i.run_id) != run_ids.end()) {
        bad_input = true;
        return StoreError{where + " is the same server as another --redis/--replica (run_id " + i.run_id + ")", false};
    }
    run_ids.push_back(i.run_id);
    if (s == 0) {
        if (i.role != "master") return StoreError{where + " (--redis) is not a primary (role:" + i.role + ")", false};
        return std::nullopt;
    }
    const std::string which = where + " (--replica number " + std::to_string(s) + ")";
    if (!redis::is_replica_of(i, store.server_url(0))) {
        return StoreError{which + " is not a replica of " + store.server(0).where() + " (role:" + i.role +
                              ", master_host:" + i.master_host + ", master_port:" + std::to_string(i.master_port) + ")",
                          false};
    }
    if (!i.link_up) return StoreError{which + " has master_link_status:down", false};
    return std::nullopt;
}

bool attach_replicas(redis::RedisStore& store, const LiveOptions& options, FoundTopology& found, LiveReport& report) {
    for (const auto& text : options.replica_urls) {
        auto url = redis::parse_redis_url(text);
        if (!url.ok()) {
            report.input_error = "--replica: " + url.error();
            return false;
        }
        auto connection = redis::RedisConnection::open(url.value(), options.timeouts);
        if (!connection.ok()) {
            report.backend_error = connection.error();
            return false;
        }
        store.add_replica(std::move(connection.value()), url.value());
    }
    if (store.server_count() == 1) return true;
    std::vector<std::string> run_ids;
    for (std::int32_t s = 0; s < store.server_count(); ++s) {
        bool bad_input = false;
        auto problem = check_replica(store, s, run_ids, bad_input);
        if (!problem) continue;
        if (bad_input) {
            report.input_error = problem->message;
        } else {
            report.backend_error = std::move(*problem);
        }
        return false;
    }
    // A replica not named would count for WAIT and min-replicas-to-write.
    auto online = redis::online_replicas(store.server(0));
    if (!online.ok() || online.value() != store.server_count() - 1) {
        report.backend_error =
            !online.ok() ? online.error()
                         : StoreError{store.server(0).where() + " has " + std::to_string(online.value()) +
                                          " replica(s) online but " + std::to_string(store.server_count() - 1) +
                                          " --replica were given: a replica the run does not know would count for "
                                          "WAIT and min-replicas-to-write; name every replica of the primary",
                                      false};
        return false;
    }
    for (std::int32_t s = 0; s < store.server_count(); ++s) {
        auto to_write = redis::config_get(store.server(s), "min-replicas-to-write");
        auto max_lag = redis::config_get(store.server(s), "min-replicas-max-lag");
        if (!to_write.ok() || !max_lag.ok()) {
            report.backend_error = !to_write.ok() ? to_write.error() : max_lag.error();
            return false;
        }
        found.configs.push_back(FoundConfig{to_write.value(), max_lag.value()});
    }
    return true;
}

StoreResult<Unit> configure_min_replicas(redis::RedisStore& store, const sim::Scenario& scenario,
                                         FoundTopology& found) {
    if (scenario.lock.replication.min_replicas_to_write == 0) return Unit{};
    found.configured = true;
    const std::string m = std::to_string(scenario.lock.replication.min_replicas_to_write);
    const std::string lag = min_lag_seconds(scenario);
    for (std::int32_t s = 0; s < store.server_count(); ++s) {
        // The lag first: with it at 0 Redis would count no replica at all.
        auto set_lag = redis::config_set(store.server(s), "min-replicas-max-lag", lag);
        if (!set_lag.ok()) return set_lag;
        auto set_m = redis::config_set(store.server(s), "min-replicas-to-write", m);
        if (!set_m.ok()) return set_m;
    }
    return Unit{};
}

static void keep_first(StoreResult<Unit>& first, StoreResult<Unit> next) {
    if (first.ok() && !next.ok()) first = std::move(next);
}

StoreResult<Unit> restore_topology(redis::RedisStore& store, const FoundTopology& found) {
    StoreResult<Unit> first = Unit{};
    if (store.server_count() == 1) return first;
    // The configs first: a primary short of replicas would refuse the DEL.
    for (std::int32_t s = 0; s < store.server_count() && found.configured; ++s) {
        if (store.server(s).broken()) continue;
        const auto& c = found.configs[static_cast<std::size_t>(s)];
        keep_first(first, redis::config_set(store.server(s), "min-replicas-to-write", c.min_replicas_to_write));
        keep_first(first, redis::config_set(store.server(s), "min-replicas-max-lag", c.min_replicas_max_lag));
    }
    // The run's keys go from every server that is a primary now (writable).
    for (std::int32_t s : {store.primary(), store.old_primary()}) {
        if (s < 0 || store.server(s).broken()) continue;
        store.route(s == store.primary() ? -1 : s);
        keep_first(first, store.remove_namespace());
        store.route(-1);
    }
    keep_first(first, store.reset_topology());
    return first;
}

}  // namespace leasescope::live

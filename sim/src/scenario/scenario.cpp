// The scenario's names and small parts (enum words, Scenario::find, an
// error's text) and the write-back, scenario_to_json.
#include "leasescope/sim/scenario.hpp"

#include <fmt/format.h>

#include "scenario_internal.hpp"

namespace leasescope::sim {

using scenario_detail::ordered_json;

const char* to_string(Order o) { return o == Order::declared ? "declared" : "shuffled"; }
const char* to_string(ResourceMode m) {
    switch (m) {
        case ResourceMode::off: return "off";
        case ResourceMode::check: return "check";
        case ResourceMode::validate: return "validate";
    }
    return "?";
}
const char* to_string(FaultKind k) {
    switch (k) {
        case FaultKind::pause: return "pause";
        case FaultKind::partition: return "partition";
        case FaultKind::crash: return "crash";
        case FaultKind::failover: return "failover";
        case FaultKind::clock_jump: return "clock_jump";
        case FaultKind::delay: return "delay";
        case FaultKind::replica_link: return "replica_link";
        case FaultKind::restart: return "restart";
    }
    return "?";
}
const char* to_string(Link l) {
    switch (l) {
        case Link::request: return "request";
        case Link::reply: return "reply";
        case Link::write: return "write";
    }
    return "?";
}
const char* to_string(PartitionMode m) { return m == PartitionMode::drop_requests ? "drop_requests" : "drop_replies"; }
const char* to_string(FailoverLoss l) { return l == FailoverLoss::leases ? "leases" : "all"; }
const char* to_string(OpKind k) { return k == OpKind::status ? "status" : "validate"; }
const char* to_string(Persistence p) {
    switch (p) {
        case Persistence::none: return "none";
        case Persistence::everysec: return "everysec";
        case Persistence::always: return "always";
    }
    return "?";
}
const char* to_string(Client c) {
    switch (c) {
        case Client::elector: return "elector";
        case Client::redlock: return "redlock";
        case Client::redisson: return "redisson";
    }
    return "?";
}
const char* to_string(StoresClock c) { return c == StoresClock::wall ? "wall" : "monotonic"; }

NodeIndex Scenario::find(std::string_view candidate_name) const {
    for (std::size_t i = 0; i < candidates.size(); ++i) {
        if (candidates[i].name == candidate_name) return static_cast<NodeIndex>(i);
    }
    return -1;
}

std::string ScenarioError::to_string() const {
    if (where.empty()) return fmt::format("{}: {}", file, message);
    if (!where.empty() && (where[0] == '/' || where.rfind("--set", 0) == 0))
        return fmt::format("{}: {}: {}", file, where, message);
    return fmt::format("{}:{}: {}", file, where, message);
}

namespace {

// One fault as a scenario file writes it: its kind's keys only; a failover
// of a store with replicas (model.md §17.3) names promote and leaves lose out.
ordered_json fault_to_json(const Scenario& s, const Fault& f) {
    ordered_json j;
    j["kind"] = to_string(f.kind);
    if (f.kind == FaultKind::clock_jump) {
        j["clock"] = f.node >= 0    ? s.candidates[static_cast<std::size_t>(f.node)].name
                     : f.store >= 0 ? s.stores[static_cast<std::size_t>(f.store)]
                                    : std::string("store");
    } else if (f.kind == FaultKind::restart) {
        j["store"] = s.stores[static_cast<std::size_t>(f.store)];
    } else if (f.node >= 0) {
        j["node"] = s.candidates[static_cast<std::size_t>(f.node)].name;
    }
    if (f.kind == FaultKind::replica_link) j["replica"] = f.server;
    j["at"] = f.at;
    if (f.kind == FaultKind::clock_jump) j["ms"] = f.ms;
    if (f.kind == FaultKind::pause || f.kind == FaultKind::partition || f.kind == FaultKind::delay ||
        f.kind == FaultKind::replica_link || f.kind == FaultKind::restart)
        j["ticks"] = f.ticks;
    if (f.kind == FaultKind::restart) j["persistence"] = to_string(f.persistence);
    if ((f.kind == FaultKind::partition || f.kind == FaultKind::delay) && f.stores != 0) {
        ordered_json names = ordered_json::array();
        for (std::size_t i = 0; i < s.stores.size(); ++i)
            if ((f.stores >> i) & 1U) names.push_back(s.stores[i]);
        j["stores"] = std::move(names);
    }
    if (f.kind == FaultKind::delay) {
        j["link"] = to_string(f.link);
        j["extra"] = f.extra;
    }
    if (f.kind == FaultKind::partition) j["mode"] = to_string(f.mode);
    if (f.kind == FaultKind::failover && !f.promotes()) j["lose"] = to_string(f.lose);
    if (f.promotes()) {
        j["promote"] = f.server;
        if (f.lag > 0) j["lag"] = f.lag;
    }
    if (f.promotes() && f.old_primary) {
        ordered_json names = ordered_json::array();
        for (const NodeIndex n : f.old_primary->reachable_by)
            names.push_back(s.candidates[static_cast<std::size_t>(n)].name);
        j["old_primary"] = {{"reachable_by", std::move(names)}, {"until", f.old_primary->until}};
    }
    return j;
}

// The client and its options (model.md §20.1, §21.1): only for a client
// other than the elector, so other files are written as before.
void client_to_json(const Scenario& s, ordered_json& root) {
    if (s.is_redlock()) {
        root["client"] = to_string(s.client);
        root["stores"] = s.stores;
        if (s.stores_clock != StoresClock::wall) root["stores_clock"] = to_string(s.stores_clock);
        const RedlockOptions& o = s.redlock;
        root["redlock"] = {{"retry_count", o.retry_count},
                           {"retry_delay_ms", o.retry_delay_ms},
                           {"retry_jitter_ms", o.retry_jitter_ms},
                           {"drift_factor", o.drift_factor}};
    }
    // Redisson (model.md §21): only for that client.
    if (s.is_redisson()) {
        root["client"] = to_string(s.client);
        if (s.redisson_given) root["redisson"] = {{"lock_watchdog_timeout_ms", s.redisson.lock_watchdog_timeout_ms}};
    }
}

}  // namespace

std::string scenario_to_json(const Scenario& s) {
    ordered_json root;
    root["name"] = s.name;
    if (!s.title.en.empty() || !s.title.ko.empty()) root["title"] = {{"en", s.title.en}, {"ko", s.title.ko}};
    if (!s.summary.en.empty() || !s.summary.ko.empty()) root["summary"] = {{"en", s.summary.en}, {"ko", s.summary.ko}};
    root["tick_ms"] = s.tick_ms;
    root["horizon"] = s.horizon;
    root["seed"] = s.seed;
    root["order"] = to_string(s.order);
    const auto network_json = [](const Network& n) {
        return ordered_json{{"request", n.request}, {"reply", n.reply}, {"write", n.write}};
    };
    if (!s.network.zero()) root["network"] = network_json(s.network);
    client_to_json(s, root);
    root["lock"] = {{"name", s.lock.name},
                    {"capacity", s.lock.capacity},
                    {"fencing_start", s.lock.fencing_start},
                    {"elector", to_string(s.elector)}};
    root["resource"] = {{"mode", to_string(s.resource)}};
    // The store: only what differs from its defaults, so a store without a
    // drift or replicas is written as before.
    ordered_json store = ordered_json::object();
    if (s.lock.clock.drift_ppm != 0) store["clock"] = {{"drift_ppm", s.lock.clock.drift_ppm}};
    const Replication& r = s.lock.replication;
    if (r.replicas > 0) store["replicas"] = r.replicas;
    if (r.min_replicas_to_write > 0) store["min_replicas_to_write"] = r.min_replicas_to_write;
    if (r.min_replicas_max_lag > 0) store["min_replicas_max_lag"] = r.min_replicas_max_lag;
    if (!store.empty()) root["store"] = std::move(store);
    ordered_json candidates = ordered_json::array();
    for (const Candidate& c : s.candidates) {
        ordered_json j = scenario_detail::candidate_to_json(c);
        if (c.network != s.network) j["network"] = network_json(c.network);
        candidates.push_back(std::move(j));
    }
    root["candidates"] = std::move(candidates);
    ordered_json faults = ordered_json::array();
    for (const Fault& f : s.faults) {
        faults.push_back(fault_to_json(s, f));
    }
    root["faults"] = std::move(faults);
    ordered_json ops = ordered_json::array();
    for (const Op& op : s.ops) {
        ordered_json j;
        j["at"] = op.at;
        j["actor"] = op.actor;
        j["op"] = to_string(op.op);
        if (op.op == OpKind::validate) j["token_of"] = s.candidates[static_cast<std::size_t>(op.token_of)].name;
        ops.push_back(std::move(j));
    }
    root["ops"] = std::move(ops);
    // Exercises (model.md §18.1 item 3): only when there are some, so a file
    // without them is written as before.
    if (!s.exercises.empty()) {
        ordered_json exercises = ordered_json::array();
        for (const Exercise& e : s.exercises) exercises.push_back(scenario_detail::exercise_to_json(e));
        root["exercises"] = std::move(exercises);
    }
    return root.dump(2) + "\n";
}

}  // namespace leasescope::sim

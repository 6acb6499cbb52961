// The scenario keys of a store with replicas (model.md §17): a fault's
// replica_link, a failover's promote, lag and old_primary, each checked
// against store.replicas, then the failovers and link cuts of the whole list
// against the primary they meet (§17.2 item 3, §17.3 item 5, §17.5).
#include <algorithm>
#include <tuple>

#include <fmt/format.h>

#include "leasescope/sim/limits.hpp"
#include "scenario_internal.hpp"

namespace leasescope::sim::scenario_detail {
namespace {

std::string unknown_server(std::int64_t server, std::int32_t replicas) {
    return fmt::format("unknown server {}: the store has servers 0 to {} (store.replicas is {})", server, replicas,
                       replicas);
}

// A failover's split brain (§17.5): reachable_by names candidates, each
// once (kept sorted by declared index); until after the failover's tick.
SplitBrain read_old_primary(const json& v, const std::string& path, const Scenario& s, const NodeNames& names,
                            const Fault& f, Failures& errors) {
    need_object(v, path);
    if (!check_keys(v, path, key_names_of(Section::old_primary), errors)) throw Failure{path, "", true};
    for (const ScenarioKey* key : keys_of(Section::old_primary)) {
        if (key->need == Need::required && !v.contains(key->name))
            fail(path, fmt::format("missing \"{}\" (required for an old_primary)", key->name));
    }
    SplitBrain split;
    const std::string list_path = path + "/reachable_by";
    const json& list = v["reachable_by"];
    if (!list.is_array() || list.empty())
        fail(list_path, fmt::format("expected an array of one or more candidate names, found {}",
                                    list.is_array() ? "an empty array (leave old_primary out when no node "
                                                      "reaches the old primary)"
                                                    : describe(list)));
    if (static_cast<std::int64_t>(list.size()) > limits::candidates_max)
        fail(list_path, fmt::format("expected at most {} names, found {}", limits::candidates_max, list.size()));
    std::vector<std::pair<NodeIndex, std::size_t>> seen;  // node, position in the list
    for (std::size_t k = 0; k < list.size(); ++k) {
        const std::string item_path = fmt::format("{}/{}", list_path, k);
        const NodeIndex n = get_node(list[k], item_path, s, &names);
        for (const auto& [node, at] : seen) {
            if (node == n)
                fail(item_path, fmt::format("{} appears twice in reachable_by (also {}/{}); name each node once",
                                            quote(s.candidates[static_cast<std::size_t>(n)].name), list_path, at));
        }
        seen.emplace_back(n, k);
        split.reachable_by.push_back(n);
    }
    std::sort(split.reachable_by.begin(), split.reachable_by.end());
    const std::string until_path = path + "/until";
    split.until = get_key_int(v["until"], until_path, scenario_key(Section::old_primary, "until"));
    if (split.until <= f.at)
        fail(until_path, fmt::format("until {} must be after the failover's tick {} (the old primary lives on in "
                                     "ticks {} … until − 1)",
                                     split.until, f.at, f.at));
    return split;
}

// promote, lag and old_primary against store.replicas (§17.3 item 5).
void check_failover_keys(const json& v, const std::string& path, std::int32_t replicas, const Fault& f) {
    if (replicas == 0) {
        for (const char* key : {"promote", "lag", "old_primary"}) {
            if (v.contains(key))
                fail(path + "/" + key,
                     fmt::format("\"{}\" needs a store with replicas, and store.replicas is 0; without replicas a "
                                 "failover has only \"lose\" (docs/model.md §4.4)",
                                 key));
        }
        return;
    }
    if (v.contains("lose"))
        fail(path + "/lose",
             fmt::format("\"lose\" is the failover of a store without replicas; with store.replicas {} a failover "
                         "promotes a replica and loses what had not reached it: give \"promote\" instead "
                         "(docs/model.md §17.3)",
                         replicas));
    if (!v.contains("promote"))
        fail(path, fmt::format("missing \"promote\" (required for a failover when store.replicas is {}: the server "
                               "that becomes the primary, a replica at that tick, 0 to {})",
                               replicas, replicas));
    if (f.server > replicas) fail(path + "/promote", unknown_server(f.server, replicas));
}

}  // namespace

void read_replication_fault(const json& v, const std::string& path, const Scenario& s, const NodeNames& names,
                            bool replicas_known, Fault& f, Failures& errors) {
    const std::int32_t replicas = s.lock.replication.replicas;
    if (f.kind == FaultKind::replica_link) {
        f.server = static_cast<std::int32_t>(
            get_key_int(v["replica"], path + "/replica", scenario_key(Section::fault, "replica")));
        if (replicas_known && replicas == 0)
            fail(path + "/replica", "a replica_link needs a store with replicas, and store.replicas is 0");
        if (replicas_known && f.server > replicas) fail(path + "/replica", unknown_server(f.server, replicas));
        return;
    }
    LS_ASSERT(f.kind == FaultKind::failover);
    if (v.contains("promote"))
        f.server = static_cast<std::int32_t>(
            get_key_int(v["promote"], path + "/promote", scenario_key(Section::fault, "promote")));
    if (v.contains("lag")) f.lag = get_key_int(v["lag"], path + "/lag", scenario_key(Section::fault, "lag"));
    if (f.lag > f.at)
        fail(path + "/lag",
             fmt::format("lag {} reaches before tick 0 (the failover is at tick {}); at most {}", f.lag, f.at, f.at));
    if (v.contains("old_primary"))
        f.old_primary = read_old_primary(v["old_primary"], path + "/old_primary", s, names, f, errors);
    if (replicas_known) check_failover_keys(v, path, replicas, f);
}

namespace {

// The promoting failovers in tick order (file order within a tick).
std::vector<std::size_t> failovers_in_order(const Scenario& s) {
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < s.faults.size(); ++i) {
        if (s.faults[i].promotes()) order.push_back(i);
    }
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return s.faults[a].at < s.faults[b].at; });
    return order;
}

// The primary at tick t: server 0, then each failover's promote from its
// tick on (§17.3); `before` leaves out a failover at t itself.
std::int32_t primary_at(const Scenario& s, const std::vector<std::size_t>& failovers, Tick t, bool before) {
    std::int32_t primary = 0;
    for (const std::size_t i : failovers) {
        const Fault& f = s.faults[i];
        if (f.at < t || (!before && f.at == t)) primary = f.server;
    }
    return primary;
}

// One failover against the ones before and after it: not two at a tick,
// promote a replica (since its lag's cut), a split brain healed by the next.
void check_failover_order(const Scenario& s, const std::vector<std::size_t>& failovers, std::size_t k) {
    const std::size_t i = failovers[k];
    const Fault& f = s.faults[i];
    const std::string path = fmt::format("/faults/{}", i);
    if (k > 0 && s.faults[failovers[k - 1]].at == f.at)
        fail(path, fmt::format("a second failover at tick {} (also /faults/{}); the store fails over once a tick", f.at,
                               failovers[k - 1]));
    const std::int32_t primary = primary_at(s, failovers, f.at, true);
    if (f.server == primary)
        fail(path + "/promote",
             fmt::format("server {} is the primary at tick {}; promote names a replica", f.server, f.at));
    if (f.lag > 0) {
        // The first tick of at - lag … at - 1 at which the promoted server was the primary, if any.
        const Tick cut = f.at - f.lag;
        Tick was_primary = primary_at(s, failovers, cut, false) == f.server ? cut : tick_none;
        for (std::size_t j = 0; j < k && was_primary == tick_none; ++j) {
            const Fault& g = s.faults[failovers[j]];
            if (g.at > cut && g.server == f.server) was_primary = g.at;
        }
        if (was_primary != tick_none)
            fail(path + "/lag", fmt::format("lag {} cuts server {}'s link at tick {}, but server {} is the primary at "
                                            "tick {}; a lag cuts the link of a replica, so it reaches back at most "
                                            "to when server {} became one",
                                            f.lag, f.server, cut, f.server, was_primary, f.server));
    }
    if (f.old_primary && k + 1 < failovers.size() && f.old_primary->until > s.faults[failovers[k + 1]].at)
        fail(path + "/old_primary/until",
             fmt::format("until {} is after the next failover, at tick {} (/faults/{}); the split brain must heal "
                         "by then",
                         f.old_primary->until, s.faults[failovers[k + 1]].at, failovers[k + 1]));
}

// A replica_link names a replica at its tick: not the primary, nor an old
// primary that split brain keeps alive (§17.2 item 3, §17.5).
void check_link_cut(const Scenario& s, const std::vector<std::size_t>& failovers, std::size_t i) {
    const Fault& f = s.faults[i];
    const std::string path = fmt::format("/faults/{}/replica", i);
    if (primary_at(s, failovers, f.at, false) == f.server)
        fail(path,
             fmt::format("server {} is the primary at tick {}; a replica_link cuts a replica's link", f.server, f.at));
    for (const std::size_t j : failovers) {
        const Fault& g = s.faults[j];
        if (g.old_primary && g.at <= f.at && f.at < g.old_primary->until &&
            primary_at(s, failovers, g.at, true) == f.server)
            fail(path, fmt::format("server {} is the old primary of split brain at tick {} (/faults/{}, until {}); "
                                   "a replica_link cuts a replica's link",
                                   f.server, f.at, j, g.old_primary->until));
    }
}

}  // namespace

void check_replication_faults(const Scenario& s, Failures& errors) {
    const std::vector<std::size_t> failovers = failovers_in_order(s);
    for (std::size_t k = 0; k < failovers.size(); ++k) attempt(errors, [&] { check_failover_order(s, failovers, k); });
    for (std::size_t i = 0; i < s.faults.size(); ++i) {
        if (s.faults[i].kind == FaultKind::replica_link) attempt(errors, [&] { check_link_cut(s, failovers, i); });
    }
}

}  // namespace leasescope::sim::scenario_detail

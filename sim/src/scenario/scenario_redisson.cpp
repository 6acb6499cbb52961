// Reading what a Redisson scenario adds (model.md §21.1): the object
// `redisson` (Config's lockWatchdogTimeout) and what Redisson's RLock, as
// the model has it, cannot have, each refused at its JSON path.
#include <fmt/format.h>

#include "leasescope/sim/limits.hpp"
#include "scenario_internal.hpp"

namespace leasescope::sim::scenario_detail {

namespace {

void read_redisson_options(const json& v, Scenario& s, Failures& errors) {
    const json& o = need_object(v, "/redisson");
    check_keys(o, "/redisson", key_names_of(Section::redisson), errors);
    s.redisson_given = true;
    if (o.contains("lock_watchdog_timeout_ms"))
        attempt(errors, [&] {
            s.redisson.lock_watchdog_timeout_ms =
                get_key_int(o["lock_watchdog_timeout_ms"], "/redisson/lock_watchdog_timeout_ms",
                            scenario_key(Section::redisson, "lock_watchdog_timeout_ms"));
        });
}

// A network object with a latency above 0 (model.md §21.1 rule 3).
bool has_latency(const json& v) {
    if (!v.is_object()) return false;
    for (const char* link : {"request", "reply", "write"})
        if (v.contains(link) && v[link].is_number() && v[link] != 0) return true;
    return false;
}

constexpr const char* no_latency =
    "the redisson client's calls take no time on the wire in this model yet: every latency must be 0 "
    "(docs/model.md §21.1 rule 3)";

}  // namespace

void read_redisson_sections(const json& root, Scenario& s, Failures& errors) {
    if (root.contains("redisson")) attempt(errors, [&] { read_redisson_options(root["redisson"], s, errors); });
    attempt(errors, [&] {
        if (!s.is_redisson() && root.contains("redisson"))
            fail("/redisson", "these are Redisson's options: set \"client\": \"redisson\" (docs/model.md §21.1)");
    });
    if (!s.is_redisson()) return;
    const auto refuse = [&](bool bad, const char* path, std::string why) {
        attempt(errors, [&] {
            if (bad) fail(path, std::move(why));
        });
    };
    refuse(s.lock.replication.replicas > 0, "/store/replicas",
           "the redisson client runs on one server here: with a single server Redisson sends its scripts without "
           "WAIT (CommandAsyncService.java 988-992); replicas are not modelled for it");
    refuse(s.lock.capacity != 1, "/lock/capacity",
           fmt::format("RLock has one holder: capacity must be 1, found {}", s.lock.capacity));
    refuse(s.order != Order::declared, "/order",
           "the redisson client's nodes act in declared order; \"shuffled\" is not modelled for it");
    refuse(s.resource != ResourceMode::off, "/resource/mode",
           fmt::format("Redisson's lock issues no fencing number for the resource to check: mode must be \"off\", "
                       "found \"{}\" (docs/model.md §21.6)",
                       to_string(s.resource)));
    refuse(root.contains("ops") && root["ops"].is_array() && !root["ops"].empty(), "/ops",
           "ops are the elector's read-only calls; the redisson client has none (docs/model.md §21.1 rule 3)");
    refuse(root.contains("network") && has_latency(root["network"]), "/network", no_latency);
}

void check_redisson_candidate(const Scenario& s, const Defaults& defaults, const json& own, std::size_t index,
                              const Candidate& c) {
    if (!s.is_redisson()) return;
    const ElectorOptions& o = c.options;
    // By value, as a scenario written back has them (0, or retry_every's 1).
    refuse_client_keys(
        defaults, own, index,
        {
            {"min_lease", o.min_lease > 0, "Redisson's lock has no minimum lease"},
            {"hold_off", o.hold_off > 0, "Redisson's lock has no hold-off"},
            {"extend_every", c.extend_every_given,
             "the watchdog renews every lock_watchdog_timeout_ms / 3: set \"redisson\": {\"lock_watchdog_timeout_ms\": "
             "…} instead"},
            {"retry_every", o.retry_every != 1,
             "Redisson does not poll: a waiter waits for the unlock message or the TTL it was told"},
            {"fail_at", o.fail_at > 0, "not modelled for the redisson client"},
            {"check", o.check != WriteCheck::none, "not modelled for the redisson client"},
            {"command_timeout", o.command_timeout > 0,
             "not modelled for the redisson client: a partitioned call fails at once (§21.8)"},
            {"wait_replicas", o.wait_replicas > 0, "replicas are not modelled for the redisson client"},
            {"wait_timeout", o.wait_timeout > 0, "replicas are not modelled for the redisson client"},
        },
        "redisson", "§21.1");
    if (!c.network.zero()) {
        const bool mine = own.contains("network") && has_latency(own["network"]);
        fail(mine ? fmt::format("/candidates/{}/network", index)
                  : (has_latency(defaults.values.value("network", json::object())) ? "/defaults/network" : "/network"),
             no_latency);
    }
}

void check_redisson_faults(const Scenario& s, Failures& errors) {
    if (!s.is_redisson()) return;
    for (std::size_t i = 0; i < s.faults.size(); ++i) {
        const Fault& f = s.faults[i];
        attempt(errors, [&] {
            if (f.kind == FaultKind::failover || f.kind == FaultKind::replica_link || f.kind == FaultKind::delay)
                fail(fmt::format("/faults/{}/kind", i),
                     fmt::format("a {} is not modelled for the redisson client (docs/model.md §21.1 rule 3)",
                                 to_string(f.kind)));
        });
    }
}

}  // namespace leasescope::sim::scenario_detail

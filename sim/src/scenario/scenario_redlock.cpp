// Reading what a Redlock scenario adds (model.md §20.1, §20.3, §20.7): the
// client, the stores, the client's options, a store's restart, a store's
// clock, the stores a partition or delay concerns, and what the redlock
// client cannot have.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "leasescope/sim/limits.hpp"
#include "scenario_internal.hpp"

namespace leasescope::sim::scenario_detail {

namespace {

// The store a name in a fault names; unknown: "did you mean".
std::int32_t get_store(const json& v, const std::string& path, const Scenario& s) {
    const std::string name = get_identifier(v, path);
    const auto it = std::find(s.stores.begin(), s.stores.end(), name);
    if (it == s.stores.end()) {
        if (s.stores.empty())
            fail(path, fmt::format("store {} named, but the scenario has no \"stores\" (Redlock only, docs/model.md "
                                   "§20.1)",
                                   quote(name)));
        fail(path, fmt::format("unknown store {}{}", quote(name), suggestion(name, s.stores)));
    }
    return static_cast<std::int32_t>(it - s.stores.begin());
}

void read_stores(const json& v, Scenario& s) {
    const ScenarioKey& key = scenario_key(Section::top, "stores");
    if (!v.is_array()) fail("/stores", fmt::format("expected an array of store names, found {}", describe(v)));
    if (v.empty())
        fail("/stores",
             "expected at least one store: the redlock client refuses an empty server list (redlock.js "
             "130-132)");
    if (static_cast<std::int64_t>(v.size()) > key.hi)
        fail("/stores", fmt::format("expected at most {} stores (stores_max), found {}", key.hi, v.size()));
    std::vector<std::string> names;
    for (std::size_t i = 0; i < v.size(); ++i) {
        const std::string path = fmt::format("/stores/{}", i);
        std::string name = get_identifier(v[i], path);
        const auto seen = std::find(names.begin(), names.end(), name);
        if (seen != names.end())
            fail(path, fmt::format("store {} is named twice (also /stores/{}); each store is one independent master",
                                   quote(name), seen - names.begin()));
        if (name == "store")
            fail(path, "\"store\" names the one store of a scenario without stores; give this one another name");
        names.push_back(std::move(name));
    }
    s.stores = std::move(names);
}

double get_number(const json& v, const std::string& path, const ScenarioKey& key) {
    if (!v.is_number())
        fail(path, fmt::format("expected a number from {} to {}, found {}", key.lo, key.hi, describe(v)));
    const double d = v.get<double>();
    if (!std::isfinite(d) || d < static_cast<double>(key.lo) || d > static_cast<double>(key.hi))
        fail(path, fmt::format("expected a number from {} to {}, found {}", key.lo, key.hi, v.dump()));
    return d;
}

void read_redlock_options(const json& v, Scenario& s, Failures& errors) {
    const json& o = need_object(v, "/redlock");
    check_keys(o, "/redlock", key_names_of(Section::redlock), errors);
    s.redlock_given = true;
    RedlockOptions& r = s.redlock;
    const auto integer = [&](const char* name, std::int64_t& into) {
        if (o.contains(name))
            attempt(errors, [&] {
                into = get_key_int(o[name], std::string("/redlock/") + name, scenario_key(Section::redlock, name));
            });
    };
    integer("retry_count", r.retry_count);
    integer("retry_delay_ms", r.retry_delay_ms);
    integer("retry_jitter_ms", r.retry_jitter_ms);
    if (o.contains("drift_factor"))
        attempt(errors, [&] {
            r.drift_factor =
                get_number(o["drift_factor"], "/redlock/drift_factor", scenario_key(Section::redlock, "drift_factor"));
        });
}

}  // namespace

void read_redlock_sections(const json& root, Scenario& s, Failures& errors) {
    if (root.contains("client"))
        attempt(errors, [&] {
            s.client = get_choice<Client>(root["client"], "/client", scenario_key(Section::top, "client"));
        });
    if (root.contains("stores")) attempt(errors, [&] { read_stores(root["stores"], s); });
    if (root.contains("redlock")) attempt(errors, [&] { read_redlock_options(root["redlock"], s, errors); });
    if (root.contains("stores_clock"))
        attempt(errors, [&] {
            s.stores_clock = get_choice<StoresClock>(root["stores_clock"], "/stores_clock",
                                                     scenario_key(Section::top, "stores_clock"));
        });
    attempt(errors, [&] {
        if (s.is_redlock() && !root.contains("stores"))
            fail("/client",
                 "client \"redlock\" needs \"stores\": the names of its independent masters (docs/model.md "
                 "§20.1)");
        if (!s.is_redlock() && root.contains("stores"))
            fail("/stores", "\"stores\" are Redlock's masters: set \"client\": \"redlock\" (docs/model.md §20.1)");
        if (!s.is_redlock() && root.contains("redlock"))
            fail("/redlock", "these are the redlock client's options: set \"client\": \"redlock\"");
        if (!s.is_redlock() && root.contains("stores_clock"))
            fail("/stores_clock",
                 "\"stores_clock\" is the clock of Redlock's stores: set \"client\": \"redlock\" (docs/model.md "
                 "§20.2)");
    });
    if (!s.is_redlock()) return;
    // What Redlock has no place for (rule 20.1.3).
    attempt(errors, [&] {
        if (root.contains("store"))
            fail("/store",
                 "a Redlock scenario's masters are its \"stores\"; \"store\" (one store, its clock and "
                 "replicas) does not apply");
    });
    attempt(errors, [&] {
        if (s.lock.capacity != 1)
            fail("/lock/capacity",
                 fmt::format("Redlock locks one holder: capacity must be 1, found {}", s.lock.capacity));
    });
    attempt(errors, [&] {
        if (s.order != Order::declared)
            fail("/order", "the redlock client's nodes act in declared order; \"shuffled\" is not modelled for it");
    });
    attempt(errors, [&] {
        if (s.resource != ResourceMode::off)
            fail("/resource/mode", fmt::format("Redlock issues no fencing number for the resource to check: mode "
                                               "must be \"off\", found \"{}\" (docs/model.md §20.6)",
                                               to_string(s.resource)));
    });
}

void check_redlock_candidate(const Scenario& s, const Defaults& defaults, const json& own, std::size_t index,
                             const Candidate& c) {
    if (!s.is_redlock()) return;
    const ElectorOptions& o = c.options;
    refuse_client_keys(
        defaults, own, index,
        {
            {"auto_extend", o.auto_extend, "redlock 4.2.0 has no automatic extension"},
            {"extend_every", c.extend_every_given, "redlock 4.2.0 has no automatic extension"},
            {"min_lease", o.min_lease > 0, "the redlock client has no minimum lease"},
            {"hold_off", o.hold_off > 0, "the redlock client has no hold-off"},
            {"fail_at", o.fail_at > 0, "not modelled for the redlock client"},
            {"command_timeout", o.command_timeout > 0, "redlock 4.2.0 waits for every answer, with no timeout"},
            {"wait_replicas", o.wait_replicas > 0, "Redlock's stores have no replicas"},
            {"check", o.check != WriteCheck::none, "not modelled for the redlock client"},
        },
        "redlock", "§20.1");
}

void read_redlock_fault(const json& v, const std::string& path, const Scenario& s, Fault& f) {
    if (f.kind == FaultKind::restart) {
        if (!s.is_redlock())
            fail(path + "/kind", "a restart is a Redlock store's fault: the scenario has no \"stores\"");
        f.store = get_store(v["store"], path + "/store", s);
        if (v.contains("persistence"))
            f.persistence = get_choice<Persistence>(v["persistence"], path + "/persistence",
                                                    scenario_key(Section::fault, "persistence"));
        return;
    }
    if (!v.contains("stores")) return;
    if (!s.is_redlock()) fail(path + "/stores", "\"stores\" names Redlock stores: the scenario has none");
    const json& list = v["stores"];
    if (!list.is_array() || list.empty())
        fail(path + "/stores", fmt::format("expected an array of one or more store names, found {}", describe(list)));
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string item = fmt::format("{}/stores/{}", path, i);
        const std::int32_t store = get_store(list[i], item, s);
        if ((f.stores >> store) & 1U) fail(item, fmt::format("store {} is named twice", quote(s.stores[store])));
        f.stores |= 1U << store;
    }
}

// A clock_jump's clock may name a store (model.md §20.2 rule 4): true when it does.
bool read_store_clock_jump(const json& clock, Scenario const& s, Fault& f) {
    if (!clock.is_string()) return false;
    const std::string name = clock.get<std::string>();
    const auto it = std::find(s.stores.begin(), s.stores.end(), name);
    if (it == s.stores.end()) return false;
    f.node = -1;
    f.store = static_cast<std::int32_t>(it - s.stores.begin());
    return true;
}

// Store names and candidate names are one namespace: a clock_jump's clock
// and an event's node name either.
void check_store_names(const Scenario& s, Failures& errors) {
    for (std::size_t i = 0; i < s.stores.size(); ++i) {
        attempt(errors, [&] {
            if (s.find(s.stores[i]) >= 0)
                fail(fmt::format("/stores/{}", i),
                     fmt::format("store {} has a candidate's name; a clock_jump's clock and the trace's node names "
                                 "would be ambiguous",
                                 quote(s.stores[i])));
        });
    }
}

// Two restarts of one store must not overlap (rule 20.3, as §7.4 for pauses).
void check_restarts(const Scenario& s) {
    for (std::size_t i = 0; i < s.faults.size(); ++i) {
        const Fault& a = s.faults[i];
        if (a.kind != FaultKind::restart) continue;
        for (std::size_t j = 0; j < i; ++j) {
            const Fault& b = s.faults[j];
            if (b.kind != FaultKind::restart || b.store != a.store) continue;
            if (a.at < b.end() && b.at < a.end())
                fail(fmt::format("/faults/{}", i),
                     fmt::format("this restart of {} (ticks {}..{}) overlaps the one at /faults/{} (ticks {}..{})",
                                 quote(s.stores[static_cast<std::size_t>(a.store)]), a.at, a.end() - 1, j, b.at,
                                 b.end() - 1));
        }
    }
}

}  // namespace leasescope::sim::scenario_detail

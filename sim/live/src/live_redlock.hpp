#pragma once
// Redlock live (docs/model.md rule 20.9.4): a Redlock scenario's client run,
// the simulation's RedlockRun, in real time on N real servers, one per store,
// each answering the package's own scripts over a hiredis connection.
#include <optional>
#include <string>
#include <vector>

#include "leasescope/live/live_driver.hpp"

namespace leasescope::live {

// How each fault of a Redlock scenario is emulated live, one line per kind present.
std::vector<std::string> redlock_emulated_faults(const sim::Scenario& scenario);

// Why a Redlock scenario cannot run live (a store's restart, naming its JSON
// path), or nothing. What a store clock jump's step cannot stand for is
// simulated_only's (model.md §13.6 rule 4).
std::optional<std::string> redlock_live_refusal(const sim::Scenario& scenario);

// run_live for a Redlock scenario (tick_ms already applied): refuses what
// live mode cannot run, then runs on options.store_urls, one server per store.
LiveReport run_live_redlock(const sim::Scenario& scenario, const LiveOptions& options);

}  // namespace leasescope::live

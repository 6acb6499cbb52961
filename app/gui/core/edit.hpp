#pragma once
// Scenario edits made in the app. Every edit goes through the scenario's JSON
// form and back through sim::parse_scenario, so the app can never build a
// scenario the parser would refuse; a refused edit comes back as the
// parser's own message and the old scenario stays.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "leasescope/sim/scenario.hpp"

namespace leasescope::gui {

struct Edit {
    enum class Kind {
        set,             // set the value at `path` (a JSON pointer)
        set_all,         // set defaults/<key> (null: remove it) and drop every candidate's own <key>
        append,          // append `value` to the array at `path`
        remove,          // erase the value at `path`
        set_candidates,  // keep or grow the candidate list to `value` (a number)
    };
    Kind kind = Kind::set;
    std::string path;
    nlohmann::json value;
};

using EditResult = leasescope::Result<sim::Scenario, std::string>;
EditResult apply_edits(const sim::Scenario& scenario, const std::vector<Edit>& edits);

// Shortcuts for the fault injection menu.
Edit pause_fault(const std::string& node, Tick at, Tick ticks);
Edit crash_fault(const std::string& node, Tick at);
Edit partition_fault(const std::string& node, Tick at, Tick ticks, sim::PartitionMode mode);
Edit failover_fault(Tick at, FailoverLoss lose);

}  // namespace leasescope::gui

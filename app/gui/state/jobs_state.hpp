#pragma once
// The jobs part of the app (app.hpp): the background work, a live run and a
// counterexample search, and what the Live and Find panels show of it.
#include <memory>
#include <optional>
#include <vector>

#include "../core/job_status.hpp"
#include "../jobs.hpp"

namespace leasescope::gui {

struct JobsState {
    LiveStatus live;
    FindStatus find;
    std::unique_ptr<LiveJob> live_job;
    std::unique_ptr<FindJob> find_job;
    sim::Properties find_properties;  // what the running search looks for
    // The smallest fault of each kind: per kind, its counterexample (FindShow loads one).
    std::vector<std::optional<sim::Counterexample>> find_kinds;
    std::uint32_t find_searches = 0;  // FindStatus::search of the last search started
    double find_budget_ms = 12.0;     // the search's slice of each frame

    bool busy() const { return live_job != nullptr || find_job != nullptr; }
};

}  // namespace leasescope::gui

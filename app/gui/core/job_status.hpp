#pragma once
// What the live switch and the counterexample finder show: plain data the
// app fills between frames from its background work, read by the views.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "lanes.hpp"
#include "leasescope/sim/explorer.hpp"
#include "leasescope/sim/scenario.hpp"
#include "leasescope/sim/trace.hpp"

namespace leasescope::gui {

enum class LiveVerdict : std::uint8_t {
    none,  // not run yet
    running,
    identical,    // the live trace equals the simulated one (tokens aside)
    diverged,     // it differs: `divergence_event` is the first event that does
    void_timing,  // it differs, but the run did not keep time: no verdict
    unreachable,  // Redis could not be reached or the connection was lost
    failed,       // Redis answered with an error
    bad_input,    // a malformed URL or an unusable lock name
    cancelled,
};

struct LiveStatus {
    bool supported = false;  // the app was built with the live driver
    bool open = false;       // the panel is shown
    LiveVerdict verdict = LiveVerdict::none;
    std::string url_shown;  // the server, password redacted
    // What the URL field starts with (password included; the view splits it
    // into a masked field and never shows it): --live URL, else the environment.
    std::string url_initial;
    std::int64_t tick_ms = 0;
    Tick tick_now = -1;  // progress: the tick of the last live event
    Tick end_tick = 0;   // the simulated run's last tick
    std::size_t events_so_far = 0;
    std::string message;                                 // the error, or the divergence in words
    std::int64_t divergence_event = -1;                  // index into both traces (may be past the end of one)
    std::vector<std::pair<Tick, double>> timing_faults;  // tick, ms late
    sim::Trace live_trace;
    sim::Trace sim_trace;
    LaneModel live_lanes;
    LaneModel sim_lanes;
    bool running() const { return verdict == LiveVerdict::running; }
};

struct FindStatus {
    bool open = false;
    bool running = false;
    bool finished = false;  // a search ran to its end (found or not)
    bool cancelled = false;
    bool found = false;
    int level = 0;  // fault count being searched
    int max_faults = 2;
    std::uint64_t position = 0, total = 0;  // work units of the level
    std::uint64_t schedules = 0, simulated = 0;
    std::string base_name;
    sim::CounterexampleFacts facts;  // what was found; the Find panel words it
    Tick violation_tick = -1;
    std::string error;  // a bad budget
};

}  // namespace leasescope::gui

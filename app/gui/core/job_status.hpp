#pragma once
// What the live switch and the counterexample finder show: plain data the
// app fills between frames from its background work, read by the views.
#include <cstdint>
#include <optional>
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

// "The smallest fault of each kind" (explore --minimize): what the scan of
// one kind found, in ticks.
struct FindKind {
    sim::FaultClass kind = sim::FaultClass::pause;
    bool sized = true;                // false: a crash or a failover that loses (no size)
    bool on_grid = false;             // its sizes are a grid's: sizes between two of them were not tried
    std::optional<Tick> threshold;    // the smallest size that breaks it (for no size: 0)
    std::optional<Tick> held;         // the largest size below it that held, if any was scanned
    bool has_counterexample = false;  // Show can load it
};

struct FindStatus {
    bool open = false;
    bool smallest = false;     // the search is "the smallest fault of each kind" (one fault at a time)
    std::uint32_t search = 0;  // counts the searches started, so that the panel shows the last one's mode
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
    // The smallest fault of each kind: every kind scanned or being scanned,
    // the one being scanned and its size, and the kind whose counterexample
    // is loaded (-1: none, or the base that fails on its own).
    std::vector<FindKind> kinds;
    int kind_now = -1;
    std::size_t size_index = 0, size_count = 0;
    Tick size_now = 0;  // the size of kind_now being searched
    int shown = -1;
    bool base_fails = false;
    std::int64_t tick_ms = 50;
    // The sizes of pauses and partitions a search tries, for the panel's
    // budget line (before any kind is scanned too).
    std::vector<Tick> pause_sizes;
    bool pause_grid = false;  // on a grid (1, 2 and 5 times powers of ten), not every size
};

}  // namespace leasescope::gui

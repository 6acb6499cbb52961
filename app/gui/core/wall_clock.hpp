#pragma once
// The wall clock of a recorded history (model.md §19.9): the server's time of
// a tick or an event, written HH:MM:SS.mmm in UTC, shown beside ticks on the
// ruler, in the transport and in the event table of a trace that has one
// (leasescope-trace/4, §19.7). A simulated run has none and shows ticks only.
#include <cstdint>
#include <optional>
#include <string>

#include "leasescope/engine/types.hpp"
#include "leasescope/sim/trace.hpp"

namespace leasescope::gui {

struct WallClock {
    std::int64_t origin_us = 0;  // tick 0's start, microseconds since the epoch (the header's import.origin_us)
    std::int64_t tick_ms = 50;
    // The start of tick t.
    std::int64_t us_of(Tick t) const { return origin_us + t * tick_ms * 1000; }
    bool operator==(const WallClock&) const = default;
};

// A /4 trace's wall clock; none for any other.
std::optional<WallClock> wall_clock_of(const sim::Trace& trace);

// The text of a time is the trace's own: sim::wall_time_text ("09:30:04.012", UTC).

}  // namespace leasescope::gui

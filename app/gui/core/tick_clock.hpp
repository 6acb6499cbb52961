#pragma once
// The time the app writes beside a tick: on the ruler, in the transport, in
// the event table's Time column and in a mark's tooltip. A recorded history
// (a /4 trace, model.md §19.9) has a wall clock, the server's time written
// HH:MM:SS.mmm in UTC; a simulated run has the time since tick 0, M:SS.mmm
// (sim::elapsed_text, as `leasescope-cli run --time` writes it, model.md
// §11.7 item 5). One formatter for both, so no view writes a time its own way.
#include <cstdint>
#include <optional>
#include <string>

#include "leasescope/engine/types.hpp"
#include "leasescope/sim/trace.hpp"
#include "strings.hpp"

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

struct TickClock {
    std::int64_t tick_ms = 50;
    std::optional<WallClock> wall;  // a recorded history's (model.md §19.9); none when simulated

    // The start of tick t: "09:30:04.100" on a wall clock (UTC), else "0:02.050" since tick 0.
    std::string at(Tick t) const;
    // An event's time: a recorded line's own server time when it has one
    // ("–" for a line of a history without it); a simulated event's tick's start.
    std::string of(const sim::Event& e) const;
    bool operator==(const TickClock&) const = default;
};

// The trace's clock: its tick length, and its wall clock when it has one.
TickClock tick_clock_of(const sim::Trace& trace);

// Words with the time, for the views (each a key in both string tables):
// the transport's beside "tick 40 / 200": "0:02.000 elapsed" ("09:30:04.100 UTC");
std::string playhead_time_words(const TickClock& clock, Tick t, const Strings& strings);
// the event table's Time column title: "Time" ("Time (UTC)");
std::string time_column_words(const TickClock& clock, const Strings& strings);
// a timeline tooltip's first line: "Tick 40 · 0:02.000";
std::string tick_time_words(const TickClock& clock, Tick t, const Strings& strings);
// the record panel's: "state at the end of tick 40, at 0:02.050" (the end of
// a tick is the next one's start).
std::string state_at_words(const TickClock& clock, Tick t, const Strings& strings);
// the record card's TTL in time, under its ticks: "= 0.3s of 1s · expires at
// 0:00.900" (without the TTL set when the trace does not say it);
std::string ttl_time_words(const TickClock& clock, Tick left, std::optional<Tick> ttl, Tick expires,
                           const Strings& strings);
// Explain's, as `leasescope-cli explain --time` prints it: "Tick 40 starts
// 0:02.000 after tick 0 (one tick is 50 ms)." (since tick 0 on any clock).
std::string tick_start_words(const TickClock& clock, Tick t, const Strings& strings);

}  // namespace leasescope::gui

#pragma once
// Durations with units (docs/model.md §11.7): "30s", "1500ms", "2m", "0.25s"
// into whole ticks at a tick length, with the error a person can act on. The
// scenario reader (sim/src/scenario/scenario_times.cpp) and the command
// line's time options use this one rule.
#include <cstdint>
#include <string>
#include <string_view>

#include "leasescope/engine/types.hpp"

namespace leasescope::sim {

struct DurationTicks {
    Tick ticks = 0;
    std::string error;  // empty: `ticks` holds the value
};

// `text` as ticks of `tick_ms`: a duration (a decimal number and ms, s, m or
// h, no sign, no space, at most 15 digits, at most as fine as a
// microsecond) that is a whole number of ticks. The error says what is wrong:
// not a duration, or not whole ticks and the nearest two.
DurationTicks duration_ticks(std::string_view text, std::int64_t tick_ms);

// Whether `text` has the form of a duration (digits, an optional fraction,
// a unit), whatever the tick length.
bool looks_like_duration(std::string_view text);

// A time as the text view and messages write it: "1.05s", "250ms", "2m",
// "1.5h"; the largest unit that writes it with at most three decimals.
std::string duration_text(std::int64_t us);

// The start of tick `tick` since tick 0 as a stopwatch shows it: "0:01.250",
// "20:00.000", "1:00:00.000" (the text view's Time column).
std::string elapsed_text(Tick tick, std::int64_t tick_ms);

}  // namespace leasescope::sim

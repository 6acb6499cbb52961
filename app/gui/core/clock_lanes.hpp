#pragma once
// The clocks that are not true time (docs/model.md §3.3): which they are and
// their offset from true time tick by tick, the data of the clock lanes under
// the timeline (a jump is a step, drift a slope).
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "leasescope/sim/scenario.hpp"

namespace leasescope::gui {

// One clock of the scenario that drifts or jumps.
struct ClockTrack {
    std::string node;  // the candidate's name, or "store" (Redis's clock)
    std::int64_t tick_ms = 50;
    std::int32_t drift_ppm = 0;
    std::vector<std::pair<Tick, std::int64_t>> jumps;  // (tick, ms), in the fault list's order
    std::int64_t min_half_ms = 0, max_half_ms = 0;     // the offset's range over ticks 0 … end
    bool operator==(const ClockTrack&) const = default;
};

// The clock's reading minus true time at the middle of tick t, in half
// milliseconds, after the jumps of tick t (model.md §3.3 rules 1 and 3).
std::int64_t clock_offset_half_ms(const ClockTrack& clock, Tick t);
// The same just before the jumps of tick t.
std::int64_t clock_offset_before_jumps_half_ms(const ClockTrack& clock, Tick t);

// An offset in half milliseconds as the ms it says, without its sign: "300", "12.5".
std::string clock_offset_text(std::int64_t half_ms);

// The store's clock first, then the candidates' in declared order; only
// clocks with a drift or a jump (none when every clock is true time).
std::vector<ClockTrack> clock_tracks(const sim::Scenario& scenario, Tick end_tick);

}  // namespace leasescope::gui

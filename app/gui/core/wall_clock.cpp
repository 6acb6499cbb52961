// The wall clock of a recorded history (wall_clock.hpp).
#include "wall_clock.hpp"

#include "leasescope/sim/trace.hpp"

namespace leasescope::gui {

std::optional<WallClock> wall_clock_of(const sim::Trace& trace) {
    if (!trace.header.import) return std::nullopt;
    return WallClock{trace.header.import->origin_us, trace.header.tick_ms};
}

}  // namespace leasescope::gui

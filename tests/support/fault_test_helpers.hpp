#pragma once
// A fault set in code, for the tests that add one to a scenario (model.md §7).
#include "leasescope/sim/scenario.hpp"

namespace fault_test {

// pause{node, at, ticks} (§7.1).
inline leasescope::sim::Fault pause(leasescope::NodeIndex node, leasescope::Tick at, leasescope::Tick ticks) {
    leasescope::sim::Fault f;
    f.kind = leasescope::sim::FaultKind::pause;
    f.node = node;
    f.at = at;
    f.ticks = ticks;
    return f;
}

}  // namespace fault_test

#pragma once
// The tour and narration part of the app (app.hpp): the guided tour's steps
// and the open one, and narrated play (compare.hpp's Narration).
#include <vector>

#include "../compare.hpp"
#include "../core/tour.hpp"

namespace leasescope::gui {

struct TourState {
    std::vector<TourStep> steps;  // assets/tour.json
    int step = -1;                // -1: the tour is not running
    Narration narrate;

    bool running() const { return step >= 0; }
};

}  // namespace leasescope::gui

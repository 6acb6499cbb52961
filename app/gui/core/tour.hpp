#pragma once
// The guided tour, for the app: the words library's tour under the app's
// namespace (leasescope/words/tour.hpp has the documentation).
#include "leasescope/words/tour.hpp"
#include "strings.hpp"

namespace leasescope::gui {

using words::load_tour;
using words::resolve_tour_tick;
using words::tour_body;
using words::tour_fields;
using words::TourStep;

}  // namespace leasescope::gui

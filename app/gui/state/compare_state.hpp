#pragma once
// The compare part of the app (app.hpp): the pair shown side by side (run B,
// its lanes, where the runs part), built and changed in app_compare.cpp.
#include <memory>

#include "../compare.hpp"

namespace leasescope::gui {

struct CompareState {
    std::unique_ptr<ComparePair> pair;  // null: no pair is open
};

}  // namespace leasescope::gui

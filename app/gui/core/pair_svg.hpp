#pragma once
// Two timelines in one SVG picture: run A over run B on the same tick range,
// the first divergence marked on both, and the difference in words below.
#include <string>
#include <vector>

#include "svg.hpp"

namespace leasescope::gui {

struct PairSvgOptions {
    Tick first = 0;
    Tick last = 0;  // inclusive, the same for both
    Tick playhead = -1;
    Tick divergence_a = -1, divergence_b = -1;  // each run's divergent event's tick; -1: none
    std::string mark_text_a, mark_text_b;       // their labels
    std::string title, label_a, label_b;
    std::vector<std::string> sentences;  // the difference in words
    float width_px = 1400;
};

std::string pair_svg(const LaneModel& a, const LaneModel& b, const Palette& palette, const Strings& strings,
                     const PairSvgOptions& options);

}  // namespace leasescope::gui

#pragma once
// The guided tour (assets/tour.json): each step loads a preset, moves the
// playhead and points at the part of the screen it talks about. A step names
// its tick directly or as "the first event like this", so it stays right when
// a preset's numbers change.
#include <optional>
#include <string>
#include <vector>

#include "leasescope/sim/trace.hpp"
#include "strings.hpp"

namespace leasescope::gui {

struct TourStep {
    std::string preset;  // scenario name, e.g. "expiry-takeover"
    std::optional<Tick> tick;
    // "first event with this op (and outcome, and node)"; used when tick is absent.
    std::string find_op, find_outcome, find_node;
    Tick offset = 0;     // added to the found event's tick
    std::string focus;   // a view id: timeline, record, candidates, action, resource, events, controls, explain
    std::string title_en, title_ko, body_en, body_ko;

    const std::string& title(Lang lang) const { return lang == Lang::ko ? title_ko : title_en; }
    const std::string& body(Lang lang) const { return lang == Lang::ko ? body_ko : body_en; }
};

// Parses the tour; an error names the step and the problem.
bool load_tour(const std::string& json_text, std::vector<TourStep>& out, std::string& error);

// The tick a step shows on this trace (0 when its event never happens).
Tick resolve_tour_tick(const TourStep& step, const sim::Trace& trace);

}  // namespace leasescope::gui

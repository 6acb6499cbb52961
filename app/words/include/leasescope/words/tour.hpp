#pragma once
// The guided tour (assets/tour.json): each step loads a preset, moves the
// playhead and points at the part of the screen it talks about. A step names
// its tick directly or as "the first event like this", so it stays right when
// a preset's numbers change; the numbers its text states (ticks, fencing
// numbers, nodes) are named facts found in the trace the same way, never
// typed into the prose.
#include <optional>
#include <string>
#include <vector>

#include "leasescope/sim/trace.hpp"
#include "leasescope/words/strings.hpp"

namespace leasescope::words {

// "An event with this op (and outcome, and node)": the first such event, or
// the last with `last`; `offset` is added to its tick.
struct TourFind {
    std::string op, outcome, node;
    bool last = false;
    Tick offset = 0;
};

// A named fact of a step: the first alternative that matches gives the
// fields {NAME_tick}, {NAME_fencing}, {NAME_node}, … of the step's text
// (tour_fields).
struct TourFact {
    std::string name;
    std::vector<TourFind> alternatives;
};

struct TourStep {
    std::string preset;  // scenario name, e.g. "expiry-takeover"
    std::optional<Tick> tick;
    std::vector<TourFind> find;  // used when tick is absent: the first alternative that matches
    std::string focus;           // a view id: timeline, record, candidates, action, resource, events, controls, explain
    std::vector<TourFact> facts;
    std::string title_en, title_ko, body_en, body_ko;

    const std::string& title(Lang lang) const { return lang == Lang::ko ? title_ko : title_en; }
    const std::string& body(Lang lang) const { return lang == Lang::ko ? body_ko : body_en; }
};

// Parses the tour; an error names the step and the problem.
bool load_tour(const std::string& json_text, std::vector<TourStep>& out, std::string& error);

// The tick a step shows on this trace (0 when its event never happens).
Tick resolve_tour_tick(const TourStep& step, const sim::Trace& trace);

// The fields of the step's text: {tick} (the step's tick) and each fact's
// {NAME_tick}, {NAME_fencing}, {NAME_node}, {NAME_sent} and {NAME_applied}
// (the tick the request was sent and Redis applied it, model.md §16; the
// event's tick when the trace has none); with the string tables also
// {NAME_lock}, who holds the lock just before that event, in the words the
// Explain panel uses for a rejected release (nobody / the newer holder / a
// group's slots). A fact whose event never happens gives "?" (the tests
// reject that).
Fields tour_fields(const TourStep& step, const sim::Trace& trace, const Strings* strings = nullptr);

// The step's body in the tables' language with its facts filled in from the trace.
std::string tour_body(const TourStep& step, const sim::Trace& trace, const Strings& strings);

}  // namespace leasescope::words

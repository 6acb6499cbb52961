#pragma once
// Pure helpers for the live switch and the counterexample finder: markers
// built from a bare trace (a live run has no Timeline to replay) and the
// event where a counterexample's violation happens. (The Redis URL and its
// password mask: leasescope/redis/redis_url.hpp.)
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "lanes.hpp"
#include "leasescope/sim/explorer.hpp"
#include "leasescope/sim/trace.hpp"

namespace leasescope::gui {

// One lane per candidate of the trace's header, in its order, then one lane
// for events that name no candidate (a failover): markers only, no spans.
// Marker kinds are the timeline's, so both timelines speak the same shapes;
// `mode` is the scenario's resource mode (what rejected a write).
LaneModel build_trace_lanes(const sim::Trace& trace, sim::ResourceMode mode);

// The live panel's rows: each lane of the simulated run, then the same lane
// of the live run (an empty one when the live run has none), each titled by
// `title(lane, live_side)` (the view's words) and drawn as a candidate lane
// (its title is its label). A marker's event indexes its own side's trace.
LaneModel interleave_lanes(const LaneModel& sim_lanes, const LaneModel& live_lanes,
                           const std::function<std::string(const Lane&, bool)>& title);

// The index of the event where the first violation of a checked property
// shows in the trace (an unsafe write, a regressed fencing number, the start
// of an overlap), or -1 when none does (a liveness failure has no event).
std::int64_t violation_event(const sim::Trace& trace, bool unsafe_write, bool fencing_regressed, bool overlap);
// The same for every checked property, the safety marks of model.md
// §9.6-§9.8 included: the first event that carries a checked mark.
std::int64_t violation_event(const sim::Trace& trace, const sim::Properties& checked);

}  // namespace leasescope::gui

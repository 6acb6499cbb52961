#pragma once
// The lanes of a Redisson run (model.md §21), read from its trace alone, so a
// simulated run and a recorded `leasescope-trace/6` draw the same: one lane
// per client (waiting while it tries or sleeps on the lock's channel,
// running while its field holds the hash, stale while its action goes on
// without it; pauses and partitions as overlays; its attempts, renewals,
// unlock and the unlock messages sent to it as marks), one lane for the hash
// under the lock's name (its field as a span in its owner's colour, with the
// TTL it was set with; its expiries), and the resource's writes. Facts come
// from the words library's fold (leasescope/words/redisson_facts.hpp).
#include "lanes.hpp"

namespace leasescope::gui {

// `scenario` says which clients run the watchdog and their waitTime; null: a trace alone.
LaneModel build_redisson_lanes(const sim::Trace& trace, const sim::Scenario* scenario);

// The lane of the lock's hash, or -1.
std::int32_t key_lane(const LaneModel& model);

}  // namespace leasescope::gui

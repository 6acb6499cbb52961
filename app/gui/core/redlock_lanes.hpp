#pragma once
// The lanes of a Redlock run (model.md §20), read from its trace alone, so a
// simulated run and a recorded `leasescope-trace/5` draw the same: one lane
// per client (waiting while it locks or retries, running while it works,
// stale while its token holds fewer than a quorum of stores, the validity
// window of each lock as an overlay, a quorum mark with its count), one lane
// per store (its key as a span in its owner's colour, down while it is
// crashed or restarting, its answers, expiries, crash and clock jumps; its
// restart is the end of the down time, with no mark), and the
// resource's writes. Facts come from the words library's fold
// (leasescope/words/redlock_facts.hpp), the one Explain reads.
#include "lanes.hpp"

namespace leasescope::gui {

// `scenario` names each client's lease (the validity); null: no windows.
LaneModel build_redlock_lanes(const sim::Trace& trace, const sim::Scenario* scenario);

// The mark of event `k` of a /5 trace's `events` as far as the trace tells
// it: a store's answer to an unlock that deleted nothing is the client
// unlocking on every store (rule 20.5), no rejection: release_left_alone
// (the lanes, which know the store's key, tell release_no_key apart; both
// weigh the same in marker_priority and neither is an alarm). A client's
// unlock count short of a quorum is release_rejected when every store of
// that unlock answered (they said "not the owner": the lock was already
// gone, as the elector's old holder is refused), release_error when one
// did not answer.
MarkerKind redlock_marker_kind(const std::vector<sim::Event>& events, std::size_t k);

// The lane of store `store` (its index in the header's stores), or -1.
std::int32_t store_lane(const LaneModel& model, std::int32_t store);

}  // namespace leasescope::gui

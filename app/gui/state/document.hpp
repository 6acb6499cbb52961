#pragma once
// The document part of the app (app.hpp): the scenario shown, its simulated
// timeline and lanes, the playhead and playback, the selected event, and the
// last message about them. App changes it between frames; views read it
// through the FrameContext.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "../core/lanes.hpp"
#include "leasescope/sim/simulation.hpp"
#include "leasescope/words/redisson_facts.hpp"
#include "leasescope/words/redlock_facts.hpp"

namespace leasescope::gui {

struct Document {
    std::unique_ptr<sim::Timeline> timeline;  // null until a scenario is open
    LaneModel lanes;
    sim::Snapshot snapshot;  // the state at the end of the playhead's tick
    Tick snapshot_tick = -1;
    // A Redlock run's (model.md §20): its stores and clients at the end of
    // the playhead's tick, folded from the trace as Explain folds them; the
    // snapshot above has no elector to show.
    std::optional<words::RedlockFacts> redlock;
    // A Redisson run's (model.md §21): its hash and clients at the end of the
    // playhead's tick, folded from the trace; the snapshot has no elector either.
    std::optional<words::RedissonFacts> redisson;
    std::string scenario_path;  // the file behind the scenario; empty for an edited one
    // The preset this scenario is an edited copy of (App::edited_from).
    std::string edited_from;

    Tick playhead = 0;
    double play_accum = 0.0;
    bool playing = false;
    double speed = 4.0;  // ticks per second
    std::int32_t selected_event = -1;
    std::uint64_t fit_generation = 1;       // changes when the timeline should refit
    bool fit_whole = false;                 // the refit shows the whole run (the Fit button)
    std::uint64_t timeline_generation = 0;  // changes whenever the scenario is simulated again

    std::string error;                       // the last refused edit or failed load
    std::string notice;                      // the last done action ("saved to …")
    std::optional<std::string> png_request;  // a PNG of the next rendered frame, to this path
};

}  // namespace leasescope::gui

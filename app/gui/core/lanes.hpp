#pragma once
// The timeline's draw data, computed once per simulated timeline ("compute,
// then draw"): one lane per candidate, per store slot, the hold-off marker, the
// protected resource and the scripted third-party ops. Each lane holds sorted,
// non-overlapping spans plus sorted point markers that point back at events.
#include <cstdint>
#include <string>
#include <vector>

#include "leasescope/sim/simulation.hpp"

namespace leasescope::gui {

enum class SpanKind : std::uint8_t {
    idle,
    waiting,
    running,  // executing with a current token (a valid lease)
    stale,    // executing, token no longer current
    done,
    crashed,
    paused,              // overlay
    partition_requests,  // overlay
    partition_replies,   // overlay
    record,              // a slot's record, acquire to expiry or release
    holdoff,
    overlap,  // more executing nodes than slots
    fence,    // the resource's highest accepted fencing number
    count_,
};

// One mark per outcome: every kind has its own shape and colour
// (core/marks.hpp), its own legend entry and its own SVG <title>.
enum class MarkerKind : std::uint8_t {
    start,
    acquire,            // acquired (fresh)
    acquire_busy,       // a busy attempt that did not end the run
    acquire_error,      // failed: an error, a lost reply included
    acquire_regressed,  // acquired, but the fencing number went backwards (after a failover that lost all)
    skip,               // the run gave up waiting (skipped)
    extend,             // renewed
    extend_lost,        // the token no longer held a slot: the lease is gone
    extend_error,       // no answer (partition); the watchdog tries again
    release,            // released or kept
    release_rejected,   // not_owner: the old token cannot remove the successor
    release_error,      // no answer (partition)
    expire,
    write_current,         // accepted from the current holder
    write_stale,           // accepted although the writer's lease is gone
    write_unsafe,          // accepted below the highest accepted number (mode off): unsafe_write
    write_rejected_fence,  // rejected by the fencing check (mode check)
    write_rejected_token,  // rejected by token validation (mode validate)
    pause,
    resume,
    crash,
    partition,
    heal,
    failover_leases,  // the store failed over and lost its leases
    failover_all,     // … and its fencing counter too
    op_read,          // status / validate by a third party
    overlap_begin,
    overlap_end,
    count_,
};

enum class LaneKind : std::uint8_t { candidate, slot, holdoff, resource, ops };

struct Span {
    Tick begin = 0;  // first tick covered
    Tick end = 0;    // one past the last tick covered
    SpanKind kind = SpanKind::idle;
    std::optional<Fencing> fencing;  // running/stale/record/fence
    std::int32_t owner = -1;         // record: the holder's candidate index
    Tick expires_at = tick_none;     // record: its final expires_at
    Tick ttl = 0;                    // record: the TTL it was written with
    std::int32_t run = -1;
};

struct Marker {
    Tick tick = 0;
    MarkerKind kind = MarkerKind::start;
    std::int32_t event = -1;  // index into the trace's events
    std::optional<Fencing> fencing;
};

struct Lane {
    LaneKind kind = LaneKind::candidate;
    std::string label;
    std::int32_t index = 0;       // candidate or slot index
    std::vector<Span> spans;      // the main state, sorted, not overlapping
    std::vector<Span> overlays;   // paused / partitioned, sorted, not overlapping within a kind
    std::vector<Marker> markers;  // sorted by tick, then event
};

struct LaneModel {
    std::vector<Lane> lanes;
    sim::ResourceMode resource = sim::ResourceMode::off;  // what a rejected write was rejected by
    std::vector<Span> overlap;                            // overlap episodes, drawn behind the candidate lanes
    Tick end_tick = 0;
    std::size_t event_count = 0;
    std::int32_t candidate_lanes = 0;
};

// Runs the scenario once more, tick by tick, reading each tick's snapshot
// for the spans and the trace's events for the markers.
LaneModel build_lanes(const sim::Timeline& timeline);

// The span kind that shows a node status (one colour per state everywhere).
SpanKind span_kind_of(sim::NodeStatus status);
// Which marker an event becomes (a run that gives up has its own `skip`
// event); `mode` is the resource's, which decides what rejected a write (the
// fencing check or token validation).
MarkerKind marker_kind_of(const sim::Event& event, sim::ResourceMode mode);
// Only for ranking events (marker_priority): a rejected write comes back as
// rejected by the fencing check whatever the mode. Never use it to draw.
MarkerKind marker_kind_of(const sim::Event& event);
// The marks that tell outcomes a teacher must not miss (drawn in red in the
// event table, never folded away).
bool is_alarm(MarkerKind kind);

// The index of the lane for candidate `node`, of slot `slot`, or -1.
std::int32_t candidate_lane(const LaneModel& model, std::int32_t node);
std::int32_t slot_lane(const LaneModel& model, std::int32_t slot);

}  // namespace leasescope::gui

#pragma once
// The timeline's draw data, computed once per run ("compute, then
// draw") from the one simulation the Timeline makes: one lane per candidate,
// per store slot, the hold-off marker, the protected resource and the
// scripted third-party ops. Each lane holds sorted, non-overlapping spans
// plus sorted point markers that point back at events.
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "clock_lanes.hpp"
#include "message_lanes.hpp"
#include "tick_clock.hpp"
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
    overlap,   // more executing nodes than slots
    fence,     // the resource's highest accepted fencing number
    cut,       // overlay on a replica's lane: its link is cut, its copy frozen (model.md §17.2)
    validity,  // overlay on a Redlock client's lane: the lock's validity after a quorum (model.md §20.4.5)
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
    acquire_duplicate,  // … to a number issued before to another token: fencing_duplicate (model.md §9.8)
    skip,               // the run gave up waiting (skipped)
    extend,             // renewed
    extend_lost,        // the token no longer held a slot: the lease is gone
    extend_error,       // no answer (partition); the watchdog tries again
    release,            // released or kept
    release_rejected,   // not_owner: the old token cannot remove the successor
    release_error,      // no answer (partition)
    // A Redlock store's answer to an unlock that deletes nothing (model.md
    // §20.5: the client unlocks on every store): neither is an error.
    release_left_alone,  // the store holds another token's key and leaves it alone
    release_no_key,      // the store holds no key: nothing to delete
    expire,
    write_current,            // accepted from the current holder
    write_stale,              // accepted although the writer's lease is gone
    write_unsafe,             // accepted below the highest accepted number (mode off): unsafe_write
    write_rejected_fence,     // rejected by the fencing check (mode check)
    write_rejected_token,     // rejected by token validation (mode validate)
    write_rejected_recorded,  // rejected by a replayed history's real resource (its check unknown, §19.9)
    write_lost_update,        // accepted after a successor's accepted write: stale_after_successor (§9.6)
    write_holder_rejected,    // rejected although the writer's lease was valid: holder_rejected (§9.7)
    pause,
    resume,
    crash,
    partition,
    heal,
    failover_leases,  // the store failed over and lost its leases
    failover_all,     // … and its fencing counter too
    op_read,          // status / validate by a third party, or a node's own check (model.md §5.8)
    clock_jump,       // a clock stepped (the store's or a node's, model.md §3.3 rule 3)
    overlap_begin,
    overlap_end,
    // Replication (model.md §17).
    link_cut,         // a replica's link to the primary is cut
    link_restored,    // … restored: it resynchronises (or split brain ends)
    promote,          // a failover promotes this replica
    wait_synced,      // WAIT: enough replicas acknowledged
    wait_not_synced,  // WAIT: too few; the node unlocks and fails
    refused,          // NOREPLICAS: min-replicas-to-write refused the call
    // A recorded history (model.md §19.9).
    believe_leader,    // a node came to believe it leads (its log, or inferred from its commands)
    believe_follower,  // … no longer believes it leads
    undecided,         // the capture cannot tell (an unknown script, an expiry boundary, a gap)
    // Redisson's unlock message (model.md §21.5.2, 21.5.3), on the waiter's lane.
    unlock_message,       // it reached the waiter: its sleep ends and it tries again
    unlock_message_lost,  // it was lost (a drop_replies partition): the waiter sleeps on until its TTL
    count_,
};

// `store`: one of a Redlock run's independent stores (model.md §20), its key's spans owned by a client;
// `key`: a Redisson run's hash under the lock's name (model.md §21.2), its spans owned by a client.
enum class LaneKind : std::uint8_t { candidate, slot, holdoff, resource, ops, server, store, key };

struct Span {
    Tick begin = 0;  // first tick covered
    Tick end = 0;    // one past the last tick covered
    SpanKind kind = SpanKind::idle;
    std::optional<Fencing> fencing;  // running/stale/record/fence
    std::int32_t owner = -1;         // record: the holder's candidate index
    Tick expires_at = tick_none;     // record: its final expires_at
    Tick ttl = 0;                    // record: the TTL it was written with
    std::int32_t run = -1;
    // validity (a Redlock lock's window, model.md §20.4.5): the count that won it and the validity left then.
    std::int32_t votes = -1, stores = 0;
    std::int64_t validity_ms = 0;
    bool drift_assumed = false;  // a trace alone: driftFactor not carried, the default assumed (§20.8)
    bool operator==(const Span&) const = default;
};

struct Marker {
    Tick tick = 0;
    MarkerKind kind = MarkerKind::start;
    std::int32_t event = -1;  // index into the trace's events
    std::optional<Fencing> fencing;
    // promote: the old primary's counter at the end of the tick before (the
    // counter went back when it is above `fencing`, model.md §17.3 rule 1).
    std::optional<Fencing> counter_before;
    // A Redlock client's count (`quorum`, model.md §20.4.5): its yes answers
    // of `stores`, and in the acquire phase the validity left (explain's).
    std::int32_t votes = -1, stores = 0;
    std::optional<std::int64_t> validity_ms;
    bool drift_assumed = false;  // a trace alone: driftFactor not carried, the default assumed (§20.8)
    // A Redisson unlock message (model.md §21.5.2): the lane of the client whose unlock published it.
    std::int32_t from_lane = -1;
    bool operator==(const Marker&) const = default;
};

struct Lane {
    LaneKind kind = LaneKind::candidate;
    std::string label;
    std::int32_t index = 0;       // candidate or slot index
    std::vector<Span> spans;      // the main state, sorted, not overlapping
    std::vector<Span> overlays;   // paused / partitioned, sorted, not overlapping within a kind
    std::vector<Marker> markers;  // sorted by tick, then event
    // A server's lane (model.md §17): its number, and its role from each tick
    // on (primary, replica, old primary) as it changes; its slot is `index`.
    std::int32_t server = -1;
    std::int32_t slots = 1;  // the store's capacity: a server lane's title names its slot when above 1
    std::vector<std::pair<Tick, sim::ServerRole>> roles{};
    bool operator==(const Lane&) const = default;
};

struct LaneModel {
    std::vector<Lane> lanes;
    sim::ResourceMode resource = sim::ResourceMode::off;  // what a rejected write was rejected by
    std::vector<Span> overlap;                            // overlap episodes, drawn behind the candidate lanes
    Tick end_tick = 0;
    std::size_t event_count = 0;
    std::int32_t candidate_lanes = 0;
    std::vector<ClockTrack> clocks;  // the clocks that are not true time: the clock lanes under the others
    MessageTrack messages;           // the message view's data; empty without time on the wire (model.md §16)
    TickClock clock;                 // the time beside a tick (since tick 0, or a recorded history's wall clock)
    bool operator==(const LaneModel&) const = default;
};

namespace lane_detail {
// One open span per tracked quantity; it closes when the value changes.
struct OpenSpan {
    bool open = false;
    Span span;
};
struct SlotTracker {
    OpenSpan open;
    Token token;
    Tick acquired_at = tick_none;
};
}  // namespace lane_detail

// Reads the lanes from the one run the GUI shows (model.md's run is simulated
// once): as the Timeline makes it, the state at the end of every tick gives
// the spans; once it is made, the trace's events give the marks.
class LaneRecorder final : public sim::TickObserver {
public:
    explicit LaneRecorder(const sim::Scenario& scenario);
    void on_ticks(const sim::Simulation& simulation, const ModelStore& store, Tick first, Tick last) override;
    // A replayed timeline (sim::Timeline from a trace, model.md §19.9): the
    // state folded from its events, seen at every tick where it can change
    // (an event's, a record's deadline), in place of on_ticks.
    void replay(const sim::Timeline& timeline);
    // The lanes of `timeline` (the run this recorder saw), its spans closed
    // after the last tick seen. Call once.
    LaneModel finish(const sim::Timeline& timeline);

private:
    using OpenSpan = lane_detail::OpenSpan;
    using SlotTracker = lane_detail::SlotTracker;
    void record(const sim::Snapshot& snap);
    void record_node(std::int32_t i, const sim::NodeSnapshot& node, Tick t);
    void record_slot(std::int32_t s, const SlotRecord& rec, Tick t);
    void add_server_lanes(std::int32_t servers);
    std::int32_t server_lane(std::int32_t server, std::int32_t slot) const;
    void record_servers(const sim::Snapshot& snap);
    void record_record(SlotTracker& tr, std::int32_t lane, const SlotRecord& rec, Tick t);
    bool add_server_marker(const sim::Event& e, const Marker& m);
    std::int32_t primary_at(Tick t) const;
    std::optional<Fencing> primary_counter_at(Tick t) const;
    void close_all();
    void add_marker(const sim::Event& e, const Marker& m);
    Lane& lane_at(std::int32_t i) { return lanes_[static_cast<std::size_t>(i)]; }

    sim::ResourceMode resource_;
    std::int32_t n_nodes_ = 0, capacity_ = 0;
    std::int32_t first_slot_ = 0, holdoff_lane_ = 0, resource_lane_ = 0, ops_lane_ = -1;
    std::map<std::string, std::int32_t> node_index_;
    std::vector<Lane> lanes_;
    std::vector<Span> overlap_;
    std::vector<OpenSpan> node_open_, pause_open_, part_open_;
    std::vector<SlotTracker> slots_;
    // With replicas (model.md §17): one lane per server and slot, from
    // first_server_ on, server-major; their records, cut overlays, and the
    // primary and its counter as they change.
    std::int32_t servers_ = 0, first_server_ = 0;
    std::vector<SlotTracker> server_slots_;
    std::vector<OpenSpan> cut_open_;
    std::vector<std::pair<Tick, std::int32_t>> primaries_;
    std::vector<std::pair<Tick, Fencing>> counters_;
    OpenSpan hold_open_, fence_open_, overlap_open_;
    Tick last_tick_ = -1;
};

// A run the GUI shows: its Timeline and its lanes, from one simulation.
struct ShownRun {
    std::unique_ptr<sim::Timeline> timeline;
    LaneModel lanes;
};
ShownRun run_scenario(sim::Scenario scenario);
// A recorded trace shown read-only (model.md §19.9): nothing simulated.
ShownRun replay_trace(sim::Trace trace);

// The span kind that shows a node status (one colour per state everywhere).
SpanKind span_kind_of(sim::NodeStatus status);
// Which marker an event becomes (a run that gives up has its own `skip`
// event); `mode` is the resource's, which decides what rejected a write (the
// fencing check or token validation).
MarkerKind marker_kind_of(const sim::Event& event, sim::ResourceMode mode);
// In a replay (`recorded`) a rejected write is only what the trace says: the
// resource rejected it (write_rejected_recorded), by no check of ours (§19.9).
MarkerKind marker_kind_of(const sim::Event& event, sim::ResourceMode mode, bool recorded);
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

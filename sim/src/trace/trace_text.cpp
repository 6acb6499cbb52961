// The trace as a text table for people: one row per event, the outcome in
// words, the runs and violations at the end.
#include <algorithm>
#include <span>

#include <fmt/format.h>

#include "leasescope/sim/durations.hpp"

#include "leasescope/sim/trace.hpp"

namespace leasescope::sim {

namespace {

std::string short_token(const std::string& token) {
    if (token.size() <= 8) return token;
    return token.substr(0, 7) + "…";
}

// "1 replica", "2 replicas".
std::string replicas_words(std::int64_t n) { return fmt::format("{} replica{}", n, n == 1 ? "" : "s"); }

// The rows of a store with replicas (model.md §17.7): link edges, a
// promoting failover, WAIT's answer.
std::string replica_words(const Event& e) {
    const std::int32_t server = e.server.value_or(0);
    switch (e.op) {
        case EventOp::link_cut: return fmt::format("link to replica {} cut", server);
        case EventOp::link_restored: return fmt::format("link to replica {} restored: it resynchronises", server);
        case EventOp::failover:
            return e.fencing ? fmt::format("failover: server {} promoted, counter {}", server, *e.fencing)
                             : fmt::format("failover: server {} promoted, no number issued yet", server);
        case EventOp::wait:
            return e.outcome == Outcome::synced
                       ? fmt::format("WAIT: {} acknowledged, enough", replicas_words(e.overlap_count))
                       : fmt::format("WAIT: {} acknowledged, too few: the lock is released",
                                     replicas_words(e.overlap_count));
        default: return "";
    }
}

// The rows only an imported history has (model.md §19.7): what a node
// believed, and what the capture cannot tell.
std::string import_words(const Event& e) {
    if (e.op == EventOp::believe) {
        const char* belief = e.outcome == Outcome::leader ? "believes it leads" : "believes it does not lead";
        if (e.details.has(Detail::inferred)) return fmt::format("{} (inferred from its commands)", belief);
        return fmt::format("{} (its log: {})", belief, detail_text(e));
    }
    if (e.details.has(Detail::unrecognised_script)) return "? cannot tell: a script LeaseScope does not know";
    if (e.details.has(Detail::unknown_sha)) return "? cannot tell: EVALSHA of a script the capture never showed";
    if (e.details.has(Detail::other_command)) return "? cannot tell: another command on the lock's keys";
    if (e.details.has(Detail::expiry_boundary)) return "? cannot tell: within 1 ms of the lease's deadline";
    if (e.details.has(Detail::capture_gap)) return "? cannot tell: a gap in the capture";
    return "? cannot tell";
}

// A call a primary refused for want of good replicas (-NOREPLICAS, model.md §17.4).
std::string no_replicas_words(const Event& e) {
    switch (e.op) {
        case EventOp::acquire: return "error: NOREPLICAS, too few good replicas";
        case EventOp::extend: return "error: NOREPLICAS, too few good replicas: watchdog stops";
        default: return "error: NOREPLICAS, too few good replicas: record left to expire";
    }
}

// A Redlock client's count of its stores' answers (model.md §20.8).
std::string quorum_words(const Event& e) {
    switch (e.outcome) {
        case Outcome::acquired: return fmt::format("LOCKED: {} stores said yes, a quorum", e.overlap_count);
        case Outcome::busy: return fmt::format("no lock: {} stores said yes; unlocks everywhere", e.overlap_count);
        case Outcome::released: return fmt::format("unlocked on {} stores, a quorum", e.overlap_count);
        default: return fmt::format("! unlock on only {} stores: \"Unable to fully release\"", e.overlap_count);
    }
}

// A Redlock trace's rows about one store and the resource (model.md §20.8,
// §20.6): what the store answered, what a write meant; empty for the rest.
std::string redlock_words(const Event& e) {
    switch (e.op) {
        case EventOp::acquire:
            if (e.outcome == Outcome::acquired) return "yes: key set";
            if (e.outcome == Outcome::busy) return "no: the key exists";
            return "error: store down, connection refused";
        case EventOp::release:
            if (e.outcome == Outcome::released) return "key deleted";
            if (e.outcome == Outcome::not_owner) return "no: not this token's key, left alone";
            return "error: store down, connection refused";
        case EventOp::write:
            if (e.details.has(Detail::unsafe_write))
                return "! write accepted: UNSAFE (another client holds a quorum) (STALE holder)";
            if (e.details.has(Detail::stale)) return "! write accepted (STALE: its token holds no quorum)";
            return "write accepted";
        default: return "";
    }
}

// A Redisson trace's rows (model.md §21): what its scripts answered, what
// the unlock message did, what a write meant; empty for the rest.
std::string redisson_words(const Event& e) {
    switch (e.op) {
        case EventOp::acquire:
            if (e.outcome == Outcome::acquired) return "acquired: its field set in the hash";
            if (e.outcome == Outcome::busy) return "busy: PTTL returned; waits for the unlock message or that TTL";
            if (e.details.has(Detail::reply_lost)) return "! error: reply lost, lock taken in the store (orphan)";
            return "error: store unreachable, tryLock throws";
        case EventOp::extend:
            if (e.outcome == Outcome::renewed) return "watchdog renewed the TTL";
            if (e.outcome == Outcome::lost) return "! watchdog: field gone, renewal cancelled";
            return "! watchdog error: renewal stops for good (3.31.0)";
        case EventOp::release:
            if (e.outcome == Outcome::released) return "unlocked: key deleted, unlock message published";
            if (e.outcome == Outcome::kept) return "unlocked once: hold count above 0, key kept";
            if (e.outcome == Outcome::not_owner) return "! unlock REJECTED: IllegalMonitorStateException";
            return "error: store unreachable, lock left to expire";
        case EventOp::message:
            if (e.outcome == Outcome::delivered) return "unlock message received: the waiter wakes";
            return "! unlock message LOST: sleeps until the TTL it was told";
        case EventOp::skip: return "skipped: waitTime spent, tryLock returns false";
        case EventOp::start: return fmt::format("run {} calls tryLock (the same field every run)", e.run);
        case EventOp::write:
            if (e.details.has(Detail::unsafe_write))
                return "! write accepted: UNSAFE (another client holds the lock) (STALE holder)";
            if (e.details.has(Detail::stale)) return "! write accepted (STALE: its field does not hold the lock)";
            return "write accepted";
        default: return "";
    }
}

// A node's crash, or a Redlock store going down (model.md §20.3), which names its store.
std::string crash_words(const Event& e) {
    return e.server ? "store down: refuses every connection" : "crashed: stops for good, releases nothing";
}

// The Outcome column in words, with a leading "!" on anything a reader must
// not miss: stale holders, rejected releases and writes, violations.
std::string outcome_words(const Event& e) {
    if (e.outcome == Outcome::error && e.details.has(Detail::no_replicas)) return no_replicas_words(e);
    if (e.op == EventOp::link_cut || e.op == EventOp::link_restored || e.op == EventOp::wait ||
        (e.op == EventOp::failover && e.server))
        return replica_words(e);
    const std::string slot = e.slot ? fmt::format(" slot {}", *e.slot) : "";
    switch (e.op) {
        case EventOp::pause: return "paused (stop-the-world)";
        case EventOp::resume: return "resumed";
        case EventOp::crash: return crash_words(e);
        case EventOp::partition: return fmt::format("partitioned from the store ({})", detail_text(e));
        case EventOp::heal: return "partition healed";
        case EventOp::failover: return fmt::format("failover: replica takes over, lost {}", detail_text(e));
        case EventOp::clock_jump:
            return fmt::format("{} clock jumps {} ms {}", e.node == "store" || e.server ? "the store's" : "the node's",
                               e.clock_ms < 0 ? -e.clock_ms : e.clock_ms, e.clock_ms < 0 ? "back" : "forward");
        case EventOp::expire: return fmt::format("lease expired,{} vacant", slot);
        case EventOp::start: return fmt::format("run {} starts with a new token", e.run);
        case EventOp::skip: return "skipped: gives up waiting, the action is not called";
        case EventOp::acquire:
            if (e.outcome == Outcome::acquired)
                return fmt::format("acquired{}{}{}", slot,
                                   e.details.has(Detail::fencing_regressed) ? "  ! FENCING REGRESSED" : "",
                                   e.details.has(Detail::fencing_duplicate) ? ", DUPLICATE FENCING" : "");
            if (e.outcome == Outcome::busy)
                return e.details.has(Detail::hold_off) ? "busy: hold-off after a release" : "busy: held by another";
            if (e.details.has(Detail::reply_lost))
                return fmt::format("! error: reply lost, lease applied in{} (orphan){}{}", slot,
                                   e.details.has(Detail::fencing_regressed) ? ", FENCING REGRESSED" : "",
                                   e.details.has(Detail::fencing_duplicate) ? ", DUPLICATE FENCING" : "");
            return "error: store unreachable";
        case EventOp::write: {
            std::string s = e.outcome == Outcome::accepted ? "write accepted" : "! write REJECTED";
            if (e.details.has(Detail::unsafe_write)) s = "! write accepted: UNSAFE (older fencing than accepted)";
            if (e.details.has(Detail::stale)) s = (s[0] == '!' ? "" : "! ") + s + " (STALE holder)";
            if (e.details.has(Detail::stale_after_successor)) s += ", LOST UPDATE (after a successor's write)";
            if (e.details.has(Detail::holder_rejected)) s += " (VALID holder)";
            return s;
        }
        case EventOp::release:
            switch (e.outcome) {
                case Outcome::released: return fmt::format("released{}", slot);
                case Outcome::kept: return fmt::format("kept{} for min_lease", slot);
                case Outcome::not_owner: return "! release REJECTED: stale token";
                default: return "error: store unreachable, record left to expire";
            }
        case EventOp::extend:
            switch (e.outcome) {
                case Outcome::renewed: return fmt::format("renewed{}", slot);
                case Outcome::lost: return "! lost: lease already gone, watchdog stops";
                default: return "error: store unreachable (retried)";
            }
        case EventOp::status: return e.outcome == Outcome::held ? "status: held" : "status: vacant";
        case EventOp::validate: return fmt::format("validate({}): {}", e.named_node, to_string(e.outcome));
        case EventOp::overlap_begin: return fmt::format("! OVERLAP: {} nodes executing", e.overlap_count);
        case EventOp::overlap_end: return "overlap ends";
        case EventOp::link_cut:
        case EventOp::link_restored:
        case EventOp::wait: return replica_words(e);
        case EventOp::believe:
        case EventOp::undecided: return import_words(e);
        case EventOp::restart:
            return e.outcome == Outcome::kept   ? "store back up: kept the lock"
                   : e.outcome == Outcome::lost ? "! store back up: FORGOT the lock"
                                                : "store back up";
        case EventOp::quorum: return quorum_words(e);
        case EventOp::message: return redisson_words(e);
    }
    return "";
}

// The Outcome column of a row: a Redlock trace's own words where it has them.
std::string row_words(const Event& e, std::span<const std::string> stores, bool redisson) {
    if (redisson) {
        std::string words = redisson_words(e);
        if (!words.empty()) return words;
    }
    if (!stores.empty()) {
        std::string words = redlock_words(e);
        if (!words.empty()) return words;
    }
    return outcome_words(e);
}

std::string or_dash(const std::optional<std::int64_t>& v) { return v ? std::to_string(*v) : "-"; }

// Time on the wire (model.md §16.6): "  (sent 9, applied 11)" after the
// outcome, only on an event whose trace line has `sent` or `applied`; a row
// without them is unchanged.
std::string wire_words(const Event& e) {
    if (!e.sent && !e.applied) return "";
    std::string out = "  (";
    if (e.sent) out += fmt::format("sent {}", *e.sent);
    if (e.sent && e.applied) out += ", ";
    if (e.applied) out += fmt::format("applied {}", *e.applied);
    return out + ")";
}

// The server that answered (model.md §17.7): " (server 0)" on the events of
// an old primary in split brain; link edges and a failover name theirs in
// their words already. A row without `server` is unchanged.
std::string server_words(const Event& e, std::span<const std::string> stores) {
    if (!e.server || e.op == EventOp::link_cut || e.op == EventOp::link_restored || e.op == EventOp::failover)
        return "";
    // A Redlock trace names its stores (model.md §20.8).
    if (static_cast<std::size_t>(*e.server) < stores.size())
        return fmt::format(" (store {})", stores[static_cast<std::size_t>(*e.server)]);
    return fmt::format(" (server {})", *e.server);
}

// The wall clock column of an imported history's rows (model.md §19.7):
// "HH:MM:SS.mmm  " in UTC; empty for an event without `wall_us`, so the
// rows of /1-/3 traces are unchanged.
std::string wall_column(const Event& e) { return e.wall_us ? wall_time_text(*e.wall_us) + "  " : ""; }

}  // namespace

std::string text_table_header(bool wall_clock, bool time) {
    return fmt::format("{:>5}  {}{}{:<12} {:<13} {:<9} {:>7} {:>4}  {}", "Tick",
                       time ? fmt::format("{:>10}  ", "Time") : "", wall_clock ? "Wall (UTC)    " : "", "Candidate",
                       "Operation", "Token", "Fencing", "TTL", "Outcome");
}

std::string wall_time_text(std::int64_t wall_us) {
    constexpr std::int64_t day_ms = std::int64_t{86'400'000};
    const std::int64_t of_day = ((wall_us / 1000) % day_ms + day_ms) % day_ms;  // a reader keeps wall_us >= 0
    return fmt::format("{:02}:{:02}:{:02}.{:03}", of_day / 3'600'000, of_day / 60'000 % 60, of_day / 1000 % 60,
                       of_day % 1000);
}

std::string text_row(const Event& e, std::int64_t time_tick_ms, std::span<const std::string> stores, bool redisson) {
    std::optional<std::int64_t> fencing, ttl;
    if (e.fencing) fencing = *e.fencing;
    if (e.ttl) ttl = *e.ttl;
    const std::string time =
        time_tick_ms > 0 ? fmt::format("{:>10}  ", elapsed_text(e.tick, time_tick_ms)) : std::string();
    return fmt::format("{:>5}  {}{}{:<12} {:<13} {:<9} {:>7} {:>4}  {}{}{}", e.tick, time, wall_column(e),
                       e.node.empty() ? "-" : e.node, to_string(e.op), e.token.empty() ? "-" : short_token(e.token),
                       or_dash(fencing), or_dash(ttl), row_words(e, stores, redisson), wire_words(e),
                       server_words(e, stores));
}

bool text_marked(const Event& e) { return outcome_words(e).find('!') != std::string::npos; }

bool TextFilter::keeps(const Event& e) const {
    if (e.tick < from || (to && e.tick > *to)) return false;
    if (!nodes.empty() && !e.node.empty() && std::find(nodes.begin(), nodes.end(), e.node) == nodes.end()) return false;
    return !marked_only || text_marked(e);
}

void WriteTally::add(const Event& e) {
    if (e.op != EventOp::write) return;
    RunWrites& w = runs_[{e.node, e.run}];
    if (e.outcome == Outcome::accepted) {
        ++w.accepted;
        if (e.details.has(Detail::unsafe_write)) ++w.unsafe;
    } else {
        ++w.rejected;
    }
}

RunWrites WriteTally::of(const std::string& node, std::int32_t run) const {
    const auto it = runs_.find({node, run});
    return it == runs_.end() ? RunWrites{} : it->second;
}

namespace {

std::string writes_words(const RunWrites& w) {
    const std::int64_t total = w.accepted + w.rejected;
    if (total == 0) return "no writes";
    return fmt::format("{} write{}: {} accepted{}, {} rejected", total, total == 1 ? "" : "s", w.accepted,
                       w.unsafe > 0 ? fmt::format(" ({} UNSAFE)", w.unsafe) : "", w.rejected);
}

}  // namespace

std::string text_summary(const TraceSummary& s, const WriteTally& writes) {
    std::string out = fmt::format("ended at tick {}; {} events; sha256 {}\n", s.end_tick, s.events, s.trace_sha256);
    for (const RunSummary& r : s.results) {
        out += fmt::format("  {:<12} run {}  {:<15} fencing {:<4} {}\n", r.node, r.run, r.result,
                           r.fencing ? std::to_string(*r.fencing) : "-", writes_words(writes.of(r.node, r.run)));
    }
    const Violations& v = s.violations;
    out += fmt::format(
        "violations: overlap {}, unsafe_write {}, fencing_regressed {}, stale_after_successor {}, holder_rejected "
        "{}, fencing_duplicate {}\n",
        v.overlap, v.unsafe_write, v.fencing_regressed, v.stale_after_successor, v.holder_rejected,
        v.fencing_duplicate);
    return out;
}

std::string trace_to_text(const Trace& trace, const TextFilter& filter) {
    std::string out = fmt::format("{} (seed {}, lock {}, {} slot{}, tick {} ms)\n", trace.header.scenario,
                                  trace.header.seed, trace.header.lock, trace.header.capacity,
                                  trace.header.capacity == 1 ? "" : "s", trace.header.tick_ms);
    out += text_table_header(trace.header.format == 4, filter.time_tick_ms > 0);
    out += '\n';
    WriteTally writes;
    std::size_t shown = 0;
    for (const Event& e : trace.events) {
        writes.add(e);
        if (!filter.keeps(e)) continue;
        out += text_row(e, filter.time_tick_ms, trace.header.stores, trace.header.format == 6);
        out += '\n';
        ++shown;
    }
    if (filter.any()) out += fmt::format("shown: {} of {} events\n", shown, trace.events.size());
    out += '\n';
    out += text_summary(trace.summary, writes);
    return out;
}

}  // namespace leasescope::sim

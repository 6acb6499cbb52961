// Events, outcomes and node states in words (words.hpp): the keys and fields of the string tables for one event.
#include "leasescope/words/words.hpp"

#include <string>

#include "trace_facts.hpp"

namespace leasescope::words {

using namespace facts;

std::string short_token(const std::string& token, std::size_t keep) {
    if (token.empty()) return "–";
    if (token.size() <= keep) return token;
    return token.substr(0, keep) + "…";
}

namespace {
// The events of an imported history (model.md §19.7): a node's belief, with
// its log's word or inferred from its commands, and what the capture cannot
// tell, by why.
std::string import_key(const Event& e) {
    if (e.op == EventOp::believe) {
        const std::string belief = e.outcome == Outcome::leader ? "believe.leader" : "believe.follower";
        return e.details.has(sim::Detail::inferred) ? belief + "_inferred" : belief;
    }
    for (const sim::Detail why : {sim::Detail::unrecognised_script, sim::Detail::unknown_sha,
                                  sim::Detail::other_command, sim::Detail::expiry_boundary, sim::Detail::capture_gap}) {
        if (e.details.has(why)) return std::string("undecided.") + sim::to_string(why);
    }
    return "unknown";
}
// A Redlock trace's own events (model.md §20.8): a store's restart, a count.
std::string redlock_key(const Event& e) {
    if (e.op == EventOp::restart)
        return e.outcome == Outcome::kept   ? "restart.kept"
               : e.outcome == Outcome::lost ? "restart.lost"
                                            : "restart.empty";
    switch (e.outcome) {
        case Outcome::acquired: return "quorum.locked";
        case Outcome::busy: return "quorum.no";
        case Outcome::released: return "quorum.released";
        default: return "quorum.partial";
    }
}

// A clock's step: the store's (or a Redlock store's, which names the store,
// model.md §20.8) or a node's (model.md §7.5).
std::string clock_key(const Event& e) {
    if (e.node == "store" || e.server) return e.clock_ms > 0 ? "clock_jump.store_forward" : "clock_jump.store_back";
    return e.clock_ms > 0 ? "clock_jump.node_forward" : "clock_jump.node_back";
}

}  // namespace

std::string event_key(const Event& e) {
    switch (e.op) {
        case EventOp::pause: return "pause";
        case EventOp::resume: return "resume";
        case EventOp::crash: return e.server ? "crash.store" : "crash";  // a Redlock store (model.md §20.3)
        case EventOp::partition: return "partition";
        case EventOp::heal: return "heal";
        case EventOp::failover:
            if (e.server) return "failover.promote";  // a replica promoted (model.md §17.3)
            return e.details.has(sim::Detail::all) ? "failover.all" : "failover.leases";
        case EventOp::link_cut: return "link_cut";
        case EventOp::link_restored: return "link_restored";
        case EventOp::wait: return e.outcome == Outcome::synced ? "wait.synced" : "wait.not_synced";
        case EventOp::clock_jump: return clock_key(e);
        case EventOp::expire: return "expire";
        case EventOp::write:
            if (e.outcome == Outcome::rejected) {
                if (e.details.has(sim::Detail::holder_rejected)) return "write.holder_rejected";
                return e.details.has(sim::Detail::stale) ? "write.rejected_stale" : "write.rejected";
            }
            if (e.details.has(sim::Detail::unsafe_write)) return "write.unsafe";
            if (e.details.has(sim::Detail::stale_after_successor)) return "write.lost_update";
            if (e.details.has(sim::Detail::stale)) return "write.accepted_stale";
            return "write.accepted";
        case EventOp::release:
            if (e.details.has(sim::Detail::no_replicas)) return "release.no_replicas";
            switch (e.outcome) {
                case Outcome::released: return "release.released";
                case Outcome::kept: return "release.kept";
                case Outcome::not_owner: return "release.not_owner";
                default: return "release.error";
            }
        case EventOp::extend:
            if (e.details.has(sim::Detail::no_replicas)) return "extend.no_replicas";
            if (e.outcome == Outcome::renewed) return "extend.renewed";
            if (e.outcome == Outcome::lost) return "extend.lost";
            return "extend.error";
        case EventOp::start: return "start";
        case EventOp::acquire:
            if (e.outcome == Outcome::acquired)
                return e.details.has(sim::Detail::fencing_regressed) ? "acquire.regressed" : "acquire.acquired";
            if (e.details.has(sim::Detail::no_replicas)) return "acquire.no_replicas";
            if (e.outcome == Outcome::error)
                return e.details.has(sim::Detail::reply_lost) ? "acquire.reply_lost" : "acquire.error";
            return e.details.has(sim::Detail::hold_off) ? "acquire.busy_holdoff" : "acquire.busy";
        case EventOp::skip: return "skip";
        case EventOp::status: return e.outcome == Outcome::held ? "status.held" : "status.vacant";
        case EventOp::validate:
            // A node's own check before a write (model.md §5.8) is in the work phase.
            if (e.phase == sim::Phase::work) {
                if (e.outcome == Outcome::current) return "check.current";
                if (e.outcome == Outcome::stale) return "check.stale";
                if (e.outcome == Outcome::vacant) return "check.vacant";
                return "check.error";
            }
            if (e.outcome == Outcome::current) return "validate.current";
            if (e.outcome == Outcome::stale) return "validate.stale";
            return "validate.vacant";
        case EventOp::overlap_begin: return "overlap_begin";
        case EventOp::overlap_end: return "overlap_end";
        case EventOp::believe:
        case EventOp::undecided: return import_key(e);
        case EventOp::restart:
        case EventOp::quorum: return redlock_key(e);
        case EventOp::message: return e.outcome == Outcome::delivered ? "message.delivered" : "message.lost";
        default: break;
    }
    return "unknown";
}

Fields event_fields(const Event& e) {
    Fields f;
    f.emplace_back("node", e.node.empty() ? std::string("–") : e.node);
    f.emplace_back("tick", std::to_string(e.tick));
    f.emplace_back("run", e.run >= 0 ? std::to_string(e.run) : std::string("–"));
    f.emplace_back("slot", e.slot ? std::to_string(*e.slot) : std::string("–"));
    f.emplace_back("fencing", opt_text(e.fencing));
    f.emplace_back("ttl", opt_text(e.ttl));
    f.emplace_back("token", short_token(e.token, 8));
    f.emplace_back("detail", sim::detail_text(e));
    f.emplace_back("mode", e.details.has(sim::Detail::drop_replies) ? "drop_replies" : "drop_requests");
    f.emplace_back("lose", sim::detail_text(e));
    f.emplace_back("jump_ms", std::to_string(e.clock_ms < 0 ? -e.clock_ms : e.clock_ms));
    // Replication (model.md §17.7): the server, and the replicas a WAIT counted.
    f.emplace_back("server", e.server ? std::to_string(*e.server) : std::string("–"));
    f.emplace_back("acked", std::to_string(e.overlap_count));
    f.emplace_back("votes", std::to_string(e.overlap_count));  // a Redlock count (model.md §20.8)
    return f;
}

std::string op_words(const Event& e, const Strings& s) { return s.tr(std::string("op.") + sim::to_string(e.op)); }

namespace {
// The event's fields plus {ticks}: "tick" or "ticks" after its TTL, as the language says it.
Fields fields_with_units(const Event& e, const Strings& s) {
    Fields f = event_fields(e);
    f.emplace_back("ticks", s.tr(e.ttl && *e.ttl == 1 ? "word.tick" : "word.ticks"));
    return f;
}
}  // namespace

std::string outcome_words(const Event& e, const Strings& s, std::int32_t capacity) {
    Fields f = fields_with_units(e, s);
    if (e.op == EventOp::overlap_begin && capacity > 0) {
        f.emplace_back("capacity", std::to_string(capacity));
        return s.tr("out.overlap_begin_of", f);
    }
    return s.tr("out." + event_key(e), f);
}

std::string describe_event(const Event& e, const Strings& s) {
    return s.tr("ev." + event_key(e), fields_with_units(e, s));
}

namespace {
// A Redlock event whose elector words would be wrong (model.md §20.8): a
// store's answer, an expiry, a clock's step of a store, a write judged by
// quorum (§20.6), a give-up after the last attempt. Empty: the elector's
// words fit (a start, a pause, a crash, a count, a restart).
std::string redlock_event_key(const Event& e) {
    const auto answer = [&](const char* what) {
        if (e.outcome == Outcome::error) return std::string("rl.") + what + ".down";
        const bool yes = e.outcome == Outcome::acquired || e.outcome == Outcome::released;
        return std::string("rl.") + what + (yes ? ".yes" : ".no");
    };
    switch (e.op) {
        case EventOp::acquire: return e.server ? answer("acquire") : std::string();
        case EventOp::release: return e.server ? answer("release") : std::string();
        case EventOp::expire: return e.server ? "rl.expire" : "";
        case EventOp::clock_jump: return e.server ? (e.clock_ms > 0 ? "rl.clock_forward" : "rl.clock_back") : "";
        case EventOp::write:
            if (e.details.has(sim::Detail::unsafe_write)) return "rl.write.unsafe";
            return e.details.has(sim::Detail::stale) ? "rl.write.stale" : "rl.write.held";
        case EventOp::skip: return "rl.skip";
        default: return "";
    }
}
}  // namespace

std::string describe_event(const Event& e, const Strings& s, std::span<const std::string> stores) {
    const std::string key = stores.empty() ? std::string() : redlock_event_key(e);
    if (key.empty()) return describe_event(e, s);
    Fields f = fields_with_units(e, s);
    const bool named = e.server && *e.server >= 0 && static_cast<std::size_t>(*e.server) < stores.size();
    f.emplace_back("store", named ? stores[static_cast<std::size_t>(*e.server)] : std::string("–"));
    return s.tr("ev." + key, f);
}

namespace {
// A Redisson event whose elector words would be wrong (model.md §21.9): an
// acquisition, a renewal and an expiry of a field in a hash with no fencing
// number, a reentrant unlock that keeps the key, a write the resource cannot
// check. Empty: the elector's words fit.
std::string redisson_event_key(const Event& e) {
    switch (e.op) {
        case EventOp::acquire:
            if (e.outcome == Outcome::acquired) return "rs.acquire.acquired";
            return e.details.has(sim::Detail::reply_lost) ? "rs.acquire.reply_lost" : "";
        case EventOp::extend: return e.outcome == Outcome::renewed ? "rs.extend.renewed" : "";
        case EventOp::release: return e.outcome == Outcome::kept ? "rs.release.kept" : "";
        case EventOp::expire: return "rs.expire";
        case EventOp::write:
            if (e.details.has(sim::Detail::unsafe_write)) return "rs.write.unsafe";
            return e.details.has(sim::Detail::stale) ? "rs.write.stale" : "rs.write.held";
        default: return "";
    }
}

// A Redisson event's Outcome cell (a script's answer, a give-up, an unsafe
// write); empty for those told as in any trace.
std::string redisson_outcome(const Event& e, const Strings& s) {
    const Fields f{{"ttl", e.ttl ? std::to_string(*e.ttl) : std::string("–")}};
    const std::string outcome = sim::to_string(e.outcome);
    switch (e.op) {
        case EventOp::acquire:
            if (e.details.has(sim::Detail::reply_lost)) return s.tr("rso.acquire.reply_lost", f);
            return s.tr("rso.acquire." + outcome, f);
        case EventOp::extend:
        case EventOp::release: return s.tr("rso." + std::string(sim::to_string(e.op)) + "." + outcome, f);
        case EventOp::skip: return s.tr("rso.skip");
        case EventOp::write: return e.details.has(sim::Detail::unsafe_write) ? s.tr("rso.write.unsafe") : "";
        default: return {};
    }
}
}  // namespace

std::string outcome_words(const Event& e, const Strings& s, const sim::TraceHeader& header) {
    std::string cell = header.format == 6 ? redisson_outcome(e, s) : std::string();
    return cell.empty() ? outcome_words(e, s, header.capacity) : cell;
}

std::string describe_event(const Event& e, const Strings& s, const sim::TraceHeader& header) {
    if (header.format != 6) return describe_event(e, s, header.stores);
    const std::string key = redisson_event_key(e);
    return key.empty() ? describe_event(e, s) : s.tr("ev." + key, fields_with_units(e, s));
}

std::string status_words(sim::NodeStatus status, const Strings& s) {
    return s.tr(std::string("status.") + sim::to_string(status));
}

std::string explain_state(const sim::Snapshot& snap, const Strings& s) {
    // The lines first: a heading with nothing under it is never printed.
    std::string out;
    std::size_t shown = 0;
    for (const sim::NodeSnapshot& n : snap.nodes) {
        if (n.status == sim::NodeStatus::idle || n.status == sim::NodeStatus::done) continue;
        if (++shown > 8) break;  // a summary, not the whole candidates panel
        Fields f{{"node", n.name},
                 {"status", status_words(n.status, s)},
                 {"fencing", opt_text(n.fencing)},
                 {"progress", std::to_string(n.progress)},
                 {"action", std::to_string(n.action)}};
        // A replayed history (model.md §19.9) has no action whose progress to tell: action 0.
        const bool recorded = n.action == 0;
        const char* key = n.status == sim::NodeStatus::stale
                              ? (recorded ? "explain.node_stale_recorded" : "explain.node_stale")
                          : n.status == sim::NodeStatus::running
                              ? (recorded ? "explain.node_running_recorded" : "explain.node_running")
                              : "explain.node_other";
        out += "\n• " + s.tr(key, f);
        if (n.paused || n.partition) {
            out += ' ';
            out += s.tr(n.paused ? "explain.node_paused" : "explain.node_partitioned");
        }
    }
    for (const SlotRecord& r : snap.slots) {
        if (!r.valid_at(snap.tick)) continue;
        out += "\n• " + s.tr("explain.slot_held", {{"owner", r.owner},
                                                   {"fencing", std::to_string(r.fencing)},
                                                   {"expires", std::to_string(r.expires_at)}});
    }
    if (out.empty()) return out;
    return s.tr("explain.state_at", {{"tick", std::to_string(snap.tick)}}) + out;
}

}  // namespace leasescope::words

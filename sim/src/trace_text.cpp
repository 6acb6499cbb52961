// The trace as a text table for people: one row per event, the outcome in
// words, the runs and violations at the end.
#include <fmt/format.h>

#include "leasescope/sim/trace.hpp"

namespace leasescope::sim {

namespace {

std::string short_token(const std::string& token) {
    if (token.size() <= 8) return token;
    return token.substr(0, 7) + "…";
}

// The Outcome column in words, with a leading "!" on anything a reader must
// not miss: stale holders, rejected releases and writes, violations.
std::string outcome_words(const Event& e) {
    const std::string slot = e.slot ? fmt::format(" slot {}", *e.slot) : "";
    switch (e.op) {
        case EventOp::pause: return "paused (stop-the-world)";
        case EventOp::resume: return "resumed";
        case EventOp::crash: return "crashed: stops for good, releases nothing";
        case EventOp::partition: return fmt::format("partitioned from the store ({})", detail_text(e));
        case EventOp::heal: return "partition healed";
        case EventOp::failover: return fmt::format("failover: replica takes over, lost {}", detail_text(e));
        case EventOp::expire: return fmt::format("lease expired,{} vacant", slot);
        case EventOp::start: return fmt::format("run {} starts with a new token", e.run);
        case EventOp::skip: return "skipped: gives up waiting, the action is not called";
        case EventOp::acquire:
            if (e.outcome == Outcome::acquired)
                return fmt::format("acquired{}{}", slot,
                                   e.details.has(Detail::fencing_regressed) ? "  ! FENCING REGRESSED" : "");
            if (e.outcome == Outcome::busy)
                return e.details.has(Detail::hold_off) ? "busy: hold-off after a release" : "busy: held by another";
            if (e.details.has(Detail::reply_lost))
                return fmt::format("! error: reply lost, lease applied in{} (orphan){}", slot,
                                   e.details.has(Detail::fencing_regressed) ? ", FENCING REGRESSED" : "");
            return "error: store unreachable";
        case EventOp::write: {
            std::string s = e.outcome == Outcome::accepted ? "write accepted" : "! write REJECTED";
            if (e.details.has(Detail::unsafe_write)) s = "! write accepted: UNSAFE (older fencing than accepted)";
            if (e.details.has(Detail::stale)) s = (s[0] == '!' ? "" : "! ") + s + " (STALE holder)";
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
    }
    return "";
}

std::string or_dash(const std::optional<std::int64_t>& v) { return v ? std::to_string(*v) : "-"; }

}  // namespace

std::string text_table_header() {
    return fmt::format("{:>5}  {:<12} {:<13} {:<9} {:>7} {:>4}  {}", "Tick", "Candidate", "Operation", "Token",
                       "Fencing", "TTL", "Outcome");
}

std::string text_row(const Event& e) {
    std::optional<std::int64_t> fencing, ttl;
    if (e.fencing) fencing = *e.fencing;
    if (e.ttl) ttl = *e.ttl;
    return fmt::format("{:>5}  {:<12} {:<13} {:<9} {:>7} {:>4}  {}", e.tick, e.node.empty() ? "-" : e.node,
                       to_string(e.op), e.token.empty() ? "-" : short_token(e.token), or_dash(fencing), or_dash(ttl),
                       outcome_words(e));
}

std::string trace_to_text(const Trace& trace) {
    std::string out = fmt::format("{} (seed {}, lock {}, {} slot{}, tick {} ms)\n", trace.header.scenario,
                                  trace.header.seed, trace.header.lock, trace.header.capacity,
                                  trace.header.capacity == 1 ? "" : "s", trace.header.tick_ms);
    out += text_table_header();
    out += '\n';
    for (const Event& e : trace.events) {
        out += text_row(e);
        out += '\n';
    }
    const TraceSummary& s = trace.summary;
    out += fmt::format("\nended at tick {}; {} events; sha256 {}\n", s.end_tick, s.events, s.trace_sha256);
    for (const RunSummary& r : s.results) {
        out += fmt::format("  {:<12} run {}  {:<15} fencing {}\n", r.node, r.run, r.result,
                           r.fencing ? std::to_string(*r.fencing) : "-");
    }
    out += fmt::format("violations: overlap {}, unsafe_write {}, fencing_regressed {}\n", s.violations.overlap,
                       s.violations.unsafe_write, s.violations.fencing_regressed);
    return out;
}

}  // namespace leasescope::sim

// The report of `leasescope-cli import` (import_report.hpp): what was read,
// what it became, and what the user should look at first.
#include "import_report.hpp"

#include <map>
#include <string>

#include <fmt/format.h>

#include "leasescope/sim/limits.hpp"

namespace leasescope::cli {
namespace {

namespace imp = sim::import;

std::string counts_text(const std::map<std::string, std::int64_t>& counts) {
    std::string out;
    for (const auto& [word, n] : counts) out += fmt::format("{}{} {}", out.empty() ? "" : ", ", word, n);
    return out;
}

std::int64_t total(const std::map<std::string, std::int64_t>& counts) {
    std::int64_t sum = 0;
    for (const auto& [word, n] : counts) sum += n;
    return sum;
}

// The sources: each capture's lines read and used, the ignored lines per
// command, each log's lines.
std::string sources_text(const imp::CaptureReport& capture, const std::vector<std::string>& log_files,
                         const std::vector<imp::LogEntry>& log_entries) {
    std::string out;
    for (const auto& s : capture.sources) {
        out += fmt::format("capture {}: {} lines read, {} of the lock\n", s.file, s.lines, s.used);
    }
    if (capture.ignored.empty()) {
        out += "ignored: no lines of other keys\n";
    } else {
        out +=
            fmt::format("ignored: {} lines of other keys ({})\n", total(capture.ignored), counts_text(capture.ignored));
    }
    std::vector<std::int64_t> per_log(log_files.size(), 0);
    for (const imp::LogEntry& e : log_entries) {
        if (e.source >= 0 && static_cast<std::size_t>(e.source) < per_log.size()) ++per_log[e.source];
    }
    for (std::size_t i = 0; i < log_files.size(); ++i) {
        out += fmt::format("log {}: {} entries\n", log_files[i], per_log[i]);
    }
    return out;
}

std::string tick_text(const sim::Trace& trace, std::int64_t tick_ms_given) {
    const std::int64_t ms = trace.header.tick_ms;
    const Tick ticks = trace.summary.end_tick + 1;
    if (tick_ms_given > 0) return fmt::format("tick: {} ms (given with --tick-ms), {} ticks\n", ms, ticks);
    return fmt::format("tick: {} ms, the finest of 1, 2, 5, 10, … ms that keeps the trace within {} ticks ({} ticks)\n",
                       ms, limits::import_ticks_max, ticks);
}

// acquire: 5 (acquired 3, busy 2), and so on for every operation of the lock;
// undecided: per detail word.
std::string outcomes_text(const sim::Trace& trace) {
    static const char* const ops[] = {"acquire", "extend", "release", "expire", "status", "validate", "write"};
    std::map<std::string, std::map<std::string, std::int64_t>> by_op;
    std::map<std::string, std::int64_t> undecided;
    for (const sim::Event& e : trace.events) {
        if (e.op == sim::EventOp::undecided) {
            ++undecided[sim::detail_text(e)];
            continue;
        }
        const std::string outcome = sim::to_string(e.outcome);
        ++by_op[sim::to_string(e.op)][outcome.empty() ? "-" : outcome];
    }
    std::string out;
    for (const char* op : ops) {
        const auto it = by_op.find(op);
        if (it == by_op.end()) continue;
        out += fmt::format("{:<9} {} ({})\n", std::string(op) + ":", total(it->second), counts_text(it->second));
    }
    if (undecided.empty()) {
        out += "undecided: none (the capture decides every outcome)\n";
    } else {
        out += fmt::format("undecided: {} ({})\n", total(undecided), counts_text(undecided));
    }
    return out;
}

std::string token_text(const sim::Event& e) {
    std::string out = e.token.empty() ? "no token" : fmt::format("token {}", e.token);
    if (e.fencing) out += fmt::format(" (fencing {})", *e.fencing);
    return out;
}

// One sentence for an event that breaks an invariant (§9, §19.7.4), or ""
// for any other event.
std::string violation_sentence(const sim::Event& e) {
    const std::string at = e.wall_us ? fmt::format("tick {} ({}): ", e.tick, sim::wall_time_text(*e.wall_us))
                                     : fmt::format("tick {}: ", e.tick);
    if (e.op == sim::EventOp::overlap_begin)
        return at + fmt::format("overlap begins: {} nodes believe they lead at once", e.overlap_count);
    const sim::Details& d = e.details;
    if (e.op == sim::EventOp::write) {
        std::string what;
        if (d.has(sim::Detail::stale)) what += ", a token that was no longer the record's";
        if (d.has(sim::Detail::unsafe_write)) what += ", accepted with a fencing number below one accepted before";
        if (d.has(sim::Detail::stale_after_successor)) what += ", accepted after a successor's accepted write";
        if (d.has(sim::Detail::holder_rejected)) what += ", rejected although its token was the record's";
        if (what.empty()) return "";
        return at + fmt::format("{} wrote with {}{}", e.node, token_text(e), what);
    }
    if (e.op == sim::EventOp::acquire) {
        if (d.has(sim::Detail::fencing_regressed))
            return at + fmt::format("{} acquired with {}, not above every number issued before", e.node, token_text(e));
        if (d.has(sim::Detail::fencing_duplicate))
            return at +
                   fmt::format("{} acquired with {}, a number issued before to another token", e.node, token_text(e));
    }
    return "";
}

std::string violations_text(const sim::Trace& trace) {
    std::string out;
    std::int64_t count = 0;
    for (const sim::Event& e : trace.events) {
        const std::string sentence = violation_sentence(e);
        if (sentence.empty()) continue;
        ++count;
        out += "  " + sentence + "\n";
    }
    if (count == 0) return "violations: none\n";
    return fmt::format(
               "violations: {} (overlap {}, unsafe_write {}, stale_after_successor {}, holder_rejected {}, "
               "fencing_regressed {}, fencing_duplicate {}; stale writes are listed too)\n",
               count, trace.summary.violations.overlap, trace.summary.violations.unsafe_write,
               trace.summary.violations.stale_after_successor, trace.summary.violations.holder_rejected,
               trace.summary.violations.fencing_regressed, trace.summary.violations.fencing_duplicate) +
           out;
}

std::string draft_text(const imp::ImportedHistory& history) {
    if (history.draft_json.empty()) return "";
    std::string out;
    if (history.evidence.empty())
        out += "draft: no faults inferred\n";
    else
        out += fmt::format("draft: {} fault{} inferred\n", history.evidence.size(),
                           history.evidence.size() == 1 ? "" : "s");
    for (const imp::Evidence& e : history.evidence) {
        const std::string length = e.ticks > 0 ? fmt::format(" for {} ticks", e.ticks) : "";
        out += fmt::format("  {} of {} at tick {}{}: {}\n", sim::to_string(e.fault), e.node, e.at, length, e.because);
    }
    if (history.differences.empty()) {
        out += "differences: none (the draft's run gives the same acquisitions, outcomes and writes)\n";
    } else {
        out += fmt::format("differences: {}\n", history.differences.size());
        for (const std::string& d : history.differences) out += "  " + d + "\n";
    }
    return out;
}

}  // namespace

std::string import_report(const imp::CaptureReport& capture, const imp::ImportedHistory& history,
                          const std::vector<std::string>& log_files, const std::vector<imp::LogEntry>& log_entries,
                          std::int64_t tick_ms_given) {
    const sim::Trace& trace = history.trace;
    std::string out = fmt::format("lock: {}", capture.lock_key);
    if (capture.lock_keys.size() > 1) out += fmt::format(" (its keys: {})", fmt::join(capture.lock_keys, ", "));
    out += "\n" + sources_text(capture, log_files, log_entries);
    out += fmt::format("time: {} to {} UTC\n", sim::wall_time_text(capture.first_us),
                       sim::wall_time_text(capture.last_us));
    out += fmt::format("nodes: {}\n", fmt::join(trace.header.candidates, ", "));
    out += tick_text(trace, tick_ms_given);
    out += outcomes_text(trace);
    for (const std::string& note : history.notes) out += "note: " + note + "\n";
    out += violations_text(trace);
    out += draft_text(history);
    return out;
}

}  // namespace leasescope::cli

// The draft scenario of an imported history (docs/model.md §19.8): each node
// as a candidate (lease, wait, auto_extend, start/every, action, writes, from
// what the trace shows of it), the faults the history shows with their
// evidence, written as a scenario file and checked by parsing it back. The
// comparison of its simulated run with the trace is in history_compare.cpp.
#include <algorithm>
#include <map>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "fit.hpp"
#include "history_internal.hpp"
#include "leasescope/sim/limits.hpp"
#include "leasescope/sim/simulation.hpp"

namespace leasescope::sim::import::history_detail {
namespace {

using ordered_json = nlohmann::ordered_json;

// The client's retry cadence (rule 19.8.1): a run's span of attempts is
// rounded up to a whole 50 ms.
constexpr std::int64_t draft_cadence_ms = 50;
constexpr std::size_t draft_summary_bytes_max = 3800;  // below text_length_max (4 000)

struct RunFacts {
    Tick start = 0;
    std::vector<Tick> attempts;
    std::optional<Tick> acquired_at;
    std::optional<Tick> released_at;
    std::vector<Tick> extends;
    std::vector<Tick> writes;
};

struct NodeFacts {
    std::map<std::int32_t, RunFacts> runs;
    std::map<Tick, std::int64_t> leases;  // lease in ticks -> acquisitions with it
    bool rejected_write = false;
};

// Most common value; ties go to the smaller.
template <typename Map>
std::optional<Tick> most_common(const Map& counts) {
    std::optional<Tick> best;
    std::int64_t best_count = 0;
    for (const auto& [value, count] : counts) {
        if (count > best_count) {
            best = value;
            best_count = count;
        }
    }
    return best;
}

std::map<std::string, NodeFacts> gather_facts(const Trace& trace) {
    std::map<std::string, NodeFacts> facts;
    for (const Event& e : trace.events) {
        if (e.node.empty() || e.run < 0) continue;
        NodeFacts& f = facts[e.node];
        RunFacts& r = f.runs[e.run];
        switch (e.op) {
            case EventOp::start: r.start = e.tick; break;
            case EventOp::acquire:
                r.attempts.push_back(e.tick);
                if (e.outcome == Outcome::acquired && !r.acquired_at) {
                    r.acquired_at = e.tick;
                    if (e.ttl && *e.ttl > 0) ++f.leases[*e.ttl];
                }
                break;
            case EventOp::extend: r.extends.push_back(e.tick); break;
            case EventOp::release:
                if (!r.released_at) r.released_at = e.tick;
                break;
            case EventOp::write:
                r.writes.push_back(e.tick);
                f.rejected_write = f.rejected_write || e.outcome == Outcome::rejected;
                break;
            default: break;
        }
    }
    return facts;
}

Tick draft_wait(const NodeFacts& f, std::int64_t tick_ms) {
    Tick span = 0;
    for (const auto& [run, r] : f.runs)
        if (!r.attempts.empty()) span = std::max(span, r.attempts.back() - r.attempts.front());
    const std::int64_t ms = (span * tick_ms + draft_cadence_ms - 1) / draft_cadence_ms * draft_cadence_ms;
    return ticks_of_ms(ms, tick_ms);
}

std::optional<Tick> draft_extend_every(const NodeFacts& f) {
    std::map<Tick, std::int64_t> gaps;
    for (const auto& [run, r] : f.runs) {
        if (!r.acquired_at) continue;
        Tick last = *r.acquired_at;
        for (const Tick t : r.extends) {
            if (t > last) ++gaps[t - last];
            last = t;
        }
    }
    return most_common(gaps);
}

Tick draft_action(const std::string& node, const NodeFacts& f, Tick end_tick, std::vector<std::string>& notes) {
    std::map<Tick, std::int64_t> actions;
    for (const auto& [run, r] : f.runs)
        if (r.acquired_at && r.released_at && *r.released_at > *r.acquired_at)
            ++actions[*r.released_at - *r.acquired_at];
    if (auto a = most_common(actions)) return *a;
    for (const auto& [run, r] : f.runs) {
        if (!r.acquired_at) continue;
        notes.push_back(
            fmt::format("{} never released: its action in the draft lasts to the end of the history", node));
        return std::max<Tick>(1, end_tick - *r.acquired_at + 1);
    }
    return 1;
}

// Writes of the first run that acquired and wrote, as offsets from its
// acquisition in 1 … action (the model's `writes`).
std::optional<ordered_json> draft_writes(const std::string& node, const NodeFacts& f, Tick action,
                                         std::vector<std::string>& notes) {
    for (const auto& [run, r] : f.runs) {
        if (!r.acquired_at || r.writes.empty()) continue;
        ordered_json offsets = ordered_json::array();
        Tick last = 0;
        std::int64_t dropped = 0;
        for (const Tick t : r.writes) {
            const Tick offset = t - *r.acquired_at;
            if (offset > last && offset <= action) {
                offsets.push_back(offset);
                last = offset;
            } else {
                ++dropped;
            }
        }
        if (dropped > 0)
            notes.push_back(
                fmt::format("{}: {} of its writes in run {} cannot be placed in its action (the model "
                            "writes at most once a tick, after acquiring, within the action)",
                            node, dropped, run));
        if (!offsets.empty()) return offsets;
    }
    return std::nullopt;
}

void draft_runs(ordered_json& c, const std::string& node, const NodeFacts& f, std::vector<std::string>& notes) {
    std::vector<Tick> starts;
    for (const auto& [run, r] : f.runs) starts.push_back(r.start);
    c["start"] = starts.front();
    if (starts.size() < 2) return;
    std::map<Tick, std::int64_t> gaps;
    for (std::size_t i = 1; i < starts.size(); ++i) ++gaps[std::max<Tick>(1, starts[i] - starts[i - 1])];
    const Tick every = *most_common(gaps);
    c["runs"] = static_cast<std::int64_t>(starts.size());
    c["every"] = every;
    if (gaps.size() > 1) {
        std::string list;
        for (const Tick s : starts) list += fmt::format("{}{}", list.empty() ? "" : ", ", s);
        notes.push_back(
            fmt::format("{}'s runs start at irregular ticks ({}): the model starts runs at a fixed period, so "
                        "the draft starts them every {} ticks, the most common gap",
                        node, list, every));
    }
}

ordered_json draft_candidate(const std::string& node, const NodeFacts& f, Tick default_lease, Tick end_tick,
                             std::int64_t tick_ms, std::vector<std::string>& notes) {
    ordered_json c;
    c["name"] = node;
    draft_runs(c, node, f, notes);
    c["wait"] = draft_wait(f, tick_ms);
    const Tick lease = most_common(f.leases).value_or(default_lease);
    c["lease"] = lease;
    bool extends = false;
    for (const auto& [run, r] : f.runs) extends = extends || !r.extends.empty();
    c["auto_extend"] = extends;
    const auto every = draft_extend_every(f);
    if (extends && every && *every < lease) c["extend_every"] = *every;
    const Tick action = draft_action(node, f, end_tick, notes);
    c["action"] = action;
    // No write seen: none in the draft either (the model's default is one at
    // the end of the action, which the history does not show).
    c["writes"] = draft_writes(node, f, action, notes).value_or(ordered_json::array());
    return c;
}

// A name the scenario format accepts (A–Z a–z 0–9 - _ . :), from any bytes.
std::string draft_identifier(std::string_view text, std::string_view fallback) {
    std::string out;
    for (const char ch : text.substr(0, 200)) {
        const bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '-' ||
                        ch == '_' || ch == '.' || ch == ':';
        out += ok ? ch : '_';
    }
    return out.empty() ? std::string(fallback) : out;
}

std::string draft_name(const CaptureReport& report) {
    std::string file = report.sources.empty() ? std::string("capture") : report.sources.front().file;
    const auto slash = file.find_last_of('/');
    if (slash != std::string::npos) file = file.substr(slash + 1);
    const auto dot = file.find_last_of('.');
    if (dot != std::string::npos && dot > 0) file = file.substr(0, dot);
    return draft_identifier("import-" + file, "import");
}

std::string draft_summary(const std::vector<Evidence>& evidence) {
    std::string text = "A draft made by leasescope-cli import from a real history. ";
    if (evidence.empty()) return text + "The history shows no pause, crash or clock step.";
    text += "Faults it infers:";
    std::size_t shown = 0;
    for (const auto& e : evidence) {
        const std::string item = fmt::format(" {} of {} at tick {}: {}", to_string(e.fault), e.node, e.at, e.because);
        if (text.size() + item.size() > draft_summary_bytes_max) break;
        text += item;
        ++shown;
    }
    if (shown < evidence.size())
        text += fmt::format(" … and {} more (see the import's output).", evidence.size() - shown);
    return text;
}

ordered_json fault_json(const InferredFault& inferred) {
    const Evidence& e = inferred.evidence;
    ordered_json f;
    f["kind"] = to_string(e.fault);
    if (e.fault == EventOp::clock_jump) {
        f["clock"] = "store";
        f["at"] = e.at;
        f["ms"] = inferred.ms;
        return f;
    }
    f["node"] = e.node;
    f["at"] = e.at;
    if (e.fault == EventOp::pause) f["ticks"] = std::max<Tick>(1, e.ticks);
    return f;
}

// A paused node's action does not advance (§7): a write or release `t` ticks
// into a run that the draft pauses happens at the node's own tick, less the
// paused ticks between its acquisition and `t` (rule 19.8.1–2).
void discount_pauses(std::map<std::string, NodeFacts>& facts, const std::vector<InferredFault>& inferred) {
    for (const auto& f : inferred) {
        if (f.evidence.fault != EventOp::pause) continue;
        const auto it = facts.find(f.evidence.node);
        if (it == facts.end()) continue;
        const Tick from = f.evidence.at, to = f.evidence.at + f.evidence.ticks;
        auto own = [&](Tick acquired, Tick t) {
            return t - std::max<Tick>(0, std::min(t, to) - std::max(acquired, from));
        };
        for (auto& [run, r] : it->second.runs) {
            if (!r.acquired_at) continue;
            if (r.released_at) r.released_at = own(*r.acquired_at, *r.released_at);
            for (Tick& w : r.writes) w = own(*r.acquired_at, w);
        }
    }
}

}  // namespace

Draft make_draft(const Trace& imported, const std::vector<Observation>& observations, const std::vector<LogEntry>& logs,
                 const std::vector<std::string>& log_files, const CaptureReport& report, std::int64_t events_max) {
    Draft draft;
    const std::vector<InferredFault> inferred = infer_faults(imported, observations, logs, log_files);
    auto facts = gather_facts(imported);
    discount_pauses(facts, inferred);
    const std::int64_t tick_ms = imported.header.tick_ms;
    std::map<Tick, std::int64_t> all_leases;
    for (const auto& [node, f] : facts)
        for (const auto& [lease, count] : f.leases) all_leases[lease] += count;
    const Tick default_lease = most_common(all_leases).value_or(1);
    ordered_json candidates = ordered_json::array();
    bool rejected = false;
    for (const auto& node : imported.header.candidates) {
        const bool logged = std::any_of(logs.begin(), logs.end(), [&](const LogEntry& l) { return l.node == node; });
        if (!logged)
            draft.notes.push_back(
                fmt::format("{} has no log: the capture cannot show its writes, so the draft gives it none", node));
        const auto it = facts.find(node);
        if (it == facts.end() || it->second.runs.empty()) {
            draft.notes.push_back(fmt::format("{} never tried to acquire: it is not a candidate of the draft", node));
            continue;
        }
        candidates.push_back(
            draft_candidate(node, it->second, default_lease, imported.summary.end_tick, tick_ms, draft.notes));
        rejected = rejected || it->second.rejected_write;
    }
    if (candidates.empty()) {
        draft.notes.push_back("no node tried to acquire the lock: there is no draft scenario");
        return draft;
    }
    for (const auto& f : inferred) draft.evidence.push_back(f.evidence);
    ordered_json s;
    s["name"] = draft_name(report);
    // The key as the trace's header names it (rule 19.5.4): well-formed UTF-8
    // of bounded length, where a raw byte or a cut inside a character would
    // make text that JSON cannot hold.
    s["title"] = ordered_json{{"en", "Draft of the imported history of " + internal::fit_name(report.lock_key)}};
    s["summary"] = ordered_json{{"en", draft_summary(draft.evidence)}};
    s["tick_ms"] = tick_ms;
    s["horizon"] = imported.summary.end_tick;
    s["seed"] = 0;
    Fencing first = 1;
    for (const Event& e : imported.events)
        if (e.op == EventOp::acquire && e.outcome == Outcome::acquired && e.fencing) {
            first = std::clamp<Fencing>(*e.fencing, 1, limits::fencing_start_max);
            break;
        }
    s["lock"] =
        ordered_json{{"name", draft_identifier(report.lock_key, "lock")}, {"capacity", 1}, {"fencing_start", first}};
    // A resource that rejected a write compared fencing numbers.
    s["resource"] = ordered_json{{"mode", rejected ? "check" : "off"}};
    s["candidates"] = candidates;
    ordered_json faults = ordered_json::array();
    for (const auto& f : inferred) faults.push_back(fault_json(f));
    if (!faults.empty()) s["faults"] = faults;
    draft.json = s.dump(2) + "\n";
    compare_draft(imported, draft, events_max);
    return draft;
}

}  // namespace leasescope::sim::import::history_detail

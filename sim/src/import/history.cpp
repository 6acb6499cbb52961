// Building an imported history (docs/model.md §19.5–§19.8): the time base
// (19.7.2), the logs checked against the capture's span (19.6.2), the
// counter anchored by a log's fencing (19.4.3), the sweep in the order of
// 19.7.3 (history_sweep.cpp), the header and summary of the trace /4, then the
// draft (history_draft.cpp).
#include <algorithm>
#include <array>
#include <cstdlib>
#include <tuple>
#include <utility>

#include <fmt/format.h>

#include "fit.hpp"
#include "history_internal.hpp"
#include "leasescope/sim/limits.hpp"

namespace leasescope::sim::import {
namespace {

using history_detail::Item;
using history_detail::Timebase;

// The steps rule 19.7.2 tries, finest first.
constexpr std::array<std::int64_t, 14> history_tick_steps = {1,   2,   5,    10,   20,   50,    100,
                                                             200, 500, 1000, 2000, 5000, 10000, 60000};
constexpr std::int64_t log_distance_max_us = 10LL * 60 * 1'000'000;

std::int64_t floor_to(std::int64_t v, std::int64_t unit) {
    const std::int64_t q = v >= 0 ? v / unit : -((-v + unit - 1) / unit);
    return q * unit;
}

struct Span {
    std::int64_t first_us = 0;
    std::int64_t last_us = 0;
};

Span history_span(const std::vector<Observation>& observations, const std::vector<LogEntry>& logs) {
    Span s{observations.front().wall_us, observations.front().wall_us};
    for (const auto& o : observations) {
        s.first_us = std::min(s.first_us, o.wall_us);
        s.last_us = std::max(s.last_us, o.wall_us);
    }
    for (const auto& l : logs) {
        s.first_us = std::min(s.first_us, l.wall_us);
        s.last_us = std::max(s.last_us, l.wall_us);
    }
    return s;
}

std::string hours_minutes(std::int64_t us) {
    const std::int64_t minutes = us / 60'000'000;
    return fmt::format("{} h {} min", minutes / 60, minutes % 60);
}

// Rule 19.6.2: a log whose times lie wholly outside the capture's span by
// more than 10 minutes was written in another zone (or another day).
bool check_log_spans(const std::vector<LogEntry>& logs, const std::vector<std::string>& files, const Span& capture,
                     std::string& error) {
    std::map<std::int32_t, Span> spans;
    for (const auto& l : logs) {
        auto [it, fresh] = spans.try_emplace(l.source, Span{l.wall_us, l.wall_us});
        it->second.first_us = std::min(it->second.first_us, l.wall_us);
        it->second.last_us = std::max(it->second.last_us, l.wall_us);
    }
    for (const auto& [source, span] : spans) {
        const std::string file = source >= 0 && static_cast<std::size_t>(source) < files.size()
                                     ? files[static_cast<std::size_t>(source)]
                                     : "log";
        std::int64_t shift_us = 0;
        if (span.first_us > capture.last_us + log_distance_max_us) shift_us = capture.last_us - span.first_us;
        if (span.last_us < capture.first_us - log_distance_max_us) shift_us = capture.first_us - span.last_us;
        if (shift_us == 0) continue;
        error = fmt::format(
            "{}: its times lie {} {} the capture's (more than 10 minutes): was it written in another zone without its "
            "offset? Move it with --log-shift {} (milliseconds) before --log {}",
            file, hours_minutes(std::llabs(shift_us)), shift_us < 0 ? "after" : "before", shift_us / 1000, file);
        return false;
    }
    return true;
}

// Rule 19.7.2: the given tick_ms, or the finest step that keeps the history
// within import_ticks_max ticks.
std::optional<Timebase> choose_timebase(const Span& span, std::int64_t first_lock_us, const ImportOptions& options,
                                        std::vector<std::string>& notes, std::string& error) {
    const std::int64_t first_us = std::min(span.first_us, first_lock_us);
    auto fits = [&](std::int64_t tick_ms) {
        Timebase t{floor_to(first_us, tick_ms * 1000), tick_ms};
        return std::optional<Timebase>(t.tick_of(span.last_us) <= limits::import_ticks_max ? std::optional(t)
                                                                                           : std::nullopt);
    };
    if (options.tick_ms != 0) {
        if (options.tick_ms < 1 || options.tick_ms > limits::tick_ms_max) {
            error = fmt::format("--tick-ms {}: expected 1 … {}", options.tick_ms, limits::tick_ms_max);
            return std::nullopt;
        }
        if (auto t = fits(options.tick_ms)) return t;
        error = fmt::format(
            "the history spans {} at --tick-ms {}: more than {} ticks (import_ticks_max); give a "
            "coarser --tick-ms or leave it out",
            hours_minutes(span.last_us - first_us), options.tick_ms, limits::import_ticks_max);
        return std::nullopt;
    }
    for (const std::int64_t step : history_tick_steps) {
        if (auto t = fits(step)) {
            notes.push_back(fmt::format("tick_ms {}: the finest step that keeps the history within {} ticks", step,
                                        limits::import_ticks_max));
            return t;
        }
    }
    error = fmt::format("the history spans {}: more than {} ticks even at 60000 ms a tick",
                        hours_minutes(span.last_us - first_us), limits::import_ticks_max);
    return std::nullopt;
}

const Observation* matching_acquire(const std::vector<Observation>& observations, const LogEntry& l,
                                    std::int64_t tick_us) {
    const Observation* nearest = nullptr;
    for (const auto& o : observations) {
        if (o.op != ObservedOp::acquire || o.outcome != Outcome::acquired || o.node != l.node || !o.fencing) continue;
        if (l.token && o.token == *l.token) return &o;
        const std::int64_t d = std::llabs(o.wall_us - l.wall_us);
        if (!l.token && d <= tick_us && (nearest == nullptr || d < std::llabs(nearest->wall_us - l.wall_us)))
            nearest = &o;
    }
    return nearest;
}

// Rule 19.4.3: the counter before the capture from the first log line that
// states the fencing of an acquisition it can match (rule 19.5.3); every
// fencing of the observations moves by the difference.
std::vector<Observation> anchor_fencing(std::vector<Observation> observations, const std::vector<LogEntry>& by_time,
                                        const std::vector<std::string>& files, const Timebase& time,
                                        std::vector<std::string>& notes) {
    for (const auto& l : by_time) {
        if (l.event != LogEvent::acquired || !l.fencing) continue;
        const Observation* o = matching_acquire(observations, l, time.tick_ms * 1000);
        if (o == nullptr) continue;
        const Fencing shift = *l.fencing - *o->fencing;
        const auto file =
            static_cast<std::size_t>(l.source) < files.size() ? files[static_cast<std::size_t>(l.source)] : "log";
        notes.erase(std::remove_if(notes.begin(), notes.end(),
                                   [](const std::string& n) { return n.rfind("fencing assumes", 0) == 0; }),
                    notes.end());
        notes.push_back(fmt::format("fencing: the counter moved by {} from {}:{} ({}'s acquisition has fencing {})",
                                    shift, file, l.line, l.node, *l.fencing));
        if (shift == 0) return observations;
        for (auto& each : observations)
            if (each.fencing) each.fencing = *each.fencing + shift;
        return observations;
    }
    return observations;
}

// Node names in order of first appearance: the capture's, then the logs'.
std::vector<std::string> candidates_of(const std::vector<Observation>& observations,
                                       const std::vector<LogEntry>& by_time) {
    std::vector<std::string> names;
    auto add = [&](const std::string& n) {
        if (!n.empty() && std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
    };
    for (const auto& o : observations)
        if (o.op != ObservedOp::clock_step) add(o.node);
    for (const auto& l : by_time) add(l.node);
    return names;
}

std::vector<Item> items_of(const std::vector<Observation>& observations, const std::vector<LogEntry>& logs) {
    std::vector<Item> items;
    items.reserve(observations.size() + logs.size());
    for (const auto& o : observations)
        items.push_back(Item{o.wall_us, o.wall_us, o.line, static_cast<std::int64_t>(items.size()), &o, nullptr});
    for (const auto& l : logs)
        items.push_back(Item{l.wall_us, l.wall_us, l.line, static_cast<std::int64_t>(items.size()), nullptr, &l});
    // An expiry at its deadline comes after the lines of that very moment:
    // a command at the deadline still finds the key (rule 19.4.2, now > when).
    auto expiry = [](const Item& i) { return i.obs != nullptr && i.obs->op == ObservedOp::expire; };
    std::stable_sort(items.begin(), items.end(), [&](const Item& a, const Item& b) {
        return std::make_tuple(a.wall_us, expiry(a), a.line, a.index) <
               std::make_tuple(b.wall_us, expiry(b), b.line, b.index);
    });
    // After a kept clock step (rule 19.1.4) the placed time orders an event
    // and gives its tick, which never go back; its wall_us is on the server's
    // own clock, the placed time less the steps so far (to the millisecond an
    // observation gives a step in), a log line's as the lines around it.
    std::int64_t stepped_us = 0;
    for (Item& item : items) {
        item.written_us = item.wall_us + stepped_us;
        if (item.obs != nullptr && item.obs->op == ObservedOp::clock_step) stepped_us += item.obs->step_ms * 1000;
    }
    return items;
}

// Rule 19.5.4: a log's names, tokens and fencing numbers fit a trace.
std::vector<LogEntry> fit_logs(const std::vector<LogEntry>& logs, std::vector<std::string>& notes) {
    std::vector<LogEntry> out = logs;
    bool unfit = false;
    for (LogEntry& l : out) {
        l.node = internal::fit_name(l.node);
        if (l.token) l.token = internal::fit_token(*l.token);
        internal::fit_fencing(l.fencing, "a log's", unfit, notes);
    }
    return out;
}

ImportInfo import_info(const CaptureReport& report, const std::vector<LogEntry>& logs,
                       const std::vector<std::string>& log_files, std::int64_t origin_us) {
    ImportInfo info;
    info.origin_us = origin_us;
    info.lock_key = internal::fit_name(report.lock_key);
    for (const auto& s : report.sources) info.sources.push_back(ImportInfo::Source{s.file, "capture", s.lines, s.used});
    for (std::size_t f = 0; f < log_files.size(); ++f) {
        ImportInfo::Source s{log_files[f], "log", 0, 0};
        for (const auto& l : logs) {
            if (l.source != static_cast<std::int32_t>(f)) continue;
            s.lines = std::max(s.lines, l.line);
            ++s.used;
        }
        info.sources.push_back(std::move(s));
    }
    info.ignored = 0;
    for (const auto& [command, count] : report.ignored) info.ignored += count;
    return info;
}

Trace assemble_trace(std::vector<Event> events, history_detail::Sweep& sweep, const CaptureReport& report,
                     const std::vector<std::string>& candidates, const ImportInfo& info, std::int64_t tick_ms) {
    Trace trace;
    trace.header.format = 4;
    trace.header.scenario = report.sources.empty() ? std::string("import") : report.sources.front().file;
    trace.header.seed = 0;
    trace.header.tick_ms = tick_ms;
    trace.header.lock = internal::fit_name(report.lock_key);
    trace.header.capacity = 1;
    trace.header.candidates = candidates;
    trace.header.import = info;
    TraceHasher hasher;
    std::int64_t seq = 0;
    for (auto& e : events) {
        e.seq = seq++;
        hasher.add_line(event_line(e));
        trace.summary.end_tick = std::max(trace.summary.end_tick, e.tick);
    }
    trace.events = std::move(events);
    trace.summary.results = sweep.results();
    trace.summary.violations = sweep.violations();
    trace.summary.events = seq;
    trace.summary.trace_sha256 = hasher.hex();
    return trace;
}

}  // namespace

std::optional<ImportedHistory> build_history(const std::vector<Observation>& observations, const CaptureReport& report,
                                             const std::vector<LogEntry>& logs,
                                             const std::vector<std::string>& given_log_files,
                                             const ImportOptions& options, std::string& error) {
    error.clear();
    // The logs' file names as text, as the captures' are (rule 19.5.4).
    std::vector<std::string> log_files;
    for (const auto& f : given_log_files) log_files.push_back(internal::fit_name(f));
    if (observations.empty()) {
        error = "the capture shows nothing of the lock: no observation to build a history from";
        return std::nullopt;
    }
    ImportedHistory out;
    out.notes = report.notes;
    const Span capture = history_span(observations, {});
    if (!check_log_spans(logs, log_files, capture, error)) return std::nullopt;
    const auto time =
        choose_timebase(history_span(observations, logs), report.first_us != 0 ? report.first_us : capture.first_us,
                        options, out.notes, error);
    if (!time) return std::nullopt;
    std::vector<LogEntry> by_time = fit_logs(logs, out.notes);
    std::stable_sort(by_time.begin(), by_time.end(),
                     [](const LogEntry& a, const LogEntry& b) { return a.wall_us < b.wall_us; });
    const std::vector<Observation> anchored = anchor_fencing(observations, by_time, log_files, *time, out.notes);
    const std::vector<std::string> candidates = candidates_of(anchored, by_time);
    history_detail::Sweep sweep(*time, candidates, by_time);
    const std::vector<Item> items = items_of(anchored, by_time);
    sweep.expect_acquisitions(items);
    for (const Item& item : items) sweep.add(item);
    out.trace = assemble_trace(sweep.take_events(), sweep, report, candidates,
                               import_info(report, logs, log_files, time->origin_us), time->tick_ms);
    history_detail::Draft draft =
        history_detail::make_draft(out.trace, anchored, by_time, log_files, report, options.draft_events_max);
    out.draft_json = std::move(draft.json);
    out.evidence = std::move(draft.evidence);
    out.differences = std::move(draft.differences);
    for (auto& n : draft.notes) out.notes.push_back(std::move(n));
    return out;
}

}  // namespace leasescope::sim::import

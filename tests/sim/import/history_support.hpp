#pragma once
// Hand-made observations, log lines and reports for the history tests
// (docs/model.md §19.5–§19.8): plain structs, as the CaptureReader makes them.
#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "leasescope/sim/import.hpp"

namespace history_test {

using namespace leasescope;
using namespace leasescope::sim;
using namespace leasescope::sim::import;

// 2026-12-04T09:15:02Z in microseconds: every test's first lock line.
inline constexpr std::int64_t t0_us = 1'796'375'702'000'000;
inline std::int64_t at_ms(std::int64_t ms) { return t0_us + ms * 1000; }

inline Observation obs(std::int64_t ms, ObservedOp op, std::string node, std::string token, Outcome outcome,
                       std::int64_t line = 0) {
    Observation o;
    o.wall_us = at_ms(ms);
    o.line = line == 0 ? ms + 1 : line;
    o.op = op;
    o.node = std::move(node);
    o.token = std::move(token);
    o.outcome = outcome;
    o.library = "plain";
    return o;
}
inline Observation acquired(std::int64_t ms, std::string node, std::string token, Fencing fencing,
                            std::int64_t lease_ms = 1000) {
    Observation o = obs(ms, ObservedOp::acquire, std::move(node), std::move(token), Outcome::acquired);
    o.fencing = fencing;
    o.ttl_ms = lease_ms;
    return o;
}
inline Observation busy(std::int64_t ms, std::string node, std::string token, std::int64_t left_ms = 500) {
    Observation o = obs(ms, ObservedOp::acquire, std::move(node), std::move(token), Outcome::busy);
    o.ttl_ms = left_ms;
    return o;
}
inline Observation expired(std::int64_t ms, std::string node, std::string token) {
    Observation o = obs(ms, ObservedOp::expire, std::move(node), std::move(token), Outcome::expired);
    o.line = 0;
    return o;
}

inline LogEntry log(std::int64_t ms, std::string node, LogEvent event, std::optional<std::string> token = std::nullopt,
                    std::optional<Fencing> fencing = std::nullopt, std::int64_t line = 0) {
    LogEntry l;
    l.wall_us = at_ms(ms);
    l.node = std::move(node);
    l.event = event;
    l.token = std::move(token);
    l.fencing = fencing;
    l.line = line == 0 ? ms + 1 : line;
    return l;
}

inline CaptureReport report_of(const std::vector<Observation>& observations) {
    CaptureReport r;
    r.lock_key = "lock:orders";
    r.lock_keys = {"lock:orders"};
    r.sources.push_back({"cap.txt", 100, static_cast<std::int64_t>(observations.size())});
    r.ignored["GET"] = 7;
    r.first_us = observations.empty() ? 0 : observations.front().wall_us;
    r.last_us = observations.empty() ? 0 : observations.back().wall_us;
    return r;
}

struct Built {
    std::optional<ImportedHistory> history;
    std::string error;
};
inline Built build(const std::vector<Observation>& observations, const std::vector<LogEntry>& logs = {},
                   std::int64_t tick_ms = 10) {
    ImportOptions options;
    options.tick_ms = tick_ms;
    Built b;
    std::vector<std::string> files;
    if (!logs.empty()) files.push_back("app.jsonl");
    b.history = build_history(observations, report_of(observations), logs, files, options, b.error);
    return b;
}

inline std::vector<const Event*> of_op(const Trace& t, EventOp op) {
    std::vector<const Event*> out;
    for (const auto& e : t.events)
        if (e.op == op) out.push_back(&e);
    return out;
}

}  // namespace history_test

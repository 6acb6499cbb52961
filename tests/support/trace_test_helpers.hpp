#pragma once
// What the simulation's tests of one rule share: a scenario from inline JSON
// (a parse error fails the test), a node's events of one op, a node's run
// result, a trace's canonical bytes, and a run with its stores attached.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "leasescope/engine/model_store.hpp"
#include "leasescope/sim/scenario.hpp"
#include "leasescope/sim/simulation.hpp"
#include "leasescope/sim/trace.hpp"

namespace trace_test {

namespace sim = leasescope::sim;

inline sim::Scenario parse(const std::string& text) {
    auto s = sim::parse_scenario(text, "inline.json");
    EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().to_string());
    return s.ok() ? s.value() : sim::Scenario{};
}

inline std::vector<sim::Event> find(const sim::Trace& t, const std::string& node, sim::EventOp op) {
    std::vector<sim::Event> out;
    for (const sim::Event& e : t.events)
        if (e.node == node && e.op == op) out.push_back(e);
    return out;
}

inline std::string result_of(const sim::Trace& t, const std::string& node) {
    for (const sim::RunSummary& r : t.summary.results)
        if (r.node == node) return r.result;
    return "";
}

inline std::string trace_bytes(const sim::Trace& t) {
    std::string out = sim::header_line(t.header) + "\n";
    for (const sim::Event& e : t.events) out += sim::event_line(e) + "\n";
    return out + sim::summary_line(t.summary) + "\n";
}

// The trace of `s` run to its end after `attach(simulation)` (live mode's
// path: a client run's stores answering through their interface from
// outside, model.md rules 20.9.3 and 21.9.4).
template <class Attach>
sim::Trace run_attached(const sim::Scenario& s, Attach attach) {
    struct Collect final : sim::EventSink {
        void on_event(const sim::Event& e) override { events.push_back(e); }
        std::vector<sim::Event> events;
    } sink;
    sim::Simulation run(s);
    attach(run);
    leasescope::ModelStore unused{leasescope::LockConfig{}};
    auto summary = sim::run_to_end(run, unused, sink);
    EXPECT_TRUE(summary.ok());
    return sim::Trace{run.header(), sink.events, summary.ok() ? summary.value() : sim::TraceSummary{}};
}

}  // namespace trace_test

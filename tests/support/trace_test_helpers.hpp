#pragma once
// What the simulation's tests of one rule share: a scenario from inline JSON
// (a parse error fails the test), a node's events of one op, a node's run
// result, and a trace's canonical bytes.
#include <gtest/gtest.h>

#include <string>
#include <vector>

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

}  // namespace trace_test

// Built with `c++ $(pkg-config --cflags --libs leasescope)`: the pkg-config
// file is enough to simulate a scenario. Prints the trace's hash.
#include <cstdio>

#include "leasescope/sim/scenario.hpp"
#include "leasescope/sim/simulation.hpp"

int main() {
    auto s = leasescope::sim::parse_scenario(
        R"({"name": "pc", "defaults": {"wait": 1, "lease": 5, "action": 3}, "candidates": [{"name": "a"}, {"name": "b"}]})",
        "inline");
    if (!s.ok()) return 2;
    const auto trace = leasescope::sim::simulate(s.value());
    std::printf("%lld events, sha256 %s\n", static_cast<long long>(trace.summary.events),
                trace.summary.trace_sha256.c_str());
    return trace.summary.events > 0 ? 0 : 1;
}

#pragma once
// Generated scenarios, parsed once per process and shared by the benchmarks.
#include <cstdlib>
#include <map>
#include <memory>
#include <utility>

#include "leasescope/sim/generator.hpp"
#include "leasescope/sim/scenario.hpp"
#include "leasescope/sim/simulation.hpp"

namespace leasescope::bench {

// The horizon of the simulation benchmarks: 1,000,000 ticks unless
// LEASESCOPE_BENCH_HORIZON says otherwise (a quick run in CI).
inline Tick bench_horizon() {
    if (const char* v = std::getenv("LEASESCOPE_BENCH_HORIZON")) {
        const long long h = std::atoll(v);
        if (h >= sim::generator_horizon_min) return h;
    }
    return 1'000'000;
}

// Parsing 100,000 candidates is itself measured (bench_scenario.cpp); the
// simulation benchmarks parse each size once.
inline const sim::Scenario& generated(std::int64_t candidates, Tick horizon) {
    static std::map<std::pair<std::int64_t, Tick>, std::unique_ptr<sim::Scenario>> cache;
    auto& slot = cache[{candidates, horizon}];
    if (!slot) {
        auto parsed = sim::parse_scenario(sim::generate_scenario({candidates, horizon, 1, false, true}), "<generated>");
        LS_ASSERT(parsed.ok());
        slot = std::make_unique<sim::Scenario>(std::move(parsed).value());
    }
    return *slot;
}

}  // namespace leasescope::bench

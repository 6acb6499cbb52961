// The clocks that are not true time and their offsets (clock_lanes.hpp).
#include "clock_lanes.hpp"

#include <algorithm>

#include "leasescope/engine/clock.hpp"

namespace leasescope::gui {
namespace {

std::int64_t jumps_until(const ClockTrack& c, Tick t, bool inclusive) {
    std::int64_t sum = 0;
    for (const auto& [at, ms] : c.jumps)
        if (at < t || (inclusive && at == t)) sum += 2 * ms;
    return sum;
}

std::int64_t drift_offset(const ClockTrack& c, Tick t) {
    const DriftClock clock{c.tick_ms, c.drift_ppm};
    return clock.reading_at_tick(t) - clock_moment_half_ms(t, c.tick_ms);
}

// The extremes of the offset over ticks 0 … end: drift is monotonic between
// jumps, so they are at the ends and on each side of every jump.
void fill_range(ClockTrack& c, Tick end) {
    std::vector<std::int64_t> values{clock_offset_half_ms(c, 0), clock_offset_half_ms(c, end)};
    for (const auto& jump : c.jumps) {
        const Tick at = std::clamp<Tick>(jump.first, 0, end);
        values.push_back(clock_offset_before_jumps_half_ms(c, at));
        values.push_back(clock_offset_half_ms(c, at));
    }
    c.min_half_ms = *std::min_element(values.begin(), values.end());
    c.max_half_ms = *std::max_element(values.begin(), values.end());
}

}  // namespace

std::int64_t clock_offset_half_ms(const ClockTrack& c, Tick t) { return drift_offset(c, t) + jumps_until(c, t, true); }

std::int64_t clock_offset_before_jumps_half_ms(const ClockTrack& c, Tick t) {
    return drift_offset(c, t) + jumps_until(c, t, false);
}

std::vector<ClockTrack> clock_tracks(const sim::Scenario& scenario, Tick end_tick) {
    std::vector<ClockTrack> out;
    std::int32_t store = -1;  // the Redlock store whose clock is added (-1: none)
    const auto add = [&](const std::string& node, std::int32_t drift_ppm, NodeIndex index) {
        ClockTrack c;
        c.node = node;
        c.tick_ms = scenario.tick_ms;
        c.drift_ppm = drift_ppm;
        for (const sim::Fault& f : scenario.faults)
            if (f.kind == sim::FaultKind::clock_jump && f.node == index && f.store == store)
                c.jumps.emplace_back(f.at, f.ms);
        if (c.drift_ppm == 0 && c.jumps.empty()) return;
        fill_range(c, std::max<Tick>(0, end_tick));
        out.push_back(std::move(c));
    };
    // A Redlock run (model.md §20.2) has a clock per store, named by the store; any other, the one store's.
    if (scenario.is_redlock()) {
        for (std::size_t s = 0; s < scenario.stores.size(); ++s) {
            store = static_cast<std::int32_t>(s);
            add(scenario.stores[s], 0, -1);
        }
        store = -1;
    } else {
        add("store", scenario.lock.clock.drift_ppm, -1);
    }
    for (std::size_t i = 0; i < scenario.candidates.size(); ++i)
        add(scenario.candidates[i].name, scenario.candidates[i].options.drift_ppm, static_cast<NodeIndex>(i));
    return out;
}

std::string clock_offset_text(std::int64_t half_ms) {
    const std::int64_t a = half_ms < 0 ? -half_ms : half_ms;
    return std::to_string(a / 2) + (a % 2 != 0 ? ".5" : "");
}

}  // namespace leasescope::gui

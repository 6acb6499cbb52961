#pragma once
// A clock that drifts (and, for the store, jumps): the arithmetic of
// docs/model.md §3.3 rule 1, in half milliseconds like the moments of §3.2.
// Pure and exact: products go through 128 bits, the one rounding is a floor.
#include <cstdint>
#include <limits>

#include "leasescope/engine/assert.hpp"
#include "leasescope/engine/types.hpp"

namespace leasescope {

// Parts per million: a drift P runs a clock at (ppm_one + P) / ppm_one of true time.
inline constexpr std::int64_t ppm_one = 1'000'000;
// 128-bit intermediates (GCC and Clang; __extension__ keeps -Wpedantic quiet).
__extension__ typedef __int128 clock_wide;
// A tick so far away that nothing reaches it; tick arithmetic on it cannot overflow.
inline constexpr Tick clock_tick_far = std::numeric_limits<Tick>::max() / 4;

// The middle of tick t in half milliseconds (model.md §3.2); elector.hpp's
// tick_middle_half_ms is the same.
inline constexpr std::int64_t clock_moment_half_ms(Tick t, std::int64_t tick_ms) { return 2 * t * tick_ms + tick_ms; }

// A clock's rate and the arithmetic between true moments, its readings and
// ticks. Jumps are kept by the caller (the store adds its sum; a node's
// monotonic reading has none, model.md §3.3 rule 7).
struct DriftClock {
    std::int64_t tick_ms = 50;
    std::int32_t drift_ppm = 0;

    bool true_rate() const { return drift_ppm == 0; }
    // The reading at true moment m (half ms, m >= 0), without jumps.
    std::int64_t reading(std::int64_t m) const {
        if (true_rate()) return m;
        const clock_wide scaled = static_cast<clock_wide>(m) * (ppm_one + drift_ppm);
        return static_cast<std::int64_t>(scaled / ppm_one);  // m >= 0, rate > 0: the floor
    }
    std::int64_t reading_at_tick(Tick t) const { return reading(clock_moment_half_ms(t, tick_ms)); }
    // The first true moment (half ms, >= 0) whose reading reaches y.
    std::int64_t moment_reaching(std::int64_t y) const {
        if (y <= 0) return 0;
        if (true_rate()) return y;
        const clock_wide rate = ppm_one + drift_ppm;
        LS_ASSERT(rate > 0);
        const clock_wide m = (static_cast<clock_wide>(y) * ppm_one + rate - 1) / rate;
        return m > std::numeric_limits<std::int64_t>::max() / 4 ? std::numeric_limits<std::int64_t>::max() / 4
                                                                : static_cast<std::int64_t>(m);
    }
    // The first tick (>= 0) whose middle's reading reaches y.
    Tick first_tick_reaching(std::int64_t y) const {
        const std::int64_t m = moment_reaching(y);
        // moment(t) = (2t + 1)·tick_ms >= m  <=>  t >= (m - tick_ms) / (2·tick_ms), rounded up.
        if (m <= tick_ms) return 0;
        const Tick t = (m - tick_ms + 2 * tick_ms - 1) / (2 * tick_ms);
        return t > clock_tick_far ? clock_tick_far : t;
    }
    // The first tick u whose reading has reached the reading at tick t plus
    // `ticks` nominal ticks (a duration measured on this clock).
    Tick after(Tick t, Tick ticks) const {
        if (true_rate()) return t + ticks;
        return first_tick_reaching(reading_at_tick(t) + 2 * ticks * tick_ms);
    }
};

}  // namespace leasescope

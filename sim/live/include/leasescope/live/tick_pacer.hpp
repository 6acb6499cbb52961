#pragma once
// Real time for live mode: the steady clock that issues tick t's commands at
// its middle and says whether they were done by its deadline. The middle, the
// deadline and the margin are the live timing rule, kept with the store's TTL
// conversions in leasescope/redis/live_timing.hpp (docs/model.md §13.3). A tick
// whose commands finish later is a timing fault (docs/model.md §13.4).
#include <atomic>
#include <chrono>
#include <cstdint>

#include "leasescope/engine/types.hpp"
#include "leasescope/redis/live_timing.hpp"

namespace leasescope::live {

// The margin of the timing rule, under the name the live driver's users know.
using redis::timing_margin_ms;

class TickPacer {
public:
    using Clock = std::chrono::steady_clock;

    explicit TickPacer(std::int64_t tick_ms);

    // Tick 0 begins now.
    void start();
    // Sleeps until tick t's mid-point (returns at once when it has passed).
    // Sleeps in short slices and returns false early when `cancel` is set.
    bool wait_for_mid(Tick t, const std::atomic<bool>* cancel = nullptr) const;
    // True while tick t's deadline (its end less the margin) has not passed:
    // its commands, if done now, were in time.
    bool within(Tick t) const;
    // Milliseconds past tick t's deadline (negative before it).
    double ms_past_deadline(Tick t) const;

    std::int64_t tick_ms() const { return tick_ms_; }

private:
    Clock::time_point mid_of(Tick t) const;
    Clock::time_point deadline_of(Tick t) const;

    std::int64_t tick_ms_;
    Clock::time_point start_;
};

}  // namespace leasescope::live

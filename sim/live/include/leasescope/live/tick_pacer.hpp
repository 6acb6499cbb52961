#pragma once
// Real time for live mode: tick t's commands are issued at its mid-point,
// t·tick_ms + tick_ms/2 after the start (monotonic clock), and must be done
// before the tick ends (DESIGN §13). A tick that ends late is a timing fault:
// its commands may have crossed a TTL boundary, so its answers say nothing
// about the model.
#include <atomic>
#include <chrono>
#include <cstdint>

#include "leasescope/engine/types.hpp"

namespace leasescope::live {

class TickPacer {
public:
    using Clock = std::chrono::steady_clock;

    explicit TickPacer(std::int64_t tick_ms);

    // Tick 0 begins now.
    void start();
    // Sleeps until tick t's mid-point (returns at once when it has passed).
    // Sleeps in short slices and returns false early when `cancel` is set.
    bool wait_for_mid(Tick t, const std::atomic<bool>* cancel = nullptr) const;
    // True while tick t has not ended: its commands, if done now, were in time.
    bool within(Tick t) const;
    // Milliseconds since tick t's mid-point (negative before it).
    double ms_after_mid(Tick t) const;

    std::int64_t tick_ms() const { return tick_ms_; }

private:
    Clock::time_point mid_of(Tick t) const;
    Clock::time_point end_of(Tick t) const;

    std::int64_t tick_ms_;
    Clock::time_point start_;
};

}  // namespace leasescope::live

#pragma once
// Real time for live mode: tick t's commands are issued at its mid-point,
// t·tick_ms + tick_ms/2 after the start (monotonic clock), and must be done
// before the tick ends (DESIGN §13), less a margin of timing_margin_ms. A tick
// whose commands finish later is a timing fault: they may have crossed a TTL
// boundary, so their answers say nothing about the model.
//
// The margin: Redis keeps time in whole milliseconds (it truncates both the
// moment a TTL starts and the moment it checks one), so a TTL can run up to
// 1 ms long or short; TTLs for an odd tick_ms are also rounded down by half
// a millisecond. With commands done 2 ms before the tick's end, a record
// written in tick s is still there at every command of tick s + lease − 1,
// gone at every command of tick s + lease, and ceil(PTTL / tick_ms) reads
// back the model's remaining ticks.
#include <atomic>
#include <chrono>
#include <cstdint>

#include "leasescope/engine/types.hpp"

namespace leasescope::live {

inline constexpr std::int64_t timing_margin_ms = 2;

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

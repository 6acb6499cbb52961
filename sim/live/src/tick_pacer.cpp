// The steady clock that paces live ticks and checks their deadlines (tick_pacer.hpp).
#include "leasescope/live/tick_pacer.hpp"

#include <algorithm>
#include <thread>

#include "leasescope/engine/assert.hpp"

namespace leasescope::live {
namespace {
// Cancellation is noticed within this long, whatever the tick length.
constexpr auto cancel_poll = std::chrono::milliseconds(20);
}  // namespace

TickPacer::TickPacer(std::int64_t tick_ms) : tick_ms_(tick_ms), start_(Clock::now()) { LS_ASSERT(tick_ms >= 1); }

void TickPacer::start() { start_ = Clock::now(); }

TickPacer::Clock::time_point TickPacer::mid_of(Tick t) const {
    return start_ + std::chrono::microseconds(redis::tick_mid_us(t, tick_ms_));
}

TickPacer::Clock::time_point TickPacer::deadline_of(Tick t) const {
    return start_ + std::chrono::milliseconds(redis::tick_deadline_ms(t, tick_ms_));
}

bool TickPacer::wait_for_mid(Tick t, const std::atomic<bool>* cancel) const {
    const auto target = mid_of(t);
    for (;;) {
        if (cancel != nullptr && cancel->load()) return false;
        const auto now = Clock::now();
        if (now >= target) return true;
        std::this_thread::sleep_until(cancel != nullptr ? std::min(target, now + cancel_poll) : target);
    }
}

bool TickPacer::within(Tick t) const { return Clock::now() < deadline_of(t); }

double TickPacer::ms_past_deadline(Tick t) const {
    return std::chrono::duration<double, std::milli>(Clock::now() - deadline_of(t)).count();
}

}  // namespace leasescope::live

#pragma once
// The live timing rule, ticks ↔ milliseconds (docs/model.md §13.3), in one place:
// the Redis store uses it to write and read TTLs, the live driver's pacer to
// know when a tick's commands are due and by when they must be done.
//
// Tick t's commands are issued at its middle, t·tick_ms + tick_ms/2 after the
// run's start (monotonic clock), and must be done before the tick's deadline,
// its end less timing_margin_ms. Every TTL of `ticks` ticks is
// (ticks − ½)·tick_ms, and a TTL read back is ceil(PTTL / tick_ms) ticks.
// Together: a record written in tick s with lease L is still there at every
// command of tick s + L − 1 and gone at every command of tick s + L (the
// model's boundary), and the time left read back is the model's
// expires_at − now.
//
// The margin: Redis keeps time in whole milliseconds. It truncates both the
// moment a TTL starts and the moment it checks one, so a TTL can act up to
// 1 ms long or short, and a TTL for an odd tick_ms is also rounded down by
// half a millisecond. 2 ms covers both. (The differential test found the
// first millisecond: a record written in the last millisecond of its tick
// survived into its boundary tick.) A tick done after its deadline is a
// timing fault, never a divergence (docs/model.md §13.4).
#include <algorithm>
#include <cstdint>
#include <string_view>

#include "leasescope/engine/assert.hpp"
#include "leasescope/engine/elector.hpp"
#include "leasescope/engine/types.hpp"

namespace leasescope::redis {

// How long before its end a tick's commands must be done.
inline constexpr std::int64_t timing_margin_ms = 2;

// Microseconds from the run's start to tick t's middle (microseconds, so an
// odd tick_ms still has an exact middle): the engine's tick_middle_half_ms.
inline std::int64_t tick_mid_us(Tick t, std::int64_t tick_ms) {
    LS_ASSERT(t >= 0);
    LS_ASSERT(tick_ms >= 1);
    return tick_middle_half_ms(t, tick_ms) * 500;
}

// Milliseconds from the run's start to tick t's deadline: its end less the margin.
inline std::int64_t tick_deadline_ms(Tick t, std::int64_t tick_ms) {
    LS_ASSERT(t >= 0);
    LS_ASSERT(tick_ms >= 1);
    return (t + 1) * tick_ms - timing_margin_ms;
}

// Milliseconds of a TTL of `ticks` ticks: (ticks − ½)·tick_ms, rounded down.
inline std::int64_t ttl_ms_for(Tick ticks, std::int64_t tick_ms) {
    LS_ASSERT(ticks >= 1);
    LS_ASSERT(tick_ms >= 1);
    const std::int64_t ms = ticks * tick_ms - tick_ms / 2;
    LS_ASSERT(ms >= 1);
    return ms;
}

// Remaining whole ticks of a key with `pttl_ms` left: ceil(pttl / tick_ms),
// at least 1 (a key that exists is valid).
inline Tick ticks_left(std::int64_t pttl_ms, std::int64_t tick_ms) {
    LS_ASSERT(pttl_ms >= 0);
    LS_ASSERT(tick_ms >= 1);
    // Redis keeps a key whose expiry time equals the current millisecond
    // (PTTL 0); it still exists, so it is still valid for one more command.
    return std::max<Tick>(1, (pttl_ms + tick_ms - 1) / tick_ms);
}

// The step that stands for a jump of the store's clock by `jump_ms` (docs/model.md
// §13.6 rule 3): whole ticks, ⌊jump_ms / tick_ms⌋·tick_ms, rounded toward −∞,
// so a key moved by it expires at the tick the model's jumped clock names.
inline std::int64_t clock_jump_step_ms(std::int64_t jump_ms, std::int64_t tick_ms) {
    LS_ASSERT(tick_ms >= 1);
    std::int64_t ticks = jump_ms / tick_ms;
    if (jump_ms % tick_ms != 0 && jump_ms < 0) --ticks;
    return ticks * tick_ms;
}

// The step itself on one key (docs/model.md §13.6 rule 1, §20.9 rule 5, as
// tests/redlock/driver.js sends it): the stored deadline (PEXPIRETIME) less
// ARGV[1] ms (PEXPIREAT, which deletes a key whose new deadline has passed),
// reading no clock; a key absent (-2) or without a TTL (-1) is left alone.
inline constexpr std::string_view clock_jump_step_script =
    "local at = redis.call('pexpiretime', KEYS[1]) if at < 0 then return at end "
    "return redis.call('pexpireat', KEYS[1], at - tonumber(ARGV[1]))";

}  // namespace leasescope::redis

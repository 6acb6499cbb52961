#pragma once
// Basic vocabulary of the lease model. Units go last in names: a value of type
// Tick counts logical ticks, never milliseconds.
#include <cstdint>
#include <limits>
#include <string>

namespace leasescope {

using Tick = std::int64_t;       // a logical tick, or a duration in ticks
using Fencing = std::int64_t;    // a fencing number issued by the store
using SlotIndex = std::int32_t;  // 0-based slot of a lock
using NodeIndex = std::int32_t;  // 0-based candidate in declared order
using Token = std::string;       // opaque; never ordered, never a fence

inline constexpr Tick tick_none = std::numeric_limits<Tick>::min();

}  // namespace leasescope

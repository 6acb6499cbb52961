#pragma once
// Named limits on every number a scenario can carry. Hitting one is a typed
// error naming the JSON path, never silent growth.
#include <cstdint>

#include "leasescope/engine/types.hpp"

namespace leasescope::limits {

inline constexpr std::int64_t candidates_max = 100'000;
inline constexpr std::int64_t capacity_max = 1'024;
inline constexpr Tick horizon_max = 100'000'000;
inline constexpr Tick duration_max = horizon_max;  // wait, lease, action, every, …
inline constexpr std::int64_t runs_max = 1'000'000;
inline constexpr std::int64_t writes_max = 10'000;  // per candidate
inline constexpr std::int64_t faults_max = 100'000;
inline constexpr std::int64_t ops_max = 100'000;
inline constexpr std::int64_t tick_ms_min = 1;
inline constexpr std::int64_t tick_ms_max = 60'000;
inline constexpr Fencing fencing_start_max = 1'000'000'000'000;
inline constexpr std::int64_t name_length_max = 200;
inline constexpr std::int64_t text_length_max = 4'000;  // title and summary
// Events one simulation may emit (a Timeline keeps them in memory).
inline constexpr std::int64_t trace_events_max = 50'000'000;
inline constexpr std::int64_t scenario_bytes_max = 64 * 1024 * 1024;

static_assert(capacity_max <= candidates_max);
static_assert(duration_max <= horizon_max);

}  // namespace leasescope::limits

#pragma once
// The Lua scripts of the Redis store, one per operation (docs/model.md §4, §13).
// Every script gets KEYS = the lock's N slot keys, then its fencing counter,
// then its hold-off marker, so one lock stays in one cluster slot and the
// script knows N from #KEYS. Times go in and come out in milliseconds; the
// C++ side maps ticks to milliseconds and back.
#include <string_view>

namespace leasescope::redis::lua {

// ARGV: owner, token, lease_ms, counter's initial value (fencing_start - 1).
// Returns {acquired, fresh_or_hold_off, slot, fencing, pttl_ms}.
extern const std::string_view acquire;
// ARGV: token, lease_ms. Returns {renewed, slot, fencing}.
extern const std::string_view extend;
// ARGV: token, keep_ms (0: none), hold_off_ms (0: none).
// Returns {outcome (0 released, 1 kept, 2 not_owner), slot, pttl_ms}.
extern const std::string_view release;
// Returns {hold-off pttl_ms, {slot, owner, fencing, pttl_ms}...}.
extern const std::string_view status;
// ARGV: token. Returns 0 current, 1 stale, 2 vacant.
extern const std::string_view validate;
// Returns, per slot, {exists, token or ""}.
extern const std::string_view expire;
// ARGV: reset the counter (0/1), counter's initial value.
extern const std::string_view failover;

}  // namespace leasescope::redis::lua

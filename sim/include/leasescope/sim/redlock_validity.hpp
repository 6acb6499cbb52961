#pragma once
// The validity of a Redlock attempt (model.md §20.4 rule 5): how long the
// lock is still good for when the last answer arrives. One home for the
// drift formula: the simulation decides with it (redlock.cpp `decide`) and
// the words and the app's quorum mark say it with it. Pure.
#include <cmath>
#include <cstdint>

namespace leasescope::sim {

// drift = round(driftFactor · ttl) + 2 ms; JavaScript's Math.round rounds halves up (redlock.js 415).
inline std::int64_t redlock_drift_ms(double drift_factor, std::int64_t ttl_ms) {
    return static_cast<std::int64_t>(std::floor(drift_factor * static_cast<double>(ttl_ms) + 0.5)) + 2;
}

// expiration − now = start + ttl − drift − now (redlock.js 416), both read on
// the client's Date.now(): the attempt succeeds with a quorum iff this is
// above 0 (419). Negative: by how much the answers came too late.
inline std::int64_t redlock_validity_ms(double drift_factor, std::int64_t ttl_ms, std::int64_t start_ms,
                                        std::int64_t now_ms) {
    return start_ms + ttl_ms - redlock_drift_ms(drift_factor, ttl_ms) - now_ms;
}

}  // namespace leasescope::sim

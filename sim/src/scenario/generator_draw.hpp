#pragma once
// The one draw both scenario generators make (generator.cpp, generator_redlock.cpp).
#include <cstdint>

#include "leasescope/engine/prng.hpp"

namespace leasescope::sim::generator_detail {

// A draw in [lo, hi], both included. Modulo bias is irrelevant here, and the
// arithmetic is the same everywhere (no std::*_distribution).
inline std::int64_t draw_between(SplitMix64& rng, std::int64_t lo, std::int64_t hi) {
    const auto span = static_cast<std::uint64_t>(hi - lo) + 1;
    return lo + static_cast<std::int64_t>(rng.next() % span);
}

}  // namespace leasescope::sim::generator_detail

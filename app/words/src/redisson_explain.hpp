#pragma once
// The sentences of a Redisson trace's events (model.md §21; redisson_explain.cpp).
#include "leasescope/words/words.hpp"

namespace leasescope::words {

// Fills `out` (heading and sentences) for the event ctx points at, when it is
// one a Redisson trace tells in its own words (a script's answer, the unlock
// message, a write, an expiry, a run that starts or gives up); false for the
// events explained as in any trace (faults, overlaps).
bool explain_redisson(const ExplainContext& ctx, const Strings& s, Explanation& out);

}  // namespace leasescope::words

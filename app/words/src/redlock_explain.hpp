#pragma once
// The sentences of a Redlock trace's events (model.md §20; redlock_explain.cpp).
#include "leasescope/words/words.hpp"

namespace leasescope::words {

// Fills `out` (heading and sentences) for the event ctx points at, when it is
// one of a Redlock trace's own (a store's answer, a count, a write, a store's
// fault, a run that gave up); false for the events explained as in any trace.
bool explain_redlock(const ExplainContext& ctx, const Strings& s, Explanation& out);

}  // namespace leasescope::words

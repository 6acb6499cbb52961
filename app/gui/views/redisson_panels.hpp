#pragma once
// The side panels' Redisson parts (model.md §21): Redisson's lock is a hash
// with a hold count, its clients sleep on the lock's channel instead of
// polling, and it gives the resource no number, so the record, candidates,
// action and resource panels read the Redisson facts at the playhead
// (FrameContext::redisson, folded from the trace) instead of the electors'.
#include <string>
#include <vector>

#include "redlock_panels.hpp"
#include "view.hpp"

namespace leasescope::gui {

// The record panel: the key (the lock's name), its field shortened, whose it
// is, the hold count and the PTTL left; or that no key exists.
void draw_redisson_record(const FrameContext& ctx);
// The candidates panel: each client's state in Redisson's terms (sleeping on
// the channel until the message or the TTL it was told, holding with the
// watchdog, renewal stopped for good, gave up…) and its field.
void draw_redisson_clients(const FrameContext& ctx);
// The resource panel's head: no fencing number (rule 21.6), every write
// accepted; the counts of stale and unsafe ones.
void draw_redisson_resource_head(const FrameContext& ctx);
// The hash of `f` at tick t (whose field, hold count, PTTL left; or no key),
// and each client's state as a badge: the record panel's and the comparison's.
void draw_redisson_hash_lines(const FrameContext& ctx, const words::RedissonFacts& f, Tick t);
void draw_redisson_state_badges(const FrameContext& ctx, const sim::Trace& trace, const words::RedissonFacts& f,
                                Tick t);
// The clients inside the protected action at the playhead (holding), stale
// when their field no longer holds the hash.
std::vector<ActionInside> redisson_inside(const FrameContext& ctx);

}  // namespace leasescope::gui

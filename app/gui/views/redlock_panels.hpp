#pragma once
// The side panels' Redlock parts (model.md §20): a run over N independent
// stores has no one record, fencing counter or elector to show, so the
// record, candidates, action and resource panels read the Redlock facts at
// the playhead (FrameContext::redlock, the fold Explain reads) instead.
#include <optional>
#include <string>
#include <vector>

#include "view.hpp"

namespace leasescope::gui {

// The record panel's cards: one per store (its key's holder, token, the TTL
// left on that store's clock, down), under the lock's name and the time.
void draw_redlock_stores(const FrameContext& ctx);
// The candidates panel: each client's state (locking, working, retrying, …),
// token and how many stores hold its key.
void draw_redlock_clients(const FrameContext& ctx);
// The resource panel's head: Redlock gives the resource no number (rule
// 20.6), so it accepts every write; the counts of stale and unsafe ones.
void draw_redlock_resource_head(const FrameContext& ctx);

// The events table's outcome of a Redlock store's own event (§20.8): a
// store's answer in its own words (no slot, no fencing), and every store
// event names its store, as the table has no column for it; an unsafe write
// is told as rule 20.6 marks it; empty for any other event (the usual words).
// `mark`: the event's mark on the timeline (a MarkerKind, -1 none), which
// tells an unlock that deleted nothing apart (another key left alone, or none).
std::string redlock_outcome_words(const FrameContext& ctx, const sim::Event& e, int mark);

// Shared with the Redisson panels (redisson_panels.cpp): a square in the
// owner's colour before a line naming `node` (a client of the trace); a
// client's state as a badge in its lane's colour; the resource panel's head
// of a client with no fencing number (`mode_key`: the sentence that says so).
void owner_swatch(const FrameContext& ctx, const std::string& node);
void state_badge(const FrameContext& ctx, const std::string& state, SpanKind kind);
// A badge on the line of the item before, or under it when the line has no room left.
void badge_beside(const char* text, const Rgba& fill, const Rgba& text_color = Rgba{255, 255, 255, 255});
void draw_fenceless_resource_head(const FrameContext& ctx, const char* mode_key, std::int64_t writes,
                                  std::int64_t stale, std::int64_t unsafe);

// A client inside the protected action at the playhead (working or
// releasing), and whether its token still holds a quorum of stores.
struct ActionInside {
    std::string name;
    bool stale = false;
    std::optional<Fencing> fencing;  // an elector's (the action panel lists both kinds); Redlock's: none
};
std::vector<ActionInside> redlock_inside(const FrameContext& ctx);

}  // namespace leasescope::gui

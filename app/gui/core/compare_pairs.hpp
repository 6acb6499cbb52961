#pragma once
// What side by side and narrated play decide without ImGui: the ready-made
// pairs (two presets, or a preset and a variant of it made with `--set`
// overrides), and the ticks where narrated play stops (ticks with a mark
// the event table shows as an alarm, or where an overlap begins).
#include <string>
#include <vector>

#include "leasescope/sim/scenario.hpp"
#include "leasescope/sim/trace.hpp"

namespace leasescope::gui {

// A ready-made pair: A is preset `a`; B is preset `b` (or `a` again when
// `b` is empty) with `b_overrides` applied ("defaults.auto_extend=true").
struct ReadyPair {
    std::string name;  // what --pair takes, and the key "compare.pair.<name>"
    std::string a, b;
    std::vector<std::string> b_overrides;
};
const std::vector<ReadyPair>& ready_pairs();
const ReadyPair* find_ready_pair(const std::string& name);

// Narrated play: whether an event makes the narration stop at its tick.
bool is_narration_stop(const sim::Event& event, sim::ResourceMode mode);
// Every tick narrated play stops at, ascending and without repeats.
std::vector<Tick> narration_stops(const sim::Trace& trace, sim::ResourceMode mode);
// Advances narrated play from `from` by up to `ticks` ticks, ending early on
// the first stop after `from` (then `stopped` is set) or at `end`.
Tick narrate_advance(const std::vector<Tick>& stops, Tick from, Tick ticks, Tick end, bool& stopped);

}  // namespace leasescope::gui

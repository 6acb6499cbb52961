#pragma once
// Side by side and narrated play, the app's state for them: run B (the
// second copy, built from a ready-made pair, a preset, a file or a variant of
// A made with `--set` overrides), its lanes and its state at the shared
// playhead, where the two runs part, and the difference in words; and the
// narration's pace and stops. The app owns one of each (app.hpp); the views
// read them (views/view_compare.cpp, views/view_narrate.cpp).
#include <memory>
#include <string>
#include <vector>

#include "core/compare_pairs.hpp"
#include "core/lanes.hpp"
#include "core/strings.hpp"
#include "leasescope/sim/simulation.hpp"
#include "leasescope/words/compare_words.hpp"

namespace leasescope::gui {

class ComparePair {
public:
    // B from scenario text (a file's bytes, or a scenario written back:
    // `written_back`) with overrides; false and `error` on failure.
    bool build_b(const std::string& text, const std::string& file, const std::vector<std::string>& overrides,
                 bool written_back, std::string& error);
    // Recomputes the divergence when A changed (its generation), and B's state and the words at the playhead.
    void refresh(const sim::Timeline& a, std::uint64_t a_generation, Tick playhead, const Strings& strings);

    std::string pair_name;  // the ready-made pair's name; empty otherwise
    std::string label_a, label_b;
    std::vector<std::string> b_overrides;  // what made B a variant (shown, and kept for further knobs)

    const sim::Timeline& b() const { return *b_; }
    const LaneModel& lanes_b() const { return lanes_b_; }
    const sim::Snapshot& snap_b() const { return snap_b_; }
    const words::PairDivergence& divergence() const { return divergence_; }
    const std::vector<words::Sentence>& sentences() const { return sentences_; }
    Tick end_tick(const LaneModel& lanes_a) const { return std::max(lanes_a.end_tick, lanes_b_.end_tick); }
    std::uint64_t generation() const { return generation_; }

private:
    std::unique_ptr<sim::Timeline> b_;
    LaneModel lanes_b_;
    sim::Snapshot snap_b_;
    Tick snap_tick_ = -1;
    words::PairDivergence divergence_;
    std::uint64_t a_generation_ = 0;
    std::uint64_t generation_ = 1;  // changes when B is rebuilt
    std::vector<words::Sentence> sentences_;
    Tick words_tick_ = -1;
    Lang words_lang_ = Lang::en;
};

// Narrated play: one tick every 1/pace seconds, stopping at the ticks where
// something important happens (narration_stops).
struct Narration {
    bool on = false;
    double pace = 1.0;  // ticks per second
    double accum = 0.0;
    std::vector<Tick> stops;  // of the current timeline
    std::uint64_t stops_generation = 0;
    bool stopped_here = false;  // the last advance ended on a stop
};

}  // namespace leasescope::gui

#pragma once
// The explorer's counterexample in words: its added faults, the shuffled
// order, what failed, and the title and summary of the scenario it writes,
// all from the "explore.*" keys of the string tables. The facts come from
// sim (make_counterexample); the CLI and the app both render them here.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "leasescope/sim/explorer.hpp"
#include "leasescope/words/strings.hpp"

namespace leasescope::words {

// "pause node-a for 3 ticks at tick 1".
std::string fault_words(const sim::AddedFault& fault, const Strings& strings);
// The list the counterexample shows: "order shuffled with seed 35" when the
// order was shuffled, then each added fault.
std::vector<std::string> fault_lines(const sim::CounterexampleFacts& facts, const Strings& strings);
// "unsafe_write: node-a's write with fencing 33 at tick 8 lands after …".
std::string failure_words(const sim::Failure& failure, const Strings& strings);
// Every failure, joined.
std::string explanation_words(const sim::CounterexampleFacts& facts, const Strings& strings);

// Words the counterexample's scenario: title "Counterexample: <base title>"
// and a summary that lists the faults and tells the failure, in English and
// Korean, cut to the scenario format's text limit.
void title_counterexample(sim::Counterexample& counterexample, const sim::Scenario& base, const Strings& strings);

// The smallest fault of each kind (sim::minimize, the app's Find panel).
// A kind's name: "pause", "partition", "crash", …
std::string fault_class_words(sim::FaultClass kind, const Strings& strings);
// A size in ticks as time and ticks: "20s (400 ticks)".
std::string size_words(Tick ticks, std::int64_t tick_ms, const Strings& strings);
// One kind's answer: "pause: 20s (400 ticks) breaks it; 10s (200 ticks)
// held (sizes in between were not tried)", "crash: a single one breaks it",
// "partition: none up to 1m (1200 ticks) breaks it". `held` is the largest
// size below the threshold that was tried (or, with no threshold, the
// largest tried); `on_grid` whether sizes between two tried were skipped.
// The sizes of pauses and partitions a search tries, `sizes` ascending:
// "Pauses and partitions of every length from 50ms (1 tick) to 400ms (8
// ticks)." or, on a grid, "… from 50ms (1 tick) to 1m (1200 ticks): 11
// sizes, …". Empty for no sizes.
std::string budget_words(const std::vector<Tick>& sizes, bool grid, std::int64_t tick_ms, const Strings& strings);
struct KindAnswer {
    sim::FaultClass kind = sim::FaultClass::pause;
    bool sized = true;
    std::optional<Tick> threshold;
    std::optional<Tick> held;
    bool on_grid = false;
};
std::string kind_answer_words(const KindAnswer& answer, std::int64_t tick_ms, const Strings& strings);

}  // namespace leasescope::words

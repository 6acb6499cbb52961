#pragma once
// The explorer's counterexample in words: its added faults, the shuffled
// order, what failed, and the title and summary of the scenario it writes,
// all from the "explore.*" keys of the string tables. The facts come from
// sim (make_counterexample); the CLI and the app both render them here.
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

}  // namespace leasescope::words

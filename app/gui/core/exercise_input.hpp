#pragma once
// What a student enters in the Exercise panel, as sim/exercise.hpp takes it
// (docs/model.md §18): a choice by its value, a goal's combination by its
// values, a find_fault's one fault from the panel's controls (kind, node, at,
// length). The panel's buttons and the --exercise-answer flag both go
// through these, so a test of the flag tests what a click does. Pure (no ImGui).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "leasescope/sim/exercise.hpp"
#include "leasescope/sim/scenario.hpp"

namespace leasescope::gui {

// The choice `value` names, as `leasescope-cli exercise answer` reads it: a
// value among the choices first (a fencing number is a value), else its
// number from 1; nothing when it is neither.
std::optional<int> choice_index(const std::vector<std::string>& choices, std::string_view value);

// A knob value as the panel shows it: the JSON text, a string without its quotes.
std::string knob_value_label(const std::string& json_text);

// "5,off": one value per knob, in knob order, each as knob_value_label shows
// it (or as its JSON text); nothing when the count or a value does not match.
std::optional<std::vector<std::int32_t>> knob_indices(const std::vector<sim::Knob>& knobs, std::string_view value);

// The find_fault panel's controls. `length` is a pause's, partition's or link
// cut's ticks, a delay's extra ticks over a window as long, a clock jump's
// step in ticks (forward); a crash has none.
struct FaultControls {
    sim::FaultKind kind = sim::FaultKind::pause;
    NodeIndex node = 0;
    Tick at = 0;
    Tick length = 1;
    sim::PartitionMode mode = sim::PartitionMode::drop_requests;
    sim::Link link = sim::Link::request;       // delay
    FailoverLoss lose = FailoverLoss::leases;  // failover (no node, no length)
};
// The kinds the controls can build: all but a replica's link cut, and a
// failover only in its `lose` form (a promotion needs a server and a lag:
// "Show me" shows those).
bool fault_kind_has_controls(sim::FaultKind kind, const sim::FaultBudget& budget);
// Whether a fault of the kind is a node's (the controls show the node combo):
// not a jump of the store's clock, not a failover.
bool fault_kind_has_node(sim::FaultKind kind);
// The budget's first mode, link or loss for the kind, as the controls use.
FaultControls with_budget_choice(FaultControls controls, const sim::FaultBudget& budget);
sim::Fault fault_of(const FaultControls& controls, std::int64_t tick_ms);
// The controls that show a fault (a try's, "Show me"'s): fault_of's inverse
// for the kinds with controls; a clock jump's step in whole ticks.
FaultControls controls_of(const sim::Fault& fault, std::int64_t tick_ms);
// "pause:node-a:10:5" (kind:node:at:length; a partition's kind may carry its
// mode, "partition:drop_replies"); nothing when it does not parse or names
// an unknown node.
std::optional<FaultControls> parse_fault_controls(std::string_view text, const sim::Scenario& scenario);
// A fault as a JSON object ({"kind":"pause","node":"node-a","at":3,"ticks":8}),
// read as the file's own faults are (appended to its "faults" and parsed
// with it, as `leasescope-cli exercise answer` does); nothing, with `error`
// naming what is wrong, when it is not one.
std::optional<sim::Fault> fault_from_json(const std::string& file_text, const std::string& file, std::string_view json,
                                          std::string& error);

}  // namespace leasescope::gui

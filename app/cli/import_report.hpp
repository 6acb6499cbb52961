#pragma once
// The report `leasescope-cli import` prints after a successful import
// (docs/import.md "The report"): English, as the CLI's other reports.
#include <cstdint>
#include <string>
#include <vector>

#include "leasescope/sim/import.hpp"

namespace leasescope::cli {

// The lock, the lines read, used and ignored, the nodes, the tick chosen and
// why, the counts of outcomes, the undecided events, the notes, one sentence
// per violation, the draft's evidence and differences. `tick_ms_given` is
// --tick-ms (0 when the importer chose).
std::string import_report(const sim::import::CaptureReport& capture, const sim::import::ImportedHistory& history,
                          const std::vector<std::string>& log_files,
                          const std::vector<sim::import::LogEntry>& log_entries, std::int64_t tick_ms_given);

}  // namespace leasescope::cli

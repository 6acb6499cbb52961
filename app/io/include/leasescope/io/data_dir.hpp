#pragma once
// Where the programs find their shared data (scenarios/, assets/, schema/,
// golden/): beside an installed program first, then the source tree it was
// built from. POSIX (Linux's /proc/self/exe) only; the pure libraries never
// include it.
#include <optional>
#include <string>

namespace leasescope::io {

// The folder holding the running program, or "" when it cannot be found.
std::string executable_dir();

// `<executable>/../share/leasescope` when the program is installed (that
// folder exists and holds scenarios/), else nullopt.
std::optional<std::string> installed_data_dir();

// `name` (scenarios, assets, schema, golden) in the installed data folder if
// there is one, else `source_fallback` (a folder of the source tree).
std::string data_path(const std::string& name, const std::string& source_fallback);

}  // namespace leasescope::io

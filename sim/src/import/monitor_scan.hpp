#pragma once
// The capture reader's fast view of one MONITOR line (docs/model.md §19.1):
// the arguments stay as the escaped text between their quotes, so a line of
// another key is judged and dropped without decoding or allocating
// (rule 19.2.3). parse_monitor_line (import.hpp) is this plus decoding.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace leasescope::sim::import::internal {

struct RawLine {
    std::int64_t ts_us = 0;
    std::int32_t db = 0;
    std::string_view client;
    bool lua = false;
    // Each argument as written between its quotes (escapes not decoded).
    // Redis writes bytes canonically (sdscatrepr), so two raw arguments are
    // the same bytes exactly when their raw texts are equal.
    std::vector<std::string_view> args;
};

enum class ScanKind : std::uint8_t { line, skip, bad };

// `out.args` is cleared and refilled (the caller reuses it); on bad, `error`
// says what was expected and at which column.
ScanKind scan_monitor_line(std::string_view text, RawLine& out, std::string& error);

// The bytes of an argument scan_monitor_line accepted.
std::string unescape_arg(std::string_view raw);

// True when the raw argument is `word` ignoring ASCII case (`word` upper case).
bool raw_is(std::string_view raw, std::string_view word);

}  // namespace leasescope::sim::import::internal

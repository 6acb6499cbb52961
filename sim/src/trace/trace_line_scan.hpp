// The trace reader's fast path: one event line in the exact canonical form
// the writer produces (model.md §12.1), scanned into its fields without
// building a JSON value. A line in any other form is not scanned, and the
// general reader (trace_reader.cpp) reads it and names what is wrong.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace leasescope::sim::trace_scan {

// The keys of an event line in their order: the 12 of every line after
// "type", then the optional trailing ones.
enum class Key : std::uint8_t {
    tick,
    seq,
    phase,
    node,
    run,
    op,
    token,
    fencing,
    slot,
    ttl,
    outcome,
    detail,
    sent,
    applied,
    server,
    wall_us
};
inline constexpr std::size_t key_count = 16;

// A key's value as scanned: absent (only a trailing key), null, a
// non-negative integer in plain decimal, or a string of printable ASCII
// without quote or backslash (it needs no escaping either way).
struct Field {
    enum class Kind : std::uint8_t { absent, null, integer, string };
    Kind kind = Kind::absent;
    std::int64_t integer = 0;
    std::string_view text;
};

struct ScannedEvent {
    std::array<Field, key_count> fields{};
    const Field& operator[](Key k) const { return fields[static_cast<std::size_t>(k)]; }
};

// The key of a name of the list above, or nothing.
std::optional<Key> key_of(std::string_view name);

// True when `line` is `{"type":"event",...}` with the keys in order, each of
// its kind (tick and seq integers, phase and op strings, the others null or
// their kind; trailing keys integers), nothing else: no spaces, escapes,
// signs, leading zeros or integers past 18 digits. Says nothing about ranges
// or words: the reader checks those as for every line.
bool scan_event_line(std::string_view line, ScannedEvent& out);

// The summary line in canonical form: `results` entries and the violation
// counters scanned the same way (integers plain, strings plain, fencing an
// integer or null), in the keys' order; nothing about ranges.
struct ScannedResult {
    std::string_view node;
    std::int64_t run = 0;
    std::string_view result;
    Field fencing;
};
struct ScannedSummary {
    std::int64_t end_tick = 0;
    std::vector<ScannedResult> results;
    std::array<std::int64_t, 6> violations{};
    std::size_t violation_count = 0;  // 3 (format 1) or 6
    std::int64_t events = 0;
    std::string_view trace_sha256;
};
bool scan_summary_line(std::string_view line, ScannedSummary& out);

}  // namespace leasescope::sim::trace_scan

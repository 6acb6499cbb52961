#pragma once
// The protected data as the writes left it, derived from the trace alone
// (model.md §8, §9.6): the resource holds one value; each accepted write sets
// it to the writer's value, a rejected write leaves it. A write marked
// stale_after_successor puts back an older holder's value over its
// successor's: the lost update, seen as wrong data rather than as a mark.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "leasescope/sim/trace.hpp"
#include "strings.hpp"

namespace leasescope::gui {

// One write as the data saw it.
struct DataWrite {
    std::size_t event = 0;  // its index in the trace
    Tick tick = 0;          // arrival: the resource judged it then (model.md §16)
    Tick sent = 0;          // the tick its writer sent it; equal to `tick` unless the wire held it
    std::string node;
    std::int32_t run = -1;
    std::optional<Fencing> fencing;
    bool accepted = false;
    bool lost_update = false;  // stale_after_successor: the value goes back to an older holder's
    sim::Details marks;        // the write's marks as the trace has them (stale, §9.3, §9.6, §9.7)
    // The write whose value this one replaced (an index into ResourceData::writes);
    // none for a rejected write or the first accepted one.
    std::optional<std::size_t> replaced;
    // The write whose value the resource holds after this one (itself when accepted).
    std::optional<std::size_t> value_after;
};

struct ResourceData {
    std::vector<DataWrite> writes;     // in trace order
    std::optional<std::size_t> value;  // the write whose value the resource holds now; none before any is accepted
};

// The writes among the trace's first `end` events (the playhead's
// first_event_at_or_after(t + 1) gives the data at the end of tick t).
ResourceData resource_data(const sim::Trace& trace, std::size_t end);

// "The data now: node-a's value (run 0, fencing 1)", or "not written yet".
std::string data_now_words(const ResourceData& data, const Strings& strings);

// One line of the value history: arrival tick, writer, fencing, the tick it
// was sent when the wire held it, accepted or rejected with every mark of
// the write, and what the data is after it.
std::string data_write_words(const ResourceData& data, std::size_t i, const Strings& strings);

// For a lost update (writes[i].lost_update): whose value it put back, over
// whose; "" otherwise.
std::string data_lost_words(const ResourceData& data, std::size_t i, const Strings& strings);

}  // namespace leasescope::gui

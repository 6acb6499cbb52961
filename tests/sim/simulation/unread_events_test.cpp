// A sink that does not read events (EventSink::reads_events: NullSink, the
// explorer's; CountingSink, bench's) is told only that an event happened, and
// the simulator builds no view for it. Everything but the views must be the
// same: the state after every tick, the events' count, the verdicts, the
// runs' results. Checked on every preset and on generated scenarios with
// faults, time on the wire and replication.
#include <gtest/gtest.h>

#include <limits>
#include <string>

#include "leasescope/sim/simulation.hpp"
#include "support/generated_scenario.hpp"
#include "support/preset_loader.hpp"

using namespace leasescope;
using namespace leasescope::sim;

namespace {

// Reads every event (the simulator builds each view) and counts them.
class ReadingCounter final : public EventSink {
public:
    void on_event(const Event&) override { ++count; }
    void on_event_view(const EventView&) override { ++count; }
    std::int64_t count = 0;
};

// Steps `scenario` twice side by side, once for a sink that reads events and
// once for one that does not; after every tick both must agree. Returns the
// events counted.
std::int64_t compare_runs(const Scenario& scenario, const std::string& name) {
    Simulation read(scenario);
    ModelStore read_store(scenario.lock);
    ReadingCounter reader;
    Simulation unread(scenario);
    ModelStore unread_store(scenario.lock);
    CountingSink counter;
    EXPECT_TRUE(reader.reads_events());
    EXPECT_FALSE(counter.reads_events());
    while (!read.finished()) {
        read.skip_quiet_ticks(read_store, std::numeric_limits<Tick>::max());
        unread.skip_quiet_ticks(unread_store, std::numeric_limits<Tick>::max());
        EXPECT_EQ(read.next_tick(), unread.next_tick()) << name;
        const Tick t = read.next_tick();
        EXPECT_TRUE(read.step(read_store, reader).ok()) << name;
        EXPECT_TRUE(unread.step(unread_store, counter).ok()) << name;
        EXPECT_EQ(read.finished(), unread.finished()) << name << " at tick " << t;
        EXPECT_EQ(reader.count, counter.count) << name << " at tick " << t;
        EXPECT_EQ(read.events_emitted(), unread.events_emitted()) << name << " at tick " << t;
        EXPECT_TRUE(read.violations() == unread.violations()) << name << " at tick " << t;
        EXPECT_EQ(read.resource().accepted, unread.resource().accepted) << name << " at tick " << t;
        EXPECT_EQ(read.resource().rejected, unread.resource().rejected) << name << " at tick " << t;
        const auto read_digest = state_digest(read, read_store);
        if (read_digest != state_digest(unread, unread_store)) {
            ADD_FAILURE() << name << ": the state differs after tick " << t;
            return reader.count;
        }
    }
    EXPECT_EQ(read.end_tick(), unread.end_tick()) << name;
    EXPECT_EQ(read.results(), unread.results()) << name;
    return reader.count;
}

}  // namespace

TEST(UnreadEvents, PresetsReachTheSameStateAsWhenRead) {
    std::int64_t events = 0;
    for (const std::string& name : test::preset_names()) events += compare_runs(test::load_preset(name), name);
    EXPECT_GT(events, 1'000);  // the comparison is not empty
}

TEST(UnreadEvents, GeneratedScenariosReachTheSameStateAsWhenRead) {
    std::int64_t events = 0;
    for (std::uint64_t seed = 1; seed <= 60; ++seed) {
        GeneratorOptions o{static_cast<std::int64_t>(1 + seed * 7 % 40), 200 + static_cast<Tick>(seed * 131 % 3000),
                           seed, seed % 2 == 0, seed % 4 != 0};
        // A third with time on the wire (answers later, late applications),
        // a third with replicas (WAIT, promoting failovers).
        o.latencies = seed % 3 == 1;
        o.replication = seed % 3 == 2;
        events += compare_runs(test::generated_scenario(o), "generated seed " + std::to_string(seed));
    }
    EXPECT_GT(events, 10'000);
}

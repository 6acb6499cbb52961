// The pure helpers behind the Live and Find panels: markers built from a bare
// trace, the Redis password kept out of sight, the violation a counterexample
// opens on.
#include "support/preset_loader.hpp"
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "core/trace_lanes.hpp"
#include "leasescope/redis/redis_url.hpp"
#include "leasescope/sim/explorer.hpp"
#include "leasescope/sim/scenario.hpp"

using namespace leasescope;
using namespace leasescope::gui;
// The typed-URL helpers the Live panel uses live beside the URL parser.
using leasescope::redis::join_redis_password;
using leasescope::redis::redact_redis_url;
using leasescope::redis::split_redis_password;

namespace {

sim::Scenario trace_lanes_preset(const std::string& name) { return test::load_preset(name); }

}  // namespace

// Every event of a trace becomes exactly one marker, on its node's lane (in
// the header's order) or on the trailing store lane, pointing back at it.
TEST(TraceLanes, EveryEventIsOneMarkerOnItsNodesLane) {
    sim::Timeline timeline(trace_lanes_preset("failover-lost-lock"));
    const sim::Trace& trace = timeline.trace();
    const LaneModel model = build_trace_lanes(trace, timeline.scenario().resource);
    ASSERT_EQ(model.candidate_lanes, static_cast<std::int32_t>(trace.header.candidates.size()));
    ASSERT_EQ(model.lanes.size(), trace.header.candidates.size() + 1);
    std::size_t markers = 0;
    for (std::size_t li = 0; li < model.lanes.size(); ++li) {
        for (const Marker& m : model.lanes[li].markers) {
            ++markers;
            const sim::Event& e = trace.events.at(static_cast<std::size_t>(m.event));
            EXPECT_EQ(m.tick, e.tick);
            if (li < trace.header.candidates.size())
                EXPECT_EQ(e.node, trace.header.candidates[li]);
            else
                EXPECT_TRUE(std::find(trace.header.candidates.begin(), trace.header.candidates.end(), e.node) ==
                            trace.header.candidates.end());
        }
    }
    EXPECT_EQ(markers, trace.events.size());
    EXPECT_GE(model.end_tick, trace.events.back().tick);
}

// The password is split off into its own (masked) field and never shown.
TEST(TraceLanes, RedisPasswordIsSplitAndRedacted) {
    auto p = split_redis_password("redis://user:s3cret@host:6390/2");
    EXPECT_EQ(p.url, "redis://user@host:6390/2");
    EXPECT_EQ(p.password, "s3cret");
    EXPECT_EQ(join_redis_password(p.url, p.password), "redis://user:s3cret@host:6390/2");
    p = split_redis_password("redis://:pw@127.0.0.1:6379");
    EXPECT_EQ(p.url, "redis://127.0.0.1:6379");
    EXPECT_EQ(p.password, "pw");
    EXPECT_EQ(join_redis_password(p.url, p.password), "redis://:pw@127.0.0.1:6379");
    p = split_redis_password("redis://127.0.0.1:6390");
    EXPECT_EQ(p.url, "redis://127.0.0.1:6390");
    EXPECT_EQ(p.password, "");
    EXPECT_EQ(join_redis_password("redis://127.0.0.1:6390", ""), "redis://127.0.0.1:6390");
    EXPECT_EQ(redact_redis_url("redis://user:s3cret@host:6390"), "redis://user:***@host:6390");
    EXPECT_EQ(redact_redis_url("redis://:a@b@host"), "redis://:***@host");
    EXPECT_EQ(redact_redis_url("redis://host:1"), "redis://host:1");
    EXPECT_EQ(redact_redis_url("not a url"), "not a url");
}

// A counterexample to gc-pause-no-fencing (its pause removed) opens on the
// unsafe write; a clean run has no violation event.
TEST(TraceLanes, ViolationEventIsTheUnsafeWrite) {
    sim::Scenario base = trace_lanes_preset("gc-pause-no-fencing");
    base.faults.clear();
    sim::Timeline clean(base);
    EXPECT_EQ(violation_event(clean.trace(), true, true, false), -1);
    sim::ExploreOptions options;
    options.properties = sim::Properties{false, true, false, false};
    auto explorer = sim::Explorer::create(base, options);
    ASSERT_TRUE(explorer.ok());
    const sim::ExploreReport report = sim::explore(explorer.value(), sim::ExploreRun{});
    ASSERT_TRUE(report.found.has_value());
    const sim::Counterexample ce = sim::make_counterexample(explorer.value(), *report.found);
    const std::int64_t k = violation_event(ce.trace, true, false, false);
    ASSERT_GE(k, 0);
    const sim::Event& e = ce.trace.events[static_cast<std::size_t>(k)];
    EXPECT_EQ(e.op, sim::EventOp::write);
    EXPECT_TRUE(e.details.has(sim::Detail::unsafe_write));
}

// The Find panel opens a counterexample on the first mark of a checked
// property, the safety marks of model.md §9.6-§9.8 included: in
// failover-fencing-regressed the duplicate number at tick 4, the lost update
// at tick 8; nothing when only an unmarked property is checked.
TEST(TraceLanes, ViolationEventFindsTheSafetyMarks) {
    const sim::Timeline t(trace_lanes_preset("failover-fencing-regressed"));
    sim::Properties duplicate{false, false, false, false, false, false, true};
    const std::int64_t d = violation_event(t.trace(), duplicate);
    ASSERT_GE(d, 0);
    EXPECT_EQ(t.trace().events[static_cast<std::size_t>(d)].tick, 4);
    EXPECT_EQ(t.trace().events[static_cast<std::size_t>(d)].op, sim::EventOp::acquire);
    sim::Properties lost{false, false, false, false, true, false, false};
    const std::int64_t l = violation_event(t.trace(), lost);
    ASSERT_GE(l, 0);
    EXPECT_EQ(t.trace().events[static_cast<std::size_t>(l)].tick, 8);
    EXPECT_TRUE(t.trace().events[static_cast<std::size_t>(l)].details.has(sim::Detail::stale_after_successor));
    EXPECT_EQ(violation_event(t.trace(), sim::Properties{false, false, false, false, false, true, false}), -1);
}

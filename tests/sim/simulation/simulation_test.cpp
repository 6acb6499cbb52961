// Scheduler tests: the phases of a tick (docs/model.md §6), faults (§7), resource (§8),
// invariants (§9), determinism (§10) and snapshots.
#include "support/preset_loader.hpp"
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "leasescope/sim/simulation.hpp"

using namespace leasescope;
using namespace leasescope::sim;

namespace {

Scenario parse(const std::string& text) {
    auto s = parse_scenario(text, "inline.json");
    EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().to_string());
    return s.value();
}

Scenario simulation_preset(const std::string& name) { return test::load_preset(name); }

using test::preset_names;

// Events matching tick, node and op.
std::vector<Event> find(const Trace& t, Tick tick, const std::string& node, EventOp op) {
    std::vector<Event> out;
    for (const Event& e : t.events)
        if (e.tick == tick && e.node == node && e.op == op) out.push_back(e);
    return out;
}

// The one event in `events` (by value: callers pass temporaries).
Event only(const std::vector<Event>& events) {
    EXPECT_EQ(events.size(), 1u);
    return events.empty() ? Event{} : events[0];
}

const RunSummary& result_of(const Trace& t, const std::string& node, int run = 0) {
    for (const RunSummary& r : t.summary.results)
        if (r.node == node && r.run == run) return r;
    ADD_FAILURE() << "no result for " << node;
    static const RunSummary none{};
    return none;
}

}  // namespace

// The issue's story: node-a acquires at 0, its lease expires at 6 while node-b acquires, its release at 12 is rejected.
TEST(Simulation, ExpiryTakeoverStory) {
    const Trace t = simulate(simulation_preset("expiry-takeover"));
    EXPECT_EQ(only(find(t, 0, "node-a", EventOp::acquire)).outcome, Outcome::acquired);
    const Event& expire = only(find(t, 6, "node-a", EventOp::expire));
    EXPECT_EQ(expire.fencing, 1);
    EXPECT_EQ(expire.slot, 0);
    const Event& b = only(find(t, 6, "node-b", EventOp::acquire));
    EXPECT_EQ(b.outcome, Outcome::acquired);
    EXPECT_EQ(b.fencing, 2);
    EXPECT_LT(expire.seq, b.seq);  // expiry phase before acquire phase
    EXPECT_EQ(only(find(t, 12, "node-a", EventOp::release)).outcome, Outcome::not_owner);
    EXPECT_EQ(only(find(t, 7, "auditor", EventOp::validate)).outcome, Outcome::stale);
    EXPECT_EQ(result_of(t, "node-a").result, "elected");  // the result stands
    EXPECT_EQ(t.summary.violations.overlap, 1);
}

// The default preset with the library's single-lock loop: node-c (start 10,
// wait 2) tries at 10 and 11 while node-b holds, and gives up at 12 without an
// attempt, with a skip event.
TEST(Simulation, ExpiryTakeoverNodeCGivesUpAtItsDeadline) {
    const Trace t = simulate(simulation_preset("expiry-takeover"));
    EXPECT_EQ(only(find(t, 10, "node-c", EventOp::acquire)).outcome, Outcome::busy);
    EXPECT_EQ(only(find(t, 11, "node-c", EventOp::acquire)).outcome, Outcome::busy);
    EXPECT_TRUE(find(t, 12, "node-c", EventOp::acquire).empty());
    const Event skip = only(find(t, 12, "node-c", EventOp::skip));
    EXPECT_EQ(skip.phase, Phase::acquire);
    EXPECT_EQ(skip.outcome, Outcome::skipped);
    EXPECT_EQ(skip.run, 0);
    EXPECT_FALSE(skip.token.empty());
    EXPECT_FALSE(skip.fencing || skip.slot || skip.ttl);
    EXPECT_EQ(result_of(t, "node-c").result, "skipped");
}

// The same contention with the group elector: it attempts at its deadline too,
// and a busy answer there is followed by the skip in the same tick.
TEST(Simulation, GroupAttemptsAtTheDeadlineThenSkips) {
    const char* text = R"({"name":"g","lock":{"elector":"%s"},
      "defaults":{"wait":2,"lease":10,"action":8},
      "candidates":[{"name":"a"},{"name":"b","start":1}]})";
    auto with_elector = [&](const char* kind) {
        std::string doc = text;
        doc.replace(doc.find("%s"), 2, kind);
        return simulate(parse(doc));
    };
    const Trace lock = with_elector("lock");
    EXPECT_EQ(find(lock, 1, "b", EventOp::acquire).size() + find(lock, 2, "b", EventOp::acquire).size(), 2u);
    EXPECT_TRUE(find(lock, 3, "b", EventOp::acquire).empty());
    EXPECT_EQ(only(find(lock, 3, "b", EventOp::skip)).outcome, Outcome::skipped);

    const Trace group = with_elector("group");
    const Event last = only(find(group, 3, "b", EventOp::acquire));
    const Event skip = only(find(group, 3, "b", EventOp::skip));
    EXPECT_EQ(last.outcome, Outcome::busy);
    EXPECT_EQ(skip.seq, last.seq + 1);
}

// A group waiter paused past its deadline attempts once when it wakes and can
// win; a single-lock waiter gives up instead.
TEST(Simulation, PausedPastTheDeadline) {
    const char* text = R"({"name":"p","lock":{"elector":"%s"},
      "defaults":{"wait":2,"lease":3,"action":2},
      "candidates":[{"name":"a"},{"name":"b","start":1}],
      "faults":[{"kind":"pause","node":"b","at":2,"ticks":4}]})";
    auto with_elector = [&](const char* kind) {
        std::string doc = text;
        doc.replace(doc.find("%s"), 2, kind);
        return simulate(parse(doc));
    };
    const Trace lock = with_elector("lock");
    EXPECT_TRUE(find(lock, 6, "b", EventOp::acquire).empty());
    EXPECT_EQ(only(find(lock, 6, "b", EventOp::skip)).outcome, Outcome::skipped);
    EXPECT_EQ(result_of(lock, "b").result, "skipped");
    const Trace group = with_elector("group");
    EXPECT_EQ(only(find(group, 6, "b", EventOp::acquire)).outcome, Outcome::acquired);
    EXPECT_TRUE(find(group, 6, "b", EventOp::skip).empty());
}

// Under a partition at its deadline the single lock gives up (skipped), never
// acquire_failed: the give-up check makes no store call.
TEST(Simulation, LockUnderPartitionAtDeadlineIsSkipped) {
    const Trace t = simulate(parse(R"({"name":"p","defaults":{"wait":2,"lease":10,"action":8},
      "candidates":[{"name":"a"},{"name":"b","start":1}],
      "faults":[{"kind":"partition","node":"b","at":3,"ticks":2}]})"));
    EXPECT_EQ(only(find(t, 3, "b", EventOp::skip)).outcome, Outcome::skipped);
    EXPECT_EQ(result_of(t, "b").result, "skipped");
}

// The watchdog on the library's period: lease 10 ticks of 50 ms extends every
// 166 ms, at +3, +7, +10, +13 after the acquisition.
TEST(Simulation, WatchdogLibraryCadence) {
    const Trace t = simulate(parse(R"({"name":"w","defaults":{"wait":0,"lease":10,"action":14,"auto_extend":true},
      "candidates":[{"name":"a","start":2}]})"));
    std::vector<Tick> ticks;
    for (const Event& e : t.events)
        if (e.op == EventOp::extend) ticks.push_back(e.tick);
    EXPECT_EQ(ticks, (std::vector<Tick>{5, 9, 12, 15}));
}

// Lease 2 ticks (100 ms): every 33 ms, so two extensions fall in some ticks.
TEST(Simulation, WatchdogSeveralExtensionsInOneTick) {
    const Trace t = simulate(parse(R"({"name":"w","defaults":{"wait":0,"lease":2,"action":4,"auto_extend":true},
      "candidates":[{"name":"a"}]})"));
    std::vector<Tick> ticks;
    for (const Event& e : t.events)
        if (e.op == EventOp::extend) {
            ticks.push_back(e.tick);
            EXPECT_EQ(e.outcome, Outcome::renewed);
        }
    EXPECT_EQ(ticks, (std::vector<Tick>{1, 1, 2, 3, 3}));
}

// Regression: in resource mode validate the resource never compares fencing
// numbers, so a write with a number below the highest accepted is a plain
// accepted write, never unsafe_write (model.md §8). The scenario is the one
// that showed the bug (node-e's write at tick 21 after a failover lose=all).
TEST(Simulation, ValidateModeHasNoUnsafeWrite) {
    const Trace t = simulate(parse(R"({"name":"v","seed":3564066326,"horizon":60,
      "lock":{"capacity":1,"fencing_start":33},"resource":{"mode":"validate"},
      "defaults":{"wait":3,"lease":4,"min_lease":1,"auto_extend":true,"retry_every":2,"action":9,"extend_every":1},
      "candidates":[{"name":"node-a","start":0,"writes":[5],"fail_at":2},
                    {"name":"node-b","start":5,"action":8,"writes":[2,4]},
                    {"name":"node-c","start":1,"action":2},
                    {"name":"node-d","start":2,"action":2,"writes":[2]},
                    {"name":"node-e","start":12}],
      "faults":[{"kind":"failover","at":8,"lose":"all"}]})"));
    EXPECT_EQ(t.summary.violations.unsafe_write, 0);
    bool below = false;
    std::optional<Fencing> highest;
    for (const Event& e : t.events) {
        EXPECT_FALSE(e.details.has(Detail::unsafe_write)) << e.tick << " " << e.node;
        if (e.op != EventOp::write || e.outcome != Outcome::accepted) continue;
        if (highest && *e.fencing < *highest) below = true;
        highest = highest ? std::max(*highest, *e.fencing) : *e.fencing;
    }
    EXPECT_TRUE(below);  // the case the bug needed: an accepted write below the highest
}

// Every preset gives the same hash when run twice in one process, and seq counts from 0.
TEST(Simulation, DeterministicTwiceInOneProcess) {
    for (const auto& name : preset_names()) {
        const Scenario s = simulation_preset(name);
        const Trace a = simulate(s);
        const Trace b = simulate(s);
        EXPECT_EQ(a.summary.trace_sha256, b.summary.trace_sha256) << name;
        for (std::size_t i = 0; i < a.events.size(); ++i) EXPECT_EQ(a.events[i].seq, static_cast<std::int64_t>(i));
    }
}

// Tokens are drawn from splitmix64(seed) in processing order, 8 Base58 characters each.
TEST(Simulation, TokensFollowTheSeed) {
    const Trace t = simulate(simulation_preset("contention"));
    SplitMix64 rng(1);
    EXPECT_EQ(only(find(t, 0, "node-a", EventOp::start)).token, draw_token(rng));
    EXPECT_EQ(only(find(t, 1, "node-b", EventOp::start)).token, draw_token(rng));
    EXPECT_EQ(only(find(t, 9, "node-c", EventOp::start)).token, draw_token(rng));
}

// order = shuffled permutes the acting nodes with Fisher-Yates from the same generator, then draws tokens.
TEST(Simulation, ShuffledOrderIsSeededFisherYates) {
    const Scenario s = parse(R"({"name":"race","seed":42,"order":"shuffled",
      "defaults":{"wait":0,"lease":5,"action":2},
      "candidates":[{"name":"a"},{"name":"b"},{"name":"c"},{"name":"d"}]})");
    SplitMix64 rng(42);
    std::vector<std::string> order = {"a", "b", "c", "d"};
    for (std::size_t i = order.size(); i-- > 1;) std::swap(order[i], order[rng.next() % (i + 1)]);
    const Trace t = simulate(s);
    std::vector<std::string> starts;
    for (const Event& e : t.events)
        if (e.op == EventOp::start) starts.push_back(e.node);
    EXPECT_EQ(starts, order);
    EXPECT_EQ(only(find(t, 0, order[0], EventOp::start)).token, draw_token(rng));
    EXPECT_EQ(only(find(t, 0, order[0], EventOp::acquire)).outcome, Outcome::acquired);
}

// A pause covers p..p+k-1: pause and resume are emitted whatever the node's state; a second crash emits nothing.
TEST(Simulation, FaultEventsAndOrder) {
    const Scenario s = parse(R"({"name":"f","horizon":30,
      "defaults":{"wait":0,"lease":5,"action":3},
      "candidates":[{"name":"a","start":0},{"name":"b","start":20}],
      "faults":[{"kind":"crash","node":"a","at":1},{"kind":"pause","node":"a","at":2,"ticks":3},
                {"kind":"crash","node":"a","at":4},{"kind":"partition","node":"b","at":2,"ticks":1}]})");
    const Trace t = simulate(s);
    std::vector<std::pair<Tick, EventOp>> faults;
    for (const Event& e : t.events)
        if (e.phase == Phase::faults) faults.push_back({e.tick, e.op});
    const std::vector<std::pair<Tick, EventOp>> expected = {
        {1, EventOp::crash}, {2, EventOp::pause}, {2, EventOp::partition}, {3, EventOp::heal}, {5, EventOp::resume}};
    EXPECT_EQ(faults, expected);
    EXPECT_EQ(result_of(t, "a").result, "crashed");
    EXPECT_EQ(result_of(t, "a").fencing, 1);
}

// A paused node's run starts at its first active tick; its progress does not grow while paused.
TEST(Simulation, PauseDelaysStartAndProgress) {
    const Scenario s = parse(R"({"name":"p","defaults":{"wait":0,"lease":20,"action":3},
      "candidates":[{"name":"a","start":1}],
      "faults":[{"kind":"pause","node":"a","at":0,"ticks":3},{"kind":"pause","node":"a","at":4,"ticks":2}]})");
    const Trace t = simulate(s);
    EXPECT_EQ(only(find(t, 3, "a", EventOp::start)).run, 0);
    // Acquired at 3; active ticks after it: 6, 7, 8 (4 and 5 paused).
    EXPECT_EQ(only(find(t, 8, "a", EventOp::release)).outcome, Outcome::released);
}

// drop_requests: a release never reaches the store, the record is left to expire.
TEST(Simulation, PartitionDropRequestsRelease) {
    const Scenario s = parse(R"({"name":"p","defaults":{"wait":0,"lease":10,"action":2},
      "candidates":[{"name":"a"}],
      "faults":[{"kind":"partition","node":"a","at":1,"ticks":3}]})");
    const Trace t = simulate(s);
    const Event& rel = only(find(t, 2, "a", EventOp::release));
    EXPECT_EQ(rel.outcome, Outcome::error);
    EXPECT_FALSE(rel.slot.has_value());
    EXPECT_EQ(only(find(t, 10, "a", EventOp::expire)).outcome, Outcome::expired);
    EXPECT_EQ(result_of(t, "a").result, "elected");
}

// drop_replies: the library reads the record before it sends the release
// script, and that read fails too, so the release never reaches the store:
// the node sees an error and the record waits for its TTL.
TEST(Simulation, PartitionDropRepliesRelease) {
    const Scenario s = parse(R"({"name":"p","defaults":{"wait":0,"lease":10,"action":2},
      "candidates":[{"name":"a"}],
      "faults":[{"kind":"partition","node":"a","at":1,"ticks":3,"mode":"drop_replies"}]})");
    const Trace t = simulate(s);
    const Event& rel = only(find(t, 2, "a", EventOp::release));
    EXPECT_EQ(rel.outcome, Outcome::error);
    EXPECT_FALSE(rel.slot.has_value());
    EXPECT_EQ(only(find(t, 10, "a", EventOp::expire)).outcome, Outcome::expired);
    EXPECT_EQ(t.summary.end_tick, 10);
}

// drop_replies on acquire: the trace shows the applied slot and fencing with reply_lost; the run is acquire_failed.
TEST(Simulation, LostReplyOrphan) {
    const Trace t = simulate(simulation_preset("lost-reply-orphan"));
    const Event& a = only(find(t, 2, "node-a", EventOp::acquire));
    EXPECT_EQ(a.outcome, Outcome::error);
    EXPECT_EQ(a.details, Details{Detail::reply_lost});
    EXPECT_EQ(a.fencing, 1);
    EXPECT_EQ(a.slot, 0);
    EXPECT_EQ(a.ttl, 6);
    EXPECT_EQ(result_of(t, "node-a").result, "acquire_failed");
    EXPECT_FALSE(result_of(t, "node-a").fencing.has_value());
    EXPECT_EQ(only(find(t, 8, "node-b", EventOp::acquire)).outcome, Outcome::acquired);
}

// failover: vanished slots emit no expire; lose=all reissues fencing numbers, flagged fencing_regressed.
TEST(Simulation, FailoverLeasesAndAll) {
    const Trace leases = simulate(simulation_preset("failover-lost-lock"));
    for (const Event& e : leases.events) EXPECT_NE(e.op, EventOp::expire);
    EXPECT_EQ(only(find(leases, 4, "node-b", EventOp::acquire)).fencing, 2);
    EXPECT_EQ(only(find(leases, 8, "node-a", EventOp::write)).outcome, Outcome::rejected);
    EXPECT_EQ(leases.summary.violations.fencing_regressed, 0);

    const Trace all = simulate(simulation_preset("failover-fencing-regressed"));
    const Event& b = only(find(all, 4, "node-b", EventOp::acquire));
    EXPECT_EQ(b.fencing, 1);
    EXPECT_EQ(b.details, (Details{Detail::fencing_regressed, Detail::fencing_duplicate}));
    EXPECT_EQ(all.summary.violations.fencing_regressed, 1);
}

// Resource modes: off accepts and flags unsafe_write; check rejects lower fencing; validate needs a current token.
TEST(Simulation, ResourceModes) {
    const Trace off = simulate(simulation_preset("gc-pause-no-fencing"));
    const Event& late = only(find(off, 15, "node-a", EventOp::write));
    EXPECT_EQ(late.outcome, Outcome::accepted);
    // The late write is also a lost update: node-b acquired later and wrote first (§9.6).
    EXPECT_EQ(late.details, (Details{Detail::stale, Detail::unsafe_write, Detail::stale_after_successor}));
    EXPECT_EQ(detail_text(late), "stale,unsafe_write,stale_after_successor");
    EXPECT_EQ(off.summary.violations.unsafe_write, 1);

    const Trace check = simulate(simulation_preset("gc-pause-fencing"));
    EXPECT_EQ(only(find(check, 15, "node-a", EventOp::write)).outcome, Outcome::rejected);
    EXPECT_EQ(check.summary.violations.unsafe_write, 0);

    // validate: a stale holder's write is rejected even with no newer fencing seen.
    Scenario v = simulation_preset("expiry-takeover");
    v.resource = ResourceMode::validate;
    const Trace val = simulate(v);
    const Event& stale = only(find(val, 12, "node-a", EventOp::write));
    EXPECT_EQ(stale.outcome, Outcome::rejected);
    EXPECT_EQ(stale.details, Details{Detail::stale});
}

// Ops: status is held or vacant; validate of a node that never started is vacant with a null token.
TEST(Simulation, ScriptedOps) {
    const Scenario s = parse(R"({"name":"o","defaults":{"wait":0,"lease":4,"action":2},
      "candidates":[{"name":"a","start":0},{"name":"b","start":9}],
      "ops":[{"at":0,"actor":"x","op":"validate","token_of":"b"},{"at":1,"actor":"x","op":"status"},
             {"at":1,"actor":"y","op":"validate","token_of":"a"},{"at":5,"actor":"x","op":"status"}]})");
    const Trace t = simulate(s);
    const Event& never = only(find(t, 0, "x", EventOp::validate));
    EXPECT_EQ(never.outcome, Outcome::vacant);
    EXPECT_TRUE(never.token.empty());
    EXPECT_EQ(never.named_node, "b");
    EXPECT_EQ(only(find(t, 1, "x", EventOp::status)).outcome, Outcome::held);
    EXPECT_EQ(only(find(t, 1, "y", EventOp::validate)).outcome, Outcome::current);
    EXPECT_EQ(only(find(t, 5, "x", EventOp::status)).outcome, Outcome::vacant);
}

// Overlap: one begin with the count when an episode starts, one end when it falls to N; nothing inside.
TEST(Simulation, OverlapEpisodes) {
    const Trace t = simulate(simulation_preset("group-expiry"));
    std::vector<std::pair<Tick, std::string>> checks;
    for (const Event& e : t.events)
        if (e.phase == Phase::check) checks.push_back({e.tick, std::string(to_string(e.op)) + ":" + detail_text(e)});
    const std::vector<std::pair<Tick, std::string>> expected = {{6, "overlap_begin:3"}, {12, "overlap_end:"}};
    EXPECT_EQ(checks, expected);
    EXPECT_EQ(t.summary.violations.overlap, 1);
}

// The run ends at the first quiet tick, or at the horizon with unfinished runs.
TEST(Simulation, EndsWhenQuietOrAtHorizon) {
    const Trace quiet = simulate(simulation_preset("contention"));
    EXPECT_EQ(quiet.summary.end_tick, 17);
    Scenario s = simulation_preset("contention");
    s.horizon = 5;
    const Trace cut = simulate(s);
    EXPECT_EQ(cut.summary.end_tick, 5);
    EXPECT_EQ(result_of(cut, "node-a").result, "unfinished");
    EXPECT_EQ(result_of(cut, "node-b").result, "skipped");
    const Trace until = simulate(simulation_preset("contention"), 5);
    EXPECT_EQ(until.summary.end_tick, 5);
    EXPECT_EQ(until.events, cut.events);
}

// fail_at ends the action with action_failed and still releases.
TEST(Simulation, FailAtReleases) {
    const Scenario s = parse(R"({"name":"f","defaults":{"wait":0,"lease":10,"action":5,"fail_at":2},
      "candidates":[{"name":"a"}]})");
    const Trace t = simulate(s);
    EXPECT_EQ(only(find(t, 2, "a", EventOp::release)).outcome, Outcome::released);
    EXPECT_EQ(result_of(t, "a").result, "action_failed");
}

// Snapshots from a Timeline equal the state of a fresh run stopped at that tick, at every tick.
TEST(Timeline, SnapshotsMatchFreshRuns) {
    for (const char* name : {"expiry-takeover", "watchdog-pause", "scheduled-job", "failover-lost-lock"}) {
        const Scenario s = simulation_preset(name);
        const Timeline timeline(s, 4);
        EXPECT_EQ(timeline.trace().summary.trace_sha256, simulate(s).summary.trace_sha256);
        for (Tick t = 0; t <= timeline.end_tick(); ++t) {
            Simulation sim(s);
            ModelStore store(s.lock);
            class Null final : public EventSink {
                void on_event(const Event&) override {}
            } null_sink;
            while (sim.next_tick() <= t) ASSERT_TRUE(sim.step(store, null_sink).ok());
            const Snapshot want = take_snapshot(sim, store, t);
            const Snapshot got = timeline.snapshot_at(t);
            ASSERT_EQ(got.nodes.size(), want.nodes.size());
            for (std::size_t i = 0; i < got.nodes.size(); ++i) {
                EXPECT_EQ(got.nodes[i].status, want.nodes[i].status) << name << " tick " << t;
                EXPECT_EQ(got.nodes[i].token, want.nodes[i].token);
                EXPECT_EQ(got.nodes[i].progress, want.nodes[i].progress);
            }
            EXPECT_EQ(got.counter, want.counter);
            EXPECT_EQ(got.resource.highest_accepted, want.resource.highest_accepted);
        }
    }
}

// The omniscient view: after expiry the old holder is stale while it still believes it leads.
TEST(Timeline, StaleHolderAtTheLesson) {
    const Timeline timeline(simulation_preset("expiry-takeover"));
    const Snapshot at5 = timeline.snapshot_at(5);
    EXPECT_EQ(at5.nodes[0].status, NodeStatus::running);
    const Snapshot at7 = timeline.snapshot_at(7);
    EXPECT_EQ(at7.nodes[0].status, NodeStatus::stale);
    EXPECT_TRUE(at7.nodes[0].believes_leader);
    EXPECT_EQ(at7.nodes[1].status, NodeStatus::running);
    EXPECT_EQ(at7.nodes[2].status, NodeStatus::idle);
    EXPECT_TRUE(at7.in_overlap);
    EXPECT_EQ(at7.slots[0].owner, "node-b");
    EXPECT_EQ(timeline.snapshot_at(100).tick, timeline.end_tick());
}

// A run past trace_events_max is cut after the tick that passes the limit, with an error naming the
// constant and that tick; the app and explain refuse such a timeline (model.md §11.6). At the limit exactly,
// nothing is said.
TEST(Timeline, StopsPastTraceEventsMax) {
    const Scenario s = simulation_preset("expiry-takeover");
    const Timeline whole(s);
    const auto total = static_cast<std::int64_t>(whole.trace().events.size());
    ASSERT_GT(total, 12);
    EXPECT_EQ(whole.limit_error(), "");
    EXPECT_EQ(Timeline(s, 64, Timeline::default_checkpoint_bytes_max, nullptr, total).limit_error(), "");

    const std::int64_t max = total / 2;
    const Timeline cut(s, 64, Timeline::default_checkpoint_bytes_max, nullptr, max);
    const auto& events = cut.trace().events;
    ASSERT_GT(static_cast<std::int64_t>(events.size()), max);
    const Tick passed = events.back().tick;
    // Cut right after the tick that passed the limit: before it, the limit still held.
    EXPECT_LE(static_cast<std::int64_t>(cut.first_event_at_or_after(passed)), max);
    EXPECT_EQ(cut.first_event_at_or_after(passed + 1), events.size());
    EXPECT_EQ(cut.end_tick(), passed);
    EXPECT_NE(cut.limit_error().find("trace_events_max"), std::string::npos) << cut.limit_error();
    EXPECT_NE(cut.limit_error().find("expiry-takeover: the run emits more than " + std::to_string(max) +
                                     " events by tick " + std::to_string(passed)),
              std::string::npos)
        << cut.limit_error();
    EXPECT_EQ(cut.snapshot_at(passed).tick, passed);
}

// A pause that ends at the tick the next one begins leaves the node paused, whichever is listed first.
TEST(Simulation, BackToBackPausesInAnyListOrder) {
    for (const char* faults :
         {R"([{"kind":"pause","node":"a","at":5,"ticks":3},{"kind":"pause","node":"a","at":2,"ticks":3}])",
          R"([{"kind":"pause","node":"a","at":2,"ticks":3},{"kind":"pause","node":"a","at":5,"ticks":3}])"}) {
        SCOPED_TRACE(faults);
        const Trace t = simulate(parse(std::string(R"({"name":"p","defaults":{"wait":0,"lease":30,"action":3},
          "candidates":[{"name":"a","start":0}],"faults":)") +
                                       faults + "}"));
        // Acquired at 0, progress 1 at tick 1, paused 2..7, then 8 and 9: the action ends at 9.
        EXPECT_EQ(only(find(t, 9, "a", EventOp::release)).outcome, Outcome::released);
    }
}

// A partition that heals at the tick the next one begins keeps the node cut off, in the new mode.
TEST(Simulation, BackToBackPartitionsInAnyListOrder) {
    for (
        const char* faults :
        {R"([{"kind":"partition","node":"a","at":3,"ticks":5,"mode":"drop_replies"},{"kind":"partition","node":"a","at":1,"ticks":2}])",
         R"([{"kind":"partition","node":"a","at":1,"ticks":2},{"kind":"partition","node":"a","at":3,"ticks":5,"mode":"drop_replies"}])"}) {
        SCOPED_TRACE(faults);
        const Trace t = simulate(parse(std::string(R"({"name":"p","defaults":{"wait":0,"lease":30,"action":4},
          "candidates":[{"name":"a","start":0}],"faults":)") +
                                       faults + "}"));
        // The release at 4 falls in the second partition (drop_replies): an
        // error, and the record is left to expire at 30.
        EXPECT_EQ(only(find(t, 4, "a", EventOp::release)).outcome, Outcome::error);
        EXPECT_EQ(only(find(t, 30, "a", EventOp::expire)).outcome, Outcome::expired);
    }
}

// Fault edges due at one tick go in the order their faults are listed, starts
// and ends alike (model.md §6.1): not all starts before all ends.
TEST(Simulation, FaultEdgesAtOneTickGoInListOrder) {
    const std::string pause_a = R"({"kind":"pause","node":"a","at":0,"ticks":3})";
    const std::string pause_b = R"({"kind":"pause","node":"b","at":3,"ticks":2})";
    const auto at_three = [&](const std::string& faults) {
        const Trace t = simulate(parse(R"({"name":"p","defaults":{"wait":0,"lease":30,"action":2},
          "candidates":[{"name":"a","start":8},{"name":"b","start":8}],"faults":[)" +
                                       faults + "]}"));
        std::vector<std::pair<std::string, EventOp>> out;
        for (const Event& e : t.events)
            if (e.tick == 3 && e.phase == Phase::faults) out.push_back({e.node, e.op});
        return out;
    };
    using Edges = std::vector<std::pair<std::string, EventOp>>;
    EXPECT_EQ(at_three(pause_a + "," + pause_b), (Edges{{"a", EventOp::resume}, {"b", EventOp::pause}}));
    EXPECT_EQ(at_three(pause_b + "," + pause_a), (Edges{{"b", EventOp::pause}, {"a", EventOp::resume}}));
}

// A lost busy reply is a plain error, busy{hold_off} included: no slot,
// fencing or ttl, and the run ends acquire_failed (model.md §14.5).
TEST(Simulation, LostHoldOffReplyIsAPlainError) {
    const Trace t = simulate(parse(R"({"name":"h","defaults":{"wait":5,"lease":30,"action":1},
      "candidates":[{"name":"a","start":0,"hold_off":10},{"name":"b","start":2}],
      "faults":[{"kind":"partition","node":"b","at":2,"ticks":3,"mode":"drop_replies"}]})"));
    const Event e = only(find(t, 2, "b", EventOp::acquire));
    EXPECT_EQ(e.outcome, Outcome::error);
    EXPECT_FALSE(e.slot.has_value());
    EXPECT_FALSE(e.fencing.has_value());
    EXPECT_FALSE(e.ttl.has_value());
    EXPECT_EQ(result_of(t, "b").result, "acquire_failed");
}

// An extend under drop_replies after the lease is gone: the watchdog counts
// the error as transient and runs again; it learns `lost` (and stops) only at
// its first run after the heal (model.md §14.6, §5.5).
TEST(Simulation, WatchdogLearnsLostOnlyAfterTheHeal) {
    const Trace t = simulate(parse(R"({"name":"w","horizon":40,
      "candidates":[{"name":"a","start":0,"wait":0,"lease":6,"auto_extend":true,"action":30}],
      "faults":[{"kind":"pause","node":"a","at":1,"ticks":8},
                {"kind":"partition","node":"a","at":9,"ticks":6,"mode":"drop_replies"}]})"));
    std::vector<std::pair<Tick, Outcome>> extends;
    for (const Event& e : t.events)
        if (e.op == EventOp::extend) extends.push_back({e.tick, e.outcome});
    ASSERT_GE(extends.size(), 3u);
    for (const auto& [tick, outcome] : extends) {
        if (tick < 15) {
            EXPECT_EQ(outcome, Outcome::error) << "tick " << tick;
        }
    }
    EXPECT_EQ(extends.back().second, Outcome::lost);
    EXPECT_GE(extends.back().first, 15);
    for (std::size_t i = 0; i + 1 < extends.size(); ++i) EXPECT_NE(extends[i].second, Outcome::lost);
}

namespace {

// model.md §9.6-§9.8: node z takes fencing 1 and releases; node a takes 2
// and keeps working; a failover that loses the counter at 4 lets node b take
// 1 again (a duplicate of z's); b writes at 6, then a, stale, writes at 12
// with the HIGHER number 2.
Scenario equal_numbers(const std::string& mode) {
    return parse(R"({"name":"s","resource":{"mode":")" + mode + R"("},"defaults":{"wait":0,"lease":20},
      "candidates":[{"name":"z","start":0,"action":1},{"name":"a","start":2,"action":10},
                    {"name":"b","start":5,"action":2,"writes":[1]}],
      "faults":[{"kind":"failover","at":4,"lose":"all"}]})");
}

}  // namespace

// stale_after_successor (§9.6) is judged on the data, whatever the numbers
// say: a's write lands after the write of b, who acquired the slot later. Mode
// off takes it without an unsafe_write (2 is not below 1), check takes it
// too (the fence sees 2 >= 1), validate refuses it (a is stale).
TEST(Simulation, StaleAfterSuccessorWhateverTheNumbers) {
    for (const char* mode : {"off", "check"}) {
        SCOPED_TRACE(mode);
        const Trace t = simulate(equal_numbers(mode));
        const Event w = only(find(t, 12, "a", EventOp::write));
        EXPECT_EQ(w.fencing, 2);
        EXPECT_EQ(w.outcome, Outcome::accepted);
        EXPECT_EQ(w.details, (Details{Detail::stale, Detail::stale_after_successor}));
        EXPECT_EQ(t.summary.violations.stale_after_successor, 1);
        EXPECT_EQ(t.summary.violations.unsafe_write, 0);
        EXPECT_EQ(only(find(t, 6, "b", EventOp::write)).details, Details{});
    }
    const Trace v = simulate(equal_numbers("validate"));
    EXPECT_EQ(only(find(v, 12, "a", EventOp::write)).details, Details{Detail::stale});
    EXPECT_EQ(v.summary.violations.stale_after_successor, 0);
}

// fencing_duplicate (§9.8): b is issued 1, which z was issued before; a
// failover that keeps the counter issues no number twice.
TEST(Simulation, FencingDuplicateAfterTheCounterIsLost) {
    const Trace t = simulate(equal_numbers("check"));
    const Event b = only(find(t, 5, "b", EventOp::acquire));
    EXPECT_EQ(b.fencing, 1);
    EXPECT_EQ(b.details, (Details{Detail::fencing_regressed, Detail::fencing_duplicate}));
    EXPECT_EQ(t.summary.violations.fencing_duplicate, 1);
    Scenario kept = equal_numbers("check");
    kept.faults[0].lose = FailoverLoss::leases;
    const Trace k = simulate(kept);
    EXPECT_EQ(only(find(k, 5, "b", EventOp::acquire)).fencing, 3);
    EXPECT_EQ(k.summary.violations.fencing_duplicate, 0);
}

namespace {

// A leader group of two slots: a takes slot 0 (fencing 1) and writes at 4;
// b takes slot 1 (fencing 2) and writes at 1. With `c`, a's lease (2 ticks)
// ends at 2 and c takes slot 0 (fencing 3), writing at 3, before a.
Scenario group_of_two(const std::string& mode, bool with_c) {
    std::string c = with_c ? R"(,{"name":"c","start":2,"lease":10,"action":2,"writes":[1]})" : "";
    return parse(R"({"name":"g","lock":{"capacity":2},"resource":{"mode":")" + mode + R"("},
      "defaults":{"wait":0,"lease":)" +
                 std::string(with_c ? "2" : "10") + R"(},
      "candidates":[{"name":"a","start":0,"action":5,"writes":[4]},
                    {"name":"b","start":0,"lease":10,"action":2,"writes":[1]})" +
                 c + "]}");
}

}  // namespace

// A group is judged per slot (§9.6): a writes after b, who acquired later but
// holds the other slot, and loses nothing; mode off still counts the lower
// number as an unsafe_write. In check mode the fence refuses a, whose lease
// is valid: holder_rejected (§9.7).
TEST(Simulation, GroupWritesAcrossSlots) {
    const Trace off = simulate(group_of_two("off", false));
    const Event a = only(find(off, 4, "a", EventOp::write));
    EXPECT_EQ(a.outcome, Outcome::accepted);
    EXPECT_EQ(a.details, Details{Detail::unsafe_write});
    EXPECT_EQ(off.summary.violations.stale_after_successor, 0);

    const Trace check = simulate(group_of_two("check", false));
    const Event r = only(find(check, 4, "a", EventOp::write));
    EXPECT_EQ(r.outcome, Outcome::rejected);
    EXPECT_EQ(r.details, Details{Detail::holder_rejected});
    EXPECT_EQ(check.summary.violations.holder_rejected, 1);

    const Trace validate = simulate(group_of_two("validate", false));
    EXPECT_EQ(only(find(validate, 4, "a", EventOp::write)).details, Details{});
    EXPECT_EQ(validate.summary.violations.holder_rejected, 0);
}

// In a group, the next holder of the writer's own slot is its successor: c
// takes slot 0 after a's lease ended and writes first; a's late write is a
// lost update (§9.6).
TEST(Simulation, GroupSuccessorOfTheSameSlot) {
    const Trace t = simulate(group_of_two("off", true));
    const Event c = only(find(t, 2, "c", EventOp::acquire));
    EXPECT_EQ(c.slot, 0);
    const Event a = only(find(t, 4, "a", EventOp::write));
    EXPECT_TRUE(a.details.has(Detail::stale_after_successor));
    EXPECT_TRUE(a.details.has(Detail::stale));
    EXPECT_EQ(t.summary.violations.stale_after_successor, 1);
}

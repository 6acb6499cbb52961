// Pins the rules of a candidate and what it resolves to: relations between
// its keys, safe names, the defaults of the design, the lock's elector and
// the "defaults" object.
#include "support/scenario_test_helpers.hpp"

namespace {

using namespace scenario_test;

// ---------------------------------------------------------------- candidate rules

TEST(ScenarioCandidates, MinLeaseAboveLeaseIsReportedWhereMinLeaseCameFrom) {
    // min_lease > lease names the candidate's min_lease, or /defaults/min_lease when it came from there.
    EXPECT_TRUE(
        rejected(with(base(), "/candidates/1/min_lease", 7), "/candidates/1/min_lease", {"min_lease 7", "lease 6"}));
    json doc = with(base(), "/defaults/min_lease", 5);
    doc["candidates"][1]["lease"] = 3;
    EXPECT_TRUE(rejected(doc, "/defaults/min_lease", {"min_lease 5", "lease 3"}));
    EXPECT_TRUE(accepted(with(base(), "/defaults/min_lease", 6)));
}

TEST(ScenarioCandidates, WritesMustBeStrictlyIncreasing) {
    // A write offset equal to or below the previous one is rejected at its index.
    EXPECT_TRUE(rejected(with(base(), "/candidates/0/writes", json::array({2, 2})), "/candidates/0/writes/1",
                         {"strictly increasing", "2 follows 2"}));
    EXPECT_TRUE(rejected(with(base(), "/candidates/1/writes", json::array({1, 3, 2})), "/candidates/1/writes/2",
                         {"strictly increasing", "2 follows 3"}));
}

TEST(ScenarioCandidates, WritesMustLieWithinTheAction) {
    // Offsets are in [1, action]; the range uses the candidate's final action.
    EXPECT_TRUE(rejected(with(base(), "/candidates/0/writes", json::array({1, 5})), "/candidates/0/writes/1",
                         {range(1, 4), "5"}));
    json doc = with(base(), "/defaults/writes", json::array({2, 4}));
    doc["candidates"][1]["action"] = 3;
    EXPECT_TRUE(rejected(doc, "/defaults/writes/1", {range(1, 3)}));
}

TEST(ScenarioCandidates, WritesMustBeAnArrayOfIntegers) {
    // writes given as a number or containing a non-integer is rejected.
    EXPECT_TRUE(rejected(with(base(), "/candidates/0/writes", 4), "/candidates/0/writes",
                         {"expected an array of progress offsets", "4"}));
    EXPECT_TRUE(rejected(with(base(), "/defaults/writes", json::array({1, "2"})), "/defaults/writes/1",
                         {"\"2\" is not a duration", "write ticks as a number (2)"}));
}

TEST(ScenarioCandidates, EmptyWritesMeansNoWrites) {
    // writes: [] is legal and means the action never writes (not the default [action]).
    auto s = accepted(with(base(), "/candidates/0/writes", json::array()));
    ASSERT_TRUE(s);
    EXPECT_TRUE(s->candidates[0].options.writes.empty());
    EXPECT_TRUE(s->candidates[0].writes_given);
    EXPECT_EQ(s->candidates[1].options.writes, std::vector<leasescope::Tick>{4});
    EXPECT_FALSE(s->candidates[1].writes_given);
}

TEST(ScenarioCandidates, FailAtMustLieWithinTheAction) {
    // fail_at is in [1, action]; fail_at = action and writes after fail_at are legal.
    EXPECT_TRUE(rejected(with(base(), "/candidates/0/fail_at", 5), "/candidates/0/fail_at", {range(1, 4)}));
    json doc = with(base(), "/candidates/0/fail_at", 4);
    doc["candidates"][1]["fail_at"] = 1;
    doc["candidates"][1]["writes"] = json::array({2, 3});
    auto s = accepted(doc);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->candidates[0].options.fail_at, 4);
    EXPECT_EQ(s->candidates[1].options.fail_at, 1);
}

TEST(ScenarioCandidates, RunsAboveOneNeedEvery) {
    // runs > 1 without every is rejected at the candidate; every in defaults satisfies it; every with runs 1 is kept.
    EXPECT_TRUE(rejected(with(base(), "/candidates/1/runs", 3), "/candidates/1", {"missing \"every\""}));
    json doc = with(base(), "/defaults/every", 10);
    doc["candidates"][1]["runs"] = 3;
    auto s = accepted(doc);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->candidates[1].options.runs, 3);
    EXPECT_EQ(s->candidates[1].options.every, 10);
    EXPECT_EQ(s->candidates[0].options.runs, 1);
    EXPECT_EQ(s->candidates[0].options.every, 10);
}

TEST(ScenarioCandidates, AutoExtendNeedsExtendEveryBelowLease) {
    // With auto_extend, extend_every >= lease is rejected where extend_every came from.
    json doc = with(base(), "/defaults/auto_extend", true);
    EXPECT_TRUE(rejected(with(doc, "/candidates/0/extend_every", 6), "/candidates/0/extend_every",
                         {"extend_every (6) must be less than lease (6)"}));
    EXPECT_TRUE(rejected(with(doc, "/defaults/extend_every", 9), "/defaults/extend_every", {"less than lease"}));
    EXPECT_TRUE(accepted(with(doc, "/defaults/extend_every", 5)));
}

TEST(ScenarioCandidates, AutoExtendWithALeaseOfOneIsAccepted) {
    // Without extend_every the watchdog runs on the library's period in ms
    // (max(lease_ms / 3, 25)), which needs no relation to the lease in ticks.
    json doc = with(base(), "/defaults/auto_extend", true);
    auto s = accepted(with(doc, "/defaults/lease", 1));
    ASSERT_TRUE(s);
    EXPECT_EQ(s->candidates[0].options.extend_every, 0);
    EXPECT_EQ(Elector("x", s->candidates[0].options).watchdog_period_ms(), 25);
}

TEST(ScenarioCandidates, ExtendEveryWithoutAutoExtendIsIgnoredNotRejected) {
    // extend_every >= lease is legal when auto_extend is off: it is never used.
    auto s = accepted(with(base(), "/candidates/0/extend_every", 50));
    ASSERT_TRUE(s);
    EXPECT_EQ(s->candidates[0].options.extend_every, 50);
    EXPECT_TRUE(s->candidates[0].extend_every_given);
}

TEST(ScenarioCandidates, CandidateNamesMayHoldSpacesButNoControlCharacters) {
    // A candidate name is shown, not used in keys: spaces are fine, empty names and control characters are not.
    auto s = accepted(with(base(), "/candidates/0/name", "node a (primary)"));
    ASSERT_TRUE(s);
    EXPECT_EQ(s->candidates[0].name, "node a (primary)");
    EXPECT_TRUE(rejected(with(base(), "/candidates/0/name", "node\ta"), "/candidates/0/name", {"control characters"}));
    EXPECT_TRUE(rejected(with(base(), "/candidates/1/name", ""), "/candidates/1/name", {"non-empty"}));
}

TEST(ScenarioCandidates, BadDefaultIsReportedEvenWhenEveryCandidateOverridesIt) {
    // A value in defaults is checked for type and range even if no candidate ends up using it.
    json doc = with(base(), "/defaults/hold_off", "soon");
    doc["candidates"][0]["hold_off"] = 1;
    doc["candidates"][1]["hold_off"] = 2;
    EXPECT_TRUE(rejected(doc, "/defaults/hold_off", {"\"soon\" is not a duration"}));
    doc = with(base(), "/defaults/retry_every", -4);
    doc["candidates"][0]["retry_every"] = 1;
    doc["candidates"][1]["retry_every"] = 1;
    EXPECT_TRUE(rejected(doc, "/defaults/retry_every", {range(1, limits::duration_max)}));
}

// ---------------------------------------------------------------- names used as identifiers

TEST(ScenarioNames, ScenarioAndLockNamesAreRestrictedToSafeCharacters) {
    // Scenario and lock names become file names and Redis keys: letters, digits, '-', '_', '.', ':' only.
    for (const std::string bad : {"expiry takeover", "../etc/passwd", "a/b", "lock{1}", "naïve", "a*b"}) {
        SCOPED_TRACE(bad);
        EXPECT_TRUE(rejected(with(base(), "/name", bad), "/name", {"letters, digits", "'-', '_', '.' or ':'"}));
        EXPECT_TRUE(rejected(with(base(), "/lock", json{{"name", bad}}), "/lock/name", {"letters, digits"}));
    }
    EXPECT_TRUE(rejected(with(base(), "/name", ""), "/name", {"non-empty"}));
    EXPECT_TRUE(rejected(with(base(), "/lock", json{{"name", ""}}), "/lock/name", {"non-empty"}));
    json doc = with(base(), "/name", "Job_2.daily:v-1");
    doc["lock"] = {{"name", "billing:invoice-close.v2_x"}};
    auto s = accepted(doc);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->name, "Job_2.daily:v-1");
    EXPECT_EQ(s->lock.name, "billing:invoice-close.v2_x");
}

// ---------------------------------------------------------------- defaults

TEST(ScenarioDefaults, TopLevelDefaultsFollowTheDesign) {
    // Unwritten top-level keys take docs/model.md §11's defaults.
    auto s = accepted(base());
    ASSERT_TRUE(s);
    EXPECT_EQ(s->tick_ms, 50);
    EXPECT_EQ(s->horizon, 1000);
    EXPECT_EQ(s->seed, 0u);
    EXPECT_EQ(s->order, sim::Order::declared);
    EXPECT_EQ(s->lock.name, "lock");
    EXPECT_EQ(s->lock.capacity, 1);
    EXPECT_EQ(s->lock.fencing_start, 1);
    EXPECT_EQ(s->resource, sim::ResourceMode::off);
    EXPECT_TRUE(s->faults.empty());
    EXPECT_TRUE(s->ops.empty());
    EXPECT_TRUE(s->title.en.empty());
    EXPECT_TRUE(s->summary.ko.empty());
}

TEST(ScenarioDefaults, CandidateDefaultsFollowTheDesign) {
    // Unwritten candidate keys: start 0, min_lease 0, no auto_extend, retry_every 1, writes [action], no fail_at, runs 1.
    auto s = accepted(base());
    ASSERT_TRUE(s);
    const ElectorOptions& o = s->candidates[0].options;
    EXPECT_EQ(o.start, 0);
    EXPECT_EQ(o.min_lease, 0);
    EXPECT_FALSE(o.auto_extend);
    EXPECT_EQ(o.retry_every, 1);
    EXPECT_EQ(o.writes, std::vector<leasescope::Tick>{4});
    EXPECT_EQ(o.fail_at, 0);
    EXPECT_EQ(o.hold_off, 0);
    EXPECT_EQ(o.runs, 1);
    EXPECT_EQ(o.every, 0);
    EXPECT_FALSE(s->candidates[0].extend_every_given);
    EXPECT_FALSE(s->candidates[0].writes_given);
    EXPECT_EQ(s->candidates[1].options.start, 3);
}

TEST(ScenarioDefaults, AbsentExtendEveryIsTheLibraryPeriodInMilliseconds) {
    // Without extend_every the period is max(floor(lease * tick_ms / 3), 25) ms,
    // from the candidate's own lease if it has one.
    json doc = with(base(), "/defaults/lease", 10);
    doc["candidates"][1]["lease"] = 2;
    doc["candidates"].push_back({{"name", "node-c"}, {"lease", 8}});
    doc["candidates"].push_back({{"name", "node-d"}, {"lease", 1}});
    auto s = accepted(doc);
    ASSERT_TRUE(s);
    std::vector<std::int64_t> periods;
    for (const auto& c : s->candidates) {
        EXPECT_EQ(c.options.extend_every, 0);
        EXPECT_EQ(c.options.tick_ms, 50);
        periods.push_back(Elector(c.name, c.options).watchdog_period_ms());
    }
    EXPECT_EQ(periods, (std::vector<std::int64_t>{166, 33, 133, 25}));
}

TEST(ScenarioLock, ElectorDefaultsFollowCapacity) {
    // "lock" (the single-leader elector) for capacity 1, "group" for more.
    auto one = accepted(base());
    ASSERT_TRUE(one);
    EXPECT_EQ(one->elector, ElectorKind::lock);
    EXPECT_EQ(one->candidates[0].options.elector, ElectorKind::lock);
    auto three = accepted(with(base(), "/lock/capacity", 3));
    ASSERT_TRUE(three);
    EXPECT_EQ(three->elector, ElectorKind::group);
    EXPECT_EQ(three->candidates[1].options.elector, ElectorKind::group);
}

TEST(ScenarioLock, GroupOfOneIsAllowedLockOfManyIsNot) {
    auto group_of_one = accepted(with(base(), "/lock/elector", "group"));
    ASSERT_TRUE(group_of_one);
    EXPECT_EQ(group_of_one->elector, ElectorKind::group);
    EXPECT_EQ(group_of_one->candidates[0].options.elector, ElectorKind::group);
    json many = with(base(), "/lock/capacity", 2);
    EXPECT_TRUE(rejected(with(many, "/lock/elector", "lock"), "/lock/elector",
                         {"needs capacity 1, found capacity 2", "use \"group\""}));
    EXPECT_TRUE(rejected(with(base(), "/lock/elector", "semaphore"), "/lock/elector", {"unknown value"}));
    EXPECT_TRUE(rejected(with(base(), "/lock/elector", 1), "/lock/elector", {"expected one of lock, group"}));
}

TEST(ScenarioLock, ElectorSurvivesWriteBack) {
    auto s = accepted(with(base(), "/lock/elector", "group"));
    ASSERT_TRUE(s);
    auto back = sim::parse_scenario(sim::scenario_to_json(*s), "back.json");
    ASSERT_TRUE(back.ok()) << back.error().to_string();
    EXPECT_EQ(back.value().elector, ElectorKind::group);
}

TEST(ScenarioDefaults, WritesDefaultToTheFinalAction) {
    // Without writes anywhere, a candidate writes once, at the end of its own action.
    json doc = with(base(), "/candidates/1/action", 9);
    auto s = accepted(doc);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->candidates[0].options.writes, std::vector<leasescope::Tick>{4});
    EXPECT_EQ(s->candidates[1].options.writes, std::vector<leasescope::Tick>{9});
}

TEST(ScenarioDefaults, CandidateKeysWinOverDefaults) {
    // Every key a candidate writes replaces the one in defaults; the rest still come from defaults.
    json doc = base();
    doc["defaults"] = {{"start", 1},       {"wait", 2},           {"lease", 6},
                       {"min_lease", 1},   {"auto_extend", true}, {"extend_every", 2},
                       {"retry_every", 2}, {"action", 4},         {"writes", json::array({1, 4})},
                       {"fail_at", 3},     {"hold_off", 1},       {"runs", 2},
                       {"every", 20}};
    doc["candidates"][1] = {
        {"name", "node-b"},     {"start", 5},        {"wait", 0},        {"lease", 9},  {"min_lease", 9},
        {"auto_extend", false}, {"extend_every", 4}, {"retry_every", 3}, {"action", 7}, {"writes", json::array({7})},
        {"fail_at", 6},         {"hold_off", 0},     {"runs", 1},        {"every", 3}};
    auto s = accepted(doc);
    ASSERT_TRUE(s);
    const ElectorOptions& a = s->candidates[0].options;
    EXPECT_EQ(a.start, 1);
    EXPECT_EQ(a.wait, 2);
    EXPECT_EQ(a.lease, 6);
    EXPECT_EQ(a.min_lease, 1);
    EXPECT_TRUE(a.auto_extend);
    EXPECT_EQ(a.extend_every, 2);
    EXPECT_EQ(a.retry_every, 2);
    EXPECT_EQ(a.action, 4);
    EXPECT_EQ(a.writes, (std::vector<leasescope::Tick>{1, 4}));
    EXPECT_EQ(a.fail_at, 3);
    EXPECT_EQ(a.hold_off, 1);
    EXPECT_EQ(a.runs, 2);
    EXPECT_EQ(a.every, 20);
    const ElectorOptions& b = s->candidates[1].options;
    EXPECT_EQ(b.start, 5);
    EXPECT_EQ(b.wait, 0);
    EXPECT_EQ(b.lease, 9);
    EXPECT_EQ(b.min_lease, 9);
    EXPECT_FALSE(b.auto_extend);
    EXPECT_EQ(b.extend_every, 4);
    EXPECT_EQ(b.retry_every, 3);
    EXPECT_EQ(b.action, 7);
    EXPECT_EQ(b.writes, std::vector<leasescope::Tick>{7});
    EXPECT_EQ(b.fail_at, 6);
    EXPECT_EQ(b.hold_off, 0);
    EXPECT_EQ(b.runs, 1);
    EXPECT_EQ(b.every, 3);
}

TEST(ScenarioDefaults, EveryCandidateReadsEachDefaultOnce) {
    // "defaults" is read once and its values found once for all candidates
    // (Defaults::given points into Defaults::values): every candidate, the
    // last of many too, reads as if it gave each default key itself, and an
    // error in a value that came from there is reported at /defaults/KEY.
    const json values = {{"start", 1},
                         {"wait", 2},
                         {"lease", 6},
                         {"min_lease", 1},
                         {"auto_extend", true},
                         {"extend_every", 2},
                         {"retry_every", 2},
                         {"action", 4},
                         {"writes", json::array({1, 4})},
                         {"fail_at", 3},
                         {"hold_off", 1},
                         {"runs", 2},
                         {"every", 20},
                         {"clock", {{"drift_ppm", 500}}},
                         {"command_timeout", 9},
                         {"network", {{"reply", 2}}},
                         {"check", "validate"},
                         {"wait_timeout", 5}};
    json from_defaults = with(base(), "/defaults", values);
    json written = without(base(), "/defaults");
    from_defaults["candidates"] = json::array();
    written["candidates"] = json::array();
    for (int i = 0; i < 300; ++i) {
        const json name = {{"name", "node-" + std::to_string(i)}};
        from_defaults["candidates"].push_back(name);
        json own = values;
        own.update(name);
        written["candidates"].push_back(own);
    }
    const auto a = accepted(from_defaults);
    const auto b = accepted(written);
    ASSERT_TRUE(a && b);
    EXPECT_EQ(a->candidates.back().options.drift_ppm, 500);
    EXPECT_EQ(a->candidates.back().network.reply, 2);
    EXPECT_EQ(sim::scenario_to_json(*a), sim::scenario_to_json(*b));
    EXPECT_TRUE(rejected(with(from_defaults, "/candidates/299/lease", 1), "/defaults/extend_every",
                         {"extend_every (2) must be less than lease (1)"}));
    EXPECT_TRUE(rejected(with(from_defaults, "/defaults/wait_replicas", 1), "/defaults/wait_replicas",
                         {"wait_replicas 1 needs a store with replicas"}));
}

TEST(ScenarioDefaults, TitleAndSummaryTakeOptionalLanguages) {
    // title and summary are objects with optional "en" and "ko"; a missing language is empty.
    json doc = with(base(), "/title", json{{"ko", "만료"}});
    doc["summary"] = json::object();
    auto s = accepted(doc);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->title.ko, "만료");
    EXPECT_TRUE(s->title.en.empty());
    EXPECT_TRUE(s->summary.en.empty());
}

}  // namespace

// Edits go through the parser: valid edits re-simulate, invalid ones come back
// as the parser's message and leave nothing half-applied.
#include "support/preset_loader.hpp"
#include <gtest/gtest.h>

#include "core/edit.hpp"
#include "core/strings.hpp"
#include "leasescope/sim/simulation.hpp"

using namespace leasescope;
using namespace leasescope::gui;

namespace {

sim::Scenario preset(const char* name) { return test::load_preset(name); }

}  // namespace

TEST(Edit, SetAllChangesEveryCandidate) {
    const auto s = preset("expiry-takeover");
    auto r = apply_edits(s, {Edit{Edit::Kind::set_all, "lease", nlohmann::json(20)}});
    ASSERT_TRUE(r.ok()) << r.error();
    for (const auto& c : r->candidates) EXPECT_EQ(c.options.lease, 20);
    // With a lease longer than the action, nobody goes stale.
    const sim::Trace t = sim::simulate(*r);
    for (const auto& e : t.events) EXPECT_NE(e.outcome, sim::Outcome::not_owner);
}

TEST(Edit, InvalidEditIsRefusedWithTheParsersMessage) {
    const auto s = preset("expiry-takeover");
    auto r = apply_edits(s, {Edit{Edit::Kind::set_all, "min_lease", nlohmann::json(99)}});
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().find("min_lease"), std::string::npos) << r.error();
}

TEST(Edit, FaultInjectionAddsAFault) {
    const auto s = preset("expiry-takeover");
    auto r = apply_edits(s, {pause_fault("node-b", 7, 3)});
    ASSERT_TRUE(r.ok()) << r.error();
    ASSERT_EQ(r->faults.size(), s.faults.size() + 1);
    EXPECT_EQ(r->faults.back().kind, sim::FaultKind::pause);
    EXPECT_EQ(r->faults.back().at, 7);
    auto f = apply_edits(s, {failover_fault(5, FailoverLoss::all)});
    ASSERT_TRUE(f.ok()) << f.error();
    EXPECT_EQ(f->faults.back().kind, sim::FaultKind::failover);
}

TEST(Edit, CandidateCountGrowsAndShrinks) {
    const auto s = preset("expiry-takeover");
    auto grown = apply_edits(s, {Edit{Edit::Kind::set_candidates, "", nlohmann::json(5)}});
    ASSERT_TRUE(grown.ok()) << grown.error();
    EXPECT_EQ(grown->candidates.size(), 5u);
    // Shrinking removes the ops that name a removed candidate (node-a is validated by the auditor).
    auto shrunk = apply_edits(s, {Edit{Edit::Kind::set_candidates, "", nlohmann::json(1)}});
    ASSERT_TRUE(shrunk.ok()) << shrunk.error();
    EXPECT_EQ(shrunk->candidates.size(), 1u);
    auto none = apply_edits(s, {Edit{Edit::Kind::set_candidates, "", nlohmann::json(0)}});
    EXPECT_FALSE(none.ok());
}

TEST(Edit, SavedScenarioParsesBack) {
    const auto s = preset("gc-pause-fencing");
    auto r = apply_edits(s, {Edit{Edit::Kind::set, "/resource/mode", nlohmann::json("off")}});
    ASSERT_TRUE(r.ok());
    auto again = sim::parse_scenario(sim::scenario_to_json(*r), "saved.json");
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(again->resource, sim::ResourceMode::off);
}

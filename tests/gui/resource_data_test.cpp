// The protected data as the writes left it (app/gui/core/resource_data.hpp):
// one value, set by each accepted write, left by each rejected one; a lost
// update (stale_after_successor) shows as the value going back to an older
// holder's. Derived from the trace only, checked on the presets.
#include "support/preset_loader.hpp"

#include <gtest/gtest.h>

#include <map>

#include "core/resource_data.hpp"
#include "core/tour.hpp"
#include "core/words.hpp"
#include "leasescope/sim/simulation.hpp"
#include "support/string_tables.hpp"

using namespace leasescope;
using namespace leasescope::gui;

namespace {

sim::Trace delayed_write(sim::ResourceMode mode) {
    sim::Scenario s = test::load_preset("delayed-write");
    s.resource = mode;
    return sim::simulate(s);
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

// delayed-write in mode off: node-a's write, sent at tick 4 while it held the
// lock, arrives at 12 after node-b's (fencing 2, tick 6) and is accepted; the
// data ends as node-a's older value: the lost update, seen in the data.
TEST(ResourceData, DelayedWriteModeOffEndsWithTheOlderHoldersValue) {
    const sim::Trace trace = delayed_write(sim::ResourceMode::off);
    const ResourceData data = resource_data(trace, trace.events.size());
    ASSERT_EQ(data.writes.size(), 2u);
    const DataWrite& b = data.writes[0];
    const DataWrite& a = data.writes[1];
    EXPECT_EQ(b.node, "node-b");
    EXPECT_EQ(b.fencing, Fencing{2});
    EXPECT_EQ(b.tick, 6);
    EXPECT_EQ(b.sent, 6);
    EXPECT_TRUE(b.accepted);
    EXPECT_FALSE(b.replaced.has_value());
    EXPECT_EQ(a.node, "node-a");
    EXPECT_EQ(a.fencing, Fencing{1});
    EXPECT_EQ(a.sent, 4);
    EXPECT_EQ(a.tick, 12);
    EXPECT_TRUE(a.accepted);
    EXPECT_TRUE(a.lost_update);
    EXPECT_EQ(a.replaced, std::size_t{0});  // over node-b's value
    ASSERT_TRUE(data.value.has_value());
    EXPECT_EQ(data.writes[*data.value].node, "node-a");
    for (const words::Lang lang : {words::Lang::en, words::Lang::ko}) {
        const Strings s = test::string_tables(lang);
        const std::string now = data_now_words(data, s);
        const std::string lost = data_lost_words(data, 1, s);
        const std::string line = data_write_words(data, 1, s);
        EXPECT_TRUE(contains(now, "node-a")) << now;
        EXPECT_TRUE(contains(now, "1")) << now;
        EXPECT_TRUE(contains(lost, "node-a") && contains(lost, "node-b")) << lost;
        EXPECT_TRUE(contains(line, "12") && contains(line, "4")) << line;  // arrived 12, sent 4
        EXPECT_EQ(data_lost_words(data, 0, s), "");
    }
    // Every mark of the write, as the trace has them: stale, unsafe_write, stale_after_successor.
    EXPECT_EQ(data_write_words(data, 1, test::string_tables(words::Lang::en)),
              "t12 node-a #1, sent at t4: accepted (stale writer, unsafe write, lost update) → the data is node-a's");
    EXPECT_EQ(data_write_words(data, 0, test::string_tables(words::Lang::en)),
              "t6 node-b #2: accepted → the data is node-b's");
}

// The same run in mode check: node-a's late write is rejected on arrival and
// the data stays node-b's.
TEST(ResourceData, DelayedWriteModeCheckKeepsTheSuccessorsValue) {
    const sim::Trace trace = delayed_write(sim::ResourceMode::check);
    const ResourceData data = resource_data(trace, trace.events.size());
    ASSERT_EQ(data.writes.size(), 2u);
    const DataWrite& a = data.writes[1];
    EXPECT_EQ(a.node, "node-a");
    EXPECT_FALSE(a.accepted);
    EXPECT_FALSE(a.lost_update);
    EXPECT_FALSE(a.replaced.has_value());
    ASSERT_TRUE(data.value.has_value());
    EXPECT_EQ(data.writes[*data.value].node, "node-b");
    EXPECT_EQ(data.writes[*data.value].fencing, Fencing{2});
    const Strings s = test::string_tables(words::Lang::en);
    EXPECT_EQ(data_write_words(data, 1, s),
              "t12 node-a #1, sent at t4: rejected (stale writer) → the data stays node-b's");
}

// Before the playhead reaches a write the data is unwritten; at every event
// boundary of every preset the value is the last accepted write's, a rejected
// write leaves it, and a lost update replaces an accepted write of another
// run. The words render whole in both languages.
TEST(ResourceData, EveryPresetAtEveryEventFollowsTheAcceptedWrites) {
    std::size_t lost_seen = 0, rejected_seen = 0;
    for (const std::string& name : test::app_preset_names()) {
        const sim::Trace trace = sim::simulate(test::load_preset(name));
        for (std::size_t end = 0; end <= trace.events.size(); ++end) {
            const ResourceData data = resource_data(trace, end);
            std::optional<std::size_t> last;
            for (std::size_t i = 0; i < data.writes.size(); ++i) {
                const DataWrite& w = data.writes[i];
                const sim::Event& e = trace.events[w.event];
                ASSERT_EQ(e.op, sim::EventOp::write) << name;
                ASSERT_LT(w.event, end) << name;
                EXPECT_LE(w.sent, w.tick) << name;
                EXPECT_EQ(w.replaced, w.accepted ? last : std::nullopt) << name << " write " << i;
                if (w.accepted) last = i;
                EXPECT_EQ(w.value_after, last) << name << " write " << i;
                if (w.lost_update) {
                    ASSERT_TRUE(w.replaced.has_value()) << name;
                    const DataWrite& r = data.writes[*w.replaced];
                    EXPECT_FALSE(r.node == w.node && r.run == w.run) << name;
                    if (end == trace.events.size()) ++lost_seen;
                }
                if (!w.accepted && end == trace.events.size()) ++rejected_seen;
            }
            EXPECT_EQ(data.value, last) << name << " at event " << end;
            if (end != trace.events.size()) continue;
            for (const words::Lang lang : {words::Lang::en, words::Lang::ko}) {
                const Strings s = test::string_tables(lang);
                EXPECT_EQ(data_now_words(data, s).find_first_of("{}"), std::string::npos) << name;
                for (std::size_t i = 0; i < data.writes.size(); ++i) {
                    const std::string line = data_write_words(data, i, s);
                    EXPECT_EQ(line.find_first_of("{}"), std::string::npos) << name << ": " << line;
                    EXPECT_EQ(data_lost_words(data, i, s).find_first_of("{}"), std::string::npos) << name;
                }
            }
        }
    }
    EXPECT_GE(lost_seen, 1u);  // delayed-write at least
    EXPECT_GE(rejected_seen, 1u);
}

// A tour step that says the data went back (tour step 10, delayed-write)
// says it at a tick where the resource panel shows it: the value is a lost
// update's, and the step names both its writer and the holder it overwrote.
TEST(ResourceData, TheTourTellsTheDataAsThePanelShowsIt) {
    std::vector<TourStep> steps;
    std::string error;
    ASSERT_TRUE(load_tour(test::read_all(test::source_dir + "/assets/tour.json"), steps, error)) << error;
    std::size_t told = 0;
    for (const TourStep& step : steps) {
        if (!contains(step.body_en, "data went back")) continue;
        const sim::Trace trace = sim::simulate(test::load_preset(step.preset));
        const Tick tick = resolve_tour_tick(step, trace);
        std::size_t end = 0;
        while (end < trace.events.size() && trace.events[end].tick <= tick) ++end;
        const ResourceData data = resource_data(trace, end);
        ASSERT_TRUE(data.value.has_value()) << step.title_en;
        const DataWrite& now = data.writes[*data.value];
        EXPECT_TRUE(now.lost_update) << step.title_en;
        ASSERT_TRUE(now.replaced.has_value()) << step.title_en;
        for (const words::Lang lang : {words::Lang::en, words::Lang::ko}) {
            const std::string body = tour_body(step, trace, test::string_tables(lang));
            EXPECT_TRUE(contains(body, now.node)) << body;
            EXPECT_TRUE(contains(body, data.writes[*now.replaced].node)) << body;
        }
        ++told;
    }
    EXPECT_GE(told, 1u);
}

// An imported history's write that belongs to no run (run -1) names no run in
// the data line: never "run -1" (model.md §19.9).
TEST(ResourceData, AWriteOfNoRunNamesNoRun) {
    sim::Trace trace;
    sim::Event e;
    e.op = sim::EventOp::write;
    e.outcome = sim::Outcome::accepted;
    e.node = "worker-a";
    e.run = -1;
    e.fencing = Fencing{7};
    trace.events.push_back(e);
    const ResourceData data = resource_data(trace, trace.events.size());
    for (const words::Lang lang : {words::Lang::en, words::Lang::ko}) {
        const std::string now = data_now_words(data, test::string_tables(lang));
        EXPECT_TRUE(contains(now, "worker-a")) << now;
        EXPECT_TRUE(contains(now, "7")) << now;
        EXPECT_FALSE(contains(now, "-1")) << now;
        EXPECT_FALSE(contains(now, "{")) << now;
    }
}

// Redlock issues no fencing number (model.md §20.6): the write lines and the
// data line of redlock-gc-pause say so in words, never "#–" or "fencing –".
TEST(ResourceData, AWriteWithoutAFencingNumberSaysSoInWords) {
    const sim::Trace trace = sim::simulate(test::load_preset("redlock-gc-pause"));
    const ResourceData data = resource_data(trace, trace.events.size());
    ASSERT_GE(data.writes.size(), 2u);
    const std::map<words::Lang, std::string> said{{words::Lang::en, "no fencing number"},
                                                  {words::Lang::ko, "펜싱 번호 없음"}};
    for (const auto& [lang, words] : said) {
        const Strings s = test::string_tables(lang);
        const std::string now = data_now_words(data, s);
        EXPECT_TRUE(contains(now, words)) << now;
        EXPECT_FALSE(contains(now, "–")) << now;
        for (std::size_t i = 0; i < data.writes.size(); ++i) {
            ASSERT_FALSE(data.writes[i].fencing.has_value());
            const std::string line = data_write_words(data, i, s);
            EXPECT_TRUE(contains(line, words)) << line;
            EXPECT_FALSE(contains(line, "#")) << line;
            EXPECT_FALSE(contains(line, "–")) << line;
        }
    }
}

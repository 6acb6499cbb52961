// The explorer's counterexamples in words: every kind of fault and failure,
// rendered from the string tables in English and Korean, fills every field
// (no "{…}" left, no key shown for a missing text), and the English names the
// nodes, fencing numbers and ticks of the facts it tells.
#include "support/preset_loader.hpp"
#include "support/string_tables.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "leasescope/sim/explorer.hpp"
#include "leasescope/words/counterexample_words.hpp"

namespace leasescope::sim {
namespace {

words::Strings tables(words::Lang lang) { return test::string_tables(lang); }

void expect_filled(const std::string& text) {
    EXPECT_FALSE(text.empty());
    EXPECT_EQ(text.find('{'), std::string::npos) << text;
    EXPECT_EQ(text.find("explore."), std::string::npos) << text;  // a key shown for a missing text
}

Explorer make(const char* name, const std::vector<Override>& overrides, const ExploreOptions& options) {
    auto parsed = parse_scenario(test::read_preset(name), std::string(name) + ".json", overrides);
    EXPECT_TRUE(parsed.ok());
    auto created = Explorer::create(parsed.value(), options);
    EXPECT_TRUE(created.ok());
    return std::move(created).value();
}

TEST(ExplorerWords, EveryFailureAndFaultIsToldInBothLanguages) {
    struct Case {
        const char* preset;
        std::vector<Override> overrides;
        Properties properties;
        const char* kinds;
        Failure::Property expected;
    };
    const std::vector<Case> cases = {
        {"gc-pause-no-fencing",
         {{"faults", "[]"}},
         {false, true, false, false},
         "all",
         Failure::Property::unsafe_write},
        {"failover-lost-lock",
         {{"faults", "[]"}},
         {false, true, true, false},
         "failover:all",
         Failure::Property::fencing_regressed},
        {"hold-off-handover", {}, {true, false, false, false}, "all", Failure::Property::overlap},
        {"contention", {}, {false, false, false, true}, "crash,partition", Failure::Property::liveness},
        // The safety marks of model.md §9.6-§9.8: a failover that loses the
        // counter issues node-b's number again and lets node-a's stale write
        // land after node-b's; a group in check mode refuses a valid holder.
        {"failover-fencing-regressed",
         {{"faults", "[]"}},
         {false, false, false, false, true, false, false},
         "failover:all",
         Failure::Property::stale_after_successor},
        {"failover-fencing-regressed",
         {{"faults", "[]"}},
         {false, false, false, false, false, false, true},
         "failover:all",
         Failure::Property::fencing_duplicate},
        {"group-capacity",
         {{"resource.mode", "\"check\""}, {"candidates/1/writes", "[1]"}},
         {false, false, false, false, false, true, false},
         "pause",
         Failure::Property::holder_rejected},
    };
    const words::Strings en = tables(words::Lang::en);
    const words::Strings ko = tables(words::Lang::ko);
    for (const Case& c : cases) {
        SCOPED_TRACE(c.preset);
        ExploreOptions options;
        options.max_faults = 2;
        options.max_pause = 3;
        options.shuffles = 1;
        options.kinds = parse_fault_kinds(c.kinds).value();
        options.properties = c.properties;
        const Explorer ex = make(c.preset, c.overrides, options);
        const ExploreReport report = explore(ex, ExploreRun{});
        ASSERT_TRUE(report.found);
        Counterexample cx = make_counterexample(ex, *report.found);
        ASSERT_FALSE(cx.facts.failures.empty());
        const Failure& f = cx.facts.failures.front();
        EXPECT_EQ(f.property, c.expected);
        const std::string told = words::failure_words(f, en);
        expect_filled(told);
        expect_filled(words::failure_words(f, ko));
        switch (f.property) {
            case Failure::Property::unsafe_write:
            case Failure::Property::fencing_regressed:
            case Failure::Property::stale_after_successor:
            case Failure::Property::holder_rejected:
            case Failure::Property::fencing_duplicate:
                EXPECT_NE(told.find(f.late.node), std::string::npos) << told;
                EXPECT_NE(told.find(f.earlier.node), std::string::npos) << told;
                EXPECT_NE(told.find("fencing " + std::to_string(f.late.fencing)), std::string::npos) << told;
                EXPECT_NE(told.find("tick " + std::to_string(f.late.tick)), std::string::npos) << told;
                break;
            case Failure::Property::overlap:
                ASSERT_GE(f.nodes.size(), 2u);
                EXPECT_NE(told.find(f.nodes[0] + ", " + f.nodes[1]), std::string::npos) << told;
                EXPECT_NE(told.find("at tick " + std::to_string(f.tick)), std::string::npos) << told;
                break;
            case Failure::Property::liveness:
                ASSERT_FALSE(f.runs.empty());
                EXPECT_NE(told.find(f.runs[0].node + " run " + std::to_string(f.runs[0].run)), std::string::npos)
                    << told;
                break;
        }
        for (const words::Strings* s : {&en, &ko}) {
            for (const std::string& line : words::fault_lines(cx.facts, *s)) expect_filled(line);
        }
        words::title_counterexample(cx, ex.base(), en);
        for (const std::string* text :
             {&cx.scenario.title.en, &cx.scenario.title.ko, &cx.scenario.summary.en, &cx.scenario.summary.ko}) {
            expect_filled(*text);
        }
        EXPECT_NE(cx.scenario.summary.en.find(told), std::string::npos) << cx.scenario.summary.en;
        EXPECT_NE(cx.scenario.summary.ko.find(words::failure_words(f, ko)), std::string::npos);
    }
}

// Each fault kind, and a shuffled order, in words: the kind's own sentence
// with its node, tick, length and mode (a delay's link and extra ticks, a
// clock jump's size and direction).
TEST(ExplorerWords, EveryFaultKindHasItsSentence) {
    ExploreOptions options;
    options.max_faults = 1;
    options.max_pause = 2;
    options.max_delay = 2;
    options.max_clock_jump_ms = 100;
    options.shuffles = 1;
    const Explorer ex = make("contention", {}, options);
    const words::Strings en = tables(words::Lang::en);
    const words::Strings ko = tables(words::Lang::ko);
    std::vector<std::string> seen;
    for (std::int32_t a = 0;
         a < static_cast<std::int32_t>(ex.atoms().size()) && ex.atoms()[static_cast<std::size_t>(a)].at == 0; ++a) {
        const CounterexampleFacts facts = schedule_facts(ex, Schedule{0, {a}});
        ASSERT_EQ(facts.faults.size(), 1u);
        const std::string line = words::fault_words(facts.faults[0], en);
        expect_filled(line);
        expect_filled(words::fault_words(facts.faults[0], ko));
        EXPECT_NE(line.find("at tick 0"), std::string::npos) << line;
        EXPECT_NE(line.find(facts.faults[0].node), std::string::npos) << line;
        seen.push_back(line);
        seen.push_back(words::fault_words(facts.faults[0], ko));
    }
    auto any = [&](const std::string& part) {
        return std::any_of(seen.begin(), seen.end(),
                           [&](const std::string& l) { return l.find(part) != std::string::npos; });
    };
    EXPECT_TRUE(any("pause node-a for 1 tick at tick 0"));
    EXPECT_TRUE(any("pause node-a for 2 ticks at tick 0"));
    EXPECT_TRUE(any("(drop_requests)"));
    EXPECT_TRUE(any("(drop_replies)"));
    EXPECT_TRUE(any("crash node-c at tick 0"));
    EXPECT_TRUE(any("losing everything"));
    EXPECT_TRUE(any("losing the leases"));
    EXPECT_TRUE(any("delay node-a's request to the store sent at tick 0 by 1 more tick"));
    EXPECT_TRUE(any("delay the store's reply to node-b sent at tick 0 by 2 more ticks"));
    EXPECT_TRUE(any("delay node-c's write to the resource sent at tick 0 by 2 more ticks"));
    EXPECT_TRUE(any("jump the store's clock 100 ms forward at tick 0"));
    EXPECT_TRUE(any("jump the store's clock 50 ms back at tick 0"));
    EXPECT_TRUE(any("0틱에 node-a가 저장소로 보낸 요청을 1틱 더 지연"));
    EXPECT_TRUE(any("0틱에 저장소가 node-b에 보낸 응답을 2틱 더 지연"));
    EXPECT_TRUE(any("0틱에 node-c가 자원에 보낸 쓰기를 2틱 더 지연"));
    EXPECT_TRUE(any("0틱에 저장소 시계 100 ms 앞으로 점프"));
    EXPECT_TRUE(any("0틱에 저장소 시계 50 ms 뒤로 점프"));
    const CounterexampleFacts shuffled = schedule_facts(ex, Schedule{1, {}});
    const std::vector<std::string> lines = words::fault_lines(shuffled, en);
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_EQ(lines[0], "order shuffled with seed " + std::to_string(ex.variant(1).seed));
    expect_filled(words::fault_lines(shuffled, ko).at(0));
}

// A Redlock partition or delay (model.md §20.7) names the stores it
// concerns, every store or one, in both languages; a partition says its
// messages are held (its mode means nothing there). A write's delay has no
// store.
TEST(ExplorerWords, RedlockPartitionsAndDelaysNameTheirStores) {
    ExploreOptions options;
    options.kinds = parse_fault_kinds("partition,delay").value();
    options.max_faults = 1;
    options.max_pause = 1;
    options.max_delay = 1;
    options.max_tick = 0;
    options.properties = parse_properties("unsafe_write").value();
    const Explorer ex = make("redlock-clock-jump", {}, options);
    const words::Strings en = tables(words::Lang::en);
    const words::Strings ko = tables(words::Lang::ko);
    std::vector<std::string> seen;
    for (std::int32_t a = 0; a < static_cast<std::int32_t>(ex.atoms().size()); ++a) {
        const CounterexampleFacts facts = schedule_facts(ex, Schedule{0, {a}});
        ASSERT_EQ(facts.faults.size(), 1u);
        for (const words::Strings* s : {&en, &ko}) {
            seen.push_back(words::fault_words(facts.faults[0], *s));
            expect_filled(seen.back());
        }
    }
    // Partitions and request and reply delays: every store, then each of five; writes: one.
    EXPECT_EQ(seen.size(), 2u * 2 * (6 + 6 + 6 + 1));
    auto any = [&](const std::string& part) {
        return std::any_of(seen.begin(), seen.end(),
                           [&](const std::string& l) { return l.find(part) != std::string::npos; });
    };
    EXPECT_TRUE(any("partition client-1 from every store for 1 tick at tick 0 (its messages held until it heals)"));
    EXPECT_TRUE(any("partition client-2 from store C for 1 tick at tick 0"));
    EXPECT_TRUE(any("delay client-1's requests to store E sent at tick 0 by 1 more tick"));
    EXPECT_TRUE(any("delay the replies of every store to client-2 sent at tick 0 by 1 more tick"));
    EXPECT_TRUE(any("delay client-1's write to the resource sent at tick 0 by 1 more tick"));
    EXPECT_TRUE(any("0틱부터 1틱 동안 client-2와 저장소 C 사이 단절(복구될 때까지 메시지 보류)"));
    EXPECT_TRUE(any("0틱에 client-1이 모든 저장소로 보낸 요청을 1틱 더 지연"));
    EXPECT_TRUE(any("0틱에 저장소 A가 client-2에 보낸 응답을 1틱 더 지연"));
    EXPECT_FALSE(any("(drop_requests)"));
}

// The replication faults (model.md §17.2, §17.3) in words, in both
// languages: a cut names its server, length and tick; a promotion its server
// and its lag (none, or so many ticks behind the primary).
TEST(ExplorerWords, ReplicationFaultsHaveTheirSentences) {
    ExploreOptions options;
    options.max_faults = 1;
    options.max_link_cut = 2;
    options.max_lag = 1;
    options.shuffles = 0;
    options.kinds = parse_fault_kinds("replica_link,failover:promote").value();
    auto parsed = parse_scenario(test::read_preset("contention"), "contention.json");
    ASSERT_TRUE(parsed.ok());
    Scenario base = parsed.value();
    base.lock.replication.replicas = 1;  // set in code: the file's key is the scenario reader's
    auto created = Explorer::create(base, options);
    ASSERT_TRUE(created.ok()) << created.error();
    const Explorer& ex = created.value();
    const words::Strings en = tables(words::Lang::en);
    const words::Strings ko = tables(words::Lang::ko);
    std::vector<std::string> seen;
    for (std::int32_t a = 0; a < static_cast<std::int32_t>(ex.atoms().size()); ++a) {
        if (ex.atoms()[static_cast<std::size_t>(a)].at > 1) break;
        const CounterexampleFacts facts = schedule_facts(ex, Schedule{0, {a}});
        ASSERT_EQ(facts.faults.size(), 1u);
        const std::string line = words::fault_words(facts.faults[0], en);
        const std::string line_ko = words::fault_words(facts.faults[0], ko);
        expect_filled(line);
        expect_filled(line_ko);
        const Fault& f = facts.faults[0].fault;
        EXPECT_NE(line.find("server " + std::to_string(f.server)), std::string::npos) << line;
        EXPECT_NE(line_ko.find("서버 " + std::to_string(f.server)), std::string::npos) << line_ko;
        seen.push_back(line);
        seen.push_back(line_ko);
    }
    auto any = [&](const std::string& part) {
        return std::any_of(seen.begin(), seen.end(),
                           [&](const std::string& l) { return l.find(part) != std::string::npos; });
    };
    EXPECT_TRUE(any("fail the store over at tick 0, promoting server 1 with no lag"));
    EXPECT_TRUE(any("fail the store over at tick 1, promoting server 1, 1 tick behind the primary"));
    EXPECT_TRUE(any("cut the link between the primary and replica server 1 for 2 ticks at tick 0"));
    EXPECT_TRUE(any("1틱에 페일오버, 프라이머리보다 1틱 뒤처진 서버 1 승격"));
    EXPECT_TRUE(any("0틱부터 2틱 동안 프라이머리와 복제본 서버 1 사이 연결 끊김"));
}

// The app's "smallest fault of each kind": every kind's answer, in each of
// its forms, is a whole sentence in both languages, with the size as time
// and ticks; a missing text would show its key.
TEST(ExplorerWords, EveryKindsSmallestFaultIsToldInBothLanguages) {
    const words::Strings en = tables(words::Lang::en);
    const words::Strings ko = tables(words::Lang::ko);
    const auto filled = [](const std::string& text) {
        expect_filled(text);
        EXPECT_EQ(text.find("find."), std::string::npos) << text;
    };
    for (const FaultClass kind :
         {FaultClass::pause, FaultClass::partition, FaultClass::crash, FaultClass::failover, FaultClass::delay,
          FaultClass::clock_jump, FaultClass::replica_link, FaultClass::failover_promote, FaultClass::restart}) {
        for (const words::Strings* s : {&en, &ko}) {
            filled(words::fault_class_words(kind, *s));
            for (const bool sized : {true, false}) {
                filled(words::kind_answer_words({kind, sized, Tick{400}, Tick{200}, true}, 50, *s));
                filled(words::kind_answer_words({kind, sized, Tick{400}, Tick{399}, false}, 50, *s));
                filled(words::kind_answer_words({kind, sized, Tick{1}, std::nullopt, false}, 50, *s));
                filled(words::kind_answer_words({kind, sized, std::nullopt, Tick{1200}, true}, 50, *s));
            }
        }
    }
    EXPECT_EQ(words::kind_answer_words({FaultClass::pause, true, Tick{400}, Tick{200}, true}, 50, en),
              "pause: 20s (400 ticks) breaks it; 10s (200 ticks) held (sizes in between were not tried)");
    EXPECT_EQ(words::kind_answer_words({FaultClass::pause, true, Tick{3}, Tick{2}, false}, 50, en),
              "pause: 150ms (3 ticks) breaks it; 100ms (2 ticks) held");
    EXPECT_EQ(words::kind_answer_words({FaultClass::partition, true, std::nullopt, Tick{1200}, true}, 50, en),
              "partition: none up to 1m (1200 ticks) breaks it");
    EXPECT_EQ(words::kind_answer_words({FaultClass::crash, false, Tick{0}, std::nullopt, false}, 50, en),
              "crash: a single one breaks it");
    EXPECT_EQ(words::kind_answer_words({FaultClass::pause, true, Tick{400}, Tick{200}, true}, 50, ko),
              "일시 정지: 20s(400틱)에서 깨집니다. 10s(200틱)에서는 지켜졌습니다(그 사이 크기는 시험하지 않음)");
    EXPECT_EQ(words::size_words(1, 50, en), "50ms (1 tick)");
    EXPECT_EQ(words::budget_words({1, 8}, false, 50, en),
              "Pauses and partitions of every length from 50ms (1 tick) to 400ms (8 ticks).");
    EXPECT_EQ(
        words::budget_words({1, 2, 4, 10}, true, 50, en),
        "Pauses and partitions from 50ms (1 tick) to 500ms (10 ticks): 4 sizes, 1, 2 and 5 times each power of ten.");
    filled(words::budget_words({1, 2, 4, 10}, true, 50, ko));
    filled(words::budget_words({1, 8}, false, 50, ko));
    EXPECT_EQ(words::budget_words({}, false, 50, en), "");
}

}  // namespace
}  // namespace leasescope::sim

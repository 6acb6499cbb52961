// A lesson that says what would happen otherwise ("without the hold-off …",
// "with a group of one …", "had the action thrown …") makes a claim about
// another run. Each such sentence of a preset's summary and of the tour is
// backed by a row below: the overrides that make the other run and the facts
// it must show, and the test runs it. A counterfactual sentence with no row
// fails the second test, so a new one cannot slip in unchecked.
// (hold-off-handover once said "without it node-a would bounce straight
// back", while with hold_off 0 node-b acquires at tick 3.)
#include <gtest/gtest.h>

#include "support/test_files.hpp"

#include <filesystem>
#include <regex>
#include <sstream>

#include <nlohmann/json.hpp>

#include "leasescope/sim/simulation.hpp"

using namespace leasescope;
using leasescope::test::read_all;
using leasescope::test::source_dir;

namespace {

// An event of the other run ("" and -1 match anything), or a run's result.
struct Fact {
    std::string node;
    std::string op;       // the trace's spelling: "acquire", "extend", …; empty: a result
    std::string outcome;  // or the run's result: "action_failed", …
    Tick tick = -1;
    bool present = true;  // false: the other run must not have it
};

struct Counterfactual {
    std::string where;  // "summary" or "tour N"
    std::string preset;
    std::string en, ko;  // a part of the sentence in each language
    std::vector<sim::Override> sets;
    std::vector<Fact> facts;
};

const std::vector<Counterfactual>& rows() {
    static const std::vector<Counterfactual> r = {
        {"summary",
         "hold-off-handover",
         "With hold_off 0",
         "홀드오프가 0이면",
         {{"candidates.0.hold_off", "0"}},
         {{"node-b", "acquire", "acquired", 3},
          {"node-b", "acquire", "acquired", 6, false},
          {"node-a", "skip", "", 5}}},
        // Redisson (model.md §21.5.2): the unlock message reaches node-b, which wakes and locks in that tick.
        {"summary",
         "lost-unlock-redisson",
         "Without the partition node-b would be woken at 2 s",
         "단절이 없었다면",
         {{"faults", "[]"}},
         {{"node-b", "message", "delivered", 40},
          {"node-b", "acquire", "acquired", 40},
          {"node-b", "acquire", "acquired", 200, false}}},
        // Redlock (model.md §20.3): C keeps client-1's key, so client-2 never gets a quorum.
        {"summary",
         "redlock-restart",
         "With persistence \"always\" C keeps the key",
         "영속성이 \"always\"이면",
         {{"faults.2.persistence", "\"always\""}},
         {{"client-2", "quorum", "acquired", -1, false}, {"client-2", "", "skipped"}, {"C", "restart", "kept", 40}}},
        {"summary",
         "deadline-lock-vs-group",
         "With a group of one",
         "슬롯 하나짜리 그룹",
         {{"lock.elector", "\"group\""}},
         {{"node-b", "acquire", "acquired", 3}}},
        {"tour 3",
         "contention",
         "Had the action thrown",
         "작업이 예외를 던졌다면",
         {{"candidates.0.fail_at", "4"}},
         {{"node-a", "", "action_failed"}, {"node-a", "release", "released"}}},
        {"tour 3",
         "contention",
         "Had the store been unreachable",
         "저장소에 닿지 못했다면",
         {{"faults", R"([{"kind":"partition","node":"node-a","at":0,"ticks":3}])"}},
         {{"node-a", "", "acquire_failed"}}},
        // A longer action lets the fourth extension happen (the preset's work ends before it).
        {"tour 5",
         "auto-extension",
         "A 10-tick lease (500 ms) would extend",
         "10틱 리스(500 ms)라면",
         {{"defaults.lease", "10"}, {"defaults.action", "16"}},
         {{"node-a", "extend", "renewed", 3},
          {"node-a", "extend", "renewed", 7},
          {"node-a", "extend", "renewed", 10},
          {"node-a", "extend", "renewed", 13}}},
        // The second run of each period, 3 ticks after the first (the job's length).
        {"summary",
         "scheduled-job",
         "set min_lease to 0 and every period runs twice",
         "최소 리스를 0으로 바꾸면 주기마다 두 번 실행됩니다",
         {{"defaults.min_lease", "0"}},
         {{"", "acquire", "acquired", 3},
          {"", "acquire", "acquired", 13},
          {"", "acquire", "acquired", 23},
          {"", "acquire", "acquired", 33}}},
        // Seed 2026 elects node-b first; seed 1 another node.
        {"summary",
         "racing-acquire",
         "Change the seed to see another history",
         "시드를 바꾸면 다른 역사를",
         {{"seed", "1"}},
         {{"node-b", "", "skipped"}, {"node-c", "", "elected"}}},
        // A write judged at its arrival (model.md §16.5): mode check refuses the late fencing 1.
        {"summary",
         "delayed-write",
         "The same scenario with --set resource.mode=check rejects it",
         "같은 시나리오를 --set resource.mode=check로 실행하면 자원이 이 쓰기를 거부합니다",
         {{"resource.mode", "\"check\""}},
         {{"node-a", "write", "rejected", 12},
          {"node-a", "write", "accepted", 12, false},
          {"node-b", "write", "accepted", 6}}},
        // The same on the tour's step about it: the data keeps node-b's value.
        {"tour 10",
         "delayed-write",
         "(--set resource.mode=check) rejects this write on arrival",
         "(--set resource.mode=check) 이 쓰기는 도착할 때 거부됩니다",
         {{"resource.mode", "\"check\""}},
         {{"node-a", "write", "rejected", 12},
          {"node-a", "write", "accepted", 12, false},
          {"node-b", "write", "accepted", 6}}},
        // The tour's step about it says the same.
        {"tour 14",
         "check-then-act",
         "with --set resource.mode=check it compares fencing numbers when the write arrives and rejects",
         "--set resource.mode=check로 실행하면 자원이 쓰기가 도착할 때 펜싱 번호를 비교해",
         {{"resource.mode", "\"check\""}},
         {{"node-a", "write", "rejected", 17},
          {"node-a", "write", "accepted", 17, false},
          {"node-b", "write", "accepted", 11}}},
        // A check on the client's side is no fence (model.md §5.8): the resource's check refuses the late write.
        {"summary",
         "check-then-act",
         "The same scenario with --set resource.mode=check rejects it",
         "같은 시나리오를 --set resource.mode=check로 실행하면 자원이 이 쓰기를 거부합니다",
         {{"resource.mode", "\"check\""}},
         {{"node-a", "write", "rejected", 17},
          {"node-a", "write", "accepted", 17, false},
          {"node-b", "write", "accepted", 11}}},
    };
    return r;
}

bool holds(const sim::Trace& trace, const Fact& f) {
    if (f.op.empty()) {
        for (const sim::RunSummary& r : trace.summary.results)
            if (r.node == f.node && r.result == f.outcome) return true;
        return false;
    }
    for (const sim::Event& e : trace.events) {
        if (!f.node.empty() && e.node != f.node) continue;
        if (sim::to_string(e.op) != f.op) continue;
        if (!f.outcome.empty() && sim::to_string(e.outcome) != f.outcome) continue;
        if (f.tick >= 0 && e.tick != f.tick) continue;
        return true;
    }
    return false;
}

std::string strip_comments(const std::string& text) {
    std::string out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        if (line.rfind("//", 0) != 0) out += line + "\n";
    return out;
}

// The lesson texts: every preset's summary and every tour step's body, by language.
std::vector<std::tuple<std::string, std::string, std::string>> lessons(const std::string& lang) {
    std::vector<std::tuple<std::string, std::string, std::string>> out;  // where, preset, text
    for (const auto& entry : std::filesystem::directory_iterator(source_dir + "/scenarios")) {
        if (entry.path().extension() != ".json") continue;
        const auto j = nlohmann::json::parse(strip_comments(read_all(entry.path().string())));
        out.emplace_back("summary", j.at("name"), j.at("summary").value(lang, ""));
    }
    const auto tour = nlohmann::json::parse(read_all(source_dir + "/assets/tour.json"));
    for (std::size_t i = 0; i < tour.at("steps").size(); ++i) {
        const auto& step = tour["steps"][i];
        out.emplace_back("tour " + std::to_string(i + 1), step.at("preset"), step["body"].value(lang, ""));
    }
    return out;
}

}  // namespace

TEST(LessonCounterfactuals, EachOneIsWhatTheOtherRunDoes) {
    for (const Counterfactual& c : rows()) {
        SCOPED_TRACE(c.where + " " + c.preset + ": " + c.en);
        // The sentence is still there, in both languages.
        for (const auto& [lang, part] : {std::pair{std::string("en"), c.en}, std::pair{std::string("ko"), c.ko}}) {
            bool found = false;
            for (const auto& [where, preset, text] : lessons(lang))
                found = found || (where == c.where && preset == c.preset && text.find(part) != std::string::npos);
            EXPECT_TRUE(found) << "[" << lang << "] no lesson says \"" << part << "\"";
        }
        const std::string path = source_dir + "/scenarios/" + c.preset + ".json";
        auto parsed = sim::parse_scenario(read_all(path), path, c.sets);
        ASSERT_TRUE(parsed.ok()) << parsed.error().to_string();
        const sim::Trace trace = sim::simulate(std::move(parsed).value());
        for (const Fact& f : c.facts)
            EXPECT_EQ(holds(trace, f), f.present)
                << (f.present ? "lacks " : "has ") << f.node << " " << f.op << " " << f.outcome << " at " << f.tick;
    }
}

// Words that make a sentence a claim about another run.
TEST(LessonCounterfactuals, NoneIsLeftWithoutARow) {
    const std::regex en_cue(R"(\b(would|Without|Had|set [a-z_.]+ to|Change the)\b|--set )");
    // Korean: "…다면", "…라면", "바꾸면", "0이면" (a general rule such as "토큰이 없으면" is not a claim about another run).
    const std::vector<std::string> ko_cues = {"다면", "라면", "바꾸면", "0이면", "을 것입니다", "--set "};
    for (const std::string lang : {"en", "ko"}) {
        for (const auto& [where, preset, text] : lessons(lang)) {
            // One sentence at a time: up to a full stop followed by a space.
            std::size_t from = 0;
            while (from < text.size()) {
                std::size_t end = text.find(". ", from);
                end = end == std::string::npos ? text.size() : end + 1;
                const std::string sentence = text.substr(from, end - from);
                from = end + 1;
                bool cue = false;
                if (lang == "en") {
                    cue = std::regex_search(sentence, en_cue);
                } else {
                    for (const std::string& w : ko_cues) cue = cue || sentence.find(w) != std::string::npos;
                }
                if (!cue) continue;
                bool backed = false;
                for (const Counterfactual& c : rows())
                    backed = backed || (c.where == where && c.preset == preset &&
                                        sentence.find(lang == "en" ? c.en : c.ko) != std::string::npos);
                EXPECT_TRUE(backed) << where << " " << preset << " [" << lang
                                    << "]: a claim about another run with no row to check it: " << sentence;
            }
        }
    }
}

// What the importer does with values no trace can hold, and with commands
// Redis refuses (docs/model.md rules 19.1.4, 19.4.1, 19.5.4, 19.7.3, 19.8.3):
// each case the importer's fuzzer once found, written as the rule it broke.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <string>

#include "capture_support.hpp"
#include "support/test_files.hpp"
#include "leasescope/redis/script_calls.hpp"
#include "leasescope/sim/limits.hpp"
#include "leasescope/sim/trace.hpp"

namespace leasescope::sim::import {
namespace {

using test::mline;
using test::read_one;

const std::string A = "127.0.0.1:50001";
const std::string B = "127.0.0.1:50002";

std::vector<std::string> set_nx(const std::string& key, const std::string& token, std::int64_t px) {
    return {"SET", key, token, "NX", "PX", std::to_string(px)};
}

// The history of a capture, written as a trace and read back: the one
// promise every imported history keeps.
Trace imported_and_read_back(const test::Read& r, const std::vector<LogEntry>& logs = {}) {
    EXPECT_TRUE(r.observations) << r.error;
    if (!r.observations) return {};
    std::string error;
    const auto history = build_history(*r.observations, r.report, logs, {}, ImportOptions{}, error);
    EXPECT_TRUE(history) << error;
    if (!history) return {};
    const std::string bytes = trace_to_jsonl(history->trace);
    auto read = parse_trace(bytes, "import.jsonl");
    EXPECT_TRUE(read.ok()) << (read.ok() ? "" : read.error().to_string());
    if (!read.ok()) return {};
    EXPECT_EQ(trace_to_jsonl(read.value()), bytes);
    return read.value();
}

bool is_hex8(const std::string& s) {
    return s.size() == 8 && s.find_first_not_of("0123456789abcdef") == std::string::npos;
}

TEST(CaptureFit, BytesThatAreNotUtf8InANodesNameAreWrittenAsRedisCliWritesThem) {
    // Rule 19.5.4: an address with raw bytes, a name set with raw bytes.
    const std::string raw_address = "127.0.0.1:\xf3\xf3";
    const test::Read r = read_one({
        mline(0, B, {"CLIENT", "SETNAME", "n\xe9"}),
        mline(1'000, raw_address, set_nx("job", "ta", 400)),
        mline(2'000, B, set_nx("job", "tb", 400)),
    });
    const Trace t = imported_and_read_back(r);
    ASSERT_EQ(t.header.candidates.size(), 2u);
    EXPECT_EQ(t.header.candidates[0], "127.0.0.1:\\xf3\\xf3");
    EXPECT_EQ(t.header.candidates[1], "n\\xe9");
}

TEST(CaptureFit, ANameOrTokenTooLongForATraceKeepsItsStartAndAHashOfTheWhole) {
    // Rule 19.5.4: two different long names stay two; a token is cut to 64.
    const std::string long_a(300, 'a'), long_b = std::string(299, 'a') + "b";
    const std::string long_token(100, 't');
    const test::Read r = read_one({
        mline(0, A, {"CLIENT", "SETNAME", long_a}),
        mline(10, B, {"CLIENT", "SETNAME", long_b}),
        mline(1'000, A, set_nx("job", long_token, 400)),
        mline(2'000, B, set_nx("job", "tb", 400)),
    });
    const Trace t = imported_and_read_back(r);
    ASSERT_EQ(t.header.candidates.size(), 2u);
    for (const std::string& name : t.header.candidates) {
        EXPECT_EQ(name.size(), static_cast<std::size_t>(limits::name_length_max));
        EXPECT_EQ(name.substr(0, 191), std::string(191, 'a'));
        EXPECT_EQ(name[191], '~');
        EXPECT_TRUE(is_hex8(name.substr(192))) << name;
    }
    EXPECT_NE(t.header.candidates[0], t.header.candidates[1]);
    const auto acquire = std::find_if(t.events.begin(), t.events.end(), [](const Event& e) {
        return e.op == EventOp::acquire && e.outcome == Outcome::acquired;
    });
    ASSERT_NE(acquire, t.events.end());
    EXPECT_EQ(acquire->token.size(), static_cast<std::size_t>(limits::token_length_max));
    EXPECT_EQ(acquire->token.substr(0, 55), std::string(55, 't'));
}

TEST(CaptureFit, AnExpiryThatOverflowsIsRefusedAsRedisRefusesIt) {
    // Rule 19.4.1: PEXPIRE with a deadline past 64 bits changes nothing, so
    // the record still expires at its own deadline; an EX that overflows in
    // milliseconds acquires nothing.
    const std::string huge = std::to_string(std::numeric_limits<std::int64_t>::max());
    const test::Read r = read_one({
        mline(1'000, A, set_nx("job", "ta", 400)),
        mline(2'000, A, {"PEXPIRE", "job", huge}),
        mline(600'000, B, {"SET", "job", "tb", "NX", "EX", "9223372036854776"}),
    });
    ASSERT_TRUE(r.observations) << r.error;
    const auto& o = *r.observations;
    const auto expiry =
        std::find_if(o.begin(), o.end(), [](const Observation& x) { return x.op == ObservedOp::expire; });
    ASSERT_NE(expiry, o.end());
    EXPECT_EQ(expiry->wall_us, test::t0_us + 402'000);
    for (const Observation& x : o) EXPECT_FALSE(x.op == ObservedOp::acquire && x.token == "tb");
}

// Our store's acquire (engine/redis lua_scripts.cpp) at `ms` after t0 with
// the [lua] lines redis-server 7.0 shows when it takes a free record and
// the counter's INCR gives `fencing`.
std::vector<std::string> store_acquire(std::int64_t ms, const std::string& token, const std::string& fencing) {
    const std::string L = "lua";
    return {mline(ms * 1000, A,
                  {"EVAL", std::string(redis::script_source(redis::ScriptId::acquire)), "3", "s", "c", "h", "node-a",
                   token, "500", "6"}),
            mline(ms * 1000 + 1, L, {"HGET", "s", "token"}),
            mline(ms * 1000 + 1, L, {"PTTL", "h"}),
            mline(ms * 1000 + 1, L, {"EXISTS", "s"}),
            mline(ms * 1000 + 1, L, {"EXISTS", "c"}),
            mline(ms * 1000 + 1, L, {"INCR", "c"}),
            mline(ms * 1000 + 1, L, {"HSET", "s", "owner", "node-a", "token", token, "fencing", fencing}),
            mline(ms * 1000 + 1, L, {"PEXPIRE", "s", "500"})};
}

TEST(CaptureFit, ACounterOutsideTheTracesRangeGivesNoFencingNumberAndANote) {
    // Rule 19.5.4: our store's counter is set to -5 between two acquisitions,
    // so the second one's INCR gives -4.
    std::vector<std::string> lines = store_acquire(1'000, "ta", "1");
    lines.push_back(mline(2'000'000, A, {"DEL", "s"}));
    lines.push_back(mline(2'100'000, A, {"SET", "c", "-5"}));
    for (const std::string& l : store_acquire(3'000, "tb", "-4")) lines.push_back(l);
    const test::Read r = read_one(lines);
    ASSERT_TRUE(r.observations) << r.error;
    std::vector<const Observation*> acquired;
    for (const Observation& x : *r.observations)
        if (x.op == ObservedOp::acquire && x.outcome == Outcome::acquired) acquired.push_back(&x);
    ASSERT_EQ(acquired.size(), 2u);
    EXPECT_EQ(acquired[0]->fencing, 1);
    EXPECT_FALSE(acquired[1]->fencing);
    EXPECT_TRUE(std::any_of(r.report.notes.begin(), r.report.notes.end(), [](const std::string& n) {
        return n.find("a fencing number of -4 is outside what a trace holds") != std::string::npos;
    }));
    const Trace t = imported_and_read_back(r);
    EXPECT_FALSE(t.events.empty());
}

TEST(CaptureFit, AClockStepBackFartherThanATraceCanShowIsAnErrorEvenWhenKept) {
    // Rule 19.1.4.
    ImportOptions options;
    options.keep_clock_steps = true;
    const std::int64_t far = (limits::clock_jump_ms_max + 2'000) * 1000;
    const test::Read r = read_one({mline(far, A, set_nx("job", "ta", 400)), mline(0, A, {"GET", "job"})}, options);
    EXPECT_FALSE(r.observations);
    EXPECT_NE(r.error.find("more than the largest clock step a trace can show"), std::string::npos) << r.error;
}

TEST(CaptureFit, AStepBackBeforeTheFirstAcquisitionReadsBack) {
    // Rule 19.7.3: an unknown script on the lock, then the clock steps back,
    // then an acquisition: the step is the trace's first event, and the
    // events after it go back by what it stepped.
    ImportOptions options;
    options.keep_clock_steps = true;
    options.lock = "job";
    const test::Read r = read_one({mline(100'000, A, {"EVAL", "return 1", "1", "job"}),
                                   mline(50'000, A, set_nx("job", "ta", 400)), mline(60'000, A, {"GET", "job"})},
                                  options);
    const Trace t = imported_and_read_back(r);
    const auto step =
        std::find_if(t.events.begin(), t.events.end(), [](const Event& e) { return e.op == EventOp::clock_jump; });
    ASSERT_NE(step, t.events.end());
    EXPECT_EQ(step->clock_ms, -50);
}

TEST(CaptureFit, ADraftWhoseRunHasTooManyEventsIsComparedUpToWhereItWasCut) {
    // Rule 19.8.3: the fuzzer's input whose draft extends every tick for
    // 2.5 M ticks (it once took 520 MB): cut after draft_events_max events.
    const std::string text =
        leasescope::test::read_all(std::string(LEASESCOPE_SOURCE_DIR) +
                                   "/tests/fuzz_regressions/import/oom-90e4b77057dde137eb20bd791e5d428599439132");
    ImportOptions options;
    options.lenient = true;
    options.keep_clock_steps = true;
    options.draft_events_max = 1'000;
    CaptureReader reader(options);
    reader.begin_source("cap.txt");
    std::size_t begin = 0;
    while (begin <= text.size()) {
        std::size_t end = text.find('\n', begin);
        if (end == std::string::npos) end = text.size();
        ASSERT_TRUE(reader.add_line(std::string_view(text).substr(begin, end - begin))) << reader.error();
        begin = end + 1;
    }
    const auto observations = reader.finish();
    ASSERT_TRUE(observations) << reader.error();
    std::string error;
    const auto history = build_history(*observations, reader.report(), {}, {}, options, error);
    ASSERT_TRUE(history) << error;
    // The draft's candidates start at tick 2575010; the stretch of 4096
    // ticks that passes 1000 events ends at a multiple of 4096, less one.
    const auto cut = std::find_if(history->notes.begin(), history->notes.end(), [](const std::string& n) {
        return n.rfind("the draft's run has more than 1000 events: it is compared with the history up to tick ", 0) ==
               0;
    });
    ASSERT_NE(cut, history->notes.end());
    const std::string tick =
        cut->substr(cut->find("up to tick ") + 11, cut->find(" only") - cut->find("up to tick ") - 11);
    EXPECT_EQ((std::stoll(tick) + 1) % 4096, 0) << *cut;
    EXPECT_GT(std::stoll(tick), 2'575'010) << *cut;
    EXPECT_NE(cut->find("its violations are not compared"), std::string::npos);
}

}  // namespace
}  // namespace leasescope::sim::import

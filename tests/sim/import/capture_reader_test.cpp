// The capture reader, rule by rule (docs/model.md §19.1–§19.5), on
// hand-written lines in redis-server 7.0's format.
#include <gtest/gtest.h>

#include <algorithm>

#include "capture_support.hpp"
#include "leasescope/redis/script_calls.hpp"

namespace leasescope::sim::import {
namespace {

using test::mline;
using test::read_capture;
using test::read_one;

const std::string A = "127.0.0.1:50001";
const std::string B = "127.0.0.1:50002";

std::vector<std::string> set_nx(const std::string& key, const std::string& token, std::int64_t px) {
    return {"SET", key, token, "NX", "PX", std::to_string(px)};
}

TEST(CaptureReader, PlainSetNxContentionExpiryAndRelease) {
    // Rules 19.3.1–2, 19.4.1, 19.4.4, 19.5.1: two named clients race for the
    // key; the holder's record expires at its deadline; a DEL releases.
    const test::Read r = read_one({
        mline(0, A, {"CLIENT", "SETNAME", "node-a"}),
        mline(10, B, {"CLIENT", "SETNAME", "node-b"}),
        mline(1'000, A, set_nx("job", "ta", 400)),
        mline(2'000, B, set_nx("job", "tb", 400)),
        mline(500'000, B, set_nx("job", "tb", 400)),
        mline(600'000, B, {"PEXPIRE", "job", "1000"}),
        mline(700'000, B, {"GET", "job"}),
        mline(800'000, B, {"DEL", "job"}),
        mline(900'000, A, {"PEXPIRE", "job", "1000"}),
    });
    ASSERT_TRUE(r.observations) << r.error;
    const std::vector<Observation>& o = *r.observations;
    ASSERT_EQ(o.size(), 8u);
    EXPECT_EQ(o[0].op, ObservedOp::acquire);
    EXPECT_EQ(o[0].outcome, Outcome::acquired);
    EXPECT_EQ(o[0].node, "node-a");
    EXPECT_EQ(o[0].token, "ta");
    EXPECT_EQ(o[0].ttl_ms, 400);
    EXPECT_EQ(o[0].library, "plain");
    EXPECT_EQ(o[0].line, 3);
    EXPECT_EQ(o[1].outcome, Outcome::busy);
    EXPECT_EQ(o[1].node, "node-b");
    EXPECT_EQ(o[1].ttl_ms, 399);
    EXPECT_EQ(o[2].op, ObservedOp::expire);  // valid until 1 ms + 400 ms, gone the next millisecond
    EXPECT_EQ(o[2].wall_us, test::t0_us + 402'000);
    EXPECT_EQ(o[2].node, "node-a");
    EXPECT_EQ(o[2].token, "ta");
    EXPECT_EQ(o[2].line, 0);
    EXPECT_EQ(o[3].outcome, Outcome::acquired);
    EXPECT_EQ(o[3].node, "node-b");
    EXPECT_EQ(o[4].op, ObservedOp::extend);
    EXPECT_EQ(o[4].outcome, Outcome::renewed);
    EXPECT_EQ(o[4].ttl_ms, 1000);
    EXPECT_EQ(o[4].token, "");
    EXPECT_EQ(o[5].op, ObservedOp::status);
    EXPECT_EQ(o[5].outcome, Outcome::held);
    EXPECT_EQ(o[6].op, ObservedOp::release);
    EXPECT_EQ(o[6].outcome, Outcome::released);
    EXPECT_EQ(o[7].outcome, Outcome::lost);
    EXPECT_EQ(o[7].node, "node-a");
    EXPECT_EQ(r.report.lock_key, "job");
    EXPECT_EQ(r.report.first_us, test::t0_us + 1'000);
    EXPECT_EQ(r.report.last_us, test::t0_us + 900'000);
}

TEST(CaptureReader, AnExtendAfterTheReleaseIsLost) {
    const test::Read r =
        read_one({mline(0, A, set_nx("job", "ta", 400)), mline(10, A, {"DEL", "job"}),
                  mline(20, A, {"PEXPIRE", "job", "400"}), mline(30, A, {"DEL", "job"}), mline(40, A, {"GET", "job"})});
    ASSERT_TRUE(r.observations) << r.error;
    const std::vector<Observation>& o = *r.observations;
    ASSERT_EQ(o.size(), 5u);
    EXPECT_EQ(o[2].outcome, Outcome::lost);
    EXPECT_EQ(o[3].outcome, Outcome::not_owner);
    EXPECT_EQ(o[4].outcome, Outcome::vacant);
    EXPECT_EQ(o[0].node, A);  // no name: the address as redis-cli prints it
}

TEST(CaptureReader, NodesFromNamesOptionsAndTokens) {
    // Rule 19.5.1: --name maps an address; a token belongs to its acquirer
    // whichever connection carries it later.
    ImportOptions options;
    options.names = {{A, "alpha"}};
    const std::vector<std::string> lines{
        mline(0, A, set_nx("job", "ta", 400)),
        mline(10, "[::1]:7000", {"EVAL", "return redis.call('PEXPIRE', KEYS[1], ARGV[1])", "1", "job", "ta"}),
    };
    const test::Read r = read_one(lines, options);
    ASSERT_TRUE(r.observations) << r.error;
    EXPECT_EQ((*r.observations)[0].node, "alpha");
    EXPECT_EQ((*r.observations)[1].node, "[::1]:7000");  // an unknown script carries no token
}

TEST(CaptureReader, TheExpiryBoundaryIsUndecided) {
    // Rule 19.4.2: within 1 ms of the deadline the capture cannot tell.
    const test::Read r =
        read_one({mline(0, A, set_nx("job", "ta", 100)), mline(100'500, B, set_nx("job", "tb", 100)),
                  mline(400'000, A, set_nx("job", "tc", 100)), mline(502'000, A, set_nx("job", "td", 100))});
    ASSERT_TRUE(r.observations) << r.error;
    const std::vector<Observation>& o = *r.observations;
    ASSERT_EQ(o.size(), 7u);
    EXPECT_EQ(o[1].outcome, Outcome::busy);  // now (100) is not past the deadline (100)
    EXPECT_EQ(o[2].op, ObservedOp::undecided);
    EXPECT_EQ(o[2].why, Detail::expiry_boundary);
    EXPECT_EQ(o[2].line, o[1].line);
    EXPECT_EQ(o[3].op, ObservedOp::expire);
    EXPECT_EQ(o[4].outcome, Outcome::acquired);  // 400 ms: far from 100
    EXPECT_EQ(o[5].op, ObservedOp::expire);      // 501 < 502: gone
    EXPECT_EQ(o[6].outcome, Outcome::acquired);
    EXPECT_EQ(std::count_if(o.begin(), o.end(), [](const Observation& x) { return x.why == Detail::expiry_boundary; }),
              1);
}

TEST(CaptureReader, OtherKeysAreCountedNotKept) {
    // Rule 19.2.2: lines of other keys are ignored and counted per command.
    const test::Read r =
        read_one({mline(0, A, {"PING"}), mline(1, A, set_nx("job", "ta", 400)), mline(2, B, {"set", "other", "1"}),
                  mline(3, B, {"GET", "other"}), mline(4, B, {"get", "other"}), mline(5, B, {"CLIENT", "LIST"})});
    ASSERT_TRUE(r.observations) << r.error;
    EXPECT_EQ(r.observations->size(), 1u);
    EXPECT_EQ(r.report.ignored,
              (std::map<std::string, std::int64_t>{{"CLIENT", 1}, {"GET", 2}, {"PING", 1}, {"SET", 1}}));
    ASSERT_EQ(r.report.sources.size(), 1u);
    EXPECT_EQ(r.report.sources[0].lines, 6);
    EXPECT_EQ(r.report.sources[0].used, 1);
}

TEST(CaptureReader, OtherCommandsOnTheLockAreAppliedAndUndecided) {
    // Rule 19.3.6: PERSIST keeps the record past its deadline; SET without NX
    // re-writes it; both are other_command.
    const test::Read r = read_one({mline(0, A, set_nx("job", "ta", 100)), mline(10, A, {"PERSIST", "job"}),
                                   mline(500'000, B, set_nx("job", "tb", 100)), mline(600'000, B, {"SET", "job", "tb"}),
                                   mline(700'000, B, {"GET", "job"})});
    ASSERT_TRUE(r.observations) << r.error;
    const std::vector<Observation>& o = *r.observations;
    ASSERT_EQ(o.size(), 5u);
    EXPECT_EQ(o[1].why, Detail::other_command);
    EXPECT_EQ(o[2].outcome, Outcome::busy);
    EXPECT_FALSE(o[2].ttl_ms);  // no deadline
    EXPECT_EQ(o[3].why, Detail::other_command);
    EXPECT_EQ(o[4].outcome, Outcome::held);
}

TEST(CaptureReader, NoLockIsAnError) {
    const test::Read r = read_one({mline(0, A, {"SET", "k", "v"}), mline(1, A, {"GET", "k"})});
    EXPECT_FALSE(r.observations);
    EXPECT_EQ(r.error, "no lock found: no SET … NX PX/EX and no known lock script in 2 lines");
}

TEST(CaptureReader, SeveralLocksAskForLockAndLockChooses) {
    const std::vector<std::string> lines{mline(0, A, set_nx("a", "t1", 400)), mline(1, A, set_nx("b\n", "t2", 400)),
                                         mline(2, A, {"DEL", "b\n"}), mline(3, A, {"GET", "a"})};
    const test::Read r = read_one(lines);
    EXPECT_FALSE(r.observations);
    EXPECT_EQ(r.error, "several lock keys found: a (2 lines), b\\n (2 lines); name one with --lock KEY");
    ImportOptions options;
    options.lock = "b\\n";
    const test::Read chosen = read_one(lines, options);
    ASSERT_TRUE(chosen.observations) << chosen.error;
    EXPECT_EQ(chosen.observations->size(), 2u);
    EXPECT_EQ(chosen.report.lock_key, "b\\n");
    EXPECT_EQ(chosen.report.ignored.at("SET"), 1);
    options.lock = "c";
    const test::Read none = read_one(lines, options);
    EXPECT_EQ(none.error, "--lock c: no line of the capture names this key (4 lines read)");
}

TEST(CaptureReader, ABadLineNamesFileAndLineOrIsAGapWhenLenient) {
    // Rule 19.1.2.
    const std::vector<std::string> lines{"OK", mline(0, A, set_nx("job", "ta", 400)),
                                         mline(10, A, {"GET", "job"}).substr(0, 40), mline(20, A, {"GET", "job"})};
    const test::Read strict = read_one(lines);
    EXPECT_FALSE(strict.observations);
    EXPECT_EQ(strict.error,
              "cap.txt:3: expected '\"' to close the argument that starts at column 39 (a line cut short?)");
    ImportOptions options;
    options.lenient = true;
    const test::Read lenient = read_one(lines, options);
    ASSERT_TRUE(lenient.observations) << lenient.error;
    const std::vector<Observation>& o = *lenient.observations;
    ASSERT_EQ(o.size(), 3u);
    EXPECT_EQ(o[1].op, ObservedOp::undecided);
    EXPECT_EQ(o[1].why, Detail::capture_gap);
    EXPECT_EQ(o[1].line, 3);
    EXPECT_EQ(o[1].wall_us, o[0].wall_us);  // the time of the line before it
    ASSERT_FALSE(lenient.report.notes.empty());
    EXPECT_EQ(lenient.report.notes[0].rfind("cap.txt:3: skipped (--lenient): expected", 0), 0u);
}

TEST(CaptureReader, TimeGoingBackIsAnErrorOrAKeptClockStep) {
    // Rule 19.1.4.
    const std::vector<std::string> lines{mline(1'500'000, A, set_nx("job", "ta", 400)),
                                         mline(1'600'000, A, {"GET", "job"}), mline(396'000, A, {"GET", "job"}),
                                         mline(397'000, A, {"GET", "job"})};
    const test::Read strict = read_one(lines);
    EXPECT_FALSE(strict.observations);
    EXPECT_EQ(strict.error, "cap.txt:3: time goes back 1.204 s from line 2 (a clock step on the server?)");
    const test::Read small = read_one({mline(10, A, set_nx("job", "ta", 400)), mline(5, A, {"GET", "job"})});
    EXPECT_EQ(small.error, "cap.txt:2: time goes back 5 µs from line 1 (a clock step on the server?)");
    ImportOptions options;
    options.keep_clock_steps = true;
    const test::Read kept = read_one(lines, options);
    ASSERT_TRUE(kept.observations) << kept.error;
    const std::vector<Observation>& o = *kept.observations;
    ASSERT_EQ(o.size(), 5u);
    EXPECT_EQ(o[2].op, ObservedOp::clock_step);
    EXPECT_EQ(o[2].step_ms, -1204);
    EXPECT_EQ(o[2].wall_us, test::t0_us + 1'600'000);
    EXPECT_EQ(o[3].wall_us, test::t0_us + 1'600'000);
    EXPECT_EQ(o[4].wall_us, test::t0_us + 1'601'000);
    // The server's clock went back: the record's deadline (1.9 s) is still ahead.
    EXPECT_EQ(o[4].outcome, Outcome::held);
}

TEST(CaptureReader, ARecordPastItsDeadlineBeforeAClockStepExpiresBeforeIt) {
    // wt-r2's example: the server's time passed the deadline (a line of
    // another key), then went back; the expiry is placed before the step.
    ImportOptions options;
    options.keep_clock_steps = true;
    const test::Read r = read_one({mline(0, A, set_nx("job", "ta", 5)), mline(2'500'000, B, {"GET", "other"}),
                                   mline(100'000, B, {"GET", "other"}), mline(200'000, A, {"GET", "job"})},
                                  options);
    ASSERT_TRUE(r.observations) << r.error;
    const std::vector<Observation>& o = *r.observations;
    ASSERT_EQ(o.size(), 4u);
    EXPECT_EQ(o[1].op, ObservedOp::expire);
    EXPECT_EQ(o[1].wall_us, test::t0_us + 6'000);
    EXPECT_EQ(o[2].op, ObservedOp::clock_step);
    EXPECT_EQ(o[2].step_ms, -2400);
    EXPECT_EQ(o[3].outcome, Outcome::vacant);
}

TEST(CaptureReader, SourcesInOrderWithAGapAndNoOverlap) {
    // Rule 19.1.5.
    const test::Read r =
        read_capture({{"a.txt", {mline(0, A, set_nx("job", "ta", 400))}},
                      {"b.txt", {mline(300'000, A, {"GET", "job"}), mline(500'000, A, {"GET", "job"})}}});
    ASSERT_TRUE(r.observations) << r.error;
    const std::vector<Observation>& o = *r.observations;
    ASSERT_EQ(o.size(), 5u);
    EXPECT_EQ(o[1].why, Detail::capture_gap);
    EXPECT_EQ(o[1].source, 1);
    EXPECT_EQ(o[1].wall_us, test::t0_us);
    EXPECT_EQ(o[2].outcome, Outcome::held);  // replayed across the gap
    EXPECT_EQ(o[3].op, ObservedOp::expire);
    EXPECT_EQ(r.report.sources.size(), 2u);
    const test::Read overlap =
        read_capture({{"a.txt", {mline(0, A, set_nx("job", "ta", 400)), mline(9'000, A, {"GET", "job"})}},
                      {"b.txt", {mline(5'000, A, {"GET", "job"})}}});
    EXPECT_FALSE(overlap.observations);
    EXPECT_EQ(overlap.error.rfind("b.txt:1: this capture starts at", 0), 0u) << overlap.error;
    EXPECT_NE(overlap.error.find("before a.txt ends (its line 2 is at"), std::string::npos) << overlap.error;
}

TEST(CaptureReader, AnUnknownScriptOnTheLockIsUndecidedButApplied) {
    // Rule 19.3.5: unrecognised_script with its SHA-1, or unknown_sha.
    const std::string body = "return redis.call('DEL', KEYS[1])";
    const test::Read r = read_one({
        mline(0, A, set_nx("job", "ta", 400)),
        mline(10, A, {"EVAL", body, "1", "job"}),
        mline(11, "lua", {"DEL", "job"}),
        mline(20, B, set_nx("job", "tb", 400)),
        mline(30, B, {"EVALSHA", "0123456789ABCDEF0123456789abcdef01234567", "1", "job"}),
        mline(40, B, {"SCRIPT", "LOAD", body}),
        mline(50, B, {"EVALSHA", sha1_hex(body), "1", "job"}),
        mline(51, "lua", {"DEL", "job"}),
        mline(60, B, {"GET", "job"}),
    });
    ASSERT_TRUE(r.observations) << r.error;
    const std::vector<Observation>& o = *r.observations;
    ASSERT_EQ(o.size(), 6u);
    EXPECT_EQ(o[1].why, Detail::unrecognised_script);
    EXPECT_EQ(o[1].sha, sha1_hex(body));
    EXPECT_EQ(o[2].outcome, Outcome::acquired);  // the script's DEL was applied
    EXPECT_EQ(o[3].why, Detail::unknown_sha);
    EXPECT_EQ(o[3].sha, "0123456789abcdef0123456789abcdef01234567");  // as SCRIPT LOAD answers: lower case
    EXPECT_EQ(o[4].why, Detail::unrecognised_script);                 // SCRIPT LOAD gave its body
    EXPECT_EQ(o[5].outcome, Outcome::vacant);
}

}  // namespace
}  // namespace leasescope::sim::import

namespace leasescope::sim::import {
namespace {

// Our store's scripts (engine/redis lua_scripts.cpp) with the [lua] lines
// redis-server 7.0 shows for them (as in tests/data/import/live-*.txt).
std::vector<std::string> store_call(redis::ScriptId id, std::vector<std::string> argv) {
    std::vector<std::string> args{"EVAL", std::string(redis::script_source(id)), "3", "s", "c", "h"};
    args.insert(args.end(), argv.begin(), argv.end());
    return args;
}

TEST(CaptureReader, OurStoresScriptsDecidedByWhatTheyWrote) {
    // Rules 19.3.4 and 19.4.3: outcomes from the [lua] writes, else from the
    // replayed record (the holder asking again; a release keeping longer);
    // fencing from the INCR, the counter's base from its SET.
    using redis::ScriptId;
    const std::string L = "lua";
    const test::Read r = read_one({
        mline(0, A, store_call(ScriptId::acquire, {"node-a", "ta", "500", "6"})),
        mline(1, L, {"HGET", "s", "token"}),
        mline(1, L, {"PTTL", "h"}),
        mline(1, L, {"EXISTS", "s"}),
        mline(1, L, {"EXISTS", "c"}),
        mline(1, L, {"SET", "c", "6"}),
        mline(1, L, {"INCR", "c"}),
        mline(1, L, {"HSET", "s", "owner", "node-a", "token", "ta", "fencing", "7"}),
        mline(1, L, {"PEXPIRE", "s", "500"}),
        mline(100'000, B, store_call(ScriptId::acquire, {"node-a", "ta", "500", "6"})),
        mline(100'001, L, {"HGET", "s", "token"}),
        mline(100'001, L, {"HGET", "s", "fencing"}),
        mline(200'000, B,
              {"EVALSHA", sha1_hex(redis::script_source(ScriptId::extend)), "3", "s", "c", "h", "ta", "800"}),
        mline(200'001, L, {"HGET", "s", "token"}),
        mline(200'001, L, {"PEXPIRE", "s", "800"}),
        mline(300'000, B, store_call(ScriptId::release, {"ta", "100", "0"})),
        mline(300'001, L, {"HGET", "s", "token"}),
        mline(300'001, L, {"PTTL", "s"}),
        mline(300'001, L, {"PEXPIRE", "s", "100"}),
        mline(350'000, B, store_call(ScriptId::release, {"ta", "1000", "0"})),
        mline(350'001, L, {"HGET", "s", "token"}),
        mline(350'001, L, {"PTTL", "s"}),
        mline(360'000, B, store_call(ScriptId::release, {"ta", "0", "200"})),
        mline(360'001, L, {"HGET", "s", "token"}),
        mline(360'001, L, {"DEL", "s"}),
        mline(360'001, L, {"PTTL", "h"}),
        mline(360'001, L, {"SET", "h", "1", "PX", "200"}),
        mline(400'000, B, store_call(ScriptId::acquire, {"node-b", "tb", "500", "6"})),
        mline(400'001, L, {"HGET", "s", "token"}),
        mline(400'001, L, {"PTTL", "h"}),
        mline(450'000, B, store_call(ScriptId::validate, {"ta"})),
        mline(450'001, L, {"HGET", "s", "token"}),
    });
    ASSERT_TRUE(r.observations) << r.error;
    const std::vector<Observation>& o = *r.observations;
    ASSERT_EQ(o.size(), 8u);
    EXPECT_EQ(o[0].outcome, Outcome::acquired);
    EXPECT_EQ(o[0].fencing, 7);
    EXPECT_EQ(o[0].ttl_ms, 500);
    EXPECT_EQ(o[0].node, "node-a");
    EXPECT_EQ(o[0].library, "leasescope");
    EXPECT_EQ(o[1].outcome, Outcome::acquired);  // the holder again, from another connection
    EXPECT_EQ(o[1].fencing, 7);
    EXPECT_EQ(o[1].node, "node-a");
    EXPECT_EQ(o[2].op, ObservedOp::extend);
    EXPECT_EQ(o[2].outcome, Outcome::renewed);
    EXPECT_EQ(o[2].ttl_ms, 800);
    EXPECT_EQ(o[3].outcome, Outcome::kept);
    EXPECT_EQ(o[4].outcome, Outcome::kept);  // wrote nothing, still holds the record
    EXPECT_EQ(o[5].outcome, Outcome::released);
    EXPECT_EQ(o[6].outcome, Outcome::busy);  // the hold-off
    EXPECT_EQ(o[6].node, "node-b");
    EXPECT_EQ(o[7].op, ObservedOp::validate);
    EXPECT_EQ(o[7].outcome, Outcome::vacant);
    EXPECT_EQ(r.report.counter_base, 6);
    EXPECT_EQ(r.report.lock_keys, (std::vector<std::string>{"s", "c", "h"}));
}

}  // namespace
}  // namespace leasescope::sim::import

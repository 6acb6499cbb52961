// Real captures of redis-server 7.0.15 and redis-cli 7.0.15 monitor
// (tests/data/import/): the reader's observations of them (docs/model.md
// §19.1–§19.5). plain-7.0.15.txt: two redis-cli clients named with CLIENT
// SETNAME contend with SET NX PX, a record expires, one is extended, read
// and deleted, among lines of other keys. live-expiry-takeover-7.0.15.txt:
// `leasescope-cli live scenarios/expiry-takeover.json` (LeaseScope's own
// store: SCRIPT LOAD, EVALSHA and the scripts' [lua] lines).
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

#include <fmt/format.h>

#include "capture_support.hpp"

namespace leasescope::sim::import {
namespace {

std::vector<std::string> lines_of(const std::string& name) {
    std::ifstream in(std::string(LEASESCOPE_SOURCE_DIR) + "/tests/data/import/" + name);
    EXPECT_TRUE(in) << name;
    std::vector<std::string> lines;
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    return lines;
}

TEST(CaptureReal, PlainSetNxContentionOfTwoRedisCliClients) {
    const test::Read r = test::read_one(lines_of("plain-7.0.15.txt"));
    ASSERT_TRUE(r.observations) << r.error;
    const std::vector<Observation>& o = *r.observations;
    // node-a takes it; node-b is refused; it expires; node-b takes it, reads
    // and extends it; node-a is refused; node-b deletes it; node-a takes it
    // and it expires before the capture ends.
    const std::vector<std::pair<ObservedOp, Outcome>> want{
        {ObservedOp::acquire, Outcome::acquired}, {ObservedOp::acquire, Outcome::busy},
        {ObservedOp::expire, Outcome::expired},   {ObservedOp::acquire, Outcome::acquired},
        {ObservedOp::status, Outcome::held},      {ObservedOp::extend, Outcome::renewed},
        {ObservedOp::acquire, Outcome::busy},     {ObservedOp::release, Outcome::released},
        {ObservedOp::acquire, Outcome::acquired}, {ObservedOp::expire, Outcome::expired}};
    ASSERT_EQ(o.size(), want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
        EXPECT_EQ(o[i].op, want[i].first) << i;
        EXPECT_EQ(o[i].outcome, want[i].second) << i;
        if (i > 0) {
            EXPECT_LE(o[i - 1].wall_us, o[i].wall_us) << i;
        }
    }
    const std::vector<std::string> nodes{"node-a", "node-b", "node-a", "node-b", "node-b",
                                         "node-b", "node-a", "node-b", "node-a", "node-a"};
    for (std::size_t i = 0; i < nodes.size(); ++i) EXPECT_EQ(o[i].node, nodes[i]) << i;
    EXPECT_EQ(o[0].token, "tok-a");
    EXPECT_EQ(o[0].line, 4);
    EXPECT_EQ(o[0].ttl_ms, 400);
    EXPECT_EQ(o[2].wall_us, 1796374662967000);  // valid to 1796374662566 ms + 400 ms, then gone
    EXPECT_EQ(o[5].ttl_ms, 5000);
    EXPECT_EQ(r.report.lock_key, "job:lock");
    EXPECT_EQ(r.report.ignored.at("COMMAND"), 6);
    EXPECT_EQ(r.report.ignored.at("SET"), 2);  // other:key, weird"key
    EXPECT_EQ(r.report.sources[0].used, 14);   // 9 of job:lock, 5 CLIENT SETNAME
}

TEST(CaptureReal, LeaseScopeLiveStoreExpiryTakeover) {
    // The live run also holds its run guard `leasescope:{invoice-close}:run`
    // with SET NX PX: no lock (rule 19.2.1), so the slot is found alone and
    // naming it with --lock reads the same.
    const std::vector<std::string> lines = lines_of("live-expiry-takeover-7.0.15.txt");
    const test::Read r = test::read_one(lines);
    ASSERT_TRUE(r.observations) << r.error;
    EXPECT_EQ(r.report.lock_key, "leasescope:{invoice-close}:slot:0");
    // The run guard, the counter's first SET (before a script named it), other:bin.
    EXPECT_EQ(r.report.ignored.at("SET"), 3);
    ImportOptions options;
    options.lock = "leasescope:{invoice-close}:slot:0";
    const test::Read named = test::read_one(lines, options);
    ASSERT_TRUE(named.observations) << named.error;
    EXPECT_EQ(named.observations->size(), r.observations->size());
    const std::vector<Observation>& o = *r.observations;
    EXPECT_EQ(r.report.lock_keys,
              (std::vector<std::string>{"leasescope:{invoice-close}:slot:0", "leasescope:{invoice-close}:fencing",
                                        "leasescope:{invoice-close}:holdoff"}));
    // The trace of this run (its live.jsonl): node-a acquires (fencing 1),
    // its record expires, node-b acquires (fencing 2), the auditor validates
    // node-a's token (stale: the capture shows the token, so node-a's),
    // node-c is refused twice, node-b's record expires; node-a and node-b
    // then check their tokens before writing and releasing (the store sends
    // VALIDATE, vacant: no record left); the run ends with a status read and
    // deletes its counter (another command on a lock key). The store sends
    // every node's calls on one connection, so a call without a token is
    // the node of the last acquire call on it (node-c).
    std::vector<std::string> seen;
    for (const Observation& x : o) {
        seen.push_back(fmt::format("{} {} {} {}", x.node, static_cast<int>(x.op), to_string(x.outcome),
                                   x.fencing ? std::to_string(*x.fencing) : "-"));
    }
    const auto line = [](const char* node, ObservedOp op, Outcome outcome, const char* fencing) {
        return fmt::format("{} {} {} {}", node, static_cast<int>(op), to_string(outcome), fencing);
    };
    EXPECT_EQ(seen, (std::vector<std::string>{
                        line("node-a", ObservedOp::acquire, Outcome::acquired, "1"),
                        line("node-a", ObservedOp::expire, Outcome::expired, "-"),
                        line("node-b", ObservedOp::acquire, Outcome::acquired, "2"),
                        line("node-a", ObservedOp::validate, Outcome::stale, "-"),
                        line("node-c", ObservedOp::acquire, Outcome::busy, "-"),
                        line("node-c", ObservedOp::acquire, Outcome::busy, "-"),
                        line("node-b", ObservedOp::expire, Outcome::expired, "-"),
                        line("node-a", ObservedOp::validate, Outcome::vacant, "-"),
                        line("node-a", ObservedOp::validate, Outcome::vacant, "-"),
                        line("node-b", ObservedOp::validate, Outcome::vacant, "-"),
                        line("node-b", ObservedOp::validate, Outcome::vacant, "-"),
                        line("node-c", ObservedOp::status, Outcome::vacant, "-"),
                        line("node-c", ObservedOp::undecided, Outcome::none, "-"),
                    }));
    EXPECT_EQ(o[0].library, "leasescope");
    EXPECT_EQ(o[0].token, "fDH4V3c4nmjHPk92X9hU93");
    EXPECT_EQ(o[0].ttl_ms, 275);
    EXPECT_EQ(o.back().why, Detail::other_command);
    // The store SETs its counter before any script names it, so the reader
    // cannot know the key yet (rule 19.2.3): the counter is assumed 0.
    EXPECT_FALSE(r.report.counter_base);
    EXPECT_NE(std::find(r.report.notes.begin(), r.report.notes.end(),
                        "fencing assumes the counter was 0 when the capture began"),
              r.report.notes.end());
}

// "op outcome" for each observation.
std::vector<std::string> ops_of(const std::vector<Observation>& o) {
    static const char* const names[] = {"acquire",  "extend", "release",   "status",
                                        "validate", "expire", "undecided", "clock_step"};
    std::vector<std::string> out;
    for (const Observation& x : o)
        out.push_back(fmt::format("{} {}", names[static_cast<int>(x.op)], to_string(x.outcome)));
    return out;
}

TEST(CaptureReal, KotlinElectorCapture) {
    // wt-r's capture of the Kotlin elector's calls (tests/data/import/
    // make_client_captures.sh): EVALSHA first, refused (NOSCRIPT: no [lua]
    // line, no event), then EVAL with the body.
    const test::Read r = test::read_one(lines_of("kotlin-elector.monitor"));
    ASSERT_TRUE(r.observations) << r.error;
    EXPECT_EQ(ops_of(*r.observations),
              (std::vector<std::string>{"acquire acquired", "acquire busy", "extend renewed", "extend renewed",
                                        "release not_owner", "release released", "acquire acquired", "expire expired",
                                        "extend lost", "acquire acquired", "release kept"}));
    const std::vector<Observation>& o = *r.observations;
    EXPECT_EQ(o[0].node, o[2].node);
    EXPECT_NE(o[0].node, o[1].node);
    EXPECT_EQ(o[2].library, "kotlin-elector");
    EXPECT_EQ(o[2].token, "7Hq3kZr9WmXbT2pLfN4sVd");
    EXPECT_EQ(o[2].ttl_ms, 5000);
    EXPECT_EQ(r.report.lock_key, "orders-leader");
    EXPECT_NE(std::find(r.report.notes.begin(), r.report.notes.end(),
                        "2 calls of known scripts show no [lua] line: the server refused them (NOSCRIPT), so they "
                        "are no events"),
              r.report.notes.end());
}

TEST(CaptureReal, RedissonCapture) {
    // wt-r's capture of Redisson 3.27.2's RLock calls: the record is a hash
    // whose field is the token; re-entry, unlock latch, forceUnlock.
    const test::Read r = test::read_one(lines_of("redisson.monitor"));
    ASSERT_TRUE(r.observations) << r.error;
    EXPECT_EQ(ops_of(*r.observations),
              (std::vector<std::string>{"acquire acquired", "acquire busy", "extend renewed", "acquire acquired",
                                        "release kept", "release released", "release not_owner", "acquire acquired",
                                        "expire expired", "extend lost", "acquire acquired", "release not_owner",
                                        "release released"}));
    EXPECT_EQ(r.report.lock_key, "orders-lock");
    EXPECT_EQ(r.report.lock_keys, std::vector<std::string>{"orders-lock"});
    EXPECT_EQ((*r.observations)[0].library, "redisson");
}

}  // namespace
}  // namespace leasescope::sim::import

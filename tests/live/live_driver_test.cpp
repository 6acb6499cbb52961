// The live driver: a preset run live equals its simulation; it touches no key
// but its own lock's, and leaves none of those behind; a cancel stops it.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "leasescope/engine/prng.hpp"
#include "leasescope/live/live_driver.hpp"
#include "leasescope/live/os_token_source.hpp"
#include "leasescope/live/tick_pacer.hpp"
#include "leasescope/redis/redis_store.hpp"
#include "leasescope/sim/simulation.hpp"
#include "support/live_compare_support.hpp"
#include "support/live_test_support.hpp"

using namespace leasescope;

namespace {

using live_test::expect_live_equals_simulation;
using live_test::load_preset;

// A small scenario with time on the wire, drawn from `seed`: two or three
// candidates, latencies 0-3 on each link (some per candidate), a short
// command_timeout for about half the nodes (so calls time out, applied or not), delay
// faults on every link, a pause or a partition, the watchdog sometimes.
std::string wire_scenario(std::uint64_t seed) {
    SplitMix64 rng(seed);
    const auto below = [&](std::uint64_t n) { return static_cast<int>(rng.next() % n); };
    // One draw per statement: the operands of + are not sequenced, and the
    // scenarios must be the same whichever compiler built the test.
    const auto network = [&] {
        const int request = below(3);
        const int reply = below(4);
        const int write = below(4);
        return "{\"request\":" + std::to_string(request) + ",\"reply\":" + std::to_string(reply) +
               ",\"write\":" + std::to_string(write) + "}";
    };
    std::ostringstream j;
    const int n = 2 + below(2);
    j << "{\"name\":\"wire-" << seed << "\",\"horizon\":30,\"seed\":" << seed << ",\"lock\":{\"name\":\"wire-" << seed
      << "\",\"capacity\":" << 1 + below(2) << "},\"network\":" << network()
      << ",\"defaults\":{\"wait\":" << 2 + below(6) << ",\"lease\":" << 4 + below(6) << ",\"action\":" << 2 + below(6)
      << ",\"auto_extend\":" << (below(3) == 0 ? "true" : "false") << "},\"candidates\":[";
    for (int i = 0; i < n; ++i) {
        j << (i ? "," : "") << "{\"name\":\"n" << i << "\",\"start\":" << below(4);
        if (below(2) == 0) j << ",\"network\":" << network();
        if (below(2) == 0) j << ",\"command_timeout\":" << 1 + below(3);
        j << "}";
    }
    const char* links[] = {"request", "reply", "write"};
    j << "],\"faults\":[{\"kind\":\"delay\",\"node\":\"n" << below(n) << "\",\"at\":" << below(6)
      << ",\"ticks\":" << 1 + below(4) << ",\"link\":\"" << links[below(3)] << "\",\"extra\":" << 1 + below(6) << "}";
    if (below(2) == 0) {
        j << ",{\"kind\":\"" << (below(2) == 0 ? "pause" : "partition") << "\",\"node\":\"n" << below(n)
          << "\",\"at\":" << 1 + below(6) << ",\"ticks\":" << 1 + below(5) << "}";
    }
    j << "]}";
    return j.str();
}

std::string reply_text(const redisReply* r) { return r->type == REDIS_REPLY_STRING ? std::string(r->str, r->len) : ""; }

struct KeyState {
    std::string dump;
    bool has_ttl = false;
};

}  // namespace

// The note on emulated failovers tells each loss as model.md §4.4 does: a
// "leases" failover keeps the counter, an "all" one resets it; a scenario
// with both gets both lines. Needs no Redis.
TEST(EmulatedFaults, FailoverNoteFollowsItsLoss) {
    sim::Scenario s;
    sim::Fault f;
    f.kind = sim::FaultKind::failover;
    f.lose = FailoverLoss::leases;
    s.faults.push_back(f);
    std::vector<std::string> lines = live::emulated_faults(s);
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_NE(lines[0].find("lose = leases"), std::string::npos) << lines[0];
    EXPECT_NE(lines[0].find("counter is kept"), std::string::npos) << lines[0];
    EXPECT_EQ(lines[0].find("reset"), std::string::npos) << lines[0];
    s.faults[0].lose = FailoverLoss::all;
    lines = live::emulated_faults(s);
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_NE(lines[0].find("lose = all"), std::string::npos) << lines[0];
    EXPECT_NE(lines[0].find("reset"), std::string::npos) << lines[0];
    s.faults.push_back(f);
    EXPECT_EQ(live::emulated_faults(s).size(), 2u);
}

TEST(OsTokens, AreTwentyTwoBase58CharactersAndDiffer) {
    live::OsTokenSource tokens;
    const Token a = tokens.next_token("ignored");
    const Token b = tokens.next_token("ignored");
    EXPECT_EQ(a.size(), 22u);
    EXPECT_NE(a, b);
    for (char c : a) EXPECT_NE(base58_alphabet.find(c), std::string_view::npos);
}

TEST(LiveDriver, LeavesEveryOtherKeyUnchangedAndRemovesItsNamespace) {
    const std::string url_text = live_test::redis_url_or_fail();
    ASSERT_FALSE(url_text.empty());
    const redis::RedisUrl url = live_test::parsed_url_or_fail();
    // Presets that write the counter, a hold-off, kept records and a
    // failover that wipes "everything": the widest reach a run has.
    const std::vector<std::string> presets{"failover-fencing-regressed", "hold-off-handover", "min-lease"};

    auto admin = redis::RedisConnection::open(url);
    ASSERT_TRUE(admin.ok()) << admin.error().message;
    auto& c = admin.value();
    const std::string tag = "lsguard" + std::to_string(::getpid()) + ":";
    std::vector<std::string> keys;
    auto add = [&](std::vector<std::string_view> argv, const std::string& key) {
        auto r = c.command(argv);
        ASSERT_TRUE(r.ok()) << r.error().message;
        keys.push_back(key);
    };
    for (int i = 0; i < 1000; ++i) {
        const std::string key = tag + "user:" + std::to_string(i);
        const std::string value = "value-" + std::to_string(i * 7919);
        if (i % 3 == 0) {
            add({"SET", key, value, "EX", "3600"}, key);
        } else {
            add({"SET", key, value}, key);
        }
    }
    for (const auto& name : presets) {
        const sim::Scenario s = load_preset(name);
        const std::string lock = s.lock.name;
        // Near misses: keys that share a prefix or a shape with the lock's.
        const std::vector<std::string> near_misses{"leasescope:{" + lock + "}x",
                                                   "leasescope:{" + lock + "-2}:slot:0",
                                                   "leasescope:{" + lock + "}:slot:0:backup",
                                                   "leasescope:{" + lock + "}:fencing2",
                                                   "leasescope:{" + lock + "}:other",
                                                   "LEASESCOPE:{" + lock + "}:slot:0",
                                                   "leasescope:{" + lock.substr(0, lock.size() - 1) + "}:fencing",
                                                   "leasescope:" + lock + ":slot:0"};
        for (const std::string& key : near_misses) {
            add({"SET", key, "near-miss"}, key);
        }
        const std::string hash = "leasescope:{" + lock + "}:slot:0x";
        add({"HSET", hash, "owner", "someone", "token", "t", "fencing", "99"}, hash);
    }
    add({"RPUSH", tag + "list", "a", "b", "c"}, tag + "list");
    add({"SADD", tag + "set", "x", "y"}, tag + "set");
    add({"ZADD", tag + "zset", "1", "m"}, tag + "zset");

    auto snapshot = [&] {
        std::map<std::string, KeyState> out;
        for (const auto& key : keys) {
            auto dump = c.command({"DUMP", key});
            auto pttl = c.command({"PTTL", key});
            EXPECT_TRUE(dump.ok() && pttl.ok());
            if (!dump.ok() || !pttl.ok()) continue;
            out[key] = KeyState{reply_text(dump.value().get()), pttl.value()->integer > 0};
        }
        return out;
    };
    const auto before = snapshot();
    ASSERT_EQ(before.size(), keys.size());

    for (const auto& name : presets) {
        const sim::Scenario s = load_preset(name);
        live::LiveOptions options;
        options.redis_url = url_text;
        options.tick_ms = 50;
        const live::LiveReport report = live::run_live(s, options);
        ASSERT_FALSE(report.backend_error) << report.backend_error->message;
        ASSERT_TRUE(report.completed) << name;
        // Nothing of the lock is left behind.
        auto scan = c.command({"KEYS", "leasescope:{" + s.lock.name + "}:*"});
        ASSERT_TRUE(scan.ok());
        const redis::KeyLayout layout(s.lock.name, s.lock.capacity);
        for (std::size_t i = 0; i < scan.value()->elements; ++i) {
            const std::string key = reply_text(scan.value()->element[i]);
            EXPECT_FALSE(layout.owns(key)) << name << " left " << key;
        }
    }

    const auto after = snapshot();
    for (const auto& [key, state] : before) {
        auto it = after.find(key);
        ASSERT_NE(it, after.end()) << key << " vanished";
        EXPECT_EQ(it->second.dump, state.dump) << key << " changed";
        EXPECT_EQ(it->second.has_ttl, state.has_ttl) << key << " gained or lost a TTL";
    }
    std::vector<std::string_view> del{"DEL"};
    for (const auto& k : keys) del.push_back(k);
    ASSERT_TRUE(c.command(del).ok());
}

TEST(LiveDriver, PresetRunsIdenticalToTheSimulation) {
    const std::string url_text = live_test::redis_url_or_fail();
    ASSERT_FALSE(url_text.empty());
    const sim::Scenario s = load_preset("expiry-takeover");
    live::LiveOptions options;
    options.redis_url = url_text;
    options.tick_ms = 50;
    std::int64_t seen = 0;
    options.on_event = [&](const sim::Event&) { ++seen; };
    const live::LiveReport report = live::run_live(s, options);
    ASSERT_TRUE(report.ok()) << (report.backend_error ? report.backend_error->message : "");
    EXPECT_EQ(seen, report.trace.summary.events);
    EXPECT_EQ(report.trace.header.tick_ms, 50);
    const auto comparison = live::compare_with_model(s, report);
    if (report.timing_faults.empty() && comparison.divergence) {
        ADD_FAILURE() << comparison.divergence->description;
    }
    // Tokens are the operating system's, 22 characters, not the simulator's 8.
    for (const auto& e : report.trace.events) {
        if (!e.token.empty()) {
            EXPECT_EQ(e.token.size(), 22u);
        }
    }
}

// The library's rules of model.md §5 against a real server: the group elector
// attempting at its deadline and after a pause, the single lock giving up,
// releases under both partition modes (read first, never sent), the
// watchdog on its millisecond period, several runs in one tick included, and
// a client's check before its writes (model.md §5.8). Each
// runs live at 50 ms and must equal its simulation; a run the machine could
// not keep in time is run again (at most three times), never counted.
TEST(LiveDriver, LibraryRulesRunIdenticalToTheSimulation) {
    const std::string url_text = live_test::redis_url_or_fail();
    ASSERT_FALSE(url_text.empty());
    const std::vector<std::pair<const char*, const char*>> cases = {
        {"group-deadline", R"({"name":"group-deadline","lock":{"name":"rules-g","elector":"group"},
           "defaults":{"wait":2,"lease":6,"action":3},
           "candidates":[{"name":"a"},{"name":"b","start":1},{"name":"c","start":1}],
           "faults":[{"kind":"pause","node":"c","at":2,"ticks":4}]})"},
        {"lock-deadline", R"({"name":"lock-deadline","lock":{"name":"rules-l"},
           "defaults":{"wait":2,"lease":6,"action":3},
           "candidates":[{"name":"a"},{"name":"b","start":1},{"name":"c","start":1}],
           "faults":[{"kind":"pause","node":"c","at":2,"ticks":4}]})"},
        {"release-partitions", R"({"name":"release-partitions","lock":{"name":"rules-r","capacity":2},
           "defaults":{"wait":0,"lease":6,"action":2},
           "candidates":[{"name":"a"},{"name":"b"},{"name":"c","start":3,"wait":6}],
           "faults":[{"kind":"partition","node":"a","at":1,"ticks":3,"mode":"drop_replies"},
                     {"kind":"partition","node":"b","at":1,"ticks":3,"mode":"drop_requests"}]})"},
        {"watchdog-ms", R"({"name":"watchdog-ms","lock":{"name":"rules-w"},
           "defaults":{"wait":0,"action":14,"auto_extend":true},
           "candidates":[{"name":"a","lease":10},{"name":"b","lease":2,"start":15,"action":5}]})"},
        // Check, then act (§5.8): the check is the store's validate script:
        // a's answers current, then stale (b holds), c's fails in a partition.
        {"check-then-act", R"({"name":"check-then-act","lock":{"name":"rules-c"},
           "defaults":{"wait":0,"lease":3,"action":6,"check":"validate"},
           "candidates":[{"name":"a","writes":[2,5]},{"name":"b","start":1,"wait":10,"action":3,"writes":[1]},
                         {"name":"c","start":1,"wait":12,"action":2}],
           "faults":[{"kind":"partition","node":"c","at":8,"ticks":2}]})"},
    };
    for (const auto& [name, text] : cases) {
        SCOPED_TRACE(name);
        auto parsed = sim::parse_scenario(text, name);
        ASSERT_TRUE(parsed.ok()) << parsed.error().to_string();
        expect_live_equals_simulation(parsed.value(), url_text);
    }
}

// Time on the wire (model.md §13.7): the delay presets and generated
// scenarios with latencies, delays, command timeouts, pauses and partitions
// run live identical to their simulation, `sent` and `applied` included. Each
// generated scenario must put something on the wire late, so that the test
// would fail if the driver sent a request when it was issued.
TEST(LiveDriver, TimeOnTheWireRunsIdenticalToTheSimulation) {
    const std::string url_text = live_test::redis_url_or_fail();
    ASSERT_FALSE(url_text.empty());
    for (const char* name : {"delayed-write", "late-reply"}) {
        SCOPED_TRACE(name);
        expect_live_equals_simulation(load_preset(name), url_text);
    }
    const std::uint64_t count = static_cast<std::uint64_t>(live_test::env_int("LEASESCOPE_LIVE_WIRE_SCENARIOS", 12));
    std::int64_t late_calls = 0, timeouts = 0;
    for (std::uint64_t seed = 1; seed <= count; ++seed) {
        const std::string text = wire_scenario(seed);
        SCOPED_TRACE(text);
        auto parsed = sim::parse_scenario(text, "wire");
        ASSERT_TRUE(parsed.ok()) << parsed.error().to_string();
        const auto sim_trace = sim::simulate(parsed.value());
        for (const auto& e : sim_trace.events) {
            if (e.applied && e.sent && *e.applied > *e.sent) ++late_calls;
            if (e.sent && e.outcome == sim::Outcome::error) ++timeouts;  // timed out, applied or not
        }
        expect_live_equals_simulation(parsed.value(), url_text);
    }
    std::printf("generated: %lld late requests, %lld calls timed out\n", static_cast<long long>(late_calls),
                static_cast<long long>(timeouts));
    EXPECT_GT(late_calls, 0) << "no generated request arrived late: the test would not see a driver that sends early";
    EXPECT_GT(timeouts, 0) << "no generated call timed out";
}

TEST(LiveDriver, CancelStopsTheRunWithinATick) {
    const std::string url_text = live_test::redis_url_or_fail();
    ASSERT_FALSE(url_text.empty());
    const sim::Scenario s = load_preset("scheduled-job");
    std::atomic<bool> cancel{false};
    live::LiveOptions options;
    options.redis_url = url_text;
    options.tick_ms = 200;
    options.cancel = &cancel;
    std::thread canceller([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(700));
        cancel = true;
    });
    const auto begin = std::chrono::steady_clock::now();
    const live::LiveReport report = live::run_live(s, options);
    const auto took = std::chrono::steady_clock::now() - begin;
    canceller.join();
    EXPECT_TRUE(report.cancelled);
    EXPECT_FALSE(report.completed);
    EXPECT_FALSE(report.backend_error);
    EXPECT_LT(took, std::chrono::milliseconds(1500));
    EXPECT_FALSE(report.trace.events.empty());
}

TEST(LiveDriver, MalformedUrlIsBadInputNotABackendError) {
    const sim::Scenario s = load_preset("contention");
    live::LiveOptions options;
    options.redis_url = "redis://u:pw@host:99999";
    const live::LiveReport report = live::run_live(s, options);
    ASSERT_TRUE(report.input_error);
    EXPECT_FALSE(report.backend_error);
    EXPECT_EQ(report.input_error->find("pw@"), std::string::npos);
}

TEST(LiveDriver, ATickThatOverrunsIsReportedAsATimingFault) {
    const std::string url_text = live_test::redis_url_or_fail();
    ASSERT_FALSE(url_text.empty());
    const sim::Scenario s = load_preset("contention");
    live::LiveOptions options;
    options.redis_url = url_text;
    options.tick_ms = 50;
    // Stall inside tick 0 (after its first event) for longer than a tick:
    // tick 0's commands end after its deadline.
    bool stalled = false;
    options.on_event = [&](const sim::Event& e) {
        if (!stalled && e.tick == 0) {
            stalled = true;
            std::this_thread::sleep_for(std::chrono::milliseconds(60));
        }
    };
    const live::LiveReport report = live::run_live(s, options);
    ASSERT_TRUE(report.ok()) << (report.backend_error ? report.backend_error->message : "");
    ASSERT_FALSE(report.timing_faults.empty());
    EXPECT_EQ(report.timing_faults.front().tick, 0);
    EXPECT_GT(report.timing_faults.front().late_ms, 30.0);
}

TEST(TickPacer, DeadlineIsTheTicksEndLessTheMargin) {
    live::TickPacer pacer(40);
    pacer.start();
    ASSERT_TRUE(pacer.wait_for_mid(0));
    EXPECT_GE(pacer.ms_past_deadline(0), -(20.0 - static_cast<double>(live::timing_margin_ms)) - 0.001);
    EXPECT_TRUE(pacer.within(0));
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_FALSE(pacer.within(0));
    EXPECT_TRUE(pacer.within(1));
}

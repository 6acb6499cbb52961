// The Code panel's calls against the trace: for every event of every preset,
// the store calls it shows are the ones the model's outcome implies (a kept
// release carries a keep time, a released one none, a not_owner release only
// its read), with the candidate's lease and hold-off in the live timing
// rule's milliseconds; and the client code carries the knobs.
#include <gtest/gtest.h>

#include "support/preset_loader.hpp"
#include "core/code_snippets.hpp"
#include "leasescope/redis/redisson_scripts.hpp"
#include "leasescope/redis/live_timing.hpp"
#include "leasescope/sim/simulation.hpp"

using namespace leasescope;
using namespace leasescope::gui;
using redis::ScriptId;
using sim::EventOp;
using sim::Outcome;

namespace {

std::string ms(Tick ticks, std::int64_t tick_ms) { return std::to_string(redis::ttl_ms_for(ticks, tick_ms)); }

}  // namespace

TEST(CodeSnippets, Durations) {
    EXPECT_EQ(iso_duration(500), "PT0.5S");
    EXPECT_EQ(iso_duration(50), "PT0.05S");
    EXPECT_EQ(iso_duration(10000), "PT10S");
    EXPECT_EQ(iso_duration(1250), "PT1.25S");
    EXPECT_EQ(iso_duration(0), "PT0S");
    EXPECT_EQ(kotlin_duration(300), "300.milliseconds");
    EXPECT_EQ(kotlin_duration(2000), "2.seconds");
    EXPECT_EQ(kotlin_duration(0), "0.milliseconds");
}

TEST(CodeSnippets, ClientCodeCarriesTheKnobs) {
    const sim::Scenario s = test::load_preset("expiry-takeover");
    const ElectorOptions& o = s.candidates[0].options;
    const ClientCode c = client_code(s, 0);
    EXPECT_FALSE(c.group);
    EXPECT_NE(c.kotlin.find("leaseTime = " + kotlin_duration(o.lease * s.tick_ms)), std::string::npos) << c.kotlin;
    EXPECT_NE(c.kotlin.find("waitTime = " + kotlin_duration(o.wait * s.tick_ms)), std::string::npos) << c.kotlin;
    EXPECT_NE(c.kotlin.find("minLeaseTime = " + kotlin_duration(o.min_lease * s.tick_ms)), std::string::npos);
    EXPECT_NE(c.kotlin.find("runIfLeaderResult(\"" + s.lock.name + "\")"), std::string::npos);
    EXPECT_NE(c.spring.find("leaseTime = \"" + iso_duration(o.lease * s.tick_ms) + "\""), std::string::npos)
        << c.spring;
    EXPECT_NE(c.spring.find("autoExtend = " + std::string(o.auto_extend ? "true" : "false")), std::string::npos);
    EXPECT_NE(c.dcore.find("(acquire! elector \"" + s.lock.name + "\""), std::string::npos) << c.dcore;

    const sim::Scenario g = test::load_preset("group-expiry");
    const ClientCode gc = client_code(g, 0);
    EXPECT_TRUE(gc.group);
    EXPECT_NE(gc.kotlin.find("maxLeaders = " + std::to_string(g.lock.capacity)), std::string::npos) << gc.kotlin;
}

TEST(CodeSnippets, EveryEventOfEveryPresetSendsWhatItsOutcomeImplies) {
    std::size_t acquires = 0, kept = 0, released = 0, not_owner = 0;
    for (const std::string& name : test::app_preset_names()) {
        SCOPED_TRACE(name);
        const sim::Scenario s = test::load_preset(name);
        if (s.is_redlock()) continue;  // the redlock client's calls: RedlockEveryStoreAnswerShowsItsScript
        const sim::Trace trace = sim::simulate(s);
        for (std::size_t k = 0; k < trace.events.size(); ++k) {
            const sim::Event& e = trace.events[k];
            SCOPED_TRACE(sim::event_line(e));
            const EventCalls c = event_calls(s, trace, k);
            const NodeIndex n = s.find(e.node);
            switch (e.op) {
                case EventOp::acquire: {
                    ++acquires;
                    ASSERT_EQ(c.calls.size(), 1u);
                    EXPECT_EQ(c.calls[0].script, ScriptId::acquire);
                    const auto& a = c.calls[0].args;
                    ASSERT_EQ(a.size(), 4u);
                    EXPECT_EQ(a[0], e.node);
                    EXPECT_EQ(a[1], e.token);
                    EXPECT_EQ(a[2], ms(s.candidates[static_cast<std::size_t>(n)].options.lease, s.tick_ms));
                    EXPECT_EQ(a[3], std::to_string(s.lock.fencing_start - 1));
                    break;
                }
                case EventOp::release: {
                    ASSERT_FALSE(c.calls.empty());
                    EXPECT_EQ(c.calls[0].script, ScriptId::validate);
                    EXPECT_EQ(c.calls[0].args, std::vector<std::string>{e.token});
                    if (e.outcome == Outcome::kept || e.outcome == Outcome::released) {
                        ASSERT_EQ(c.calls.size(), 2u);
                        EXPECT_EQ(c.calls[1].script, ScriptId::release);
                        const auto& a = c.calls[1].args;
                        // The model keeps the record exactly when keep_for > 0 (model.md §4.2).
                        EXPECT_EQ(a[1] != "0", e.outcome == Outcome::kept) << a[1];
                        const Tick hold_off = s.candidates[static_cast<std::size_t>(n)].options.hold_off;
                        EXPECT_EQ(a[2], hold_off > 0 ? ms(hold_off, s.tick_ms) : "0");
                        ++(e.outcome == Outcome::kept ? kept : released);
                    } else {
                        EXPECT_EQ(c.calls.size(), 1u);  // not_owner or cut off: the read only
                        if (e.outcome == Outcome::not_owner) ++not_owner;
                    }
                    break;
                }
                case EventOp::extend:
                    ASSERT_EQ(c.calls.size(), 1u);
                    EXPECT_EQ(c.calls[0].script, ScriptId::extend);
                    EXPECT_EQ(c.calls[0].args[0], e.token);
                    break;
                case EventOp::status: EXPECT_EQ(c.calls.at(0).script, ScriptId::status); break;
                case EventOp::validate: EXPECT_EQ(c.calls.at(0).script, ScriptId::validate); break;
                case EventOp::expire: EXPECT_EQ(c.calls.at(0).script, ScriptId::expire); break;
                case EventOp::failover: EXPECT_EQ(c.calls.at(0).script, ScriptId::failover); break;
                case EventOp::write:
                    EXPECT_EQ(c.calls.size(), s.resource == sim::ResourceMode::validate ? 1u : 0u);
                    break;
                default: EXPECT_TRUE(c.calls.empty()); EXPECT_EQ(c.note, CallNote::no_redis);
            }
            EXPECT_EQ(c.note == CallNote::failed, e.outcome == Outcome::error);
        }
    }
    // The presets reach every kind of release the panel tells apart.
    EXPECT_GT(acquires, 0u);
    EXPECT_GT(kept, 0u);
    EXPECT_GT(released, 0u);
    EXPECT_GT(not_owner, 0u);
}

TEST(CodeSnippets, CommandLinesNameTheScriptTheKeysAndTheArguments) {
    const redis::KeyLayout keys("orders", 2);
    const std::string line = command_lines({redis::acquire_call("node-a", "tok en", 6, 50, 33)}, keys);
    EXPECT_EQ(line,
              "EVALSHA sha1(acquire) 4 leasescope:{orders}:slot:0 leasescope:{orders}:slot:1 "
              "leasescope:{orders}:fencing leasescope:{orders}:holdoff node-a \"tok en\" 275 32\n");
}

// The Code panel for the redlock client (model.md §20): the package's own
// calls and option names with this scenario's values, the highlighted line of
// each step, and for every store's answer in every Redlock preset the script
// that store ran (lockScript or unlockScript, redlock.js 9-38) with its token.
TEST(CodeSnippets, RedlockEveryStoreAnswerShowsItsScript) {
    const sim::Scenario jump = test::load_preset("redlock-clock-jump");
    const RedlockCode code = redlock_code(jump, 0);
    const std::string text = code.text();
    for (const char* want : {"new Redlock([A, B, C, D, E]", "driftFactor: 0.01", "retryCount: 10", "retryDelay: 200",
                             "retryJitter: 0", "redlock.lock('billing', 10000)", "lock.unlock()"})
        EXPECT_NE(text.find(want), std::string::npos) << want << " in\n" << text;
    EXPECT_NE(code.lines[static_cast<std::size_t>(redlock_line(code, "locking"))].find("redlock.lock("),
              std::string::npos);
    EXPECT_NE(code.lines[static_cast<std::size_t>(redlock_line(code, "working"))].find("work()"), std::string::npos);
    EXPECT_NE(code.lines[static_cast<std::size_t>(redlock_line(code, "releasing"))].find("lock.unlock()"),
              std::string::npos);
    EXPECT_EQ(redlock_line(code, "finished"), -1);
    std::size_t answers = 0;
    for (const std::string& name : test::app_preset_names()) {
        const sim::Scenario s = test::load_preset(name);
        if (!s.is_redlock()) continue;
        const sim::Trace trace = sim::simulate(s);
        for (std::size_t k = 0; k < trace.events.size(); ++k) {
            const sim::Event& e = trace.events[k];
            const std::string call = redlock_event_call(s, trace, k);
            const bool answer = e.server && (e.op == EventOp::acquire || e.op == EventOp::release);
            EXPECT_EQ(call.empty(), !answer) << name << " " << sim::event_line(e);
            if (!answer) continue;
            ++answers;
            const std::string store = trace.header.stores[static_cast<std::size_t>(*e.server)];
            EXPECT_NE(call.find("# store " + store + "\n"), std::string::npos) << call;
            EXPECT_NE(call.find(e.op == EventOp::acquire ? "EVALSHA sha1(lockScript) 1 billing " + e.token + " 10000"
                                                         : "EVALSHA sha1(unlockScript) 1 billing " + e.token),
                      std::string::npos)
                << call;
        }
    }
    EXPECT_GT(answers, 30u);
}

// Redisson's Code panel (model.md §21.1 rule 2): getLock with the lock's
// name, tryLock(waitTime, leaseTime, MILLISECONDS) without the watchdog and
// tryLock(waitTime, MILLISECONDS) with it, Config's lockWatchdogTimeout;
// per event the script Redis ran with Redisson's KEYS and ARGV, and an
// unlock message's PUBLISH on the lock's channel.
TEST(CodeSnippets, RedissonCallsCarryTheScenariosValuesAndEachEventItsScript) {
    const sim::Scenario lost = test::load_preset("lost-unlock-redisson");
    const RedlockCode code = redisson_code(lost, 1);
    const std::string text = code.text();
    EXPECT_NE(text.find("redisson.getLock(\"report\")"), std::string::npos) << text;
    EXPECT_NE(text.find("lock.tryLock(15000, 10000, TimeUnit.MILLISECONDS)"), std::string::npos) << text;
    EXPECT_NE(text.find("config.setLockWatchdogTimeout(30000)"), std::string::npos) << text;
    EXPECT_NE(code.lines[static_cast<std::size_t>(code.unlock_line)].find("lock.unlock()"), std::string::npos);
    EXPECT_EQ(redisson_line(code, "sleeping"), code.lock_line);
    EXPECT_EQ(redisson_line(code, "holding"), code.work_line);
    EXPECT_EQ(redisson_line(code, "unlocking"), code.unlock_line);
    EXPECT_EQ(redisson_line(code, "finished"), -1);
    const sim::Scenario dog = test::load_preset("watchdog-redisson");
    const std::string dog_text = redisson_code(dog, 0).text();
    EXPECT_NE(dog_text.find("lock.tryLock(5000, TimeUnit.MILLISECONDS)"), std::string::npos) << dog_text;

    const sim::Timeline timeline(lost);
    const auto& events = timeline.trace().events;
    for (std::size_t k = 0; k < events.size(); ++k) {
        const sim::Event& e = events[k];
        const std::string call = redisson_event_call(&lost, timeline.trace(), k);
        switch (e.op) {
            case sim::EventOp::acquire:
                EXPECT_NE(call.find("EVALSHA sha1(lockScript) 1 report 10000 "), std::string::npos) << call;
                EXPECT_NE(call.find(std::string(redis::redisson_lock_script)), std::string::npos);
                break;
            case sim::EventOp::release:
                EXPECT_NE(call.find("EVALSHA sha1(unlockScript) 3 report"), std::string::npos) << call;
                EXPECT_NE(call.find(std::string(redis::redisson_unlock_script)), std::string::npos);
                break;
            case sim::EventOp::message:
                EXPECT_NE(call.find("PUBLISH redisson_lock__channel:{report} 0"), std::string::npos) << call;
                break;
            default: EXPECT_TRUE(call.empty()) << sim::to_string(e.op);
        }
    }
    // A trace alone names the lease, it does not guess it.
    EXPECT_NE(redisson_event_call(nullptr, timeline.trace(), 1).find("<internalLockLeaseTime>"), std::string::npos);
}

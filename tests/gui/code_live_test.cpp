// The Code panel against a real server: the acquire, extend and release
// scripts a live run sends (read back from Redis's SLOWLOG, which records
// every command when its threshold is 0) are, in order and argument for
// argument, the calls the panel shows for the events of that live trace.
// Needs the test server of ./test.sh (LEASESCOPE_REDIS_URL); labelled live.
#include <gtest/gtest.h>

#include <map>

#include "support/live_test_support.hpp"
#include "support/preset_loader.hpp"
#include "core/code_snippets.hpp"
#include "leasescope/live/live_driver.hpp"
#include "leasescope/redis/redis_connection.hpp"

using namespace leasescope;
using namespace leasescope::gui;
using redis::ScriptId;

namespace {

std::string text_of(const redisReply* r) {
    return r != nullptr && (r->type == REDIS_REPLY_STRING || r->type == REDIS_REPLY_STATUS)
               ? std::string(r->str, r->len)
               : std::string();
}

// One script call as sent: its script and its ARGV (after the KEYS).
struct Sent {
    ScriptId script;
    std::vector<std::string> args;
    bool operator==(const Sent&) const = default;
};

std::ostream& operator<<(std::ostream& out, const Sent& s) {
    out << redis::script_name(s.script);
    for (const auto& a : s.args) out << ' ' << a;
    return out;
}

bool shown_by_events(ScriptId id) {
    return id == ScriptId::acquire || id == ScriptId::extend || id == ScriptId::release;
}

}  // namespace

TEST(CodePanelLive, TheScriptsALiveRunSendsAreTheOnesThePanelShows) {
    const redis::RedisUrl url = live_test::parsed_url_or_fail();
    ASSERT_FALSE(url.host.empty());
    auto opened = redis::RedisConnection::open(url);
    ASSERT_TRUE(opened.ok()) << opened.error().message;
    redis::RedisConnection c = std::move(opened.value());
    // SHA-1 → script, from the server itself.
    std::map<std::string, ScriptId> by_sha;
    for (ScriptId id : redis::all_scripts) {
        auto sha = c.command({"SCRIPT", "LOAD", redis::script_source(id)});
        ASSERT_TRUE(sha.ok());
        by_sha[text_of(sha.value().get())] = id;
    }
    auto old = c.command({"CONFIG", "GET", "slowlog-log-slower-than"});
    ASSERT_TRUE(old.ok());
    const std::string old_threshold = text_of(old.value()->element[1]);
    auto old_len = c.command({"CONFIG", "GET", "slowlog-max-len"});
    ASSERT_TRUE(old_len.ok());
    const std::string old_max = text_of(old_len.value()->element[1]);

    // Presets without partitions (a cut-off call may or may not reach the
    // server): kept and released records, a hold-off, the watchdog, a group.
    for (const std::string name :
         {"expiry-takeover", "min-lease", "hold-off-handover", "auto-extension", "group-expiry"}) {
        SCOPED_TRACE(name);
        const sim::Scenario s = test::load_preset(name);
        ASSERT_TRUE(c.command({"CONFIG", "SET", "slowlog-log-slower-than", "0"}).ok());
        ASSERT_TRUE(c.command({"CONFIG", "SET", "slowlog-max-len", "100000"}).ok());
        ASSERT_TRUE(c.command({"SLOWLOG", "RESET"}).ok());
        live::LiveOptions options;
        options.redis_url = live_test::redis_url_or_fail();
        const live::LiveReport report = live::run_live(s, options);
        auto log = c.command({"SLOWLOG", "GET", "-1"});
        ASSERT_TRUE(c.command({"CONFIG", "SET", "slowlog-log-slower-than", old_threshold}).ok());
        ASSERT_TRUE(c.command({"CONFIG", "SET", "slowlog-max-len", old_max}).ok());
        ASSERT_TRUE(report.ok()) << (report.backend_error ? report.backend_error->message : "");
        ASSERT_TRUE(log.ok());
        // The server's record, oldest first.
        std::vector<Sent> sent;
        const redisReply* entries = log.value().get();
        const std::size_t keys = static_cast<std::size_t>(s.lock.capacity) + 2;
        for (std::size_t i = entries->elements; i-- > 0;) {
            const redisReply* args = entries->element[i]->element[3];
            if (args->elements < 3 || text_of(args->element[0]) != "EVALSHA") continue;
            const auto it = by_sha.find(text_of(args->element[1]));
            ASSERT_NE(it, by_sha.end()) << "an EVALSHA of no script of the store";
            if (!shown_by_events(it->second)) continue;
            Sent one{it->second, {}};
            for (std::size_t a = 3 + keys; a < args->elements; ++a) one.args.push_back(text_of(args->element[a]));
            sent.push_back(std::move(one));
        }
        // What the panel shows for the live trace's events, in order.
        std::vector<Sent> shown;
        for (std::size_t k = 0; k < report.trace.events.size(); ++k) {
            for (const redis::ScriptCall& call : event_calls(s, report.trace, k).calls) {
                if (shown_by_events(call.script)) shown.push_back({call.script, call.args});
            }
        }
        EXPECT_FALSE(shown.empty());
        EXPECT_EQ(sent, shown);
    }
}

// The SHA-1 the importer computes for every known script (docs/model.md
// §19.3.7) is what the test server's SCRIPT LOAD answers for the same bytes:
// an EVALSHA in a real capture names the script by this hash.
#include <gtest/gtest.h>

#include <string>

#include "leasescope/redis/redis_connection.hpp"
#include "leasescope/sim/import.hpp"
#include "support/live_test_support.hpp"

using namespace leasescope;

TEST(KnownScriptsLive, ShaIsWhatScriptLoadAnswers) {
    const redis::RedisUrl url = live_test::parsed_url_or_fail();
    if (url.host.empty()) return;  // parsed_url_or_fail has failed the test
    auto connection = redis::RedisConnection::open(url);
    ASSERT_TRUE(connection.ok()) << connection.error().message;
    for (const auto& script : sim::import::known_scripts()) {
        auto reply = connection->command({"SCRIPT", "LOAD", script.body});
        ASSERT_TRUE(reply.ok()) << script.library << " " << script.name << ": " << reply.error().message;
        const redisReply* r = reply->get();
        ASSERT_EQ(r->type, REDIS_REPLY_STRING) << redis::describe_reply(r);
        EXPECT_EQ(std::string(r->str, r->len), sim::import::sha1_hex(script.body))
            << script.library << " " << script.name;
    }
}

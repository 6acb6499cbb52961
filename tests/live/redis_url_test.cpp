// The Redis URL: every accepted form, clear errors for malformed ones, and a
// password that never shows up in anything printable.
#include <gtest/gtest.h>

#include "leasescope/redis/redis_url.hpp"

using leasescope::redis::parse_redis_url;

TEST(RedisUrl, AcceptsHostPortUserPasswordAndDatabase) {
    auto plain = parse_redis_url("redis://127.0.0.1:6390");
    ASSERT_TRUE(plain.ok()) << plain.error();
    EXPECT_EQ(plain->host, "127.0.0.1");
    EXPECT_EQ(plain->port, 6390);
    EXPECT_FALSE(plain->has_password);
    EXPECT_EQ(plain->db, 0);

    auto no_port = parse_redis_url("redis://localhost");
    ASSERT_TRUE(no_port.ok()) << no_port.error();
    EXPECT_EQ(no_port->port, 6379);

    auto full = parse_redis_url("redis://alice:s3cr%40t@db.example.com:7000/5");
    ASSERT_TRUE(full.ok()) << full.error();
    EXPECT_EQ(full->user, "alice");
    EXPECT_EQ(full->password, "s3cr@t");
    EXPECT_TRUE(full->has_password);
    EXPECT_EQ(full->host, "db.example.com");
    EXPECT_EQ(full->port, 7000);
    EXPECT_EQ(full->db, 5);

    auto password_only = parse_redis_url("redis://:pw@h:1/0");
    ASSERT_TRUE(password_only.ok()) << password_only.error();
    EXPECT_EQ(password_only->user, "");
    EXPECT_EQ(password_only->password, "pw");

    auto ipv6 = parse_redis_url("redis://[::1]:6390");
    ASSERT_TRUE(ipv6.ok()) << ipv6.error();
    EXPECT_EQ(ipv6->host, "::1");
    EXPECT_EQ(ipv6->port, 6390);
}

TEST(RedisUrl, RedactedFormHidesThePassword) {
    auto url = parse_redis_url("redis://alice:hunter2@h:7000/3");
    ASSERT_TRUE(url.ok());
    EXPECT_EQ(url->redacted(), "redis://alice:***@h:7000/3");
    EXPECT_EQ(url->redacted().find("hunter2"), std::string::npos);
}

TEST(RedisUrl, MalformedUrlsGetErrorsThatSayWhatIsWrong) {
    struct Case {
        const char* url;
        const char* says;
    };
    const Case cases[] = {
        {"", "empty"},
        {"127.0.0.1:6379", "must start with redis://"},
        {"http://h:1", "must start with redis://"},
        {"rediss://h:1", "TLS"},
        {"redis://", "host is missing"},
        {"redis://:6379", "host is missing"},
        {"redis://h:", "port is empty"},
        {"redis://h:0", "port must be a number from 1 to 65535"},
        {"redis://h:65536", "port must be a number"},
        {"redis://h:12ab", "port must be a number"},
        {"redis://h:-1", "port must be a number"},
        {"redis://h:1/x", "database"},
        {"redis://h:1/-2", "database"},
        {"redis://h:1/0?timeout=1", "query"},
        {"redis://secret@h:1", "needs a colon"},
        {"redis://u:p%4@h:1", "%-escape in the password"},
        {"redis://h h:1", "not allowed in a host name"},
        {"redis://[::1:6379", "closing ']'"},
    };
    for (const Case& c : cases) {
        auto parsed = parse_redis_url(c.url);
        ASSERT_FALSE(parsed.ok()) << c.url;
        EXPECT_NE(parsed.error().find("bad Redis URL"), std::string::npos) << parsed.error();
        EXPECT_NE(parsed.error().find(c.says), std::string::npos) << c.url << " -> " << parsed.error();
    }
}

TEST(RedisUrl, ErrorsNeverQuoteThePassword) {
    for (const char* url : {"redis://u:topsecret@h:0", "redis://u:topsecret@:1", "redis://u:topsecret@h:1/x",
                            "redis://u:topsecret%zz@h:1"}) {
        auto parsed = parse_redis_url(url);
        ASSERT_FALSE(parsed.ok()) << url;
        EXPECT_EQ(parsed.error().find("topsecret"), std::string::npos) << parsed.error();
    }
}

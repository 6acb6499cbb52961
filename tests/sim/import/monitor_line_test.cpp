// One line of a `redis-cli monitor` capture (docs/model.md §19.1.1–2):
// parse_monitor_line and redis_repr.
#include <gtest/gtest.h>

#include <string>

#include "leasescope/sim/import.hpp"

namespace leasescope::sim::import {
namespace {

TEST(MonitorLine, ReadsTimeDatabaseClientAndArguments) {
    // A line exactly as redis-cli 7.0.15 printed it (tests/data/import/plain-7.0.15.txt).
    const LineParse p =
        parse_monitor_line(R"(1796374662.566963 [0 127.0.0.1:42254] "SET" "job:lock" "tok-a" "NX" "PX" "400")");
    ASSERT_EQ(p.kind, LineParse::Kind::line) << p.error;
    EXPECT_EQ(p.line.ts_us, 1796374662566963);
    EXPECT_EQ(p.line.db, 0);
    EXPECT_EQ(p.line.client, "127.0.0.1:42254");
    EXPECT_FALSE(p.line.lua);
    EXPECT_EQ(p.line.args, (std::vector<std::string>{"SET", "job:lock", "tok-a", "NX", "PX", "400"}));
}

TEST(MonitorLine, ClientsOfEveryKind) {
    // IPv6 addresses hold a ']' of their own; unix sockets and scripts too.
    const LineParse v6 = parse_monitor_line(R"(1.000001 [15 [::1]:6000] "GET" "k")");
    ASSERT_EQ(v6.kind, LineParse::Kind::line) << v6.error;
    EXPECT_EQ(v6.line.client, "[::1]:6000");
    EXPECT_EQ(v6.line.db, 15);
    const LineParse unix_socket = parse_monitor_line(R"(1.000001 [0 unix:/tmp/r.sock] "GET" "k")");
    ASSERT_EQ(unix_socket.kind, LineParse::Kind::line) << unix_socket.error;
    EXPECT_EQ(unix_socket.line.client, "unix:/tmp/r.sock");
    const LineParse lua = parse_monitor_line(R"(1.000001 [0 lua] "INCR" "c")");
    ASSERT_EQ(lua.kind, LineParse::Kind::line) << lua.error;
    EXPECT_TRUE(lua.line.lua);
    EXPECT_EQ(lua.line.client, "lua");
}

TEST(MonitorLine, DecodesEverySdscatreprEscape) {
    const LineParse p = parse_monitor_line(R"(1.000000 [0 1.2.3.4:5] "a\\b\"c\n\r\t\a\b\x00\xff\xAbz")");
    ASSERT_EQ(p.kind, LineParse::Kind::line) << p.error;
    ASSERT_EQ(p.line.args.size(), 1u);
    EXPECT_EQ(p.line.args[0], std::string("a\\b\"c\n\r\t\a\b\0\xff\xab"
                                          "z",
                                          14));
}

TEST(MonitorLine, SkipsEmptyLinesAndTheFirstOk) {
    EXPECT_EQ(parse_monitor_line("").kind, LineParse::Kind::skip);
    EXPECT_EQ(parse_monitor_line("\r").kind, LineParse::Kind::skip);
    EXPECT_EQ(parse_monitor_line("OK").kind, LineParse::Kind::skip);
    const LineParse crlf = parse_monitor_line("1.000000 [0 lua] \"GET\" \"k\"\r");
    ASSERT_EQ(crlf.kind, LineParse::Kind::line) << crlf.error;
    EXPECT_EQ(crlf.line.args.back(), "k");
}

TEST(MonitorLine, ACutLineNamesTheColumnOfItsOpenArgument) {
    const LineParse p = parse_monitor_line(R"(1.000000 [0 1.2.3.4:5] "SET" "job:lock" "tok)");
    ASSERT_EQ(p.kind, LineParse::Kind::bad);
    EXPECT_EQ(p.error, "expected '\"' to close the argument that starts at column 41 (a line cut short?)");
    const LineParse escape = parse_monitor_line(R"(1.000000 [0 1.2.3.4:5] "a\)");
    ASSERT_EQ(escape.kind, LineParse::Kind::bad);
    EXPECT_EQ(escape.error, "expected '\"' to close the argument that starts at column 24 (a line cut short?)");
    const LineParse header = parse_monitor_line("1.000000 [0 1.2.3");
    ASSERT_EQ(header.kind, LineParse::Kind::bad);
    EXPECT_NE(header.error.find("(a line cut short?)"), std::string::npos) << header.error;
}

TEST(MonitorLine, BadLinesSayWhatWasExpected) {
    const LineParse old = parse_monitor_line(R"(1339518083.107412 "keys" "*")");
    ASSERT_EQ(old.kind, LineParse::Kind::bad);
    EXPECT_NE(old.error.find("Redis before 2.6"), std::string::npos) << old.error;
    const LineParse time = parse_monitor_line(R"(12:00:01 [0 lua] "GET" "k")");
    ASSERT_EQ(time.kind, LineParse::Kind::bad);
    EXPECT_NE(time.error.find("SECONDS.MICROS"), std::string::npos) << time.error;
    EXPECT_NE(parse_monitor_line("1.00000 [0 lua] \"GET\"").error.find("SECONDS.MICROS"), std::string::npos);
    const LineParse escape = parse_monitor_line(R"(1.000000 [0 lua] "a\qb")");
    ASSERT_EQ(escape.kind, LineParse::Kind::bad);
    EXPECT_EQ(escape.error, "expected an escape (\\\\, \\\", \\n, \\r, \\t, \\a, \\b or \\xHH) at column 20");
    const LineParse junk = parse_monitor_line(R"(1.000000 [0 lua] "GET"x)");
    ASSERT_EQ(junk.kind, LineParse::Kind::bad);
    EXPECT_EQ(junk.error, "expected ' \"' (a quoted argument) at column 23");
    EXPECT_EQ(parse_monitor_line("1.000000 [0 lua]").kind, LineParse::Kind::bad);
    EXPECT_EQ(parse_monitor_line("1.000000 [x lua] \"GET\"").kind, LineParse::Kind::bad);
}

TEST(RedisRepr, WritesBytesAsSdscatrepr) {
    EXPECT_EQ(redis_repr("job:lock"), "job:lock");
    EXPECT_EQ(redis_repr(std::string("a\\\"\n\r\t\a\b\0\x7f\xff ~", 13)), "a\\\\\\\"\\n\\r\\t\\a\\b\\x00\\x7f\\xff ~");
}

TEST(RedisRepr, EveryByteRoundTripsThroughALine) {
    // Property: for every byte, parse(repr(b)) == b.
    std::string all;
    for (int b = 0; b < 256; ++b) all.push_back(static_cast<char>(b));
    const LineParse p = parse_monitor_line("1.000000 [0 lua] \"" + redis_repr(all) + "\"");
    ASSERT_EQ(p.kind, LineParse::Kind::line) << p.error;
    EXPECT_EQ(p.line.args[0], all);
}

}  // namespace
}  // namespace leasescope::sim::import

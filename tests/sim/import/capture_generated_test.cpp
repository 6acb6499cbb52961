// Properties of the capture reader over generated captures (docs/model.md
// §19.1–§19.2): lines of other keys change nothing, a cut line is named or
// (lenient) a gap, and time going back is an error.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include <fmt/format.h>

#include "capture_support.hpp"

namespace leasescope::sim::import {
namespace {

using test::mline;

struct Gen {
    std::mt19937_64 rng;
    // Not std::uniform_int_distribution: its algorithm differs between
    // standard libraries (CONVENTIONS.md, Determinism).
    std::int64_t below(std::int64_t n) { return static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(n)); }
};

const char* const clients[] = {"127.0.0.1:50001", "127.0.0.1:50002", "[::1]:50003"};

// A history of the lock "job" alone: times in µs after t0, one line each.
std::vector<std::pair<std::int64_t, std::string>> lock_history(Gen& g) {
    std::vector<std::pair<std::int64_t, std::string>> lines;
    std::int64_t t = 0;
    for (int c = 0; c < 3; ++c) {
        t += 10;
        lines.emplace_back(t, mline(t, clients[c], {"CLIENT", "SETNAME", fmt::format("node-{}", c)}));
    }
    for (int i = 0; i < 60; ++i) {
        t += 1 + g.below(300'000);
        const char* client = clients[g.below(3)];
        std::vector<std::string> args;
        switch (g.below(4)) {
            case 0: args = {"SET", "job", fmt::format("t{}", i), "NX", "PX", std::to_string(50 + g.below(400))}; break;
            case 1: args = {"PEXPIRE", "job", std::to_string(50 + g.below(400))}; break;
            case 2: args = {"DEL", "job"}; break;
            default: args = {"GET", "job"}; break;
        }
        lines.emplace_back(t, mline(t, client, args));
    }
    return lines;
}

// The same history with lines of other keys between (at the same or later
// times, never earlier than the line before them).
std::vector<std::string> with_foreign(const std::vector<std::pair<std::int64_t, std::string>>& lock, Gen& g,
                                      bool foreign_locks) {
    std::vector<std::string> out{"OK"};
    std::int64_t last = 0;
    for (const auto& [t, text] : lock) {
        for (std::int64_t n = g.below(6); n > 0; --n) {
            const std::int64_t at = last + g.below(t - last + 1);
            last = at;
            const std::string key = fmt::format("other:{}", g.below(20));
            const char* client = clients[g.below(3)];
            switch (g.below(5)) {
                case 0: out.push_back(mline(at, client, {"SET", key, "v\x01\"", "PX", "100"})); break;
                case 1: out.push_back(mline(at, client, {"HSET", key, "f", "job"})); break;
                case 2:
                    out.push_back(mline(at, client, {"EVAL", "return redis.call('DEL', KEYS[1])", "1", key}));
                    out.push_back(mline(at, "lua", {"DEL", key}));
                    break;
                case 3:
                    out.push_back(mline(at, client,
                                        foreign_locks ? std::vector<std::string>{"SET", key, "x", "NX", "EX", "5"}
                                                      : std::vector<std::string>{"PING"}));
                    break;
                default: out.push_back(mline(at, client, {"GET", key})); break;
            }
        }
        out.push_back(text);
        last = t;
    }
    return out;
}

std::vector<std::string> plain(const std::vector<std::pair<std::int64_t, std::string>>& lock) {
    std::vector<std::string> out;
    for (const auto& l : lock) out.push_back(l.second);
    return out;
}

std::vector<std::string> shown(const std::vector<Observation>& o) {
    std::vector<std::string> out;
    for (const Observation& x : o) {
        out.push_back(fmt::format("{} {} {} {} {} {} {}", x.wall_us, static_cast<int>(x.op), x.node, x.token,
                                  to_string(x.outcome), x.ttl_ms.value_or(-1), x.why ? to_string(*x.why) : "-"));
    }
    return out;
}

TEST(CaptureGenerated, LinesOfOtherKeysChangeNoObservation) {
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
        Gen g{std::mt19937_64(seed)};
        const auto lock = lock_history(g);
        const test::Read alone = test::read_one(plain(lock));
        ASSERT_TRUE(alone.observations) << alone.error;
        const test::Read mixed = test::read_one(with_foreign(lock, g, false));
        ASSERT_TRUE(mixed.observations) << "seed " << seed << ": " << mixed.error;
        EXPECT_EQ(shown(*mixed.observations), shown(*alone.observations)) << "seed " << seed;
        // Other keys taken with SET NX EX are locks too: --lock picks ours.
        // (--lock also keeps the lock's lines from before its first SET NX,
        // rule 19.2.1, so it is compared with the lock alone under --lock.)
        ImportOptions options;
        options.lock = "job";
        const test::Read named = test::read_one(plain(lock), options);
        ASSERT_TRUE(named.observations) << named.error;
        const test::Read locks = test::read_one(with_foreign(lock, g, true), options);
        ASSERT_TRUE(locks.observations) << "seed " << seed << ": " << locks.error;
        EXPECT_EQ(shown(*locks.observations), shown(*named.observations)) << "seed " << seed;
    }
}

TEST(CaptureGenerated, ACutLineIsNamedOrAGap) {
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
        Gen g{std::mt19937_64(seed)};
        std::vector<std::string> lines = with_foreign(lock_history(g), g, false);
        const std::size_t cut = 1 + static_cast<std::size_t>(g.below(static_cast<std::int64_t>(lines.size()) - 1));
        const std::size_t quote = lines[cut].rfind('"');
        lines[cut] = lines[cut].substr(0, quote);  // the last argument loses its closing quote
        const test::Read strict = test::read_one(lines);
        EXPECT_FALSE(strict.observations);
        EXPECT_EQ(strict.error.rfind(fmt::format("cap.txt:{}: expected '\"' to close the argument", cut + 1), 0), 0u)
            << strict.error;
        ImportOptions options;
        options.lenient = true;
        const test::Read lenient = test::read_one(lines, options);
        ASSERT_TRUE(lenient.observations) << lenient.error;
        const std::vector<Observation>& o = *lenient.observations;
        // The gap is written once the lock's history has begun (before its
        // first line there is nothing to mark).
        const auto line = static_cast<std::int64_t>(cut + 1);
        const bool begun =
            std::any_of(o.begin(), o.end(), [&](const Observation& x) { return x.line > 0 && x.line < line; });
        const bool gap = std::any_of(
            o.begin(), o.end(), [&](const Observation& x) { return x.why == Detail::capture_gap && x.line == line; });
        EXPECT_EQ(gap, begun) << "seed " << seed;
        EXPECT_EQ(lenient.report.notes[0].rfind(fmt::format("cap.txt:{}: skipped (--lenient)", cut + 1), 0), 0u);
    }
}

TEST(CaptureGenerated, TimeGoingBackIsNamed) {
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
        Gen g{std::mt19937_64(seed)};
        std::vector<std::string> lines = with_foreign(lock_history(g), g, false);
        // Swap the times of two neighbours whose times differ.
        std::size_t i = 1 + static_cast<std::size_t>(g.below(static_cast<std::int64_t>(lines.size()) - 2));
        while (i + 1 < lines.size() && lines[i].substr(0, 17) == lines[i + 1].substr(0, 17)) ++i;
        ASSERT_LT(i + 1, lines.size());
        const std::string a = lines[i].substr(0, 17);
        lines[i] = lines[i + 1].substr(0, 17) + lines[i].substr(17);
        lines[i + 1] = a + lines[i + 1].substr(17);
        const test::Read r = test::read_one(lines);
        EXPECT_FALSE(r.observations);
        EXPECT_EQ(r.error.rfind(fmt::format("cap.txt:{}: time goes back ", i + 2), 0), 0u) << r.error;
        EXPECT_NE(r.error.find(fmt::format("from line {} (a clock step on the server?)", i + 1)), std::string::npos);
    }
}

}  // namespace
}  // namespace leasescope::sim::import

#pragma once
// A deterministic `redis-cli monitor` capture (docs/model.md §19.1), for the
// import's property tests (tests/sim/import/capture_property_test.cpp) and its
// benchmark (bench/bench_import.cpp). Most lines are of other keys — GET, SET,
// HSET, INCR, EXPIRE of many keys, some with escapes and bytes that are not
// UTF-8, and an unknown script on another key with its `[lua]` line — and a
// few clients contend for one lock: with plain `SET NX PX` / `PEXPIRE` / `DEL`
// (style plain) or with LeaseScope's own store scripts, `EVAL` with the body
// and the `[lua]` lines Redis would show for them (style store, rule 19.3.7).
// The generator replays the lock as Redis would (rule 19.4.1–2), so the lines
// are those a real server could print; a plain command within 1 ms of a
// deadline is never sent (rule 19.4.2 could not decide it). Seeded: the same
// spec gives the same bytes. Lines stream out one at a time: a capture of
// millions of lines is written without holding it.
#include <cstdint>
#include <deque>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "leasescope/engine/prng.hpp"
#include "leasescope/sim/import.hpp"

namespace capture_gen {

enum class LockStyle : std::uint8_t { plain, store };

struct CaptureSpec {
    std::int64_t lines = 10'000;       // lines written, redis-cli's `OK` included
    std::int64_t lock_calls = 200;     // about this many calls on the lock
    std::int64_t lock_span_lines = 0;  // the calls fall among the first this many lines; 0: all lines
    std::uint64_t seed = 1;
    LockStyle style = LockStyle::store;
    std::int64_t lease_ms = 5;
    std::int64_t line_gap_us_max = 6;  // each line 1 to this many microseconds after the one before
    std::int64_t start_us = 1'796'374'484'000'000;
    bool ok_line = true;  // redis-cli's first reply line
};

struct CaptureLine {
    std::int64_t ts_us = 0;  // 0 for the `OK` line
    std::string text;        // without its newline
    bool lock = false;       // a line of the lock (its call or a `[lua]` line of it)
    bool lua = false;        // a `[lua]` line: it must follow its call
    bool vacant = false;     // no record of the lock was written or left after it (released, or never taken)
};

// Bytes as Redis's sdscatrepr shows them, without the quotes (rule 19.1.1).
// Written here independently of the importer's redis_repr: the tests check
// one against the other through the lines.
inline std::string repr(std::string_view bytes) {
    std::string out;
    for (const char ch : bytes) {
        const auto c = static_cast<unsigned char>(ch);
        switch (c) {
            case '\\': out += "\\\\"; break;
            case '"': out += "\\\""; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            case '\a': out += "\\a"; break;
            case '\b': out += "\\b"; break;
            default:
                if (c >= 0x20 && c < 0x7f)
                    out += ch;
                else
                    out += fmt::format("\\x{:02x}", c);
        }
    }
    return out;
}

inline std::string monitor_text(std::int64_t ts_us, std::string_view client, const std::vector<std::string>& args) {
    std::string out = fmt::format("{}.{:06d} [0 {}]", ts_us / 1'000'000, ts_us % 1'000'000, client);
    for (const auto& a : args) {
        out += " \"";
        out += repr(a);
        out += '"';
    }
    return out;
}

class CaptureGenerator {
public:
    static constexpr int lock_clients = 3;
    static constexpr std::string_view lock_key = "leasescope:orders:0";
    static constexpr std::string_view counter_key = "leasescope:orders:fencing";
    static constexpr std::string_view holdoff_key = "leasescope:orders:holdoff";

    explicit CaptureGenerator(CaptureSpec spec) : spec_(spec), rng_(spec.seed), now_us_(spec.start_us) {
        for (int c = 0; c < lock_clients; ++c) clients_[c].addr = fmt::format("127.0.0.1:{}", 52000 + 17 * c);
    }

    // The next line; false after the last.
    bool next(CaptureLine& out) {
        if (written_ >= spec_.lines) return false;
        if (written_ == 0 && spec_.ok_line) return emit(out, CaptureLine{0, "OK", false, false, true});
        if (pending_.empty()) fill();
        out = std::move(pending_.front());
        pending_.pop_front();
        ++written_;
        return true;
    }

private:
    struct Client {
        std::string addr;
        std::string token;  // the token of its current run; "" before its first
        bool believes = false;
        std::int64_t muted_until_us = 0;
        int run = 0;
    };
    struct Record {
        bool exists = false;
        std::string token;
        std::int64_t deadline_ms = 0;
    };

    bool emit(CaptureLine& out, CaptureLine line) {
        out = std::move(line);
        ++written_;
        return true;
    }
    std::uint64_t draw(std::uint64_t n) { return rng_.next() % n; }
    std::int64_t now_ms() const { return now_us_ / 1000; }
    bool live() const { return record_.exists && now_ms() <= record_.deadline_ms; }
    void step() { now_us_ += 1 + static_cast<std::int64_t>(draw(static_cast<std::uint64_t>(spec_.line_gap_us_max))); }

    void push(std::string_view client, std::vector<std::string> args, bool lock) {
        const bool lua = client == "lua";
        pending_.push_back(CaptureLine{now_us_, monitor_text(now_us_, client, args), lock, lua, !record_.exists});
    }
    void lua(std::vector<std::string> args) {
        now_us_ += 1;
        push("lua", std::move(args), true);
    }

    void fill() {
        step();
        const std::int64_t left = spec_.lines - written_;
        // A call's lines are never cut off by the end of the capture.
        const std::int64_t span = spec_.lock_span_lines > 0 ? spec_.lock_span_lines : spec_.lines;
        if (left > 8 && written_ < span &&
            draw(static_cast<std::uint64_t>(span)) < static_cast<std::uint64_t>(spec_.lock_calls) && lock_call())
            return;
        foreign();
    }

    // A line of another key (rule 19.2.2: ignored and counted).
    void foreign() {
        const std::uint64_t n = draw(100'000);
        const std::string client = n % 10 == 0   ? "[::1]:" + std::to_string(6000 + n % 7)
                                   : n % 10 == 1 ? "unix:/run/redis/redis.sock"
                                                 : fmt::format("10.0.{}.{}:{}", n % 3, n % 250, 40000 + n % 40);
        const std::string key = foreign_key(n);
        switch (draw(8)) {
            case 0: push(client, {"GET", key}, false); break;
            case 1: push(client, {"SET", key, foreign_value()}, false); break;
            case 2: push(client, {"SET", key, foreign_value(), "EX", "60"}, false); break;
            case 3: push(client, {"HSET", key, "field", foreign_value()}, false); break;
            case 4: push(client, {"INCR", key}, false); break;
            case 5: push(client, {"EXPIRE", key, "30"}, false); break;
            case 6: push(client, {"PING"}, false); break;
            default:
                push(client, {"EVAL", "return redis.call('get', KEYS[1])", "1", key}, false);
                now_us_ += 1;
                push("lua", {"get", key}, false);
        }
    }
    std::string foreign_key(std::uint64_t n) {
        switch (n % 5) {
            case 0: return "cache:\xff\xfe" + std::to_string(n % 977);        // not UTF-8
            case 1: return "q\"uote\\" + std::to_string(n % 311);             // escapes
            case 2: return "line\n" + std::to_string(n % 97) + "\t\r\a\b";    // control bytes
            default: return "user:" + std::to_string(n % 5000) + ":profile";  // plain
        }
    }
    std::string foreign_value() {
        std::string v;
        const std::uint64_t len = 1 + draw(24);
        for (std::uint64_t i = 0; i < len; ++i) v += static_cast<char>(draw(256));
        return v;
    }

    // One call of a lock client; false when none was sent (a foreign line instead).
    bool lock_call() {
        Client& c = clients_[draw(lock_clients)];
        if (now_us_ < c.muted_until_us) return false;
        if (!c.believes) return acquire(c);
        const std::uint64_t r = draw(100);
        if (r < 85) return extend(c);
        if (r < 93) return release(c);
        // A pause: it stops calling for three leases and forgets it held.
        c.muted_until_us = now_us_ + 3 * spec_.lease_ms * 1000;
        forget(c);
        return false;
    }
    // Plain commands are never sent within 1 ms of a deadline (rule 19.4.2).
    bool near_deadline() const {
        const std::int64_t d = now_ms() - record_.deadline_ms;
        return record_.exists && d >= -1 && d <= 1;
    }
    std::string lease() const { return std::to_string(spec_.lease_ms); }

    bool acquire(Client& c) {
        if (spec_.style == LockStyle::plain && near_deadline()) return false;
        if (c.token.empty()) c.token = fmt::format("tok-{}-{}", c.addr.substr(10), c.run++);
        if (spec_.style == LockStyle::plain) {
            push(c.addr, {"SET", std::string(lock_key), c.token, "NX", "PX", lease()}, true);
            if (!live()) take(c);
            return true;
        }
        push(c.addr, store_call("acquire", {fmt::format("node-{}", &c - clients_), c.token, lease(), "0"}), true);
        lua({"HGET", std::string(lock_key), "token"});
        lua({"PTTL", std::string(holdoff_key)});
        lua({"EXISTS", std::string(lock_key)});
        if (live()) {
            lua({"PTTL", std::string(lock_key)});
            return true;
        }
        lua({"EXISTS", std::string(counter_key)});
        if (fencing_ == 0) lua({"SET", std::string(counter_key), "0"});
        lua({"INCR", std::string(counter_key)});
        ++fencing_;
        lua({"HSET", std::string(lock_key), "owner", fmt::format("node-{}", &c - clients_), "token", c.token, "fencing",
             std::to_string(fencing_)});
        lua({"PEXPIRE", std::string(lock_key), lease()});
        take(c);
        return true;
    }
    // A new run takes a new token (rule 19.5.2).
    void forget(Client& c) {
        c.believes = false;
        c.token.clear();
    }
    void take(Client& c) {
        record_ = Record{true, c.token, now_ms() + spec_.lease_ms};
        c.believes = true;
    }

    bool extend(Client& c) {
        const bool mine = live() && record_.token == c.token;
        if (spec_.style == LockStyle::plain) {
            if (near_deadline()) return false;
            push(c.addr, {"PEXPIRE", std::string(lock_key), lease()}, true);
            if (live()) record_.deadline_ms = now_ms() + spec_.lease_ms;
            if (!mine) forget(c);
            return true;
        }
        push(c.addr, store_call("extend", {c.token, lease()}), true);
        lua({"HGET", std::string(lock_key), "token"});
        if (mine) {
            lua({"PEXPIRE", std::string(lock_key), lease()});
            record_.deadline_ms = now_ms() + spec_.lease_ms;
            lua({"HGET", std::string(lock_key), "fencing"});
        }
        if (!mine) forget(c);
        return true;
    }

    bool release(Client& c) {
        const bool mine = live() && record_.token == c.token;
        if (spec_.style == LockStyle::plain) {
            if (near_deadline()) return false;
            push(c.addr, {"DEL", std::string(lock_key)}, true);
            record_.exists = false;
        } else {
            push(c.addr, store_call("release", {c.token, "0", "0"}), true);
            lua({"HGET", std::string(lock_key), "token"});
            if (mine) {
                lua({"DEL", std::string(lock_key)});
                record_.exists = false;
            }
        }
        forget(c);
        return true;
    }

    // `EVAL BODY 3 slot counter hold-off ARGV…` of one of our store's scripts.
    static std::vector<std::string> store_call(std::string_view name, std::vector<std::string> argv) {
        std::vector<std::string> args{"EVAL",
                                      std::string(store_body(name)),
                                      "3",
                                      std::string(lock_key),
                                      std::string(counter_key),
                                      std::string(holdoff_key)};
        for (auto& a : argv) args.push_back(std::move(a));
        return args;
    }
    static std::string_view store_body(std::string_view name) {
        for (const auto& s : leasescope::sim::import::known_scripts())
            if (s.library == "leasescope" && s.name == name) return s.body;
        return {};
    }

    CaptureSpec spec_;
    leasescope::SplitMix64 rng_;
    std::int64_t now_us_;
    std::int64_t written_ = 0;
    std::deque<CaptureLine> pending_;
    Client clients_[lock_clients];
    Record record_;
    std::int64_t fencing_ = 0;
};

inline std::vector<CaptureLine> generate_capture(const CaptureSpec& spec) {
    std::vector<CaptureLine> lines;
    CaptureGenerator gen(spec);
    CaptureLine line;
    while (gen.next(line)) lines.push_back(std::move(line));
    return lines;
}

struct WrittenCapture {
    std::int64_t bytes = 0;
    std::int64_t lock_lines = 0;  // lines of the lock, `[lua]` lines of its calls included
};

// Streams a capture to `out`, one line a time.
inline WrittenCapture write_capture(std::ostream& out, const CaptureSpec& spec) {
    CaptureGenerator gen(spec);
    CaptureLine line;
    WrittenCapture written;
    while (gen.next(line)) {
        out << line.text << '\n';
        written.bytes += static_cast<std::int64_t>(line.text.size()) + 1;
        written.lock_lines += line.lock;
    }
    return written;
}

}  // namespace capture_gen

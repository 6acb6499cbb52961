// What a captured command is, which of its arguments are keys, SET's options
// and the scripts the importer knows (docs/model.md §19.2–§19.3).
#include <charconv>

#include "capture_internal.hpp"
#include "monitor_scan.hpp"

namespace leasescope::sim::import::internal {
namespace {

struct Named {
    std::string_view name;
    Cmd cmd;
};

// Commands that name no key (their arguments are never compared with the
// lock's keys) and those whose every argument is a key.
constexpr Named command_table[] = {
    {"SET", Cmd::set},           {"SETNX", Cmd::setnx},       {"SETEX", Cmd::setex},
    {"PSETEX", Cmd::psetex},     {"GETSET", Cmd::getset},     {"GETDEL", Cmd::getdel},
    {"GET", Cmd::get},           {"DEL", Cmd::del},           {"UNLINK", Cmd::unlink},
    {"PEXPIRE", Cmd::pexpire},   {"EXPIRE", Cmd::expire},     {"PEXPIREAT", Cmd::pexpireat},
    {"EXPIREAT", Cmd::expireat}, {"PERSIST", Cmd::persist},   {"INCR", Cmd::incr},
    {"INCRBY", Cmd::incrby},     {"DECR", Cmd::decr},         {"DECRBY", Cmd::decrby},
    {"HSET", Cmd::hset},         {"HMSET", Cmd::hmset},       {"HSETNX", Cmd::hsetnx},
    {"HINCRBY", Cmd::hincrby},   {"HDEL", Cmd::hdel},         {"EVAL", Cmd::eval},
    {"EVAL_RO", Cmd::eval},      {"EVALSHA", Cmd::evalsha},   {"EVALSHA_RO", Cmd::evalsha},
    {"FCALL", Cmd::fcall},       {"FCALL_RO", Cmd::fcall},    {"CLIENT", Cmd::client},
    {"SCRIPT", Cmd::script},     {"MULTI", Cmd::keyless},     {"EXEC", Cmd::keyless},
    {"DISCARD", Cmd::keyless},   {"PING", Cmd::keyless},      {"ECHO", Cmd::keyless},
    {"INFO", Cmd::keyless},      {"SELECT", Cmd::keyless},    {"AUTH", Cmd::keyless},
    {"HELLO", Cmd::keyless},     {"CONFIG", Cmd::keyless},    {"PUBLISH", Cmd::keyless},
    {"SPUBLISH", Cmd::keyless},  {"WAIT", Cmd::keyless},      {"TIME", Cmd::keyless},
    {"DBSIZE", Cmd::keyless},    {"COMMAND", Cmd::keyless},   {"QUIT", Cmd::keyless},
    {"FUNCTION", Cmd::keyless},  {"SCAN", Cmd::keyless},      {"KEYS", Cmd::keyless},
    {"EXISTS", Cmd::many_keys},  {"TOUCH", Cmd::many_keys},   {"MGET", Cmd::many_keys},
    {"WATCH", Cmd::many_keys},   {"SUBSCRIBE", Cmd::keyless}, {"MSET", Cmd::many_keys},
    {"MSETNX", Cmd::many_keys},
};

}  // namespace

Cmd command_of(std::string_view arg0) {
    if (arg0.size() > 16) return Cmd::other;
    for (const Named& n : command_table) {
        if (raw_is(arg0, n.name)) return n.cmd;
    }
    return Cmd::other;
}

bool is_call(Cmd c) { return c == Cmd::eval || c == Cmd::evalsha || c == Cmd::fcall; }

std::optional<std::int64_t> parse_int(std::string_view text) {
    std::int64_t v = 0;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, v);
    if (ec != std::errc{} || ptr != end || text.empty()) return std::nullopt;
    return v;
}

std::optional<std::int64_t> checked_add(std::int64_t a, std::int64_t b) {
    std::int64_t out = 0;
    if (__builtin_add_overflow(a, b, &out)) return std::nullopt;
    return out;
}

std::optional<std::int64_t> checked_mul(std::int64_t a, std::int64_t b) {
    std::int64_t out = 0;
    if (__builtin_mul_overflow(a, b, &out)) return std::nullopt;
    return out;
}

KeySpan key_span(Cmd cmd, std::size_t argc, std::string_view numkeys) {
    switch (cmd) {
        case Cmd::keyless:
        case Cmd::client:
        case Cmd::script: return {};
        case Cmd::del:
        case Cmd::unlink:
        case Cmd::many_keys: return {1, argc, 1};
        case Cmd::eval:
        case Cmd::evalsha:
        case Cmd::fcall: {
            const std::optional<std::int64_t> n = parse_int(numkeys);
            if (argc < 3 || !n || *n < 0 || static_cast<std::size_t>(*n) > argc - 3) return {};
            return {3, 3 + static_cast<std::size_t>(*n), 1};
        }
        default: return {1, argc < 2 ? std::size_t{1} : std::size_t{2}, 1};
    }
}

SetOptions set_options(const std::vector<std::string_view>& args) {
    SetOptions o;
    for (std::size_t i = 3; i < args.size(); ++i) {
        const std::string_view a = args[i];
        const bool has_value = i + 1 < args.size();
        if (raw_is(a, "NX")) {
            o.nx = true;
        } else if (raw_is(a, "XX")) {
            o.xx = true;
        } else if (raw_is(a, "KEEPTTL")) {
            o.keepttl = true;
        } else if (raw_is(a, "GET")) {
            o.get = true;
        } else if (has_value && (raw_is(a, "PX") || raw_is(a, "EX") || raw_is(a, "PXAT") || raw_is(a, "EXAT"))) {
            // Redis refuses a time that is not positive or overflows in
            // milliseconds (getExpireMillisecondsOrReply in src/t_string.c).
            const std::optional<std::int64_t> v = parse_int(args[++i]);
            const std::int64_t scale = a[0] == 'E' || a[0] == 'e' ? 1000 : 1;
            const std::optional<std::int64_t> ms = v && *v > 0 ? checked_mul(*v, scale) : std::nullopt;
            if (!ms) {
                o.bad = true;
                continue;
            }
            const bool at = a.size() == 4;
            (at ? o.at_ms : o.px_ms) = *ms;
        } else {
            o.bad = true;
        }
    }
    return o;
}

bool set_is_acquire(const SetOptions& o) {
    return o.nx && o.px_ms && !o.at_ms && !o.xx && !o.keepttl && !o.get && !o.bad;
}

ScriptBook::ScriptBook() {
    const std::vector<KnownScript>& known = known_scripts();
    for (std::size_t i = 0; i < known.size(); ++i) {
        normalized_.emplace(normalize_script(known[i].body), static_cast<int>(i));
        sha_.emplace(sha1_hex(known[i].body), static_cast<int>(i));
    }
}

ScriptBook::Match ScriptBook::by_body(std::string_view body) const {
    const auto it = normalized_.find(normalize_script(body));
    if (it == normalized_.end()) return {-1, true};
    return {it->second, true};
}

ScriptBook::Match ScriptBook::by_sha(std::string_view sha) const {
    std::string lower(sha);
    for (char& c : lower) {
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    const auto it = sha_.find(lower);
    if (it == sha_.end()) return {-1, false};
    return {it->second, true};
}

void ScriptBook::load(std::string_view body) {
    const Match m = by_body(body);
    sha_.emplace(sha1_hex(body), m.index);
}

}  // namespace leasescope::sim::import::internal

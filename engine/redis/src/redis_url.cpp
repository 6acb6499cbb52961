// Parsing, the default from the environment and password masking of Redis URLs (redis_url.hpp).
#include "leasescope/redis/redis_url.hpp"

#include <algorithm>
#include <charconv>
#include <cstdlib>

namespace leasescope::redis {
namespace {

Err<std::string> url_error(std::string message) {
    return Err<std::string>{"bad Redis URL: " + std::move(message) +
                            " (expected redis://[user:password@]host[:port][/db])"};
}

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// Decodes %XX escapes; false on a malformed escape.
bool percent_decode(std::string_view in, std::string& out) {
    out.clear();
    for (std::size_t i = 0; i < in.size(); ++i) {
        if (in[i] != '%') {
            out.push_back(in[i]);
            continue;
        }
        if (i + 2 >= in.size()) return false;
        const int hi = hex_value(in[i + 1]);
        const int lo = hex_value(in[i + 2]);
        if (hi < 0 || lo < 0) return false;
        out.push_back(static_cast<char>(hi * 16 + lo));
        i += 2;
    }
    return true;
}

// A whole decimal number in [min, max], nothing else.
bool parse_number(std::string_view text, std::int64_t min, std::int64_t max, std::int64_t& out) {
    if (text.empty() || text.size() > 18) return false;
    for (char c : text) {
        if (c < '0' || c > '9') return false;
    }
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    return ec == std::errc{} && end == text.data() + text.size() && out >= min && out <= max;
}

// Where the user-info of a URL sits: [begin, at) before the '@' of the authority.
struct UserInfo {
    std::size_t begin = std::string_view::npos;
    std::size_t at = std::string_view::npos;
};
UserInfo find_userinfo(std::string_view url) {
    UserInfo u;
    const auto scheme = url.find("://");
    if (scheme == std::string_view::npos) return u;
    const std::size_t begin = scheme + 3;
    const std::size_t end = std::min(url.find('/', begin), url.size());
    const auto at = url.substr(begin, end - begin).rfind('@');
    if (at == std::string_view::npos) return u;
    u.begin = begin;
    u.at = begin + at;
    return u;
}

}  // namespace

std::string RedisUrl::redacted() const {
    std::string out = "redis://";
    if (!user.empty() || has_password) {
        out += user;
        if (has_password) out.append(":").append(redis_password_mask);
        out += '@';
    }
    const bool ipv6 = host.find(':') != std::string::npos;
    out += ipv6 ? "[" + host + "]" : host;
    out += ':' + std::to_string(port);
    if (db != 0) out += '/' + std::to_string(db);
    return out;
}

std::string redis_url_from_env() {
    const char* env = std::getenv("LEASESCOPE_REDIS_URL");
    return env != nullptr && *env != '\0' ? std::string(env) : std::string(default_redis_url);
}

UrlParts split_redis_password(std::string_view url) {
    const UserInfo u = find_userinfo(url);
    if (u.at == std::string_view::npos) return {std::string(url), {}};
    const std::string_view info = url.substr(u.begin, u.at - u.begin);
    const auto colon = info.find(':');
    if (colon == std::string_view::npos) return {std::string(url), {}};
    const std::string_view user = info.substr(0, colon);
    UrlParts parts;
    parts.password = std::string(info.substr(colon + 1));
    parts.url = std::string(url.substr(0, u.begin));
    if (!user.empty()) parts.url.append(user).append("@");
    parts.url.append(url.substr(u.at + 1));
    return parts;
}

std::string join_redis_password(std::string_view url, std::string_view password) {
    if (password.empty()) return std::string(url);
    const auto scheme = url.find("://");
    if (scheme == std::string_view::npos) return std::string(url);
    const UserInfo u = find_userinfo(url);
    std::string out;
    if (u.at == std::string_view::npos) {
        out.append(url.substr(0, scheme + 3)).append(":").append(password).append("@").append(url.substr(scheme + 3));
        return out;
    }
    // Drop a password already there, keep the user.
    std::string_view user = url.substr(u.begin, u.at - u.begin);
    user = user.substr(0, user.find(':'));
    out.append(url.substr(0, u.begin)).append(user).append(":").append(password).append(url.substr(u.at));
    return out;
}

std::string redact_redis_url(std::string_view url) {
    const UrlParts parts = split_redis_password(url);
    if (parts.password.empty()) return parts.url;
    return join_redis_password(parts.url, redis_password_mask);
}

Result<RedisUrl, std::string> parse_redis_url(std::string_view text) {
    constexpr std::string_view scheme = "redis://";
    if (text.empty()) return url_error("it is empty");
    if (text.substr(0, 9) == "rediss://") return url_error("TLS (rediss://) is not supported");
    if (text.substr(0, 7) == "unix://") return url_error("unix sockets are not supported");
    if (text.substr(0, scheme.size()) != scheme) return url_error("it must start with redis://");
    std::string_view rest = text.substr(scheme.size());

    RedisUrl url;
    // The user information ends at the last '@', so an unescaped '@' in a
    // password still works.
    if (const auto at = rest.rfind('@'); at != std::string_view::npos) {
        const std::string_view userinfo = rest.substr(0, at);
        rest = rest.substr(at + 1);
        const auto colon = userinfo.find(':');
        if (colon == std::string_view::npos) {
            return url_error("the part before '@' needs a colon: user:password@ or :password@");
        }
        if (!percent_decode(userinfo.substr(0, colon), url.user)) return url_error("bad %-escape in the user name");
        if (!percent_decode(userinfo.substr(colon + 1), url.password)) return url_error("bad %-escape in the password");
        url.has_password = true;
    }

    std::string_view hostport = rest;
    std::string_view path;
    if (const auto slash = rest.find('/'); slash != std::string_view::npos) {
        hostport = rest.substr(0, slash);
        path = rest.substr(slash + 1);
    }
    if (hostport.find_first_of("?#") != std::string_view::npos || path.find_first_of("?#") != std::string_view::npos) {
        return url_error("query strings and fragments are not supported");
    }

    std::string_view port_text;
    if (!hostport.empty() && hostport.front() == '[') {
        const auto close = hostport.find(']');
        if (close == std::string_view::npos) return url_error("an IPv6 host needs a closing ']'");
        url.host = std::string(hostport.substr(1, close - 1));
        const std::string_view after = hostport.substr(close + 1);
        if (!after.empty()) {
            if (after.front() != ':') return url_error("expected ':port' after the IPv6 host");
            port_text = after.substr(1);
            if (port_text.empty()) return url_error("the port is empty");
        }
    } else {
        const auto colon = hostport.find(':');
        url.host = std::string(hostport.substr(0, colon));
        if (colon != std::string_view::npos) {
            port_text = hostport.substr(colon + 1);
            if (port_text.empty()) return url_error("the port is empty");
        }
    }
    if (url.host.empty()) return url_error("the host is missing");
    for (char c : url.host) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                        c == '-' || c == '_' || c == ':';
        if (!ok) return url_error("the host contains a character that is not allowed in a host name");
    }
    if (!port_text.empty()) {
        std::int64_t port = 0;
        if (!parse_number(port_text, 1, 65535, port)) return url_error("the port must be a number from 1 to 65535");
        url.port = static_cast<int>(port);
    }
    if (!path.empty()) {
        if (!parse_number(path, 0, redis_db_max, url.db)) {
            return url_error("the database after '/' must be a number from 0 to " + std::to_string(redis_db_max));
        }
    }
    return url;
}

}  // namespace leasescope::redis

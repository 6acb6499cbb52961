#pragma once
// Where the Redis server is: `redis://[user:password@]host[:port][/db]`, the
// default server, and the one rule for hiding its password. The password is
// kept here only to send AUTH; nothing prints it. No hiredis here (target
// leasescope::redis_url), so the app and the browser build use it too.
#include <cstdint>
#include <string>
#include <string_view>

#include "leasescope/engine/result.hpp"

namespace leasescope::redis {

inline constexpr std::string_view default_redis_url = "redis://127.0.0.1:6379";
// What stands for a password wherever a URL is shown.
inline constexpr std::string_view redis_password_mask = "***";
inline constexpr int default_redis_port = 6379;
inline constexpr std::int64_t redis_db_max = 1'000'000;

struct RedisUrl {
    std::string host;
    int port = default_redis_port;
    std::string user;      // empty: the default user
    std::string password;  // only meaningful when has_password
    bool has_password = false;
    std::int64_t db = 0;

    // The URL with the password replaced by the mask: the only form ever shown.
    std::string redacted() const;
};

// $LEASESCOPE_REDIS_URL when set and not empty, else default_redis_url: the
// server every shell (the CLI's live command, the app's Live panel) starts with.
std::string redis_url_from_env();

// Percent-escapes (%40 for '@') are decoded in the user and the password.
// Errors say which part is wrong and never quote the password.
Result<RedisUrl, std::string> parse_redis_url(std::string_view text);

// The same URL as text the user typed, not parsed (it may not be valid yet):
// "redis://user:secret@host:6379/2" -> url "redis://user@host:6379/2",
// password "secret" (as written, %XX escapes included). A URL without a
// password comes back unchanged with an empty password.
struct UrlParts {
    std::string url;
    std::string password;
};
UrlParts split_redis_password(std::string_view url);
// The inverse: puts `password` back into the user-info part.
std::string join_redis_password(std::string_view url, std::string_view password);
// The text with any password replaced by the mask, for every place it is shown.
std::string redact_redis_url(std::string_view url);

}  // namespace leasescope::redis

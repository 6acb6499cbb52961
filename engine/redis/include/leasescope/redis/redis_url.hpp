#pragma once
// Where the Redis server is: `redis://[user:password@]host[:port][/db]`.
// The password is kept here only to send AUTH; nothing prints it.
#include <cstdint>
#include <string>
#include <string_view>

#include "leasescope/engine/result.hpp"

namespace leasescope::redis {

inline constexpr std::string_view default_redis_url = "redis://127.0.0.1:6379";
inline constexpr int default_redis_port = 6379;
inline constexpr std::int64_t redis_db_max = 1'000'000;

struct RedisUrl {
    std::string host;
    int port = default_redis_port;
    std::string user;      // empty: the default user
    std::string password;  // only meaningful when has_password
    bool has_password = false;
    std::int64_t db = 0;

    // The URL with the password replaced by "***": the only form ever shown.
    std::string redacted() const;
};

// Percent-escapes (%40 for '@') are decoded in the user and the password.
// Errors say which part is wrong and never quote the password.
Result<RedisUrl, std::string> parse_redis_url(std::string_view text);

}  // namespace leasescope::redis

#pragma once
// Shared by the live tests: where the test server is. test.sh starts a
// loopback redis-server and exports LEASESCOPE_REDIS_URL; without it these
// tests fail (a live test that silently skips proves nothing).
#include <gtest/gtest.h>

#include <cstdlib>
#include <sstream>
#include <vector>
#include <string>

#include "leasescope/redis/redis_connection.hpp"
#include "leasescope/redis/redis_url.hpp"

namespace leasescope::live_test {

inline std::string redis_url_or_fail() {
    const char* env = std::getenv("LEASESCOPE_REDIS_URL");
    if (env == nullptr || *env == '\0') {
        ADD_FAILURE() << "LEASESCOPE_REDIS_URL is not set: run the live tests through ./test.sh, or start "
                         "redis-server --port 6390 --save '' --appendonly no and export "
                         "LEASESCOPE_REDIS_URL=redis://127.0.0.1:6390";
        return {};
    }
    return env;
}

inline redis::RedisUrl parsed_url_or_fail() {
    const std::string text = redis_url_or_fail();
    if (text.empty()) return {};
    auto url = redis::parse_redis_url(text);
    if (!url.ok()) {
        ADD_FAILURE() << url.error();
        return {};
    }
    return url.value();
}

// The replicas test.sh starts beside the primary (model.md §13.8):
// $LEASESCOPE_REPLICA_URLS, space-separated; unset fails the test.
inline std::vector<std::string> replica_url_texts_or_fail() {
    const char* env = std::getenv("LEASESCOPE_REPLICA_URLS");
    std::vector<std::string> out;
    if (env == nullptr || *env == '\0') {
        ADD_FAILURE() << "LEASESCOPE_REPLICA_URLS is not set: run the live tests through ./test.sh (two replicas of "
                         "LEASESCOPE_REDIS_URL, space-separated)";
        return out;
    }
    std::istringstream words(env);
    for (std::string w; words >> w;) out.push_back(w);
    return out;
}

inline std::int64_t env_int(const char* name, std::int64_t fallback) {
    const char* env = std::getenv(name);
    if (env == nullptr || *env == '\0') return fallback;
    return std::strtoll(env, nullptr, 10);
}

}  // namespace leasescope::live_test

#pragma once
// One synchronous hiredis connection, owned: RAII for the context and every
// reply, timeouts on connect and on every command, and hiredis's two kinds of
// failure kept apart (a dead connection versus an error reply).
#include <hiredis/hiredis.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "leasescope/engine/store.hpp"
#include "leasescope/redis/redis_url.hpp"
#include "leasescope/redis/timeouts.hpp"

namespace leasescope::redis {

struct ContextDeleter {
    void operator()(redisContext* context) const { redisFree(context); }
};
struct ReplyDeleter {
    void operator()(redisReply* reply) const { freeReplyObject(reply); }
};
using ContextPtr = std::unique_ptr<redisContext, ContextDeleter>;
using ReplyPtr = std::unique_ptr<redisReply, ReplyDeleter>;

class RedisConnection {
public:
    // Connects, authenticates (AUTH from the URL) and selects the database.
    static Result<RedisConnection, StoreError> open(const RedisUrl& url, const Timeouts& timeouts = {});

    // Sends one command (binary safe). A server error reply is returned as a
    // StoreError with connection = false; a dead or timed-out connection as
    // connection = true, and every later command fails the same way.
    Result<ReplyPtr, StoreError> command(const std::vector<std::string_view>& argv);
    // As command(), but a server error reply comes back as a reply, for
    // callers that handle some errors themselves (NOSCRIPT).
    Result<ReplyPtr, StoreError> command_raw(const std::vector<std::string_view>& argv);

    bool broken() const { return broken_; }
    const std::string& where() const { return where_; }  // host:port, for messages

private:
    RedisConnection(ContextPtr context, std::string where) : context_(std::move(context)), where_(std::move(where)) {}
    StoreError connection_error(std::string_view during);

    ContextPtr context_;
    std::string where_;
    bool broken_ = false;
};

// Reply helpers: a description of an unexpected reply, never containing
// anything the caller sent.
std::string describe_reply(const redisReply* reply);

}  // namespace leasescope::redis

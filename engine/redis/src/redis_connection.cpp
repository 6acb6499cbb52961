// One owned, synchronous hiredis connection with timeouts, keeping connection errors apart from error replies
// (redis_connection.hpp).
#include "leasescope/redis/redis_connection.hpp"

#include <sys/time.h>

namespace leasescope::redis {
namespace {

timeval to_timeval(std::int64_t ms) {
    timeval tv{};
    tv.tv_sec = static_cast<decltype(tv.tv_sec)>(ms / 1000);
    tv.tv_usec = static_cast<decltype(tv.tv_usec)>((ms % 1000) * 1000);
    return tv;
}

const char* reply_type_name(int type) {
    switch (type) {
        case REDIS_REPLY_STRING: return "string";
        case REDIS_REPLY_ARRAY: return "array";
        case REDIS_REPLY_INTEGER: return "integer";
        case REDIS_REPLY_NIL: return "nil";
        case REDIS_REPLY_STATUS: return "status";
        case REDIS_REPLY_ERROR: return "error";
        default: return "unknown";
    }
}

}  // namespace

std::string describe_reply(const redisReply* reply) {
    if (reply == nullptr) return "no reply";
    std::string out = reply_type_name(reply->type);
    if (reply->type == REDIS_REPLY_ERROR || reply->type == REDIS_REPLY_STATUS) {
        out += " \"" + std::string(reply->str, reply->len) + "\"";
    }
    return out;
}

Result<RedisConnection, StoreError> RedisConnection::open(const RedisUrl& url, const Timeouts& timeouts) {
    LS_ASSERT(timeouts.connect_ms > 0);
    LS_ASSERT(timeouts.command_ms > 0);
    const std::string where = url.redacted();
    ContextPtr context(redisConnectWithTimeout(url.host.c_str(), url.port, to_timeval(timeouts.connect_ms)));
    if (!context) return Err{StoreError{"cannot connect to " + where + ": out of memory", true}};
    if (context->err != 0) {
        return Err{StoreError{"cannot connect to " + where + ": " + context->errstr, true}};
    }
    if (redisSetTimeout(context.get(), to_timeval(timeouts.command_ms)) != REDIS_OK) {
        return Err{StoreError{"cannot set the command timeout on " + where + ": " + context->errstr, true}};
    }
    RedisConnection connection(std::move(context), where);
    if (url.has_password) {
        // The password goes to the server and nowhere else: errors quote the
        // server's reply, which never contains it.
        std::vector<std::string_view> argv{"AUTH"};
        if (!url.user.empty()) argv.push_back(url.user);
        argv.push_back(url.password);
        auto reply = connection.command(argv);
        if (!reply.ok()) {
            StoreError error = reply.error();
            error.message = "authentication with " + where + " failed: " + error.message;
            return Err{std::move(error)};
        }
    }
    if (url.db != 0) {
        const std::string db = std::to_string(url.db);
        auto reply = connection.command({"SELECT", db});
        if (!reply.ok()) {
            StoreError error = reply.error();
            error.message = "cannot select database " + db + " on " + where + ": " + error.message;
            return Err{std::move(error)};
        }
    }
    // A first round trip, so that a server that accepts connections but does
    // not speak (or wants a password) is found here and not mid-run.
    auto pong = connection.command({"PING"});
    if (!pong.ok()) {
        StoreError error = pong.error();
        error.message = where + " refused PING: " + error.message;
        if (error.message.find("NOAUTH") != std::string::npos) {
            error.message += " (the server wants a password: redis://:PASSWORD@host:port)";
        }
        return Err{std::move(error)};
    }
    return connection;
}

StoreError RedisConnection::connection_error(std::string_view during) {
    broken_ = true;
    std::string message = "connection to " + where_ + " lost during " + std::string(during);
    if (context_ && context_->err != 0) {
        message += ": ";
        message += context_->errstr;
        if (context_->err == REDIS_ERR_IO &&
            std::string_view(context_->errstr).find("temporarily") != std::string_view::npos) {
            message += " (no answer within the command timeout)";
        }
    }
    return StoreError{std::move(message), true};
}

Result<ReplyPtr, StoreError> RedisConnection::command_raw(const std::vector<std::string_view>& argv) {
    LS_ASSERT(!argv.empty());
    const std::string_view name = argv.front();
    if (broken_) return Err{StoreError{"connection to " + where_ + " is already lost", true}};
    std::vector<const char*> args;
    std::vector<std::size_t> lengths;
    args.reserve(argv.size());
    lengths.reserve(argv.size());
    for (std::string_view a : argv) {
        args.push_back(a.data());
        lengths.push_back(a.size());
    }
    ReplyPtr reply(static_cast<redisReply*>(
        redisCommandArgv(context_.get(), static_cast<int>(args.size()), args.data(), lengths.data())));
    // hiredis: a null reply means the context is dead (ctx->err says why).
    if (!reply || context_->err != 0) return Err{connection_error(name)};
    return reply;
}

Result<ReplyPtr, StoreError> RedisConnection::command(const std::vector<std::string_view>& argv) {
    auto reply = command_raw(argv);
    if (!reply.ok()) return reply;
    if (reply.value()->type == REDIS_REPLY_ERROR) {
        const redisReply* r = reply.value().get();
        return Err{StoreError{
            "Redis answered " + std::string(argv.front()) + " with an error: " + std::string(r->str, r->len), false}};
    }
    return reply;
}

}  // namespace leasescope::redis

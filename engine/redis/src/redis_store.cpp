// The Store on a real Redis: each operation one Lua script, TTLs from the live timing rule (redis_store.hpp).
#include "leasescope/redis/redis_store.hpp"

#include <algorithm>
#include <array>

namespace leasescope::redis {
namespace {

// Error replies and reply-shape surprises are server-side problems: the
// connection is still fine, so they are not connection errors.
Err<StoreError> shape_error(const char* op, std::string what) {
    return Err{StoreError{std::string("unexpected reply from the ") + op + " script: " + std::move(what), false}};
}

bool is_array(const redisReply* r, std::size_t elements) {
    return r != nullptr && r->type == REDIS_REPLY_ARRAY && r->elements == elements;
}
bool is_integer(const redisReply* r) { return r != nullptr && r->type == REDIS_REPLY_INTEGER; }
bool is_string(const redisReply* r) { return r != nullptr && r->type == REDIS_REPLY_STRING; }
std::string_view text_of(const redisReply* r) { return {r->str, r->len}; }

// An array of `count` integers, or nothing.
bool integers(const redisReply* r, std::size_t count, std::int64_t* out) {
    if (!is_array(r, count)) return false;
    for (std::size_t i = 0; i < count; ++i) {
        if (!is_integer(r->element[i])) return false;
        out[i] = r->element[i]->integer;
    }
    return true;
}

// A key of ours that exists must have a TTL (only the counter has none).
bool pttl_of_existing_ok(std::int64_t pttl) { return pttl >= 0; }

}  // namespace

// ---- store ----

RedisStore::RedisStore(RedisConnection connection, LockConfig config, std::int64_t tick_ms)
    : config_(std::move(config)), tick_ms_(tick_ms), keys_(config_.name, config_.capacity), shas_(script_count) {
    servers_.push_back(std::move(connection));
    urls_.emplace_back();
    known_.emplace_back(static_cast<std::size_t>(config_.capacity));
    cut_.push_back(false);
    was_primary_.push_back(true);
    cut_at_.push_back(0);
    LS_ASSERT(config_.capacity >= 1);
    LS_ASSERT(config_.fencing_start >= 1);
    LS_ASSERT(tick_ms_ >= 1);
}

Result<std::unique_ptr<RedisStore>, StoreError> RedisStore::connect(const RedisUrl& url, LockConfig config,
                                                                    std::int64_t tick_ms, const Timeouts& timeouts) {
    // Braces would move the hash tag and could make two locks' namespaces
    // overlap; refusing them keeps every namespace disjoint from every other.
    if (config.name.find_first_of("{}") != std::string::npos) {
        return Err{StoreError{"the lock name '" + config.name +
                                  "' contains '{' or '}', which live mode cannot use "
                                  "in a Redis key",
                              false}};
    }
    auto connection = RedisConnection::open(url, timeouts);
    if (!connection.ok()) return Err{connection.error()};
    auto store = std::make_unique<RedisStore>(std::move(connection.value()), std::move(config), tick_ms);
    store->set_primary_url(url);
    return store;
}

Result<ReplyPtr, StoreError> RedisStore::run_script(const ScriptCall& call) {
    const auto index = static_cast<std::size_t>(call.script);
    LS_ASSERT(index < script_count);
    const char* name = script_name(call.script);
    if (shas_[index].empty()) {
        auto loaded = conn().command({"SCRIPT", "LOAD", script_source(call.script)});
        if (!loaded.ok()) return loaded;
        if (!is_string(loaded.value().get())) return shape_error(name, "SCRIPT LOAD gave no SHA");
        shas_[index] = std::string(text_of(loaded.value().get()));
    }
    const std::vector<std::string> words = evalsha_words(call, keys_, shas_[index]);
    std::vector<std::string_view> argv(words.begin(), words.end());
    auto reply = conn().command_raw(argv);
    if (!reply.ok()) return reply;
    const redisReply* r = reply.value().get();
    if (r->type == REDIS_REPLY_ERROR && text_of(r).substr(0, 8) == "NOSCRIPT") {
        // The server lost its script cache (SCRIPT FLUSH, a restart behind a
        // proxy): EVAL sends the source and caches it again under the same SHA.
        argv[0] = "EVAL";
        argv[1] = script_source(call.script);
        reply = conn().command_raw(argv);
        if (!reply.ok()) return reply;
        r = reply.value().get();
    }
    if (r->type == REDIS_REPLY_ERROR) {
        // A primary short of good replicas refuses the script's first write
        // (model.md §17.4 rule 3): an error reply, not a transient one.
        const bool no_replicas = text_of(r).substr(0, 10) == "NOREPLICAS";
        return Err{
            StoreError{std::string("Redis answered the ") + name + " script with an error: " + std::string(text_of(r)),
                       false, no_replicas}};
    }
    return reply;
}

StoreResult<AcquireReply> RedisStore::acquire(Tick now, std::string_view owner, std::string_view token, Tick lease) {
    LS_ASSERT(lease >= 1);
    auto reply = run_script(acquire_call(owner, token, lease, tick_ms_, config_.fencing_start));
    if (!reply.ok()) return Err{reply.error()};
    std::int64_t v[5];
    if (!integers(reply.value().get(), 5, v)) return shape_error("acquire", describe_reply(reply.value().get()));
    const bool acquired = v[0] == 1;
    const bool flag = v[1] == 1;
    const std::int64_t pttl = v[4];
    if (!pttl_of_existing_ok(pttl)) return shape_error("acquire", "a key of the lock has no TTL");
    AcquireReply out;
    if (acquired) {
        if (v[2] < 0 || v[2] >= config_.capacity) return shape_error("acquire", "slot out of range");
        out.acquired = true;
        out.fresh = flag;
        out.slot = static_cast<SlotIndex>(v[2]);
        out.fencing = v[3];
        out.ttl = flag ? lease : ticks_left(pttl, tick_ms_);
        if (flag) {
            kn()[static_cast<std::size_t>(out.slot)] =
                ExpiredRecord{out.slot, std::string(owner), Token(token), out.fencing};
            written_.push_back(Written{*kn()[static_cast<std::size_t>(out.slot)], now, -1, active()});
        }
    } else {
        out.reason = flag ? BusyReason::hold_off : BusyReason::held;
        out.remaining = ticks_left(pttl, tick_ms_);
    }
    return out;
}

StoreResult<ExtendReply> RedisStore::extend(Tick /*now*/, std::string_view token, Tick lease) {
    LS_ASSERT(lease >= 1);
    auto reply = run_script(extend_call(token, lease, tick_ms_));
    if (!reply.ok()) return Err{reply.error()};
    std::int64_t v[3];
    if (!integers(reply.value().get(), 3, v)) return shape_error("extend", describe_reply(reply.value().get()));
    ExtendReply out;
    if (v[0] == 1) {
        if (v[1] < 0 || v[1] >= config_.capacity) return shape_error("extend", "slot out of range");
        out.renewed = true;
        out.slot = static_cast<SlotIndex>(v[1]);
        out.fencing = v[2];
    }
    return out;
}

StoreResult<ReleaseReply> RedisStore::release(Tick now, std::string_view token, Tick keep_for, Tick hold_off) {
    LS_ASSERT(keep_for >= 0);
    LS_ASSERT(hold_off >= 0);
    // Like the library's elector, read first and send the release script only
    // if this token still holds a record (model.md §5.4); the script checks
    // again, atomically.
    auto held = validate(now, token);
    if (!held.ok()) return Err{held.error()};
    if (held.value() != Validity::current) return ReleaseReply{};  // not_owner, nothing sent
    auto reply = run_script(release_call(token, keep_for, hold_off, tick_ms_));
    if (!reply.ok()) return Err{reply.error()};
    std::int64_t v[3];
    if (!integers(reply.value().get(), 3, v)) return shape_error("release", describe_reply(reply.value().get()));
    ReleaseReply out;
    if (v[0] == 2) return out;  // not_owner
    if (v[1] < 0 || v[1] >= config_.capacity) return shape_error("release", "slot out of range");
    out.slot = static_cast<SlotIndex>(v[1]);
    if (v[0] == 1) {
        if (!pttl_of_existing_ok(v[2])) return shape_error("release", "the kept record has no TTL");
        out.outcome = ReleaseOutcome::kept;
        out.until = now + ticks_left(v[2], tick_ms_);
    } else {
        out.outcome = ReleaseOutcome::released;
        kn()[static_cast<std::size_t>(out.slot)].reset();
        note_gone(now, token);
    }
    return out;
}

StoreResult<StatusReply> RedisStore::status(Tick /*now*/) {
    auto reply = run_script(status_call());
    if (!reply.ok()) return Err{reply.error()};
    const redisReply* r = reply.value().get();
    if (r->type != REDIS_REPLY_ARRAY || r->elements < 1 || !is_integer(r->element[0])) {
        return shape_error("status", describe_reply(r));
    }
    StatusReply out;
    const std::int64_t holdoff_pttl = r->element[0]->integer;
    if (holdoff_pttl == -1) return shape_error("status", "the hold-off marker has no TTL");
    if (holdoff_pttl >= 0) out.holdoff_remaining = ticks_left(holdoff_pttl, tick_ms_);
    for (std::size_t i = 1; i < r->elements; ++i) {
        const redisReply* e = r->element[i];
        if (!is_array(e, 4) || !is_integer(e->element[0]) || !is_string(e->element[1]) || !is_integer(e->element[2]) ||
            !is_integer(e->element[3])) {
            return shape_error("status", "a slot entry is malformed");
        }
        const std::int64_t pttl = e->element[3]->integer;
        if (!pttl_of_existing_ok(pttl)) return shape_error("status", "a slot has no TTL");
        out.slots.push_back(SlotStatus{static_cast<SlotIndex>(e->element[0]->integer),
                                       std::string(text_of(e->element[1])), e->element[2]->integer,
                                       ticks_left(pttl, tick_ms_)});
    }
    return out;
}

StoreResult<Validity> RedisStore::validate(Tick /*now*/, std::string_view token) {
    auto reply = run_script(validate_call(token));
    if (!reply.ok()) return Err{reply.error()};
    const redisReply* r = reply.value().get();
    if (!is_integer(r) || r->integer < 0 || r->integer > 2) return shape_error("validate", describe_reply(r));
    return r->integer == 0 ? Validity::current : r->integer == 1 ? Validity::stale : Validity::vacant;
}

StoreResult<std::vector<ExpiredRecord>> RedisStore::expire(Tick now) {
    auto reply = run_script(expire_call());
    if (!reply.ok()) return Err{reply.error()};
    const redisReply* r = reply.value().get();
    if (!is_array(r, kn().size())) return shape_error("expire", describe_reply(r));
    std::vector<ExpiredRecord> out;
    for (std::size_t i = 0; i < kn().size(); ++i) {
        const redisReply* e = r->element[i];
        if (!is_array(e, 2) || !is_integer(e->element[0]) || !is_string(e->element[1])) {
            return shape_error("expire", "a slot entry is malformed");
        }
        const bool exists = e->element[0]->integer == 1;
        const bool ours = kn()[i] && text_of(e->element[1]) == kn()[i]->token;
        // Only this store's acquire writes a slot, and it remembers what it
        // wrote; a record it does not know means another client is using the
        // same lock on this server, and every answer from here on would be
        // about two runs at once.
        if (exists && !ours) {
            return Err{StoreError{"another client is writing the keys of lock '" + config_.name + "' (slot " +
                                      std::to_string(i) +
                                      " holds a record this run did not write); a live run needs the lock to itself",
                                  false}};
        }
        if (!kn()[i] || exists) continue;
        note_gone(now, kn()[i]->token);
        out.push_back(std::move(*kn()[i]));
        kn()[i].reset();
    }
    return out;
}

StoreResult<Unit> RedisStore::failover(Tick now, FailoverLoss loss) {
    auto reply = run_script(failover_call(loss, config_.fencing_start));
    if (!reply.ok()) return Err{reply.error()};
    // Vanished slots emit no expire events: forget them without reporting.
    for (auto& k : kn()) {
        if (k) note_gone(now, k->token);
        k.reset();
    }
    return Unit{};
}

namespace {
// docs/model.md §13.6 rule 1: each key's stored deadline (PEXPIRETIME) less
// the step (PEXPIREAT), in one atomic script that reads no clock; a key that
// is absent (-2) or has no TTL (-1) is left alone.
constexpr std::string_view clock_jump_script =
    "for _, key in ipairs(KEYS) do local at = redis.call('pexpiretime', key) "
    "if at >= 0 then redis.call('pexpireat', key, at - tonumber(ARGV[1])) end end return #KEYS";
}  // namespace

StoreResult<Unit> RedisStore::clock_jump(Tick /*now*/, std::int64_t ms) {
    const std::int64_t step_ms = clock_jump_step_ms(ms, tick_ms_);
    if (step_ms == 0) return Unit{};  // less than a tick forward: no expiry tick moves
    std::vector<std::string> keys;
    for (std::int32_t i = 0; i < config_.capacity; ++i) keys.push_back(keys_.slot(i));
    keys.push_back(keys_.holdoff());
    const std::string key_count = std::to_string(keys.size());
    const std::string step = std::to_string(step_ms);
    std::vector<std::string_view> argv{"EVAL", clock_jump_script, key_count};
    for (const auto& k : keys) argv.push_back(k);
    argv.push_back(step);
    auto reply = conn().command(argv);
    if (!reply.ok()) return Err{reply.error()};
    const redisReply* r = reply.value().get();
    if (!is_integer(r)) return shape_error("clock jump", describe_reply(r));
    return Unit{};
}

StoreResult<Unit> RedisStore::delete_namespace() {
    for (auto& k : kn()) k.reset();
    // SCAN with a glob of the prefix (its glob characters escaped), then the
    // exact ownership rule, so only keys this lock could have written go.
    std::string pattern;
    for (char c : keys_.prefix()) {
        if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\') pattern.push_back('\\');
        pattern.push_back(c);
    }
    pattern += '*';
    std::string cursor = "0";
    do {
        auto reply = conn().command({"SCAN", cursor, "MATCH", pattern, "COUNT", "1000"});
        if (!reply.ok()) return Err{reply.error()};
        const redisReply* r = reply.value().get();
        if (!is_array(r, 2) || !is_string(r->element[0]) || r->element[1]->type != REDIS_REPLY_ARRAY) {
            return Err{StoreError{"unexpected reply from SCAN: " + describe_reply(r), false}};
        }
        cursor = std::string(text_of(r->element[0]));
        std::vector<std::string> doomed;
        for (std::size_t i = 0; i < r->element[1]->elements; ++i) {
            const redisReply* k = r->element[1]->element[i];
            if (is_string(k) && keys_.owns(text_of(k))) doomed.emplace_back(text_of(k));
        }
        if (!doomed.empty()) {
            std::vector<std::string_view> argv{"DEL"};
            for (const auto& k : doomed) argv.push_back(k);
            auto deleted = conn().command(argv);
            if (!deleted.ok()) return Err{deleted.error()};
        }
    } while (cursor != "0");
    return Unit{};
}

StoreResult<Unit> RedisStore::reset_namespace() {
    auto deleted = delete_namespace();
    if (!deleted.ok()) return deleted;
    auto set = conn().command({"SET", keys_.counter(), std::to_string(config_.fencing_start - 1)});
    if (!set.ok()) return Err{set.error()};
    return Unit{};
}

StoreResult<Unit> RedisStore::remove_namespace() { return delete_namespace(); }

// ---- run ownership ----

namespace {
// Compare-and-act on the run-ownership key: only the run that holds it may
// extend or delete it.
constexpr std::string_view renew_run_script =
    "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0";
constexpr std::string_view release_run_script =
    "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0";
}  // namespace

StoreResult<bool> RedisStore::claim_run(std::string_view run_id, std::int64_t lease_ms, std::int64_t& held_for_ms) {
    LS_ASSERT(lease_ms >= 1);
    held_for_ms = 0;
    const std::string key = keys_.run_owner();
    const std::string ms = std::to_string(lease_ms);
    auto set = conn().command({"SET", key, run_id, "NX", "PX", ms});
    if (!set.ok()) return Err{set.error()};
    const redisReply* r = set.value().get();
    if (r != nullptr && r->type == REDIS_REPLY_STATUS) return true;
    if (r == nullptr || r->type != REDIS_REPLY_NIL)
        return Err{StoreError{"unexpected reply from SET NX: " + describe_reply(r), false}};
    auto pttl = conn().command({"PTTL", key});
    if (!pttl.ok()) return Err{pttl.error()};
    if (is_integer(pttl.value().get())) held_for_ms = std::max<std::int64_t>(0, pttl.value()->integer);
    return false;
}

StoreResult<bool> RedisStore::renew_run(std::string_view run_id, std::int64_t lease_ms) {
    LS_ASSERT(lease_ms >= 1);
    const std::string ms = std::to_string(lease_ms);
    auto reply = conn().command({"EVAL", renew_run_script, "1", keys_.run_owner(), run_id, ms});
    if (!reply.ok()) return Err{reply.error()};
    if (!is_integer(reply.value().get()))
        return Err{StoreError{"unexpected reply from the run-ownership renewal: " + describe_reply(reply.value().get()),
                              false}};
    return reply.value()->integer == 1;
}

StoreResult<Unit> RedisStore::release_run(std::string_view run_id) {
    auto reply = conn().command({"EVAL", release_run_script, "1", keys_.run_owner(), run_id});
    if (!reply.ok()) return Err{reply.error()};
    return Unit{};
}

}  // namespace leasescope::redis

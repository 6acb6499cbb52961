// Redisson live (live_redisson.hpp, docs/model.md rule 21.9.5): RedissonRun
// stepped once a tick in real time, its store's answers from a real server
// running Redisson 3.31.0's RLock scripts over one hiredis connection. RL is
// redisson/src/main/java/org/redisson/RedissonLock.java, BL
// RedissonBaseLock.java, SM connection/ServiceManager.java at that tag.
#include "live_redisson.hpp"

#include <memory>
#include <random>

#include <fmt/format.h>

#include "live_client_run.hpp"
#include "leasescope/redis/live_timing.hpp"
#include "leasescope/redis/redis_connection.hpp"
#include "leasescope/redis/redisson_scripts.hpp"
#include "leasescope/sim/redisson_store.hpp"
#include "leasescope/sim/simulation.hpp"

namespace leasescope::live {

std::int64_t redisson_live_px_ms(std::int64_t ttl_ms, std::int64_t tick_ms) {
    const std::int64_t ticks = (ttl_ms + tick_ms - 1) / tick_ms;
    return (2 * ticks - 1) * tick_ms / 2;
}

namespace {

// The unlock latch's PX: (timeout + retryInterval) * retryAttempts of the
// default config (BL 353; BaseConfig.java 58-64: 3 000, 1 500, 3).
constexpr std::string_view unlock_latch_px_ms = "13500";
// The most unlocks clean_up sends to empty a re-entered hash.
constexpr int clean_up_unlocks_max = 8;

// Redisson's names for the lock (RedissonObject.prefixName, RedissonObject.java 70-75).
std::string prefix_name(std::string_view prefix, const std::string& name) {
    if (name.find('{') != std::string::npos) return fmt::format("{}:{}", prefix, name);
    return fmt::format("{}:{{{}}}", prefix, name);
}

struct Shas {
    std::string lock, renew, unlock;
};

// The store's answers from a real server. The first failure (a lost
// connection, an error reply, an unexpected reply, a field this run did not
// set) is kept and stops the run after the tick; its answer is an error meanwhile.
class RealRedissonStore final : public sim::RedissonStoreOps {
public:
    RealRedissonStore(redis::RedisConnection connection, const sim::Scenario& scenario, Shas shas)
        : connection_(std::move(connection)),
          name_(scenario.lock.name),
          channel_(prefix_name("redisson_lock__channel", scenario.lock.name)),
          latch_prefix_(prefix_name("redisson_unlock_latch", scenario.lock.name)),
          tick_ms_(scenario.tick_ms),
          shas_(std::move(shas)) {}

    // EVALSHA lock 1 name PX field (RL 218-227): nil, or the PTTL.
    sim::RedissonLockAnswer lock(const sim::RedissonCaller& caller, std::int64_t ttl_ms, Tick) override {
        const std::string px = std::to_string(redisson_live_px_ms(ttl_ms, tick_ms_));
        const redis::ReplyPtr r = eval({"EVALSHA", shas_.lock, "1", name_, px, caller.field});
        if (!r) return {true, std::nullopt};
        if (r->type == REDIS_REPLY_NIL) {
            set_ = caller.field;
            return {false, std::nullopt};
        }
        if (r->type == REDIS_REPLY_INTEGER) return {false, r->integer};
        fail(unexpected(r.get()));
        return {true, std::nullopt};
    }
    // EVALSHA renew 1 name PX field (BL 183-191): 1 or 0.
    sim::RedissonAnswer renew(const Token& field, std::int64_t ttl_ms, Tick) override {
        const std::string px = std::to_string(redisson_live_px_ms(ttl_ms, tick_ms_));
        return zero_or_one(eval({"EVALSHA", shas_.renew, "1", name_, px, field}), false);
    }
    sim::RedissonAnswer unlock(const Token& field, std::int64_t ttl_ms, Tick) override;
    // HKEYS name: the hash's one field, or none.
    std::optional<Token> holder(Tick) override;
    // The store's clock jumped (model.md §13.6): the hash's deadline moves
    // by the whole ticks the run's record says its expiry moved.
    void clock_jump(std::int64_t step_ms, Tick) override {
        if (step_ms == 0) return;
        const std::string step = std::to_string(step_ms);
        const redis::ReplyPtr r = eval({"EVAL", redis::clock_jump_step_script, "1", name_, step});
        if (r && r->type != REDIS_REPLY_INTEGER) fail(unexpected(r.get()));
    }

    const std::optional<StoreError>& first_error() const { return error_; }
    void clean_up();

private:
    void fail(StoreError e) {
        if (!error_) error_ = std::move(e);
    }
    StoreError unexpected(const redisReply* r) const {
        return StoreError{"Redis (" + connection_.where() +
                              ") answered a Redisson script with an unexpected reply: " + redis::describe_reply(r),
                          false};
    }
    redis::ReplyPtr eval(const std::vector<std::string_view>& argv) {
        auto reply = connection_.command(argv);
        if (!reply.ok()) {
            fail(reply.error());
            return nullptr;
        }
        return std::move(reply.value());
    }
    sim::RedissonAnswer zero_or_one(const redis::ReplyPtr& r, bool nil_allowed) {
        if (!r) return sim::RedissonAnswer::error;
        if (nil_allowed && r->type == REDIS_REPLY_NIL) return sim::RedissonAnswer::nil;
        if (r->type == REDIS_REPLY_INTEGER && (r->integer == 0 || r->integer == 1))
            return r->integer == 0 ? sim::RedissonAnswer::zero : sim::RedissonAnswer::one;
        fail(unexpected(r.get()));
        return sim::RedissonAnswer::error;
    }
    // A request id as generateId draws one (SM 550-562): 16 random bytes in hex.
    std::string request_id() {
        std::string id;
        for (int i = 0; i < 4; ++i) id += fmt::format("{:08x}", static_cast<std::uint32_t>(device_()));
        return id;
    }

    redis::RedisConnection connection_;
    std::string name_, channel_, latch_prefix_;
    std::int64_t tick_ms_;
    Shas shas_;
    std::optional<Token> set_;          // the field this run last took the hash with
    std::vector<std::string> latches_;  // unlock latches whose answer was lost (not deleted)
    std::optional<StoreError> error_;
    std::random_device device_;
};

// EVALSHA unlock 3 name channel latch 0 PX field publish 13500 (RL 344-367),
// then DEL of the latch once answered (BL 356-361).
sim::RedissonAnswer RealRedissonStore::unlock(const Token& field, std::int64_t ttl_ms, Tick) {
    const std::string px = std::to_string(redisson_live_px_ms(ttl_ms, tick_ms_));
    const std::string latch = latch_prefix_ + ":" + request_id();
    const redis::ReplyPtr r =
        eval({"EVALSHA", shas_.unlock, "3", name_, channel_, latch, "0", px, field, "publish", unlock_latch_px_ms});
    const sim::RedissonAnswer answer = zero_or_one(r, true);
    if (answer == sim::RedissonAnswer::one && set_ == field) set_.reset();
    if (answer == sim::RedissonAnswer::error || !connection_.command({"DEL", latch}).ok()) latches_.push_back(latch);
    return answer;
}

std::optional<Token> RealRedissonStore::holder(Tick) {
    const redis::ReplyPtr r = eval({"HKEYS", name_});
    if (!r) return std::nullopt;
    if (r->type != REDIS_REPLY_ARRAY || r->elements > 1 ||
        (r->elements == 1 && r->element[0]->type != REDIS_REPLY_STRING)) {
        fail(unexpected(r.get()));
        return std::nullopt;
    }
    if (r->elements == 0) return std::nullopt;
    Token field(r->element[0]->str, r->element[0]->len);
    if (field != set_) {
        fail(StoreError{"Redis (" + connection_.where() + ") holds '" + name_ +
                            "' with a field this run did not set: another client is using it",
                        false});
    }
    return field;
}

// Unlocks what the run still holds (the unlock script, once per hold) and
// deletes the latches whose answer was lost.
void RealRedissonStore::clean_up() {
    for (int i = 0; i < clean_up_unlocks_max && set_ && !connection_.broken(); ++i) {
        if (unlock(*set_, 1000, 0) != sim::RedissonAnswer::zero) break;
    }
    for (const std::string& latch : latches_)
        if (!connection_.broken()) (void)connection_.command({"DEL", latch});
}

// Connects, loads the three scripts and checks that the lock's hash is
// absent: a run never deletes a hash it did not set.
std::unique_ptr<RealRedissonStore> open_real_store(const sim::Scenario& scenario, const LiveOptions& options,
                                                   LiveReport& report) {
    auto url = redis::parse_redis_url(options.redis_url);
    if (!url.ok()) {
        report.input_error = url.error();
        return nullptr;
    }
    report.redis = url.value().redacted();
    auto connected = redis::RedisConnection::open(url.value(), options.timeouts);
    if (!connected.ok()) {
        report.backend_error = connected.error();
        return nullptr;
    }
    redis::RedisConnection& c = connected.value();
    Shas shas;
    for (auto [sha, script] :
         {std::pair{&shas.lock, redis::redisson_lock_script}, std::pair{&shas.renew, redis::redisson_renew_script},
          std::pair{&shas.unlock, redis::redisson_unlock_script}}) {
        auto loaded = load_script(c, script);
        if (!loaded.ok()) {
            report.backend_error = loaded.error();
            return nullptr;
        }
        *sha = loaded.value();
    }
    auto held = c.command({"EXISTS", scenario.lock.name});
    if (!held.ok() || held.value()->type != REDIS_REPLY_INTEGER || held.value()->integer != 0) {
        report.backend_error =
            held.ok() ? StoreError{"Redis (" + c.where() + ") already holds the key '" + scenario.lock.name +
                                       "' (another run or client is using it); wait for it to "
                                       "expire, or give the scenario another lock name",
                                   false}
                      : held.error();
        return nullptr;
    }
    return std::make_unique<RealRedissonStore>(std::move(c), scenario, std::move(shas));
}

}  // namespace

std::optional<std::string> redisson_live_refusal(const LiveOptions& options) {
    if (options.replica_urls.empty()) return std::nullopt;
    return "a Redisson scenario runs on one server (model.md rule 21.1.3: store.replicas is not taken with the "
           "redisson client); --replica is not taken";
}

std::vector<std::string> redisson_emulated_faults(const sim::Scenario& scenario) {
    bool pause = false, partition = false, crash = false, jump = false, store_jump = false;
    for (const sim::Fault& f : scenario.faults) {
        pause |= f.kind == sim::FaultKind::pause;
        partition |= f.kind == sim::FaultKind::partition;
        crash |= f.kind == sim::FaultKind::crash;
        jump |= f.kind == sim::FaultKind::clock_jump && f.node >= 0;
        store_jump |= f.kind == sim::FaultKind::clock_jump && f.node < 0;
    }
    std::vector<std::string> out;
    out.emplace_back(
        "client redisson: the server runs Redisson 3.31.0's lock, renew and unlock scripts (EVALSHA) and its "
        "unlock script PUBLISHes for real; the waits, the watchdog's schedule and who gets the unlock message are "
        "the model's (model.md rule 21.9.5)");
    if (pause) out.emplace_back("pause: emulated, the scheduler does not step the client (no process is stopped)");
    if (crash) out.emplace_back("crash: emulated, the scheduler stops the client for good without unlocking");
    if (partition) {
        out.emplace_back(
            "partition: emulated, the scheduler does not send a drop_requests call and drops a drop_replies "
            "call's answer (the real server runs it) and the unlock message to the cut-off waiter; the network is "
            "untouched");
    }
    if (jump) out.emplace_back("clock_jump of a client's clock: emulated, the model's wall clock of that client steps");
    if (store_jump) {
        out.emplace_back(
            "clock_jump of the store's clock: emulated, no clock moves: one script moves the hash's deadline on the "
            "server by the whole ticks its expiry moves in the run's record (model.md §13.6)");
    }
    return out;
}

LiveReport run_live_redisson(const sim::Scenario& scenario, const LiveOptions& options) {
    LiveReport report;
    report.tick_ms = scenario.tick_ms;
    // Refused before any connection: the store's drift (§13.6), replicas, the count of servers.
    for (auto refused : {simulated_only(scenario), redisson_live_refusal(options),
                         redis_count_error(scenario, options.store_urls.size())}) {
        if (refused) {
            report.input_error = std::move(refused);
            return report;
        }
    }
    const std::unique_ptr<RealRedissonStore> store = open_real_store(scenario, options, report);
    if (!store) return report;
    sim::Simulation sim(scenario);
    sim.use_redisson_store(store.get());
    run_client_live(sim, *store, options, report);
    return report;
}

}  // namespace leasescope::live

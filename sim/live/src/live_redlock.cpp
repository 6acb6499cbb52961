// Redlock live (live_redlock.hpp, docs/model.md rule 20.9.4): RedlockRun
// stepped once a tick in real time, its stores' answers from real servers
// running the npm package redlock 4.2.0's scripts, one hiredis connection each.
#include "live_redlock.hpp"

#include "live_client_run.hpp"

#include <algorithm>
#include <memory>
#include <optional>

#include "leasescope/redis/live_timing.hpp"
#include "leasescope/redis/redis_connection.hpp"
#include "leasescope/redis/redlock_scripts.hpp"
#include "leasescope/sim/redlock_stores.hpp"
#include "leasescope/sim/simulation.hpp"

namespace leasescope::live {
namespace {

// One real store: its connection, the scripts' SHA-1 as SCRIPT LOAD gave
// them, and the token this run last set there (what a GET may answer).
struct RealStore {
    redis::RedisConnection connection;
    std::string name;  // the scenario's name of the store
    std::string lock_sha;
    std::string unlock_sha;
    std::optional<Token> set;
};

// The stores' answers from real servers. The first failure (a lost
// connection, an error reply, a value this run did not set) is kept and
// stops the run at the next tick; its answer is -1 meanwhile.
class RealRedlockStores final : public sim::RedlockStoreOps {
public:
    RealRedlockStores(std::vector<RealStore> stores, std::string key, std::int64_t tick_ms)
        : stores_(std::move(stores)), key_(std::move(key)), tick_ms_(tick_ms) {}

    // The PX of a lock: (lease - 1/2) ticks. The script runs at a tick's
    // middle, so the key expires at the start of tick t + lease, half a tick
    // before the expiry phase of that tick asks (model.md rule 20.9.4).
    std::int32_t lock(std::size_t s, const sim::RedlockKey& key, Tick lease, Tick) override {
        const std::string px = std::to_string((2 * lease - 1) * tick_ms_ / 2);
        const std::int32_t answer = eval(s, stores_[s].lock_sha, key.value, px);
        if (answer == 1) stores_[s].set = key.value;
        return answer;
    }
    std::int32_t unlock(std::size_t s, const Token& token, Tick) override {
        const std::int32_t answer = eval(s, stores_[s].unlock_sha, token, {});
        if (answer == 1 && stores_[s].set == token) stores_[s].set.reset();
        return answer;
    }
    std::optional<Token> value(std::size_t s, Tick) override {
        auto reply = stores_[s].connection.command({"GET", key_});
        if (!reply.ok()) {
            fail(reply.error());
            return std::nullopt;
        }
        const redisReply* r = reply.value().get();
        if (r->type == REDIS_REPLY_NIL) return std::nullopt;
        if (r->type != REDIS_REPLY_STRING) {
            fail(unexpected(s, r));
            return std::nullopt;
        }
        Token v(r->str, r->len);
        if (v != stores_[s].set) {
            fail(StoreError{"store " + stores_[s].name + " (" + stores_[s].connection.where() + ") holds '" + key_ +
                                "' with a value this run did not set: another client is using it",
                            false});
        }
        return v;
    }

    // Store s's clock jumps (model.md §13.6, rule 20.9.5): the key's stored
    // deadline less the step of whole ticks, in one script that reads no
    // clock; a key whose new deadline has passed is deleted, and the next
    // GET finds it gone.
    void clock_jump(std::size_t s, std::int64_t ms, Tick) override {
        const std::int64_t step_ms = redis::clock_jump_step_ms(ms, tick_ms_);
        if (step_ms == 0) return;
        const std::string step = std::to_string(step_ms);
        auto reply = stores_[s].connection.command({"EVAL", redis::clock_jump_step_script, "1", key_, step});
        if (!reply.ok()) {
            fail(reply.error());
            return;
        }
        if (reply.value()->type != REDIS_REPLY_INTEGER) fail(unexpected(s, reply.value().get()));
    }

    const std::optional<StoreError>& first_error() const { return error_; }
    void fail(StoreError e) {
        if (!error_) error_ = std::move(e);
    }
    // Deletes what this run still holds (the unlock script: only its own value).
    void clean_up() {
        for (std::size_t s = 0; s < stores_.size(); ++s)
            if (stores_[s].set && !stores_[s].connection.broken()) (void)unlock(s, *stores_[s].set, 0);
    }

private:
    StoreError unexpected(std::size_t s, const redisReply* r) const {
        return StoreError{"store " + stores_[s].name + " (" + stores_[s].connection.where() +
                              ") answered with an unexpected reply: " + redis::describe_reply(r),
                          false};
    }
    // EVALSHA sha 1 key token [px], as redlock.js 455 sends it.
    std::int32_t eval(std::size_t s, const std::string& sha, const Token& token, const std::string& px) {
        std::vector<std::string_view> argv{"EVALSHA", sha, "1", key_, token};
        if (!px.empty()) argv.emplace_back(px);
        auto reply = stores_[s].connection.command(argv);
        if (!reply.ok()) {
            fail(reply.error());
            return -1;
        }
        const redisReply* r = reply.value().get();
        if (r->type != REDIS_REPLY_INTEGER || r->integer < 0 || r->integer > 1) {
            fail(unexpected(s, r));
            return -1;
        }
        return static_cast<std::int32_t>(r->integer);
    }

    std::vector<RealStore> stores_;
    std::string key_;
    std::int64_t tick_ms_;
    std::optional<StoreError> error_;
};

// Connects store s, loads the scripts and checks that its key is free: a run
// never deletes a value it did not set.
Result<RealStore, StoreError> open_real_store(const sim::Scenario& scenario, std::size_t s, const redis::RedisUrl& url,
                                              const redis::Timeouts& timeouts) {
    auto connected = redis::RedisConnection::open(url, timeouts);
    if (!connected.ok()) return Err{connected.error()};
    RealStore st{std::move(connected.value()), scenario.stores[s], {}, {}, std::nullopt};
    auto lock_sha = load_script(st.connection, redis::redlock_lock_script);
    if (!lock_sha.ok()) return Err{lock_sha.error()};
    auto unlock_sha = load_script(st.connection, redis::redlock_unlock_script);
    if (!unlock_sha.ok()) return Err{unlock_sha.error()};
    st.lock_sha = lock_sha.value();
    st.unlock_sha = unlock_sha.value();
    auto held = st.connection.command({"EXISTS", scenario.lock.name});
    if (!held.ok()) return Err{held.error()};
    if (held.value()->type != REDIS_REPLY_INTEGER || held.value()->integer != 0) {
        return Err{StoreError{"store " + st.name + " (" + st.connection.where() + ") already holds the key '" +
                                  scenario.lock.name +
                                  "' (another run or client is using it); wait for it to expire, or give the "
                                  "scenario another lock name",
                              false}};
    }
    return st;
}

// Every store connected, or the first failure (in `report`).
std::unique_ptr<RealRedlockStores> open_real_stores(const sim::Scenario& scenario, const LiveOptions& options,
                                                    LiveReport& report) {
    std::vector<redis::RedisUrl> urls;
    for (const std::string& text : options.store_urls) {
        auto url = redis::parse_redis_url(text);
        if (!url.ok()) {
            report.input_error = url.error() + " (store " + scenario.stores[urls.size()] + ", /stores/" +
                                 std::to_string(urls.size()) + ")";
            return nullptr;
        }
        for (const redis::RedisUrl& other : urls) {
            if (other.redacted() == url.value().redacted()) {
                report.input_error = "--redis " + url.value().redacted() +
                                     " is given twice: each of a Redlock scenario's stores is its own server";
                return nullptr;
            }
        }
        report.redis += (report.redis.empty() ? "" : ", ") + url.value().redacted();
        urls.push_back(url.value());
    }
    std::vector<RealStore> stores;
    for (std::size_t s = 0; s < urls.size(); ++s) {
        auto opened = open_real_store(scenario, s, urls[s], options.timeouts);
        if (!opened.ok()) {
            report.backend_error = opened.error();
            return nullptr;
        }
        stores.push_back(std::move(opened.value()));
    }
    return std::make_unique<RealRedlockStores>(std::move(stores), scenario.lock.name, scenario.tick_ms);
}

}  // namespace

std::optional<std::string> redlock_live_refusal(const sim::Scenario& scenario) {
    for (std::size_t i = 0; i < scenario.faults.size(); ++i) {
        if (scenario.faults[i].kind != sim::FaultKind::restart) continue;
        return "fault " + std::to_string(i) + " (/faults/" + std::to_string(i) +
               ") restarts a store; live mode does not stop or restart a real server, so a Redlock scenario with a "
               "store restart is checked against the real package only (tests/redlock/compare.sh, model.md rule "
               "20.9.4)";
    }
    return std::nullopt;
}

std::vector<std::string> redlock_emulated_faults(const sim::Scenario& scenario) {
    bool pause = false, partition = false, crash = false, delay = false, jump = false, store_jump = false;
    for (const sim::Fault& f : scenario.faults) {
        pause |= f.kind == sim::FaultKind::pause;
        partition |= f.kind == sim::FaultKind::partition;
        crash |= f.kind == sim::FaultKind::crash;
        delay |= f.kind == sim::FaultKind::delay;
        jump |= f.kind == sim::FaultKind::clock_jump && f.node >= 0;
        store_jump |= f.kind == sim::FaultKind::clock_jump && f.store >= 0;
    }
    std::vector<std::string> out;
    out.emplace_back(
        "stores: each store is its own server (--redis, in the scenario's order), sent redlock 4.2.0's lock and "
        "unlock scripts by EVALSHA; the client's counting, validity and retries are the model's");
    if (pause) out.emplace_back("pause: emulated, the scheduler does not step the client (no process is stopped)");
    if (crash) out.emplace_back("crash: emulated, the scheduler stops the client for good without releasing");
    if (partition || delay) {
        out.emplace_back(
            "partition, delay: emulated, the scheduler holds each request until its arrival tick (a partition's "
            "end), so the real store runs the script then (model.md rule 20.7); the network is untouched");
    }
    if (jump) {
        out.emplace_back(
            "clock_jump of a client's clock: emulated, the model's Date.now() of that client steps (rule 20.4.2)");
    }
    if (store_jump) {
        out.emplace_back(
            scenario.stores_clock == sim::StoresClock::wall
                ? "clock_jump of a store's clock: emulated, no clock moves: one script moves the deadline of the "
                  "lock's key on that server by whole ticks (model.md §13.6, rule 20.9.5)"
                : "clock_jump of a store's clock: an event only: the stores expire by a monotonic clock (rule "
                  "20.2.5), so nothing is sent");
    }
    return out;
}

LiveReport run_live_redlock(const sim::Scenario& scenario, const LiveOptions& options) {
    LiveReport report;
    report.tick_ms = scenario.tick_ms;
    // Refused before any connection: a store's drift and what a jump's step cannot stand for (§13.6), a store's
    // restart, the count of servers.
    if (auto refused = simulated_only(scenario)) {
        report.input_error = std::move(refused);
        return report;
    }
    if (auto refused = redlock_live_refusal(scenario)) {
        report.input_error = std::move(refused);
        return report;
    }
    if (auto wrong = redis_count_error(scenario, options.store_urls.size())) {
        report.input_error = std::move(wrong);
        return report;
    }
    const std::unique_ptr<RealRedlockStores> stores = open_real_stores(scenario, options, report);
    if (!stores) return report;
    sim::Simulation sim(scenario);
    sim.use_redlock_stores(stores.get());
    run_client_live(sim, *stores, options, report);
    return report;
}

}  // namespace leasescope::live

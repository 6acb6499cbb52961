// The Code panel's text: the client's calls for the knobs, and the store calls
// behind a trace event, built by the Redis store's own builders (code_snippets.hpp).
#include "code_snippets.hpp"

#include "leasescope/redis/redisson_scripts.hpp"
#include "leasescope/redis/redlock_scripts.hpp"

#include <utility>
#include <vector>

#include <fmt/format.h>

namespace leasescope::gui {
namespace {

using sim::EventOp;
using sim::Outcome;

// Milliseconds of a knob in ticks, as a live run with this tick_ms uses it.
std::int64_t ms_of(Tick ticks, std::int64_t tick_ms) { return ticks * tick_ms; }

// A word as redis-cli needs it: bare when it is plain, else double-quoted.
std::string quoted(const std::string& word) {
    const bool plain = !word.empty() && word.find_first_of(" \t\n\"'\\") == std::string::npos;
    if (plain) return word;
    std::string out = "\"";
    for (char c : word) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out + '"';
}

// The knobs of candidate `node` (the first one when out of range).
const ElectorOptions* options_of(const sim::Scenario& scenario, NodeIndex node) {
    if (scenario.candidates.empty()) return nullptr;
    if (node < 0 || static_cast<std::size_t>(node) >= scenario.candidates.size()) node = 0;
    return &scenario.candidates[static_cast<std::size_t>(node)].options;
}

// The tick at which run `run` of `node` acquired, before event `before`.
std::optional<Tick> acquired_at(const sim::Trace& trace, const std::string& node, std::int32_t run,
                                std::size_t before) {
    for (std::size_t k = before; k-- > 0;) {
        const sim::Event& e = trace.events[k];
        if (e.op == EventOp::acquire && e.outcome == Outcome::acquired && e.node == node && e.run == run) {
            return e.tick;
        }
    }
    return std::nullopt;
}

}  // namespace

std::string iso_duration(std::int64_t ms) {
    if (ms % 1000 == 0) return fmt::format("PT{}S", ms / 1000);
    std::string fraction = fmt::format("{:03}", ms % 1000);
    while (!fraction.empty() && fraction.back() == '0') fraction.pop_back();
    return fmt::format("PT{}.{}S", ms / 1000, fraction);
}

std::string kotlin_duration(std::int64_t ms) {
    if (ms != 0 && ms % 1000 == 0) return fmt::format("{}.seconds", ms / 1000);
    return fmt::format("{}.milliseconds", ms);
}

namespace {

using Args = std::vector<std::pair<const char*, std::string>>;

// "head(\n    key = value,\n    …\n)\n": a Kotlin constructor call or a
// Spring annotation, one argument a line.
std::string call_block(const std::string& head, const Args& args) {
    std::string text = head + "(\n";
    for (const auto& [key, value] : args) text += fmt::format("    {} = {},\n", key, value);
    return text + ")\n";
}

std::string in_quotes(const std::string& text) { return "\"" + text + "\""; }

// leader-core's group elector and Spring annotation (`out.kotlin`, `out.spring`):
// LeaderGroupElectionOptions (java.time.Duration) and @LeaderGroupElection.
void group_code(const sim::Scenario& scenario, const ElectorOptions* o, ClientCode& out) {
    const std::int64_t t = scenario.tick_ms;
    const std::string& lock = scenario.lock.name;
    const std::string capacity = std::to_string(scenario.lock.capacity);
    out.kotlin = call_block("val options = LeaderGroupElectionOptions",
                            {{"maxLeaders", capacity},
                             {"waitTime", fmt::format("Duration.ofMillis({})", ms_of(o->wait, t))},
                             {"leaseTime", fmt::format("Duration.ofMillis({})", ms_of(o->lease, t))}}) +
                 "val elector = LettuceLeaderGroupElector(connection, options)\n\n" +
                 fmt::format("val value = elector.runIfLeader(\"{}\") {{ work() }}\n", lock);
    out.spring = call_block("@LeaderGroupElection", {{"name", in_quotes(lock)},
                                                     {"maxLeaders", capacity},
                                                     {"waitTime", in_quotes(iso_duration(ms_of(o->wait, t)))},
                                                     {"leaseTime", in_quotes(iso_duration(ms_of(o->lease, t)))}}) +
                 "fun work(): Summary? = service.work()\n";
}

// leader-core's single-leader elector and Spring annotation (`out.kotlin`, `out.spring`).
void single_code(const sim::Scenario& scenario, const ElectorOptions* o, ClientCode& out) {
    const std::int64_t t = scenario.tick_ms;
    const std::string& lock = scenario.lock.name;
    const std::string auto_extend = o->auto_extend ? "true" : "false";
    out.kotlin =
        call_block("val options = LeaderElectionOptions", {{"waitTime", kotlin_duration(ms_of(o->wait, t))},
                                                           {"leaseTime", kotlin_duration(ms_of(o->lease, t))},
                                                           {"minLeaseTime", kotlin_duration(ms_of(o->min_lease, t))},
                                                           {"autoExtend", auto_extend}}) +
        "val elector = LettuceLeaderElector(connection, options)\n\n" +
        fmt::format(
            "val value = elector.runIfLeader(\"{0}\") {{ work() }}\n"
            "\n"
            "when (val r = elector.runIfLeaderResult(\"{0}\") {{ work() }}) {{\n"
            "    is LeaderRunResult.Elected -> done(r.value)\n"
            "    LeaderRunResult.Skipped -> skipped()\n"
            "    is LeaderRunResult.ActionFailed -> failed(r.cause)\n"
            "}}\n",
            lock);
    out.spring = call_block("@LeaderElection", {{"name", in_quotes(lock)},
                                                {"waitTime", in_quotes(iso_duration(ms_of(o->wait, t)))},
                                                {"leaseTime", in_quotes(iso_duration(ms_of(o->lease, t)))},
                                                {"minLeaseTime", in_quotes(iso_duration(ms_of(o->min_lease, t)))},
                                                {"autoExtend", auto_extend}}) +
                 "fun work(): Summary? = service.work()\n";
}

}  // namespace

ClientCode client_code(const sim::Scenario& scenario, NodeIndex node) {
    ClientCode out;
    const ElectorOptions* o = options_of(scenario, node);
    if (o == nullptr) return out;
    const std::int64_t t = scenario.tick_ms;
    const std::string& lock = scenario.lock.name;
    out.group = scenario.lock.capacity > 1 || scenario.elector == ElectorKind::group;
    if (out.group)
        group_code(scenario, o, out);
    else
        single_code(scenario, o, out);
    // d-core's leader-election protocol: the token and the fencing number
    // come back from acquire!; resign! takes the hold-off in milliseconds.
    const std::string resign_opts =
        o->hold_off > 0 ? fmt::format("{{:hold-off-ms {}}}", ms_of(o->hold_off, t)) : std::string("{}");
    out.dcore = fmt::format(
        "(let [{{:keys [status token fencing]}} (acquire! elector \"{0}\" {{}})]\n"
        "  (when (= status :acquired)\n"
        "    (renew! elector \"{0}\" token {{}})\n"
        "    (resign! elector \"{0}\" token {1})))\n"
        "(validate! elector \"{0}\" token {{}})\n"
        "(status elector \"{0}\" {{}})\n",
        lock, resign_opts);
    return out;
}

EventCalls event_calls(const sim::Scenario& scenario, const sim::Trace& trace, std::size_t index) {
    EventCalls out;
    if (index >= trace.events.size()) return out;
    const sim::Event& e = trace.events[index];
    const NodeIndex node = scenario.find(e.node);
    const ElectorOptions* o = options_of(scenario, node);
    const std::int64_t t = scenario.tick_ms;
    const Fencing start = scenario.lock.fencing_start;
    const bool failed = e.outcome == Outcome::error;
    switch (e.op) {
        case EventOp::acquire:
            if (o != nullptr) out.calls.push_back(redis::acquire_call(e.node, e.token, o->lease, t, start));
            break;
        case EventOp::extend:
            if (o != nullptr) out.calls.push_back(redis::extend_call(e.token, o->lease, t));
            break;
        case EventOp::release: {
            // model.md §5.4: read first; the script only if the token still holds.
            out.calls.push_back(redis::validate_call(e.token));
            if (failed) break;
            if (e.outcome == Outcome::not_owner) {
                out.note = CallNote::not_owner_read;
                return out;
            }
            Tick keep_for = 0;
            if (o != nullptr) {
                const auto at = acquired_at(trace, e.node, e.run, index);
                if (at) keep_for = std::max<Tick>(0, o->min_lease - (e.tick - *at));
                out.calls.push_back(redis::release_call(e.token, keep_for, o->hold_off, t));
            }
            out.note = CallNote::release_read;
            break;
        }
        case EventOp::status: out.calls.push_back(redis::status_call()); break;
        case EventOp::validate: out.calls.push_back(redis::validate_call(e.token)); break;
        case EventOp::write:
            // Only the validate mode asks the store (model.md §8).
            if (scenario.resource == sim::ResourceMode::validate) {
                out.calls.push_back(redis::validate_call(e.token));
            } else {
                out.note = CallNote::no_redis;
            }
            break;
        case EventOp::expire:
            out.calls.push_back(redis::expire_call());
            out.note = CallNote::every_tick;
            return out;
        case EventOp::failover:
            for (const sim::Fault& f : scenario.faults) {
                if (f.kind == sim::FaultKind::failover && f.at == e.tick) {
                    out.calls.push_back(redis::failover_call(f.lose, start));
                    break;
                }
            }
            return out;
        default: out.note = CallNote::no_redis; return out;
    }
    if (failed) out.note = CallNote::failed;
    return out;
}

std::string RedlockCode::text() const {
    std::string out;
    for (const std::string& line : lines) out += line + "\n";
    return out;
}

RedlockCode redlock_code(const sim::Scenario& scenario, NodeIndex node) {
    RedlockCode code;
    const ElectorOptions* o = options_of(scenario, node);
    const sim::RedlockOptions& r = scenario.redlock;
    std::string stores;
    for (const std::string& s : scenario.stores) stores += (stores.empty() ? "" : ", ") + s;
    auto& l = code.lines;
    l.push_back("const Redlock = require('redlock');  // npm redlock 4.2.0");
    l.push_back(fmt::format("const redlock = new Redlock([{}], {{  // one Redis client per store", stores));
    l.push_back(fmt::format("  driftFactor: {},", r.drift_factor));
    l.push_back(fmt::format("  retryCount: {},", r.retry_count));
    l.push_back(fmt::format("  retryDelay: {},  // ms", r.retry_delay_ms));
    l.push_back(fmt::format("  retryJitter: {},  // ms", r.retry_jitter_ms));
    l.push_back("});");
    l.push_back("");
    code.lock_line = static_cast<std::int32_t>(l.size());
    l.push_back(fmt::format("const lock = await redlock.lock('{}', {});  // ttl in ms", scenario.lock.name,
                            o != nullptr ? ms_of(o->lease, scenario.tick_ms) : 0));
    l.push_back("try {");
    code.work_line = static_cast<std::int32_t>(l.size());
    l.push_back("  await work();  // nothing checks lock.expiration here");
    l.push_back("} finally {");
    code.unlock_line = static_cast<std::int32_t>(l.size());
    l.push_back("  await lock.unlock();");
    l.push_back("}");
    return code;
}

std::int32_t redlock_line(const RedlockCode& code, std::string_view state) {
    if (state == "locking" || state == "unlocking" || state == "retrying") return code.lock_line;
    if (state == "working") return code.work_line;
    if (state == "releasing") return code.unlock_line;
    return -1;
}

std::string redlock_event_call(const sim::Scenario& scenario, const sim::Trace& trace, std::size_t index) {
    if (index >= trace.events.size()) return {};
    const sim::Event& e = trace.events[index];
    if (!e.server || (e.op != EventOp::acquire && e.op != EventOp::release)) return {};
    const std::string store = static_cast<std::size_t>(*e.server) < trace.header.stores.size()
                                  ? trace.header.stores[static_cast<std::size_t>(*e.server)]
                                  : std::to_string(*e.server);
    const std::string key = quoted(scenario.lock.name);
    if (e.op == EventOp::release)
        return fmt::format("# store {}\nEVALSHA sha1(unlockScript) 1 {} {}\n\n-- unlockScript{}", store, key,
                           quoted(e.token), redis::redlock_unlock_script);
    const ElectorOptions* o = options_of(scenario, scenario.find(e.node));
    const std::int64_t ttl = o != nullptr ? ms_of(o->lease, scenario.tick_ms) : 0;
    return fmt::format("# store {}\nEVALSHA sha1(lockScript) 1 {} {} {}\n\n-- lockScript{}", store, key,
                       quoted(e.token), ttl, redis::redlock_lock_script);
}

RedlockCode redisson_code(const sim::Scenario& scenario, NodeIndex node) {
    RedlockCode code;
    const ElectorOptions* o = options_of(scenario, node);
    const bool watchdog = o != nullptr && o->auto_extend;
    const std::int64_t wait = o != nullptr ? ms_of(o->wait, scenario.tick_ms) : 0;
    auto& l = code.lines;
    l.push_back("// org.redisson:redisson 3.31.0");
    l.push_back("Config config = new Config();");
    l.push_back(fmt::format("config.setLockWatchdogTimeout({});  // ms: the watchdog's TTL, renewed every third",
                            scenario.redisson.lock_watchdog_timeout_ms));
    l.push_back("config.useSingleServer().setAddress(\"redis://127.0.0.1:6379\");");
    l.push_back("RedissonClient redisson = Redisson.create(config);");
    l.push_back("");
    l.push_back(fmt::format("RLock lock = redisson.getLock(\"{}\");", scenario.lock.name));
    code.lock_line = static_cast<std::int32_t>(l.size());
    if (watchdog)
        l.push_back(fmt::format(
            "if (lock.tryLock({}, TimeUnit.MILLISECONDS)) {{  // waitTime; no leaseTime: the watchdog", wait));
    else
        l.push_back(fmt::format("if (lock.tryLock({}, {}, TimeUnit.MILLISECONDS)) {{  // waitTime, leaseTime", wait,
                                o != nullptr ? ms_of(o->lease, scenario.tick_ms) : 0));
    l.push_back("    try {");
    code.work_line = static_cast<std::int32_t>(l.size());
    l.push_back("        work();  // nothing tells the work when the key expires");
    l.push_back("    } finally {");
    code.unlock_line = static_cast<std::int32_t>(l.size());
    l.push_back("        lock.unlock();  // IllegalMonitorStateException when its field is gone");
    l.push_back("    }");
    l.push_back("}");
    return code;
}

std::int32_t redisson_line(const RedlockCode& code, std::string_view state) {
    if (state == "locking" || state == "sleeping") return code.lock_line;
    if (state == "holding") return code.work_line;
    if (state == "unlocking") return code.unlock_line;
    return -1;
}

namespace {

// The lease Redisson sends (internalLockLeaseTime, RL 193): leaseTime, or the
// watchdog's timeout with auto_extend; named when the scenario is not known.
std::string redisson_lease(const sim::Scenario* scenario, const std::string& node) {
    if (scenario == nullptr) return "<internalLockLeaseTime>";
    const ElectorOptions* o = options_of(*scenario, scenario->find(node));
    if (o != nullptr && o->auto_extend) return std::to_string(scenario->redisson.lock_watchdog_timeout_ms);
    return std::to_string(o != nullptr ? ms_of(o->lease, scenario->tick_ms) : 0);
}

}  // namespace

std::string redisson_event_call(const sim::Scenario* scenario, const sim::Trace& trace, std::size_t index) {
    if (index >= trace.events.size()) return {};
    const sim::Event& e = trace.events[index];
    const std::string key = quoted(trace.header.lock);
    const std::string channel = quoted("redisson_lock__channel:{" + trace.header.lock + "}");
    const std::string field = quoted(e.token);
    switch (e.op) {
        case EventOp::acquire:
            return fmt::format("EVALSHA sha1(lockScript) 1 {} {} {}\n\n-- lockScript (RedissonLock.java 220-226)\n{}",
                               key, redisson_lease(scenario, e.node), field, redis::redisson_lock_script);
        case EventOp::extend: {
            const std::string px = scenario != nullptr ? std::to_string(scenario->redisson.lock_watchdog_timeout_ms)
                                                       : std::string("<lockWatchdogTimeout>");
            return fmt::format(
                "EVALSHA sha1(renewScript) 1 {} {} {}\n\n-- renewScript (RedissonBaseLock.java 185-189)\n{}", key, px,
                field, redis::redisson_renew_script);
        }
        case EventOp::release:
            return fmt::format(
                "EVALSHA sha1(unlockScript) 3 {} {} {} 0 {} {} publish 13500\n\n"
                "-- unlockScript (RedissonLock.java 346-364)\n{}",
                key, channel, quoted("redisson_unlock_latch:{" + trace.header.lock + "}:<request id>"),
                redisson_lease(scenario, e.node), field, redis::redisson_unlock_script);
        case EventOp::message:  // the unlock script's redis.call(ARGV[4], KEYS[2], ARGV[1])
            return fmt::format(
                "# sent by the unlock script (RedissonLock.java 361), not a call of its own\nPUBLISH {} 0", channel);
        default: return {};
    }
}

std::string command_lines(const std::vector<redis::ScriptCall>& calls, const redis::KeyLayout& keys) {
    std::string out;
    for (const redis::ScriptCall& call : calls) {
        const std::string sha = fmt::format("sha1({})", redis::script_name(call.script));
        const std::vector<std::string> words = redis::evalsha_words(call, keys, sha);
        for (std::size_t i = 0; i < words.size(); ++i) {
            if (i > 0) out += ' ';
            out += i == 1 ? words[i] : quoted(words[i]);
        }
        out += '\n';
    }
    return out;
}

}  // namespace leasescope::gui

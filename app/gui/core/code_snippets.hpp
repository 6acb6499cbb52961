#pragma once
// The Code panel's text (docs/tutorial.md, "From the picture to the code"):
// the real client's calls for a candidate's knobs and the scenario's tick_ms,
// and the Redis commands the live store sends for one trace event, built by
// the store's own call builders (leasescope/redis/script_calls.hpp), so the
// panel shows what a live run sends. Code only: the panel's headings and
// notes are words, in assets/i18n.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "leasescope/redis/script_calls.hpp"
#include "leasescope/sim/scenario.hpp"
#include "leasescope/sim/trace.hpp"

namespace leasescope::gui {

// A duration in ISO-8601, as the Spring annotation takes it: 500 ms "PT0.5S".
std::string iso_duration(std::int64_t ms);
// A kotlin.time duration literal: "500.milliseconds", "10.seconds".
std::string kotlin_duration(std::int64_t ms);

// The client code for candidate `node` (0 when there is none) of `scenario`.
struct ClientCode {
    std::string kotlin;  // options, the elector, runIfLeader and runIfLeaderResult
    std::string spring;  // the annotation on a function
    std::string dcore;   // acquire!, renew!, resign!, validate!, status
    bool group = false;  // the leader-group API (capacity > 1 or elector "group")
};
ClientCode client_code(const sim::Scenario& scenario, NodeIndex node);

// The redlock client's code (npm redlock 4.2.0, model.md §20) for a
// scenario's stores, options and lock: one line each, and which line a
// client is on in each step (locking, working, releasing), for the panel to
// highlight. The option names are the package's (redlock.js 58-63).
struct RedlockCode {
    std::vector<std::string> lines;
    std::int32_t lock_line = -1, work_line = -1, unlock_line = -1;
    std::string text() const;  // the lines, each ending in a newline (what Copy copies)
};
RedlockCode redlock_code(const sim::Scenario& scenario, NodeIndex node);
// The line of `code` a client in `state` is on ("locking", "working", …,
// words::to_string(RedlockClientState)); -1: none.
std::int32_t redlock_line(const RedlockCode& code, std::string_view state);
// The script a store ran for trace event `index` of a Redlock trace (a
// store's answer to a lock or an unlock): "EVALSHA sha1(lockScript) 1 key
// value ttl" and the script (redlock.js 9-38); empty for any other event.
std::string redlock_event_call(const sim::Scenario& scenario, const sim::Trace& trace, std::size_t index);

// Redisson's RLock (3.31.0, model.md §21) for candidate `node` of a scenario:
// Config's lockWatchdogTimeout, getLock(name), tryLock(waitTime, leaseTime,
// MILLISECONDS) — or tryLock(waitTime, MILLISECONDS) with the watchdog (rule
// 21.1.2) — the work and unlock(), one line each; lock_line is tryLock's,
// work_line the work's, unlock_line unlock()'s.
RedlockCode redisson_code(const sim::Scenario& scenario, NodeIndex node);
// The line of `code` a Redisson client in `state` is on ("locking",
// "sleeping": tryLock; "holding": the work; "unlocking": unlock()); -1: none.
std::int32_t redisson_line(const RedlockCode& code, std::string_view state);
// The script Redis ran for trace event `index` of a Redisson trace, as live
// mode sends it (model.md rule 21.9.5): the lock, renew or unlock script
// with its KEYS and ARGV, or the PUBLISH an unlock's script made for a
// `message`; empty for any other event. `scenario` null (a trace alone):
// the lease is named, not valued.
std::string redisson_event_call(const sim::Scenario* scenario, const sim::Trace& trace, std::size_t index);

// Why an event sends what it sends.
enum class CallNote : std::uint8_t {
    none,
    no_redis,        // the event is not a Redis call (a fault, a write without validate, …)
    release_read,    // a release reads first; the script only if the token still holds
    not_owner_read,  // the read found another holder: only the read was sent
    failed,          // the node was cut off: the call failed (model.md §7.2)
    every_tick,      // expiry: the live store reads the slots every tick
};

// The store calls behind trace event `index`, in the order they are sent.
struct EventCalls {
    std::vector<redis::ScriptCall> calls;
    CallNote note = CallNote::none;
};
EventCalls event_calls(const sim::Scenario& scenario, const sim::Trace& trace, std::size_t index);

// One command line per call: EVALSHA sha1(<script>) N KEYS… ARGV…, each word
// quoted as redis-cli would need it.
std::string command_lines(const std::vector<redis::ScriptCall>& calls, const redis::KeyLayout& keys);

}  // namespace leasescope::gui

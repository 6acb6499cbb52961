#pragma once
// What the Redis store sends, without sending it (docs/model.md §13): the
// lock's key names, the Lua script of each operation, and the arguments an
// operation passes to its script. The store (redis_store.cpp) builds every
// call here, and the app's Code panel shows the same calls, so what the panel
// says the store sends is what it sends. No I/O and no hiredis: the GUI and the
// browser build use it without a Redis connection.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "leasescope/engine/store.hpp"
#include "leasescope/engine/types.hpp"

namespace leasescope::redis {

// The lock's keys, and the one rule that says whether a key is ours.
class KeyLayout {
public:
    KeyLayout(std::string_view lock, std::int32_t capacity);
    const std::string& prefix() const { return prefix_; }  // "leasescope:{<lock>}:"
    std::string slot(std::int32_t index) const { return prefix_ + "slot:" + std::to_string(index); }
    std::string counter() const { return prefix_ + "fencing"; }
    std::string holdoff() const { return prefix_ + "holdoff"; }
    // The run-ownership key: which live run uses this lock on this server
    // (a random id, with a lease of its own). Not one of the lock's keys:
    // owns() is false for it and reset/remove_namespace leave it alone.
    std::string run_owner() const { return prefix_ + "run"; }
    // KEYS for every script: the slots in order, the counter, the hold-off.
    const std::vector<std::string>& script_keys() const { return script_keys_; }
    // True for exactly the keys this layout can write, whatever the capacity
    // (slot:<digits>, fencing, holdoff under the prefix). A key of another
    // lock whose name starts with this one's never matches.
    bool owns(std::string_view key) const;

private:
    std::string prefix_;
    std::vector<std::string> script_keys_;
};

// One Lua script per store operation.
enum class ScriptId : std::uint8_t { acquire, extend, release, status, validate, expire, failover };
inline constexpr std::size_t script_count = 7;
inline constexpr std::array<ScriptId, script_count> all_scripts{
    ScriptId::acquire,  ScriptId::extend, ScriptId::release, ScriptId::status,
    ScriptId::validate, ScriptId::expire, ScriptId::failover};

// The script's Lua source, exactly as the store loads it.
std::string_view script_source(ScriptId id);
// Its name: "acquire", "extend", …
const char* script_name(ScriptId id);

// A call of one script: KEYS are always the layout's script_keys(); these are
// its ARGV.
struct ScriptCall {
    ScriptId script = ScriptId::status;
    std::vector<std::string> args;
};

// The calls each store operation makes. Ticks become milliseconds by the live
// timing rule (live_timing.hpp); fencing_start is the lock's first fencing
// number (the counter starts one below it).
ScriptCall acquire_call(std::string_view owner, std::string_view token, Tick lease, std::int64_t tick_ms,
                        std::int64_t fencing_start);
ScriptCall extend_call(std::string_view token, Tick lease, std::int64_t tick_ms);
// keep_for and hold_off of 0 mean none.
ScriptCall release_call(std::string_view token, Tick keep_for, Tick hold_off, std::int64_t tick_ms);
ScriptCall status_call();
ScriptCall validate_call(std::string_view token);
ScriptCall expire_call();
ScriptCall failover_call(FailoverLoss loss, std::int64_t fencing_start);

// The words of the command that runs `call`: {"EVALSHA", sha, numkeys,
// KEYS…, ARGV…}. `sha` is the script's SHA-1 (the store has it from SCRIPT
// LOAD; a viewer may pass a placeholder).
std::vector<std::string> evalsha_words(const ScriptCall& call, const KeyLayout& keys, std::string_view sha);

}  // namespace leasescope::redis

// The Redis store's calls without a connection: key names, script sources and
// each operation's arguments (script_calls.hpp).
#include "leasescope/redis/script_calls.hpp"

#include <algorithm>

#include "leasescope/engine/assert.hpp"
#include "leasescope/redis/live_timing.hpp"
#include "lua_scripts.hpp"

namespace leasescope::redis {

KeyLayout::KeyLayout(std::string_view lock, std::int32_t capacity) : prefix_("leasescope:{") {
    prefix_ += lock;
    prefix_ += "}:";
    for (std::int32_t i = 0; i < capacity; ++i) script_keys_.push_back(slot(i));
    script_keys_.push_back(counter());
    script_keys_.push_back(holdoff());
}

bool KeyLayout::owns(std::string_view key) const {
    if (key.substr(0, prefix_.size()) != prefix_) return false;
    const std::string_view rest = key.substr(prefix_.size());
    if (rest == "fencing" || rest == "holdoff") return true;
    constexpr std::string_view slot_word = "slot:";
    if (rest.substr(0, slot_word.size()) != slot_word) return false;
    const std::string_view digits = rest.substr(slot_word.size());
    return !digits.empty() && digits.size() <= 9 &&
           std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::string_view script_source(ScriptId id) {
    switch (id) {
        case ScriptId::acquire: return lua::acquire;
        case ScriptId::extend: return lua::extend;
        case ScriptId::release: return lua::release;
        case ScriptId::status: return lua::status;
        case ScriptId::validate: return lua::validate;
        case ScriptId::expire: return lua::expire;
        case ScriptId::failover: return lua::failover;
    }
    LS_ASSERT(false && "an unknown script");
    return "";
}

const char* script_name(ScriptId id) {
    switch (id) {
        case ScriptId::acquire: return "acquire";
        case ScriptId::extend: return "extend";
        case ScriptId::release: return "release";
        case ScriptId::status: return "status";
        case ScriptId::validate: return "validate";
        case ScriptId::expire: return "expire";
        case ScriptId::failover: return "failover";
    }
    LS_ASSERT(false && "an unknown script");
    return "";
}

ScriptCall acquire_call(std::string_view owner, std::string_view token, Tick lease, std::int64_t tick_ms,
                        std::int64_t fencing_start) {
    LS_ASSERT(lease >= 1);
    return {ScriptId::acquire,
            {std::string(owner), std::string(token), std::to_string(ttl_ms_for(lease, tick_ms)),
             std::to_string(fencing_start - 1)}};
}

ScriptCall extend_call(std::string_view token, Tick lease, std::int64_t tick_ms) {
    LS_ASSERT(lease >= 1);
    return {ScriptId::extend, {std::string(token), std::to_string(ttl_ms_for(lease, tick_ms))}};
}

ScriptCall release_call(std::string_view token, Tick keep_for, Tick hold_off, std::int64_t tick_ms) {
    LS_ASSERT(keep_for >= 0);
    LS_ASSERT(hold_off >= 0);
    const std::int64_t keep_ms = keep_for > 0 ? ttl_ms_for(keep_for, tick_ms) : 0;
    const std::int64_t hold_off_ms = hold_off > 0 ? ttl_ms_for(hold_off, tick_ms) : 0;
    return {ScriptId::release, {std::string(token), std::to_string(keep_ms), std::to_string(hold_off_ms)}};
}

ScriptCall status_call() { return {ScriptId::status, {}}; }

ScriptCall validate_call(std::string_view token) { return {ScriptId::validate, {std::string(token)}}; }

ScriptCall expire_call() { return {ScriptId::expire, {}}; }

ScriptCall failover_call(FailoverLoss loss, std::int64_t fencing_start) {
    return {ScriptId::failover, {loss == FailoverLoss::all ? "1" : "0", std::to_string(fencing_start - 1)}};
}

std::vector<std::string> evalsha_words(const ScriptCall& call, const KeyLayout& keys, std::string_view sha) {
    std::vector<std::string> words{"EVALSHA", std::string(sha), std::to_string(keys.script_keys().size())};
    for (const auto& k : keys.script_keys()) words.push_back(k);
    for (const auto& a : call.args) words.push_back(a);
    return words;
}

}  // namespace leasescope::redis

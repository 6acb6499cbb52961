// The text of the Redis store's Lua scripts, one per operation (lua_scripts.hpp).
#include "lua_scripts.hpp"

namespace leasescope::redis::lua {

// Each script runs atomically; Redis 7 also freezes the clock for key expiry
// for the script's duration, so every PTTL inside one script sees one moment.
// A slot key exists exactly while the model's slot is valid (t < expires_at).

const std::string_view acquire = R"lua(
local n = #KEYS - 2
local counter_key, holdoff_key = KEYS[n + 1], KEYS[n + 2]
local owner, token, lease_ms, counter_initial = ARGV[1], ARGV[2], tonumber(ARGV[3]), ARGV[4]
-- The token first: a holder asking again gets its slot back, unchanged, even
-- inside a hold-off.
for i = 1, n do
  if redis.call('HGET', KEYS[i], 'token') == token then
    return {1, 0, i - 1, tonumber(redis.call('HGET', KEYS[i], 'fencing')), redis.call('PTTL', KEYS[i])}
  end
end
local holdoff_pttl = redis.call('PTTL', holdoff_key)
if holdoff_pttl ~= -2 then
  return {0, 1, 0, 0, holdoff_pttl}
end
for i = 1, n do
  if redis.call('EXISTS', KEYS[i]) == 0 then
    -- The counter never expires; it is created on first use so that a
    -- missing counter still starts at fencing_start.
    if redis.call('EXISTS', counter_key) == 0 then
      redis.call('SET', counter_key, counter_initial)
    end
    local fencing = redis.call('INCR', counter_key)
    redis.call('HSET', KEYS[i], 'owner', owner, 'token', token, 'fencing', fencing)
    redis.call('PEXPIRE', KEYS[i], lease_ms)
    return {1, 1, i - 1, fencing, lease_ms}
  end
end
local shortest = -2
for i = 1, n do
  local pttl = redis.call('PTTL', KEYS[i])
  if shortest == -2 or pttl < shortest then shortest = pttl end
end
return {0, 0, 0, 0, shortest}
)lua";

const std::string_view extend = R"lua(
local n = #KEYS - 2
local token, lease_ms = ARGV[1], tonumber(ARGV[2])
for i = 1, n do
  if redis.call('HGET', KEYS[i], 'token') == token then
    redis.call('PEXPIRE', KEYS[i], lease_ms)
    return {1, i - 1, tonumber(redis.call('HGET', KEYS[i], 'fencing'))}
  end
end
return {0, 0, 0}
)lua";

const std::string_view release = R"lua(
local n = #KEYS - 2
local holdoff_key = KEYS[n + 2]
local token, keep_ms, hold_off_ms = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
for i = 1, n do
  if redis.call('HGET', KEYS[i], 'token') == token then
    local outcome, pttl = 0, 0
    if keep_ms > 0 then
      -- Keep the record for the rest of the minimum lease, never longer
      -- than it already had.
      pttl = redis.call('PTTL', KEYS[i])
      if keep_ms < pttl then
        redis.call('PEXPIRE', KEYS[i], keep_ms)
        pttl = keep_ms
      end
      outcome = 1
    else
      redis.call('DEL', KEYS[i])
    end
    -- The hold-off is set in the same script: atomic with the release.
    if hold_off_ms > 0 and redis.call('PTTL', holdoff_key) < hold_off_ms then
      redis.call('SET', holdoff_key, '1', 'PX', hold_off_ms)
    end
    return {outcome, i - 1, pttl}
  end
end
return {2, 0, 0}
)lua";

const std::string_view status = R"lua(
local n = #KEYS - 2
local holdoff_key = KEYS[n + 2]
local out = {redis.call('PTTL', holdoff_key)}
for i = 1, n do
  local pttl = redis.call('PTTL', KEYS[i])
  if pttl ~= -2 then
    local fields = redis.call('HMGET', KEYS[i], 'owner', 'fencing')
    out[#out + 1] = {i - 1, fields[1] or '', tonumber(fields[2]) or 0, pttl}
  end
end
return out
)lua";

const std::string_view validate = R"lua(
local n = #KEYS - 2
local token = ARGV[1]
local any_valid = false
for i = 1, n do
  local held = redis.call('HGET', KEYS[i], 'token')
  if held then
    if held == token then return 0 end
    any_valid = true
  end
end
if any_valid then return 1 end
return 2
)lua";

const std::string_view expire = R"lua(
local n = #KEYS - 2
local out = {}
for i = 1, n do
  local token = redis.call('HGET', KEYS[i], 'token')
  out[i] = {redis.call('EXISTS', KEYS[i]), token or ''}
end
return out
)lua";

const std::string_view failover = R"lua(
local n = #KEYS - 2
local counter_key, holdoff_key = KEYS[n + 1], KEYS[n + 2]
for i = 1, n do redis.call('DEL', KEYS[i]) end
redis.call('DEL', holdoff_key)
if ARGV[1] == '1' then
  redis.call('SET', counter_key, ARGV[2])
end
return 1
)lua";

}  // namespace leasescope::redis::lua

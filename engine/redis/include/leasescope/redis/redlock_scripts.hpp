#pragma once
// The npm package redlock 4.2.0's two scripts, byte for byte (redlock.js at
// tag v4.2.0, lines 9-24 and 26-38): live mode sends them to each
// store as the package does, by EVALSHA (redlock.js 455), so that their
// SHA-1 is the package's (docs/model.md rule 20.9.4). No hiredis (target
// leasescope::redis_scripts): the app's Code panel shows these very
// strings.
#include <string_view>

namespace leasescope::redis {

// The template literal's text: from the newline after the opening backtick
// to the one before the closing backtick.
inline constexpr std::string_view redlock_lock_script = R"lua(
	-- Return 0 if an entry already exists.
	for i, key in ipairs(KEYS) do
		if redis.call("exists", key) == 1 then
			return 0
		end
	end

	-- Create an entry for each provided key.
	for i, key in ipairs(KEYS) do
		redis.call("set", key, ARGV[1], "PX", ARGV[2])
	end

	-- Return the number of entries added.
	return #KEYS
)lua";

inline constexpr std::string_view redlock_unlock_script = R"lua(
	local count = 0
	for i, key in ipairs(KEYS) do
		-- Only remove entries for *this* lock value.
		if redis.call("get", key) == ARGV[1] then
			redis.pcall("del", key)
			count = count + 1
		end
	end

	-- Return the number of entries removed.
	return count
)lua";

}  // namespace leasescope::redis

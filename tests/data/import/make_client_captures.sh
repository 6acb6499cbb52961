#!/usr/bin/env bash
# Makes real MONITOR captures of the Kotlin elector's and Redisson's lock
# scripts (docs/model.md §19.3.7): there is no JVM here, so redis-cli plays
# each client, sending the command the client sends, byte for byte, with the
# client's KEYS and ARGV shapes, on a connection of its own that stays open
# (as a client's does), while `redis-cli monitor` records the server.
#   tests/data/import/make_client_captures.sh REDIS_URL OUT_DIR
# writes OUT_DIR/kotlin-elector.monitor and OUT_DIR/redisson.monitor. The
# committed captures beside this script were made so, with redis-server and
# redis-cli 7.0.15 (Debian), on 2026-12-04: a fresh `redis-server --port 26393
# --save '' --appendonly no`, then tests/data/import/make_client_captures.sh
# redis://127.0.0.1:26393 tests/data/import. The live test
# live.client_captures_test (tests/live/client_captures_test.sh) runs it again and
# compares the shape. It deletes only its own keys, but SCRIPT FLUSH empties
# the server's script cache: use a test server.
#
# Each step waits until the monitor shows the command before the next is
# sent, so the order of lines is Redis's, never a race. Before the monitor
# starts the script deletes its own keys and runs SCRIPT FLUSH (so the Kotlin
# client's first EVALSHA meets NOSCRIPT, as on a fresh server). Each redis-cli
# opens with `COMMAND DOCS` (its help): a line of no key, as real captures
# have. Times are real: the expiries sleep past a 300 ms lease.
#
# Kotlin elector (bluetape4k-leader 0.4.0, LettuceLock.kt): acquire is
# Lettuce's `SET key token PX ms NX` (SetArgs.build writes PX before NX);
# extend and unlock are EVALSHA of the script's SHA-1, and EVAL with the body
# after a NOSCRIPT (script/RedisScript.kt:57-60). Redisson 3.27.2 (RLock on a
# single server): EVAL with the body (useScriptCache is false by default);
# tokens are uuid:threadId; unlock's ARGV are 0, 30000, the token, PUBLISH,
# 13500 (the defaults: watchdog 30 s; (3000 + 1500) * 3 ms for the latch).
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 REDIS_URL OUT_DIR" >&2
  exit 2
fi
url=$1 out=$2
cli=(redis-cli --no-auth-warning -u "$url")
work=$(mktemp -d)
pids=()
cleanup() {
  for fd in "${fds[@]:-}"; do [ -n "$fd" ] && eval "exec $fd>&-" 2>/dev/null || true; done
  for pid in "${pids[@]:-}"; do [ -n "$pid" ] && kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
declare -A fds=()
trap cleanup EXIT

# The bodies, exactly as sim/src/import/known_scripts.cpp holds them
# (tests/sim/import/known_scripts_test.cpp checks the committed captures
# carry these bytes).
kotlin_unlock=$'\nif redis.call(\'get\', KEYS[1]) == ARGV[1] then\n  local ttl = tonumber(ARGV[2])\n  if ttl and ttl > 0 then\n    return redis.call(\'pexpire\', KEYS[1], ttl)\n  end\n  return redis.call(\'del\', KEYS[1])\nelse\n  return 0\nend'
kotlin_extend=$'\nif redis.call(\'get\', KEYS[1]) == ARGV[1] then\n  return redis.call(\'pexpire\', KEYS[1], ARGV[2])\nelse\n  return 0\nend'
redisson_try_lock="if ((redis.call('exists', KEYS[1]) == 0) or (redis.call('hexists', KEYS[1], ARGV[2]) == 1)) then redis.call('hincrby', KEYS[1], ARGV[2], 1); redis.call('pexpire', KEYS[1], ARGV[1]); return nil; end; return redis.call('pttl', KEYS[1]);"
redisson_unlock="local val = redis.call('get', KEYS[3]); if val ~= false then return tonumber(val);end; if (redis.call('hexists', KEYS[1], ARGV[3]) == 0) then return nil;end; local counter = redis.call('hincrby', KEYS[1], ARGV[3], -1); if (counter > 0) then redis.call('pexpire', KEYS[1], ARGV[2]); redis.call('set', KEYS[3], 0, 'px', ARGV[5]); return 0; else redis.call('del', KEYS[1]); redis.call(ARGV[4], KEYS[2], ARGV[1]); redis.call('set', KEYS[3], 1, 'px', ARGV[5]); return 1; end; "
redisson_renew="if (redis.call('hexists', KEYS[1], ARGV[2]) == 1) then redis.call('pexpire', KEYS[1], ARGV[1]); return 1; end; return 0;"
redisson_force_unlock="if (redis.call('del', KEYS[1]) == 1) then redis.call(ARGV[2], KEYS[2], ARGV[1]); return 1 else return 0 end"

sha1() { printf '%s' "$1" | sha1sum | cut -c1-40; }

# One argument as redis-cli's line parser (sdssplitargs) reads it back.
quote() {
  local s=${1//\\/\\\\}
  s=${s//\"/\\\"}
  s=${s//$'\n'/\\n}
  printf '"%s"' "$s"
}

# Lines of the capture sent by a client (not [… lua]): one per command.
client_lines() { grep -c -v -e ' lua\] ' -e '^OK$' "$monitor" || true; }

wait_for_lines() {
  local want=$1 tries=0
  while [ "$(client_lines)" -lt "$want" ]; do
    tries=$((tries + 1))
    if [ $tries -gt 1000 ]; then
      echo "$0: the monitor did not show command $want within 10 s" >&2
      exit 1
    fi
    sleep 0.01
  done
}

start_monitor() {
  monitor=$1
  "${cli[@]}" monitor >"$monitor" &
  pids+=($!)
  local tries=0
  until grep -q '^OK$' "$monitor" 2>/dev/null; do
    tries=$((tries + 1))
    [ $tries -le 500 ] || { echo "$0: redis-cli monitor did not start" >&2; exit 1; }
    sleep 0.01
  done
}

# A client: a redis-cli reading commands from a FIFO kept open.
open_client() {
  local name=$1 before
  before=$(client_lines)
  mkfifo "$work/$name.in"
  "${cli[@]}" <"$work/$name.in" >"$work/$name.out" &
  pids+=($!)
  local fd
  exec {fd}>"$work/$name.in"
  fds[$name]=$fd
  wait_for_lines $((before + 1))  # its COMMAND DOCS
}

# send CLIENT WORD…: one command line (words already quoted as needed).
send() {
  local name=$1 before
  shift
  before=$(client_lines)
  printf '%s\n' "$*" >&"${fds[$name]}"
  wait_for_lines $((before + 1))
}

close_clients() {
  local name
  for name in "${!fds[@]}"; do eval "exec ${fds[$name]}>&-"; done
  fds=()
  sleep 0.2
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  pids=()
  rm -f "$work"/*.in
}

prepare() {
  "${cli[@]}" DEL "$@" >/dev/null
  "${cli[@]}" SCRIPT FLUSH >/dev/null
}

# Kotlin elector: A acquires, B is refused, A extends (NOSCRIPT, then EVAL,
# then EVALSHA), B's unlock is refused (not the owner), A releases, B takes a
# 300 ms lease and lets it expire, B's extend is lost, A acquires again and
# releases keeping the rest of a minimum lease.
kotlin_capture() {
  local key=orders-leader tok_a=7Hq3kZr9WmXbT2pLfN4sVd tok_b=Qe8uJc5YhRw1nKtB6xGzMa
  local ext unl
  ext=$(sha1 "$kotlin_extend")
  unl=$(sha1 "$kotlin_unlock")
  prepare "$key"
  start_monitor "$work/kotlin-elector.monitor"
  open_client a
  open_client b
  send a SET $key $tok_a PX 5000 NX
  send b SET $key $tok_b PX 5000 NX
  send a EVALSHA "$ext" 1 $key $tok_a 5000
  send a EVAL "$(quote "$kotlin_extend")" 1 $key $tok_a 5000
  send a EVALSHA "$ext" 1 $key $tok_a 5000
  send b EVALSHA "$unl" 1 $key $tok_b 0
  send b EVAL "$(quote "$kotlin_unlock")" 1 $key $tok_b 0
  send a EVALSHA "$unl" 1 $key $tok_a 0
  send b SET $key $tok_b PX 300 NX
  sleep 1
  send b EVALSHA "$ext" 1 $key $tok_b 5000
  send a SET $key $tok_a PX 5000 NX
  send a EVALSHA "$unl" 1 $key $tok_a 1500
  close_clients
  cp "$work/kotlin-elector.monitor" "$out/kotlin-elector.monitor"
}

# Redisson: A locks, B is refused, A's watchdog renews, A locks again
# (re-entry), A unlocks once (a re-entry left: kept) and again (released),
# retries that unlock under the same request (its latch answers), B locks
# with a 300 ms lease and lets it expire, B's renew is lost, A locks, B's
# unlock is refused (nil), A force-unlocks.
redisson_capture() {
  local name=orders-lock
  local channel="redisson_lock__channel:{$name}" latch="redisson_unlock_latch:{$name}"
  local a=3f6c2b1e-8d4a-4c1f-9b7e-2a5d6e8f0c11:1 b=b7e1d9a0-52c3-4f8e-a6d4-91c0e3f7a2b5:57
  local lock unlock renew force
  lock=$(quote "$redisson_try_lock")
  unlock=$(quote "$redisson_unlock")
  renew=$(quote "$redisson_renew")
  force=$(quote "$redisson_force_unlock")
  prepare "$name" "$latch:5c0e8f1d2a3b4c6d7e8f90a1b2c3d4e5" "$latch:9a8b7c6d5e4f30211203f4e5d6c7b8a9" \
    "$latch:0f1e2d3c4b5a69788796a5b4c3d2e1f0"
  start_monitor "$work/redisson.monitor"
  open_client a
  open_client b
  send a EVAL "$lock" 1 $name 30000 $a
  send b EVAL "$lock" 1 $name 30000 $b
  send a EVAL "$renew" 1 $name 30000 $a
  send a EVAL "$lock" 1 $name 30000 $a
  send a EVAL "$unlock" 3 $name "$channel" "$latch:5c0e8f1d2a3b4c6d7e8f90a1b2c3d4e5" 0 30000 $a PUBLISH 13500
  send a EVAL "$unlock" 3 $name "$channel" "$latch:9a8b7c6d5e4f30211203f4e5d6c7b8a9" 0 30000 $a PUBLISH 13500
  send a EVAL "$unlock" 3 $name "$channel" "$latch:9a8b7c6d5e4f30211203f4e5d6c7b8a9" 0 30000 $a PUBLISH 13500
  send b EVAL "$lock" 1 $name 300 $b
  sleep 1
  send b EVAL "$renew" 1 $name 30000 $b
  send a EVAL "$lock" 1 $name 30000 $a
  send b EVAL "$unlock" 3 $name "$channel" "$latch:0f1e2d3c4b5a69788796a5b4c3d2e1f0" 0 30000 $b PUBLISH 13500
  send a EVAL "$force" 2 $name "$channel" 0 PUBLISH
  close_clients
  cp "$work/redisson.monitor" "$out/redisson.monitor"
}

mkdir -p "$out"
kotlin_capture
redisson_capture

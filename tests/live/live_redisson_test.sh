#!/usr/bin/env bash
# Redisson live (docs/model.md rule 21.9.5): a redis-server of its own on a
# free loopback port; `live --compare` must call the live run of each
# Redisson preset (watchdog-redisson, lost-unlock-redisson: their faults are
# all emulated live) and of tests/live/redisson/{contending,reentrant,store-clock-jump}.json
# (the last also with three store jumps that are not whole ticks) identical to
# the simulation, leave no key behind, and refuse a hash it did not set. A
# run the machine could not keep in time ("did not keep time") is run again,
# at most twice more: a late tick is the clock's fault, not a divergence.
# PART "watchdog" runs the watchdog-redisson preset alone (about a minute of
# wall-clock waiting: the CTest live.redisson.watchdog, label wallclock);
# "rest", the default, everything else (live.redisson).
#   live_redisson_test.sh CLI SOURCE_DIR [rest|watchdog]
set -uo pipefail
cli=$1 src=$2 part=${3:-rest}
source "$(dirname "$0")/live_lib.sh"
command -v redis-server >/dev/null || { echo "FAIL: redis-server is missing" >&2; exit 1; }

port=$(free_port)
start_redis "$port"
url="redis://127.0.0.1:$port"

# live_compare NAME SCENARIO [ARGS...]: identical, or a failure.
live_compare() {
  local name=$1 scenario=$2 out rc attempt
  shift 2
  for attempt in 1 2 3; do
    out=$("$cli" live "$scenario" --redis "$url" "$@" --compare 2>&1); rc=$?
    [ $rc -eq 3 ] && grep -q "did not keep time" <<<"$out" && { echo "  $name: did not keep time (attempt $attempt)"; continue; }
    break
  done
  if [ $rc -eq 0 ] && grep -q "^identical$" <<<"$out"; then pass "$name: $(head -1 <<<"$out")"; else fail "$name: exit $rc: $out"; fi
}
if [ "$part" = watchdog ]; then
  live_compare watchdog-redisson "$src/scenarios/watchdog-redisson.json"
  [ "$(redis-cli -p "$port" dbsize)" = 0 ] || fail "the server keeps keys after the run"
  [ $failures -eq 0 ] || { echo "$failures failure(s)" >&2; exit 1; }
  echo "watchdog-redisson live: identical"
  exit 0
fi
for preset in "$src"/scenarios/*redisson*.json; do
  [ "$(basename "$preset")" = watchdog-redisson.json ] && continue  # live.redisson.watchdog
  live_compare "$(basename "$preset" .json)" "$preset"
done
live_compare contending "$src/tests/live/redisson/contending.json"
live_compare reentrant "$src/tests/live/redisson/reentrant.json"
# A store's clock jump moves the hash's deadline, not the clock (model.md §13.6).
live_compare store-clock-jump "$src/tests/live/redisson/store-clock-jump.json"
live_compare store-clock-jumps-not-whole-ticks "$src/tests/live/redisson/store-clock-jump.json" \
  --set defaults.action=30 \
  --set 'faults=[{"kind":"clock_jump","clock":"store","at":3,"ms":130},{"kind":"clock_jump","clock":"store","at":5,"ms":-30},{"kind":"clock_jump","clock":"store","at":6,"ms":45}]'

# Nothing left behind: neither the hash nor an unlock latch.
keys=$(redis-cli -p "$port" dbsize)
[ "$keys" = 0 ] || fail "the server keeps $keys keys after the runs: $(redis-cli -p "$port" keys '*' | tr '\n' ' ')"

# A hash it did not set is refused before the first tick, and left alone.
redis-cli -p "$port" hset report someone-else:1 1 >/dev/null
out=$("$cli" live "$src/scenarios/lost-unlock-redisson.json" --redis "$url" 2>&1); rc=$?
if [ $rc -eq 3 ] && grep -q "already holds the key 'report'" <<<"$out" &&
   [ "$(redis-cli -p "$port" hget report someone-else:1)" = 1 ]; then
  pass "a hash it did not set: $out"
else
  fail "a hash it did not set: exit $rc: $out"
fi

[ $failures -eq 0 ] || { echo "$failures failure(s)" >&2; exit 1; }
echo "all Redisson live checks passed"

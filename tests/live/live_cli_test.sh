#!/usr/bin/env bash
# The live command's edges: malformed URLs are bad input (exit 2) with a clear
# message; an unreachable server is exit 3 without hanging; an unusable lock
# name is bad input; and the test server itself must be there.
set -uo pipefail
cli=$1 src=$2
source "$(dirname "$0")/live_lib.sh"
preset=$src/scenarios/contention.json
if [ -z "${LEASESCOPE_REDIS_URL:-}" ]; then
  fail "LEASESCOPE_REDIS_URL is not set (run through ./test.sh)"
  exit 1
fi

for url in "localhost:6379" "http://h:1" "redis://" "redis://h:0" "redis://h:70000" "redis://h:1/db" \
           "redis://secret@h:1" "rediss://h:1" "redis://h:1/0?x=1"; do
  out=$("$cli" live "$preset" --redis "$url" 2>&1); rc=$?
  if [ $rc -ne 2 ]; then fail "'$url': exit $rc, expected 2: $out"; continue; fi
  if ! grep -q "^error: bad Redis URL: " <<<"$out"; then fail "'$url': unclear message: $out"; continue; fi
  if grep -q secret <<<"$out"; then fail "'$url': the password appears in the message"; continue; fi
  pass "'$url': $out"
done

start=$(date +%s)
out=$("$cli" live "$preset" --redis "redis://127.0.0.1:1" 2>&1); rc=$?
took=$(( $(date +%s) - start ))
if [ $rc -ne 3 ] || ! grep -q "cannot connect to redis://127.0.0.1:1" <<<"$out" || [ $took -gt 5 ]; then
  fail "unreachable server: exit $rc after ${took}s: $out"
else
  pass "unreachable server: $out"
fi

# The scenario parser refuses braces in lock names already; the store refuses
# them too (a unit test covers that layer).
out=$("$cli" live "$preset" --redis "$LEASESCOPE_REDIS_URL" --set 'lock.name="a{b}"' 2>&1); rc=$?
if [ $rc -ne 2 ] || ! grep -q "lock/name" <<<"$out"; then fail "braced lock name: exit $rc: $out"
else pass "braced lock name: $out"; fi

# A store clock cannot be moved on a real server (model.md §13.6): a store
# drift, and two store clock_jumps that are not whole ticks (the step is
# rounded per jump, rule 4), are refused as bad input, saying they are
# simulated only, before any key is touched; one store jump runs live by
# moving the keys' deadlines (rules 1-3); a node's drift and jumps run live.
key="leasescope:{clock-test}:fencing"
redis_cli() { redis-cli -u "$LEASESCOPE_REDIS_URL" "$@"; }
redis_cli set "$key" 41 >/dev/null
for set in 'store.clock.drift_ppm=2000' \
           'faults=[{"kind":"clock_jump","clock":"store","at":2,"ms":70},{"kind":"clock_jump","clock":"store","at":3,"ms":-30}]'; do
  out=$("$cli" live "$preset" --redis "$LEASESCOPE_REDIS_URL" --set 'lock.name="clock-test"' --set "$set" 2>&1); rc=$?
  if [ $rc -ne 2 ] || ! grep -q "simulated only" <<<"$out"; then fail "store clock ($set): exit $rc: $out"
  elif [ "$(redis_cli get "$key")" != 41 ]; then fail "store clock ($set): a key was touched"
  else pass "store clock refused ($set): $out"; fi
done
redis_cli del "$key" >/dev/null
out=$("$cli" live "$preset" --redis "$LEASESCOPE_REDIS_URL" --compare --tick-ms 50 \
      --set 'faults=[{"kind":"clock_jump","clock":"store","at":2,"ms":300}]' 2>&1); rc=$?
if [ $rc -ne 0 ] || ! grep -qx identical <<<"$out"; then fail "store clock_jump live: exit $rc: $out"
else pass "a store clock_jump runs live, identical to the simulation"; fi
out=$("$cli" live "$preset" --redis "$LEASESCOPE_REDIS_URL" --compare --tick-ms 50 --set 'defaults.clock={"drift_ppm":-300000}' \
      --set 'faults=[{"kind":"clock_jump","clock":"node-a","at":2,"ms":300}]' 2>&1); rc=$?
if [ $rc -ne 0 ] || ! grep -qx identical <<<"$out"; then fail "node clocks live: exit $rc: $out"
else pass "node drift and a node clock_jump run live, identical to the simulation"; fi

out=$(LEASESCOPE_REDIS_URL="$LEASESCOPE_REDIS_URL" "$cli" live "$preset" --compare --tick-ms 50 2>&1); rc=$?
if [ $rc -ne 0 ] || ! grep -qx identical <<<"$out"; then fail "URL from the environment: exit $rc: $out"
else pass "URL from the environment"; fi

out=$("$cli" live "$preset" --redis "$LEASESCOPE_REDIS_URL" --bench 200 2>&1); rc=$?
if [ $rc -ne 2 ]; then fail "--bench with a scenario: exit $rc, expected 2: $out"; else pass "--bench with a scenario is refused"; fi
out=$("$cli" live --redis "$LEASESCOPE_REDIS_URL" --bench 200 2>&1); rc=$?
if [ $rc -ne 0 ] || ! grep -q "p50" <<<"$out"; then fail "--bench: exit $rc: $out"; else pass "$out"; fi
exit $((failures > 0))

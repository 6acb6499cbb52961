#!/usr/bin/env bash
# Redlock live (docs/model.md rule 20.9.4): five redis-servers of its own on
# free loopback ports, one per store; `live --compare` must call the live run
# of redlock-gc-pause, of tests/redlock/scenarios/contending.json and of store
# clock jumps (clock-jump-backward, redlock-clock-jump and redlock-monotonic
# without their restarts) identical to the simulation, leave no key behind, and refuse a key it did not set. A
# run the machine could not keep in time ("did not keep time") is run again,
# at most twice more: a late tick is the clock's fault, not a divergence.
#   live_redlock_test.sh CLI SOURCE_DIR
set -uo pipefail
cli=$1 src=$2
source "$(dirname "$0")/live_lib.sh"
command -v redis-server >/dev/null || { echo "FAIL: redis-server is missing" >&2; exit 1; }

ports=() redis_args=()
for i in 0 1 2 3 4; do
  port=$(free_port)
  start_redis "$port"
  ports+=("$port")
  redis_args+=(--redis "redis://127.0.0.1:$port")
done

# live_compare NAME SCENARIO [ARGS...]: identical, or a failure.
live_compare() {
  local name=$1 scenario=$2 out rc attempt
  shift 2
  for attempt in 1 2 3; do
    out=$("$cli" live "$scenario" "${redis_args[@]}" "$@" --compare 2>&1); rc=$?
    [ $rc -eq 3 ] && grep -q "did not keep time" <<<"$out" && { echo "  $name: did not keep time (attempt $attempt)"; continue; }
    break
  done
  if [ $rc -eq 0 ] && grep -q "^identical$" <<<"$out"; then pass "$name: $(head -1 <<<"$out")"; else fail "$name: exit $rc: $out"; fi
}
live_compare redlock-gc-pause "$src/scenarios/redlock-gc-pause.json"
live_compare contending "$src/tests/redlock/scenarios/contending.json"
# A store's clock jump runs by moving the key's deadline on that server
# (model.md §13.6): steps of 350 and -1 050 ms on two stores, not whole ticks,
# at 200 and 50 ms ticks; Kleppmann's jump of C (redlock-clock-jump) and the
# same on monotonic stores, which move nothing, without their restarts (live
# refuses a restart).
live_compare clock-jump-backward "$src/tests/redlock/scenarios/clock-jump-backward.json"
live_compare clock-jump-backward@50ms "$src/tests/redlock/scenarios/clock-jump-backward.json" --tick-ms 50
only_jump='faults=[{"kind":"clock_jump","clock":"C","at":"2s","ms":10000}]'
live_compare redlock-clock-jump-without-restarts "$src/scenarios/redlock-clock-jump.json" --set "$only_jump"
live_compare redlock-monotonic-without-restarts "$src/scenarios/redlock-monotonic.json" --set "$only_jump"

# Nothing left behind: the lock's key is gone from every store.
for port in "${ports[@]}"; do
  keys=$(redis-cli -p "$port" dbsize)
  if [ "$keys" != 0 ]; then fail "store on $port keeps $keys keys after the runs"; fi
done

# A key the run did not set is refused before the first tick, and left alone.
name=$(python3 -c 'import json,re,sys; d=json.loads(re.sub(r"//[^\n]*","",open(sys.argv[1]).read())); print(d.get("lock",{}).get("name","lock"))' "$src/scenarios/redlock-gc-pause.json")
redis-cli -p "${ports[2]}" set "$name" someone-else >/dev/null
out=$("$cli" live "$src/scenarios/redlock-gc-pause.json" "${redis_args[@]}" 2>&1); rc=$?
if [ $rc -eq 3 ] && grep -q "already holds the key '$name'" <<<"$out" &&
   [ "$(redis-cli -p "${ports[2]}" get "$name")" = someone-else ]; then
  pass "a key it did not set: $out"
else
  fail "a key it did not set: exit $rc: $out"
fi

[ $failures -eq 0 ] || { echo "$failures failure(s)" >&2; exit 1; }
echo "all Redlock live checks passed"

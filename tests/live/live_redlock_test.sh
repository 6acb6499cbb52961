#!/usr/bin/env bash
# Redlock live (docs/model.md rule 20.9.4): five redis-servers of its own on
# free loopback ports, one per store; `live --compare` must call the live run
# of redlock-gc-pause and of tests/redlock/scenarios/contending.json identical
# to the simulation, leave no key behind, and refuse a key it did not set. A
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

# live_compare NAME SCENARIO: identical, or a failure.
live_compare() {
  local name=$1 scenario=$2 out rc attempt
  for attempt in 1 2 3; do
    out=$("$cli" live "$scenario" "${redis_args[@]}" --compare 2>&1); rc=$?
    [ $rc -eq 3 ] && grep -q "did not keep time" <<<"$out" && { echo "  $name: did not keep time (attempt $attempt)"; continue; }
    break
  done
  if [ $rc -eq 0 ] && grep -q "^identical$" <<<"$out"; then pass "$name: $(head -1 <<<"$out")"; else fail "$name: exit $rc: $out"; fi
}
live_compare redlock-gc-pause "$src/scenarios/redlock-gc-pause.json"
live_compare contending "$src/tests/redlock/scenarios/contending.json"

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

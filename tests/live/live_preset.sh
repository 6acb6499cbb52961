#!/usr/bin/env bash
# A preset run live at tick_ms 50 (100 with replicas) against the test server must come out
# identical to its simulation. A run the machine could not keep in time
# (the CLI says "did not keep time") is run again, at most twice more: a late
# tick is the clock's fault, not a divergence; any divergence fails at once.
set -uo pipefail
cli=$1 preset=$2
if [ -z "${LEASESCOPE_REDIS_URL:-}" ]; then
  echo "FAIL: LEASESCOPE_REDIS_URL is not set (run through ./test.sh)" >&2
  exit 1
fi
# A preset whose store clock drifts is simulated only (model.md §13.6): live
# mode must refuse it as bad input, before touching Redis. A store's clock
# jump runs live like any other fault (the step of §13.6 rules 1-3).
# A preset with replicas (model.md §13.8) runs on the real replicas test.sh
# starts (LEASESCOPE_REPLICA_URLS), at tick 100 ms: a restored link or a
# promotion waits for a resynchronisation (docs/live-mode.md has the figures).
replicas=$(grep -oE '"replicas": *[0-9]+' "$preset" | grep -oE '[0-9]+$' | head -1)
replica_args=() tick_ms=50
if [ -n "$replicas" ] && [ "$replicas" -gt 0 ]; then
  read -r -a replica_urls <<<"${LEASESCOPE_REPLICA_URLS:-}"
  if [ "${#replica_urls[@]}" -lt "$replicas" ]; then
    echo "FAIL: $preset needs $replicas replicas; LEASESCOPE_REPLICA_URLS names ${#replica_urls[@]} (run through ./test.sh)" >&2
    exit 1
  fi
  for ((i = 0; i < replicas; i++)); do replica_args+=(--replica "${replica_urls[$i]}"); done
  # Live mode refuses a primary with replicas it was not given (they would
  # count for WAIT): the test's other replicas are detached for the run and
  # re-attached after it, waiting until they are linked again.
  primary_port=${LEASESCOPE_REDIS_URL##*:}; primary_port=${primary_port%%/*}
  extra_ports=()
  for ((i = replicas; i < ${#replica_urls[@]}; i++)); do
    p=${replica_urls[$i]##*:}; extra_ports+=("${p%%/*}")
  done
  reattach() {
    for p in "${extra_ports[@]}"; do
      redis-cli -p "$p" replicaof 127.0.0.1 "$primary_port" >/dev/null
      for _ in $(seq 1 100); do
        redis-cli -p "$p" info replication | grep -q '^master_link_status:up' && break
        sleep 0.05
      done
    done
  }
  trap reattach EXIT
  for p in "${extra_ports[@]}"; do redis-cli -p "$p" replicaof no one >/dev/null; done
  replica_args+=(--allow-failover)
  tick_ms=100
  # Split brain with min_replicas_to_write cannot be made on one machine: refused (exit 2).
  if grep -q '"old_primary"' "$preset" && grep -qE '"min_replicas_to_write": *[1-9]' "$preset"; then
    out=$("$cli" live "$preset" --redis "$LEASESCOPE_REDIS_URL" "${replica_args[@]}" --compare 2>&1)
    rc=$?
    echo "$out"
    if [ $rc -eq 2 ] && grep -q "needs a network partition" <<<"$out"; then exit 0; fi
    echo "FAIL: $preset: split brain with min_replicas_to_write must be refused live (exit $rc)" >&2
    exit 1
  fi
fi
if grep -qE '"store": *\{[^}]*"clock"' "$preset"; then
  out=$("$cli" live "$preset" --redis "$LEASESCOPE_REDIS_URL" --tick-ms 50 --compare 2>&1)
  rc=$?
  echo "$out"
  if [ $rc -eq 2 ] && grep -q "simulated only" <<<"$out"; then exit 0; fi
  echo "FAIL: $preset: a store clock drift must be refused live (exit $rc)" >&2
  exit 1
fi
# A preset with time on the wire (model.md §16: a "network" or a "delay")
# runs live like any other (§13.7) and must come out identical.
for attempt in 1 2 3; do
  out=$("$cli" live "$preset" --redis "$LEASESCOPE_REDIS_URL" "${replica_args[@]}" --tick-ms "$tick_ms" --compare 2>&1)
  rc=$?
  echo "$out"
  if [ $rc -eq 0 ] && grep -qx identical <<<"$out"; then exit 0; fi
  if [ $rc -eq 3 ] && grep -q "did not keep time" <<<"$out"; then
    echo "(attempt $attempt lost to timing faults; running again)" >&2
    continue
  fi
  echo "FAIL: $preset (exit $rc)" >&2
  exit 1
done
echo "FAIL: $preset: three runs in a row could not keep time" >&2
exit 1

#!/usr/bin/env bash
# Live mode on a real primary and two real replicas (docs/model.md §13.8),
# the ones test.sh starts (LEASESCOPE_REDIS_URL, LEASESCOPE_REPLICA_URLS):
# every refusal exits with its code and touches nothing; a run and a run
# stopped by SIGTERM leave the topology, the configs and the keys as found;
# each replication scenario of tests/live/replication runs identical to its
# simulation at tick 100 ms (docs/live-mode.md has the figures).
set -uo pipefail
cli=$1 src=$2
source "$(dirname "$0")/live_lib.sh"
: "${LEASESCOPE_REDIS_URL:?run through ./test.sh: LEASESCOPE_REDIS_URL is not set}"
: "${LEASESCOPE_REPLICA_URLS:?run through ./test.sh: LEASESCOPE_REPLICA_URLS is not set}"
read -r -a replicas <<<"$LEASESCOPE_REPLICA_URLS"
[ ${#replicas[@]} -eq 2 ] || { echo "FAIL: LEASESCOPE_REPLICA_URLS must name two replicas" >&2; exit 1; }
primary=$LEASESCOPE_REDIS_URL
dir=$src/tests/live/replication
port_of() { local u=${1##*:}; echo "${u%%/*}"; }
servers=("$primary" "${replicas[@]}")

# What a run must not change: each server's role, master and link, its two
# configs and its keys of our prefix.
state() {
  for url in "${servers[@]}"; do
    local p; p=$(port_of "$url")
    redis-cli -p "$p" info replication | grep -E '^(role|master_port|master_link_status):' | tr -d '\r'
    redis-cli -p "$p" config get min-replicas-to-write | tail -1
    redis-cli -p "$p" config get min-replicas-max-lag | tail -1
    redis-cli -p "$p" --scan --pattern 'leasescope:*' | sort
  done
}
before=$(state)
unchanged() {
  local after; after=$(state)
  if [ "$after" != "$before" ]; then fail "$1: the servers changed:"; diff <(echo "$before") <(echo "$after") >&2; return 1; fi
}

# refuse NAME CODE PATTERN ARGS...: exit CODE, a message matching PATTERN, nothing touched.
refuse() {
  local name=$1 code=$2 pattern=$3; shift 3
  local out rc
  out=$("$cli" live "$@" --tick-ms 100 2>&1); rc=$?
  if [ $rc -ne "$code" ]; then fail "$name: exit $rc, expected $code: $out"; return; fi
  if ! grep -qE -- "$pattern" <<<"$out"; then fail "$name: unclear message: $out"; return; fi
  unchanged "$name" && pass "$name: exit $code, nothing touched: $(grep error <<<"$out" | head -1)"
}
link=$dir/replica-link.json
refuse "without --allow-failover" 2 "add --allow-failover" "$link" --redis "$primary" --replica "${replicas[0]}" --replica "${replicas[1]}"
refuse "one --replica for two replicas" 2 "store.replicas is 2 but 1 --replica" "$link" --redis "$primary" --replica "${replicas[0]}" --allow-failover
refuse "the same server twice" 2 "is the same server as another" "$link" --redis "$primary" --replica "${replicas[0]}" --replica "${replicas[0]}" --allow-failover
refuse "the primary as its own replica" 2 "is the same server as another" "$link" --redis "$primary" --replica "$primary" --replica "${replicas[1]}" --allow-failover
refuse "split brain with min_replicas_to_write" 2 "needs a network partition" "$dir/split-brain-min-replicas.json" --redis "$primary" --replica "${replicas[0]}" --replica "${replicas[1]}" --allow-failover
refuse "a malformed --replica" 2 "--replica" "$link" --redis "$primary" --replica "redis://127.0.0.1:notaport" --replica "${replicas[1]}" --allow-failover
# A server that is no replica of the primary: Redis state, exit 3.
lone_port=$(free_port)
start_redis "$lone_port"
refuse "a --replica that is not a replica of --redis" 3 "is not a replica of" "$link" --redis "$primary" --replica "redis://127.0.0.1:$lone_port" --replica "${replicas[1]}" --allow-failover
refuse "a replica of the primary left out" 3 "replica\(s\) online but 1 --replica" "$dir/../replication-one/one-replica.json" --redis "$primary" --replica "${replicas[0]}" --allow-failover
refuse "a --replica given as --redis" 3 "is not a primary" "$link" --redis "${replicas[0]}" --replica "$primary" --replica "${replicas[1]}" --allow-failover

# SIGTERM in the middle of a run that cut a link and set min-replicas-to-write:
# the topology and configs found come back (exit 143).
"$cli" live "$dir/min-replicas-refuses.json" --redis "$primary" --replica "${replicas[0]}" --replica "${replicas[1]}" \
  --allow-failover --tick-ms 400 >/dev/null 2>"${TMPDIR:-/tmp}/l-term.err" &
cli_pid=$!
# Replica 1's link is cut in ticks 3-7 (1.2 s to 2.8 s into the run): signal then.
cut_seen=0
for _ in $(seq 1 100); do
  if redis-cli -p "$(port_of "${replicas[0]}")" info replication | grep -q '^role:master'; then cut_seen=1; break; fi
  sleep 0.05
done
kill -TERM "$cli_pid"; wait "$cli_pid"; rc=$?
if [ "$cut_seen" -ne 1 ]; then fail "SIGTERM: the link was not cut when the signal came"
elif [ $rc -ne 143 ]; then fail "SIGTERM: exit $rc, expected 143: $(cat "${TMPDIR:-/tmp}/l-term.err")"
elif ! grep -q "the replication topology and configs found were restored" "${TMPDIR:-/tmp}/l-term.err"; then
  fail "SIGTERM: the message does not say the topology was restored: $(cat "${TMPDIR:-/tmp}/l-term.err")"
else unchanged "SIGTERM" && pass "SIGTERM mid-run (a link cut, the config set): exit 143, topology, configs and keys as found"
fi

# Each replication scenario: identical to the simulation, and nothing left behind.
for scenario in "$dir"/*.json; do
  name=$(basename "$scenario" .json)
  [ "$name" = split-brain-min-replicas ] && continue
  ok=0
  for attempt in 1 2 3; do
    out=$("$cli" live "$scenario" --redis "$primary" --replica "${replicas[0]}" --replica "${replicas[1]}" \
      --allow-failover --tick-ms 100 --compare 2>&1); rc=$?
    if [ $rc -eq 0 ] && grep -qx identical <<<"$out"; then ok=1; break; fi
    if [ $rc -eq 3 ] && grep -q "did not keep time" <<<"$out"; then
      echo "($name: attempt $attempt lost to timing faults; running again)" >&2; continue
    fi
    break
  done
  if [ $ok -ne 1 ]; then fail "$name: not identical (exit $rc): $out"; continue; fi
  unchanged "$name" && pass "$name: live --compare identical, servers as found"
done
exit $((failures > 0))

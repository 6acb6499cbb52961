#!/usr/bin/env bash
# Runs every Redlock scenario through the real npm package redlock 4.2.0 on
# five loopback redis-servers of its own (tests/redlock/driver.js) and through
# the simulation (leasescope-cli run), and requires `leasescope-cli diff
# --ignore-tokens` to call the two traces identical (docs/model.md §20.9,
# docs/live-mode.md "Redlock against the real package").
#   compare.sh [CLI [SCENARIO…]]
# CLI defaults to build/release/app/cli/leasescope-cli; the scenarios to the
# presets scenarios/redlock-*.json and tests/redlock/scenarios/*.json.
# Environment: REDLOCK_TICK_MS (200), the tick of both runs; REDLOCK_OUT
# (build/redlock-compare), where the traces are kept.
# Exit: 0 every scenario run is identical (a skipped one says why); 1 a
# divergence or a failure.
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
cli="${1:-build/release/app/cli/leasescope-cli}"
shift || true
tick_ms="${REDLOCK_TICK_MS:-200}"
out="${REDLOCK_OUT:-build/redlock-compare}"
stores=5
[ -x "$cli" ] || { echo "compare.sh: no $cli (build it first)" >&2; exit 1; }
command -v node >/dev/null || { echo "compare.sh: node is missing (Debian package nodejs; tools/deps.sh)" >&2; exit 1; }
tests/redlock/install.sh build/redlock-npm || exit 1

if [ $# -gt 0 ]; then
  scenarios=("$@")
else
  shopt -s nullglob
  scenarios=(scenarios/redlock-*.json tests/redlock/scenarios/*.json)
fi

# Five servers (daemons), each in its own directory with a pid file: the
# driver kills and restarts them (a restart fault), and a restarted server
# writes the same pid file, so the trap stops whatever is running now. A pid is killed only
# while it is still a redis-server on our port.
work=$(mktemp -d)
ports=()
stop_servers() {
  local i pid
  for i in "${!ports[@]}"; do
    pid=$(cat "$work/s$i/redis.pid" 2>/dev/null) || continue
    if tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q "redis-server.*:${ports[$i]}\|redis-server.*--port ${ports[$i]}"; then
      kill "$pid" 2>/dev/null || true
    fi
  done
  rm -rf "$work"
}
trap stop_servers EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}
store_args=()
for ((i = 0; i < stores; i++)); do
  mkdir -p "$work/s$i"
  port=$(free_port)
  ports+=("$port")
  redis-server --port "$port" --bind 127.0.0.1 --dir "$work/s$i" --pidfile "$work/s$i/redis.pid" \
    --save '' --appendonly no --daemonize yes --loglevel warning --logfile "$work/s$i/redis.log" ||
    { echo "compare.sh: redis-server on $port did not start" >&2; exit 1; }
  store_args+=(--store "$port:$work/s$i")
done
for port in "${ports[@]}"; do
  for _ in $(seq 1 50); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.1; done
  redis-cli -p "$port" ping >/dev/null || { echo "compare.sh: redis-server on $port did not start" >&2; exit 1; }
done

mkdir -p "$out"
identical=0 skipped=0 failed=()
for scenario in "${scenarios[@]}"; do
  name=$(basename "$scenario" .json)
  sim="$out/$name.sim.jsonl" real="$out/$name.real.jsonl"
  start=$SECONDS
  # Both runs at REDLOCK_TICK_MS; a scenario whose durations are not whole
  # ticks of it ("500ms" at 200 ms ticks) runs at 100 ms ticks if they are
  # whole there, else at its own tick_ms. The coarser the tick, the more a
  # loaded machine (the ASan stage) may be late without moving an expiry.
  tick=$tick_ms
  if ! "$cli" run "$scenario" --set "tick_ms=$tick" >"$sim" 2>"$out/$name.sim.err"; then
    if [ "$tick_ms" -gt 100 ] && grep -q "not a whole number of" "$out/$name.sim.err" &&
      "$cli" run "$scenario" --set "tick_ms=100" >"$sim" 2>"$out/$name.sim.err"; then
      tick=100
    elif grep -q "not a whole number of" "$out/$name.sim.err" && "$cli" run "$scenario" >"$sim" 2>"$out/$name.sim.err"; then
      tick=$(head -1 "$sim" | python3 -c 'import json, sys; print(json.load(sys.stdin)["tick_ms"])')
    else
      echo "FAIL $name: the simulation failed: $(head -3 "$out/$name.sim.err")"
      failed+=("$name"); continue
    fi
  fi
  # A run the machine could not keep in time (exit 5) is run again, at most
  # twice more: a late tick is the clock's fault, not a divergence.
  for attempt in 1 2 3; do
    node tests/redlock/driver.js "$scenario" --modules build/redlock-npm/node_modules --out "$real" \
      --tick-ms "$tick" "${store_args[@]}" >"$out/$name.real.log" 2>&1
    rc=$?
    [ "$rc" = 5 ] || break
    echo "  $name: did not keep time (attempt $attempt): $(tail -1 "$out/$name.real.log")"
  done
  # The driver refuses what a real run cannot show, saying why: a store's
  # clock jump (a real server's clock cannot be moved, model.md §13.6),
  # everysec, jitter, time on the wire.
  if [ "$rc" = 2 ]; then
    echo "SKIP $name: $(tail -1 "$out/$name.real.log")"
    skipped=$((skipped + 1))
    continue
  elif [ "$rc" != 0 ]; then
    echo "FAIL $name: the real run failed (exit $rc): $(tail -3 "$out/$name.real.log")"
    failed+=("$name"); continue
  fi
  if "$cli" diff --ignore-tokens "$sim" "$real" >"$out/$name.diff" 2>&1; then
    echo "ok   $name: identical at ${tick} ms ticks ($(head -1 "$out/$name.diff"); $((SECONDS - start)) s)"
    identical=$((identical + 1))
  else
    echo "FAIL $name: the real package and the simulation differ:"
    sed 's/^/  | /' "$out/$name.diff"
    failed+=("$name")
  fi
done
echo "compare.sh: ${identical} identical, ${skipped} skipped, ${#failed[@]} failed (${SECONDS} s, ticks of ${tick_ms} ms)"
[ ${#failed[@]} -eq 0 ] && [ "$identical" -gt 0 ]

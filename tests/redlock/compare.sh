#!/usr/bin/env bash
# Runs every Redlock scenario through the real npm package redlock 4.2.0 on
# five loopback redis-servers of its own (tests/redlock/driver.js) and through
# the simulation (leasescope-cli run), and requires `leasescope-cli diff
# --ignore-tokens` to call the two traces identical (docs/model.md §20.9,
# docs/live-mode.md "Redlock against the real package").
#   compare.sh [CLI [SCENARIO… | --seed N…]]
# CLI defaults to build/release/app/cli/leasescope-cli. Without scenarios: the
# presets scenarios/redlock-*.json, tests/redlock/scenarios/*.json and
# REDLOCK_GENERATED scenarios of `leasescope-cli generate --client redlock`;
# `--seed N` names one generated scenario (what a failure says to run again).
# Environment: REDLOCK_TICK_MS (200), the tick of both runs; REDLOCK_AT_TICK_ONLY
# (unset), when set, leaves out a scenario that cannot run at that tick (it
# would run at 100 ms or at its own tick_ms, as the default suite's run
# already did: tools/full.sh's 100 ms round sets it); REDLOCK_OUT
# (build/redlock-compare), where the traces are kept; REDLOCK_GENERATED (5),
# how many generated scenarios, with seeds from REDLOCK_FIRST_SEED (1) on.
# Exit: 0 every scenario run is identical (a skipped one says why, and so
# does one whose real run never kept time: "timing slipped"); 1 a
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

generated="${REDLOCK_GENERATED:-5}"
first_seed="${REDLOCK_FIRST_SEED:-1}"
mkdir -p "$out/generated"
# A generated scenario, written to $out/generated: its file name.
generate() {
  local file="$out/generated/redlock-generated-s$1.json"
  "$cli" generate --client redlock --seed "$1" >"$file" || { echo "compare.sh: generate --seed $1 failed" >&2; exit 1; }
  echo "$file"
}
scenarios=()
if [ $# -gt 0 ]; then
  while [ $# -gt 0 ]; do
    if [ "$1" = --seed ]; then
      [ $# -ge 2 ] || { echo "compare.sh: --seed needs a number" >&2; exit 1; }
      file=$(generate "$2") || exit 1
      scenarios+=("$file")
      shift 2
    else
      scenarios+=("$1")
      shift
    fi
  done
else
  shopt -s nullglob
  scenarios=(scenarios/redlock-*.json tests/redlock/scenarios/*.json)
  for ((seed = first_seed; seed < first_seed + generated; seed++)); do
    file=$(generate "$seed") || exit 1
    scenarios+=("$file")
  done
fi

# Five servers (daemons), each in its own directory with a pid file: the
# driver kills and restarts them (a restart fault), and a restarted server
# writes the same pid file, so the trap stops whatever is running now. A pid is killed only
# while it is still a redis-server on our port.
work=$(mktemp -d)
ports=()
stop_servers() {
  local i pid killed=() _
  for i in "${!ports[@]}"; do
    pid=$(cat "$work/s$i/redis.pid" 2>/dev/null) || continue
    if tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q "redis-server.*:${ports[$i]}\|redis-server.*--port ${ports[$i]}"; then
      kill "$pid" 2>/dev/null && killed+=("$pid")
    fi
  done
  # A server writes its directory until it has exited: wait (2 s at most) before removing it.
  for pid in "${killed[@]}"; do
    for _ in $(seq 1 20); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
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

identical=0 skipped=0 left_out=() slipped=() failed=()
# How to run one scenario again, for a failure's message.
again() {
  local name=$1 seed
  seed=${name#redlock-generated-s}
  if [ "$seed" != "$name" ]; then
    echo "REDLOCK_TICK_MS=$tick_ms tests/redlock/compare.sh $cli --seed $seed"
  else
    echo "REDLOCK_TICK_MS=$tick_ms tests/redlock/compare.sh $cli $2"
  fi
}
# The real run, again while the machine could not keep its time (exit 5: a
# late tick is the clock's fault, not a divergence), at most four times in
# all, a second apart. Sets rc.
real_run() {
  local scenario=$1 name=$2 tick=$3 attempt
  for attempt in 1 2 3 4; do
    node tests/redlock/driver.js "$scenario" --modules build/redlock-npm/node_modules --out "$real" \
      --tick-ms "$tick" "${store_args[@]}" >"$out/$name.real.log" 2>&1
    rc=$?
    [ "$rc" = 5 ] || return
    echo "  $name: did not keep time (attempt $attempt): $(tail -1 "$out/$name.real.log")"
    sleep 1
  done
}
# A run that kept time but differs is run again, twice at most: the
# package and the model are deterministic at whole ticks, so a difference
# that goes away is one the driver's timing rule did not catch (a server or
# the driver descheduled inside a tick under load); one that stays is
# reported, with the first run's diff. Sets rc and try.
compare_at() {
  local tick=$1
  for try in 1 2 3; do
    real_run "$scenario" "$name" "$tick"
    [ "$rc" = 0 ] || break
    if "$cli" diff --ignore-tokens "$sim" "$real" >"$out/$name.diff.$try" 2>&1; then
      cp "$out/$name.diff.$try" "$out/$name.diff"
      break
    fi
    rc=differs
    [ "$try" = 3 ] || echo "  $name: differs (attempt $try), run again: $(head -1 "$out/$name.diff.$try")"
  done
}
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
    if [ -n "${REDLOCK_AT_TICK_ONLY:-}" ] && grep -q "not a whole number of" "$out/$name.sim.err"; then
      echo "left out $name: its durations are not whole ticks of $tick_ms ms (REDLOCK_AT_TICK_ONLY; the 200 ms round runs it at its own tick)"
      left_out+=("$name"); continue
    elif [ "$tick_ms" -gt 100 ] && grep -q "not a whole number of" "$out/$name.sim.err" &&
      "$cli" run "$scenario" --set "tick_ms=100" >"$sim" 2>"$out/$name.sim.err"; then
      tick=100
    elif grep -q "not a whole number of" "$out/$name.sim.err" && "$cli" run "$scenario" >"$sim" 2>"$out/$name.sim.err"; then
      tick=$(head -1 "$sim" | python3 -c 'import json, sys; print(json.load(sys.stdin)["tick_ms"])')
    else
      echo "FAIL $name: the simulation failed: $(head -3 "$out/$name.sim.err")"
      failed+=("$name"); continue
    fi
  fi
  compare_at "$tick"
  # A scenario whose real run never kept time at this tick is tried at
  # twice the tick, if its durations are whole ticks there: a loaded
  # machine's lateness then crosses no TTL boundary.
  slipped_note=""
  if [ "$rc" = 5 ] && [ "$tick" -lt 400 ] &&
    "$cli" run "$scenario" --set "tick_ms=$((tick * 2))" >"$sim.2" 2>/dev/null; then
    echo "  $name: timing slipped at $tick ms ticks, trying $((tick * 2)) ms"
    mv "$sim.2" "$sim"
    slipped_note=", timing slipped at $tick ms ticks"
    tick=$((tick * 2))
    compare_at "$tick"
  fi
  rm -f "$sim.2"
  # The driver refuses what a real run cannot show, saying why: everysec,
  # jitter, time on the wire. A store's clock jump it runs (model.md §20.9
  # rule 5: the key's deadline moves, not the server's clock).
  if [ "$rc" = 2 ]; then
    echo "SKIP $name: $(tail -1 "$out/$name.real.log")"
    skipped=$((skipped + 1))
  elif [ "$rc" = 5 ]; then
    echo "SLIP $name: timing slipped, no trace in 4 attempts at ${tick} ms ticks: $(tail -1 "$out/$name.real.log") (again: $(again "$name" "$scenario"))"
    # A run that differed before the machine stopped keeping time: shown, not judged.
    [ "$try" = 1 ] || sed 's/^/  | differed before: /' "$out/$name.diff.1"
    slipped+=("$name")
  elif [ "$rc" = differs ]; then
    echo "FAIL $name: the real package and the simulation differ, three times (again: $(again "$name" "$scenario")):"
    sed 's/^/  | /' "$out/$name.diff.1"
    cp "$out/$name.diff.1" "$out/$name.diff"
    failed+=("$name")
  elif [ "$rc" != 0 ]; then
    echo "FAIL $name: the real run failed (exit $rc): $(tail -3 "$out/$name.real.log") (again: $(again "$name" "$scenario"))"
    failed+=("$name")
  else
    note=""
    [ "$try" = 1 ] || note=", after $((try - 1)) run(s) that differed: timing"
    echo "ok   $name: identical at ${tick} ms ticks ($(head -1 "$out/$name.diff"); $((SECONDS - start)) s$note$slipped_note)"
    identical=$((identical + 1))
  fi
  rm -f "$out/$name.diff".[123]
done
echo "compare.sh: ${identical} identical, ${skipped} skipped, ${#left_out[@]} left out, ${#slipped[@]} timing slipped, ${#failed[@]} failed (${SECONDS} s, ticks of ${tick_ms} ms)"
[ ${#failed[@]} -eq 0 ] && [ "$identical" -gt 0 ]

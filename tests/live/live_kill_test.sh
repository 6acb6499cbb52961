#!/usr/bin/env bash
# Redis dying in the middle of a run: the live command stops with a clear
# message and exit code 3 within a bounded time, both when the server is
# killed (the connection drops) and when it freezes (the command timeout).
set -uo pipefail
cli=$1 src=$2
source "$(dirname "$0")/live_lib.sh"
TMPDIR_OUT=$(mktemp -u)
preset=$src/scenarios/scheduled-job.json   # 38 ticks: about 3.8 s at 100 ms

for how in KILL STOP; do
  port=$(free_port)
  start_redis "$port"
  start=$(date +%s%N)
  "$cli" live "$preset" --redis "redis://127.0.0.1:$port" --tick-ms 100 >"$TMPDIR_OUT.out" 2>"$TMPDIR_OUT.err" &
  cli_pid=$!
  sleep 1
  kill -"$how" "$redis_pid"
  # Bounded: the command timeout (2 s) plus a tick, with room to spare.
  for _ in $(seq 1 100); do kill -0 "$cli_pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$cli_pid" 2>/dev/null; then
    fail "SIG$how: the live command still runs 10 s after the server stopped"
    kill "$cli_pid"; wait "$cli_pid"
    continue
  fi
  wait "$cli_pid"; rc=$?
  took_ms=$(( ($(date +%s%N) - start) / 1000000 ))
  err=$(cat "$TMPDIR_OUT.err")
  if [ $rc -ne 3 ]; then fail "SIG$how: exit code $rc, expected 3 (stderr: $err)"; continue; fi
  if ! grep -q "error: Redis failed: connection to redis://127.0.0.1:$port lost" <<<"$err"; then
    fail "SIG$how: unclear message: $err"; continue
  fi
  pass "SIG$how: exit 3 after ${took_ms} ms: $(head -1 <<<"$err")"
done
rm -f "$TMPDIR_OUT.out" "$TMPDIR_OUT.err"
exit $((failures > 0))

#!/usr/bin/env bash
# Live mode among neighbours and signals: a second live run of the
# same lock on the same server is refused at its start with exit 3 (and the
# first one's verdict is its own); SIGTERM removes the lock's keys as SIGINT
# does; an output path that cannot be written fails before the run starts;
# standard output into /dev/full is exit 4. A private redis-server each.
set -uo pipefail
cli=$1 src=$2
source "$(dirname "$0")/live_lib.sh"
out=$(mktemp -d); own_dirs+=("$out")
preset=$src/scenarios/scheduled-job.json   # 38 ticks
lock=nightly-billing
port=$(free_port)
start_redis "$port"
url="redis://127.0.0.1:$port"
keys() { redis-cli -p "$port" --scan --pattern "leasescope:{$lock}:*" | sort | tr '\n' ' '; }

# Two runs of one lock: the second is refused at once, the first is undisturbed.
"$cli" live "$preset" --redis "$url" --tick-ms 50 --compare >"$out/first.out" 2>"$out/first.err" &
first=$!
sleep 0.5
start=$(date +%s%N)
"$cli" live "$preset" --redis "$url" --tick-ms 50 --compare >"$out/second.out" 2>"$out/second.err"
rc=$?
took_ms=$(( ($(date +%s%N) - start) / 1000000 ))
wait "$first"; first_rc=$?
if [ $rc -ne 3 ]; then fail "second run: exit $rc, expected 3: $(cat "$out/second.err")"
elif ! grep -q "another live run of lock 'nightly-billing'" "$out/second.err"; then
  fail "second run: unclear message: $(cat "$out/second.err")"
elif [ "$took_ms" -gt 1000 ]; then fail "second run: refused after $took_ms ms, not at its start"
else pass "second run refused at its start (exit 3, $took_ms ms): $(head -c 120 "$out/second.err")"; fi
if [ $first_rc -ne 0 ] || ! grep -q '^identical$' "$out/first.out"; then
  fail "first run: exit $first_rc, expected 0 and identical: $(cat "$out/first.out" "$out/first.err")"
else pass "first run undisturbed: identical"; fi
if [ -n "$(keys)" ]; then fail "keys left after both runs: $(keys)"; else pass "no key left after both runs"; fi

# SIGTERM cleans up like SIGINT: no key of the lock is left, the counter included.
for sig in INT TERM; do
  "$cli" live "$preset" --redis "$url" --tick-ms 100 >"$out/sig.out" 2>"$out/sig.err" &
  pid=$!
  sleep 1
  [ -n "$(keys)" ] || fail "SIG$sig: the run had no keys to clean up"
  kill -"$sig" "$pid"
  wait "$pid"; rc=$?
  expected=$([ "$sig" = INT ] && echo 130 || echo 143)
  if [ $rc -ne "$expected" ]; then fail "SIG$sig: exit $rc, expected $expected: $(cat "$out/sig.err")"
  elif [ -n "$(keys)" ]; then fail "SIG$sig: keys left: $(keys)"
  else pass "SIG$sig: exit $rc, every key removed: $(head -1 "$out/sig.err")"; fi
done

# A killed run (SIGKILL) cannot clean up: its run-ownership key expires by
# its own lease, and until then a new run is refused, not confused.
"$cli" live "$preset" --redis "$url" --tick-ms 50 >/dev/null 2>&1 &
pid=$!
sleep 0.5
kill -KILL "$pid"; wait "$pid" 2>/dev/null
"$cli" live "$preset" --redis "$url" --tick-ms 50 >"$out/after-kill.out" 2>"$out/after-kill.err"
rc=$?
if [ $rc -ne 3 ] || ! grep -q "is held for" "$out/after-kill.err"; then
  fail "right after a killed run: exit $rc, expected 3 with the time left: $(cat "$out/after-kill.err")"
else pass "right after a killed run: refused ($(grep -o 'held for [0-9]* ms' "$out/after-kill.err"))"; fi
sleep 5.5
"$cli" live "$preset" --redis "$url" --tick-ms 50 >"$out/later.out" 2>"$out/later.err"
rc=$?
if [ $rc -ne 0 ]; then fail "once the killed run's key expired: exit $rc: $(cat "$out/later.err")"
else pass "once the killed run's key expired, a new run works"; fi

# An output path that cannot be written fails before the run starts.
start=$(date +%s%N)
"$cli" live "$preset" --redis "$url" --tick-ms 100 --trace "$out/no-such-dir/t.jsonl" >"$out/ff.out" 2>"$out/ff.err"
rc=$?
took_ms=$(( ($(date +%s%N) - start) / 1000000 ))
if [ $rc -ne 4 ] || [ "$took_ms" -gt 1000 ] || ! grep -q "no-such-dir/t.jsonl" "$out/ff.err"; then
  fail "--trace into a missing folder: exit $rc after $took_ms ms: $(cat "$out/ff.err")"
else pass "--trace into a missing folder: exit 4 after $took_ms ms, before the run"; fi

# The verdict into a full disk is a write failure, not success. A run the
# machine could not keep in time has no verdict (exit 3 before any write):
# it is run again, at most three times, as the other live tests do.
for attempt in 1 2 3; do
  "$cli" live "$preset" --redis "$url" --tick-ms 50 --compare >/dev/full 2>"$out/full.err"
  rc=$?
  [ $rc -eq 3 ] && grep -q "did not keep time" "$out/full.err" && [ "$attempt" -lt 3 ] || break
  echo "note: live into /dev/full: timing faults on a busy machine, running it again" >&2
done
if [ $rc -ne 4 ] || ! grep -q "standard output: write failed" "$out/full.err"; then
  fail "live into /dev/full: exit $rc: $(cat "$out/full.err")"
else pass "live into /dev/full: exit 4"; fi

exit $((failures > 0))

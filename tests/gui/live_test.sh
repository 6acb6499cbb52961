#!/usr/bin/env bash
# The Live switch, headless: --live runs the opened scenario against the
# loopback Redis that test.sh starts (LEASESCOPE_REDIS_URL) and must say
# "identical"; against a port nobody listens on it must say clearly that Redis
# cannot be reached, within a few seconds, and exit 3 (as leasescope-cli live). Without the server or a
# display the test fails rather than skips.
# Usage: live_test.sh APP PNG_CHECK SCENARIO
set -uo pipefail
app=$1 check=$2 scenario=$3
source "$(dirname "$0")/gui_lib.sh"
gui_setup
fail() { gui_fail "$@"; }
[ -n "${LEASESCOPE_REDIS_URL:-}" ] || fail "LEASESCOPE_REDIS_URL is not set; test.sh starts a Redis server and sets it"

# 1. Against the test server: identical to the simulation (a run lost to
#    timing faults on a loaded machine is retried, a divergence fails at once).
ok=0
for attempt in 1 2 3; do
  rc=0
  gui_app "$app" "$scenario" --live --live-tick-ms 50 --size 1280x720 --screenshot "$out/live.png" \
    >"$out/stdout" || rc=$?
  cat "$out/stdout"
  if [ "$rc" -eq 0 ] && grep -q "^live: Identical to the simulation" "$out/stdout"; then ok=1; break; fi
  [ "$rc" -eq 1 ] && { cat "$out/stderr" >&2; fail "the live run differs from the simulation (exit 1)"; }
  grep -q "timing fault" "$out/stdout" || { cat "$out/stderr" >&2; fail "--live exited $rc without a verdict"; }
  echo "attempt $attempt had timing faults; retrying" >&2
done
[ "$ok" -eq 1 ] || fail "--live never kept time in 3 attempts"
"$check" "$out/live.png" --size 1280x720 --min-colors 60 || fail "the live screenshot is not a real picture"
# The password of a URL never appears in what the app prints.
secret_url=$(echo "$LEASESCOPE_REDIS_URL" | sed 's|redis://|redis://:hunter2secret@|')
gui_app "$app" "$scenario" --live "$secret_url" --size 1280x720 --screenshot "$out/pw.png" >"$out/pw.out"
cat "$out/stderr" >>"$out/pw.out"
grep -q "hunter2secret" "$out/pw.out" && fail "the password was printed: $(cat "$out/pw.out")"

# 2. A free port nobody listens on: a clear message, quickly, exit 3.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
start=$(date +%s)
rc=0
gui_app timeout 30 "$app" "$scenario" --live "redis://127.0.0.1:$port" --size 1280x720 \
  --screenshot "$out/down.png" >"$out/down.out" || rc=$?
elapsed=$(( $(date +%s) - start ))
cat "$out/down.out"
[ "$rc" -eq 3 ] || fail "unreachable Redis: expected exit 3, got $rc"
grep -q "Cannot reach Redis at redis://127.0.0.1:$port" "$out/down.out" || fail "unreachable Redis: no clear message"
[ "$elapsed" -le 15 ] || fail "unreachable Redis: took ${elapsed}s"
"$check" "$out/down.png" --size 1280x720 --expect-color eb0050 || fail "the error is not shown in red in the picture"
echo ok

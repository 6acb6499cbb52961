#!/usr/bin/env bash
# The app's command line: --help works anywhere; without a display it says so
# and exits non-zero; a bad scenario is refused with a message.
set -uo pipefail
app=$1 scenario=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
"$app" --help >/dev/null || fail "--help exited non-zero"
"$app" --help | grep -q -- "--screenshot" || fail "--help does not mention --screenshot"
msg=$(env -u DISPLAY -u WAYLAND_DISPLAY "$app" "$scenario" 2>&1); rc=$?
[ "$rc" -ne 0 ] || fail "no display: expected a non-zero exit"
echo "$msg" | grep -q "no display" || fail "no display: the message does not say so: $msg"
bad=$(mktemp); trap 'rm -f "$bad"' EXIT
echo '{"name": "x", "candidates": []}' >"$bad"
env -u DISPLAY "$app" "$bad" >/dev/null 2>&1; rc=$?
[ "$rc" -eq 2 ] || fail "bad scenario: expected exit 2, got $rc"
"$app" "$scenario" --size 10x10 >/dev/null 2>&1; rc=$?
[ "$rc" -eq 2 ] || fail "bad --size: expected exit 2, got $rc"
echo "ok"

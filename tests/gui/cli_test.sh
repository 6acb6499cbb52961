#!/usr/bin/env bash
# The app's command line: --help works anywhere and lists the exit codes;
# without a display it says so and exits 5; a bad scenario is refused with a
# message (exit 2), as is a bad flag.
set -uo pipefail
app=$1 scenario=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
# The help is read whole first: grep -q stops reading at its match, and under pipefail the app's
# next write would then die of SIGPIPE (more likely the longer the help grows).
help=$("$app" --help) || fail "--help exited non-zero"
grep -q -- "--screenshot" <<<"$help" || fail "--help does not mention --screenshot"
grep -q "5 no display" <<<"$help" || fail "--help does not list exit 5 (no display)"
msg=$(env -u DISPLAY -u WAYLAND_DISPLAY "$app" "$scenario" 2>&1); rc=$?
[ "$rc" -eq 5 ] || fail "no display: expected exit 5, got $rc"
echo "$msg" | grep -q "no display" || fail "no display: the message does not say so: $msg"
bad=$(mktemp); trap 'rm -f "$bad"' EXIT
echo '{"name": "x", "candidates": []}' >"$bad"
env -u DISPLAY "$app" "$bad" >/dev/null 2>&1; rc=$?
[ "$rc" -eq 2 ] || fail "bad scenario: expected exit 2, got $rc"
"$app" "$scenario" --size 10x10 >/dev/null 2>&1; rc=$?
[ "$rc" -eq 2 ] || fail "bad --size: expected exit 2, got $rc"
"$app" "$scenario" --lang fr >/dev/null 2>&1; rc=$?
[ "$rc" -eq 2 ] || fail "bad --lang: expected exit 2, got $rc"
# Exports go through the safe writer and report failures: a
# trace into a missing folder and a screenshot onto a symbolic link are
# errors naming the path, with exit 4, and the link is left alone.
# These open the display: launched through gui_lib.sh, which tries again
# when the X server refuses a connection (their stderr is $out/stderr).
source "$(dirname "$0")/gui_lib.sh"
gui_setup
trap 'rm -f "$bad"; rm -rf "$out"' EXIT
rc=0; gui_app "$app" "$scenario" --screenshot "$out/ok.png" --trace "$out/no-such-dir/t.jsonl" >/dev/null || rc=$?
[ "$rc" -eq 4 ] || fail "--trace into a missing folder: expected exit 4, got $rc: $(cat "$out/stderr")"
grep -q "no-such-dir/t.jsonl" "$out/stderr" || fail "--trace into a missing folder: the path is not named: $(cat "$out/stderr")"
echo precious >"$out/victim"
ln -s "$out/victim" "$out/link.png"
rc=0; gui_app "$app" "$scenario" --screenshot "$out/link.png" >/dev/null || rc=$?
[ "$rc" -eq 4 ] || fail "--screenshot onto a link: expected exit 4, got $rc: $(cat "$out/stderr")"
[ -L "$out/link.png" ] && [ "$(cat "$out/victim")" = precious ] || fail "--screenshot followed or replaced a link"
[ -z "$(find "$out" -name '*.tmp')" ] || fail "a temporary file was left: $(find "$out" -name '*.tmp')"
echo "ok"

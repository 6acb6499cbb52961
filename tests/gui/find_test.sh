#!/usr/bin/env bash
# "Find a counterexample", headless: on gc-pause-no-fencing with its pause
# removed, the search must find one added pause that breaks it, load the
# counterexample and put the playhead on the unsafe write.
# Usage: find_test.sh APP PNG_CHECK SCENARIO
set -uo pipefail
app=$1 check=$2 scenario=$3
source "$(dirname "$0")/gui_lib.sh"
gui_setup
fail() { gui_fail "$@"; }
rc=0
gui_app timeout 120 "$app" "$scenario" --find-counterexample --size 1280x720 --screenshot "$out/find.png" \
  >"$out/stdout" || rc=$?
cat "$out/stdout"
[ "$rc" -eq 0 ] || { cat "$out/stderr" >&2; fail "exit $rc"; }
grep -q "^find: counterexample (1 added fault): pause node-a" "$out/stdout" || fail "no one-pause counterexample"
grep -q "^find: => unsafe_write" "$out/stdout" || fail "the explanation does not name unsafe_write"
grep -Eq "^find: loaded gc-pause-no-faults-counterexample at tick [0-9]+" "$out/stdout" || fail "nothing was loaded"
"$check" "$out/find.png" --size 1280x720 --min-colors 60 --expect-color eb0050 || fail "bad picture"
echo ok

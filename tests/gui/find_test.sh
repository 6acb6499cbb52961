#!/usr/bin/env bash
# "Find a counterexample", headless: on gc-pause-no-fencing with its pause
# removed, the search must find one added pause that breaks it, load the
# counterexample and put the playhead on the unsafe write. Then "the smallest
# fault of each kind" (--find-smallest) on the same scenario: every length of
# pause and partition up to its longest lease, action or wait (6 ticks), the
# shortest pause that breaks it (3 ticks, 2 held), none of the partitions or
# crashes, a losing failover; the pause's counterexample is loaded.
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
rc=0
gui_app timeout 120 "$app" "$scenario" --find-smallest --lang ko --size 1280x720 --screenshot "$out/smallest.png" \
  >"$out/stdout" || rc=$?
cat "$out/stdout"
[ "$rc" -eq 0 ] || { cat "$out/stderr" >&2; fail "--find-smallest: exit $rc"; }
expect() { grep -qxF "find: $1" "$out/stdout" || fail "--find-smallest: no line \"find: $1\""; }
expect "Pauses and partitions of every length from 50ms (1 tick) to 300ms (6 ticks)."
expect "pause: 150ms (3 ticks) breaks it; 100ms (2 ticks) held"
expect "partition: none up to 300ms (6 ticks) breaks it"
expect "crash: none breaks it"
expect "failover that loses: a single one breaks it"
expect "shown: pause node-a for 3 ticks at tick 1"
grep -Eq "^find: loaded gc-pause-no-faults-counterexample at tick [0-9]+" "$out/stdout" || fail "--find-smallest: nothing was loaded"
"$check" "$out/smallest.png" --size 1280x720 --min-colors 60 --expect-color eb0050 || fail "bad picture (--find-smallest)"
echo ok

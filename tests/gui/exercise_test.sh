#!/usr/bin/env bash
# The Exercise panel, headless (docs/model.md §18): --exercise N opens it and
# each --exercise-answer goes through the command a click on the panel pushes
# (App::exercise_answer_command). A prediction answered right and wrong
# (playhead on the tick, the hint after the wrong one), a goal tried short of
# it and met, a find_fault tried too short, met and shown, and the panel laid
# out without problems at 1024x768 and 1600x900 (and 250 %) in English and Korean.
# Usage: exercise_test.sh APP PNG_CHECK SCENARIO
set -uo pipefail
app=$1 check=$2 scenario=$3
source "$(dirname "$0")/gui_lib.sh"
gui_setup
fail() { gui_fail "$@"; }

# run NAME ARGS...: one headless frame; its report in $out/NAME.txt.
run() {
  local name=$1 rc=0
  shift
  gui_app timeout 120 "$app" "$scenario" --size 1280x720 --screenshot "$out/$name.png" "$@" >"$out/$name.txt" || rc=$?
  [ "$rc" -eq 0 ] || { cat "$out/stderr" >&2; fail "$name: exit $rc"; }
  "$check" "$out/$name.png" --size 1280x720 --min-colors 40 || fail "$name: bad picture"
}
expect() {  # expect NAME PATTERN
  grep -Eq "$2" "$out/$1.txt" || { cat "$out/$1.txt" >&2; fail "$1: no line matching: $2"; }
}

# Predict: opened, the playhead waits before tick 6 and nothing is answered.
run open --exercise 1
expect open '^exercise: 1 of 3 \(predict\), playhead 5, selected event -1$'
expect open '^exercise: not answered; choices: node-a node-b node-c nobody$'
expect open '^exercise: hint not shown; done 0 of 3$'
# Nothing on screen tells tick 6 before the answer: the legend names no mark
# of a later tick (node-a's STALE span starts at 6) and the lesson, which
# tells the story, waits; after the answer both are back.
gui_app_ok "layout before" "$app" "$scenario" --exercise 1 --layout-report "$out/before.txt" >/dev/null
gui_app_ok "layout after" "$app" "$scenario" --exercise 1 --exercise-answer node-b --layout-report "$out/after.txt" >/dev/null
grep -q '"STALE (lease gone)"' "$out/before.txt" && fail "the legend names STALE before tick 6 is answered"
grep -q '"STALE (lease gone)"' "$out/after.txt" || fail "the legend does not name STALE once tick 6 is shown"
grep -q "node-a's work outlives its 6-tick lease" "$out/before.txt" && fail "the lesson tells tick 6 before the answer"
grep -q 'The lesson shows again once the prediction is an' "$out/before.txt" || fail "the lesson's place does not say it waits"
grep -q "node-a's work outlives its 6-tick lease" "$out/after.txt" || fail "the lesson is not back after the answer"
# Right: the playhead on tick 6, its acquisition selected, done.
run right --exercise 1 --exercise-answer node-b
expect right '^exercise: 1 of 3 \(predict\), playhead 6, selected event 4$'
expect right '^exercise: answered node-b: right \(the model: node-b\)$'
expect right '^exercise: hint not shown; done 1 of 3$'
# A choice by its number, as leasescope-cli exercise answer takes it: 2 is node-b.
run by_number --exercise 1 --exercise-answer 2
expect by_number '^exercise: answered node-b: right'
# Wrong: the right answer told, the hint shown, not done.
run wrong --exercise 1 --exercise-answer node-a
expect wrong '^exercise: answered node-a: wrong \(the model: node-b\)$'
expect wrong '^exercise: hint shown; done 0 of 3$'
# A choice that is not one: refused, exit 2, the choices listed.
rc=0
gui_app "$app" "$scenario" --screenshot "$out/bad.png" --exercise 1 --exercise-answer node-z >/dev/null || rc=$?
[ "$rc" -eq 2 ] || fail "an unknown choice exited $rc, not 2"
grep -q 'not one of the choices: node-a node-b node-c nobody' "$out/stderr" || fail "the refusal does not list the choices"
rc=0
gui_app "$app" "$scenario" --screenshot "$out/bad.png" --exercise 4 >/dev/null || rc=$?
[ "$rc" -eq 2 ] || fail "--exercise 4 of 3 exited $rc, not 2"

# Goal: lease 8 is too short (the try's run on the timeline, the hint), 14 meets it.
run short --exercise 2 --exercise-answer 8
expect short '^exercise: tried 8: not met; .*on the timeline: the try.s run$'
expect short '^exercise: hint shown; done 0 of 3$'
run met --exercise 2 --exercise-answer 8 --exercise-answer 14
expect met '^exercise: tried 14: met; '
expect met '^exercise: hint not shown; done 1 of 3$'
run goal_shown --exercise 2 --exercise-answer show
expect goal_shown '^exercise: shown 14: met; '

# find_fault: a 1-tick pause does nothing; an 8-tick pause of node-a breaks it; Show me finds one.
run nofault --exercise 3 --exercise-answer pause:node-a:3:1
expect nofault '^exercise: tried pause:node-a:3: not met; .*violations 1 -> 1;'
run fault --exercise 3 --exercise-answer pause:node-a:3:8
expect fault '^exercise: tried pause:node-a:3: met; '
expect fault '^exercise: smallest fault pause at [0-9]+$'
expect fault '^exercise: hint not shown; done 1 of 3$'
run fault_json --exercise 3 --exercise-answer '{"kind":"pause","node":"node-a","at":3,"ticks":8}'
expect fault_json '^exercise: tried pause:node-a:3: met; '
rc=0
gui_app "$app" "$scenario" --screenshot "$out/bad.png" --exercise 3 \
  --exercise-answer '{"kind":"pause","node":"node-z","at":3,"ticks":8}' >/dev/null || rc=$?
[ "$rc" -eq 2 ] || fail "a fault on an unknown node exited $rc, not 2"
grep -q 'node-z' "$out/stderr" || fail "the refusal does not name the unknown node"
run fault_shown --exercise 3 --exercise-answer show
expect fault_shown '^exercise: shown pause:node-a:[0-9]+: met; '

# The panel fits: no layout problem at two sizes, and at 250 % (the compact
# layout, where its rows wrap), in both languages, answered and not.
for lang in en ko; do
  for case in 1024x768:100 1600x900:100 1024x768:250 1280x720:250; do
    size=${case%:*} scale=${case#*:}
    for args in "--exercise 1" "--exercise 1 --exercise-answer node-a" "--exercise 2 --exercise-answer 8" \
                "--exercise 3 --exercise-answer pause:node-a:3:8"; do
      report="$out/layout.txt"
      # shellcheck disable=SC2086
      gui_app_ok "layout $lang $size $scale % $args" "$app" "$scenario" --lang "$lang" --size "$size" \
        --scale "$scale" $args --layout-report "$report" >/dev/null
      if grep -q '^problem:' "$report"; then
        grep '^problem:' "$report" >&2
        fail "layout problems at $size, $scale %, in $lang with $args"
      fi
    done
  done
done
echo ok

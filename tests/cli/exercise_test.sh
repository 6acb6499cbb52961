#!/usr/bin/env bash
# `leasescope-cli exercise check|list|show|answer` and validate's check of
# exercises (docs/exercises.md, model.md §18.6), on the example files of
# tests/data/exercises/: a sound file passes with exit 0 and one line per
# exercise; each broken file (a goal unreachable in its ranges, a knob path
# that does not exist, repeated choices, two right choices, a prompt without
# Korean) fails both commands with exit 2 and names its JSON path; answers
# exit 0 right or met, 1 wrong or not met, 2 bad input.
#
#   exercise_test.sh <path-to-leasescope-cli> <source-dir>
set -u

if [ $# -ne 2 ]; then
  echo "usage: $0 <path-to-leasescope-cli> <source-dir>" >&2
  exit 2
fi
CLI=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
SRC=$(cd "$2" && pwd)
DATA=$SRC/tests/data/exercises
GOOD=$DATA/good.json

WORK=$(mktemp -d "${TMPDIR:-/tmp}/leasescope-exercise-test.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

passed=0
failed=0
current=""

cli() {
  current="leasescope-cli $*"
  "$CLI" "$@" >"$WORK/out" 2>"$WORK/err"
  rc=$?
}
pass() { passed=$((passed + 1)); }
fail() {
  failed=$((failed + 1))
  {
    echo "FAIL: $1"
    echo "  command: $current (exit $rc)"
    echo "  stdout:"; head -n 12 "$WORK/out" | sed 's/^/    /'
    echo "  stderr:"; head -n 8 "$WORK/err" | sed 's/^/    /'
  } >&2
}
expect_rc() { if [ "$rc" -eq "$1" ]; then pass; else fail "$2: expected exit $1"; fi; }
expect_out() { if grep -qF -- "$1" "$WORK/out"; then pass; else fail "$2: stdout lacks \"$1\""; fi; }
expect_err() { if grep -qF -- "$1" "$WORK/err"; then pass; else fail "$2: stderr lacks \"$1\""; fi; }
expect_lines() {  # count what
  local n; n=$(wc -l <"$WORK/out")
  if [ "$n" -eq "$1" ]; then pass; else fail "$2: expected $1 stdout lines, got $n"; fi
}

# ---- help -------------------------------------------------------------------
cli --help
expect_out "exercise" "--help lists the exercise command"
cli exercise --help
for word in check list show answer; do expect_out "$word" "exercise --help lists $word"; done

# ---- check: a sound file ------------------------------------------------------
cli exercise check "$GOOD"
expect_rc 0 "a sound file"
expect_lines 6 "one line per exercise"
expect_out "ok   $GOOD #1 predict: Who acquires in tick 4?" "the first exercise's line"
expect_out "ok   $GOOD #6 find_fault:" "the last exercise's line"
cli exercise check "$GOOD" --answers
expect_rc 0 "--answers"
expect_out "=> node-b — at tick 4 node-b acquires with fencing 34." "the right choice of #1"
expect_out "=> 34 — at tick 4 node-b acquires with fencing 34." "the right fencing number of #2"
expect_out "=> accepted — at tick 2 the resource accepts node-a's write with fencing 33." "#3"
expect_out "=> released — at tick 3 node-a's release deletes its record." "#4"
expect_out "The nearest values that meet the goal: candidates/0/action = 6." "#5: the nearest combination"
expect_out "The smallest fault that meets the goal: pause node-a for" "#6: the smallest fault"
cli exercise check "$GOOD" --answers --lang ko
expect_rc 0 "--answers --lang ko"
expect_out "ok   $GOOD #1 predict: 4틱에 누가 획득할까요?" "the Korean prompt"
expect_out "4틱에 node-b가 펜싱 34로 획득합니다." "the Korean fact, particles resolved"
cli validate "$GOOD"
expect_rc 0 "validate: a sound file"

# ---- check and validate: broken files -----------------------------------------
check_broken() {  # file json-path message what
  cli exercise check "$DATA/$1"
  expect_rc 2 "exercise check: $4"
  expect_err "$DATA/$1: $2" "exercise check names the file and $2 ($4)"
  expect_err "$3" "exercise check says what is wrong ($4)"
  cli validate "$DATA/$1"
  expect_rc 2 "validate: $4"
  expect_err "$DATA/$1: $2" "validate names the file and $2 ($4)"
  expect_err "$3" "validate says what is wrong ($4)"
}
check_broken unreachable.json "/exercises/0/goal" "cannot be reached" "a goal unreachable within its ranges"
check_broken knob-path.json "/exercises/0/knobs/0/set" "cannot apply this path" "a knob path that does not exist"
check_broken choices-repeated.json "/exercises/0/choices/2" "repeats" "repeated choices"
check_broken choices-two-right.json "/exercises/0/choices/2" "repeats" "two right choices"
check_broken prompt-no-ko.json "/exercises/0/prompt/ko" "Korean" "a prompt missing ko"
cli validate --format json "$DATA/unreachable.json"
expect_rc 2 "validate --format json: an exercise's problem"
expect_out '"ok": false' "validate --format json: not ok"
expect_out '/exercises/0/goal' "validate --format json lists the exercise's problem"
# Several files: every one is checked, any problem is exit 2.
cli exercise check "$GOOD" "$DATA/unreachable.json"
expect_rc 2 "a good file and a broken one"
expect_out "ok   $GOOD #1" "the good file is still checked"
cli exercise check "$WORK/missing.json"
expect_rc 2 "a missing file"

# ---- list and show ------------------------------------------------------------
cli exercise list "$GOOD"
expect_rc 0 "list"
expect_lines 6 "list: one line per exercise"
expect_out " 5. Reach a goal" "list names the kind"
cli exercise list "$GOOD" --lang ko
expect_out " 6. 장애 찾기" "list in Korean"
cli exercise show "$GOOD" 1
expect_rc 0 "show a predict exercise"
expect_out "Exercise 1 of 6 — Predict" "show's heading"
expect_out "The playhead stops before tick 4." "show: where the playhead stops"
for c in "1. node-a" "2. node-b" "3. nobody"; do expect_out "$c" "show lists the choice $c"; done
cli exercise show "$GOOD" 5
expect_out "Goal: more nodes act at once than the lock allows (an overlap)." "show: the goal as a sentence"
expect_out "candidates/0/action: *2, 4, 6, 8" "show: the knob, its values, the nearest to the file's own 3 marked"
cli exercise show "$GOOD" 6 --lang ko
expect_out "장애 하나를 더합니다: 일시 정지." "show: the fault budget in Korean"
expect_out "최대 6틱" "show: the longest fault"
cli exercise show "$GOOD" 7
expect_rc 2 "show: no exercise 7"
expect_err "the file has exercises 1 to 6" "show: which numbers exist"

# ---- answer -------------------------------------------------------------------
cli exercise answer "$GOOD" 1 node-b
expect_rc 0 "a right prediction"
expect_out "Right: at tick 4 node-b acquires with fencing 34." "the right feedback"
cli exercise answer "$GOOD" 1 3
expect_rc 1 "a wrong prediction, by its number"
expect_out "Not this one: you chose nobody; at tick 4 node-b acquires with fencing 34." "the wrong feedback"
expect_out "Hint: node-a released at tick 3." "the hint after a wrong try"
cli exercise answer "$GOOD" 1 node-c
expect_rc 2 "a choice that is not offered"
expect_err "expected one of the choices" "says what was expected"
cli exercise answer "$GOOD" 2 34 --lang ko
expect_rc 0 "a fencing number is a value, not a choice number"
expect_out "맞습니다: 4틱에 node-b가 펜싱 34로 획득합니다." "Korean feedback"
cli exercise answer "$GOOD" 4 "not released"
expect_rc 1 "not released"
cli exercise answer "$GOOD" 5 6
expect_rc 0 "a goal met"
expect_out "Goal met: more nodes act at once than the lock allows (an overlap)." "met"
expect_out "Shown at tick 5:" "the evidence event and its tick"
expect_out "overlap 0 → 1" "the violation counts before and after"
cli exercise answer "$GOOD" 5 4
expect_rc 1 "a goal not met"
expect_out "Not yet." "not met"
cli exercise answer "$GOOD" 5 5
expect_rc 2 "a value not among the knob's"
expect_err "not among the values of candidates/0/action" "names the knob"
cli exercise answer "$GOOD" 5 4 6
expect_rc 2 "two values for one knob"
cli exercise answer "$GOOD" 6 '{"kind":"pause","node":"node-a","at":1,"ticks":4}'
expect_rc 0 "a fault that breaks it"
expect_out "The fault you added: pause node-a for 4 ticks at tick 1." "the fault in the explorer's words"
expect_out "The run first changes at tick 1:" "the first tick the run changed"
expect_out "The smallest fault that meets the goal:" "the smallest fault after a met try"
cli exercise answer "$GOOD" 6 '{"kind":"pause","node":"node-b","at":20,"ticks":1}'
expect_rc 1 "a fault that does not"
cli exercise answer "$GOOD" 6 '{"kind":"pause","node":"node-a","at":1,"ticks":60}'
expect_rc 2 "a fault outside the budget"
cli exercise answer "$GOOD" 6 '{"kind":"pause","node":"node-z","at":1,"ticks":2}'
expect_rc 2 "a fault on no candidate"
expect_err "ANSWER/node" "names the answer's key"
cli exercise answer "$GOOD" 6 'pause'
expect_rc 2 "not a fault object"

# ---- hostile inputs ---------------------------------------------------------------
cli exercise answer "$GOOD" 5 "$(head -c 20000 /dev/zero | tr '\0' '7')"
expect_rc 2 "a 20 kB answer"
expect_err "json_string_bytes_max" "a long answer names the limit"
cli exercise answer "$GOOD" 6 "{\"a\":$(printf '[%.0s' $(seq 3000))$(printf ']%.0s' $(seq 3000))}"
expect_rc 2 "a fault nested 3,000 deep"
expect_err "json_depth_max" "deep nesting names the limit"
cli exercise check /dev/zero
expect_rc 2 "exercise check /dev/zero"
expect_err "scenario_bytes_max" "/dev/zero: the size limit"
current="leasescope-cli exercise check $GOOD > /dev/full"
"$CLI" exercise check "$GOOD" >/dev/full 2>"$WORK/err"
rc=$?
expect_rc 4 "exercise check into /dev/full"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

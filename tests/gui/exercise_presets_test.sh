#!/usr/bin/env bash
# Every exercise of every preset in the Exercise panel (model.md §18): opened,
# then answered as its buttons would (a prediction with its first choice, a
# goal or find_fault with Show me), at 1024x768 in English and Korean (one
# launch for both, --layout-sweep), with the layout check's report (app/gui/core/layout_check.hpp): no problem in
# any of them, and Show me always meets the goal.
# Usage: exercise_presets_test.sh APP SCENARIO_FILE_OR_DIR (CTest gives one
# preset per test, so the presets' exercises run side by side)
set -uo pipefail
app=$1 where=$2
if [ -d "$where" ]; then files=("$where"/*.json); else files=("$where"); fi
source "$(dirname "$0")/gui_lib.sh"
gui_setup
failed=0 runs=0
for file in "${files[@]}"; do
  name=$(basename "$file" .json)
  for n in $(seq 1 32); do
    rc=0
    gui_app "$app" "$file" --exercise "$n" --layout-report "$out/open.txt" >"$out/open.out" || rc=$?
    [ "$rc" -eq 2 ] && break  # no exercise n: the file has n-1
    [ "$rc" -eq 0 ] || { cat "$out/stderr" >&2; echo "FAIL: $name exercise $n: exit $rc" >&2; failed=$((failed + 1)); continue; }
    choice=$(sed -n 's/^exercise: not answered; choices: \([^ ]*\).*/\1/p' "$out/open.out")
    answer=${choice:-show}
    # Both languages in one launch (--layout-sweep: each frame as a launch of its own draws it).
    rm -rf "$out/answered"
    mkdir -p "$out/answered"
    gui_app_ok "$name $n" "$app" "$file" --exercise "$n" --exercise-answer "$answer" --layout-report "$out/answered" \
      --layout-sweep en:1024x768:100 --layout-sweep ko:1024x768:100 >"$out/answer.out"
    for lang in en ko; do
      runs=$((runs + 1))
      report="$out/answered/$lang-1024x768-100.txt"
      if [ ! -s "$report" ] || grep -q '^problem:' "$report"; then
        echo "FAIL: $name exercise $n ($answer) in $lang at 1024x768:" >&2
        grep '^problem:' "$report" >&2 || echo "no report" >&2
        failed=$((failed + 1))
      fi
    done
    if [ "$answer" = show ] && ! grep -q '^exercise: shown .*: met;' "$out/answer.out"; then
      echo "FAIL: $name exercise $n: Show me does not meet the goal" >&2
      cat "$out/answer.out" >&2
      failed=$((failed + 1))
    fi
  done
done
[ "$runs" -gt 0 ] || gui_fail "no exercise in $where"
[ "$failed" -eq 0 ] || gui_fail "$failed of $runs answered exercises have problems"
echo "ok: $runs answered exercises"

#!/usr/bin/env bash
# Side by side, headless: each ready-made pair opens from the command line
# (--pair), its first divergence is the tick `leasescope-cli diff --ignore-tokens` reports for
# the two runs' traces, its PNG (en and ko, 1600x900 and 1280x720) is a real
# picture and its SVG holds both timelines and the divergence mark. Narrated
# play (--narrate) opens too. Needs a display (test.sh starts Xvfb); without
# DISPLAY it fails on purpose.
# Usage: compare_test.sh APP CLI PNG_CHECK SCENARIOS_DIR
set -euo pipefail
app=$1 cli=$2 check=$3 dir=$4
source "$(dirname "$0")/gui_lib.sh"
gui_setup
fail() { gui_fail "$@"; }

# pair name, A preset, B preset, B's --set (may be empty)
pairs=(
  "gc-pause gc-pause-fencing gc-pause-no-fencing -"
  "failover failover-lost-lock failover-fencing-regressed -"
  "expiry-autoextend expiry-takeover expiry-takeover defaults.auto_extend=true"
  "replica-wait failover-fencing-tie failover-wait -"
  "split-brain split-brain-old-primary split-brain-min-replicas -"
)
for row in "${pairs[@]}"; do
  read -r name a b set <<<"$row"
  "$cli" run "$dir/$a.json" >"$out/a.jsonl"
  if [ "$set" = "-" ]; then
    "$cli" run "$dir/$b.json" >"$out/b.jsonl"
  else
    "$cli" run "$dir/$b.json" --set "$set" >"$out/b.jsonl"
  fi
  # diff exits 1 when the traces differ; its text names "(tick N, phase P)".
  "$cli" diff --ignore-tokens "$out/a.jsonl" "$out/b.jsonl" >"$out/diff.txt" 2>&1 && fail "$name: diff finds no difference"
  want=$(sed -n 's/.*first divergence at event \([0-9]*\) (tick \([0-9]*\),.*/\1 \2/p' "$out/diff.txt" | head -1)
  [ -n "$want" ] || { cat "$out/diff.txt" >&2; fail "$name: no divergence in diff's output"; }
  for size in 1600x900 1280x720; do
    for lang in en ko; do
      gui_app_ok "$name, $lang, $size" "$app" --pair "$name" --tick 30 --lang "$lang" --size "$size" \
        --screenshot "$out/$name.png" --svg "$out/$name.svg" >"$out/report.txt"
      got=$(sed -n 's/^first divergence: event \([0-9]*\) tick \([0-9]*\)$/\1 \2/p' "$out/report.txt")
      [ "$got" = "$want" ] || fail "$name: the app says '$got', leasescope-cli diff --ignore-tokens says '$want'"
      # The words in the chosen language, never a table key ("compare.parted: …").
      if [ "$lang" = en ]; then part="The runs part at tick"; else part="두 실행은 .*틱에서 갈라집니다"; fi
      grep -q "^$part" "$out/report.txt" || fail "$name: no divergence sentence at tick 30"
      ! grep -q "^compare\." "$out/report.txt" || fail "$name: a raw string key in the report"
      "$check" "$out/$name.png" --size "$size" --min-colors 60
      # One SVG with two nested timelines, the divergence's dashed line and the words.
      [ "$(stat -c %s "$out/$name.svg")" -gt 20000 ] || fail "$name: the SVG is too small"
      [ "$(grep -c '<svg ' "$out/$name.svg")" -eq 3 ] || fail "$name: the SVG does not hold two timelines"
      grep -q 'stroke-dasharray' "$out/$name.svg" || fail "$name: the SVG does not mark the divergence"
    done
  done
done

# Both runs on screen are drawn from the timeline's frame, in the chosen
# language: the Korean pair titles the store's lanes 슬롯 0 and 자원 as the
# SVG does (never "slot 0" and "resource"), and no mark covers a word or
# leaves its lane.
gui_app_ok "gc-pause, ko, layout" "$app" --pair gc-pause --tick 15 --lang ko --size 1600x900 \
  --layout-report "$out/pair-ko.txt" >/dev/null
for want in '슬롯 0' '자원'; do
  [ "$(grep -c "^lane: ##run[AB] .*\"$want\"" "$out/pair-ko.txt")" -eq 2 ] || fail "the Korean pair has no lane $want in both runs"
done
! grep -q '^lane: .*"\(slot 0\|resource\)"' "$out/pair-ko.txt" || fail "the Korean pair shows English lane titles"
! grep '^problem: in ##run' "$out/pair-ko.txt" >&2 || fail "the pair's timelines have layout problems"

# A run with time on the wire shows its message view side by side too (a
# row per node, Redis's and the resource's under each run's lanes) where
# there is room for it (1600x900; at 1024x768 the lanes keep it), in both
# languages, without layout problems in the runs.
for size in 1600x900 1024x768; do
  for lang in en ko; do
    gui_app_ok "delayed-write variant, $lang, $size, layout" "$app" "$dir/delayed-write.json" \
      --compare-set 'resource.mode="check"' --tick 12 --lang "$lang" --size "$size" \
      --layout-report "$out/wire.txt" >/dev/null
    if [ "$size" = 1600x900 ]; then
      [ "$(grep -c '^lane: ##run[AB] .*"Redis"' "$out/wire.txt")" -eq 2 ] || fail "delayed-write, $lang, $size: no message view in both runs"
    fi
    ! grep '^problem: in ##run' "$out/wire.txt" >&2 || fail "delayed-write, $lang, $size: the runs have layout problems"
  done
done

# --compare FILE and a variant by --compare-set open too.
gui_app_ok "--compare FILE" "$app" "$dir/gc-pause-fencing.json" --compare "$dir/gc-pause-no-fencing.json" \
  --tick 15 --size 1280x720 --screenshot "$out/file.png" >"$out/report.txt"
grep -q "^first divergence: event" "$out/report.txt" || fail "--compare FILE reports no divergence"
gui_app_ok "--compare-set" "$app" "$dir/expiry-takeover.json" --compare-set defaults.lease=14 --tick 8 \
  --size 1280x720 --screenshot "$out/variant.png" >"$out/report.txt"
grep -q " is 6 in A and 14 in B\.$" "$out/report.txt" || fail "the variant names no changed setting"
# The resource's data side by side (app/gui/core/resource_data.hpp): delayed-write
# without a fence ends with node-a's late value over node-b's (the lost update),
# with check fencing node-b's value stays.
gui_app_ok "data side by side" "$app" "$dir/delayed-write.json" --compare-set resource.mode=check --tick 12 --lang en \
  --size 1600x900 --layout-report "$out/data.txt" >/dev/null
grep -q "^text: ##runA .*\"The data now: node-a's value (run 0, fencing 1)\"" "$out/data.txt" ||
  fail "run A does not show node-a's value as the data at tick 12"
grep -q "^text: ##runB .*\"The data now: node-b's value (run 0, fencing 2)\"" "$out/data.txt" ||
  fail "run B does not show node-b's value as the data at tick 12"
# Without --tick a pair opens where its runs part: the words speak of that tick, not of tick 0.
gui_app_ok "--pair without --tick" "$app" --pair gc-pause --size 1280x720 --screenshot "$out/at.png" >"$out/report.txt"
at=$(sed -n 's/^parts at tick \([0-9]*\) .*/\1/p' "$out/report.txt")
grep -q "^The runs part at tick $at:" "$out/report.txt" || fail "--pair does not open where the runs part (tick $at)"
rc=0
gui_app "$app" "$dir/expiry-takeover.json" --compare-set nope=1 --size 1280x720 --screenshot "$out/bad.png" || rc=$?
[ "$rc" -eq 2 ] || fail "a bad --compare-set gives exit $rc, not 2 (bad input)"
# Narrated play renders its panel.
gui_app_ok "--narrate" "$app" "$dir/gc-pause-no-fencing.json" --narrate --pace 2 --tick 15 --lang ko \
  --size 1280x720 --screenshot "$out/narrate.png"
"$check" "$out/narrate.png" --size 1280x720 --min-colors 60
echo "ok"

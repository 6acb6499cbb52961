#!/usr/bin/env bash
# The layout check on one scenario: at 1024x768, 1280x720, 1600x900 and
# 2560x1440, and at 200 % UI scale at 1600x900 and 2560x1440, in English and
# Korean, the app draws one frame headless with --layout-report (no PNG); every report must
# list no problem (no text or control cut by its panel, no text over text, no
# timeline mark over a word, every timeline's lanes in view or hinted; the
# rules are in app/gui/core/layout_check.hpp). At 1024x768 to 1920x1080 and
# 150 to 250 %, the timeline's own problems must be none. Needs a display (test.sh
# provides Xvfb). With pair:NAME for SCENARIO, the same for the compare view
# of a ready-made pair (leasescope --pair NAME, at the tick where the runs
# part): both runs' lanes in view or hinted and the top bar not cut, every
# problem counting at every size.
# Usage: layout_test.sh APP SCENARIO|pair:NAME [TICK]
set -euo pipefail
app=$1 scenario=$2 tick=${3:-8}
source "$(dirname "$0")/gui_lib.sh"
gui_setup
name=$(basename "$scenario" .json)
open=(--tick "$tick" "$scenario")
timeline='###timeline '
cramped='^problem: \(in [^:]*###timeline\|window \)'
if [[ $scenario == pair:* ]]; then
  open=(--pair "${scenario#pair:}")
  timeline='##run[AB] '
  cramped='^problem:'
fi
failed=0
runs=0
# The cases, LANG:WxH:SCALE, each with the pattern of the problems that fail it.
declare -A pattern_of
for lang in en ko; do
  for case in 1024x768:100 1280x720:100 1600x900:100 2560x1440:100 1600x900:200 2560x1440:200; do
    pattern_of["$lang:$case"]='^problem:'
  done
  # The timeline keeps priority at every supported size and scale (1024x768
  # up, 100 to 250 %): it shows lanes, and every lane or a hint and a
  # scrollbar for the others; no lane title is cut, no mark covers a word.
  # Besides the timeline's problems, no panel may leave the window or lie
  # over another (the compact layout: the other panels share one place
  # under the timeline, chosen on a row of tabs); inside them, text scrolls.
  for case in 1024x768:150 1024x768:200 1024x768:250 1280x720:200 1280x720:250 1920x1080:250; do
    pattern_of["$lang:$case"]=$cramped
  done
done
# One launch draws every case, each on a window and an ImGui started afresh
# (--layout-sweep; tests/gui/layout_sweep_test.sh checks that its reports are
# those of a launch per case).
sweep=()
for c in "${!pattern_of[@]}"; do sweep+=(--layout-sweep "$c"); done
gui_app_ok "the layout sweep" "$app" "${open[@]}" --layout-report "$out" "${sweep[@]}"
for c in "${!pattern_of[@]}"; do
  IFS=: read -r lang size scale <<<"$c"
  report="$out/$lang-$size-$scale.txt"
  runs=$((runs + 1))
  [ -s "$report" ] || { echo "FAIL: $name, $lang, $size at $scale %: no report" >&2; failed=$((failed + 1)); continue; }
  grep -q "^timeline: .*$timeline" "$report" || { echo "FAIL: $name, $lang, $size at $scale %: no timeline" >&2; failed=$((failed + 1)); continue; }
  if grep -q "${pattern_of[$c]}" "$report"; then
    echo "FAIL: $name, $lang, $size at $scale %:" >&2
    grep "${pattern_of[$c]}" "$report" >&2
    failed=$((failed + 1))
  fi
done
if [ "$failed" -gt 0 ]; then
  echo "FAIL: $failed of $runs layouts of $name have problems" >&2
  exit 1
fi
echo "ok: $runs layouts of $name, no text or control cut, no text over text, every timeline lane shown or hinted"

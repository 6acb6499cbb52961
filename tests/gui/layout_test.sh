#!/usr/bin/env bash
# The layout check on one scenario: at 1024x768, 1280x720, 1600x900 and
# 2560x1440, and at 200 % UI scale at 1600x900 and 2560x1440, in English and
# Korean, the app draws one frame headless with --layout-report (no PNG); every report must
# list no problem (no text or control cut by its panel, no text over text;
# the rules are in app/gui/core/layout_check.hpp). Needs a display (test.sh
# provides Xvfb). Usage: layout_test.sh APP SCENARIO [TICK]
set -euo pipefail
app=$1 scenario=$2 tick=${3:-8}
source "$(dirname "$0")/gui_lib.sh"
gui_setup
name=$(basename "$scenario" .json)
failed=0
runs=0
for lang in en ko; do
  for case in 1024x768:100 1280x720:100 1600x900:100 2560x1440:100 1600x900:200 2560x1440:200; do
    size=${case%:*} scale=${case#*:}
    report="$out/$name-$lang-$size-$scale.txt"
    gui_app_ok "$lang $size $scale %" "$app" "$scenario" --tick "$tick" --lang "$lang" --size "$size" \
      --scale "$scale" --layout-report "$report"
    runs=$((runs + 1))
    if grep -q '^problem:' "$report"; then
      echo "FAIL: $name, $lang, $size at $scale %:" >&2
      grep '^problem:' "$report" >&2
      failed=$((failed + 1))
    fi
  done
done
if [ "$failed" -gt 0 ]; then
  echo "FAIL: $failed of $runs layouts of $name have problems" >&2
  exit 1
fi
echo "ok: $runs layouts of $name, no text or control cut, no text over text"

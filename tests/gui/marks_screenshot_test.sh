#!/usr/bin/env bash
# The lesson of the gc-pause pair, checked on the rendered picture: at tick 15
# the fenced preset shows the fence's rejection mark and no unsafe-write mark,
# the unfenced one the reverse (the marks' fill colours, core/palette.cpp).
# Needs a display (test.sh starts Xvfb); without DISPLAY it fails on purpose.
# Usage: marks_screenshot_test.sh APP PNG_CHECK SCENARIO TICK EXPECT_RRGGBB ABSENT_RRGGBB
set -euo pipefail
app=$1 check=$2 scenario=$3 tick=$4 expect=$5 absent=$6
source "$(dirname "$0")/gui_lib.sh"
gui_setup
for size in 1600x900 1280x720; do
  for lang in en ko; do
    gui_app_ok "$lang $size" "$app" "$scenario" --tick "$tick" --lang "$lang" --size "$size" --screenshot "$out/shot.png"
    "$check" "$out/shot.png" --size "$size" --expect-color "$expect" --absent-color "$absent"
  done
done

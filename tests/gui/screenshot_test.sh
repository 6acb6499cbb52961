#!/usr/bin/env bash
# Starts the app on one scenario, renders a screenshot and checks it is a real
# picture. Needs a display: CI and test.sh provide Xvfb. Without DISPLAY the
# test fails on purpose, so a missing display never passes silently.
# Usage: screenshot_test.sh APP PNG_CHECK SCENARIO LANG [png_check options]
set -euo pipefail
app=$1 check=$2 scenario=$3 lang=$4
shift 4
source "$(dirname "$0")/gui_lib.sh"
gui_setup
name=$(basename "$scenario" .json)
# The tick where most presets have something to show: the middle of the run.
# LEASESCOPE_TEST_APP_ARGS adds flags (the tour tests pass --tour K, which picks its own tick).
extra=(${LEASESCOPE_TEST_APP_ARGS:---tick 8})
gui_app_ok "$name, $lang" "$app" "$scenario" "${extra[@]}" --lang "$lang" --size 1280x720 --screenshot "$out/$name.png"
if grep -q "no font with Korean glyphs" "$out/stderr"; then
  cat "$out/stderr" >&2; echo "FAIL: no Korean font" >&2; exit 1
fi
if [ "$#" -gt 0 ] && [ "$1" = "--expect-color" ]; then
  # The stale colour shows at tick 12 of expiry-takeover; take a second picture there.
  gui_app_ok "$name, $lang, tick 12" "$app" "$scenario" --tick 12 --lang "$lang" --size 1280x720 \
    --screenshot "$out/$name-12.png"
  "$check" "$out/$name-12.png" --size 1280x720 "$@"
fi
"$check" "$out/$name.png" --size 1280x720 --min-colors 60

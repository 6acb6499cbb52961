#!/usr/bin/env bash
# --layout-sweep (the layout tests' one launch for many cases) writes, for
# each case, the very report a launch of its own writes: the window, ImGui,
# the views and the screen are started afresh between cases. Checked on a
# scenario and on a ready-made pair, at cases that change the language, the
# size and the scale in turn, in an order where a case follows a larger one
# (what a state kept from the case before would show: a scrollbar that stays,
# a table sized for a wider window). And the flag's bad uses are refused.
# Usage: layout_sweep_test.sh APP SCENARIO
set -euo pipefail
app=$1 scenario=$2
source "$(dirname "$0")/gui_lib.sh"
gui_setup
cases=(en:2560x1440:200 en:1024x768:100 ko:1600x900:100 ko:1280x720:250 en:1920x1080:150 ko:1024x768:200)
# same OPEN...: the sweep's reports equal one launch per case.
same() {
  rm -rf "$out/sweep" "$out/one"
  mkdir -p "$out/sweep" "$out/one"
  local sweep=() c lang size scale
  for c in "${cases[@]}"; do sweep+=(--layout-sweep "$c"); done
  gui_app_ok "the sweep of $*" "$app" "$@" --layout-report "$out/sweep" "${sweep[@]}" >/dev/null
  for c in "${cases[@]}"; do
    IFS=: read -r lang size scale <<<"$c"
    gui_app_ok "$* at $c" "$app" "$@" --lang "$lang" --size "$size" --scale "$scale" \
      --layout-report "$out/one/$lang-$size-$scale.txt" >/dev/null
  done
  [ "$(ls "$out/sweep" | wc -l)" -eq "${#cases[@]}" ] || gui_fail "the sweep of $* wrote $(ls "$out/sweep" | wc -l) reports, not ${#cases[@]}"
  diff -r "$out/one" "$out/sweep" >&2 || gui_fail "the sweep of $* differs from a launch per case (above: < one launch, > the sweep)"
}
same --tick 8 "$scenario"
same --pair failover
# Bad uses: no folder for the reports, a case that is not LANG:WxH:SCALE or out of bounds, with --screenshot.
refused() {
  local rc=0
  "$app" "$scenario" "$@" >/dev/null 2>"$out/err" || rc=$?
  [ "$rc" -eq 2 ] || gui_fail "$* exited $rc, not 2 (bad input)"
  grep -q -- "--layout-sweep" "$out/err" || gui_fail "$*: the message does not name --layout-sweep: $(cat "$out/err")"
}
refused --layout-sweep en:1024x768:100
refused --layout-report "$out" --layout-sweep fr:1024x768:100
refused --layout-report "$out" --layout-sweep en:1024x768
refused --layout-report "$out" --layout-sweep en:100x100:100
refused --layout-report "$out" --layout-sweep en:1024x768:300
refused --layout-report "$out" --layout-sweep en:1024x768:100x
refused --layout-report "$out" --screenshot "$out/x.png" --layout-sweep en:1024x768:100
echo "ok: --layout-sweep writes the reports of a launch per case (${#cases[@]} cases, a scenario and a pair); bad uses refused"

#!/usr/bin/env bash
# An edited copy of a preset (here expiry-takeover with lease 14, where nobody
# takes over, as an edit in the app, a saved file or a shared link gives it)
# is marked as edited: its title says so, the lesson strip says it was
# written for the preset as it was, and "Back to the preset" is offered; the
# preset itself shows none of these. In English and Korean, read from
# --layout-report's item list. Usage: edited_test.sh APP SCENARIOS_DIR
set -euo pipefail
app=$1 scenarios=$2
source "$(dirname "$0")/gui_lib.sh"
gui_setup
sed 's/"lease": 6,/"lease": 14,/' "$scenarios/expiry-takeover.json" >"$out/expiry-takeover.json"
grep -q '"lease": 14,' "$out/expiry-takeover.json" || gui_fail "the test could not edit the lease"
check() {  # check LANG FILE WANT(yes|no) TEXT...
  local lang=$1 file=$2 want=$3
  local report="$out/report-$lang.txt"
  shift 3
  gui_app_ok "$lang $file" "$app" "$file" --lang "$lang" --tick 8 --layout-report "$report"
  for text in "$@"; do
    if grep -qF "$text" "$report"; then
      [ "$want" = yes ] || gui_fail "$lang, $file: \"$text\" is shown"
    else
      [ "$want" = no ] || gui_fail "$lang, $file: \"$text\" is not shown: $(grep -c . "$report") items"
    fi
  done
  if grep -q '^problem:' "$report"; then grep '^problem:' "$report" >&2; gui_fail "$lang, $file: layout problems"; fi
}
check en "$out/expiry-takeover.json" yes "Expiry + takeover (edited)" "Back to the preset" "Written for the preset as it was"
check en "$scenarios/expiry-takeover.json" no "(edited)" "Back to the preset" "Written for the preset as it was"
check ko "$out/expiry-takeover.json" yes "만료와 인수 (편집됨)" "원래 프리셋 다시 열기" "편집하기 전의 프리셋에 맞춘"
check ko "$scenarios/expiry-takeover.json" no "원래 프리셋 다시 열기" "편집하기 전의 프리셋에 맞춘"
echo "ok: an edited preset is marked as edited, with its lesson qualified and the way back, in both languages"

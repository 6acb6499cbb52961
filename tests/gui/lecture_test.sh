#!/usr/bin/env bash
# A lecture prepared from a script: --event N selects and explains event N,
# --panels LIST opens exactly the panels named (the top bar and the transport
# stay), --projector is large and high-contrast, narrated play keeps the
# record and the resource in view; bad values are refused with exit 2 and a
# message. Checked on the layout report's windows and texts.
# Needs a display (test.sh starts Xvfb). Usage: lecture_test.sh APP SCENARIOS_DIR
set -euo pipefail
app=$1 dir=$2
source "$(dirname "$0")/gui_lib.sh"
gui_setup
fail() { gui_fail "$@"; }
scenario="$dir/expiry-takeover.json"

# Event 12 of expiry-takeover is node-a's rejected release at tick 12.
for lang in en ko; do
  gui_app_ok "--event, $lang" "$app" "$scenario" --event 12 --lang "$lang" --size 1600x900 \
    --layout-report "$out/event.txt"
  if [ "$lang" = en ]; then heading="Tick 12 · release · node-a"; else heading="12틱 · 해제 · node-a"; fi
  grep -q "###explain .* \"$heading\"" "$out/event.txt" || fail "--event 12 ($lang): Explain does not explain it"
done

# Exactly the panels named, and the columns and rows left empty give their room away.
gui_app_ok "--panels" "$app" "$scenario" --tick 12 --panels timeline,record,explain --size 1600x900 \
  --layout-report "$out/panels.txt"
got=$(sed -n 's/^window: .*###\([a-z]*\) .*/\1/p' "$out/panels.txt" | sort | tr '\n' ' ')
[ "$got" = "controls explain record timeline transport " ] || fail "--panels opened: $got"
# The left column is closed: the timeline starts at the left edge.
grep -q "^window: .*###timeline \[0," "$out/panels.txt" || fail "--panels: the timeline does not take the closed column"
gui_app_ok "--panels code" "$app" "$scenario" --tick 12 --panels timeline,code --size 1600x900 \
  --layout-report "$out/code.txt"
grep -q "^window: .*###code " "$out/code.txt" || fail "--panels code does not open the Code panel"

# The projector preset: 175 % (text taller than at 100 %).
gui_app_ok "100 %" "$app" "$scenario" --tick 12 --scale 100 --size 1920x1080 --layout-report "$out/plain.txt"
gui_app_ok "--projector" "$app" "$scenario" --tick 12 --projector --size 1920x1080 --layout-report "$out/proj.txt"
height() { sed -n 's/^text: .*###transport \[[0-9]*,\([0-9]*\) - [0-9]*,\([0-9]*\)\].*"tick 12 \/ 18".*/\1 \2/p' "$1" | awk '{print $2-$1; exit}'; }
h100=$(height "$out/plain.txt") h175=$(height "$out/proj.txt")
[ -n "$h100" ] && [ -n "$h175" ] || fail "the transport's tick text is not in the reports"
[ "$((h175 * 100))" -ge "$((h100 * 160))" ] || fail "--projector text is $h175 px high, at 100 % $h100 px"
grep -q "0 problems" "$out/proj.txt" || fail "--projector: the layout check has problems"

# Narrated play takes the Explain panel's place (it told the explanation twice) and leaves the
# record and the resource in view (it hid them).
gui_app_ok "--narrate" "$app" "$dir/gc-pause-no-fencing.json" --narrate --tick 15 --size 1280x720 \
  --layout-report "$out/narrate.txt"
got=$(sed -n 's/^window: .*###\([a-z]*\) .*/\1/p' "$out/narrate.txt" | sort | tr '\n' ' ')
[ "$got" = "action candidates controls events narrate record resource timeline transport " ] ||
  fail "--narrate shows: $got"

# Bad values: exit 2 with a message naming the flag.
rc=0; gui_app "$app" "$scenario" --event 99 --layout-report "$out/x.txt" || rc=$?
[ "$rc" -eq 2 ] || fail "--event 99: exit $rc, not 2"
grep -q -- "--event 99: the run has 17 events, numbered 0 to 16" "$out/stderr" || fail "--event 99: $(cat "$out/stderr")"
rc=0; gui_app "$app" "$scenario" --panels timeline,evnts --layout-report "$out/x.txt" || rc=$?
[ "$rc" -eq 2 ] || fail "--panels evnts: exit $rc, not 2"
grep -q 'unknown panel "evnts"' "$out/stderr" || fail "--panels evnts: $(cat "$out/stderr")"
rc=0; gui_app "$app" "$scenario" --event 3 --tick 4 --layout-report "$out/x.txt" || rc=$?
[ "$rc" -eq 2 ] || fail "--event with --tick: exit $rc, not 2"
help=$("$app" --help)  # whole first: grep -q stopping early would SIGPIPE the app under pipefail
for flag in --event --panels --projector; do grep -q -- "$flag" <<<"$help" || fail "--help does not list $flag"; done
echo "ok"

#!/usr/bin/env bash
# An imported history replayed read-only (docs/model.md §19.9), headless: the
# trace opens from the command line, renders in English and Korean at
# 1600x900 and 1024x768 with nothing cut and no text over text, its ruler,
# transport and event table give the wall clock beside ticks, the top bar
# says it is read-only instead of showing knobs, a simulated scenario's ruler,
# transport and event table give the time since tick 0 instead, --compare puts the draft's simulated run beside it (with
# no settings of the history listed: it has none), and a bad trace exits with
# the file and line. Needs a display (test.sh starts Xvfb).
# Usage: replay_test.sh APP PNG_CHECK TRACE DRAFT SCENARIO
set -euo pipefail
app=$1 check=$2 trace=$3 draft=$4 scenario=$5
source "$(dirname "$0")/gui_lib.sh"
gui_setup
fail() { gui_fail "$@"; }

for lang in en ko; do
  for size in 1600x900 1024x768; do
    report="$out/replay-$lang-$size.txt"
    gui_app_ok "replay, $lang, $size" "$app" "$trace" --tick 41 --lang "$lang" --size "$size" \
      --screenshot "$out/replay.png" --layout-report "$report"
    if grep -q '^problem:' "$report"; then grep '^problem:' "$report" >&2; fail "replay, $lang, $size: layout problems"; fi
    "$check" "$out/replay.png" --size "$size" --min-colors 60
    # The playhead's badge: its tick and the server's time of that tick (origin 09:30:00.000 UTC, 100 ms ticks).
    grep -q '^tick: .*"41 · 09:30:04.100"$' "$report" || fail "replay, $lang, $size: no wall clock on the playhead's badge"
    grep -q '^text: transport.*"09:30:04.100 ' "$report" || fail "replay, $lang, $size: no wall clock in the transport"
    grep -q '^text: [^#]*###events .*"09:30:04.106"$' "$report" || fail "replay, $lang, $size: no time column in the events"
    if [ "$lang" = en ]; then strip='"Replayed from incident-monitor.txt'; else strip='"incident-monitor.txt, app.jsonl에서'; fi
    grep -q "^text: [^#]*###controls .*$strip" "$report" || fail "replay, $lang, $size: no read-only strip"
  done
done

# A simulated run (expiry-takeover, 50 ms ticks) says the time since tick 0 there, and no wall clock.
gui_app_ok "simulated ruler" "$app" "$scenario" --tick 8 --size 1600x900 --layout-report "$out/sim.txt"
grep -q '^tick: .*"8 · 0:00.400"$' "$out/sim.txt" || fail "simulated: no time since tick 0 on the playhead's badge"
grep -q '^text: transport.*"0:00.400 elapsed"' "$out/sim.txt" || fail "simulated: no time in the transport"
grep -q '^text: [^#]*###events .*"0:00.300"$' "$out/sim.txt" || fail "simulated: no time column in the events"
! grep -q 'UTC' "$out/sim.txt" || fail "simulated: a wall clock in a simulated run"

# The draft beside the history: two timelines, the divergence found, no settings of A (a history has none).
gui_app_ok "compare" "$app" "$trace" --compare "$draft" --tick 41 --size 1600x900 \
  --screenshot "$out/compare.png" --layout-report "$out/compare.txt" >"$out/compare-report.txt"
grep -q '^first divergence: ' "$out/compare-report.txt" || fail "compare: no divergence line"
! grep -q ' in A and ' "$out/compare-report.txt" || fail "compare: settings of the history listed"
grep -q '##runA' "$out/compare.txt" && grep -q '##runB' "$out/compare.txt" || fail "compare: not two timelines"
"$check" "$out/compare.png" --size 1600x900 --min-colors 60

# A trace with a line that goes back in time: the file and line, exit 2 (bad input).
sed '6s/"tick":10,/"tick":1,/' "$trace" >"$out/bad.trace.jsonl"
rc=0
"$app" "$out/bad.trace.jsonl" --size 1024x768 --layout-report "$out/bad.txt" 2>"$out/bad-stderr.txt" || rc=$?
[ "$rc" -eq 2 ] || fail "bad trace: exit $rc, not 2"
grep -q "bad.trace.jsonl:6: " "$out/bad-stderr.txt" || { cat "$out/bad-stderr.txt" >&2; fail "bad trace: the line is not named"; }
echo "ok: the imported history replays read-only with its wall clock, beside its draft, and a bad trace is named"

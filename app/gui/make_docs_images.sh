#!/usr/bin/env bash
# Regenerates the pictures in docs/images/ with the app itself (headless, under
# Xvfb), then shrinks them with pngquant (256-colour palette) so each stays
# well under 200 KB. Also every preset at its lesson tick (the tick that shows
# its point, listed below) in English and Korean at 1600x900, and a few at
# 1280x720, into docs/images/lessons/ (docs/lessons.md shows them).
# Usage: app/gui/make_docs_images.sh [path/to/leasescope] [--lessons-only]
set -euo pipefail
cd "$(dirname "$0")/../.."
app=${1:-build/gui/app/gui/leasescope}
lessons_only=${2:-}
out=docs/images
mkdir -p "$out" "$out/lessons"
# With DISPLAY set (an Xvfb of your own), the app runs on it; else each shot starts one.
run_app() {
  if [ -n "${DISPLAY:-}" ]; then "$app" "$@"; else xvfb-run -a -s "-screen 0 1600x900x24" "$app" "$@"; fi
}
shrink() {
  if command -v pngquant >/dev/null; then
    pngquant --quality 70-95 --speed 1 --force --output "$1" "$1"
  fi
}
shot() {  # name scenario tick lang [extra app flags...]
  local name=$1 scenario=$2 tick=$3 lang=$4
  shift 4
  run_app "scenarios/$scenario.json" --tick "$tick" --lang "$lang" --size 1600x900 --screenshot "$out/$name.png" "$@"
  shrink "$out/$name.png"
}
# Each preset at the tick that shows its point (its summary's key moment).
lesson_ticks=(
  auto-extension:12 check-then-act:17 contention:3 crash-no-release:8 deadline-lock-vs-group:3 expiry-takeover:12
  failover-fencing-regressed:8 failover-fencing-tie:11 failover-lost-lock:8 failover-wait:7
  failover-wait-not-enough:11 gc-pause-fencing:15 gc-pause-no-fencing:15
  group-capacity:9 group-expiry:12 group-saturation:9 hold-off-handover:6
  lost-reply-orphan:8 min-lease:5 partition-extend:14 racing-acquire:3
  scheduled-job:13 split-brain-min-replicas:15 split-brain-old-primary:21 watchdog-pause:12
)
# The same at the smallest supported window.
small_lessons=(expiry-takeover gc-pause-fencing gc-pause-no-fencing failover-fencing-regressed watchdog-pause)
for entry in "${lesson_ticks[@]}"; do
  preset=${entry%%:*} tick=${entry##*:}
  for lang in en ko; do
    file="$out/lessons/$preset-t$tick-$lang.png"
    run_app "scenarios/$preset.json" --tick "$tick" --lang "$lang" --size 1600x900 --screenshot "$file"
    shrink "$file"
    for small in "${small_lessons[@]}"; do
      if [ "$small" = "$preset" ]; then
        file="$out/lessons/$preset-t$tick-$lang-1280x720.png"
        run_app "scenarios/$preset.json" --tick "$tick" --lang "$lang" --size 1280x720 --screenshot "$file"
        shrink "$file"
      fi
    done
  done
done
if [ "$lessons_only" = "--lessons-only" ]; then exit 0; fi
shot expiry-takeover-t12 expiry-takeover 12 en --svg "$out/expiry-takeover.svg"
shot expiry-takeover-t8-ko expiry-takeover 8 ko
shot tour-results contention 3 en --tour 3
shot code-panel expiry-takeover 6 en --tour 9
shot code-panel-release-ko expiry-takeover 12 ko --code
shot auto-extension-t6 auto-extension 6 en
shot gc-pause-fencing-t15 gc-pause-fencing 15 en
shot gc-pause-no-fencing-t15-ko gc-pause-no-fencing 15 ko
shot partition-extend-t10 partition-extend 10 en
shot lost-reply-orphan-t5 lost-reply-orphan 5 en
shot failover-fencing-regressed-t8 failover-fencing-regressed 8 en
shot hold-off-handover-t4 hold-off-handover 4 en
shot group-saturation-t6 group-saturation 6 en
# Side by side: each ready-made pair at its lesson tick, one PNG and one SVG
# (docs/images/compare-<pair>.*), and the gc-pause pair in Korean.
pair_shot() {  # pair tick lang suffix
  run_app --pair "$1" --tick "$2" --lang "$3" --size 1600x900 --screenshot "$out/compare-$1$4.png" \
    --svg "$out/compare-$1$4.svg" >/dev/null
  shrink "$out/compare-$1$4.png"
}
pair_shot gc-pause 15 en ""
pair_shot gc-pause 15 ko -ko
pair_shot failover 8 en ""
pair_shot expiry-autoextend 12 en ""
# Narrated play, stopped at the unsafe write.
shot narrate-gc-pause-no-fencing-t15 gc-pause-no-fencing 15 en --narrate
# Find a counterexample: gc-pause-no-fencing without its pause; the app loads
# what the search finds and puts the playhead on the violation.
find_shot() {  # name lang
  run_app tests/gui/gc-pause-no-faults.json --find-counterexample \
    --lang "$2" --size 1600x900 --screenshot "$out/$1.png" >/dev/null
  shrink "$out/$1.png"
}
find_shot find-counterexample en
find_shot find-counterexample-ko ko
# The smallest fault of each kind on issue 29's practitioner (3 workers, lease
# 30 s, wait 5 s, watchdog, 50 ms ticks): the 20 s pause is loaded.
smallest_shot() {  # name lang
  run_app tests/data/explore/practitioner.json --find-smallest \
    --lang "$2" --size 1600x900 --screenshot "$out/$1.png" >/dev/null
  shrink "$out/$1.png"
}
smallest_shot find-smallest en
smallest_shot find-smallest-ko ko
# The Exercise panel (model.md §18) on tests/gui/exercise-sample.json: a
# prediction answered wrong (the hint, the tick in Explain's words), and a
# find_fault try that meets the goal (its run on the timeline, the smallest fault).
exercise_shot() {  # name lang exercise answer
  run_app tests/gui/exercise-sample.json --exercise "$3" --exercise-answer "$4" \
    --lang "$2" --size 1600x900 --screenshot "$out/$1.png" >/dev/null
  shrink "$out/$1.png"
}
exercise_shot exercise-predict-ko ko 1 node-c
exercise_shot exercise-find-fault en 3 pause:node-a:3:8
# The example incident of docs/import.md §8 replayed read-only (model.md §19.9),
# at worker-a's late write, and beside its draft.
run_app tests/data/import/example/incident.trace.jsonl --tick 1601 --lang en --size 1600x900 --screenshot "$out/import-replay.png"
shrink "$out/import-replay.png"
run_app tests/data/import/example/incident.trace.jsonl --compare tests/data/import/example/incident.draft.json --tick 1601 --lang ko \
  --size 1600x900 --screenshot "$out/import-compare.png" >/dev/null
shrink "$out/import-compare.png"
# The Live panel needs a server: LEASESCOPE_REDIS_URL (test.sh sets one).
if [ -n "${LEASESCOPE_REDIS_URL:-}" ]; then
  shot live-expiry-takeover expiry-takeover 12 en --live "$LEASESCOPE_REDIS_URL" --live-tick-ms 50
else
  echo "LEASESCOPE_REDIS_URL is not set: docs/images/live-expiry-takeover.png not regenerated" >&2
fi
ls -la "$out"

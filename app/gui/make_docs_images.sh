#!/usr/bin/env bash
# Regenerates the pictures in docs/images/ with the app itself (headless, under
# Xvfb), then shrinks them with pngquant (256-colour palette) so each stays
# well under 200 KB. Usage: app/gui/make_docs_images.sh [path/to/leasescope]
set -euo pipefail
cd "$(dirname "$0")/../.."
app=${1:-build/gui/app/gui/leasescope}
out=docs/images
mkdir -p "$out"
shot() {  # name scenario tick lang [extra app flags...]
  local name=$1 scenario=$2 tick=$3 lang=$4
  shift 4
  xvfb-run -a -s "-screen 0 1600x900x24" "$app" "scenarios/$scenario.json" --tick "$tick" --lang "$lang" \
    --size 1600x900 --screenshot "$out/$name.png" "$@"
  if command -v pngquant >/dev/null; then
    pngquant --quality 70-95 --speed 1 --force --output "$out/$name.png" "$out/$name.png"
  fi
}
shot expiry-takeover-t12 expiry-takeover 12 en --svg "$out/expiry-takeover.svg"
shot expiry-takeover-t8-ko expiry-takeover 8 ko
shot tour-results contention 3 en --tour 3
shot auto-extension-t6 auto-extension 6 en
shot gc-pause-fencing-t15 gc-pause-fencing 15 en
shot gc-pause-no-fencing-t15-ko gc-pause-no-fencing 15 ko
shot partition-extend-t10 partition-extend 10 en
shot lost-reply-orphan-t5 lost-reply-orphan 5 en
shot failover-fencing-regressed-t8 failover-fencing-regressed 8 en
shot hold-off-handover-t4 hold-off-handover 4 en
shot group-saturation-t6 group-saturation 6 en
# Find a counterexample: gc-pause-no-fencing without its pause; the app loads
# what the search finds and puts the playhead on the violation.
find_shot() {  # name lang
  xvfb-run -a -s "-screen 0 1600x900x24" "$app" tests/gui/gc-pause-no-faults.json --find-counterexample \
    --lang "$2" --size 1600x900 --screenshot "$out/$1.png" >/dev/null
  if command -v pngquant >/dev/null; then
    pngquant --quality 70-95 --speed 1 --force --output "$out/$1.png" "$out/$1.png"
  fi
}
find_shot find-counterexample en
find_shot find-counterexample-ko ko
# The Live panel needs a server: LEASESCOPE_REDIS_URL (test.sh sets one).
if [ -n "${LEASESCOPE_REDIS_URL:-}" ]; then
  shot live-expiry-takeover expiry-takeover 12 en --live "$LEASESCOPE_REDIS_URL" --live-tick-ms 50
else
  echo "LEASESCOPE_REDIS_URL is not set: docs/images/live-expiry-takeover.png not regenerated" >&2
fi
ls -la "$out"

#!/usr/bin/env bash
# Installs what is missing, builds, and opens LeaseScope on the default preset
# (expiry-takeover). Without a display it says so and runs the CLI instead.
# Arguments are passed to the app (or to `leasescope-cli run` without a display).
set -euo pipefail
cd "$(dirname "$0")"
source tools/deps.sh
leasescope_install_deps
leasescope_build build/release Release

preset=scenarios/expiry-takeover.json
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && [ -x build/release/app/gui/leasescope ]; then
  exec build/release/app/gui/leasescope "${@:-$preset}"
fi
if [ -z "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  echo "No display found (DISPLAY is not set): showing the command-line view instead." >&2
  echo "To see the app, run this from a desktop session, or take a picture headlessly:" >&2
  echo "  xvfb-run -s '-screen 0 1600x900x24' build/release/app/gui/leasescope $preset --tick 12 --screenshot shot.png" >&2
else
  echo "The GUI was not built; showing the command-line view instead." >&2
fi
exec build/release/app/cli/leasescope-cli run "${@:-$preset}" --format text

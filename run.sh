#!/usr/bin/env bash
# Installs what is missing, builds the app and the CLI (not the tests nor the
# benchmarks), and opens LeaseScope on the default preset
# (expiry-takeover). Without a display it says so and runs the CLI instead.
# Arguments are passed to the app (or to `leasescope-cli run` without a display).
#   ./run.sh --web [PORT]   builds the browser version into build/web/ and
#                           serves it on 127.0.0.1 (default port 8000)
set -euo pipefail
cd "$(dirname "$0")"
source tools/deps.sh
if [ "${1:-}" = "--web" ]; then
  port=${2:-${LEASESCOPE_WEB_PORT:-8000}}
  leasescope_install_deps "${leasescope_web_packages[@]}"
  leasescope_step "building the browser version (build/web)" tools/web_build.sh build/web
  if ! python3 -c "import socket, sys; s = socket.socket(); s.bind(('127.0.0.1', int(sys.argv[1])))" "$port" 2>/dev/null; then
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  fi
  echo "LeaseScope in the browser: http://127.0.0.1:$port/"
  echo "  (a static folder: copy build/web/ to any web server to publish it; Ctrl+C stops this one)" >&2
  exec python3 -m http.server "$port" --bind 127.0.0.1 --directory build/web
fi
leasescope_install_deps
# Only what it opens: the app and leasescope-cli (with the schema and man
# pages); ./test.sh builds the tests, `cmake --build --preset release` all.
leasescope_build_targets release run "the app and leasescope-cli"

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

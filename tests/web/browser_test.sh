#!/usr/bin/env bash
# Serves a built browser folder (build/web) on a free loopback port with
# Python's http.server, runs the browser tests (browser_test.mjs, then
# input_test.mjs) in headless chromium against it, and stops the server. Screenshots land in OUT_DIR.
# Usage: browser_test.sh WEB_DIR OUT_DIR
set -euo pipefail
web=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
for f in index.html shell.js leasescope.js leasescope.wasm leasescope.data; do
  [ -f "$web/$f" ] || { echo "FAIL: $web/$f is missing (tools/web_build.sh builds it)" >&2; exit 1; }
done
command -v chromium >/dev/null || { echo "FAIL: chromium is missing (tools/deps.sh installs it)" >&2; exit 1; }
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$web" >/dev/null 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true' EXIT
for _ in $(seq 1 50); do
  python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/index.html')" 2>/dev/null && break
  sleep 0.1
done
rc=0
node "$here/browser_test.mjs" "http://127.0.0.1:$port/" "$out" || rc=1
# Real input: the wheel, the page's buttons and keys, the picker, a drop, downloads.
node "$here/input_test.mjs" "http://127.0.0.1:$port/" "$out" || rc=1
exit "$rc"

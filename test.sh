#!/usr/bin/env bash
# Installs what is missing, builds (the browser version too), starts what the
# tests need (a loopback redis-server without persistence, an Xvfb display),
# runs every test with CTest and stops what it started.
#   --full    adds sanitizers, a second compiler, fuzzing, the sharded
#             explorer on a single-node Slurm and the Redlock check at 100 ms
#             ticks (tools/full.sh)
#   --no-web  leaves out the browser build and its tests (Emscripten, Chromium)
set -euo pipefail
cd "$(dirname "$0")"
full=0 web=1
while [ $# -gt 0 ]; do
  case "$1" in
    --full) full=1; shift ;;
    --no-web) web=0; shift ;;
    *) break ;;
  esac
done
source tools/deps.sh
extra_packages=()
if [ "$full" = 1 ]; then extra_packages+=("${leasescope_full_packages[@]}"); fi
if [ "$web" = 1 ]; then extra_packages+=("${leasescope_web_packages[@]}"); fi
leasescope_install_deps "${extra_packages[@]}"
# The browser version (build/web) and the Node.js CLI beside it (build/web-obj):
# web.browser and web.determinism test them. It is built below, beside the
# wall-clock tests; the native build only needs to know where it will be.
web_flags=(-DLEASESCOPE_WEB_DIR= -DLEASESCOPE_WEB_OBJ_DIR=)
if [ "$web" = 1 ]; then
  web_flags=(-DLEASESCOPE_WEB_DIR="$PWD/build/web" -DLEASESCOPE_WEB_OBJ_DIR="$PWD/build/web-obj")
fi
# The golden traces of other build types and of Clang are compared in
# tools/full.sh (--full); golden.other_build is for checking one by hand, so
# an OTHER_CLI left in build/test's cache by an earlier run is cleared.
leasescope_build test -DLEASESCOPE_OTHER_CLI= "${web_flags[@]}"

started_pids=()
realtime_pid="" low_pid=""
cleanup() {
  # The two lanes of tests below, if this script stops before they end (each
  # is a session of its own: ctest and the tests it started).
  for pid in $realtime_pid $low_pid; do kill -- "-$pid" 2>/dev/null || true; done
  for pid in "${started_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${started_pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  if [ -n "${redis_dir:-}" ]; then rm -rf "$redis_dir"; fi
}
trap cleanup EXIT

free_port() {
  python3 - <<'PY' 2>/dev/null || echo $((20000 + RANDOM % 20000))
import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()
PY
}

# redis-server on a free loopback port, no persistence. Resynchronisations
# go through a file and the server notices a save's end within 10 ms
# (--repl-diskless-sync no, --hz 100): a restored replica is streamed to at
# once (model.md §13.8 rule 5, real-systems.md R20).
redis_port=$(free_port)
redis_dir=$(mktemp -d)
sync_flags=(--repl-diskless-sync no --repl-diskless-sync-delay 0 --hz 100)
redis-server --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly no "${sync_flags[@]}" \
  --dir "$redis_dir" --daemonize no --loglevel warning >"$redis_dir/log" 2>&1 &
started_pids+=($!)
for _ in $(seq 1 50); do
  redis-cli -p "$redis_port" ping >/dev/null 2>&1 && break
  sleep 0.1
done
redis-cli -p "$redis_port" ping >/dev/null || { echo "redis-server did not start" >&2; cat "$redis_dir/log" >&2; exit 1; }
export LEASESCOPE_REDIS_URL="redis://127.0.0.1:$redis_port"
export LEASESCOPE_REDIS_PORT="$redis_port"

# Two replicas of it (model.md §13.8), for the live tests on real
# replication: each waits until master_link_status:up.
replica_urls=()
for i in 1 2; do
  replica_port=$(free_port)
  mkdir -p "$redis_dir/replica$i"
  redis-server --port "$replica_port" --bind 127.0.0.1 --save '' --appendonly no \
    --replicaof 127.0.0.1 "$redis_port" "${sync_flags[@]}" \
    --dir "$redis_dir/replica$i" --daemonize no --loglevel warning >"$redis_dir/replica$i.log" 2>&1 &
  started_pids+=($!)
  for _ in $(seq 1 100); do
    redis-cli -p "$replica_port" info replication 2>/dev/null | grep -q '^master_link_status:up' && break
    sleep 0.1
  done
  redis-cli -p "$replica_port" info replication | grep -q '^master_link_status:up' ||
    { echo "replica $i did not link to the primary" >&2; cat "$redis_dir/replica$i.log" >&2; exit 1; }
  replica_urls+=("redis://127.0.0.1:$replica_port")
done
export LEASESCOPE_REPLICA_URLS="${replica_urls[*]}"

# A virtual display for the GUI tests.
display_num=$((90 + RANDOM % 100))
Xvfb ":$display_num" -screen 0 1600x900x24 -nolisten tcp >/dev/null 2>&1 &
started_pids+=($!)
export DISPLAY=":$display_num"
for _ in $(seq 1 50); do
  [ -e "/tmp/.X11-unix/X$display_num" ] && break
  sleep 0.1
done
export LIBGL_ALWAYS_SOFTWARE=1

# The Redlock check (redlock.npm) runs the real npm package redlock 4.2.0:
# its lockfile's packages go into build/redlock-npm, not the source tree.
leasescope_step "installing the npm packages of the Redlock check (build/redlock-npm)" tests/redlock/install.sh build/redlock-npm

# Two lanes at once. The tests that keep time against the wall clock (labels
# live and redlock: live runs tick by the wall clock, the real redlock
# package's retries wait real milliseconds) mostly sleep; they run one at a
# time, at normal priority, in a CTest of their own in the background. The
# browser build and every other test run beside them at the lowest CPU
# priority (nice 19), so a live run still gets a core the moment its tick is
# due. Before, the wall-clock tests ran alone for about 7 of the suite's
# 18 minutes (CONTRIBUTING.md, "Build and test").
# Linux schedules each session as a group (autogroup), and a nice value only
# orders the tasks inside their group: so the low-priority lane is a session
# of its own whose group is niced too (/proc/self/autogroup), and the
# wall-clock lane a session of its own at normal priority.
low_priority() {  # command...: runs it so, waits, returns its status
  setsid bash -c 'echo 19 >/proc/self/autogroup 2>/dev/null || true; exec nice -n 19 "$@"' low-priority "$@" &
  low_pid=$!
  local rc=0
  wait "$low_pid" || rc=$?
  low_pid=""
  return "$rc"
}
realtime_labels='live|redlock'
ctest_args=(--test-dir build/test --output-on-failure --timeout 600)  # every lane's
realtime_log=build/test/ctest-wallclock.log
echo "testing build/test: the wall-clock tests (labels live, redlock) in the background, into $realtime_log" >&2
setsid ctest "${ctest_args[@]}" -j 1 -L "$realtime_labels" -LE alone "$@" \
  >"$realtime_log" 2>&1 </dev/null &
realtime_pid=$!
status=0
if [ "$web" = 1 ]; then
  leasescope_step "building the browser version (build/web), at low priority" low_priority tools/web_build.sh build/web ||
    status=1
fi
if [ "$status" = 0 ]; then
  leasescope_step "testing build/test: the other tests (ctest), at low priority" \
    low_priority ctest "${ctest_args[@]}" -j 2 -LE "$realtime_labels" "$@" ||
    status=1
fi
printf 'testing build/test: waiting for the wall-clock tests ... ' >&2
realtime_status=0
wait "$realtime_pid" || realtime_status=$?
realtime_pid=""
cat "$realtime_log" >>"$leasescope_log"
if [ "$realtime_status" = 0 ]; then
  echo "ok" >&2
  grep -E '^(100% tests passed|Total Test time)' "$realtime_log" | sed 's/^/  /' >&2 || true
else
  echo "FAILED" >&2
  sed 's/^/  | /' "$realtime_log" >&2
  status=1
fi
# The label alone: a live test that misses its ticks even beside the
# low-priority lane (tests/live/CMakeLists.txt) runs last, by itself.
leasescope_step "testing build/test: the tests that need the machine to themselves (label alone)" \
  ctest "${ctest_args[@]}" -j 1 -L alone "$@" || status=1
if [ "$status" != 0 ]; then exit 1; fi

# --full: sanitizers, the second compiler, fuzzing and the shards on a
# single-node Slurm (tools/full.sh).
if [ "$full" = 1 ]; then
  if [ -x tools/full.sh ]; then
    tools/full.sh
  else
    echo "test.sh --full: tools/full.sh is missing" >&2
    exit 1
  fi
fi

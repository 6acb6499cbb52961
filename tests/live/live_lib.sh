# Helpers for the live shell tests: a private redis-server on a free loopback
# port, stopped (by its own pid) when the test exits.
free_port() {
  python3 - <<'PY' 2>/dev/null || echo $((20000 + RANDOM % 20000))
import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()
PY
}

own_pids=()
own_dirs=()
cleanup_own() {
  for pid in "${own_pids[@]}"; do kill -CONT "$pid" 2>/dev/null; kill "$pid" 2>/dev/null; done
  for pid in "${own_pids[@]}"; do wait "$pid" 2>/dev/null; done
  for dir in "${own_dirs[@]}"; do rm -rf "$dir"; done
}
trap cleanup_own EXIT

# start_redis PORT [extra redis-server args...]; sets redis_pid.
start_redis() {
  local port=$1; shift
  local dir; dir=$(mktemp -d); own_dirs+=("$dir")
  redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --dir "$dir" \
    --daemonize no --loglevel warning "$@" >"$dir/log" 2>&1 &
  redis_pid=$!
  own_pids+=("$redis_pid")
  for _ in $(seq 1 50); do
    if redis-cli -p "$port" ping 2>&1 | grep -qE "PONG|NOAUTH"; then return 0; fi
    sleep 0.1
  done
  echo "FAIL: redis-server on port $port did not start" >&2; cat "$dir/log" >&2
  exit 1
}

failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }

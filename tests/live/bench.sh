#!/usr/bin/env bash
# Acquire-plus-release round trips through the Redis store, side by side with
# redis-benchmark's single-command latency against the same server, both with
# one connection and no pipelining. A pair is two EVALSHA round trips, so
# about twice a plain SET is what to expect.
#   tests/live/bench.sh [CLI] [PAIRS]     (server: $LEASESCOPE_REDIS_URL)
set -euo pipefail
cli=${1:-build/release/app/cli/leasescope-cli}
pairs=${2:-20000}
url=${LEASESCOPE_REDIS_URL:?set LEASESCOPE_REDIS_URL=redis://127.0.0.1:PORT}
# redis-benchmark takes a host and a port, not a URL (this script passes no
# password to it: measure against a server without requirepass).
hostport=${url#redis://}; hostport=${hostport##*@}; hostport=${hostport%%/*}
host=${hostport%:*}; port=${hostport##*:}

echo "server: $host:$port"
"$cli" live --redis "$url" --bench "$pairs"
# redis-benchmark's own -t set would write key:__rand_int__; a key under
# LeaseScope's prefix is used instead, and deleted afterwards.
key='leasescope:{bench}:redis-benchmark'
bench() {  # bench LABEL COMMAND...
  local label=$1; shift
  redis-benchmark -h "$host" -p "$port" -c 1 -P 1 -n "$pairs" "$@" 2>/dev/null \
    | awk -v t="$label" '/avg +min +p50/ { getline; printf "redis-benchmark %s (1 client): p50 %.1f us, p99 %.1f us, mean %.1f us\n", t, $3 * 1000, $5 * 1000, $1 * 1000 }'
}
bench SET SET "$key" xyz
bench GET GET "$key"
bench 'EVAL "return 1"' EVAL "return 1" 0
redis-cli -h "$host" -p "$port" DEL "$key" >/dev/null

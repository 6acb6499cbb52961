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
for test in set get; do
  redis-benchmark -h "$host" -p "$port" -c 1 -P 1 -n "$pairs" -t "$test" 2>/dev/null \
    | awk -v t="$test" '/avg +min +p50/ { getline; printf "redis-benchmark %s (1 client): p50 %.1f us, p99 %.1f us, mean %.1f us\n", toupper(t), $3 * 1000, $5 * 1000, $1 * 1000 }'
done
redis-benchmark -h "$host" -p "$port" -c 1 -P 1 -n "$pairs" EVAL "return 1" 0 2>/dev/null \
  | awk '/avg +min +p50/ { getline; printf "redis-benchmark EVAL \"return 1\" (1 client): p50 %.1f us, p99 %.1f us, mean %.1f us\n", $3 * 1000, $5 * 1000, $1 * 1000 }'

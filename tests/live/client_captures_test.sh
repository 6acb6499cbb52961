#!/usr/bin/env bash
# The committed captures of the Kotlin elector's and Redisson's scripts
# (tests/data/import/*.monitor) are still what a real server shows: the
# script that made them runs again on the test server, and each new capture
# has the committed one's shape, line for line (the command or `[lua]` line,
# which client sent it, every argument); only times and client ports differ.
set -uo pipefail
src=$2
source "$(dirname "$0")/live_lib.sh"
if [ -z "${LEASESCOPE_REDIS_URL:-}" ]; then
  fail "LEASESCOPE_REDIS_URL is not set (run through ./test.sh)"
  exit 1
fi
dir=$(mktemp -d)
own_dirs+=("$dir")

# A capture's shape: no time; the database as D; clients as A, B, … in order
# of first appearance; `lua` kept.
shape() {
  awk '
    /^OK$/ { print; next }
    {
      if (match($0, /^[0-9]+\.[0-9]+ \[[0-9]+ [^]]+\] /) == 0) { print "BAD LINE: " $0; next }
      head = substr($0, 1, RLENGTH - 2); rest = substr($0, RLENGTH + 1)
      split(head, part, " ")
      client = part[3]
      if (client != "lua") {
        if (!(client in name)) name[client] = sprintf("%c", 65 + n++)
        client = name[client]
      }
      print "[D " client "] " rest
    }' "$1"
}

if ! "$src/tests/data/import/make_client_captures.sh" "$LEASESCOPE_REDIS_URL" "$dir" >"$dir/log" 2>&1; then
  fail "make_client_captures.sh failed: $(cat "$dir/log")"
  exit 1
fi
for name in kotlin-elector redisson; do
  committed=$src/tests/data/import/$name.monitor
  if diff <(shape "$committed") <(shape "$dir/$name.monitor") >"$dir/$name.diff"; then
    pass "$name: $(grep -c ' lua\] ' "$dir/$name.monitor") lua lines, $(wc -l <"$dir/$name.monitor") lines, same shape"
  else
    fail "$name: the new capture's shape differs from $committed:"
    cat "$dir/$name.diff" >&2
  fi
  # Times never go back (rule 19.1.4 on a real capture).
  if ! grep -v '^OK$' "$dir/$name.monitor" | awk '{ if ($1 < last) exit 1; last = $1 }'; then
    fail "$name: times go back in the new capture"
  fi
done
exit $((failures > 0))

#!/usr/bin/env bash
# A server with requirepass: the password from the URL (with or without a
# user name) works, a missing or wrong one is a clear error with exit code 3,
# and the password never appears in any output.
set -uo pipefail
cli=$1 src=$2
source "$(dirname "$0")/live_lib.sh"
preset=$src/scenarios/contention.json
secret='Pa55-w0rd_lease'
port=$(free_port)
start_redis "$port" --requirepass "$secret"

check() {  # check NAME URL EXPECTED_RC GREP
  local name=$1 url=$2 want=$3 pattern=$4 out rc
  out=$("$cli" live "$preset" --redis "$url" --tick-ms 50 --compare 2>&1); rc=$?
  if grep -q "$secret" <<<"$out"; then fail "$name: the password appears in the output"; return; fi
  if [ "$rc" -ne "$want" ]; then fail "$name: exit $rc, expected $want: $out"; return; fi
  if ! grep -q -- "$pattern" <<<"$out"; then fail "$name: expected '$pattern' in: $out"; return; fi
  pass "$name: $(tail -1 <<<"$out")"
}

check "password" "redis://:$secret@127.0.0.1:$port" 0 "^identical$"
check "user and password" "redis://default:$secret@127.0.0.1:$port" 0 "^identical$"
check "user, password and db" "redis://default:$secret@127.0.0.1:$port/3" 0 "^identical$"
check "no password" "redis://127.0.0.1:$port" 3 "NOAUTH"
check "wrong password" "redis://:wrong-$secret@127.0.0.1:$port" 3 "authentication with redis://:\*\*\*@127.0.0.1:$port failed"
check "database out of range" "redis://:$secret@127.0.0.1:$port/999" 3 "cannot select database 999"
exit $((failures > 0))

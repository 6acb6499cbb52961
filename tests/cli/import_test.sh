#!/usr/bin/env bash
# `leasescope-cli import` (docs/model.md §19, docs/import.md): a real capture
# becomes a /4 trace that the other commands read, and every bad input of
# issue 28 is a clear message naming the file and line, exit 2, and no output
# file at all (not even a temporary one).
#
#   import_test.sh <path-to-leasescope-cli> <source-dir>
set -u

if [ $# -ne 2 ]; then
  echo "usage: $0 <path-to-leasescope-cli> <source-dir>" >&2
  exit 2
fi
CLI=$1
SRC=$2
DATA=$SRC/tests/data/import
BAD=$DATA/bad
TWO=$DATA/cli/two-workers.monitor.txt
WORK=$(mktemp -d "${TMPDIR:-/tmp}/leasescope-import-test.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

failed=0
fail() { echo "FAIL: $1" >&2; failed=$((failed + 1)); }

# refused NAME EXPECTED-TEXT... -- ARGS...: exit 2, stderr holds every
# expected text, stdout and the output folder are empty.
refused() {
  local name=$1
  shift
  local expected=()
  while [ "$1" != "--" ]; do expected+=("$1"); shift; done
  shift
  rm -rf "$WORK/out" && mkdir "$WORK/out"
  "$CLI" import "$@" > "$WORK/stdout" 2> "$WORK/stderr"
  local rc=$?
  [ "$rc" -eq 2 ] || fail "$name: expected exit 2, got $rc: $(cat "$WORK/stderr")"
  for text in "${expected[@]}"; do
    grep -qF -- "$text" "$WORK/stderr" || fail "$name: stderr does not say '$text': $(cat "$WORK/stderr")"
  done
  [ ! -s "$WORK/stdout" ] || fail "$name: something on stdout: $(head -c 300 "$WORK/stdout")"
  [ -z "$(ls -A "$WORK/out")" ] || fail "$name: files left in the output folder: $(ls -A "$WORK/out")"
  iconv -f UTF-8 -t UTF-8 "$WORK/stderr" > /dev/null 2>&1 || fail "$name: stderr is not valid UTF-8"
}

# --- a real capture (redis-server 7.0.15, redis-cli monitor): two workers
# contending with SET NX PX; worker-a's PEXPIRE and DEL come after its lease
# expired and worker-b took the lock.
"$CLI" import "$TWO" --out "$WORK/two.jsonl" --scenario "$WORK/two.draft.json" > "$WORK/report" 2> "$WORK/err" ||
  fail "import of two-workers: exit $?: $(cat "$WORK/err")"
for text in "lock: lock:orders" "nodes: worker-a, worker-b" "15 lines read" "ignored:" "acquire:" "wrote $WORK/two.jsonl"; do
  grep -qF -- "$text" "$WORK/report" || fail "two-workers: the report does not say '$text': $(cat "$WORK/report")"
done
head -n 1 "$WORK/two.jsonl" | grep -q '"format":"leasescope-trace/4"' || fail "two-workers: the trace is not /4"
# The trace reads back: diff against itself, show prints its table, and
# the draft is a valid scenario.
"$CLI" diff "$WORK/two.jsonl" "$WORK/two.jsonl" > "$WORK/diff" 2>&1 || fail "diff of an imported trace: $(cat "$WORK/diff")"
"$CLI" show "$WORK/two.jsonl" > "$WORK/show" 2>&1 || fail "show of an imported trace: $(cat "$WORK/show")"
grep -q 'worker-b' "$WORK/show" || fail "show does not list worker-b: $(head -5 "$WORK/show")"
"$CLI" validate "$WORK/two.draft.json" > /dev/null 2> "$WORK/err" || fail "the draft is not valid: $(cat "$WORK/err")"
# The same import twice gives the same bytes.
"$CLI" import "$TWO" --out "$WORK/again.jsonl" > /dev/null 2>&1 || fail "second import"
cmp -s "$WORK/two.jsonl" "$WORK/again.jsonl" || fail "two imports of one capture differ"
# Standard input streams too: the same events (the header names <stdin>).
"$CLI" import - --out "$WORK/stdin.jsonl" < "$TWO" > /dev/null 2> "$WORK/err" || fail "import -: $(cat "$WORK/err")"
cmp -s <(tail -n +2 "$WORK/two.jsonl") <(tail -n +2 "$WORK/stdin.jsonl") || fail "import - gives other events"
# Explicit --tick-ms is said in the report and used.
"$CLI" import "$TWO" --tick-ms 50 --out "$WORK/t50.jsonl" > "$WORK/report" 2>&1 || fail "--tick-ms 50"
grep -qF "tick: 50 ms (given with --tick-ms)" "$WORK/report" || fail "--tick-ms 50: not in the report"
head -n 1 "$WORK/t50.jsonl" | grep -q '"tick_ms":50' || fail "--tick-ms 50: not in the header"

# --- bad captures: file:line, what was expected, exit 2, nothing written.
refused "a line cut short" "truncated.monitor.txt:9:" -- "$BAD/truncated.monitor.txt" --out "$WORK/out/t.jsonl"
refused "redis before 2.6" "redis-2.4.monitor.txt:2:" "2.6" -- "$BAD/redis-2.4.monitor.txt" --out "$WORK/out/t.jsonl"
refused "a clock going back" "clock-back.monitor.txt:12:" "time goes back" -- \
  "$BAD/clock-back.monitor.txt" --out "$WORK/out/t.jsonl"
refused "two locks" 'lock:orders' 'lock:\xff\xfeorders' "--lock" -- "$BAD/two-locks.monitor.txt" --out "$WORK/out/t.jsonl"
refused "raw non-UTF-8 bytes" '\xff' -- "$BAD/raw-bytes.monitor.txt" --out "$WORK/out/t.jsonl"
printf '1796374169.819000 [0 127.0.0.1:44378] "SET" "cache:home" "abc" "PX" "60000"\n' > "$WORK/nolock.txt"
refused "no lock" "no lock found" -- "$WORK/nolock.txt" --out "$WORK/out/t.jsonl"
refused "a missing capture" "missing.txt" -- "$WORK/missing.txt" --out "$WORK/out/t.jsonl"
refused "a bad --name" "--name worker-a" "ADDR=NODE" -- "$TWO" --name worker-a --out "$WORK/out/t.jsonl"
refused "--out is the capture" "is an input" -- "$WORK/out/../nolock.txt" --out "$WORK/nolock.txt"
[ -s "$WORK/nolock.txt" ] || fail "--out is the capture: the capture was touched"
# --lenient reads past the cut line as a gap; --clock-steps keep keeps the step.
"$CLI" import "$BAD/truncated.monitor.txt" --lenient --out "$WORK/lenient.jsonl" > /dev/null 2> "$WORK/err" ||
  fail "--lenient: $(cat "$WORK/err")"
grep -q '"detail":"capture_gap"' "$WORK/lenient.jsonl" 2> /dev/null || fail "--lenient: no capture_gap in the trace"
"$CLI" import "$BAD/clock-back.monitor.txt" --clock-steps keep --out "$WORK/keep.jsonl" > /dev/null 2> "$WORK/err" ||
  fail "--clock-steps keep: $(cat "$WORK/err")"
grep -q '"node":"store".*"op":"clock_jump"' "$WORK/keep.jsonl" 2> /dev/null || fail "--clock-steps keep: no clock_jump"
"$CLI" import "$BAD/two-locks.monitor.txt" --lock 'lock:orders' --out "$WORK/one.jsonl" > /dev/null 2> "$WORK/err" ||
  fail "two locks with --lock: $(cat "$WORK/err")"

# --- bad logs.
refused "a log time without a zone" "no-zone.log.jsonl:2:" "zone" -- "$TWO" --log "$BAD/no-zone.log.jsonl" \
  --out "$WORK/out/t.jsonl"
refused "a log in another zone" "--log-shift" -- "$TWO" --log "$BAD/other-zone.log.jsonl" --out "$WORK/out/t.jsonl"
refused "an unknown log key" "unknown-key.log.jsonl:2:" "tokn" "token" -- "$TWO" --log "$BAD/unknown-key.log.jsonl" \
  --out "$WORK/out/t.jsonl"
# --log-shift moves the logs named after it (9 hours back), not those before.
"$CLI" import "$TWO" --log-shift -32400000 --log "$BAD/other-zone.log.jsonl" --out "$WORK/shift.jsonl" > /dev/null \
  2> "$WORK/err" || fail "--log-shift -32400000 --log other-zone: $(cat "$WORK/err")"
refused "--log-shift after the log" "--log-shift" -- "$TWO" --log "$BAD/other-zone.log.jsonl" --log-shift -32400000 \
  --out "$WORK/out/t.jsonl"

# --- an output that cannot be written: exit 4, nothing left.
"$CLI" import "$TWO" --out "$WORK/no/such/dir/t.jsonl" > /dev/null 2> "$WORK/err"
rc=$?
[ "$rc" -eq 4 ] || fail "unwritable --out: expected exit 4, got $rc"
"$CLI" import "$TWO" --out "$WORK/out/t.jsonl" --scenario "$WORK/no/such/dir/d.json" > /dev/null 2> "$WORK/err"
rc=$?
[ "$rc" -eq 4 ] || fail "unwritable --scenario: expected exit 4, got $rc"
[ ! -e "$WORK/out/t.jsonl" ] || fail "unwritable --scenario: the trace was written"

# --- real captures of other clients (tests/data/import/make_client_captures.sh):
# the Kotlin elector's and Redisson's scripts, one lock each, found without --lock.
for pair in kotlin-elector:orders-leader redisson:orders-lock; do
  capture=${pair%%:*} lock=${pair#*:}
  "$CLI" import "$DATA/$capture.monitor" --out "$WORK/$capture.jsonl" > "$WORK/report" 2> "$WORK/err" ||
    fail "$capture: exit $?: $(cat "$WORK/err")"
  grep -q "^lock: $lock" "$WORK/report" || fail "$capture: the lock is not $lock: $(head -3 "$WORK/report")"
  grep -q '^acquire: ' "$WORK/report" || fail "$capture: no acquisitions: $(cat "$WORK/report")"
done

# wt-p's real captures: plain SET NX PX of job:lock, and a live run of
# expiry-takeover. Its run guard (`…:run`, SET NX PX) is LeaseScope's own and
# never a lock (rule 19.2.1), so the slot is found without --lock.
"$CLI" import "$DATA/plain-7.0.15.txt" --out "$WORK/plain.jsonl" > "$WORK/report" 2> "$WORK/err" ||
  fail "plain-7.0.15: exit $?: $(cat "$WORK/err")"
grep -q '^lock: job:lock' "$WORK/report" || fail "plain-7.0.15: the lock is not job:lock: $(head -3 "$WORK/report")"
"$CLI" import "$DATA/live-expiry-takeover-7.0.15.txt" --out "$WORK/live0.jsonl" > "$WORK/report" 2> "$WORK/err" ||
  fail "live-expiry-takeover without --lock: exit $?: $(cat "$WORK/err")"
grep -qF 'lock: leasescope:{invoice-close}:slot:0' "$WORK/report" ||
  fail "live-expiry-takeover: the lock is not the slot: $(head -3 "$WORK/report")"
"$CLI" import "$DATA/live-expiry-takeover-7.0.15.txt" --lock 'leasescope:{invoice-close}:slot:0' --tick-ms 50 \
  --out "$WORK/live.jsonl" > /dev/null 2> "$WORK/err" || fail "live-expiry-takeover with --lock: $(cat "$WORK/err")"
# The example incident of docs/import.md (recorded for real): its trace and
# draft are kept beside it, byte for byte what the importer writes (the
# docs' pictures and pasted output come from them). After a change of the
# importer's rules, re-import and look at the difference before committing it.
EX=$DATA/example
(cd "$EX" && "$CLI" import incident.monitor.txt --log worker-a.jsonl --log worker-b.jsonl \
  --out "$WORK/example.jsonl" --scenario "$WORK/example.draft.json") > /dev/null 2> "$WORK/err" ||
  fail "example incident: $(cat "$WORK/err")"
cmp -s "$WORK/example.jsonl" "$EX/incident.trace.jsonl" || fail "the example's trace differs from $EX/incident.trace.jsonl"
cmp -s "$WORK/example.draft.json" "$EX/incident.draft.json" || fail "the example's draft differs from $EX/incident.draft.json"
# wt-g's hand-written /4 trace reads back in show and diff.
"$CLI" show "$DATA/incident.trace.jsonl" > "$WORK/show" 2>&1 || fail "show incident.trace.jsonl: $(cat "$WORK/show")"
grep -q 'Wall (UTC)' "$WORK/show" || fail "show of a /4 trace has no wall-clock column"

# --- hostile inputs and outputs: an endless line, a folder, a device as
# --out, standard output on a full disk (no output file put in place).
refused "an endless line" "import_line_bytes_max" -- /dev/zero --out "$WORK/out/t.jsonl"
refused "a folder as capture" "is a directory" -- "$WORK" --out "$WORK/out/t.jsonl"
"$CLI" import "$TWO" --out /dev/full > /dev/null 2> "$WORK/err"
rc=$?
[ "$rc" -eq 4 ] || fail "--out /dev/full: expected exit 4, got $rc"
if [ -w /dev/full ]; then
  "$CLI" import "$TWO" --out "$WORK/full.jsonl" > /dev/full 2> "$WORK/err"
  rc=$?
  [ "$rc" -eq 4 ] || fail "stdout on /dev/full: expected exit 4, got $rc"
  [ ! -e "$WORK/full.jsonl" ] || fail "stdout on /dev/full: the trace was put in place"
fi

# --- the log's schema.
"$CLI" schema --import-log > "$WORK/log.schema.json" || fail "schema --import-log"
python3 - "$WORK/log.schema.json" <<'PY' || fail "schema --import-log is not the log line's schema"
import json, sys
schema = json.load(open(sys.argv[1]))
assert schema["$schema"].startswith("https://json-schema.org/"), schema.get("$schema")
for key in ("ts", "node", "event", "token", "fencing"):
    assert key in schema["properties"], key
assert schema.get("additionalProperties") is False
PY

if [ "$failed" -ne 0 ]; then
  echo "$failed check(s) failed" >&2
  exit 1
fi
echo "import: all checks passed"

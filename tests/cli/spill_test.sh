#!/usr/bin/env bash
# `run --spill-runs`: a streamed run whose finished runs' results go to a
# temporary file writes the same bytes as one that keeps them in memory, and
# a temporary folder it cannot write to is exit 4 with nothing half-written.
#
#   spill_test.sh <path-to-leasescope-cli> <source-dir>
set -u

if [ $# -ne 2 ]; then
  echo "usage: $0 <path-to-leasescope-cli> <source-dir>" >&2
  exit 2
fi
CLI=$1
SRC=$2
WORK=$(mktemp -d "${TMPDIR:-/tmp}/leasescope-spill-test.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

failed=0
fail() { echo "FAIL: $1" >&2; failed=$((failed + 1)); }

same_bytes() {  # scenario [args...]: --spill-runs 1 and 0 print the same bytes
  local scenario=$1
  shift
  "$CLI" run "$scenario" --spill-runs 0 "$@" > "$WORK/kept.jsonl" || fail "run $scenario --spill-runs 0 $*"
  "$CLI" run "$scenario" --spill-runs 1 --trace "$WORK/trace.jsonl" "$@" > "$WORK/spilled.jsonl" ||
    fail "run $scenario --spill-runs 1 $*"
  cmp -s "$WORK/kept.jsonl" "$WORK/spilled.jsonl" || fail "$scenario $*: stdout differs with --spill-runs 1"
  cmp -s "$WORK/kept.jsonl" "$WORK/trace.jsonl" || fail "$scenario $*: --trace file differs with --spill-runs 1"
}

for preset in "$SRC"/scenarios/*.json; do
  same_bytes "$preset"
  same_bytes "$preset" --until 7
done
"$CLI" generate --candidates 300 --horizon 40000 --seed 5 > "$WORK/big.json" || fail "generate"
same_bytes "$WORK/big.json"
# The default threshold (65,536) spills too, on a run of about 80,000 runs.
"$CLI" generate --candidates 1000 --horizon 500000 --seed 2 > "$WORK/long.json" || fail "generate"
"$CLI" run "$WORK/long.json" --spill-runs 0 | sha256sum > "$WORK/kept.sha256"
"$CLI" run "$WORK/long.json" | sha256sum > "$WORK/default.sha256"
cmp -s "$WORK/kept.sha256" "$WORK/default.sha256" || fail "the default --spill-runs changes the bytes"
runs=$("$CLI" run "$WORK/long.json" --spill-runs 0 | tail -n 1 | grep -o '"run":' | wc -l)
[ "$runs" -gt 66536 ] || fail "long.json has $runs runs, too few to spill at the default threshold"

# A temporary folder that cannot be written: exit 4, the folder named, no
# summary line on stdout, no --trace file.
TMPDIR=$WORK/missing "$CLI" run "$WORK/big.json" --spill-runs 1 --trace "$WORK/t.jsonl" > "$WORK/out" 2> "$WORK/err"
rc=$?
[ "$rc" -eq 4 ] || fail "unwritable TMPDIR: expected exit 4, got $rc"
grep -qF "$WORK/missing" "$WORK/err" || fail "unwritable TMPDIR: stderr does not name the folder: $(cat "$WORK/err")"
if tail -n 1 "$WORK/out" | grep -q '"results"'; then fail "unwritable TMPDIR: a summary line was written"; fi
[ ! -e "$WORK/t.jsonl" ] || fail "unwritable TMPDIR: the --trace file was written"
# Text output never spills (its summary is a table built at the end).
TMPDIR=$WORK/missing "$CLI" run "$SRC/scenarios/expiry-takeover.json" --format text --spill-runs 1 > /dev/null ||
  fail "--format text with an unwritable TMPDIR"

if [ "$failed" -ne 0 ]; then
  echo "$failed check(s) failed" >&2
  exit 1
fi
echo "spill: all checks passed"

#!/usr/bin/env bash
# A search split across machines, as a batch engine runs it: every
# `leasescope-cli explore ... --shard K/N` writes its result file and exits 0,
# and `explore-merge` of all N prints, writes and exits exactly as the unsplit
# `explore` does (but for the timing figures of the bench line). A shard
# missing, given twice or of another search is exit 2 with its name.
#
#   explore_shards_test.sh <path-to-leasescope-cli> <source-dir>
set -u

if [ $# -ne 2 ]; then
  echo "usage: $0 <path-to-leasescope-cli> <source-dir>" >&2
  exit 2
fi
CLI=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
SRC=$(cd "$2" && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/leasescope-shards-test.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
cd "$WORK" || exit 2

failed=0
fail() {
  failed=$((failed + 1))
  echo "FAIL: $1"
}

# The printed report without the bench line (timings) and with the written
# file's name replaced, so a whole run and a merge can be compared.
report() { grep -v '^bench: ' "$1" | sed "s/$2/OUT/g"; }

# Runs one search whole and in N shards (merged from the files in reverse
# order), and compares output, exit code and the counterexample written.
compare() {
  local label=$1 shards=$2
  shift 2
  "$CLI" explore "$@" --jobs 1 --out whole.json >whole.txt 2>whole.err
  local whole_rc=$?
  rm -f -- *.shard-*.json
  local k
  for ((k = 0; k < shards; k++)); do
    "$CLI" explore "$@" --jobs 1 --shard "$k/$shards" >"shard$k.txt" 2>&1
    local rc=$?
    [ $rc -eq 0 ] || fail "$label: shard $k/$shards exits $rc, expected 0: $(cat "shard$k.txt")"
  done
  local files
  files=$(ls -- *.shard-*-of-"$shards".json | sort -r)
  [ "$(echo "$files" | wc -l)" -eq "$shards" ] || fail "$label: expected $shards result files, found: $files"
  # shellcheck disable=SC2086
  "$CLI" explore-merge $files --out merged.json >merged.txt 2>merged.err
  local merged_rc=$?
  [ $merged_rc -eq $whole_rc ] || fail "$label: merge exits $merged_rc, whole search $whole_rc: $(cat merged.err)"
  if ! diff <(report whole.txt whole.json) <(report merged.txt merged.json) >diff.txt; then
    fail "$label: merged output differs from the whole search:"
    cat diff.txt
  fi
  if [ -e whole.json ] || [ -e merged.json ]; then
    cmp -s whole.json merged.json || fail "$label: the counterexample files differ"
  fi
  grep -q '^bench: ' merged.txt || fail "$label: merge prints no bench line"
  grep -q '^proved: ' merged.txt || fail "$label: merge prints no proved line"
  # Threads and chunks change nothing either (the proved line included).
  "$CLI" explore "$@" --jobs 2 --chunk 3 --out threads.json >threads.txt 2>threads.err
  [ $? -eq $whole_rc ] || fail "$label: --jobs 2 --chunk 3 exits differently"
  if ! diff <(report whole.txt whole.json) <(report threads.txt threads.json) >diff.txt; then
    fail "$label: --jobs 2 --chunk 3 output differs from --jobs 1:"
    cat diff.txt
  fi
  rm -f whole.json merged.json threads.json
}

S=$SRC/scenarios
compare "exhaustive, found at level 1" 3 "$S/gc-pause-no-fencing.json" --set 'faults=[]' --property unsafe_write \
  --max-pause 4
compare "exhaustive, found at level 2" 7 "$S/contention.json" --property unsafe_write,liveness --max-faults 2 \
  --max-pause 3
compare "exhaustive, none in the budget" 2 "$S/gc-pause-no-fencing.json" --set 'faults=[]' \
  --set resource.mode=check --property unsafe_write --max-pause 3 --shuffles 0
# The smallest pause (4 ticks at tick 2) is not the earliest failing one.
compare "exhaustive, ranked by size" 3 "$S/watchdog-pause.json" --set 'faults=[]' --fault-kinds pause \
  --property overlap --max-pause 8
compare "exhaustive, safety" 2 "$S/failover-lost-lock.json" --set 'faults=[]' --fault-kinds failover:all,crash \
  --property safety
compare "random" 3 "$S/contention.json" --seeds 400 --seed 5 --max-faults 4 --property unsafe_write,liveness
compare "one shard" 1 "$S/contention.json" --seeds 100 --seed 9 --max-faults 3

# --format json: the merged document has the whole search's counters and verdict.
args=("$S/contention.json" --property unsafe_write,liveness --max-faults 2 --max-pause 3 --jobs 1)
"$CLI" explore "${args[@]}" --out w.json --format json >whole.doc 2>/dev/null
rm -f -- *.shard-*.json
for k in 0 1 2; do "$CLI" explore "${args[@]}" --shard "$k/3" >/dev/null 2>&1 || fail "json: shard $k/3 failed"; done
"$CLI" explore-merge ./*.shard-*-of-3.json --out m.json --format json >merged.doc 2>/dev/null
python3 - whole.doc merged.doc <<'PY' || fail "json: explore-merge --format json differs from explore --format json"
import json, sys
w, m = (json.load(open(p)) for p in sys.argv[1:])
assert m["command"] == "explore-merge" and m["shards"] == 3 and m["scenario"] is None, m
# ticks, merged and states depend on how the work was cut (docs/explorer.md,
# Merging states, Sharing subtrees); every other counter must not.
def cut_free(stats):
    return {k: v for k, v in stats.items() if k not in ("ticks", "merged", "states")}
for d in (w, m):
    d["levels"] = [cut_free(level) for level in d["levels"]]
    d["totals"] = cut_free(d["totals"])
for k in ("name", "mode", "max_faults", "properties", "levels", "totals", "found", "proved", "minimize", "exit_code"):
    assert w[k] == m[k], (k, w[k], m[k])
assert (w["counterexample"] is None) == (m["counterexample"] is None)
if w["counterexample"]:
    assert w["counterexample"]["faults"] == m["counterexample"]["faults"], (w["counterexample"], m["counterexample"])
PY
rm -f w.json m.json whole.doc merged.doc -- *.shard-*.json

# Errors name the shard at fault.
expect_error() {
  local label=$1 pattern=$2
  shift 2
  "$CLI" "$@" >out.txt 2>err.txt
  local rc=$?
  [ $rc -eq 2 ] || fail "$label: exit $rc, expected 2"
  grep -q -- "$pattern" err.txt || fail "$label: stderr lacks '$pattern': $(cat err.txt)"
  [ -s out.txt ] && fail "$label: printed on stdout: $(cat out.txt)"
}
rm -f -- *.shard-*.json
A=("$S/contention.json" --seeds 60 --seed 5 --jobs 1)
for k in 0 1 2; do "$CLI" explore "${A[@]}" --shard "$k/3" >/dev/null 2>&1; done
"$CLI" explore "$S/contention.json" --seeds 60 --seed 6 --jobs 1 --shard 1/3 --out other.json >/dev/null 2>&1
expect_error "missing" "a shard is missing: shard 1/3" explore-merge contention.shard-0-of-3.json contention.shard-2-of-3.json
expect_error "duplicated" "contention.shard-2-of-3.json and contention.shard-2-of-3.json are both shard 2/3" \
  explore-merge contention.shard-0-of-3.json contention.shard-1-of-3.json contention.shard-2-of-3.json \
  contention.shard-2-of-3.json
expect_error "foreign" "other.json is a shard of another search than contention.shard-0-of-3.json" \
  explore-merge contention.shard-0-of-3.json other.json contention.shard-2-of-3.json
expect_error "unreadable" "nowhere.json" explore-merge contention.shard-0-of-3.json nowhere.json
expect_error "bad --shard" "--shard: expected K/N" explore "${A[@]}" --shard 3/3
expect_error "random without --seed" "needs --seed" explore "$S/contention.json" --seeds 60 --shard 0/2

"$CLI" explore --help >help.txt 2>&1
grep -q -- "--shard" help.txt || fail "explore --help does not mention --shard"
"$CLI" --help >help.txt 2>&1
grep -q "explore-merge" help.txt || fail "--help does not list explore-merge"

if [ $failed -gt 0 ]; then
  echo "$failed failed"
  exit 1
fi
echo "all passed"

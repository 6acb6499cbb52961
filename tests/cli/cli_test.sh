#!/usr/bin/env bash
# Uses leasescope-cli the way a new user would and checks what they would
# rely on: exit codes (0 ok, 1 a check failed, 2 bad input, 4 an output could
# not be written), data on stdout,
# diagnostics on stderr, and the first steps of the README.
#
#   cli_test.sh <path-to-leasescope-cli> <source-dir>
#
# Prints every failure, then "N passed, M failed"; exits non-zero when
# anything failed. Needs only bash, coreutils, grep and sed.
set -u

if [ $# -ne 2 ]; then
  echo "usage: $0 <path-to-leasescope-cli> <source-dir>" >&2
  exit 2
fi
CLI=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
SRC=$(cd "$2" && pwd)
GOLDEN=$SRC/tests/golden
PRESET=$SRC/scenarios/expiry-takeover.json

WORK=$(mktemp -d "${TMPDIR:-/tmp}/leasescope-cli-test.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

passed=0
failed=0
current=""

# Runs the CLI; keeps stdout in $WORK/out, stderr in $WORK/err, the exit code in $rc.
cli() {
  current="leasescope-cli $*"
  "$CLI" "$@" >"$WORK/out" 2>"$WORK/err"
  rc=$?
}

pass() { passed=$((passed + 1)); }
fail() {
  failed=$((failed + 1))
  {
    echo "FAIL: $1"
    echo "  command: $current (exit $rc)"
    echo "  stdout:"; head -n 8 "$WORK/out" | sed 's/^/    /'
    echo "  stderr:"; head -n 8 "$WORK/err" | sed 's/^/    /'
  } >&2
}

expect_rc() {  # expected-code what
  if [ "$rc" -eq "$1" ]; then pass; else fail "$2: expected exit $1"; fi
}
expect_out() {  # fixed-text what
  if grep -qF -- "$1" "$WORK/out"; then pass; else fail "$2: stdout lacks \"$1\""; fi
}
expect_out_re() {  # extended-regex what
  if grep -qE -- "$1" "$WORK/out"; then pass; else fail "$2: no stdout line matches /$1/"; fi
}
expect_err() {  # fixed-text what
  if grep -qF -- "$1" "$WORK/err"; then pass; else fail "$2: stderr lacks \"$1\""; fi
}
expect_out_empty() {
  if [ ! -s "$WORK/out" ]; then pass; else fail "$1: stdout should be empty"; fi
}
expect_err_empty() {
  if [ ! -s "$WORK/err" ]; then pass; else fail "$1: stderr should be empty"; fi
}
check_that() {  # what command...: passes when the command succeeds
  local what=$1
  shift
  if "$@"; then
    pass
  else
    failed=$((failed + 1))
    echo "FAIL: $what" >&2
    echo "  test: $*" >&2
    echo "  (last command: $current, exit $rc)" >&2
  fi
}
not() { ! "$@"; }

# The value of a top-level integer or string key in a one-line JSON object.
json_field() {  # key line
  printf '%s\n' "$2" | sed -n "s/.*\"$1\":\"\{0,1\}\([^\",}]*\).*/\1/p"
}

cd "$SRC" || exit 2

# ---- help and version -------------------------------------------------------

cli --help
expect_rc 0 "--help"
for word in run check diff validate list explain; do expect_out "$word" "--help lists the $word command"; done

cli --version
expect_rc 0 "--version"
expect_out_re '^leasescope-cli [0-9]+\.[0-9]+\.[0-9]+' "--version prints name and version"

cli
expect_rc 2 "no command is a usage error"
cli frobnicate
expect_rc 2 "an unknown command is a usage error"
cli run "$PRESET" --format xml
expect_rc 2 "an unknown --format is a usage error"

# ---- list ---------------------------------------------------------------------

presets=("$SRC"/scenarios/*.json)
cli list
expect_rc 0 "list"
check_that "list shows one line per preset (${#presets[@]})" test "$(wc -l <"$WORK/out")" -eq "${#presets[@]}"
for file in "${presets[@]}"; do
  name=$(basename "$file" .json)
  title=$(sed -n 's/.*"title": *{ *"en": *"\([^"]*\)".*/\1/p' "$file" | head -n 1)
  if [ -z "$title" ]; then fail "cannot read the English title of $file"; continue; fi
  expect_out_re "^$name +$(printf '%s' "$title" | sed 's/[][\.*^$+?(){}|/]/\\&/g')\$" "list shows $name with its title"
done

cli list --lang ko
expect_rc 0 "list --lang ko"
for file in "${presets[@]}"; do
  name=$(basename "$file" .json)
  title=$(sed -n 's/.*"title":.*"ko": *"\([^"]*\)".*/\1/p' "$file" | head -n 1)
  if [ -z "$title" ]; then fail "cannot read the Korean title of $file"; continue; fi
  expect_out "$title" "list --lang ko shows the Korean title of $name"
done
cli list --lang fr
expect_rc 2 "list --lang fr is refused"

# ---- run: the text table --------------------------------------------------

cli run "$PRESET" --format text
expect_rc 0 "run --format text"
expect_out_re '^ +0 +node-a +acquire +[[:alnum:]]{8} +1 +6 +acquired slot 0' "node-a acquires at tick 0 with fencing 1"
expect_out_re '^ +6 +node-a +expire .*lease expired' "node-a's lease expires at tick 6"
expect_out_re '^ +6 +node-b +acquire +[[:alnum:]]{8} +2 +6 +acquired' "node-b acquires at tick 6 with fencing 2"
expect_out_re '^ +12 +node-a +release .*REJECTED: stale token' "node-a's release at tick 12 is rejected as stale"
expect_out "violations: overlap 1" "the text summary counts the overlap"
expect_err_empty "run --format text"
expect_out_re '^  node-a +run 0 +elected +fencing 1 +[0-9]+ writes?: [0-9]+ accepted, [0-9]+ rejected$' \
  "the text summary says what became of node-a's writes"

# ---- run --format text: the row filter ----------------------------------------

# The rows of the text table in $WORK/out: from under its header to the
# empty line before the summary, without the "shown:" line.
table_rows() {
  sed -n '/^ *Tick  Candidate/,/^$/p' "$WORK/out" | sed '1d;/^$/d;/^shown:/d'
}

GC=$SRC/scenarios/gc-pause-fencing.json
cli run "$GC" --format text --marked
expect_rc 0 "run --format text --marked"
check_that "--marked shows rows" test -n "$(table_rows)"
check_that "--marked shows only rows marked !" test -z "$(table_rows | grep -v '!')"
expect_out_re '! write REJECTED' "--marked keeps the rejected write"
expect_out_re '^shown: [0-9]+ of [0-9]+ events$' "--marked says how many rows it shows"
expect_out "violations:" "--marked keeps the whole summary"
cli run "$PRESET" --format text --node node-b --ticks 6..8
expect_rc 0 "run --format text --node node-b --ticks 6..8"
check_that "--node node-b --ticks 6..8 shows only node-b's rows (and those of no candidate) of ticks 6 to 8" \
  bash -c "awk '{ if ((\$2 != \"node-b\" && \$2 != \"-\") || \$1 < 6 || \$1 > 8) bad = 1; n++ } END { exit (bad || n == 0) }' <<<'$(table_rows)'"
expect_out_re '^ +6 +- +overlap_begin' "--node keeps the overlap row, which has no candidate"
check_that "--node node-b leaves node-a's rows out" test -z "$(table_rows | grep node-a)"
cli run "$PRESET" --format text --node node-a --node node-b --ticks 12..
expect_rc 0 "--node twice, --ticks A.."
expect_out_re '^ +12 +node-a +release' "--ticks 12.. keeps tick 12"
for bad in 8..6 x..3 6 ..; do
  cli run "$PRESET" --format text --ticks "$bad"
  expect_rc 2 "--ticks $bad is refused"
  expect_err "expected A..B" "--ticks $bad says what was expected"
done
# Times with units on the command line (docs/model.md §11.7): expiry-takeover
# has 50 ms ticks, so 300ms..400ms is ticks 6..8 and --time writes 0:00.300.
cli run "$PRESET" --format text --time --ticks 300ms..400ms --set defaults.lease=500ms
expect_rc 0 "run --format text --time --ticks 300ms..400ms --set defaults.lease=500ms"
expect_out_re '^ +Tick +Time +Candidate' "--time adds a Time column after Tick"
expect_out_re '^ +6 +0:00\.300 ' "--time writes tick 6 at 50 ms as 0:00.300"
check_that "--ticks 300ms..400ms keeps ticks 6 to 8 only" \
  bash -c "awk '{ if (\$1 < 6 || \$1 > 8) bad = 1; n++ } END { exit (bad || n == 0) }' <<<'$(sed -n '/^ *Tick  *Time/,/^$/p' "$WORK/out" | sed '1d;/^$/d;/^shown:/d')'"
cli run "$PRESET" --format text --ticks 310ms..
expect_rc 2 "--ticks with a duration that is not whole ticks is refused"
expect_err '"310ms" is not a whole number of 50 ms ticks: the nearest are 6 ticks (300ms) and 7 ticks (350ms)' \
  "--ticks 310ms names the nearest whole ticks"
cli run "$PRESET" --format text --until 0.5s
expect_rc 0 "run --until 0.5s"
expect_out "ended at tick 10;" "--until 0.5s stops after tick 10"
cli explain "$PRESET" --tick 350ms --time
expect_rc 0 "explain --tick 350ms --time"
expect_out "Tick 7 starts 0:00.350 after tick 0 (one tick is 50 ms)." "explain --time says when the tick starts"
cli explain "$PRESET" --tick 351ms
expect_rc 2 "explain --tick 351ms is refused"
expect_err "the nearest are 7 ticks (350ms) and 8 ticks (400ms)" "explain --tick 351ms names the nearest ticks"
cli run "$PRESET" --time
expect_rc 2 "--time without --format text is refused"
cli run "$PRESET" --format text --node node-z
expect_rc 2 "--node of no candidate is refused"
expect_err "--node node-z: expiry-takeover has no such candidate; expected one of node-a, node-b" \
  "--node node-z names the candidates"
cli run "$PRESET" --marked
expect_rc 2 "a filter without --format text is refused"
expect_err "add --format text" "the filter error says what to add"

# ---- run: JSONL, diff against the golden --------------------------------

cli run "$PRESET"
expect_rc 0 "run (JSONL)"
expect_err_empty "run (JSONL)"
cp "$WORK/out" "$WORK/run.jsonl"
check_that "the first JSONL line is the header" grep -q '^{"type":"header",' <(head -n 1 "$WORK/run.jsonl")
check_that "the last JSONL line is the summary" grep -q '^{"type":"summary",' <(tail -n 1 "$WORK/run.jsonl")
check_that "every other line is an event" test "$(sed '1d;$d' "$WORK/run.jsonl" | grep -vc '^{"type":"event",')" -eq 0
summary=$(tail -n 1 "$WORK/run.jsonl")
events=$(json_field events "$summary")
check_that "the summary counts the event lines" test "$events" = "$(($(wc -l <"$WORK/run.jsonl") - 2))"
hash=$(json_field trace_sha256 "$summary")
check_that "trace_sha256 is sha256sum of the event lines" \
  test "$hash" = "$(sed '1d;$d' "$WORK/run.jsonl" | sha256sum | cut -d' ' -f1)"

cli diff "$WORK/run.jsonl" "$GOLDEN/expiry-takeover.jsonl"
expect_rc 0 "run output and the golden trace are identical"
expect_out "identical" "diff says identical"

# ---- run --trace FILE --------------------------------------------------------

cli run "$PRESET" --trace "$WORK/written.jsonl"
expect_rc 0 "run --trace"
check_that "--trace wrote the file" test -s "$WORK/written.jsonl"
check_that "--trace leaves no temporary file" test ! -e "$WORK/written.jsonl.tmp"
check_that "--trace file has the bytes stdout had" cmp -s "$WORK/written.jsonl" "$WORK/run.jsonl"
cli diff "$WORK/written.jsonl" "$GOLDEN/expiry-takeover.jsonl"
expect_rc 0 "the --trace file passes diff against the golden"

cli run "$PRESET" --format text --trace "$WORK/written2.jsonl"
expect_rc 0 "run --format text --trace"
cli diff "$WORK/written2.jsonl" "$GOLDEN/expiry-takeover.jsonl"
expect_rc 0 "--trace writes JSONL even when stdout shows text"

cli run "$PRESET" --trace "$WORK/no-such-dir/t.jsonl"
expect_rc 4 "--trace into a missing folder is a write failure"
expect_out_empty "--trace into a missing folder fails before the run prints anything"
expect_err "no-such-dir" "--trace failure names the path"

# ---- run --set and --until ---------------------------------------------------

cli run "$PRESET" --set defaults.lease=8
expect_rc 0 "run --set defaults.lease=8"
cp "$WORK/out" "$WORK/lease8.jsonl"
check_that "--set defaults.lease=8 changes the trace hash" \
  test "$(json_field trace_sha256 "$(tail -n 1 "$WORK/lease8.jsonl")")" != "$hash"
check_that "with lease 8, node-a's acquire reports ttl 8" \
  grep -q '"node":"node-a","run":0,"op":"acquire",.*"ttl":8,"outcome":"acquired"' "$WORK/lease8.jsonl"

cli diff "$GOLDEN/expiry-takeover.jsonl" "$WORK/lease8.jsonl"
expect_rc 1 "diff of two different traces"
expect_out "first divergence" "diff names the first divergence on stdout"

cli run "$PRESET" --set defaults.leese=8
expect_rc 2 "--set with a misspelt key"
expect_err "/defaults/leese" "--set error names the JSON path"
expect_err "did you mean \"lease\"" "--set error suggests the key"
expect_out_empty "--set error"

cli run "$PRESET" --set defaults.lease
expect_rc 2 "--set without '='"
expect_err "PATH=VALUE" "--set without '=' explains the form"

cli run "$PRESET" --set candidates/7/start=1
expect_rc 2 "--set with an index out of range"
expect_err "out of range" "--set index error says out of range"

cli run "$PRESET" --until 5
expect_rc 0 "run --until 5"
last=$(tail -n 1 "$WORK/out")
check_that "--until 5 ends at tick 5" test "$(json_field end_tick "$last")" = 5
check_that "--until 5 leaves node-a unfinished" grep -q '"result":"unfinished"' <(printf '%s\n' "$last")
check_that "--until 5 emits no event after tick 5" \
  test "$(grep '"type":"event"' "$WORK/out" | sed 's/.*"tick":\([0-9]*\),.*/\1/' | sort -n | tail -n 1)" -le 5

# ---- validate -------------------------------------------------------------

cli validate "${presets[@]}"
expect_rc 0 "validate every preset"
check_that "validate prints one ok line per preset" test "$(grep -c '^ok ' "$WORK/out")" -eq "${#presets[@]}"

bad_files=("$SRC"/tests/bad_scenarios/*.json)
check_that "there are bad scenario fixtures" test -e "${bad_files[0]}"
for file in "${bad_files[@]}"; do
  name=$(basename "$file")
  where=$(sed -n 's|^// expect: *||p' "$file" | head -n 1)
  if [ -z "$where" ]; then
    check_that "$name has a '// expect: WHERE' line" false
    continue
  fi
  cli validate "tests/bad_scenarios/$name"
  expect_rc 2 "validate $name"
  expect_out_empty "validate $name"
  expect_err "$name" "validate $name names the file"
  case $where in
    /*) expect_err "$name: $where: " "validate $name names the JSON path $where" ;;
    *) expect_err "$name:$where: JSON syntax error" "validate $name names line:column $where" ;;
  esac
done

# Time on the wire (model.md §16): run reports the late write with "sent";
# live refuses the scenario before touching Redis (the port is never used),
# naming the key, because its driver does not hold messages.
cat >"$WORK/delay.json" <<'JSON'
{ "name": "delay", "defaults": { "wait": 4, "lease": 5 },
  "candidates": [ { "name": "node-a", "action": 3, "writes": [2] }, { "name": "node-b", "start": 1, "action": 4 } ],
  "faults": [ { "kind": "delay", "node": "node-a", "at": 0, "ticks": 5, "link": "write", "extra": 8 } ] }
JSON
cli run "$WORK/delay.json"
expect_rc 0 "run a scenario with a delay"
expect_out '"op":"write","token":' "run with a delay writes its events"
expect_out ',"sent":2}' "the late write says when it was sent"
# Time on the wire runs live (model.md §13.7): not refused as input, so with
# no server there the run fails at the connection (exit 3), not at exit 2.
cli live "$WORK/delay.json" --redis redis://127.0.0.1:1
expect_rc 3 "live runs a delay (no server: exit 3, not refused)"
expect_err "cannot connect" "live with a delay goes on to connect"
cli live "$WORK/delay.json" --redis redis://127.0.0.1:1 --set network.reply=1 --set faults=[]
expect_rc 3 "live runs a latency (no server: exit 3, not refused)"

# Replicas (model.md §17): the trace is format /3, diff reads it back, and the
# text view tells link cuts, a promotion, WAIT's count and the old primary.
cat >"$WORK/replicas.json" <<'JSON'
{ "name": "replicas", "horizon": 40, "store": { "replicas": 2, "min_replicas_to_write": 1 },
  "defaults": { "wait": 6, "lease": 8, "action": 4 },
  "candidates": [ { "name": "a", "wait_replicas": 1 }, { "name": "b", "start": 5, "wait_replicas": 2 },
                  { "name": "c", "start": 12 }, { "name": "d", "start": 22 } ],
  "faults": [ { "kind": "replica_link", "replica": 1, "at": 2, "ticks": 8 },
              { "kind": "replica_link", "replica": 2, "at": 3, "ticks": 2 },
              { "kind": "failover", "at": 20, "promote": 1, "lag": 3, "old_primary": { "reachable_by": ["d"], "until": 30 } } ] }
JSON
cli run "$WORK/replicas.json" --format text --trace "$WORK/replicas.jsonl"
expect_rc 0 "run a scenario with replicas"
expect_out "link to replica 1 cut" "the text view tells a link cut"
expect_out "failover: server 1 promoted, counter 3" "the text view tells a promotion and the counter it holds"
expect_out "WAIT: 2 replicas acknowledged, enough" "the text view tells WAIT's count"
expect_out "error: NOREPLICAS, too few good replicas" "the text view tells a min-replicas refusal"
expect_out "acquired slot 0 (server 0)" "the text view names the old primary that answered"
check_that "a scenario with replicas writes format /3" grep -q '"format":"leasescope-trace/3"' "$WORK/replicas.jsonl"
cli diff "$WORK/replicas.jsonl" "$WORK/replicas.jsonl"
expect_rc 0 "diff reads a /3 trace back"

# An imported history (model.md §19.7): diff reads a /4 trace, its rows show
# the wall clock (UTC), and a /3 file with the import object is refused.
H4="$SRC/tests/data/trace/imported-history.jsonl"
cli diff "$H4" "$H4"
expect_rc 0 "diff reads a /4 trace back"
expect_out "identical (8 events)" "diff of a /4 trace with itself"
sed 's/"wall_us":1796376600150123/"wall_us":1796376600151123/' "$H4" >"$WORK/h4b.jsonl"
h4=$(grep '"type":"event"' "$WORK/h4b.jsonl" | sha256sum | cut -c1-64)
sed -i "s/\"trace_sha256\":\"[0-9a-f]*\"/\"trace_sha256\":\"$h4\"/" "$WORK/h4b.jsonl"
cli diff "$H4" "$WORK/h4b.jsonl"
expect_rc 1 "diff of two /4 traces whose wall clocks differ"
expect_out "first divergence at event 3" "diff names the /4 event"
expect_out "  B     1  09:30:00.151  -            undecided" "the /4 rows show the wall clock"
sed 's#leasescope-trace/4#leasescope-trace/3#' "$H4" >"$WORK/h4as3.jsonl"
cli diff "$WORK/h4as3.jsonl" "$H4"
expect_rc 2 "a /3 trace with an import object"
expect_err "h4as3.jsonl:1: the key \"import\" is not in format \"leasescope-trace/3\"" "the /4 key is refused in /3, naming the line"
cli validate "$WORK/replicas.json" --set faults/2/lag=21
expect_rc 2 "--set reaches a failover's lag"
expect_err "replicas.json: /faults/2/lag: lag 21 reaches before tick 0" "the set lag is checked"
cli validate "$WORK/replicas.json" --set store.replicas=0
expect_rc 2 "--set store.replicas=0 leaves the replica keys without replicas"
expect_err "/faults/0/replica: a replica_link needs a store with replicas" "each key that needs replicas says so"

# Several files: every one is reported, and the good one still says ok.
cli validate "$PRESET" tests/bad_scenarios/typo-in-candidate-key.json tests/bad_scenarios/trailing-comma.json
expect_rc 2 "validate with one good and two bad files"
expect_out "ok   $PRESET" "the good file is still reported ok"
expect_err "typo-in-candidate-key.json" "the first bad file is reported"
expect_err "trailing-comma.json" "the second bad file is reported"

cli validate "$WORK/does-not-exist.json"
expect_rc 2 "validate of a missing file"
expect_err "does-not-exist.json" "missing file is named"
expect_out_empty "validate of a missing file"
cli run "$WORK/does-not-exist.json"
expect_rc 2 "run of a missing file"
expect_out_empty "run of a missing file"

# ---- check ----------------------------------------------------------------

cli check
expect_rc 0 "check of every preset against tests/golden"
check_that "check prints one ok line per preset" test "$(grep -c '^ok ' "$WORK/out")" -eq "${#presets[@]}"

cli check "$PRESET" --golden "$GOLDEN"
expect_rc 0 "check of one preset"

# A tampered golden that is still a well-formed trace: one event edited and
# the summary's hash recomputed, so check must report a divergence (exit 1),
# not a broken file (exit 2).
mkdir "$WORK/tampered"
cp "$GOLDEN"/*.jsonl "$WORK/tampered/"
t=$WORK/tampered/expiry-takeover.jsonl
sed -i '6s/"fencing":2/"fencing":7/' "$t"
h=$(sed '1d;$d' "$t" | sha256sum | cut -d' ' -f1)
sed -i "\$s/\"trace_sha256\":\"[0-9a-f]*\"/\"trace_sha256\":\"$h\"/" "$t"
check_that "the tampered golden differs from the real one" not cmp -s "$t" "$GOLDEN/expiry-takeover.jsonl"
cli diff "$t" "$t"
expect_rc 0 "the tampered golden is still a valid trace"
cli check "$PRESET" --golden "$WORK/tampered"
expect_rc 1 "check against a tampered golden"
expect_err "FAIL" "check says FAIL"
expect_err "first divergence at event 4 (tick 6, phase acquire)" "check names the first divergent event"
cli check --golden "$WORK/tampered"
expect_rc 1 "check of every preset with one tampered golden"
check_that "the other presets still pass" test "$(grep -c '^ok ' "$WORK/out")" -eq $((${#presets[@]} - 1))

mkdir "$WORK/empty-golden"
cli check "$PRESET" --golden "$WORK/empty-golden"
expect_rc 1 "check without a golden file"
expect_err "--update" "a missing golden suggests --update"

cli check tests/bad_scenarios/typo-in-candidate-key.json
expect_rc 2 "check of a bad scenario is bad input"

# ---- check --update ----------------------------------------------------------

mkdir "$WORK/update"
cli check --golden "$WORK/update" --update
expect_rc 0 "check --update of every preset into an empty folder"
check_that "--update wrote one file per preset" test "$(find "$WORK/update" -name "*.jsonl" | wc -l)" -eq "${#presets[@]}"
check_that "--update left no temporary files" test -z "$(find "$WORK/update" -name '*.tmp')"
for file in "${presets[@]}"; do
  name=$(basename "$file" .json)
  check_that "--update wrote $name.jsonl equal to the golden" cmp -s "$WORK/update/$name.jsonl" "$GOLDEN/$name.jsonl"
done
cli check --golden "$WORK/update"
expect_rc 0 "check against freshly updated goldens"

# Writing fails: into a missing folder, and onto a path that is a folder. No
# temporary file may be left behind, and the file before it stays whole.
cli check "$PRESET" --golden "$WORK/missing-folder" --update
expect_rc 4 "check --update into a missing folder"
check_that "nothing was created for the missing folder" test ! -e "$WORK/missing-folder"

mkdir -p "$WORK/blocked/contention.jsonl"
cli check "$PRESET" scenarios/contention.json --golden "$WORK/blocked" --update
expect_rc 4 "check --update onto a folder"
expect_err "contention.jsonl" "the failed write names its file"
check_that "the earlier file was written whole" cmp -s "$WORK/blocked/expiry-takeover.jsonl" "$GOLDEN/expiry-takeover.jsonl"
check_that "no temporary file is left after a failed write" test -z "$(find "$WORK/blocked" -name '*.tmp*')"

# ---- diff of corrupted traces --------------------------------------------
# Each corruption of the golden must be refused as bad input (exit 2) with
# the file and the line number on stderr, and nothing on stdout.

g=$GOLDEN/expiry-takeover.jsonl
total=$(wc -l <"$g")
sed '3s/"fencing":1/"fencing":2/' "$g" >"$WORK/bad-hash.jsonl"
head -n 10 "$g" >"$WORK/truncated.jsonl"
sed '4s/"tick":6,/"tick": 6,/' "$g" >"$WORK/spacing.jsonl"
sed '4s/"tick":6,"seq":2,/"seq":2,"tick":6,/' "$g" >"$WORK/key-order.jsonl"
for spec in "bad-hash:$total" "truncated:10" "spacing:4" "key-order:4"; do
  name=${spec%%:*}
  line=${spec##*:}
  cli diff "$g" "$WORK/$name.jsonl"
  expect_rc 2 "diff of a trace with $name"
  expect_err "$name.jsonl:$line:" "diff of a trace with $name names line $line"
  expect_out_empty "diff of a trace with $name"
done
cli diff "$g" "$WORK/does-not-exist.jsonl"
expect_rc 2 "diff of a missing trace"

# explain: the words of the app's "Explain this tick" panel, in both languages.
cli explain "$SRC/scenarios/watchdog-pause.json" --tick 12
expect_rc 0 "explain watchdog-pause --tick 12"
expect_out "Tick 12 · write · node-a" "explain heads each event of the tick"
expect_out "no write with it has reached the resource yet" "explain tells why check fencing accepted the stale write"
expect_out "At the end of tick 12:" "explain ends with the state at the end of the tick"
expect_err_empty "explain"
cli explain "$SRC/scenarios/failover-fencing-regressed.json" --tick 8 --lang ko
expect_rc 0 "explain --lang ko"
expect_out "카운터가 뒤로 갔고" "explain in Korean tells that the counter went backwards"
cli explain --tour-step 3
expect_rc 0 "explain --tour-step 3 without a scenario"
expect_out "3 · Results" "explain --tour-step prints the step's title"
cli explain "$PRESET" --tick 999
expect_rc 2 "explain past the end of the run"
expect_err "ends at tick" "explain past the end names the last tick"
cli explain "$PRESET"
expect_rc 2 "explain without --tick"
cli explain --tour-step 99
expect_rc 2 "explain of a tour step that does not exist"
# ---- every error at once, machine-readable results, the schema -------------

# Three mistakes in three places, written faults-first: all three are
# reported, in file order, with their count.
cat >"$WORK/three.json" <<'JSON'
// three mistakes
{
  "faults": [ { "kind": "pause", "node": "c", "at": 1, "ticks": 2 } ],
  "name": "three mistakes",
  "defaults": { "wait": 1, "lease": 5, "action": 3 },
  "candidates": [ { "name": "a", "leese": 4 }, { "name": "b" } ]
}
JSON
cli validate "$WORK/three.json"
expect_rc 2 "validate of a file with three mistakes"
expect_err "three.json: /faults/0/node: unknown node" "the first mistake is named"
expect_err "three.json: /name: expected letters" "the second mistake is named"
expect_err "three.json: /candidates/0/leese: unknown key" "the third mistake is named"
expect_err "three.json: 3 errors" "the count is given"
check_that "the errors are in file order" \
  test "$(grep -o '/faults/0/node\|/name:\|/candidates/0/leese' "$WORK/err" | tr '\n' ' ')" = "/faults/0/node /name: /candidates/0/leese "
check_that "a misspelt key is not also reported missing" test "$(grep -c '^error:' "$WORK/err")" -eq 3
cli run "$WORK/three.json"
expect_err "three.json: 3 errors" "run reports every error too"
cli check "$WORK/three.json"
expect_err "three.json: 3 errors" "check reports every error too"
# A syntax error stops at the first.
printf '{ "name": "x",, "candidates": [,] }' >"$WORK/syntax.json"
cli validate "$WORK/syntax.json"
check_that "a syntax error is the only error" test "$(grep -c '^error:' "$WORK/err")" -eq 1

cli validate --format json "$PRESET" "$WORK/three.json"
expect_rc 2 "validate --format json with a bad file"
check_that "validate --format json lists the three errors" python3 -c "
import json, sys
d = json.load(open('$WORK/out'))
assert d['command'] == 'validate' and d['exit_code'] == 2
assert d['files'][0]['ok'] and d['files'][0]['name'] == 'expiry-takeover'
assert not d['files'][1]['ok'] and len(d['files'][1]['errors']) == 3
"
mkdir -p "$WORK/jgold"
cp "$GOLDEN/expiry-takeover.jsonl" "$WORK/jgold/"
"$CLI" run scenarios/contention.json --set seed=99 --trace "$WORK/jgold/contention.jsonl" >/dev/null
cli check "$PRESET" scenarios/contention.json --golden "$WORK/jgold" --format json --junit "$WORK/junit.xml"
expect_rc 1 "check --format json with one changed golden"
check_that "check --format json: one ok, one differs with its divergence" python3 -c "
import json
d = json.load(open('$WORK/out'))
assert d['passed'] == 1 and d['failed'] == 1, d
assert d['results'][0]['status'] == 'ok' and d['results'][1]['status'] == 'differs', d
assert d['results'][1]['divergence']['description'], d
"
check_that "check --junit: a valid JUnit file with one failure" python3 -c "
import xml.etree.ElementTree as ET
r = ET.parse('$WORK/junit.xml').getroot()
assert r.tag == 'testsuites' and r.get('tests') == '2', r.attrib
cases = r.findall('./testsuite/testcase')
assert [c.get('name') for c in cases] == ['expiry-takeover', 'contention']
assert cases[0].find('failure') is None and cases[1].find('failure') is not None
"
cli schema
expect_rc 0 "schema"
expect_out '"$schema": "https://json-schema.org/draft/2020-12/schema"' "schema prints a draft 2020-12 schema"
# The schema of an application log line that `import --log` reads (docs/import.md).
cli schema --import-log
expect_rc 0 "schema --import-log"
expect_out '"event"' "schema --import-log describes a log line's event"
expect_out 'https://json-schema.org/draft/2020-12/schema' "schema --import-log is a draft 2020-12 schema"
# `show`: a trace file as the text table (the golden trace of a preset here).
cli show "$GOLDEN/expiry-takeover.jsonl"
expect_rc 0 "show a trace file"
expect_out "Candidate" "show prints the table's header"
expect_out "node-b" "show prints node-b's rows"
cli show "$GOLDEN/expiry-takeover.jsonl" --marked --node node-a
expect_rc 0 "show --marked --node"
if grep -qE '^ +[0-9]+ +node-b' "$WORK/out"; then fail "show --node node-a shows a row of node-b"; else pass; fi
cli show "$GOLDEN/expiry-takeover.jsonl" --node nobody
expect_rc 2 "show --node of no such node"
expect_err "no such node" "show --node names the problem"
printf '{ "$schema": "scenario.schema.json", "name": "s", "defaults": {"wait": 1, "lease": 5, "action": 3}, "candidates": [{"name": "a"}] }' >"$WORK/with-schema.json"
cli validate "$WORK/with-schema.json"
expect_rc 0 "a scenario with \"\$schema\" is valid"

cli explore scenarios/gc-pause-no-fencing.json --max-faults 1 --jobs 1 --format json --out "$WORK/cx.json"
expect_rc 1 "explore --format json finds the counterexample"
check_that "explore --format json: one document with the counterexample" python3 -c "
import json
d = json.load(open('$WORK/out'))
assert d['command'] == 'explore' and d['found'] and d['exit_code'] == 1, d
assert d['counterexample']['file'] == '$WORK/cx.json' and d['counterexample']['explanation'].startswith('unsafe_write'), d
assert d['totals']['schedules'] == sum(l['schedules'] for l in d['levels']), d
"
# Merging states (docs/explorer.md): --no-merge gives the same answer and
# counters but ticks, merged and states; the merging search merged some runs.
for merge in merge no-merge; do
  flag=""; [ "$merge" = no-merge ] && flag="--no-merge"
  cli explore scenarios/watchdog-elector.json --property all --max-faults 2 --max-pause 4 --max-tick 40 --jobs 1 \
    --format json --out "$WORK/$merge-cx.json" $flag
  expect_rc 1 "explore $flag finds the watchdog counterexample"
  cp "$WORK/out" "$WORK/$merge.json"
done
check_that "explore --no-merge: the same answer and counters, nothing merged" python3 -c "
import json
a, b = (json.load(open('$WORK/%s.json' % m)) for m in ('merge', 'no-merge'))
same = ('schedules', 'simulated', 'pruned', 'invalid', 'failing')
assert all(a['totals'][k] == b['totals'][k] for k in same), (a['totals'], b['totals'])
assert a['totals']['merged'] > 0 and a['totals']['states'] > 0, a['totals']
assert b['totals']['merged'] == 0 and b['totals']['states'] == 0, b['totals']
assert a['totals']['ticks'] < b['totals']['ticks'], (a['totals'], b['totals'])
assert a['counterexample']['explanation'] == b['counterexample']['explanation'], (a, b)
"
cmp -s "$WORK/merge-cx.json" "$WORK/no-merge-cx.json" && pass "explore --no-merge writes the same counterexample" ||
  fail "explore --no-merge writes another counterexample"
# explore with delays and store clock jumps (docs/explorer.md): the
# counterexample file replays its violation, the budget flags are checked.
cli explore scenarios/delayed-write.json --set 'faults=[]' --fault-kinds delay:write --max-delay 8 \
  --property stale_after_successor --jobs 1 --out "$WORK/delay-cx.json"
expect_rc 1 "explore --max-delay finds a lost update with resource mode off"
expect_out "delay node-a's write to the resource sent at tick 4 by 3 more ticks" "explore --max-delay: the delay in words"
expect_out "delays 1..8 ticks on messages sent in one tick" "explore --max-delay: the budget line"
cli run "$WORK/delay-cx.json" --format text
expect_out_re "violations: .*stale_after_successor 1" "the delay counterexample replays its lost update"
cli explore scenarios/delayed-write.json --set 'faults=[]' --set resource.mode=check --fault-kinds delay:write \
  --max-delay 8 --property stale_after_successor --jobs 1 --out "$WORK/none.json"
expect_rc 0 "explore --max-delay: mode check rejects the late write, no lost update"
cli explore scenarios/watchdog-pause.json --set 'faults=[]' --fault-kinds clock_jump --max-clock-jump-ms 300 \
  --property overlap --jobs 1 --out "$WORK/jump-cx.json"
expect_rc 1 "explore --max-clock-jump-ms finds the early expiry"
expect_out_re "jump the store's clock [0-9]+ ms forward at tick" "explore --max-clock-jump-ms: the jump in words"
cli run "$WORK/jump-cx.json" --format text
expect_out "the store's clock jumps" "the clock-jump counterexample replays its jump"
expect_out_re "violations: overlap [1-9]" "the clock-jump counterexample replays its overlap"
cli explore scenarios/delayed-write.json --fault-kinds delay
expect_rc 2 "explore --fault-kinds delay without --max-delay"
expect_err "delay needs --max-delay" "the missing budget is named"
cli explore scenarios/contention.json --set horizon=5000 --max-tick 400 --max-delay 1000
expect_rc 2 "explore: a delay grid too large"
expect_err "of them delays from --max-delay 1000" "the too-large grid names --max-delay"
cli explore scenarios/contention.json --max-clock-jump-ms 20
expect_rc 2 "explore: a clock-jump grid finer than a tick"
expect_err "--max-clock-jump-ms: expected 0 or at least one tick (50 ms)" "the bad grid names --max-clock-jump-ms"

# explore on Redlock (docs/explorer.md, On Redlock): the restart lesson from
# redlock-restart without C's restart, found with none and absent with always.
RB=tests/sim/explore/redlock
cli explore $RB/redlock-restart-base.json --fault-kinds restart --max-faults 1 --jobs 1 --out "$WORK/rl-cx.json"
expect_rc 1 "explore on Redlock finds a restart without persistence"
expect_out "restart store A for 1 tick at tick 25 (persistence none)" "explore on Redlock: the restart in words"
expect_out "checking: unsafe_write,liveness;" "explore on Redlock: its default properties"
cli run "$WORK/rl-cx.json" --format text
expect_out_re "violations: overlap 1, unsafe_write 1" "the Redlock counterexample replays its unsafe write"
cli explore $RB/redlock-restart-base.json --fault-kinds restart:always --max-faults 1 --jobs 1 --out "$WORK/none.json"
expect_rc 0 "explore on Redlock: a store that keeps its key (always) is never made to forget it"
expect_out "no counterexample: every schedule with up to 1 added fault of restart:always holds" \
  "explore on Redlock: the kinds searched are named"
cli explore $RB/redlock-restart-base.json --property fencing_regressed
expect_rc 2 "explore on Redlock: a fencing property is refused"
expect_err "fencing_regressed can never fail on a Redlock scenario" "the refusal says why"
cli explore $RB/redlock-restart-base.json --fault-kinds failover
expect_rc 2 "explore on Redlock: a failover is refused"
expect_err "the explorer adds no failover to a Redlock scenario" "the refused kind is named"
cli explore $RB/redlock-restart-base.json --fault-kinds pause,failover:promote
expect_rc 2 "explore on Redlock: a narrowed failover is refused too"
expect_err "the explorer adds no failover to a Redlock scenario" "the refused kind is named by its family"
cli explore scenarios/contention.json --fault-kinds restart
expect_rc 2 "explore: a restart needs a Redlock scenario"
expect_err "restart is a Redlock store's fault" "the restart refusal says why"

# What a search proved, one line (docs/explorer.md, What was proved): the
# budget it covered when nothing failed; in random mode, nothing beyond the draws.
cli explore scenarios/gc-pause-no-fencing.json --set 'faults=[]' --set resource.mode=check --max-faults 1 \
  --fault-kinds pause --property safety --jobs 1 --out "$WORK/none.json"
expect_rc 0 "explore --property safety: a fenced resource survives one pause"
expect_out "checking: unsafe_write,fencing_regressed,stale_after_successor,holder_rejected,fencing_duplicate;" \
  "explore --property safety names the five properties"
expect_out_re "^proved: no schedule with at most 1 added fault \(pause; pauses 1\.\.8 ticks; faults starting at ticks 0\.\.[0-9]+; orders: as given \+ 2 shuffled\) leads to unsafe_write, fencing_regressed, stale_after_successor, holder_rejected or fencing_duplicate$" \
  "explore: the proved line names the budget and the properties"
cli explore scenarios/gc-pause-no-fencing.json --set 'faults=[]' --seeds 50 --seed 3 --max-faults 1 \
  --fault-kinds crash --property unsafe_write --jobs 1 --out "$WORK/none.json"
expect_out "proved: no counterexample among 50 drawn schedules (seed 3); the rest of the budget was not searched" \
  "explore random mode proves nothing beyond its draws"
cli explore scenarios/failover-lost-lock.json --set 'faults=[]' --fault-kinds failover:all --property safety \
  --jobs 1 --format json --out "$WORK/safety-cx.json"
expect_rc 1 "explore --property safety: a fenced failover that loses everything fails it"
check_that "explore --format json: proved and minimize fields" python3 -c "
import json
d = json.load(open('$WORK/out'))
assert d['proved'].startswith('proved: 1 added fault of total magnitude 0 ticks leads to '), d['proved']
assert 'fencing_duplicate' in d['proved'] and d['minimize'] is None, d
"
cli explore scenarios/gc-pause-no-fencing.json --property unsafe_writes
expect_rc 2 "explore: an unknown property"
expect_err 'unknown property "unsafe_writes"' "the unknown property is named"
expect_err "safety" "the error lists safety among the properties"

# Start ticks on a grid (docs/explorer.md): the fenced practitioner-small
# with two pauses, faults starting every 250 ms (5 ticks); the header and the
# proved line say which starts were searched; a step that is not whole ticks,
# or none, is refused naming the flag.
cli explore tests/data/explore/practitioner-small.json --set resource.mode=check --max-faults 2 --fault-kinds pause \
  --max-pause 8 --property safety --shuffles 0 --start-every 250ms --jobs 2
expect_rc 0 "explore --start-every: a fenced resource survives two pauses starting every 250 ms"
expect_out_re "faults start at ticks 0\.\.[0-9]+ every 5 ticks \(250ms\)$" "explore --start-every: the header names the step"
expect_out_re "^proved: no schedule with at most 2 added faults \(pause; pauses 1\.\.8 ticks; faults starting at ticks 0\.\.[0-9]+ every 5 ticks \(250ms\); orders: as given\) leads to unsafe_write" \
  "explore --start-every: the proved line covers only those starts"
cli explore tests/data/explore/practitioner-small.json --start-every 130ms
expect_rc 2 "explore --start-every: not a whole number of ticks"
expect_err '--start-every: "130ms" is not a whole number of 50 ms ticks: the nearest are 2 ticks (100ms) and 3 ticks (150ms)' \
  "the off-tick step names the flag and the nearest ticks"
cli explore tests/data/explore/practitioner-small.json --start-every 0
expect_rc 2 "explore --start-every 0"
expect_err "--start-every: expected 1 to" "the empty step is refused"

# explore --minimize (docs/explorer.md, The smallest fault that breaks it).
cli explore tests/data/explore/practitioner-small.json --minimize --fault-kinds pause,crash --max-pause 45 \
  --shuffles 0 --property overlap --jobs 2 --format json
expect_rc 1 "explore --minimize finds the shortest pause"
check_that "explore --minimize --format json: one entry per kind, with its proof" python3 -c "
import json
d = json.load(open('$WORK/out'))
assert d['mode'] == 'minimize' and d['found'] and d['exit_code'] == 1 and d['max_faults'] == 1, d
pause, crash = d['minimize']
assert pause['kind'] == 'pause' and pause['threshold'] == 40 and pause['threshold_ms'] == 2000, pause
assert pause['counterexample']['faults'] == ['pause worker-1 for 40 ticks at tick 20'], pause
assert pause['proved'].startswith('proved: no pause of 1..39 ticks (faults starting at ticks 0..'), pause
assert crash['kind'] == 'crash' and not crash['sized'] and crash['threshold'] is None, crash
assert d['proved'].startswith('proved: the smallest single fault of each kind'), d['proved']
"
expect_err "pause: 40 ticks (2 s) breaks it: pause worker-1 for 40 ticks at tick 20" "explore --minimize in words"
check_that "explore --minimize with --max-pause: the sizes given, not scaled" sh -c "! grep -q 'sizes: scaled' '$WORK/err'"
# Without --max-pause or a --grid of pauses or partitions, the sizes are
# scaled to the scenario (docs/explorer.md, Sizes scaled to the scenario).
cli explore tests/data/explore/practitioner-small.json --minimize --fault-kinds pause --property overlap --shuffles 0 \
  --jobs 2
expect_rc 1 "explore --minimize without sizes finds the shortest pause on the scenario's grid"
expect_out "  budget: one fault at a time of pause; on the grid pause=50ms..6s (8 sizes); orders: as given" \
  "explore --minimize without sizes: pauses on the grid up to the longest action, partitions not searched"
expect_out "  sizes: scaled to the scenario, pauses and partitions up to its longest lease, action or wait (6s, 120 ticks), on the grid; --max-pause or --grid sets them" \
  "explore --minimize says the sizes were scaled and how to set them"
expect_out "pause: 40 ticks (2 s) breaks it: pause worker-1 for 40 ticks at tick 20" \
  "explore --minimize without sizes: the same 40 ticks"
cli explore scenarios/expiry-takeover.json --minimize --property overlap --jobs 1
expect_rc 1 "explore --minimize on a base that fails on its own"
expect_out "the base fails with no added fault: overlap" "explore --minimize says the base fails"
expect_out "proved: the base leads to overlap with no added fault" "explore --minimize: nothing to minimize"
cli explore tests/data/explore/practitioner-small.json --minimize --seeds 10
expect_rc 2 "explore --minimize refuses random mode"
expect_err "--minimize cannot be combined with random mode" "the refused combination is named"
cli explore tests/data/explore/practitioner-small.json --minimize --max-faults 2
expect_rc 2 "explore --minimize refuses more than one fault"
expect_err "one added fault at a time" "the refused --max-faults is explained"
cli explore tests/data/explore/practitioner-small.json --minimize --shard 0/2
expect_rc 2 "explore --minimize refuses --shard"

# explore --time-limit and Ctrl-C (docs/explorer.md, Long searches): the
# practitioner's fenced question at its full scale (a 20-minute horizon, two
# pauses on the grid) takes hours; stopped part way, the search says what it
# finished, how far it came, claims nothing more, and exits 6.
long_search=(explore tests/data/explore/practitioner.json --set horizon=24000 --set resource.mode=check
  --max-faults 2 --fault-kinds pause --grid pause=100ms..60s --property safety --shuffles 0 --jobs 1)
cli "${long_search[@]}" --time-limit 500ms
expect_rc 6 "explore --time-limit stops a long search (exit 6: none found in the part searched)"
expect_out "  budget: up to 2 faults of pause; on the grid pause=100ms..1m (10 sizes); orders: as given; 114030 single" \
  "the budget names the grid's pauses only (no 1..8 ticks for pauses on a grid)"
expect_out "  0 faults: 1 schedule: 1 simulated, 0 pruned, 0 invalid, 0 failing" "the finished level is printed"
expect_out_re "^  1 fault, searched in part: [0-9]+ schedules: " "the level it was stopped in is marked"
expect_out_re "^stopped at the time limit \(500ms\) while searching 1 fault: [0-9.e+-]+ % of its 114030 schedules in " \
  "where the search stopped and how far it came"
expect_out "  to search all of it: --shard K/N on N machines (or cores), then explore-merge" \
  "a stopped search says how to search all of it"
expect_out "no counterexample in the part searched" "no claim beyond the part searched"
expect_out "proved: no schedule with no added fault (orders: as given) leads to unsafe_write, fencing_regressed, \
stale_after_successor, holder_rejected or fencing_duplicate; schedules with 1 added fault were searched only in part \
(the search was stopped)" "the proved line claims the finished level only"
cli "${long_search[@]}" --time-limit 500ms --format json
expect_rc 6 "explore --time-limit --format json"
check_that "explore --format json: complete false, stopped time_limit, exit_code 6" python3 -c "
import json
d = json.load(open('$WORK/out'))
assert d['complete'] is False and d['stopped'] == 'time_limit' and d['exit_code'] == 6 and not d['found'], d
assert d['levels'][0]['schedules'] == 1 and len(d['levels']) == 2, d['levels']
"
cli explore tests/data/explore/practitioner-small.json --max-faults 1 --shuffles 0 --format json \
  --out "$WORK/finished.json"
check_that "explore --format json: a finished search is complete, not stopped" python3 -c "
import json
d = json.load(open('$WORK/out'))
assert d['complete'] is True and d['stopped'] is None, d
"
check_that "Ctrl-C stops explore part way: it says so and exits 6" python3 - "$CLI" "${long_search[@]}" <<'EOF'
import signal, subprocess, sys
p = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE, text=True)
seen = []
for line in p.stdout:  # the watch is up once level 0's line is out
    seen.append(line)
    if line.startswith('  0 faults:'):
        break
p.send_signal(signal.SIGINT)
rest, _ = p.communicate(timeout=120)
out = ''.join(seen) + rest
assert p.returncode == 6, (p.returncode, out)
assert '  1 fault, searched in part: ' in out and '\nstopped by Ctrl-C while searching 1 fault: ' in out, out
assert 'schedules with 1 added fault were searched only in part' in out, out
EOF
cli explore tests/data/explore/practitioner-small.json --time-limit 10
expect_rc 2 "explore --time-limit without a unit"
expect_err 'error: --time-limit: expected a duration above zero such as 90s, 10m or 2h, found "10"' \
  "the bad --time-limit is named with what was expected"
cli explore tests/data/explore/practitioner-small.json --time-limit 0s
expect_rc 2 "explore --time-limit 0s"
cli explore tests/data/explore/practitioner-small.json --time-limit 1m --shard 0/2
expect_rc 2 "explore --time-limit refuses --shard"
expect_err "it cannot be combined with --shard (a shard's result must be whole)" "the refused --shard is named"
cli explore tests/data/explore/practitioner-small.json --time-limit 1m --seeds 10
expect_rc 2 "explore --time-limit refuses random mode"
expect_err "it cannot be combined with random mode (its budget is --seeds)" "the refused random mode is named"
expect_out_empty "explore --time-limit with random mode prints no seed before refusing"
cli explore tests/data/explore/practitioner-small.json --time-limit 1m --minimize
expect_rc 2 "explore --time-limit refuses --minimize"
expect_err "it cannot be combined with --minimize" "the refused --minimize is named"

# explore on Redisson (docs/explorer.md, On Redisson): the practitioner's
# question under Redisson's watchdog, its counterexample told as Redisson's,
# and the kinds and properties Redisson cannot have refused.
cli explore tests/data/explore/practitioner-redisson.json --minimize --fault-kinds pause --grid pause=100ms..60s \
  --property overlap --jobs 2
expect_rc 1 "explore --minimize on Redisson finds the shortest pause"
expect_out "pause: 400 ticks (20 s) breaks it: pause worker-1 for 400 ticks at tick 200" \
  "explore --minimize on Redisson: 20 s with lockWatchdogTimeout 30 s"
cli explore tests/sim/explore/redisson/watchdog-redisson-base.json --fault-kinds pause --grid pause=100ms..60s \
  --max-tick 300 --jobs 1 --out "$WORK/redisson-cx.json"
expect_rc 1 "explore on Redisson finds the watchdog's pause"
expect_out "is accepted while node-b holds the lock (taken at tick 760); Redisson's lock gives no number" \
  "a Redisson counterexample names the holder, not a fencing number"
expect_out "(open it in the app, or: leasescope-cli run $WORK/redisson-cx.json --format text)" \
  "a Redisson counterexample opens in the app, as every other"
cli run "$WORK/redisson-cx.json" --format text
expect_rc 0 "the Redisson counterexample runs"
expect_out "unsafe_write 1" "the Redisson counterexample fails as said"
cli explore tests/sim/explore/redisson/watchdog-redisson-base.json --fault-kinds delay --max-delay 2
expect_rc 2 "explore refuses a delay on Redisson"
expect_err "the explorer adds no delay to a Redisson scenario" "the refused kind is named"
cli explore tests/sim/explore/redisson/watchdog-redisson-base.json --property safety
expect_rc 2 "explore refuses a fencing property on Redisson"
expect_err "can never fail on a Redisson scenario (Redisson issues no fencing number" "the refusal says why"

# generate --replication: a scenario with replicas that runs (a trace of format /3).
cli generate --candidates 5 --horizon 200 --seed 3 --replication
expect_rc 0 "generate --replication"
expect_out '"store": { "replicas": ' "generate --replication: the store has replicas"
expect_out '"promote": ' "generate --replication: the failover promotes"
cp "$WORK/out" "$WORK/replicated.json"
cli run "$WORK/replicated.json" --format text
expect_rc 0 "a generated replication scenario runs"

# generate --client redlock (model.md §20.9): a Redlock scenario that runs, the
# same bytes for a seed; the elector's size options are refused with it.
cli generate --client redlock --seed 7
expect_rc 0 "generate --client redlock"
expect_out '"client": "redlock",' "generate --client redlock: a Redlock scenario"
expect_out '"retry_jitter_ms": 0,' "generate --client redlock: no jitter (the real package draws it)"
cp "$WORK/out" "$WORK/redlock-generated.json"
cli generate --client redlock --seed 7
check_that "generate --client redlock: one seed, one text" cmp -s "$WORK/out" "$WORK/redlock-generated.json"
cli run "$WORK/redlock-generated.json" --set tick_ms=100
expect_rc 0 "a generated Redlock scenario runs at 100 ms ticks"
expect_out '"format":"leasescope-trace/5"' "a generated Redlock scenario gives a /5 trace"
cli generate --client redlock --candidates 3
expect_rc 2 "generate --client redlock refuses --candidates"
expect_err "--client redlock draws its own stores" "the refused --candidates is explained"

# explore on a store with replicas (docs/explorer.md, With replicas): a
# lagging promotion issues a number twice; with no lag it takes a cut link.
cli explore scenarios/failover-fencing-tie.json --set 'faults=[]' --fault-kinds failover:promote \
  --property fencing_duplicate --jobs 1 --out "$WORK/promote-cx.json"
expect_rc 1 "explore --fault-kinds failover:promote finds a duplicate number"
expect_out "fail the store over at tick 1, promoting server 1, 1 tick behind the primary" "explore: the promotion in words"
expect_out "promotions lagging 0..2 ticks" "explore: the budget line names the lag"
cli run "$WORK/promote-cx.json" --format text
expect_out "DUPLICATE FENCING" "the promotion counterexample replays its duplicate"
cli explore scenarios/failover-fencing-tie.json --set 'faults=[]' --fault-kinds replica_link,failover --max-lag 0 \
  --property fencing_duplicate --jobs 1 --out "$WORK/cut-cx.json"
expect_rc 1 "explore --max-lag 0: a cut link and a promotion"
expect_out "cut the link between the primary and replica server 1 for" "explore: the cut in words"
cli explore scenarios/failover-fencing-tie.json --set 'faults=[]' --fault-kinds replica_link --max-faults 1 \
  --property fencing_duplicate --jobs 1 --out "$WORK/none.json"
expect_rc 0 "explore: a cut link alone issues no number twice"
expect_out "every schedule with up to 1 added fault of replica_link holds (fencing_duplicate checked)" \
  "explore: what it proved names the kinds searched"
cli explore scenarios/failover-fencing-tie.json --fault-kinds failover:leases
expect_rc 2 "explore: a failover that loses, on a store with replicas"
expect_err "failover:leases is for a store without replicas" "the kind the store cannot have is named"
cli explore scenarios/contention.json --fault-kinds replica_link
expect_rc 2 "explore: replica_link without replicas"
expect_err "replica_link needs a store with replicas" "the kind the store cannot have is named"
cli explore scenarios/contention.json --fault-kinds pause,failover:promote
expect_rc 2 "explore: a promoting failover without replicas"
expect_err "failover:promote needs a store with replicas" "the kind the store cannot have is named"
cli explore scenarios/contention.json --fault-kinds failover --max-faults 1 --out "$WORK/failover-any.json"
expect_rc 1 "explore: failover, not narrowed, means the failovers the store has (it finds one)"
cli explore scenarios/contention.json --fault-kinds clock_jump:back
expect_rc 2 "explore: a clock jump without its budget"
expect_err "clock_jump needs --max-clock-jump-ms" "the missing budget is named"
cli explore scenarios/contention.json --fault-kinds all --max-faults 1 --out "$WORK/all-kinds.json"
expect_rc 1 "explore: all stands for the kinds the store and the budget allow, and is never refused"
cli explore scenarios/failover-fencing-tie.json --set horizon=100000 --max-tick 90000 --max-link-cut 100
expect_rc 2 "explore: a link-cut grid too large"
expect_err "of them link cuts from --max-link-cut 100" "the too-large grid names --max-link-cut"

cli bench --quick --candidates 10 --horizon 1000
expect_rc 0 "bench"
expect_out_re "^leasescope-cli bench: [A-Za-z]+ build(, profile-guided \\(tools/pgo.sh\\))?; seed 1," \
  "bench names the build its figures come from"
cli bench --quick --candidates 10 --horizon 1000 --format json
expect_rc 0 "bench --format json"
check_that "bench --format json: one document with the figures" python3 -c "
import json
d = json.load(open('$WORK/out'))
assert d['command'] == 'bench' and d['simulations'][0]['candidates'] == 10 and d['simulations'][0]['events'] > 0, d
assert d['simulations'][0]['core_passes'] == 5, d['simulations'][0]  # a pass of 1,000 ticks is short: all five run
assert d['store_ops_per_cpu_s'] > 0 and d['trace_read_mb_per_cpu_s'] > 0, d
assert d['build']['type'] != '' and d['build']['pgo'] in ('off', 'use', 'generate'), d['build']
e = d['explore']
assert e['schedules'] > e['simulated'] >= e['merged'] > 0 and e['states'] > 0 and e['states_per_cpu_s'] > 0, e
"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

#!/usr/bin/env bash
# Lists every function in engine/, sim/ and app/ longer than 70 lines, with
# its length, as clang-tidy's readability-function-size measures it (lines of
# the definition, blank lines and comments included), and fails when one is
# not in tools/function_length_debt.txt or has grown past the length written
# there. The debt file lists the long functions the project still has to
# split; it may only shrink (a split function whose line stays there is
# reported, so the file is kept exact).
# It also proves that every source file of engine/, sim/ and app/ compiles
# by itself: clang-tidy parses each one alone, as a build without unity
# batches would, so an include that a file only gets from a neighbour in its
# batch fails here, naming the file and the error. (The builds of ./test.sh
# and tools/full.sh compile in unity batches. The test programs' files are
# not parsed here: that would take about two minutes more of the 45 of
# ./test.sh --full; the dev preset compiles them alone.)
# Usage: tools/function_length.sh [BUILD_DIR (default build/tidy)]
#   The build folder is configured here (not built) without unity batches or
#   precompiled headers, so that compile_commands.json names every source.
#   LEASESCOPE_TIDY=clang-tidy-14 (default) chooses the clang-tidy to run,
#   FULL_JOBS (2) how many at once.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/tidy}
tidy=${LEASESCOPE_TIDY:-clang-tidy-14}
command -v "$tidy" >/dev/null || tidy=clang-tidy
limit=70
debt=tools/function_length_debt.txt

cmake -S . -B "$build" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON -DCMAKE_UNITY_BUILD=OFF \
  -DCMAKE_DISABLE_PRECOMPILE_HEADERS=ON -DCMAKE_BUILD_TYPE=Release >/dev/null
sources=$(python3 - "$build/compile_commands.json" "$PWD" <<'PY'
import json, os, sys
root = sys.argv[2]
for entry in json.load(open(sys.argv[1])):
    path = os.path.relpath(os.path.join(entry["directory"], entry["file"]), root)
    if path.split("/")[0] in ("engine", "sim", "app"):
        print(path)
PY
)
config="{CheckOptions: [{key: readability-function-size.LineThreshold, value: $limit}]}"
found=$(mktemp)
raw=$(mktemp)
trap 'rm -f "$found" "$raw"' EXIT
# clang-tidy exits with an error when a file does not compile; what it
# printed is read below, so its status is kept for the case it printed nothing.
tidy_status=0
# shellcheck disable=SC2086
printf '%s\n' $sources | sort -u | xargs -P "${FULL_JOBS:-2}" -n 4 \
  "$tidy" -p "$build" --quiet --checks='-*,readability-function-size' --config="$config" \
  --header-filter="^$PWD/(engine|sim|app)/" >"$raw" 2>/dev/null || tidy_status=$?
python3 - "$PWD" "$raw" "$found" "$tidy_status" <<'PY'
import re, sys
root, raw, found, status = sys.argv[1] + "/", sys.argv[2], sys.argv[3], int(sys.argv[4])
name = None
lengths, errors = set(), []
for line in open(raw, errors="replace"):
    e = re.match(r"(\S+):(\d+):(\d+): error: (.*)", line)
    if e:
        errors.append(f"{e.group(1).replace(root, '')}:{e.group(2)}: {e.group(4)}")
        continue
    w = re.match(r"(\S+):(\d+):\d+: warning: function .(.+). exceeds", line)
    if w:
        name = (w.group(1).replace(root, ""), w.group(3))
        continue
    n = re.match(r"\S+: note: (\d+) lines including", line)
    if n and name:
        lengths.add(f"{name[0]} {name[1]} {n.group(1)}")
        name = None
with open(found, "w") as f:
    f.write("".join(line + "\n" for line in sorted(lengths)))
if errors:
    for error in errors:
        print(f"function_length: does not compile by itself: {error}")
    sys.exit(1)
if status != 0:
    print(f"function_length: clang-tidy failed (xargs status {status}) without naming an error")
    sys.exit(1)
PY

python3 - "$found" "$debt" "$limit" <<'PY'
import sys
found_file, debt_file, limit = sys.argv[1], sys.argv[2], int(sys.argv[3])
def load(path):
    table = {}
    for line in open(path):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        head, length = line.rsplit(" ", 1)
        path_, name = head.split(" ", 1)  # a name may hold spaces: "operator()" does not, "operator new" does
        table[(path_, name)] = max(int(length), table.get((path_, name), 0))
    return table
found = load(found_file)
debt = load(debt_file)
bad = 0
for key, length in sorted(found.items()):
    if key not in debt:
        print(f"function_length: {key[0]}: {key[1]} is {length} lines (at most {limit}): split it")
        bad = 1
    elif length > debt[key]:
        print(f"function_length: {key[0]}: {key[1]} grew to {length} lines ({debt[key]} in {debt_file}): split it")
        bad = 1
for key, length in sorted(debt.items()):
    if key not in found:
        print(f"function_length: {key[0]}: {key[1]} is no longer over {limit} lines: remove its line from {debt_file}")
        bad = 1
print(f"function_length: {len(found)} functions over {limit} lines in engine/, sim/ and app/ ({len(debt)} listed as debt)")
sys.exit(bad)
PY

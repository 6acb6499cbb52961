#!/usr/bin/env bash
# Byte-identity corpus for simulator changes: prints "name sha256" of the whole
# trace (header, events, summary) of every preset and of generated scenarios
# with varied seeds, sizes, horizons, orders and faults; compare two binaries'
# lists with diff (docs/performance.md).
# --events prints each trace's event hash instead (the summary's trace_sha256:
# the event lines only), for comparing binaries whose header or summary
# differ, such as trace formats 1 and 2 (docs/model.md §12.1); the text view
# has no such hash, so its lines are left out.
# Usage: tools/trace_corpus.sh [--events] CLI [COUNT] > hashes.txt
set -euo pipefail
events=0
if [[ ${1:-} == --events ]]; then
    events=1
    shift
fi
cli=$1
count=${2:-2000}
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The hash of a trace on stdin: of the whole file, or its event hash.
hash_of() {
    if ((events)); then
        tail -n 1 | sed -n 's/.*"trace_sha256":"\([0-9a-f]*\)".*/\1/p'
    else
        sha256sum | cut -c1-64
    fi
}
for f in "$here"/scenarios/*.json; do
    name=$(basename "$f" .json)
    echo "preset/$name $("$cli" run "$f" | hash_of)"
    if ((!events)); then echo "preset-text/$name $("$cli" run "$f" --format text | sha256sum | cut -c1-64)"; fi
    echo "preset-until/$name $("$cli" run "$f" --until 7 | hash_of)"
done
for ((i = 1; i <= count; i++)); do
    cands=$(( (i * 7919) % 60 + 1 ))
    horizon=$(( 100 + (i * 104729) % 4000 ))
    order=$(( i % 2 ))
    extra=""
    if (( i % 5 == 0 )); then extra="--no-faults"; fi
    if (( i % 97 == 0 )); then cands=$(( 2000 + i )); horizon=300; fi
    "$cli" generate --candidates "$cands" --horizon "$horizon" --seed "$i" --order "$order" $extra > "$tmp/s.json"
    set_cap=()
    if (( i % 3 == 0 )); then set_cap=(--set "lock.capacity=$(( i % 7 + 1 ))"); fi
    echo "gen/$i/$cands/$horizon/$order$extra/${set_cap[*]:-} $("$cli" run "$tmp/s.json" "${set_cap[@]}" | hash_of)"
done

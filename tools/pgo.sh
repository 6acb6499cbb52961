#!/usr/bin/env bash
# A profile-guided leasescope-cli (docs/performance.md, "A profile-guided
# build"; cmake/pgo.cmake). Three steps in one build folder (build/pgo by
# default; the profile names each object by its path, so both builds must be
# made in the same folder):
#   1. configure with LEASESCOPE_PGO=generate and build leasescope-cli: the
#      engine and sim libraries count which branches and calls they take;
#   2. train: the runs below write those counts to FOLDER/pgo-profile;
#   3. configure with LEASESCOPE_PGO=use and build leasescope-cli again: GCC
#      lays out and inlines the two libraries for the paths the training took.
# The training is near what `bench` measures but not the same runs: every
# preset (`check`), `bench --quick` at seed 2 (bench's own figures are seed 1
# over 1,000,000 ticks) on 10, 1,000 and 20,000 candidates, a generated scenario with
# replicas written as a trace and read back, and one search of two pauses.
# The traces are the same as any other build's: tools/full.sh's stage pgo
# (FULL_STAGES=pgo tools/full.sh, not part of ./test.sh --full) runs this
# script and checks the golden hashes of this build.
# Usage: tools/pgo.sh [FOLDER]   (PGO_JOBS: parallel compile jobs, 2)
set -Eeuo pipefail
trap 'echo "pgo.sh: failed at line $LINENO: $BASH_COMMAND" >&2' ERR
cd "$(dirname "$0")/.."
dir="${1:-build/pgo}"
jobs="${PGO_JOBS:-2}"
mkdir -p "$dir"
profile="$(cd "$dir" && pwd)/pgo-profile"
configure() {  # configure OFF|generate|use
    cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=8 \
        -DLEASESCOPE_GUI=OFF -DLEASESCOPE_REDIS=OFF -DBUILD_TESTING=OFF \
        -DLEASESCOPE_PGO="$1" -DLEASESCOPE_PGO_DIR="$profile" >/dev/null
}

echo "pgo.sh: 1/3 an instrumented build in $dir" >&2
rm -rf "$profile"
configure generate
cmake --build "$dir" --target leasescope-cli -j "$jobs" >/dev/null

echo "pgo.sh: 2/3 training (counts in $profile; the build took $SECONDS s)" >&2
start=$SECONDS
cli="$dir/app/cli/leasescope-cli"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$cli" check --golden tests/golden >/dev/null
"$cli" bench --quick --seed 2 --candidates 10 --candidates 1000 --candidates 20000 >/dev/null
"$cli" generate --candidates 300 --horizon 100000 --seed 3 --replication >"$work/generated.json"
"$cli" validate "$work/generated.json" >/dev/null
"$cli" run "$work/generated.json" --format jsonl >"$work/generated.jsonl"
"$cli" show "$work/generated.jsonl" >/dev/null
# A search that proves its property, so that it goes on to two faults.
"$cli" explore tests/data/explore/practitioner-small.json --set resource.mode=check --property safety \
    --fault-kinds pause --max-faults 2 --max-tick 60 --shuffles 0 --jobs 1 --out "$work/counterexample.json" >/dev/null
ls "$profile"/*.gcda >/dev/null

echo "pgo.sh: 3/3 the profile-guided build (the training took $((SECONDS - start)) s)" >&2
start=$SECONDS
configure use
cmake --build "$dir" --target leasescope-cli -j "$jobs" >/dev/null
echo "pgo.sh: $cli in $((SECONDS - start)) s (leasescope-cli bench names it a profile-guided build)" >&2

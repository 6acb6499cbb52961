#!/usr/bin/env bash
# The long checks of `./test.sh --full`, run after the default suite
# in the environment test.sh prepared (redis-server and Xvfb started,
# LEASESCOPE_REDIS_URL and DISPLAY exported). Each stage is timed; every stage
# runs even when an earlier one failed, and the script fails if any did.
#   0. formatting: every C++ file as .clang-format says (tools/format.sh --check);
#      function length: no function in engine/, sim/ or app/ over 70 lines
#      but those still listed in tools/function_length_debt.txt, and none of
#      those longer than listed (tools/function_length.sh, clang-tidy), and
#      each of their files compiles by itself (clang-tidy parses it alone;
#      the builds below compile in unity batches)
#   1. sanitizers: the asan preset (Clang 14 at -O1, AddressSanitizer + UBSan,
#      in unity batches),
#      every test but the packaging ones (label "packaging": install, .deb,
#      schema), which check the package rather than the code and run in the
#      default suite, and those labelled redlock and wallclock (below). With
#      the default suite (GCC 12 Release) this runs every other test under
#      both compilers.
#   2. build types: the command-line tool of Clang 14 Release (clang-release,
#      only that target, in unity batches); the golden trace hashes of it, of
#      the Clang -O1 ASan build and of build/test (GCC 12 Release) must be
#      identical. GCC's profile-guided tool (tools/pgo.sh, build/pgo) is the
#      stage "pgo", not run by default: its two builds cost about 4 to 5
#      minutes, which the 45 minutes of `./test.sh --full` no longer hold
#      (FULL_STAGES=pgo tools/full.sh, after ./test.sh, checks it alone)
#   3. fuzzing: the six libFuzzer targets, FUZZ_SECONDS (60) each, FULL_JOBS
#      at a time, under a memory limit (FUZZ_RSS_MB, 1024 MiB of RSS with ASan's own overhead;
#      one allocation over 256 MiB is a failure too): scenario, trace,
#      override, structure (deep and long inputs built from a small program,
#      past max_len) and trace_fixed (traces whose hash is fixed up, so the
#      reader's range checks are reached)
#   4. slurm: the sharded explorer on a real batch engine: a private
#      single-node Slurm (munged, slurmctld, slurmd; Debian's slurm-wlm and
#      munge) runs two searches as job arrays of 3 shards, and explore-merge
#      of each must print, write and exit as the search in one process
#      (tests/slurm/run_sharded.sh)
#   5. redlock: every Redlock scenario through the real npm package redlock
#      4.2.0 on five loopback servers, diffed with the simulation
#      (tests/redlock/compare.sh, model.md §20.9), at ticks of 100 ms: the
#      default suite's redlock.npm runs it at 200 ms, so each TTL boundary
#      is met at a second scale; with 20 generated scenarios (seeds 6-25,
#      `leasescope-cli generate --client redlock`) where redlock.npm has 5;
#      a scenario whose durations are not whole 100 ms ticks is left out
#      (redlock.npm ran it at its own tick_ms, the run this stage would repeat)
# Environment: FULL_JOBS (2) parallel jobs, FUZZ_SECONDS, FUZZ_SEED (1), FUZZ_RSS_MB (1024), FULL_STAGES (a
# subset of "format functions asan clang fuzz slurm redlock", the default, and "pgo").
set -uo pipefail
cd "$(dirname "$0")/.."
jobs="${FULL_JOBS:-2}"
fuzz_seconds="${FUZZ_SECONDS:-60}"
# A fixed seed: what CI finds, a developer replays with the same mutations
# (FUZZ_SEED=0 lets libFuzzer pick one).
fuzz_seed="${FUZZ_SEED:-1}"
fuzz_rss_mb="${FUZZ_RSS_MB:-1024}"
stages="${FULL_STAGES:-format functions asan clang fuzz slurm redlock}"
failed=()
summary=()
# Lines a stage adds under its own line in the summary: what failed and why,
# since the summary is what a CI log shows last (and sometimes only).
stage_notes=()

stage() {  # stage NAME COMMAND...: runs and times one stage
  local name="$1"; shift
  local start=$SECONDS
  stage_notes=()
  echo "== full.sh: $name" >&2
  if "$@"; then
    summary+=("ok   $name ($((SECONDS - start)) s)")
  else
    summary+=("FAIL $name ($((SECONDS - start)) s)")
    failed+=("$name")
  fi
  local note
  for note in "${stage_notes[@]}"; do summary+=("       $note"); done
}

configure_build() {  # configure_build PRESET: a configure and build preset of CMakePresets.json
  cmake --preset "$1" >/dev/null || return 1
  cmake --build --preset "$1" -j "$jobs" >/dev/null || return 1
}

# ---- 1. Sanitizers ----
# The GUI is left out of the ASan build: its tests render with Mesa's software
# OpenGL (llvmpipe), which under ASan is slow and reports leaks inside the
# driver that are not ours. Nor the real-time Redlock check (label redlock):
# its subject is the npm package against the model, which the default suite
# and the redlock stage below check; under ASan it only cost a minute. Nor
# the replays labelled wallclock, which mostly wait for the wall clock (a
# watchdog preset in real time, about a minute each; tests/live/CMakeLists.txt):
# the other live tests run the same driver code under the sanitizers.
asan_tests() {
  configure_build asan || return 1
  ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:strict_string_checks=1" \
  UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" \
    ctest --test-dir build/asan --output-on-failure -j "$jobs" --timeout 1200 -LE 'packaging|redlock|wallclock' && return 0
  # The tests that failed, under the stage in the summary (CTest lists them
  # as NUMBER:NAME, one a line).
  local failed_list=build/asan/Testing/Temporary/LastTestsFailed.log line
  if [ -f "$failed_list" ]; then
    while IFS= read -r line; do stage_notes+=("failed: ${line#*:}"); done < <(head -20 "$failed_list")
  fi
  return 1
}

# ---- 2. Compilers and build types ----
hashes_of() {  # the "ok NAME (N events, sha256 H)" lines of `check`
  "$1" check --golden tests/golden | sort
}

compilers() {
  # Only the command-line tool: every test already ran under Clang in the
  # asan stage, and under GCC Release in the default suite.
  cmake --preset clang-release >/dev/null || return 1
  cmake --build build/clang-release --target leasescope-cli -j "$jobs" >/dev/null || return 1
  # The Clang -O1 tool is the asan stage's; build it if that stage did not run.
  if [ ! -x build/asan/app/cli/leasescope-cli ]; then
    cmake --preset asan >/dev/null && cmake --build build/asan --target leasescope-cli -j "$jobs" >/dev/null || return 1
  fi
  same_hashes asan clang-release
}

# The golden trace hashes of each build's tool named, against build/test's (GCC 12 Release).
same_hashes() {
  local ok=0 reference
  reference=$(hashes_of build/test/app/cli/leasescope-cli) || { echo "GCC Release: check failed" >&2; ok=1; }
  for build in "$@"; do
    local got
    got=$(hashes_of "build/$build/app/cli/leasescope-cli") || { echo "$build: check failed" >&2; ok=1; continue; }
    if [ "$got" != "$reference" ]; then
      echo "$build: trace hashes differ from GCC Release:" >&2
      diff <(echo "$reference") <(echo "$got") >&2
      ok=1
    else
      echo "$build: $(echo "$got" | wc -l) golden traces, hashes identical to GCC Release" >&2
    fi
  done
  return $ok
}

# GCC's profile-guided tool (tools/pgo.sh): the same hashes as GCC Release.
profile_guided() {
  PGO_JOBS="$jobs" tools/pgo.sh build/pgo || return 1
  same_hashes pgo
}

# ---- 3. Fuzzing ----
fuzz_one() {  # fuzz_one KIND: one libFuzzer target for fuzz_seconds; its report goes to build/fuzz/KIND.report
  local kind="$1" dict=""
  [ -f "tests/fuzz/$kind.dict" ] && dict="-dict=tests/fuzz/$kind.dict"
  # trace_fixed mutates traces: the trace seeds and dictionary serve it too.
  [ "$kind" = trace_fixed ] && dict="-dict=tests/fuzz/trace.dict"
  # The working corpus grows in build/; the checked-in seeds stay as they are.
  mkdir -p "build/fuzz/corpus/$kind" "build/fuzz/artifacts/$kind"
  # Only folders that exist: git keeps no empty folder, and libFuzzer stops
  # at a missing one (tests/fuzz_regressions/trace has no input yet).
  local corpora=("build/fuzz/corpus/$kind") dir
  for dir in "tests/fuzz/corpus/$kind" "tests/fuzz_regressions/$kind" \
             $([ "$kind" = trace_fixed ] && echo tests/fuzz/corpus/trace); do
    [ -d "$dir" ] && corpora+=("$dir")
  done
  local report="build/fuzz/$kind.report"
  echo "fuzz_$kind: $fuzz_seconds s" >"$report"
  if ! ASAN_OPTIONS="detect_leaks=1" UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" \
      "build/fuzz/fuzz_$kind" -max_total_time="$fuzz_seconds" -seed="$fuzz_seed" -timeout=10 -rss_limit_mb="$fuzz_rss_mb" -malloc_limit_mb=256 \
      -max_len=65536 -print_final_stats=1 $dict -artifact_prefix="build/fuzz/artifacts/$kind/" \
      "${corpora[@]}" >"build/fuzz/$kind.log" 2>&1; then
    {
      echo "fuzz_$kind FAILED (a crash, or libFuzzer could not start): see build/fuzz/$kind.log; inputs that crashed:"
      ls "build/fuzz/artifacts/$kind/"
      echo "  cp build/fuzz/artifacts/$kind/<file> tests/fuzz_regressions/$kind/"
      tail -40 "build/fuzz/$kind.log"
    } >>"$report"
    return 1
  fi
  grep -E "stat::number_of_executed_units|cov:|corp:" "build/fuzz/$kind.log" | tail -2 >>"$report"
}

fuzzing() {
  # In unity batches, as the asan build (tools/function_length.sh proves each file compiles alone).
  CXX=clang++-14 cmake -S tests/fuzz -B build/fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=8 >/dev/null || return 1
  cmake --build build/fuzz -j "$jobs" >/dev/null || return 1
  # The targets run side by side, FULL_JOBS at a time (one core each): the
  # same time per target, less time in all.
  local ok=0 kind pids=() kinds=(scenario trace override structure trace_fixed import) i
  for kind in "${kinds[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
    fuzz_one "$kind" &
    pids+=($!)
  done
  for i in "${!kinds[@]}"; do
    if ! wait "${pids[$i]}"; then
      ok=1
      fuzz_failure_notes "${kinds[$i]}"
    fi
    cat "build/fuzz/${kinds[$i]}.report" >&2
  done
  return $ok
}

# For the summary: which target failed, libFuzzer's or the sanitizer's line
# saying why, and the input that did it (base64 of its gzip, when that is
# short), so that a CI log's last lines are enough to replay it:
#   echo '<base64>' | base64 -d | gunzip > input; build/fuzz/fuzz_KIND input
fuzz_failure_notes() {
  local kind="$1" log="build/fuzz/$1.log" why input
  why=$(grep -m1 -E "^==[0-9]+== ?ERROR|^SUMMARY:|ALARM: working on the last Unit|out-of-memory|runtime error:|deadly signal" "$log" 2>/dev/null |
    cut -c1-200)
  stage_notes+=("fuzz_$kind: ${why:-no reason in build/fuzz/$kind.log (libFuzzer did not start?)}")
  # An exception that ended in std::terminate says what it was on its own line.
  local what
  what=$(grep -m1 -E "^  what\(\): " "$log" 2>/dev/null | cut -c1-200)
  [ -z "$what" ] || stage_notes+=("fuzz_$kind: $what")
  input=$(ls -t "build/fuzz/artifacts/$kind/" 2>/dev/null | head -1)
  [ -n "$input" ] || return 0
  local file="build/fuzz/artifacts/$kind/$input" packed
  local named="fuzz_$kind input $input ($(wc -c <"$file") bytes)"
  packed=$(gzip -9nc "$file" | base64 -w0)
  if [ "${#packed}" -le 6000 ]; then
    stage_notes+=("$named, gzip+base64: $packed")
  else
    stage_notes+=("$named: too long to print here")
  fi
}

# ---- 4. The sharded explorer on Slurm ----
# The command-line tool test.sh built (build/test); run alone
# (FULL_STAGES=slurm), the stage builds the release preset's.
slurm_sharded() {
  local cli=build/test/app/cli/leasescope-cli
  if [ ! -x "$cli" ]; then
    cli=build/release/app/cli/leasescope-cli
    cmake --preset release >/dev/null || return 1
    cmake --build build/release --target leasescope-cli -j "$jobs" >/dev/null || return 1
  fi
  tests/slurm/run_sharded.sh "$cli"
}

# ---- 5. Redlock against the real package ----
# As the slurm stage, build/test's tool, or the release preset's when run alone.
redlock_npm() {
  local cli=build/test/app/cli/leasescope-cli
  if [ ! -x "$cli" ]; then
    cli=build/release/app/cli/leasescope-cli
    cmake --preset release >/dev/null || return 1
    cmake --build build/release --target leasescope-cli -j "$jobs" >/dev/null || return 1
  fi
  # A scenario whose durations are not whole 100 ms ticks would run at its
  # own tick_ms, the run the default suite's redlock.npm already made: left out.
  REDLOCK_TICK_MS=100 REDLOCK_AT_TICK_ONLY=1 REDLOCK_GENERATED=20 REDLOCK_FIRST_SEED=6 \
    REDLOCK_OUT=build/redlock-compare-100 tests/redlock/compare.sh "$cli"
}

for s in $stages; do
  case "$s" in
    format) stage "formatting: clang-format-14, .clang-format" tools/format.sh --check ;;
    functions) stage "function length: at most 70 lines (clang-tidy readability-function-size), and every file of engine/, sim/ and app/ compiles by itself" tools/function_length.sh ;;
    asan) stage "asan: every test under Clang 14 with AddressSanitizer + UBSan" asan_tests ;;
    clang) stage "build types: GCC 12 -O3, Clang 14 -O1 (ASan) and -O3, same golden hashes" compilers ;;
    pgo) stage "profile-guided: GCC 12 with tools/pgo.sh, the same golden hashes as GCC 12 -O3" profile_guided ;;
    fuzz) stage "fuzzing: scenario, trace, override, structure, trace_fixed, import, ${fuzz_seconds} s each" fuzzing ;;
    slurm) stage "slurm: the explorer's shards as a job array on a single-node Slurm, merged = one process" slurm_sharded ;;
    redlock) stage "redlock: the Redlock scenarios through the npm package redlock 4.2.0, identical to the simulation" redlock_npm ;;
    *) echo "full.sh: unknown stage $s" >&2; failed+=("$s") ;;
  esac
done

echo "== full.sh summary (${SECONDS} s)" >&2
for line in "${summary[@]}"; do echo "$line" >&2; done
[ ${#failed[@]} -eq 0 ]

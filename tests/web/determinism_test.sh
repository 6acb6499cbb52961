#!/usr/bin/env bash
# Determinism across machines: the engine compiled to WebAssembly (the
# Node.js build of leasescope-cli) writes byte-identical traces, so the same
# trace_sha256, as the native build: every preset, and generated scenarios
# (varied candidates, faults, both phase-5 orders) whose bytes both builds
# generate identically too.
# Usage: determinism_test.sh NATIVE_CLI NODE_CLI_JS SOURCE_DIR [GENERATED_COUNT]
set -euo pipefail
native=$1 wasm=$2 src=$3 count=${4:-36}
command -v node >/dev/null || { echo "FAIL: node is missing" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0 compared=0
summary() { tail -n 1 "$1" | grep -o '"trace_sha256":"[0-9a-f]*"' || echo "(no summary)"; }

compare() {  # NAME FILE: run both, compare the whole output and the exit status
  local name=$1 file=$2 a=0 b=0
  "$native" run "$file" >"$work/native.jsonl" 2>"$work/native.err" || a=$?
  node "$wasm" run "$file" >"$work/wasm.jsonl" 2>"$work/wasm.err" || b=$?
  if [ "$a" != 0 ] || [ "$b" != 0 ]; then
    echo "FAIL $name: exit $a (native) and $b (wasm)"; cat "$work/native.err" "$work/wasm.err"; fail=1; return
  fi
  if cmp -s "$work/native.jsonl" "$work/wasm.jsonl"; then
    echo "ok   $name $(summary "$work/native.jsonl") ($(wc -l <"$work/native.jsonl") lines)"
  else
    echo "FAIL $name: native $(summary "$work/native.jsonl"), wasm $(summary "$work/wasm.jsonl")"
    diff <(head -c 2000 "$work/native.jsonl") <(head -c 2000 "$work/wasm.jsonl") | head -5
    fail=1
  fi
  compared=$((compared + 1))
}

for preset in "$src"/scenarios/*.json; do compare "$(basename "$preset" .json)" "$preset"; done

for seed in $(seq 1 "$count"); do
  candidates=$((2 + seed % 11))
  horizon=$((200 + (seed * 397) % 3000))
  order=$((seed % 2))
  args=(generate --seed "$seed" --candidates "$candidates" --horizon "$horizon" --order "$order")
  "$native" "${args[@]}" >"$work/gen-native.json"
  node "$wasm" "${args[@]}" >"$work/gen-wasm.json"
  if ! cmp -s "$work/gen-native.json" "$work/gen-wasm.json"; then
    echo "FAIL generate ${args[*]}: the two builds generate different scenarios"; fail=1; continue
  fi
  compare "generated seed $seed, $candidates candidates, horizon $horizon, order $order" "$work/gen-native.json"
done

echo "$compared traces compared"
if [ "$fail" != 0 ]; then echo "FAIL: the WebAssembly build differs from the native one" >&2; exit 1; fi
echo "the WebAssembly and native builds agree on every trace"

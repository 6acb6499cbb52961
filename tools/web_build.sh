#!/usr/bin/env bash
# Builds LeaseScope for the browser into build/web/ (index.html, shell.js,
# leasescope.js, .wasm, .data: a static folder for any web server) and the
# Node.js command-line tool into build/web-obj/leasescope-cli.js, with
# Debian's Emscripten, offline. Sourced pieces:
#   tools/web_imgui_source.sh  ImGui's sources (apt-get source, private config), kept in build/web-deps/
#   tools/web_stage.py         string tables, presets and cut-down fonts for the .data file
# Usage: tools/web_build.sh [OUT_DIR (default build/web)]
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-build/web}
deps=build/web-deps
obj=${LEASESCOPE_WEB_OBJ:-build/web-obj}
# Debian's emcc finds acorn and other Node modules here.
export NODE_PATH=${NODE_PATH:-/usr/share/nodejs}
command -v emcc >/dev/null || { echo "web_build.sh: emcc is missing (apt-get install emscripten)" >&2; exit 1; }

start=$(date +%s)
imgui_src=$(tools/web_imgui_source.sh "$deps/imgui")
/usr/bin/python3 tools/web_stage.py "$PWD" "$deps/data"

launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
if [ ! -f "$obj/CMakeCache.txt" ]; then
  emcmake cmake -S app/web -B "$obj" -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" \
    -DLEASESCOPE_IMGUI_SRC="$imgui_src" -DLEASESCOPE_WEB_DATA="$PWD/$deps/data" >&2
fi
cmake --build "$obj" -j "$(nproc)" >&2

mkdir -p "$out"
cp app/web/index.html app/web/shell.js "$out/"
cp "$obj/leasescope.js" "$obj/leasescope.wasm" "$obj/leasescope.data" "$out/"
echo "web_build.sh: built $out in $(( $(date +%s) - start )) s" >&2

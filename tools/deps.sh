#!/usr/bin/env bash
# Installs the Debian packages LeaseScope needs, only those missing, and
# builds. Sourced by run.sh and test.sh. Each step prints one line on stderr;
# apt's and the compiler's output go to a log file ($LEASESCOPE_LOG, default
# build/setup.log), whose last lines and name are shown when a step fails.
leasescope_packages=(
  build-essential cmake pkg-config
  libimgui-dev libglfw3-dev libepoxy-dev libhiredis-dev redis-server nlohmann-json3-dev
  libcli11-dev libfmt-dev libstb-dev libfontconfig1-dev fonts-nanum libssl-dev
  googletest libgtest-dev libbenchmark-dev xvfb xauth
  python3-jsonschema desktop-file-utils man-db
)
# The Redlock check (tests/redlock, model.md §20.9) runs the npm package
# redlock under Node.js. Debian's npm is a package of its own; a Node.js that
# bundles npm (NodeSource's, which conflicts with Debian's npm) needs no more.
leasescope_packages+=(nodejs)
command -v npm >/dev/null 2>&1 || leasescope_packages+=(npm)
leasescope_log=${LEASESCOPE_LOG:-$PWD/build/setup.log}
mkdir -p "$(dirname "$leasescope_log")" && : >"$leasescope_log"

# Runs a step quietly: "what ... ok", or "what ... FAILED" with the log's tail.
leasescope_step() {  # what command...
  local what=$1
  shift
  printf '%s ... ' "$what" >&2
  echo "==== $what: $*" >>"$leasescope_log"
  if "$@" >>"$leasescope_log" 2>&1; then
    echo "ok" >&2
    return 0
  fi
  echo "FAILED" >&2
  tail -n 30 "$leasescope_log" | sed 's/^/  | /' >&2
  echo "The whole output is in $leasescope_log" >&2
  return 1
}

leasescope_apt_install() {
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -q && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "$@"
}

# The browser build (tools/web_build.sh) and its tests: Emscripten, headless
# Chromium, fontTools for the fonts; dpkg-dev unpacks ImGui's source package.
leasescope_web_packages=(emscripten chromium fonttools dpkg-dev nodejs)

# The full run (test.sh --full, tools/full.sh): the second compiler and
# libFuzzer, the format and function-length checks, and a single-node Slurm
# with its authentication (munge) for the sharded explorer on a real batch
# engine (tests/slurm/run_sharded.sh). The packages' own services are not
# used: the test starts private daemons with a configuration of its own.
leasescope_full_packages=(clang-14 libclang-rt-14-dev clang-format-14 clang-tidy-14 slurm-wlm munge)

leasescope_install_deps() {
  local missing=()
  for p in "${leasescope_packages[@]}" "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -eq 0 ]; then return 0; fi
  leasescope_step "installing ${#missing[@]} packages (${missing[*]})" leasescope_apt_install "${missing[@]}"
}

# Configures and builds one preset of CMakePresets.json (default: release,
# into build/release); further arguments go to cmake's configure step.
leasescope_build() {
  local preset="${1:-release}"
  shift || true
  leasescope_step "configuring build/$preset" cmake --preset "$preset" "$@" || return 1
  leasescope_step "building build/$preset" cmake --build --preset "$preset" -j "$(nproc)" || return 1
}

# Configures a preset and builds only the targets of one build preset (run.sh:
# the "run" build preset, the app and leasescope-cli without the tests and
# benchmarks that `cmake --build --preset release` would build too).
leasescope_build_targets() {  # configure-preset build-preset what
  local preset=$1 build_preset=$2 what=$3
  leasescope_step "configuring build/$preset" cmake --preset "$preset" || return 1
  leasescope_step "building $what (build/$preset)" cmake --build --preset "$build_preset" -j "$(nproc)" || return 1
}

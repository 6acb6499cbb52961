#!/usr/bin/env bash
# Installs the Debian packages LeaseScope needs, only those missing.
# Sourced by run.sh and test.sh.
leasescope_packages=(
  build-essential cmake pkg-config
  libimgui-dev libglfw3-dev libhiredis-dev redis-server nlohmann-json3-dev
  libcli11-dev libfmt-dev libstb-dev libfontconfig1-dev fonts-nanum libssl-dev
  googletest libgtest-dev libbenchmark-dev xvfb xauth
)

# The browser build (tools/web_build.sh) and its tests: Emscripten, headless
# Chromium, fontTools for the fonts; dpkg-dev unpacks ImGui's source package.
leasescope_web_packages=(emscripten chromium fonttools dpkg-dev nodejs)

leasescope_install_deps() {
  local missing=()
  for p in "${leasescope_packages[@]}" "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -eq 0 ]; then return 0; fi
  echo "Installing missing packages: ${missing[*]}" >&2
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -qq >&2 || { echo "apt-get update failed" >&2; return 1; }
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2 \
    || { echo "apt-get install failed for: ${missing[*]}" >&2; return 1; }
}

# Configures and builds into $1 with build type $2 (defaults: build/release,
# Release); further arguments go to cmake's configure step.
leasescope_build() {
  local dir="${1:-build/release}" type="${2:-Release}"
  shift 2 || true
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE="$type" "$@" >&2 || return 1
  cmake --build "$dir" -j "$(nproc)" >&2 || return 1
}

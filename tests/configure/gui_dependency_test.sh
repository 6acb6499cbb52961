#!/usr/bin/env bash
# A missing GUI library is a configure error that names its Debian package
# (app/gui/CMakeLists.txt), never a quiet build without the app; with
# -DLEASESCOPE_GUI=OFF the same machine configures without it.
# Usage: gui_dependency_test.sh SOURCE_DIR
set -uo pipefail
src=$1
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail=0
out=$(cmake -S "$src" -B "$scratch/missing" -DBUILD_TESTING=OFF -DCMAKE_DISABLE_FIND_PACKAGE_glfw3=ON 2>&1)
if [ $? -eq 0 ]; then
  echo "FAIL: configuring without GLFW succeeded (the app would be left out quietly)"; fail=1
fi
if ! grep -q "libglfw3-dev" <<<"$out"; then
  echo "FAIL: the configure error does not name libglfw3-dev:"; echo "$out" | tail -n 12; fail=1
fi
if ! grep -q -- "-DLEASESCOPE_GUI=OFF" <<<"$out"; then
  echo "FAIL: the configure error does not say how to build without the app"; fail=1
fi
if ! cmake -S "$src" -B "$scratch/off" -DBUILD_TESTING=OFF -DLEASESCOPE_GUI=OFF \
     -DCMAKE_DISABLE_FIND_PACKAGE_glfw3=ON >"$scratch/off.log" 2>&1; then
  echo "FAIL: -DLEASESCOPE_GUI=OFF does not configure without GLFW:"; tail -n 12 "$scratch/off.log"; fail=1
fi
[ $fail -eq 0 ] && echo "ok: a missing GUI library stops the configure step and names its package"
exit $fail

#!/usr/bin/env bash
# Installs LeaseScope the way a user or a package would and uses only the
# installed tree:
#   install_test.sh destdir  BUILD SRC   cmake --install into a DESTDIR; the installed CLI finds its presets,
#                                        goldens and schema beside itself and checks a user folder
#   install_test.sh deb      BUILD SRC   cpack -G DEB, dpkg -x into a throwaway root, the same checks
#   install_test.sh consumer BUILD SRC   tests/consumer built with find_package(LeaseScope) against an
#                                        installed prefix and run; a pkg-config build too. CONSUMER_CXX_FLAGS and
#                                        CONSUMER_LINK_FLAGS: the flags of BUILD (a sanitizer build's consumer
#                                        must link the sanitizer runtime)
# Prints every failure, then "N passed, M failed"; exits non-zero when anything failed.
set -u
mode=$1
BUILD=$(cd "$2" && pwd)
SRC=$(cd "$3" && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/leasescope-install-test.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
passed=0
failed=0
check_that() {  # what command...
  local what=$1
  shift
  if "$@" >"$WORK/out" 2>"$WORK/err"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: $what" >&2
    echo "  command: $*" >&2
    sed 's/^/    /' "$WORK/out" "$WORK/err" | tail -n 20 >&2
  fi
}
fails_with() {  # code what command...
  local code=$1 what=$2
  shift 2
  "$@" >"$WORK/out" 2>"$WORK/err"
  local rc=$?
  if [ "$rc" -eq "$code" ]; then passed=$((passed + 1)); else
    failed=$((failed + 1))
    echo "FAIL: $what: expected exit $code, got $rc" >&2
    sed 's/^/    /' "$WORK/out" "$WORK/err" | tail -n 20 >&2
  fi
}
finish() {
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
  exit
}

# The checks on an installed tree whose prefix is $1.
check_installed_tree() {
  local prefix=$1 cli=$1/bin/leasescope-cli data=$1/share/leasescope
  for f in "$cli" "$data/scenarios/expiry-takeover.json" "$data/golden/expiry-takeover.jsonl" \
           "$data/assets/i18n/en.json" "$data/schema/scenario.schema.json" "$prefix/share/man/man1/leasescope-cli.1"; do
    check_that "installed: $f" test -s "$f"
  done
  if [ -x "$BUILD/app/gui/leasescope" ]; then
    for f in "$prefix/bin/leasescope" "$prefix/share/man/man1/leasescope.1" \
             "$prefix/share/applications/leasescope.desktop" "$prefix/share/icons/hicolor/scalable/apps/leasescope.svg"; do
      check_that "installed: $f" test -s "$f"
    done
    if command -v desktop-file-validate >/dev/null; then
      check_that "the .desktop entry is valid" desktop-file-validate "$prefix/share/applications/leasescope.desktop"
    fi
  fi
  check_that "the man page has a NAME section" grep -q '^\.SH NAME' "$prefix/share/man/man1/leasescope-cli.1"
  check_that "the man page lists the check command" grep -q '^\.SS check' "$prefix/share/man/man1/leasescope-cli.1"
  if command -v man >/dev/null; then
    check_that "man renders the page" man -l "$prefix/share/man/man1/leasescope-cli.1"
  fi

  # From a folder with no scenarios/ or tests/golden, the installed CLI uses
  # its own share/leasescope: a scenario added there is listed.
  mkdir -p "$WORK/elsewhere"
  cp "$data/scenarios/contention.json" "$WORK/marker.json"
  sed -i 's/"name": "contention"/"name": "zz-installed-marker"/' "$WORK/marker.json"
  cp "$WORK/marker.json" "$data/scenarios/zz-installed-marker.json"
  check_that "list reads the installed presets" \
    bash -c "cd '$WORK/elsewhere' && '$cli' list | grep -q zz-installed-marker"
  rm "$data/scenarios/zz-installed-marker.json"
  check_that "check of every installed preset against the installed goldens" \
    bash -c "cd '$WORK/elsewhere' && '$cli' check"
  check_that "schema prints the installed schema" bash -c "cd '$WORK/elsewhere' && '$cli' schema | cmp - '$data/schema/scenario.schema.json'"

  # A user's folder: their scenarios and goldens, checked by the installed CLI.
  local user=$WORK/user
  mkdir -p "$user/scenarios" "$user/golden"
  cp "$SRC/tests/consumer/scenarios/report-lock.json" "$user/scenarios/"
  cp "$SRC/tests/consumer/golden/report-lock.jsonl" "$user/golden/"
  check_that "check on a user folder of scenarios and goldens" \
    bash -c "cd '$user' && '$cli' check scenarios/report-lock.json --golden golden"
  sed -i 's/"lease": 10/"lease": 20/' "$user/scenarios/report-lock.json"
  fails_with 1 "a changed lease in the user's scenario fails check" \
    bash -c "cd '$user' && '$cli' check scenarios/report-lock.json --golden golden"
  cp "$WORK/err" "$WORK/check-err"
  check_that "the failure names the first divergent event" grep -q "A = golden, B = now" "$WORK/check-err"
  check_that "check --junit writes a report" \
    bash -c "cd '$user' && '$cli' check scenarios/report-lock.json --golden golden --junit report.xml; test -s report.xml"
}

# Where GNUInstallDirs puts libraries under the prefix $1 on this system
# (lib/x86_64-linux-gnu for /usr on Debian): a throwaway project asks it.
gnu_libdir() {  # prefix
  local probe=$WORK/probe
  mkdir -p "$probe"
  printf '%s\n' 'cmake_minimum_required(VERSION 3.22)' 'project(probe LANGUAGES CXX)' 'include(GNUInstallDirs)' \
    'message(STATUS "libdir=${CMAKE_INSTALL_LIBDIR}")' >"$probe/CMakeLists.txt"
  rm -rf "$probe/build"
  cmake -S "$probe" -B "$probe/build" -DCMAKE_INSTALL_PREFIX="$1" 2>/dev/null | sed -n 's/^-- libdir=//p'
}

# The libraries, the CMake package and the pkg-config file of a tree
# installed for the prefix /usr (under the root $1) are where GNUInstallDirs
# puts them for /usr, and none in a plain lib/ when that is another folder.
check_library_layout() {  # root
  local root=$1 libdir
  libdir=$(gnu_libdir /usr)
  check_that "GNUInstallDirs names a library folder for /usr" test -n "$libdir"
  for f in libleasescope_engine.a libleasescope_sim.a pkgconfig/leasescope.pc cmake/LeaseScope/LeaseScopeConfig.cmake \
           cmake/LeaseScope/LeaseScopeTargets.cmake; do
    check_that "installed in GNUInstallDirs' $libdir: $f" test -s "$root/usr/$libdir/$f"
  done
  if [ "$libdir" != lib ]; then
    check_that "nothing in a plain lib/ besides $libdir" \
      bash -c "! find '$root/usr/lib' -maxdepth 1 -type f | grep -q . && ! test -e '$root/usr/lib/cmake' && ! test -e '$root/usr/lib/pkgconfig'"
  fi
}

case $mode in
destdir)
  # README's "$schema" for a build that is not installed.
  check_that "the build tree has schema/scenario.schema.json" test -s "$BUILD/schema/scenario.schema.json"
  check_that "cmake --install into a DESTDIR" env DESTDIR="$WORK/root" cmake --install "$BUILD" --prefix /usr
  check_installed_tree "$WORK/root/usr"
  check_library_layout "$WORK/root"
  ;;
deb)
  check_that "cpack -G DEB" cpack -G DEB --config "$BUILD/CPackConfig.cmake" -B "$WORK/pkg"
  deb=$(ls "$WORK"/pkg/*.deb 2>/dev/null | head -n 1)
  check_that "a .deb was made" test -n "$deb"
  if [ -n "$deb" ]; then
    check_that "the package depends on the runtime libraries it links" \
      bash -c "dpkg-deb -f '$deb' Depends | grep -q libfmt"
    dpkg-deb -f "$deb" Package Version Depends
    check_that "dpkg -x into a throwaway root" dpkg -x "$deb" "$WORK/root"
    check_installed_tree "$WORK/root/usr"
    check_library_layout "$WORK/root"
  fi
  ;;
consumer)
  # The consumer sets no C++ standard: the exported targets must bring C++20,
  # which the compiler's default is not (GCC 12: C++17; Clang 14: C++14).
  check_that "tests/consumer sets no C++ standard of its own" \
    bash -c "! grep -q 'CMAKE_CXX_STANDARD\|CXX_STANDARD\|std=c++' '$SRC/tests/consumer/CMakeLists.txt'"
  check_that "the compiler's default standard is older than C++20" \
    bash -c "echo | c++ ${CONSUMER_CXX_FLAGS:-} -dM -E -x c++ - | grep -q '__cplusplus 201[0-9]'"
  check_that "cmake --install into a prefix" cmake --install "$BUILD" --prefix "$WORK/prefix"
  check_that "configure tests/consumer with find_package(LeaseScope)" \
    cmake -S "$SRC/tests/consumer" -B "$WORK/consumer" -DCMAKE_PREFIX_PATH="$WORK/prefix" -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_CXX_FLAGS="${CONSUMER_CXX_FLAGS:-}" -DCMAKE_EXE_LINKER_FLAGS="${CONSUMER_LINK_FLAGS:-}"
  check_that "the consumer does not see the source tree" \
    bash -c "! grep -rq '$SRC/sim/include\|$SRC/engine/include' '$WORK/consumer/CMakeFiles' '$WORK/consumer/CMakeCache.txt'"
  check_that "build the consumer" cmake --build "$WORK/consumer" -j 2
  check_that "the consumer's tests pass" "$WORK/consumer/consumer_test"
  pcdir=$(dirname "$(find "$WORK/prefix" -name leasescope.pc | head -n 1)")
  check_that "a program built with pkg-config's flags" bash -c \
    "c++ ${CONSUMER_CXX_FLAGS:-} ${CONSUMER_LINK_FLAGS:-} -o '$WORK/pc' '$SRC/tests/consumer/pkgconfig_main.cpp' \$(PKG_CONFIG_PATH='$pcdir' pkg-config --cflags --libs leasescope) && '$WORK/pc'"
  ;;
*)
  echo "usage: $0 destdir|deb|consumer BUILD SRC" >&2
  exit 2
  ;;
esac
finish

# Shared by the GUI test scripts (sourced): the display check, a scratch
# folder, and app launches that try again when the X server refuses one.
# While the suite starts many GUI processes, Xvfb now and then refuses a
# connection (GLFW "Failed to open display", seen once in 240 launches of a
# clean ./test.sh): that one error is tried again, twice at most, and said;
# every other failure counts.

gui_fail() { echo "FAIL: $*" >&2; exit 1; }

# gui_setup: needs DISPLAY; makes the scratch folder $out, removed on exit.
gui_setup() {
  [ -n "${DISPLAY:-}" ] || gui_fail "DISPLAY is not set; the GUI tests need an X display (test.sh starts Xvfb)"
  out=$(mktemp -d)
  trap 'rm -rf "$out"' EXIT
}

# gui_app COMMAND...: runs the app; its stderr goes to $out/stderr, its
# stdout where the caller sends it. Returns the app's exit status.
gui_app() {
  local attempt rc
  for attempt in 1 2 3; do
    rc=0
    "$@" 2>"$out/stderr" || rc=$?
    if [ "$rc" -ne 0 ] && [ "$attempt" -lt 3 ] && grep -q "Failed to open display" "$out/stderr"; then
      echo "note: the X server refused the connection, trying again: $*" >&2
      sleep 1
      continue
    fi
    return "$rc"
  done
}

# gui_app_ok WHAT COMMAND...: as gui_app, and fails the test, showing the
# app's stderr, when the app exits with an error.
gui_app_ok() {
  local what=$1 rc=0
  shift
  gui_app "$@" || rc=$?
  if [ "$rc" -ne 0 ]; then
    cat "$out/stderr" >&2
    gui_fail "the app exited with $rc ($what)"
  fi
}

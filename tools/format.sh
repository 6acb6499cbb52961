#!/usr/bin/env bash
# Formats every C++ file git knows (*.cpp, *.hpp) with Debian's clang-format-14
# and the rules in .clang-format.
#   tools/format.sh           rewrites the files in place
#   tools/format.sh --check   changes nothing; lists each file that is not
#                             formatted and fails if there is one
set -euo pipefail
cd "$(dirname "$0")/.."
format=${CLANG_FORMAT:-clang-format-14}
if ! command -v "$format" >/dev/null; then
  echo "tools/format.sh: $format not found (Debian package clang-format-14)" >&2
  exit 2
fi
mapfile -t files < <(git ls-files '*.cpp' '*.hpp')
if [ "${1:-}" != "--check" ]; then
  "$format" -i --style=file "${files[@]}"
  exit 0
fi
bad=0
for f in "${files[@]}"; do
  if ! "$format" --style=file --dry-run -Werror "$f" >/dev/null 2>&1; then
    echo "not formatted: $f (tools/format.sh formats it)" >&2
    bad=1
  fi
done
if [ "$bad" = 0 ]; then echo "tools/format.sh: ${#files[@]} files formatted as .clang-format says" >&2; fi
exit $bad

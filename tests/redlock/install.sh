#!/usr/bin/env bash
# Installs the npm packages of the Redlock check (redlock 4.2.0, ioredis 4,
# pinned by the committed package-lock.json) into BUILD_DIR/node_modules,
# never into the source tree. Usage: install.sh [BUILD_DIR]
# (default build/redlock-npm). Idempotent: when the lockfile in BUILD_DIR is
# the committed one and node_modules is there, it does nothing.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
dest="${1:-$root/build/redlock-npm}"
mkdir -p "$dest" && dest="$(cd "$dest" && pwd)"
command -v npm >/dev/null || { echo "install.sh: npm is missing (Debian package npm; tools/deps.sh)" >&2; exit 1; }
if cmp -s "$here/package-lock.json" "$dest/package-lock.json" &&
   [ -f "$dest/node_modules/redlock/redlock.js" ] && [ -f "$dest/node_modules/ioredis/package.json" ]; then
  exit 0
fi
cp "$here/package.json" "$here/package-lock.json" "$dest/"
# npm ci installs exactly the lockfile (it fails if package.json disagrees);
# --prefer-offline takes packages from npm's cache when they are there.
npm ci --prefix "$dest" --prefer-offline --no-audit --no-fund --loglevel=error
version=$(node -p "require('$dest/node_modules/redlock/package.json').version")
[ "$version" = 4.2.0 ] || { echo "install.sh: redlock $version installed, 4.2.0 expected" >&2; exit 1; }

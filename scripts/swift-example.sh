#!/usr/bin/env bash
# Builds examples-swift (a package that depends on this one by path, as a Swift app would) and runs it against
# the sandbox on an ephemeral port: it must print the sandbox's three offers. A break in what a Swift user
# sees fails here.
set -euo pipefail
top="$(cd "$(dirname "$0")/.." && pwd)"
build_log="$(mktemp)"
trap 'rm -f "$build_log"' EXIT
swift build --package-path "$top/examples-swift" >"$build_log" 2>&1 || { cat "$build_log"; exit 1; }

coproc SANDBOX { exec python3 "$top/sandbox/server.py" --exit-on-stdin-eof; }
trap 'kill "$SANDBOX_PID" 2>/dev/null || true; rm -f "$build_log"' EXIT
read -r line <&"${SANDBOX[0]}"
url="${line#listening on }"

output="$(swift run --skip-build --package-path "$top/examples-swift" offers "$url/native/v4" 2>&1)" \
  || { echo "swift-example: the example failed: $output" >&2; exit 1; }
echo "$output"
offers=$(grep -c '^[0-9]*: .* -> https://' <<<"$output" || true)
if [ "$offers" -ne 3 ] || ! grep -q '^styles: popup background #FFFFFF$' <<<"$output"; then
  echo "swift-example: expected 3 offers and the popup style, got $offers offers" >&2
  exit 1
fi
echo "swift-example: 3 offers through import BlinkEngage"

#!/usr/bin/env bash
# Runs the benchmarks under bench/ in release mode against a sandbox on an ephemeral loopback port.
set -euo pipefail
top="$(cd "$(dirname "$0")/.." && pwd)"
swift build -c release --product OutboxBench
coproc SANDBOX { exec python3 "$top/sandbox/server.py" --exit-on-stdin-eof; }
trap 'kill "$SANDBOX_PID" 2>/dev/null || true' EXIT
read -r line <&"${SANDBOX[0]}"
url="${line#listening on }"
"$(swift build -c release --show-bin-path)/OutboxBench" "$url" "${BENCH_EVENTS:-3000}"

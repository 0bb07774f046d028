#!/usr/bin/env bash
# The Rust crate's first program (bindings/rust/blinkengage/examples/offers.rs, shown in its README) against a
# sandbox, as a reader runs it.   scripts/rust-example.sh
set -euo pipefail
top="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
coproc SANDBOX { exec python3 "$top/sandbox/server.py" --exit-on-stdin-eof 2>/dev/null; }
trap 'kill "$SANDBOX_PID" 2>/dev/null || true; rm -rf "$work"' EXIT
read -r line <&"${SANDBOX[0]}"
url="${line#listening on }"
(cd "$top/bindings/rust" && env -u BLINKENGAGE_LIB_DIR PKG_CONFIG_LIBDIR=/nonexistent \
   cargo run --offline --quiet --example offers -- "$url/native/v4" "$url" "$work/storage") | tee "$work/offers.txt"
grep -q "^3 offers$" "$work/offers.txt" && grep -q "^2 groups$" "$work/offers.txt"
echo "rust: the README's first program against a sandbox"

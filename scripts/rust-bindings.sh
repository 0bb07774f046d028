#!/usr/bin/env bash
# Writes bindings/rust/blinkengage-sys/src/bindings.rs from the header with Debian's bindgen; the sys crate's
# test runs the same command and fails when the committed file no longer matches the header.
set -euo pipefail
top="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$top/bindings/rust/blinkengage-sys/src/bindings.rs}"
{
  echo "// Generated from include/blinkengage.h by scripts/rust-bindings.sh (bindgen); do not edit."
  bindgen "$top/include/blinkengage.h" --allowlist-function 'be_.*' --allowlist-type 'be_.*' --allowlist-var 'BE_.*' \
    --no-layout-tests --no-doc-comments --size_t-is-usize -- -I"$top/include"
} > "$out"

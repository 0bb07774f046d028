#!/usr/bin/env bash
# Writes the C ABI a header describes as abigail XML (abidw), for abidiff: a shared object built with DWARF from a
# file that includes HEADER and holds, for every function it declares, a constant pointer of exactly that
# function's type. The library's own DWARF cannot serve: its C entry points are Swift functions with Swift types.
#   scripts/abi-probe.sh HEADER OUT.abi
set -euo pipefail
top="$(cd "$(dirname "$0")/.." && pwd)"
header=$1 out=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$header" "$work/blinkengage.h"
{
  echo '#include "blinkengage.h"'
  "$top/scripts/header-abi.py" "$header" | awk '$1 == "fn" { printf "__typeof__(%s) *const be_abi_%s = %s;\n", $2, $2, $2 }'
} > "$work/probe.c"
gcc -std=gnu11 -g -O0 -fPIC -shared -I "$work" "$work/probe.c" -o "$work/probe.so"
abidw --no-show-locs --no-corpus-path "$work/probe.so" > "$out"

#!/usr/bin/env bash
# libFuzzer over every parser of remote or stored input (fuzz/targets/*.swift, one binary each).
#
#   scripts/fuzz.sh build            builds the engine once with -sanitize=fuzzer,address, then each target
#   scripts/fuzz.sh run SECONDS      replays each seed corpus, then fuzzes each target for SECONDS
#   scripts/fuzz.sh replay           replays each seed corpus only (every earlier crash is a seed: a regression test)
#
# Seeds live in fuzz/corpus/<target>/ and are only read; new inputs go to build/fuzz/found/<target>/, crashes to
# build/fuzz/crashes/. A crash fails the run and prints how to reproduce it. SwiftPM cannot link libFuzzer
# executables (TOOLCHAIN-NOTES.md), so swiftc builds them directly.
set -euo pipefail
cd "$(dirname "$0")/.."
out=build/fuzz
targets=$(cd fuzz/targets && ls *.swift | sed 's/\.swift$//')
includes=(-I Sources/CCurl -I Sources/CSQLite -I Sources/CIDN2 -I Sources/CSystemShims -I Sources/CJSONScan/include -I Sources/CPlatform)

build() {
  mkdir -p "$out"
  local sources; sources=$(find Sources/BlinkEngageCore -name '*.swift' | sort)
  local stamp="$out/.engine-stamp"
  # Sources or C shims (the JSON tape's builder is one) newer than the last build mean a new one.
  if [ ! -f "$stamp" ] || [ -n "$(find Sources fuzz/targets -newer "$stamp" \( -name '*.swift' -o -name '*.h' -o -name '*.c' \) 2>/dev/null | head -1)" ]; then
    echo "fuzz: building the engine with libFuzzer and AddressSanitizer"
    rm -f "$out/libBlinkEngageCore.a" "$out/scans.o"
    # The C target's scans, with the same instrumentation, linked into every target beside the engine.
    clang -O2 -g -fsanitize=fuzzer-no-link,address -I Sources/CJSONScan/include -c Sources/CJSONScan/scans.c -o "$out/scans.o"
    # shellcheck disable=SC2086
    swiftc -parse-as-library -O -sanitize=fuzzer,address -enable-testing -module-name BlinkEngageCore \
      -emit-module -emit-module-path "$out/BlinkEngageCore.swiftmodule" -emit-library -static \
      -o "$out/libBlinkEngageCore.a" "${includes[@]}" $sources 2>&1 | grep -v 'warning:' || true
    [ -f "$out/libBlinkEngageCore.a" ] || { echo "fuzz: the engine did not build" >&2; exit 1; }
    for target in $targets; do
      rm -f "$out/$target"
      swiftc -parse-as-library -O -sanitize=fuzzer,address -I "$out" "${includes[@]}" "fuzz/targets/$target.swift" \
        "$out/libBlinkEngageCore.a" "$out/scans.o" -lcurl -lsqlite3 -lidn2 -o "$out/$target" 2>&1 | grep -v "Cannot export local symbol\|warning:" || true
      [ -x "$out/$target" ] || { echo "fuzz: target $target did not build" >&2; exit 1; }
    done
    touch "$stamp"
  fi
}

# Runs one target: every seed once, then (with SECONDS > 0) new inputs for that long. Prints "executions".
run_target() {
  local target=$1 seconds=$2
  local found="$out/found/$target" log="$out/$target.log"
  mkdir -p "$found" "$out/crashes"
  local args=(-artifact_prefix="$out/crashes/$target-" -print_final_stats=1 -rss_limit_mb=4096 -timeout=10)
  if [ "$seconds" -gt 0 ]; then
    args+=(-max_total_time="$seconds" "$found" "fuzz/corpus/$target")
  else
    args+=(-runs=0 "fuzz/corpus/$target")
  fi
  if ! ASAN_OPTIONS=detect_leaks=0 "$out/$target" "${args[@]}" >"$log" 2>&1; then
    echo "fuzz: $target FAILED; see $log; reproduce with: $out/$target $out/crashes/$target-*" >&2
    tail -40 "$log" >&2
    return 1
  fi
  local runs; runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  printf 'fuzz: %-14s %10s executions, %s seeds, 0 crashes\n' "$target" "${runs:-0}" "$(ls "fuzz/corpus/$target" | wc -l)"
}

case "${1:-}" in
  build) build ;;
  replay) build; for t in $targets; do run_target "$t" 0; done ;;
  run) build; for t in $targets; do run_target "$t" "${2:-60}"; done ;;
  *) echo "usage: scripts/fuzz.sh build|replay|run SECONDS" >&2; exit 2 ;;
esac

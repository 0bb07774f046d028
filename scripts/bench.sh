#!/usr/bin/env bash
# The benchmarks under bench/, against nginx on an ephemeral loopback port, with the release library:
#   fetch + decode  Moments answers of 3 and 50 offers, every field of every offer read, by the floor (libcurl +
#                   simdjson), hand-written C (libcurl + jansson), URLSession + JSONDecoder, and BlinkEngage through
#                   its C API in its three modes (callbacks and I/O on the callback thread, the default; I/O on the
#                   transport thread with callbacks in be_sdk_dispatch; both in be_sdk_dispatch); medians, p99,
#                   ratios to the floor, and instructions per fetch from callgrind
#   tracking_bench  one durable report on the caller's thread and events per second report-to-accepted, beside a
#                   naive tracker (one blocking libcurl POST per event)
# Installs what is missing (as root): nginx, libsimdjson-dev, libjansson-dev. BENCH_CALLS (default 8000) and
# BENCH_EVENTS (default 5000) set the sizes; BENCH_ROUNDS (default 40) how many turns the fetch contenders take;
# BENCH_ONLY=swift runs only the Swift surface against the C API, BENCH_ONLY=bindings only the C# and Java bindings
# against it, BENCH_ONLY=scans only the byte scans' SSE2 and plain C builds, BENCH_ONLY=viewability only the visibility
# report against a feed event report, BENCH_ONLY=roundtrips only the round trips on a 100 ms network,
# BENCH_ONLY=switches only the context switches per fetch of each callback and I/O mode, and prints that table;
# BENCH_ONLY=fetch only the fetch + decode tables; BENCH_ONLY=urls only the URL shapes; BENCH_ONLY=startstop only
# the start and shutdown medians.
# Writes the tables to BENCHMARKS.md.
set -euo pipefail
top="$(cd "$(dirname "$0")/.." && pwd)"
cd "$top"
missing=()
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || missing+=(nginx-light)
[ -f /usr/include/simdjson.h ] || missing+=(libsimdjson-dev)
[ -f /usr/include/jansson.h ] || missing+=(libjansson-dev)
command -v valgrind >/dev/null || missing+=(valgrind)
if [ ${#missing[@]} -gt 0 ]; then
  [ "$(id -u)" -eq 0 ] || { echo "missing: ${missing[*]} (apt-get install ${missing[*]})" >&2; exit 1; }
  echo "installing: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -qq "${missing[@]}" >/dev/null || { apt-get update -qq && apt-get install -y -qq "${missing[@]}" >/dev/null; }
fi
nginx=$(command -v nginx || echo /usr/sbin/nginx)
[ -f dist/lib/libblinkengage.so.1 ] || make dist >/dev/null

work=$(mktemp -d /tmp/be-bench-nginx-XXXXXX)
chmod 755 "$work"  # nginx workers run as another user when started by root
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
sed -e "s|@DIR@|$work|g" -e "s|@PORT@|$port|g" bench/nginx.conf.in > "$work/nginx.conf"
cp sandbox/fixtures/offer-feed.json "$work/offer-feed.json"
python3 bench/make_answers.py sandbox/fixtures/moments-offers.json "$work" 3 50 >/dev/null
chmod -R a+rX "$work"
# Placement is pinned, so that every contender gets the same one: where the scheduler puts a client next to the
# server by chance, its round trips skip the cross-core wake-up and take a third of the time, which decided the
# ratios more than the contenders did. nginx gets the last core this may use; clients run on the first
# ("separate cores", as a client beside a remote server) and on nginx's ("one core": both sides' CPU time).
read -r -a cpus < <(python3 -c 'import os; print(*sorted(os.sched_getaffinity(0)))')  # the cores this may use
server_core=${cpus[-1]}
client_core=${cpus[0]}
if [ "${#cpus[@]}" -ge 2 ]; then
  placements="separate one"
  taskset -c "$server_core" "$nginx" -c "$work/nginx.conf" -p "$work" &
else
  placements="unpinned"
  "$nginx" -c "$work/nginx.conf" -p "$work" &
fi
nginx_pid=$!
trap 'kill "$nginx_pid" 2>/dev/null || true; wait "$nginx_pid" 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 100); do curl -fs "http://127.0.0.1:$port/v1/events" -d '{}' >/dev/null 2>&1 && break; sleep 0.05; done

base="http://127.0.0.1:$port"
cc -std=c99 -O2 -Wall -Wextra -Iinclude bench/tracking_bench.c -o "$work/tracking_bench" \
  -Ldist/lib -l:libblinkengage.so.1 -lcurl -lpthread -Wl,-rpath,"$top/dist/lib"
cc -std=c99 -O2 -Wall -Wextra -Iinclude bench/start_stop_blinkengage.c -o "$work/start_stop_blinkengage" \
  -Ldist/lib -l:libblinkengage.so.1 -Wl,-rpath,"$top/dist/lib"
cc -std=c99 -O2 -Wall -Wextra -Iinclude bench/fetch_blinkengage.c -o "$work/fetch_blinkengage" \
  -Ldist/lib -l:libblinkengage.so.1 -Wl,-rpath,"$top/dist/lib"
cc -std=c99 -O2 -Wall -Wextra bench/fetch_jansson.c -o "$work/fetch_jansson" -lcurl -ljansson
c++ -std=c++17 -O2 -Wall -Wextra bench/fetch_simdjson.cpp -o "$work/fetch_simdjson" -lcurl -lsimdjson
swiftc -O bench/FetchURLSession.swift -o "$work/fetch_urlsession" 2>&1 | grep -v warning || true
cc -std=c99 -O2 -Wall -Wextra -Iinclude bench/report_blinkengage.c -o "$work/report_blinkengage" \
  -Ldist/lib -l:libblinkengage.so.1 -lpthread -Wl,-rpath,"$top/dist/lib"
cc -std=c99 -O2 -Wall -Wextra -Iinclude bench/visibility_blinkengage.c -o "$work/visibility_blinkengage" \
  -Ldist/lib -l:libblinkengage.so.1 -lpthread -Wl,-rpath,"$top/dist/lib"
# The Swift surface in release, as a Swift app would build it (its own scratch path: the flags differ from dist's).
BLINKENGAGE_LEAN_LIBRARY=1 swift build -c release --scratch-path .build/bench --product SwiftSurfaceBench >/dev/null
swift_bench="$(BLINKENGAGE_LEAN_LIBRARY=1 swift build -c release --scratch-path .build/bench --show-bin-path)/SwiftSurfaceBench"
BLINKENGAGE_LEAN_LIBRARY=1 swift build -c release --scratch-path .build/bench --product URLCheckBench >/dev/null
url_bench="$(BLINKENGAGE_LEAN_LIBRARY=1 swift build -c release --scratch-path .build/bench --show-bin-path)/URLCheckBench"
# The C# and Java bindings, and their benchmark programs beside field_blinkengage.c.
scripts/bindings-build.sh "$work/bindings" dist
mcs -sdk:4.7.2 -optimize -r:"$work/bindings/BlinkEngage.dll" -r:System.Core.dll -out:"$work/bindings/BindingBench.exe" bench/BindingBench.cs
javac --release 17 -d "$work/bindings" -cp "$work/bindings/blinkengage.jar" bench/BindingBench.java
cc -std=c99 -O2 -Wall -Wextra -Iinclude bench/field_blinkengage.c -o "$work/field_blinkengage" \
  -Ldist/lib -l:libblinkengage.so.1 -Wl,-rpath,"$top/dist/lib"
# The byte scans both ways: their own program, and the release library built with -DBE_SCAN_SCALAR (its own scratch
# path, so the clang modules are built anew with the define).
cc -std=c99 -O2 -Wall -Wextra -I Sources/CJSONScan/include bench/scan_bytes.c -o "$work/scan_bytes_sse2"
cc -std=c99 -O2 -Wall -Wextra -DBE_SCAN_SCALAR -I Sources/CJSONScan/include bench/scan_bytes.c -o "$work/scan_bytes_scalar"
if [ -z "${BENCH_ONLY:-}" ] || [ "${BENCH_ONLY:-}" = scans ]; then
  BLINKENGAGE_LEAN_LIBRARY=1 swift build -c release --scratch-path .build/scalar --product blinkengage -Xcc -DBE_SCAN_SCALAR \
    -Xswiftc -static-stdlib -Xlinker --version-script="$top/packaging/blinkengage.map" -Xlinker -soname=libblinkengage.so.1 >/dev/null
  mkdir -p "$work/scalar"
  cp "$(BLINKENGAGE_LEAN_LIBRARY=1 swift build -c release --scratch-path .build/scalar --show-bin-path)/libblinkengage.so" "$work/scalar/libblinkengage.so.1"
  cc -std=c99 -O2 -Wall -Wextra -Iinclude bench/fetch_blinkengage.c -o "$work/fetch_blinkengage_scalar" \
    -L"$work/scalar" -l:libblinkengage.so.1 -Wl,-rpath,"$work/scalar"
fi
csharp_bench="env LD_LIBRARY_PATH=$top/dist/lib mono $work/bindings/BindingBench.exe"
java_bench="java -Djava.library.path=$work/bindings -cp $work/bindings/blinkengage.jar:$work/bindings BindingBench"

contenders="simdjson jansson urlsession blinkengage_sdk_callbacks blinkengage blinkengage_dispatch_io"
label() { case $1 in simdjson) echo "libcurl + simdjson (the floor)";; jansson) echo "C: libcurl + jansson";;
  urlsession) echo "Swift: URLSession + JSONDecoder";;
  blinkengage_sdk_callbacks) echo "BlinkEngage (C API), callbacks and I/O on the callback thread (the default)";;
  blinkengage) echo "BlinkEngage (C API), I/O on the transport thread, callbacks in be_sdk_dispatch";;
  blinkengage_dispatch_io) echo "BlinkEngage (C API), I/O and callbacks in be_sdk_dispatch";; esac; }
# The program and its arguments for a contender and an answer of $2 offers.
run_args() {
  case $1 in
    blinkengage_dispatch_io) echo "$work/fetch_blinkengage $(url_for "$1" "$2")" "$3" dispatch-io;;
    blinkengage_sdk_callbacks) echo "$work/fetch_blinkengage $(url_for "$1" "$2")" "$3" sdk-callbacks;;
    *) echo "$work/fetch_$1 $(url_for "$1" "$2")" "$3";;
  esac
}
url_for() { echo "$base/m$2"; }  # the Moments base URL serving an answer of $2 offers
# Instructions per fetch: callgrind over 2 and 12 calls, the difference over 10 (start-up, and what a first or
# second call does once, cancel out).
instructions() {
  local counts=()
  for n in 2 12; do
    # shellcheck disable=SC2046  # the words of run_args are the command line
    counts+=("$(valgrind --tool=callgrind --callgrind-out-file=/dev/null $(run_args "$1" "$2" $n) 2>&1 >/dev/null \
      | sed -n 's/.*Collected : *\([0-9]*\).*/\1/p')")
  done
  echo $(( (counts[1] - counts[0]) / 10 ))
}
# 40 rounds of 200 calls: a single round's ratio to the floor ranges from half to three times on a busy
# 2-core machine, and the median of 40 moves less from run to run than the median of 20.
calls=${BENCH_CALLS:-8000}
rounds=${BENCH_ROUNDS:-40}
per_round=$(( calls / rounds ))
# The command prefix that runs a client in placement $1.
pinned() {
  case $1 in separate) echo "taskset -c $client_core";; one) echo "taskset -c $server_core";; *) echo "";; esac
}
placement_label() {
  case $1 in separate) echo "client and server on separate cores";; one) echo "client and server on one core";;
    *) echo "one core, placement left to the scheduler";; esac
}
# One table row from "contender round median p99" lines: the median round's median and p99, and the ratio to
# the floor taken round by round (each round's contenders ran back to back, so a busy moment of the machine
# weighs on all of them alike), as the median ratio and its range.
row() {
  python3 - "$1" "$2" "$3" "$4" <<'PY'
import statistics, sys
results, contender, label, instructions = sys.argv[1:]
rows = [line.split() for line in open(results)]
floor = {r[1]: float(r[2]) for r in rows if r[0] == "simdjson"}
mine = [r for r in rows if r[0] == contender]
ratios = sorted(float(r[2]) / floor[r[1]] for r in mine)
print(f"| {label} | {statistics.median(float(r[2]) for r in mine):.1f} µs | {statistics.median(float(r[3]) for r in mine):.1f} µs "
      f"| {statistics.median(ratios):.2f}x ({ratios[0]:.2f}–{ratios[-1]:.2f}) | {instructions} |")
PY
}
# BENCH_ONLY=swift runs the Swift surface's table alone (printed, BENCHMARKS.md untouched).
only=${BENCH_ONLY:-}
fetch_sizes="3 50"
[ -z "$only" ] || [ "$only" = fetch ] || fetch_sizes=""
report=$(mktemp)
{
  echo "## Fetch + decode: $(nproc) cores, $(date -u +%Y-%m-%d), nginx on loopback"
  echo
  echo "$rounds rounds of $per_round sequential calls; in each round the contenders run one after another. Median and"
  echo "p99 are the median round's; the ratio to the floor is taken within each round: its median (and range)."
  echo "nginx runs on core $server_core; each placement pins the clients (see scripts/bench.sh). Instructions per fetch"
  echo "are callgrind's (12 calls − 2 calls) / 10, the same for every placement."
  echo
  for offers in $fetch_sizes; do
    declare -A counted=()
    for contender in $contenders; do counted[$contender]=$(instructions "$contender" "$offers"); done
    for placement in $placements; do
      echo "### $offers offers ($(stat -c %s "$work/m$offers/offers.json") bytes), $(placement_label "$placement")"
      echo
      echo "| contender | median | p99 | ratio to the floor (range) | instructions per fetch |"
      echo "|---|---|---|---|---|"
      results=$(mktemp)
      for round in $(seq "$rounds"); do
        for contender in $contenders; do
          # shellcheck disable=SC2046
          read -r median p99 seen _ < <($(pinned "$placement") $(run_args "$contender" "$offers" "$per_round"))
          [ "$seen" = "$offers" ] || { echo "$contender read $seen offers, expected $offers" >&2; exit 1; }
          echo "$contender $round $median $p99" >> "$results"
        done
      done
      for contender in $contenders; do
        row "$results" "$contender" "$(label $contender)" "${counted[$contender]}"
      done
      rm -f "$results"
      echo
    done
  done
  # One row: $1 the label; $2 and $3 the C command and the other one, with CALLS where the call count goes; $4
  # "counted" adds instructions per call, callgrind's (12 calls - 2 calls) / 10 for each (valgrind runs neither
  # Mono nor the JVM). Times with three decimals when $5 says "fine" (the field reads' fractions of a microsecond).
  pair() {
    local results; results=$(mktemp)
    for _ in $(seq "$rounds"); do
      read -r c_median _ < <(taskset -c "$client_core" ${2//CALLS/$per_round})
      read -r o_median _ < <(taskset -c "$client_core" ${3//CALLS/$per_round})
      echo "$c_median $o_median" >> "$results"
    done
    local counts=()
    if [ "${4:-}" = counted ]; then
      for command in "$2" "$3"; do
        for n in 2 12; do
          counts+=("$( (timeout 300 valgrind --tool=callgrind --callgrind-out-file=/dev/null ${command//CALLS/$n} 2>&1 >/dev/null \
            || true) | sed -n 's/.*Collected : *\([0-9]*\).*/\1/p')")
        done
      done
    fi
    python3 - "$results" "$1" "${5:-}" "${counts[@]}" <<'PY'
import statistics, sys
path, label, fine, *counts = sys.argv[1:]
rows = [tuple(map(float, line.split()[:2])) for line in open(path)]
ratios = sorted(o / c for c, o in rows)
digits = 3 if fine else 1
# valgrind 3.19 dies on the Swift concurrency runtime (the await contender): no count then.
def per_call(two, twelve): return f"{(int(twelve) - int(two)) // 10:,}" if two and twelve else "—"
row = (f"| {label} | {statistics.median(c for c, _ in rows):.{digits}f} µs | {statistics.median(o for _, o in rows):.{digits}f} µs "
       f"| **{statistics.median(ratios):.2f}x** ({ratios[0]:.2f}–{ratios[-1]:.2f}) |")
print(row + (f" {per_call(*counts[0:2])} / {per_call(*counts[2:4])} |" if counts else ""))
PY
    rm -f "$results"
  }
  if [ -z "$only" ] || [ "$only" = swift ]; then
  echo "## The Swift surface against the C API: $(nproc) cores, $(date -u +%Y-%m-%d)"
  echo
  echo "$rounds rounds; in each the two contenders run back to back, client on core $client_core, nginx on core $server_core."
  echo "The ratio is Swift / C within each round: its median (and range). Fetch: $per_round fetches of the 3-offer answer,"
  echo "every field the C contender reads read as a Swift String. Report: $per_round did_tap reports, each timed."
  echo
  echo "| what | C API | Swift surface | ratio (range) | instructions per call, C / Swift |"
  echo "|---|---|---|---|---|"
  pair "fetch + decode, handlers in dispatch" "$work/fetch_blinkengage $base/m3 CALLS" "$swift_bench fetch $base/m3 CALLS" counted
  pair "fetch + decode, handlers on the SDK's thread (C: a condition variable; Swift: await in a task)" \
    "$work/fetch_blinkengage $base/m3 CALLS sdk-callbacks" "$swift_bench fetch $base/m3 CALLS async" counted
  pair "the same, Swift awaiting on the main actor (top-level code)" \
    "$work/fetch_blinkengage $base/m3 CALLS sdk-callbacks" "$swift_bench fetch $base/m3 CALLS async-main" counted
  pair "one feed event report on the caller's thread" "$work/report_blinkengage $base CALLS" "$swift_bench report $base CALLS" counted
  echo
  fi
  if [ -z "$only" ] || [ "$only" = bindings ]; then
  echo "## The C# and Java bindings against the C API: $(nproc) cores, $(date -u +%Y-%m-%d)"
  echo
  echo "$rounds rounds; in each the C program and the binding's run back to back on core $client_core (nginx on core"
  echo "$server_core), the binding in a process of its own (Mono $(mono --version | sed -n 's/.*version \([0-9.]*\).*/\1/p;q'), OpenJDK"
  echo "$(java -version 2>&1 | sed -n 's/.*version "\([^"]*\)".*/\1/p;q')): the ratio is the binding's median / C's within each round."
  echo "Fetch: $per_round fetches of the 3-offer answer with every field read, callbacks in dispatch; report: $per_round"
  echo "did_tap reports, each timed; field: $per_round batches of 1,000 reads of one offer's \"title\" by key (µs per read)."
  echo "Each binding's program first makes as many untimed calls as it times (its JIT's warm-up). No instruction counts:"
  echo "valgrind does not run them."
  echo
  echo "| what | C API | binding | ratio (range) |"
  echo "|---|---|---|---|"
  for binding in csharp java; do
    program=$([ $binding = csharp ] && echo "$csharp_bench" || echo "$java_bench")
    name=$([ $binding = csharp ] && echo "C#" || echo "Java")
    pair "$name: fetch + decode" "$work/fetch_blinkengage $base/m3 CALLS" "$program fetch $base/m3 CALLS"
    pair "$name: one feed event report" "$work/report_blinkengage $base CALLS" "$program report $base CALLS"
    pair "$name: one offer field read" "$work/field_blinkengage $base/m3 CALLS" "$program field $base/m3 CALLS" - fine
  done
  echo
  fi
  if [ -z "$only" ] || [ "$only" = scans ]; then
  echo "## The byte scans: SSE2 against plain C (-DBE_SCAN_SCALAR), $(date -u +%Y-%m-%d)"
  echo
  echo "Instructions per byte are callgrind's over bench/scan_bytes.c: (16 rounds − 8 rounds) / (8 × 64 KiB). The fetch"
  echo "rows take the library built both ways, $rounds rounds of $per_round fetches of the 3- and 50-offer answers (I/O in"
  echo "be_sdk_dispatch), client on core $client_core; the ratio is plain C's median over SSE2's within each round."
  echo "The SSE2 build takes AVX2 where the processor has it (the marking of a text's special bytes, URLs of 32 bytes"
  echo "or more). In plain C the string scan returns at once and a byte loop does the work in bench/scan_bytes.c; in the"
  echo "library the tape's builder marks special bytes eight at a time in a 64-bit word, which the fetch rows measure."
  echo "NEON is proven under qemu by make test (scripts/scan-test.sh), not timed: an emulator's time says nothing."
  echo
  echo "| what | SSE2 | plain C | ratio (range) | instructions, SSE2 / plain C |"
  echo "|---|---|---|---|---|"
  for mode in string url; do
    per_byte=()
    for variant in sse2 scalar; do
      a=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$work/scan_bytes_$variant" $mode 65536 8 2>&1 | sed -n 's/.*Collected : *\([0-9]*\).*/\1/p')
      b=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$work/scan_bytes_$variant" $mode 65536 16 2>&1 | sed -n 's/.*Collected : *\([0-9]*\).*/\1/p')
      per_byte+=("$(python3 -c "print(f'{($b - $a) / 65536 / 8:.2f}')")")
    done
    label=$([ $mode = string ] && echo "a string's plain run, instructions per byte" || echo "a URL's path, instructions per byte")
    echo "| $label | ${per_byte[0]} | ${per_byte[1]} | $(python3 -c "print(f'{${per_byte[1]} / ${per_byte[0]}:.1f}x')") | |"
  done
  for offers in 3 50; do
    pair "fetch + decode, $offers offers: microseconds (instructions)" "$work/fetch_blinkengage $base/m$offers CALLS dispatch-io" \
      "$work/fetch_blinkengage_scalar $base/m$offers CALLS dispatch-io" counted
  done
  echo
  fi
  if [ -z "$only" ] || [ "$only" = urls ]; then
  echo "## URL shapes: what a server may send, at what it costs to read, $(date -u +%Y-%m-%d)"
  echo
  echo "Every URL of every offer of the 50-offer answer in one shape (bench/make_answers.py): instructions per fetch,"
  echo "callgrind's (12 calls − 2 calls) / 10, the floor (libcurl + simdjson) and BlinkEngage (I/O on the transport"
  echo "thread, callbacks in be_sdk_dispatch); and instructions per URL read alone (bench/URLCheckBench: 64 URLs of the"
  echo "shape, read 40 times less 20 times, through \`ServiceURL.isAbsoluteHTTP\`, which makes the href when a URL is"
  echo "not its own)."
  echo
  echo "| shape | floor | BlinkEngage | ratio | instructions per URL read |"
  echo "|---|---|---|---|---|"
  for shape in "" -ipv4 -ipv6 -long-query -escapes; do
    floor=$(instructions simdjson "50$shape")
    mine=$(instructions blinkengage "50$shape")
    name=${shape#-}
    a=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$url_bench" "${name:-name}" 20 2>&1 | sed -n 's/.*Collected : *\([0-9]*\).*/\1/p')
    b=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$url_bench" "${name:-name}" 40 2>&1 | sed -n 's/.*Collected : *\([0-9]*\).*/\1/p')
    echo "| ${name:-host names} | $floor | $mine | $(python3 -c "print(f'{$mine / $floor:.2f}x')") | $(( (b - a) / (20 * 64) )) |"
  done
  a=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$url_bench" rewritten 20 2>&1 | sed -n 's/.*Collected : *\([0-9]*\).*/\1/p')
  b=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$url_bench" rewritten 40 2>&1 | sed -n 's/.*Collected : *\([0-9]*\).*/\1/p')
  echo "| a Unicode host and a space (not its own href) | | | | $(( (b - a) / (20 * 64) )) |"
  echo
  fi
  if [ -z "$only" ] || [ "$only" = viewability ]; then
  echo "## Reporting visibility: $(nproc) cores, $(date -u +%Y-%m-%d)"
  echo
  echo "$rounds rounds of $per_round calls on core $client_core, each call timed: be_sdk_report_visibility() on a view in"
  echo "progress whose fraction changes every call (bench/visibility_blinkengage.c, which fails if a timed call"
  echo "allocates on the caller's thread), beside one feed event report (report_blinkengage). The ratio is"
  echo "visibility / report within each round."
  echo
  echo "| what | feed event report | visibility report | ratio (range) | instructions per call, report / visibility |"
  echo "|---|---|---|---|---|"
  pair "one call on the caller's thread" "$work/report_blinkengage $base CALLS" "$work/visibility_blinkengage $base CALLS" counted fine
  # System calls of the whole process per visibility call: strace's totals for 100,002 calls less those for 2.
  syscalls=()
  for n in 2 100002; do
    strace -f -c -o "$work/strace-$n" "$work/visibility_blinkengage" "$base" "$n" >/dev/null
    syscalls+=("$(awk '$NF == "total" {print $4 + 0; found=1} END {if (!found) print 0}' "$work/strace-$n")")
  done
  echo
  echo "System calls per visibility call, every thread of the process (strace -f -c, 100,002 calls less 2, over"
  echo "100,000): $(python3 -c "print(f'{(${syscalls[1]} - ${syscalls[0]}) / 100000:.5f}')") (${syscalls[0]} and ${syscalls[1]} in all)."
  echo
  fi
  if [ -z "$only" ] || [ "$only" = switches ]; then
  # Context switches per fetch: the thread hops a fetch costs, every thread of the client process counted by perf.
  switches() { perf stat -x, -e context-switches "$@" 2>&1 >/dev/null | awk -F, '/context-switches/ { print $1 }'; }
  echo "## Context switches per fetch: $(nproc) cores, $(date -u +%Y-%m-%d)"
  echo
  echo "\`perf stat -e context-switches\` over every thread of the client process, (2N − N) / N with N = $per_round fetches of"
  echo "the 3-offer answer (start-up cancels out), the median of 5; nginx on core $server_core."
  echo
  printf "| contender |"; for placement in $placements; do printf " %s |" "$(placement_label "$placement")"; done; echo
  printf "|---|"; for _ in $placements; do printf -- "---|"; done; echo
  for contender in simdjson blinkengage_sdk_callbacks blinkengage blinkengage_dispatch_io; do
    printf "| %s |" "$(label "$contender")"
    for placement in $placements; do
      per_fetch=()
      for _ in 1 2 3 4 5; do
        # shellcheck disable=SC2046
        one=$(switches $(pinned "$placement") $(run_args "$contender" 3 "$per_round"))
        # shellcheck disable=SC2046
        two=$(switches $(pinned "$placement") $(run_args "$contender" 3 $((per_round * 2))))
        per_fetch+=("$(( (two - one) * 100 / per_round ))")
      done
      printf " %s |" "$(printf '%s\n' "${per_fetch[@]}" | sort -n | sed -n 3p | awk '{ printf "%.2f", $1 / 100 }')"
    done
    echo
  done
  echo
  echo "Each hop between threads costs a switch on each side. In every mode the fetch call sends the request itself. With"
  echo "callbacks on the SDK's thread (the default), the callback thread wakes for the answer, decodes it, runs the callback"
  echo "and wakes the host: one hop. With I/O on the transport thread, that thread wakes for the answer, decodes it and"
  echo "queues the callback, which wakes the host: one hop. I/O in be_sdk_dispatch makes no hop of its own."
  echo
  fi
  if [ -z "$only" ] || [ "$only" = roundtrips ]; then
  echo "## Round trips: what a user waits for on a 100 ms network, $(date -u +%Y-%m-%d)"
  echo
  echo "scripts/roundtrips.sh: the sandbox over TLS 1.3 (a CA made for the run) behind bench/latency_proxy.py, 50 ms"
  echo "each way (a 100 ms round trip, the TCP handshake's included), and nginx over TLS 1.3 with HTTP/2 for the static"
  echo "answers (images-20-h2), each scenario the median of 3 runs, through"
  echo "BlinkEngage (bench/roundtrip_blinkengage.c) and through plain libcurl (bench/roundtrip_curl.c: a fresh"
  echo "connection per scenario, one request per event). Times from the SDK's start (the fetch made right after it),"
  echo "or from the call (at checkout, 2 s after start; the events, from the first report to the flush's end). The"
  echo "proxy counts connections and bytes sent."
  echo
  "$top/scripts/roundtrips.sh" "$top/dist" "$work" 2>/dev/null
  echo
  echo "### Process start to first offers, a later start to the feed, and a reconnect, where the server takes TCP Fast Open"
  echo
  echo "scripts/netns-roundtrips.sh: the kernel's own TCP on both ends, two network namespaces and a packet relay"
  echo "holding each packet 50 ms each way (bench/tun_delay.py), the sandbox over TLS 1.3 taking Fast Open. Each run"
  echo "is a new process; the kernel's cached cookies are flushed before each contender, so a first run has none unless the"
  echo "scenario made a process before it (feed-later-start: the run that stored the identity). The reconnect: nginx in the"
  echo "server's namespace (TLS 1.3, Fast Open and early data on, no kept connection), the second of two image fetches"
  echo "timed (bench/early_data_blinkengage.c), on the system's libcurl and on Debian's backported 8.14.1."
  echo
  "$top/scripts/netns-roundtrips.sh" "$top/dist" 2>/dev/null
  echo
  fi
  if [ -z "$only" ] || [ "$only" = startstop ]; then
  echo "## Start and shutdown on the caller's thread: $(nproc) cores, $(date -u +%Y-%m-%d)"
  echo
  echo "bench/start_stop_blinkengage.c: be_sdk_start, then be_sdk_shutdown with nothing owed, in a fresh storage"
  echo "directory and again in the same one (used), the services on nginx; medians of 7, then the slowest."
  echo "Goals: start at most 2 ms, shutdown at most 1 ms."
  echo
  echo "- $("$work/start_stop_blinkengage" "$base" 7)"
  echo
  fi
  echo "## Tracking: $(nproc) cores, $(date -u +%Y-%m-%d)"
  echo
  [ -n "$only" ] || "$work/tracking_bench" "$base" "${BENCH_EVENTS:-5000}"
} | tee "$report"
# Any BENCH_ONLY: that table alone, printed; BENCHMARKS.md stays as it is.
[ -z "$only" ] || { rm -f "$report"; exit 0; }
# Peak memory of a host transport's answers: test_host_transport's measured cases, against the sandbox, with the
# release library.
cc -std=c99 -O2 -DBE_TEST_HOST_TRANSPORT -Iinclude Tests/CHostTests/c/test_host_transport.c -o "$work/test_host_transport" \
  -Ldist/lib -l:libblinkengage.so.1 -lcurl -lpthread -Wl,-rpath,"$top/dist/lib"
coproc SANDBOX { exec python3 sandbox/server.py --exit-on-stdin-eof; }
read -r line <&"${SANDBOX[0]}"
memory=$(BE_SANDBOX_URL="${line#listening on }" "$work/test_host_transport" | grep "peak RSS" | sed 's/^/- /')
kill "$SANDBOX_PID" 2>/dev/null || true
{
  echo
  echo "## Peak memory of a host transport's answers: $(date -u +%Y-%m-%d)"
  echo
  echo "VmHWM growth from the moment the host completes the request, its own buffer already resident"
  echo "(test_host_transport, release library):"
  echo
  echo "$memory"
} >> "$report"
{
  echo "# Benchmarks"
  echo
  echo "Measured by \`make bench\` (scripts/bench.sh) on this project's 2-core machine; rerun it to refresh this file."
  echo "Times are wall-clock medians of sequential calls; instruction counts come from callgrind and are stable on a"
  echo "noisy machine."
  echo
  cat "$report"
} > BENCHMARKS.md
rm -f "$report"

#!/usr/bin/env bash
# The library and its C hosts under a sanitizer.
#
#   scripts/check-sanitizer.sh thread    ThreadSanitizer: the engine's concurrency suites (swift test) and the C
#                                        hosts that load from 32 threads, report concurrently, dispatch from 8
#                                        threads and shut down during work
#   scripts/check-sanitizer.sh address   AddressSanitizer (with leak checks): every C host test, library and
#                                        host both instrumented
#
# Each C host runs against its own sandbox on an ephemeral loopback port. Any report fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."
kind=${1:?usage: scripts/check-sanitizer.sh thread|address}
case "$kind" in
  thread) flag=thread; scratch=.build/tsan; hosts="test_feed test_hostile test_lifecycle test_screens test_images test_fork";
          suites="OutboxDeliveryTests|OutboxCrashTests|OutboxStorageContractTests|OutboxSchedulingTests|SDKShutdownTests|TransportTests|CallbackQueueTests|StorageContainmentTests|StoreFormatTests" ;;
  address) flag=address; scratch=.build/asan; hosts="test_moments test_lifecycle test_feed test_screens test_zone_ads test_hostile test_images";
           suites="" ;;
  *) echo "usage: scripts/check-sanitizer.sh thread|address" >&2; exit 2 ;;
esac
clang=$(dirname "$(readlink -f "$(command -v swift)")")/clang
runtime=$(dirname "$(readlink -f "$(command -v swift)")")/../lib/swift/linux
log=build/sanitizer-$kind
mkdir -p "$log"

echo "check-$kind: building the library with -sanitize=$flag"
swift build --build-tests --sanitize="$flag" --scratch-path "$scratch" >"$log/build.log" 2>&1 || { tail -30 "$log/build.log"; exit 1; }
lib=$(swift build --sanitize="$flag" --scratch-path "$scratch" --show-bin-path)

# die_after_fork=0: test_fork's children start threads of their own after a multi-threaded fork, which is what
# the fork gate makes safe; ThreadSanitizer refuses that by default.
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1 die_after_fork=0"
export ASAN_OPTIONS="detect_leaks=1 exitcode=66"

if [ -n "$suites" ]; then
  echo "check-$kind: engine suites $suites"
  BE_LIB_DIR="$lib" swift test --sanitize="$flag" --scratch-path "$scratch" --skip-build --filter "$suites" \
    >"$log/swift-test.log" 2>&1 || { grep -E "SUMMARY|WARNING|✘" "$log/swift-test.log" | head -40; exit 1; }
  if grep -q "ThreadSanitizer\|AddressSanitizer" "$log/swift-test.log"; then grep -A30 "Sanitizer" "$log/swift-test.log" | head -60; exit 1; fi
  grep -E "Test run with" "$log/swift-test.log"
fi

failed=0
for host in $hosts; do
  "$clang" -std=c99 -g -O1 -fsanitize="$flag" -fno-omit-frame-pointer -Iinclude "Tests/CHostTests/c/$host.c" \
    -o "$log/$host" -L"$lib" -lblinkengage -lcurl -lpthread -Wl,-rpath,"$lib" \
    -L"$runtime" -ldispatch -lBlocksRuntime -Wl,-rpath,"$runtime" 2>&1 | grep -v "Cannot export local symbol" || true
  coproc SANDBOX { exec python3 sandbox/server.py --exit-on-stdin-eof --api-key demo-key 2>/dev/null; }
  read -r first <&"${SANDBOX[0]}"
  url=${first##* }
  # BE_FORK_HANGS_EXPLAINED: under this runtime a forked child can inherit a lock of Swift's own (test_fork.c).
  if BE_FORKS=20 BE_FORK_HANGS_EXPLAINED=$([ "$kind" = thread ] && echo 1) BE_SANDBOX_URL="$url" "$log/$host" >"$log/$host.log" 2>&1 && ! grep -q "Sanitizer" "$log/$host.log"; then
    echo "check-$kind: $host clean ($(tail -1 "$log/$host.log"))"
  else
    echo "check-$kind: $host FAILED; see $log/$host.log" >&2
    grep -B2 -A30 "Sanitizer" "$log/$host.log" | head -60 >&2 || tail -20 "$log/$host.log" >&2
    failed=1
  fi
  exec {SANDBOX[1]}>&-
  wait "$SANDBOX_PID" 2>/dev/null || true
done
exit $failed

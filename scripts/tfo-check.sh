#!/usr/bin/env bash
# TCP Fast Open across processes, proved by the kernel's own counters: in a network namespace of its own (so the
# machine's settings stay as they are), with net.ipv4.tcp_fastopen=3 there (client and server bits) and the sandbox
# accepting Fast Open, three `blinkengage offers` processes fetch one after another. The first asks the server for
# a cookie; every connection after it opens with data in its SYN (TcpExtTCPFastOpenActive), whichever process makes
# it. Plain libcurl beside it: `curl` without --tcp-fastopen opens none that way, with it, it does.
#
#   scripts/tfo-check.sh DIST    (root; says so and skips where network namespaces cannot be made)
# TFO_CHECK_LIBCURL_DIR=DIR runs the SDK with the libcurl.so.4 in DIR instead of the system's (a newer build, unpacked
# from Debian's backports: ../shared/TOOLCHAIN-NOTES.md).
set -euo pipefail
dist=${1:?usage: scripts/tfo-check.sh DIST}
top=$(cd "$(dirname "$0")/.." && pwd)
namespace="be-tfo-$$"
if [ "$(id -u)" != 0 ] || ! ip netns add "$namespace" 2>/dev/null; then
  echo "tfo-check: skipped: network namespaces cannot be made here (root and CAP_SYS_ADMIN are needed)"
  exit 0
fi
work=$(mktemp -d)
sandbox_pid=""
cleanup() {
  [ -z "$sandbox_pid" ] || kill "$sandbox_pid" 2>/dev/null || true
  [ -z "$sandbox_pid" ] || wait "$sandbox_pid" 2>/dev/null || true
  ip netns del "$namespace" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
inside() { ip netns exec "$namespace" "$@"; }
inside ip link set lo up
inside sysctl -qw net.ipv4.tcp_fastopen=3

# The kernel's counter in the namespace (its /proc/net/netstat is the namespace's own).
counter() {
  inside python3 - "$1" <<'PY'
import sys
lines = [line.split() for line in open("/proc/net/netstat") if line.startswith("TcpExt:")]
print(dict(zip(lines[0][1:], lines[1][1:]))[sys.argv[1]])
PY
}

mkfifo "$work/out"
ip netns exec "$namespace" python3 "$top/sandbox/server.py" --tcp-fastopen > "$work/out" 2>"$work/sandbox.log" &
sandbox_pid=$!
read -r line < "$work/out"
url=${line#listening on }
cat "$work/out" > /dev/null &

sdk_env=()
[ -z "${TFO_CHECK_LIBCURL_DIR:-}" ] || sdk_env=(env "LD_LIBRARY_PATH=$TFO_CHECK_LIBCURL_DIR")
libcurl=$("$top/scripts/libcurl-version.sh" "${TFO_CHECK_LIBCURL_DIR:-}")
fetch() {
  inside "${sdk_env[@]}" "$dist/bin/blinkengage" offers --key demo-key --placement checkout --moments-url "$url" --engage-url "$url" \
    --storage "$work/storage" > "$work/offers.txt"
}

active=$(counter TCPFastOpenActive)
fetch
first=$(( $(counter TCPFastOpenActive) - active ))
cookies=$(counter TCPFastOpenCookieReqd)
fetch
fetch
later=$(( $(counter TCPFastOpenActive) - active - first ))
echo "tfo-check: blinkengage with $libcurl: cookie requests $cookies; Fast Open connections: first process $first, next two $later"
[ "$cookies" -ge 1 ] || { echo "tfo-check: FAILED: the first connection asked for no cookie" >&2; exit 1; }
[ "$later" -ge 2 ] || { echo "tfo-check: FAILED: the later processes opened no Fast Open connection each" >&2; exit 1; }
grep -qx "3 offers" "$work/offers.txt" || { echo "tfo-check: FAILED: no offers were read" >&2; cat "$work/offers.txt" >&2; exit 1; }

before=$(counter TCPFastOpenActive)
inside curl -fsS -o /dev/null "$url/_sandbox/requests"
plain=$(( $(counter TCPFastOpenActive) - before ))
inside curl -fsS -o /dev/null --tcp-fastopen "$url/_sandbox/requests"
fast=$(( $(counter TCPFastOpenActive) - before - plain ))
echo "tfo-check: plain libcurl: Fast Open connections without --tcp-fastopen $plain, with it $fast"
[ "$plain" = 0 ] && [ "$fast" = 1 ] || { echo "tfo-check: FAILED: curl's control run did not behave as expected" >&2; exit 1; }
echo "tfo-check: passed"

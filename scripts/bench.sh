#!/usr/bin/env bash
# The benchmarks under bench/, against nginx on an ephemeral loopback port, with the release library:
#   tracking_bench  one durable report on the caller's thread and events per second report-to-accepted, beside a
#                   naive tracker (one blocking libcurl POST per event), plus instructions per report (callgrind).
# Installs nginx when missing (as root). BENCH_EVENTS sets the number of events (default 5000).
set -euo pipefail
top="$(cd "$(dirname "$0")/.." && pwd)"
cd "$top"
if ! command -v nginx >/dev/null && ! [ -x /usr/sbin/nginx ]; then
  [ "$(id -u)" -eq 0 ] || { echo "missing: nginx (apt-get install nginx-light)" >&2; exit 1; }
  echo "installing: nginx-light"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light >/dev/null; }
fi
nginx=$(command -v nginx || echo /usr/sbin/nginx)
[ -f dist/lib/libblinkengage.so.1 ] || make dist >/dev/null

work=$(mktemp -d /tmp/be-bench-nginx-XXXXXX)
chmod 755 "$work"  # nginx workers run as another user when started by root
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
sed -e "s|@DIR@|$work|g" -e "s|@PORT@|$port|g" bench/nginx.conf.in > "$work/nginx.conf"
cp sandbox/fixtures/offer-feed.json "$work/offer-feed.json"
chmod 644 "$work/offer-feed.json"
"$nginx" -c "$work/nginx.conf" -p "$work" &
nginx_pid=$!
trap 'kill "$nginx_pid" 2>/dev/null || true; wait "$nginx_pid" 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 100); do curl -fs "http://127.0.0.1:$port/v1/events" -d '{}' >/dev/null 2>&1 && break; sleep 0.05; done

cc -std=c99 -O2 -Wall -Wextra -Iinclude bench/tracking_bench.c -o "$work/tracking_bench" \
  -Ldist/lib -l:libblinkengage.so.1 -lcurl -lpthread -Wl,-rpath,"$top/dist/lib"
echo "## Tracking: $(nproc) cores, $(date -u +%Y-%m-%d)"
"$work/tracking_bench" "http://127.0.0.1:$port" "${BENCH_EVENTS:-5000}"

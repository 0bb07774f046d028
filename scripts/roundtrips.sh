#!/usr/bin/env bash
# The round trips a user waits for (issue "Offers at checkout in one round trip"): each scenario through
# BlinkEngage and through plain libcurl, against the sandbox over TLS (a CA made for the run) behind
# bench/latency_proxy.py (ROUNDTRIP_DELAY_MS each way, default 50: a 100 ms round trip). Prints a Markdown table:
# the median of ROUNDTRIP_RUNS runs (default 3) in milliseconds and in round trips, and what the proxy counted;
# ROUNDTRIP_SCENARIOS picks scenarios (default: all).
#   scripts/roundtrips.sh DIST_DIR WORK_DIR
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
dist=${1:-$top/dist}
work=${2:-$(mktemp -d)}
mkdir -p "$work"
delay=${ROUNDTRIP_DELAY_MS:-50}
runs=${ROUNDTRIP_RUNS:-3}
rtt=$((2 * delay))
cc -std=c99 -O2 -Wall -Wextra -I"$top/include" "$top/bench/roundtrip_blinkengage.c" -o "$work/roundtrip_blinkengage" \
  -L"$dist/lib" -l:libblinkengage.so.1 -lpthread -Wl,-rpath,"$dist/lib"
cc -std=c99 -O2 -Wall -Wextra "$top/bench/roundtrip_curl.c" -o "$work/roundtrip_curl" -lcurl

mkdir -p "$work/ca"
coproc SANDBOX { exec python3 "$top/sandbox/server.py" --tls-ca "$work/ca" --exit-on-stdin-eof; }
read -r line <&"${SANDBOX[0]}"
sandbox_port=${line##*:}
coproc PROXY { exec python3 "$top/bench/latency_proxy.py" --target "127.0.0.1:$sandbox_port" --delay-ms "$delay"; }
read -r _ _ proxy_port _ control_port _ <&"${PROXY[0]}"
# nginx over TLS with HTTP/2 for the static answers (the creatives), with the sandbox's certificate, behind a
# proxy of its own.
nginx_port=$(python3 -c "import socket; s=socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])")
mkdir -p "$work/nginx-tls/cdn/c"
for i in $(seq 9000 9019); do cp "$top/sandbox/fixtures/images/offer.png" "$work/nginx-tls/cdn/c/$i.png"; done
cat > "$work/nginx-tls/nginx.conf" <<NGINX
worker_processes 1;
daemon off;
pid $work/nginx-tls/nginx.pid;
error_log $work/nginx-tls/error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path $work/nginx-tls/body;
    proxy_temp_path $work/nginx-tls/proxy;
    fastcgi_temp_path $work/nginx-tls/fastcgi;
    uwsgi_temp_path $work/nginx-tls/uwsgi;
    scgi_temp_path $work/nginx-tls/scgi;
    keepalive_timeout 300s;
    types { image/png png; }
    server {
        listen 127.0.0.1:$nginx_port ssl http2;
        ssl_certificate $work/ca/cert.pem;
        ssl_certificate_key $work/ca/key.pem;
        ssl_protocols TLSv1.3;
        location /cdn/ { alias $work/nginx-tls/cdn/; }
    }
}
NGINX
nginx -c "$work/nginx-tls/nginx.conf" -p "$work/nginx-tls" &
nginx_pid=$!
coproc STATIC_PROXY { exec python3 "$top/bench/latency_proxy.py" --target "127.0.0.1:$nginx_port" --delay-ms "$delay"; }
read -r _ _ static_port _ static_control _ <&"${STATIC_PROXY[0]}"
# The two pixel hosts of an offer, each a host of its own: proxies in front of the same sandbox.
coproc TRACK_PROXY { exec python3 "$top/bench/latency_proxy.py" --target "127.0.0.1:$sandbox_port" --delay-ms "$delay"; }
read -r _ _ track_port _ _ <&"${TRACK_PROXY[0]}"
coproc ADV_PROXY { exec python3 "$top/bench/latency_proxy.py" --target "127.0.0.1:$sandbox_port" --delay-ms "$delay"; }
read -r _ _ adv_port _ _ <&"${ADV_PROXY[0]}"
curl -s --cacert "$work/ca/ca.pem" -X POST "https://127.0.0.1:$sandbox_port/_sandbox/hosts" \
  -d "{\"track\": \"https://127.0.0.1:$track_port\", \"adv\": \"https://127.0.0.1:$adv_port\"}" >/dev/null
trap 'kill "$SANDBOX_PID" "$PROXY_PID" "$STATIC_PROXY_PID" "$TRACK_PROXY_PID" "$ADV_PROXY_PID" "$nginx_pid" 2>/dev/null || true' EXIT
for _ in $(seq 100); do curl -s -o /dev/null --cacert "$work/ca/ca.pem" "https://127.0.0.1:$nginx_port/cdn/c/9000.png" && break; sleep 0.1; done
base="https://127.0.0.1:$proxy_port"
static_base="https://127.0.0.1:$static_port"
counters() { curl -s "http://127.0.0.1:$control_port/"; }
static_counters() { curl -s "http://127.0.0.1:$static_control/"; }
field() { python3 -c "import json,sys; print(json.loads(sys.argv[1])[sys.argv[2]])" "$1" "$2"; }

# The programs' name for a scenario: images-20-h2 is images-20 against nginx, did-appear-1-host did-appear-3-hosts
# with the pixels on the Engage host.
program_scenario() { case $1 in images-20-h2) echo images-20 ;; did-appear-1-host) echo did-appear-3-hosts ;; *) echo "$1" ;; esac; }

# One contender's runs of one scenario: "median_ms connections requests bytes_up" (per run, medians).
measure() {
  local contender=$1 scenario=$2 results; results=$(mktemp)
  local target=$base count=counters
  # images-20-h2: the creatives from nginx over HTTP/2 (ALPN), the same program
  if [ "$scenario" = images-20-h2 ]; then target=$static_base count=static_counters; fi
  for run in $(seq "$runs"); do
    local storage="$work/storage-$contender-$scenario-$run"
    rm -rf "$storage" && mkdir -p "$storage"
    if [ "$scenario" = feed-later-start ] && [ "$contender" = blinkengage ]; then
      "$work/roundtrip_blinkengage" feed-first-start "$base" "$work/ca/ca.pem" "$storage" >/dev/null  # the identity stored
    fi
    local before after out
    # did-appear-1-host: the pixels on the Engage host itself (through its proxy), as most answers have them
    local hosts="{\"track\": \"https://127.0.0.1:$track_port\", \"adv\": \"https://127.0.0.1:$adv_port\"}"
    [ "$scenario" != did-appear-1-host ] || hosts="{\"track\": \"$base\", \"adv\": \"$base\"}"
    curl -s --cacert "$work/ca/ca.pem" -X POST "https://127.0.0.1:$sandbox_port/_sandbox/hosts" -d "$hosts" >/dev/null
    before=$($count)
    if [ "$contender" = blinkengage ]; then
      out=$("$work/roundtrip_blinkengage" "$(program_scenario "$scenario")" "$target" "$work/ca/ca.pem" "$storage")
    else
      local track="https://127.0.0.1:$track_port" adv="https://127.0.0.1:$adv_port"
      [ "$scenario" != did-appear-1-host ] || track=$base adv=$base
      out=$("$work/roundtrip_curl" "$(program_scenario "$scenario")" "$target" "$work/ca/ca.pem" "$track" "$adv")
    fi
    after=$($count)
    echo "$out $(( $(field "$after" connections) - $(field "$before" connections) )) $(( $(field "$after" bytes_up) - $(field "$before" bytes_up) ))" >> "$results"
  done
  python3 - "$results" <<'PY'
import statistics, sys
rows = [list(map(float, line.split())) for line in open(sys.argv[1])]
print(" ".join(f"{statistics.median(r[i] for r in rows):.1f}" for i in range(4)))
PY
  rm -f "$results"
}

echo "| scenario | BlinkEngage | plain libcurl | BlinkEngage: connections, requests, bytes sent | libcurl: connections, requests, bytes sent |"
echo "|---|---|---|---|---|"
for scenario in ${ROUNDTRIP_SCENARIOS:-moments-at-start moments-at-checkout moments-at-checkout-cold feed-first-start feed-later-start did-appear-3-hosts did-appear-1-host images-20 images-20-h2 events-500}; do
  read -r be_ms be_requests be_connections be_bytes < <(measure blinkengage "$scenario")
  read -r curl_ms curl_requests curl_connections curl_bytes < <(measure curl "$scenario")
  printf "| %s | %.0f ms (%.1f RTT) | %.0f ms (%.1f RTT) | %.0f, %.0f, %.0f | %.0f, %.0f, %.0f |\n" "$scenario" \
    "$be_ms" "$(python3 -c "print($be_ms / $rtt)")" "$curl_ms" "$(python3 -c "print($curl_ms / $rtt)")" \
    "$be_connections" "$be_requests" "$be_bytes" "$curl_connections" "$curl_requests" "$curl_bytes"
done

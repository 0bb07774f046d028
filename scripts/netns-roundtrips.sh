#!/usr/bin/env bash
# Process start -> first offers (and a later start -> the feed) over a delayed path where TCP Fast Open can work (it cannot cross the user-space TCP
# proxy of scripts/roundtrips.sh): two network namespaces joined by a packet relay that holds every packet
# ROUNDTRIP_DELAY_MS each way (default 50: a 100 ms round trip; bench/tun_delay.py), the sandbox over TLS 1.3 (a CA made for the run)
# accepting Fast Open in one (net.ipv4.tcp_fastopen=3 there), the clients in the other. Each contender runs
# ROUNDTRIP_RUNS times (default 3), each run a new process with a new storage directory: the first run of each has
# no cookie yet (the kernel's cached cookies are flushed before each contender), the later ones have the one the
# first got (the kernel keeps them per server, for every process). Prints a Markdown
# table: each run in milliseconds and in round trips.
#   scripts/netns-roundtrips.sh DIST_DIR   (root; says so and skips where network namespaces cannot be made)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
dist=${1:-$top/dist}
delay=${ROUNDTRIP_DELAY_MS:-50}
runs=${ROUNDTRIP_RUNS:-3}
rtt=$((2 * delay))
server="be-rt-server-$$" client="be-rt-client-$$"
if [ "$(id -u)" != 0 ] || ! ip netns add "$server" 2>/dev/null; then
  echo "netns-roundtrips: skipped: network namespaces cannot be made here (root and CAP_SYS_ADMIN are needed)"
  exit 0
fi
ip netns add "$client"
work=$(mktemp -d)
sandbox_pid="" relay_pid="" nginx_pid=""
cleanup() {
  [ -z "$nginx_pid" ] || kill "$nginx_pid" 2>/dev/null || true
  [ -z "$relay_pid" ] || kill "$relay_pid" 2>/dev/null || true
  [ -z "$sandbox_pid" ] || kill "$sandbox_pid" 2>/dev/null || true
  [ -z "$sandbox_pid" ] || wait "$sandbox_pid" 2>/dev/null || true
  ip netns del "$server" 2>/dev/null || true
  ip netns del "$client" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# netem is not in every kernel (not in this machine's): the delay is bench/tun_delay.py's, between a TUN device in
# each namespace, so both ends keep the kernel's own TCP.
ip -n "$server" tuntap add dev be-rt-s mode tun
ip -n "$client" tuntap add dev be-rt-c mode tun
ip -n "$server" addr add 10.77.0.1 peer 10.77.0.2 dev be-rt-s
ip -n "$client" addr add 10.77.0.2 peer 10.77.0.1 dev be-rt-c
for side in "$server:be-rt-s" "$client:be-rt-c"; do
  ip -n "${side%%:*}" link set lo up
  ip -n "${side%%:*}" link set "${side#*:}" up
done
mkfifo "$work/relay"
python3 "$top/bench/tun_delay.py" "$server" be-rt-s "$client" be-rt-c "$delay" > "$work/relay" &
relay_pid=$!
read -r _ < "$work/relay"
ip netns exec "$server" sysctl -qw net.ipv4.tcp_fastopen=3
ip netns exec "$client" sysctl -qw net.ipv4.tcp_fastopen=1

cc -std=c99 -O2 -Wall -Wextra -I"$top/include" "$top/bench/roundtrip_blinkengage.c" -o "$work/roundtrip_blinkengage" \
  -L"$dist/lib" -l:libblinkengage.so.1 -lpthread -Wl,-rpath,"$dist/lib"
cc -std=c99 -O2 -Wall -Wextra "$top/bench/roundtrip_curl.c" -o "$work/roundtrip_curl" -lcurl

mkfifo "$work/out"
ip netns exec "$server" python3 "$top/sandbox/server.py" --host 10.77.0.1 --tls-ca "$work/ca" --tcp-fastopen \
  > "$work/out" 2>"$work/sandbox.log" &
sandbox_pid=$!
read -r line < "$work/out"
cat "$work/out" > /dev/null &
base=${line#listening on }

# One contender's runs of a scenario: milliseconds of each, in order. feed-later-start has the identity stored
# by a feed-first-start run in the same storage directory first, outside the time.
runs_of() {
  local contender=$1 scenario=$2 run
  for run in $(seq "$runs"); do
    local storage="$work/storage-$contender-$scenario-$run"
    mkdir -p "$storage"
    if [ "$scenario" = feed-later-start ] && [ "$contender" = blinkengage ]; then
      ip netns exec "$client" "$work/roundtrip_blinkengage" feed-first-start "$base" "$work/ca/ca.pem" "$storage" > /dev/null
    fi
    case $contender in
      blinkengage) ip netns exec "$client" "$work/roundtrip_blinkengage" "$scenario" "$base" "$work/ca/ca.pem" "$storage" ;;
      curl) ip netns exec "$client" "$work/roundtrip_curl" "$scenario" "$base" "$work/ca/ca.pem" ;;
      curl-tfo) ip netns exec "$client" env ROUNDTRIP_CURL_TFO=1 "$work/roundtrip_curl" "$scenario" "$base" "$work/ca/ca.pem" ;;
    esac | awk '{ print $1 }'
  done
}

echo "| scenario | contender | $(seq -s ' | ' -f 'run %g' "$runs") |"
echo "|---|---|$(printf -- '---|%.0s' $(seq "$runs"))"
for scenario in ${ROUNDTRIP_SCENARIOS:-moments-at-start feed-later-start}; do
for contender in curl curl-tfo blinkengage; do
  case $contender in
    blinkengage) label="BlinkEngage (Fast Open where libcurl has it)" ;;
    curl) label="plain libcurl" ;;
    curl-tfo) label="plain libcurl with CURLOPT_TCP_FASTOPEN" ;;
  esac
  cells=""
  ip -n "$client" tcp_metrics flush all 2>/dev/null || true  # each contender's first run without a cookie
  for ms in $(runs_of "$contender" "$scenario"); do
    cells="$cells | $(python3 -c "print(f'{$ms:.0f} ms ({$ms / $rtt:.1f} RT)')")"
  done
  echo "| $scenario | $label$cells |"
done
done

# A reconnect within a process: nginx in the server's namespace over TLS 1.3, taking Fast Open and early data and
# keeping no connection, and bench/early_data_blinkengage.c fetching two images, one connection each. The second
# fetch is timed: TCP Fast Open alone saves the TCP round trip; early data on the resumed connection saves the one
# that waits for the handshake. Run on the system's libcurl and on a newer one (NETNS_NEWER_LIBCURL_DIR, default
# the one scripts/early-data-check.sh unpacks into build/backports) when there is one.
if command -v nginx >/dev/null; then
  nginx_port=$(ip netns exec "$server" python3 -c "import socket; s=socket.socket(); s.bind(('10.77.0.1', 0)); print(s.getsockname()[1])")
  "$top/scripts/early-data-nginx.sh" "$work/nginx" "10.77.0.1:$nginx_port ssl fastopen=16" "$work/ca"
  chmod -R a+rX "$work"
  ip netns exec "$server" nginx -c "$work/nginx/nginx.conf" -p "$work/nginx" &
  nginx_pid=$!
  for _ in $(seq 100); do
    ip netns exec "$client" curl -fs -o /dev/null --cacert "$work/ca/ca.pem" "https://10.77.0.1:$nginx_port/img/a.png" && break
    sleep 0.1
  done
  cc -std=c99 -O2 -Wall -Wextra -I"$top/include" "$top/bench/early_data_blinkengage.c" -o "$work/early_data_blinkengage" \
    -L"$dist/lib" -l:libblinkengage.so.1 -lpthread -Wl,-rpath,"$dist/lib"
  newer=${NETNS_NEWER_LIBCURL_DIR:-$top/build/backports/root/usr/lib/x86_64-linux-gnu}
  echo "| reconnect within a process: the second image's fetch | $(seq -s ' | ' -f 'run %g' "$runs") |"
  echo "|---|$(printf -- '---|%.0s' $(seq "$runs"))"
  for library in "" "$newer"; do
    [ -z "$library" ] || [ -e "$library/libcurl.so.4" ] || continue
    name=$("$top/scripts/libcurl-version.sh" "$library")
    cells=""
    for run in $(seq "$runs"); do
      storage=$(mktemp -d -p "$work")
      ms=$(ip netns exec "$client" env ${library:+LD_LIBRARY_PATH=$library} "$work/early_data_blinkengage" \
        "https://10.77.0.1:$nginx_port" "$work/ca/ca.pem" "$storage" /img/a.png /img/b.png | awk '$2 == "/img/b.png" { print $3 }')
      cells="$cells | $(python3 -c "print(f'{$ms:.0f} ms ({$ms / $rtt:.1f} RT)')")"
    done
    echo "| BlinkEngage with $name$cells |"
  done
  echo
  echo "nginx's log of those fetches: $(awk '{ print $3 }' "$work/nginx/access.log" | sort | uniq -c | awk '{ printf "%s %s; ", $2, $1 }')"
fi
echo
echo "Fast Open in the clients' namespace: $(ip netns exec "$client" nstat -az TcpExtTCPFastOpenActive TcpExtTCPFastOpenCookieReqd \
  | awk '/TcpExt/ { printf "%s %s; ", $1, $2 }')"

#!/usr/bin/env bash
# Starts the sandbox on an ephemeral port, builds the C examples against the library, runs them, stops it.
set -euo pipefail
libdir="$1"
top="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"

coproc SANDBOX { exec python3 "$top/sandbox/server.py" --exit-on-stdin-eof; }
trap 'kill "$SANDBOX_PID" 2>/dev/null || true; rm -rf "$work"' EXIT
read -r line <&"${SANDBOX[0]}"
url="${line#listening on }"
echo "sandbox: $url"

for example in moments_offers offer_feed zone_ad offer_unit; do
  gcc -std=c99 -Wall -Wextra -Werror -pedantic -I"$top/include" "$top/examples-c/$example.c" -o "$work/$example" \
    -L"$libdir" -lblinkengage -lpthread -Wl,-rpath,"$libdir"
done

echo "== moments_offers: offers for the checkout placement"
"$work/moments_offers" "$url/native/v4" demo-key checkout

echo
echo "== offer_feed: the client-side feed, screens and events"
"$work/offer_feed" "$url" demo-key demo-user

echo
echo "== zone_ad: the legacy one-line ad of zone 1"
"$work/zone_ad" "$url/api/adAPI.php?AdID={zone}" 1 "$url"

echo
echo "== offer_unit: the single-offer unit in the terminal (keys: next, previous, decline, accept, close)"
"$work/offer_unit" "$url/native/v4" --keys npdac

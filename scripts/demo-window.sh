#!/usr/bin/env bash
# Starts the sandbox on an ephemeral port, builds an SDL2 example and opens it in a window: examples-c/offer_window.c
# (the offer unit), or with `wall` as the second argument examples-c/offer_wall.c (the offer wall of demo-user).
# Without a display ($DISPLAY unset) it runs under Xvfb instead and saves build/<example>.bmp.
set -euo pipefail
libdir="$1"
example=offer_window
[ "${2:-}" = wall ] && example=offer_wall
top="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"

gcc -std=c99 -Wall -Wextra -Werror -pedantic -I"$top/include" $(pkg-config --cflags sdl2 SDL2_image SDL2_ttf) \
  "$top/examples-c/$example.c" -o "$work/$example" -L"$libdir" -lblinkengage -Wl,-rpath,"$libdir" \
  $(pkg-config --libs sdl2 SDL2_image SDL2_ttf) -lm

coproc SANDBOX { exec python3 "$top/sandbox/server.py" --exit-on-stdin-eof; }
trap 'kill "$SANDBOX_PID" 2>/dev/null || true; rm -rf "$work"' EXIT
read -r line <&"${SANDBOX[0]}"
url="${line#listening on }"
echo "sandbox: $url"
if [ "$example" = offer_wall ]; then
  target=("$url" --user demo-user)
  keys="V view all, O open an offer, Y accept, N decline, B back, Q quit"
else
  target=("$url/native/v4")
  keys="Right/Left browse, Y accept, N decline, Esc close, Q quit"
fi

if [ -n "${DISPLAY:-}" ]; then
  echo "$example: $keys"
  "$work/$example" "${target[@]}"
else
  mkdir -p "$top/build"
  echo "no display: running under Xvfb and saving a screenshot"
  xvfb-run -a -s "-screen 0 800x700x24 -nolisten tcp" "$work/$example" "${target[@]}" --keys "" \
    --screenshot "$top/build/$example.bmp"
  echo "screenshot: $top/build/$example.bmp"
fi

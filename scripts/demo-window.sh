#!/usr/bin/env bash
# Starts the sandbox on an ephemeral port, builds examples-c/offer_window.c (SDL2) and opens the offer unit in a
# window. Without a display ($DISPLAY unset) it runs under Xvfb instead and saves build/offer_window.bmp.
set -euo pipefail
libdir="$1"
top="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"

gcc -std=c99 -Wall -Wextra -Werror -pedantic -I"$top/include" $(pkg-config --cflags sdl2 SDL2_image SDL2_ttf) \
  "$top/examples-c/offer_window.c" -o "$work/offer_window" -L"$libdir" -lblinkengage -Wl,-rpath,"$libdir" \
  $(pkg-config --libs sdl2 SDL2_image SDL2_ttf) -lm

coproc SANDBOX { exec python3 "$top/sandbox/server.py" --exit-on-stdin-eof; }
trap 'kill "$SANDBOX_PID" 2>/dev/null || true; rm -rf "$work"' EXIT
read -r line <&"${SANDBOX[0]}"
url="${line#listening on }"
echo "sandbox: $url"

if [ -n "${DISPLAY:-}" ]; then
  echo "offer_window: Right/Left browse, Y accept, N decline, Esc close, Q quit"
  "$work/offer_window" "$url/native/v4" "$@"
else
  mkdir -p "$top/build"
  echo "no display: running under Xvfb and saving a screenshot"
  xvfb-run -a -s "-screen 0 800x700x24 -nolisten tcp" "$work/offer_window" "$url/native/v4" --keys "" \
    --screenshot "$top/build/offer_window.bmp"
  echo "screenshot: $top/build/offer_window.bmp"
fi

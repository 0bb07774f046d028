#!/usr/bin/env bash
# The Python binding as a user gets it: installs the wheel into a fresh virtual environment outside the tree,
# runs the pytest suite (sync and asyncio) and mypy --strict on the tests and examples from there, and runs
# both examples against a sandbox.   scripts/python-test.sh WHEEL
set -euo pipefail
wheel="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
top="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 -m venv "$work/venv"
"$work/venv/bin/python" -m pip install -q "$wheel" pytest mypy
site="$("$work/venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
cd "$work"  # outside the tree: only the installed package can be imported
unset BLINKENGAGE_LIBRARY PYTHONPATH
BLINKENGAGE_EXPECT_INSTALLED="$site/blinkengage" "$work/venv/bin/python" -m pytest -q -p no:cacheprovider "$top/bindings/python/tests"
"$work/venv/bin/python" -m mypy --strict --cache-dir "$work/mypy" "$top/bindings/python/tests" "$top/bindings/python/examples"

coproc SANDBOX { exec python3 "$top/sandbox/server.py" --exit-on-stdin-eof; }
trap 'kill "$SANDBOX_PID" 2>/dev/null || true; rm -rf "$work"' EXIT
read -r line <&"${SANDBOX[0]}"
url="${line#listening on }"
"$work/venv/bin/python" "$top/bindings/python/examples/offers.py" "$url/native/v4" "$url" "$work/example-storage" | tee "$work/offers.txt"
grep -q "^3 offers$" "$work/offers.txt" && grep -q "^2 groups$" "$work/offers.txt"
"$work/venv/bin/python" "$top/bindings/python/examples/async_offers.py" "$url" | tee "$work/async.txt"
grep -q "^zone 1: shown" "$work/async.txt"
echo "python: the wheel $(basename "$wheel") passed from a fresh virtual environment"

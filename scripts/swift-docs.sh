#!/usr/bin/env bash
# The Swift surface's reference: the module's symbol graph (extracted from the built module, no plugin), checked
# for an undocumented public symbol, then rendered by the toolchain's docc with the catalog in
# Sources/BlinkEngage/BlinkEngage.docc into build/docs/swift. Any docc warning fails it.
set -euo pipefail
top="$(cd "$(dirname "$0")/.." && pwd)"
cd "$top"
swift build --target BlinkEngage >/dev/null
modules="$(swift build --show-bin-path)/Modules"
graphs="$(mktemp -d)"
trap 'rm -rf "$graphs"' EXIT
includes=()
for shim in CCurl CSQLite CIDN2 CSystemShims CPlatform CJSONScan/include; do
  includes+=(-Xcc "-fmodule-map-file=Sources/$shim/module.modulemap" -I "Sources/$shim")
done
swift symbolgraph-extract -module-name BlinkEngage -I "$modules" "${includes[@]}" -target "$(uname -m)-unknown-linux-gnu" \
  -minimum-access-level public -output-dir "$graphs"
python3 - "$graphs/BlinkEngage.symbols.json" <<'PY'
import json, sys
symbols = json.load(open(sys.argv[1]))["symbols"]
# Symbols with a location are declared in this module's sources (not inherited from the standard library).
missing = [".".join(s["pathComponents"]) for s in symbols if "location" in s and "docComment" not in s
           and s["pathComponents"][-1] not in ("==(_:_:)",)]
if missing:
    print("undocumented public symbols of BlinkEngage:", *missing, sep="\n  ", file=sys.stderr)
    sys.exit(1)
print(f"swift docs: {sum('location' in s for s in symbols)} public symbols, each documented")
PY
rm -rf build/docs/swift && mkdir -p build/docs
docc convert Sources/BlinkEngage/BlinkEngage.docc --additional-symbol-graph-dir "$graphs" --output-path build/docs/swift \
  --fallback-display-name BlinkEngage --fallback-bundle-identifier com.blinkengage.BlinkEngage --warnings-as-errors >/dev/null
echo "swift docs: build/docs/swift/documentation/blinkengage"

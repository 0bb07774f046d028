#!/usr/bin/env bash
# The C# binding (bindings/csharp) with Debian's Mono: builds the runtime assembly against the .NET 4.7.2
# reference profile (what Unity's .NET Framework profile offers), checks the UPM package as Unity reads it
# (check_package.py) and compiles the runner and the sample against a stand-in for the UnityEngine types they
# use, then runs the test suite
# against the sandbox twice: with the JIT, and under full AOT (every assembly compiled ahead, no JIT at all:
# the stand-in for IL2CPP's rules).   scripts/csharp-test.sh DIST_DIR
set -euo pipefail
top="$(cd "$(dirname "$0")/.." && pwd)"
dist="$(cd "${1:-$top/dist}" && pwd)"
pkg="$top/bindings/csharp"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

"$top/scripts/bindings-build.sh" "$work" "$dist" csharp
python3 "$pkg/Tests~/check_package.py" "$pkg"
# The Unity assembly (the runner) and the sample against a stand-in for the UnityEngine types they use; the suite
# drives the runner's frames through the same stand-in.
mcs -sdk:4.7.2 -target:library -out:"$work/UnityEngine.dll" "$pkg/Tests~/UnityEngineStandIn.cs"
mcs -sdk:4.7.2 -target:library -warnaserror -r:"$work/BlinkEngage.dll" -r:"$work/UnityEngine.dll" -out:"$work/BlinkEngage.Unity.dll" \
    "$pkg"/Unity/*.cs
mcs -sdk:4.7.2 -target:library -warnaserror -r:"$work/BlinkEngage.dll" -r:"$work/UnityEngine.dll" -out:"$work/Sample.dll" \
    "$pkg"/Samples~/FetchOffers/*.cs
mcs -sdk:4.7.2 -warnaserror -r:"$work/BlinkEngage.dll" -r:"$work/BlinkEngage.Unity.dll" -r:"$work/UnityEngine.dll" \
    -r:System.Core.dll -out:"$work/BlinkEngage.Tests.exe" $(ls "$pkg"/Tests~/*.cs | grep -v UnityEngineStandIn.cs)
mcs -sdk:4.7.2 -warnaserror -r:"$work/BlinkEngage.dll" -out:"$work/Offers.exe" "$pkg"/Examples~/Offers.cs

# The header as the checks read it, and the C compiler's struct layout.
"$top/scripts/header-abi.py" "$top/include/blinkengage.h" > "$work/header.abi"
{
  echo '#include <stdio.h>'; echo '#include <stddef.h>'; echo '#include "blinkengage.h"'; echo 'int main(void) {'
  awk '$1 == "field" { printf "    printf(\"%s %s %%zu\\n\", offsetof(%s, %s));\n", $2, $3, $2, $3; seen[$2] = 1 }
       END { for (s in seen) printf "    printf(\"%s sizeof %%zu\\n\", sizeof(%s));\n", s, s }' "$work/header.abi"
  echo '    return 0;'; echo '}'
} > "$work/offsets.c"
gcc -std=c99 -Wall -Werror -I "$top/include" "$work/offsets.c" -o "$work/offsets"
"$work/offsets" > "$work/offsets.txt"

export BE_HEADER_ABI="$work/header.abi" BE_STRUCT_OFFSETS="$work/offsets.txt" BE_TOP_DIR="$top"
export LD_LIBRARY_PATH="$dist/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
cd "$work"
echo "csharp: the suite with the JIT"
mono --debug BlinkEngage.Tests.exe

echo "csharp: the README's example against a sandbox"
coproc SANDBOX { exec python3 "$top/sandbox/server.py" --exit-on-stdin-eof; }
read -r line <&"${SANDBOX[0]}"
mono Offers.exe "${line#listening on }/native/v4" "${line#listening on }" "$work/example-storage" | tee offers.txt
kill "$SANDBOX_PID" 2>/dev/null || true
grep -q "^3 offers$" offers.txt && grep -q "^2 groups$" offers.txt

echo "csharp: the suite under full AOT"
mkdir aot
cp BlinkEngage.dll BlinkEngage.Unity.dll UnityEngine.dll BlinkEngage.Tests.exe aot/
for assembly in mscorlib System System.Core Mono.Security System.Configuration System.Xml System.Security System.Numerics; do cp "/usr/lib/mono/4.5/$assembly.dll" aot/; done
cd aot
for assembly in *.dll BlinkEngage.Tests.exe; do
  MONO_PATH=. mono --aot=full "$assembly" > "$assembly.aot.log" 2>&1 || { cat "$assembly.aot.log"; exit 1; }
done
MONO_PATH=. mono --full-aot BlinkEngage.Tests.exe

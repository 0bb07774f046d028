#!/usr/bin/env bash
# The Java binding (bindings/java) with Debian's JDK 17 and JUnit 4: builds the JNI shim against the release
# library and the jar with javac and jar (no Gradle or Maven), runs the JUnit suites against the sandbox twice,
# plainly and under -Xcheck:jni (any JNI warning fails), and the README's example.   scripts/java-test.sh DIST_DIR
set -euo pipefail
top="$(cd "$(dirname "$0")/.." && pwd)"
dist="$(cd "${1:-$top/dist}" && pwd)"
pkg="$top/bindings/java"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
junit="/usr/share/java/junit4.jar:/usr/share/java/hamcrest-core.jar"

"$top/scripts/bindings-build.sh" "$work" "$dist" java
javac --release 17 -d "$work/test" -cp "$work/blinkengage.jar:$junit" $(find "$pkg/src/test" -name '*.java')
javac --release 17 -Xlint:all -Werror -d "$work/examples" -cp "$work/blinkengage.jar" "$pkg/examples/Offers.java"
"$top/scripts/header-abi.py" "$top/include/blinkengage.h" > "$work/header.abi"

# What the jar must hold to work alone: the shim and the library for this platform, the consumer rules, the pom.
listing=$(jar --list --file "$work/blinkengage.jar")
for entry in "native/linux-$(uname -m)/libblinkengage_jni.so" "native/linux-$(uname -m)/libblinkengage.so.1" \
             META-INF/proguard/blinkengage.pro META-INF/maven/com.blinkengage/blinkengage/pom.xml; do
  grep -qx "$entry" <<<"$listing" || { echo "java: the jar lacks $entry" >&2; exit 1; }
done
python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$work/pom.xml"

# Every run loads the native code the way an integrator's does: from the jar alone, no java.library.path.
run() {
  java "$@" -Dblinkengage.top="$top" -Dblinkengage.header.abi="$work/header.abi" \
       -cp "$work/blinkengage.jar:$work/test:$junit" org.junit.runner.JUnitCore \
       com.blinkengage.HeaderTest com.blinkengage.SdkTest com.blinkengage.SoakTest
}
echo "java: the suite"
run
echo "java: the suite under -Xcheck:jni"
run -Xcheck:jni 2>&1 | tee "$work/checked.txt"
grep -q '^OK (' "$work/checked.txt" || { echo "java: the suite failed under -Xcheck:jni" >&2; exit 1; }
if grep -E 'WARNING|FATAL ERROR in native method' "$work/checked.txt"; then
  echo "java: -Xcheck:jni reported the lines above" >&2
  exit 1
fi

echo "java: the README's example against a sandbox"
coproc SANDBOX { exec python3 "$top/sandbox/server.py" --exit-on-stdin-eof 2>/dev/null; }
read -r line <&"${SANDBOX[0]}"
# From a directory of its own with only the jar: java -cp blinkengage.jar and nothing else.
mkdir -p "$work/alone" && cp "$work/blinkengage.jar" "$work/alone/" && cp -r "$work/examples" "$work/alone/"
(cd "$work/alone" && env -u LD_LIBRARY_PATH java -cp "blinkengage.jar:examples" Offers "${line#listening on }/native/v4" \
   "${line#listening on }" "$work/example-storage") | tee "$work/offers.txt"
kill "$SANDBOX_PID" 2>/dev/null || true
grep -q "^3 offers$" "$work/offers.txt" && grep -q "^2 groups$" "$work/offers.txt"

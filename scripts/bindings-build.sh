#!/usr/bin/env bash
# Builds the C# and Java bindings into OUT_DIR against the release library in DIST_DIR:
#   BlinkEngage.dll              the C# runtime assembly, against the .NET 4.7.2 reference profile (Unity's)
#   libblinkengage_jni.so        the JNI shim, with DIST_DIR/lib as its run-time path
#   blinkengage.jar              the Java API
# scripts/bindings-build.sh OUT_DIR DIST_DIR [csharp|java]   (both when the third is absent)
set -euo pipefail
top="$(cd "$(dirname "$0")/.." && pwd)"
out="$1"
dist="$(cd "$2" && pwd)"
mkdir -p "$out"
if [ "${3:-csharp}" = csharp ]; then
  mcs -sdk:4.7.2 -optimize -unsafe -target:library -warnaserror -out:"$out/BlinkEngage.dll" "$top"/bindings/csharp/Runtime/*.cs
fi
if [ "${3:-java}" = java ]; then
  java_home="$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")"
  gcc -std=c11 -O2 -Wall -Wextra -Werror -fPIC -shared -I "$java_home/include" -I "$java_home/include/linux" \
      -I "$top/include" "$top/bindings/java/jni/blinkengage_jni.c" -o "$out/libblinkengage_jni.so" \
      -L "$dist/lib" -l:libblinkengage.so.1 -Wl,-rpath,"$dist/lib"
  rm -rf "$out/java-classes"
  javac --release 17 -Xlint:all -Werror -d "$out/java-classes" $(find "$top/bindings/java/src/main" -name '*.java')
  jar --create --file "$out/blinkengage.jar" -C "$out/java-classes" .
fi

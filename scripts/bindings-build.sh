#!/usr/bin/env bash
# Builds the C# and Java bindings into OUT_DIR against the release library in DIST_DIR:
#   BlinkEngage.dll              the C# runtime assembly, against the .NET 4.7.2 reference profile (Unity's)
#   libblinkengage_jni.so        the JNI shim, finding libblinkengage.so.1 beside it (copied there too)
#   blinkengage.jar              the Java API with the shim and the library inside (NativeLoader), the R8/ProGuard
#                                rules and the pom; pom.xml beside it
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
  version=$(sed -n 's/^#define BE_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\).*/\2/p' "$top/include/blinkengage.h" | paste -sd.)
  # The shim finds the library beside it ($ORIGIN): in the jar's folder for the platform, and in OUT_DIR.
  gcc -std=c11 -O2 -Wall -Wextra -Werror -fPIC -shared -I "$java_home/include" -I "$java_home/include/linux" \
      -I "$top/include" "$top/bindings/java/jni/blinkengage_jni.c" -o "$out/libblinkengage_jni.so" \
      -L "$dist/lib" -l:libblinkengage.so.1 -Wl,-rpath,'$ORIGIN'
  cp "$dist/lib/libblinkengage.so.1" "$out/libblinkengage.so.1"
  rm -rf "$out/java-classes"
  javac --release 17 -Xlint:all -Werror -d "$out/java-classes" $(find "$top/bindings/java/src/main" -name '*.java')
  # One jar that works with java -cp blinkengage.jar and nothing else: the classes, the shim and the library for
  # this platform (NativeLoader unpacks them), the R8/ProGuard rules an Android build applies by itself, the pom.
  platform="linux-$(uname -m)"
  mkdir -p "$out/java-classes/native/$platform" "$out/java-classes/META-INF/proguard" \
           "$out/java-classes/META-INF/maven/com.blinkengage/blinkengage"
  cp "$out/libblinkengage_jni.so" "$out/libblinkengage.so.1" "$out/java-classes/native/$platform/"
  cp "$top/bindings/java/proguard/blinkengage.pro" "$out/java-classes/META-INF/proguard/"
  sed "s|@VERSION@|$version|" "$top/bindings/java/pom.xml" > "$out/java-classes/META-INF/maven/com.blinkengage/blinkengage/pom.xml"
  sed "s|@VERSION@|$version|" "$top/bindings/java/pom.xml" > "$out/pom.xml"
  printf 'Implementation-Title: BlinkEngage\nImplementation-Version: %s\nAutomatic-Module-Name: com.blinkengage\n' "$version" > "$out/manifest.txt"
  jar --create --file "$out/blinkengage.jar" --manifest "$out/manifest.txt" -C "$out/java-classes" .
fi

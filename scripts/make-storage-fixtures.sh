#!/usr/bin/env bash
# Storage directories written by the real earlier releases, for the upgrade tests (StoreFormatTests): each
# release is built from its own commit in a worktree, Tests/Fixtures/storage/write_storage.c runs against the
# sandbox with it while events and beacons are refused (503 with a day's Retry-After), and the storage directory
# it leaves is kept, as it is, in Tests/Fixtures/storage/<version>/ with <version>.json, the manifest it printed.
# Run by hand when a release is added; its output is committed.
#
# usage: scripts/make-storage-fixtures.sh [VERSION ...]   (default: every release below)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
declare -A commits=([0.1.0]=cf7b4bf [0.2.0]=b8378d3)
versions=("$@")
[ ${#versions[@]} -gt 0 ] || versions=(0.1.0 0.2.0)
work=$(mktemp -d)
cleanup() {
    for version in "${versions[@]}"; do git -C "$root" worktree remove --force "$work/$version" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT

# The sandbox, on an ephemeral port; it stops when its standard input closes.
coproc SANDBOX { exec python3 sandbox/server.py --api-key demo-key --exit-on-stdin-eof; }
read -r line <&"${SANDBOX[0]}"
url=${line#listening on }
control() { curl -fsS -X POST "$url$1" -d "${2:-}" >/dev/null; }

for version in "${versions[@]}"; do
    commit=${commits[$version]:?unknown release $version}
    git worktree add --detach "$work/$version" "$commit" >/dev/null
    (cd "$work/$version" && swift build --product blinkengage >/dev/null)
    library="$work/$version/.build/debug"
    gcc -std=c99 -Wall -Wextra -Werror -I "$work/$version/include" Tests/Fixtures/storage/write_storage.c \
        -o "$work/write-$version" -L "$library" -lblinkengage -lpthread -Wl,-rpath,"$library"
    control /_sandbox/reset
    control /_sandbox/faults '{"path": "/v1/events", "status": 503, "retry_after": 86400}'
    control /_sandbox/faults '{"path": "/b/", "status": 503, "retry_after": 86400}'
    mkdir -p "$work/root-$version"
    "$work/write-$version" "$work/root-$version" "$url" > "$work/$version.json"
    rm -rf "Tests/Fixtures/storage/$version"
    cp -a "$work/root-$version"/*/ "Tests/Fixtures/storage/$version"
    cp "$work/$version.json" "Tests/Fixtures/storage/$version.json"
    echo "$version: $(cat "$work/$version.json")"
    find "Tests/Fixtures/storage/$version" -type f -printf '  %P %s bytes\n' | sort
done

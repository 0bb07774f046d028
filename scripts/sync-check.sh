#!/usr/bin/env bash
# Where the store syncs, read from the system calls of every thread (strace -f): a fresh storage directory's start
# and a shutdown owing nothing make no fsync or fdatasync at all (Database.init's new file, leaveWALAtClose), and a
# start that carries an earlier release's reports in (Tests/Fixtures/storage/0.1.0) syncs them before it removes
# the files they came from (StoreFormat.open).
#   scripts/sync-check.sh DIST
set -euo pipefail
top="$(cd "$(dirname "$0")/.." && pwd)"
dist="$(cd "${1:-$top/dist}" && pwd)"
work=$(mktemp -d /tmp/be-sync-check-XXXXXX)
trap 'rm -rf "$work"' EXIT
cat > "$work/start_stop.c" <<'C'
/* Starts the SDK on a storage root, services on a closed local port, and shuts it down. */
#include <stdio.h>
#include "blinkengage.h"
int main(int argc, char **argv) {
    be_config *config = be_config_new("demo-key");
    be_sdk *sdk = NULL;
    if (argc < 2) return 2;
    be_config_set_storage_dir(config, argv[1]);
    be_config_set_moments_url(config, "http://127.0.0.1:9");
    be_config_set_engage_url(config, "http://127.0.0.1:9");
    if (be_sdk_start(config, &sdk) != BE_OK) { fprintf(stderr, "start failed\n"); return 1; }
    be_sdk_shutdown(sdk, 2000);
    be_config_free(config);
    return 0;
}
C
cc -std=c99 -O2 -I "$top/include" "$work/start_stop.c" -o "$work/start_stop" -L "$dist/lib" -l:libblinkengage.so.1 \
  -Wl,-rpath,"$dist/lib"
trace() { strace -f -qq -e trace=fsync,fdatasync,unlink,unlinkat -o "$2" "$work/start_stop" "$1"; }
syncs() { grep -cE 'f(data)?sync\(' "$1" || true; }

# A fresh directory: no sync from the start to the end of the shutdown.
mkdir "$work/fresh"
trace "$work/fresh" "$work/fresh.log"
fresh=$(syncs "$work/fresh.log")
echo "sync-check: a fresh directory's start and a shutdown owing nothing: $fresh syncs"
[ "$fresh" -eq 0 ] || { echo "sync-check: expected none:" >&2; cat "$work/fresh.log" >&2; exit 1; }

# 0.1.0's files, where the fresh start put its store (the key's directory under the root): their reports are synced
# before the first of those files is removed.
store=$(ls "$work/fresh")
mkdir "$work/old"
cp -R "$top/Tests/Fixtures/storage/0.1.0" "$work/old/$store"
trace "$work/old" "$work/old.log"
first_sync=$(grep -nE 'f(data)?sync\(' "$work/old.log" | head -1 | cut -d: -f1 || true)
first_removal=$(grep -nE 'unlink(at)?\(.*(\.item|identity\.json|device_id)"' "$work/old.log" | head -1 | cut -d: -f1 || true)
echo "sync-check: 0.1.0's files: first sync at line ${first_sync:-none}, first removal at line ${first_removal:-none}"
[ -n "$first_removal" ] || { echo "sync-check: 0.1.0's files were not removed" >&2; cat "$work/old.log" >&2; exit 1; }
[ -n "$first_sync" ] && [ "$first_sync" -lt "$first_removal" ] || {
  echo "sync-check: a file was removed before its reports were synced" >&2; cat "$work/old.log" >&2; exit 1; }
echo "sync-check: passed"

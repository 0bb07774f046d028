#!/usr/bin/env bash
# Writes Sources/BlinkEngageCore/Store/StoreTemplate+Image.swift: the current format's empty database as the
# schema's statements make it, which a fresh start puts in place (StoreTemplate.swift). Run it after a change of
# schema or format; StoreTemplateTests fails until then.
set -euo pipefail
cd "$(dirname "$0")/.."
out="$PWD/Sources/BlinkEngageCore/Store/StoreTemplate+Image.swift"
swift build --build-tests
BE_STORE_TEMPLATE_OUT="$out" swift test --skip-build --filter StoreTemplateTests.theImageIsWhatTheStatementsMake
swift build --build-tests
swift test --skip-build --filter StoreTemplateTests
echo "wrote $out"

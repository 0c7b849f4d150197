#!/usr/bin/env bash
# Sets up a fresh Debian/Ubuntu machine (Swift 6 already installed) and runs
# the whole test suite: unit tests, UAX #9 conformance, and integration tests
# that drive the built `bidi-lsp` binary over stdio.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh

# Integration tests spawn the built executable, so build it first, in the
# same configuration the tests run in.
swift build -c release
swift test -c release "$@"

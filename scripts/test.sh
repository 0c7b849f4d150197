#!/usr/bin/env bash
# Sets up a fresh Debian/Ubuntu machine (Swift 6 already installed) and runs
# the whole test suite: unit tests, UAX #9 conformance, integration tests
# that drive the built `bidi-lsp` binary over stdio, and the editor plugins'
# tests in headless Vim, Emacs and node.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
scripts/lint.sh

# `swift test` builds the executable too (.build/release/bidi-lsp, which the
# integration tests spawn), with the same -enable-testing modules as the
# tests: a `swift build -c release` first would compile every module twice.
swift test -c release "$@"

# The daemon built with AddressSanitizer and with ThreadSanitizer, under the
# integration tests of its reader and worker threads; any report fails.
# Then each libFuzzer target for a short bounded run (a crash fails). Each
# step's time is printed (README.md, "Fuzzing", gives the usual figures).
time scripts/sanitize.sh address
time scripts/sanitize.sh thread
time scripts/fuzz.sh --all "${FUZZ_SECONDS:-10}"

# The editor plugins against the same daemon.
BIDI_LSP=.build/release/bidi-lsp editors/run-tests.sh

# The release's five artifacts, from that same binary, each used as a user
# would (scripts/release-smoke.sh).
time scripts/release-smoke.sh

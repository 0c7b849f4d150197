#!/usr/bin/env bash
# The release smoke test (CI runs it from scripts/test.sh): scripts/release.sh
# writes all five artifacts into a fresh folder, then packaging/tests uses
# each as a user would (unpacked, extracted, pip-installed, package-installed,
# activated) with the release tools' Python (scripts/python-tools.sh).
#
# Usage: scripts/release-smoke.sh
#   BIDI_LSP_BINARY=PATH  the bidi-lsp to package (default .build/release/bidi-lsp,
#                         the one `swift test -c release` built: building the
#                         release again would compile every module again)
set -euo pipefail
cd "$(dirname "$0")/.."

dist="$(mktemp -d)"
trap 'rm -rf "$dist"' EXIT
export BIDI_RELEASE_DIST="$dist"
BIDI_LSP_BINARY="${BIDI_LSP_BINARY:-.build/release/bidi-lsp}" scripts/release.sh

venv="$(scripts/python-tools.sh)"
"$venv/bin/python" -m unittest discover -s packaging/tests -p 'test_*.py' -v 2>&1 | tee "$dist/tests.log"
status=${PIPESTATUS[0]}
# The closing line CI reads: "N passed, N failed".
total="$(sed -nE 's/^Ran ([0-9]+) tests? in .*/\1/p' "$dist/tests.log" | tail -1)"
bad="$(grep -cE '^(FAIL|ERROR): ' "$dist/tests.log" || true)"
echo "$(( ${total:-0} - bad )) passed, $bad failed"
exit "$status"

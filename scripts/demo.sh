#!/usr/bin/env bash
# Sets up a fresh Debian/Ubuntu machine (Swift 6 already installed), builds
# bidi-lsp, and replays a scripted stdio session on a sample mixed
# Arabic/English document, printing every message sent (-->) and received (<--).
#
# Usage: scripts/demo.sh [SESSION.json]   (default Protocol/examples/demo-session.json)
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
swift build -c release --product bidi-lsp >&2
exec python3 editors/python/bidi_lsp_client.py \
  --server .build/release/bidi-lsp "${1:-Protocol/examples/demo-session.json}"

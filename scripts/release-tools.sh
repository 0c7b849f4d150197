#!/usr/bin/env bash
# Prints the virtual environment that holds the release's Python tools
# (wheel, twine, jsonschema, rfc3986-validator, pre-commit), installed there
# by scripts/install-deps.sh: $BIDI_RELEASE_TOOLS, else
# ~/.cache/bidi-lsp/release-tools.
echo "${BIDI_RELEASE_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/bidi-lsp/release-tools}"

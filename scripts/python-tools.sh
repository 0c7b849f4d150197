#!/usr/bin/env bash
# Prints the one virtual environment that holds the Python tools the tests
# and the release use (wheel, twine, jsonschema, rfc3986-validator,
# pre-commit; the subtitle tests' independent readers srt and webvtt-py),
# installed there by scripts/install-deps.sh, so that the machine's Python
# is left as it is: $BIDI_PYTHON_TOOLS, else ~/.cache/bidi-lsp/python-tools.
echo "${BIDI_PYTHON_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/bidi-lsp/python-tools}"

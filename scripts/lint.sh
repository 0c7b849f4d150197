#!/usr/bin/env bash
# Checks that every Swift file follows .swift-format (swift-format ships with
# the Swift 6 toolchain). Fix with:
#   swift format format --in-place $(scripts/lint.sh --list)
# The hazard corpus (Tests/BidiHazardsTests/Corpus*) holds deliberately
# hostile source files and is not checked.
set -euo pipefail
cd "$(dirname "$0")/.."
files=$(find Sources Tests Benchmarks/Sources Fuzz -name '*.swift' -not -path '*/Corpus*' | sort; echo Package.swift Benchmarks/Package.swift)
if [[ "${1:-}" == "--list" ]]; then
  echo "$files"
  exit 0
fi
# shellcheck disable=SC2086
swift format lint --strict $files
echo "lint: $(echo "$files" | wc -w) files follow .swift-format"

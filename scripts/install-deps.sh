#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages bidi-lsp needs to build and test.
# The Swift 6 toolchain is the one prerequisite this script does not install.
#
#   libjansson-dev  JSON encoding/decoding of every protocol message
#   pkg-config      lets SwiftPM find jansson
#   unicode-data    Unicode's conformance files, used by the tests when
#                   ../shared/ucd/17.0.0 is not beside the checkout
#   python3         the table generator (freshness test) and the demo client
#   vim, neovim, emacs-nox  the editor plugins' tests run in the real editors,
#                   headless
#   nodejs          the VS Code extension's tests (node's test runner)
#   gettext         msgfmt --check: the independent reader of the .po corpus
#                   (scripts/l10n-check) in the localization tests
#   libfribidi-bin  the `fribidi` tool: `bidi-lsp visual` is compared with it
#   ripgrep         (with --benchmarks) the anchor of cli-bench's check rows
#   cmark-gfm       the independent Markdown reader the Markdown tests compare
#                   with; its source package's test files (the CommonMark/GFM
#                   spec examples, CC-BY-SA, not committed) go to
#                   .build/cmark-gfm-tests/ (scripts/fetch-cmark-tests.sh)
#
# Usage: scripts/install-deps.sh [--benchmarks]
#   --benchmarks    also install ICU, GNU FriBidi and ripgrep (Benchmarks/ compares with them)
set -euo pipefail

packages=(libjansson-dev pkg-config unicode-data python3 vim neovim emacs-nox nodejs gettext libfribidi-bin cmark-gfm)
if [[ "${1:-}" == "--benchmarks" ]]; then
  packages+=(libicu-dev libfribidi-dev ripgrep)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [[ ${#missing[@]} -eq 0 ]]; then
  exec scripts/fetch-cmark-tests.sh
fi

sudo=()
if [[ $(id -u) -ne 0 ]]; then sudo=(sudo); fi
echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
exec scripts/fetch-cmark-tests.sh

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
#
# Usage: scripts/install-deps.sh [--benchmarks]
#   --benchmarks    also install ICU and GNU FriBidi (Benchmarks/ compares with them)
set -euo pipefail

packages=(libjansson-dev pkg-config unicode-data python3 vim neovim emacs-nox nodejs)
if [[ "${1:-}" == "--benchmarks" ]]; then
  packages+=(libicu-dev libfribidi-dev)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [[ ${#missing[@]} -eq 0 ]]; then
  exit 0
fi

sudo=()
if [[ $(id -u) -ne 0 ]]; then sudo=(sudo); fi
echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2

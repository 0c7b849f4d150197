#!/usr/bin/env bash
# Builds the release of bidi-lsp into dist/, for the project's one version V
# (scripts/release-version.py):
#
#   bidi-lsp-V-linux-x86_64.tar.gz   the static binary, man page, plugins, README
#   bidi-lsp_V-1_amd64.deb           the Debian package (dpkg-deb)
#   bidi_lsp-V-py3-none-….whl        the binary and the Python client (pip)
#   bidi-lsp-V.vsix                  the VS Code extension, with the binary
#   bidi-lsp-V.tar                   the Emacs package (package-install-file)
#
# Usage: scripts/release.sh        (from anywhere; no arguments)
#   BIDI_LSP_BINARY=PATH   package this already built bidi-lsp instead of
#                          building it (it must report the version; the
#                          release smoke test passes the one `swift test -c
#                          release` built)
#   BIDI_RELEASE_DIST=DIR  write the artifacts to DIR (default dist/)
#
# Needs the Swift toolchain (unless BIDI_LSP_BINARY), python3, dpkg-deb,
# strip, gzip, vim (help tags) and emacs (the Emacs package's autoloads):
# scripts/install-deps.sh installs them on Debian. The artifacts are
# reproducible: every file's time is the last commit's (SOURCE_DATE_EPOCH).
set -euo pipefail
cd "$(dirname "$0")/.."

version="$(python3 scripts/release-version.py)"
python3 scripts/release-version.py --check >/dev/null
for tool in dpkg-deb strip gzip vim emacs; do
  command -v "$tool" >/dev/null || { echo "release: '$tool' is missing (scripts/install-deps.sh installs it)" >&2; exit 2; }
done

binary="${BIDI_LSP_BINARY:-}"
if [[ -z "$binary" ]]; then
  swift build -c release --product bidi-lsp >&2
  binary=".build/release/bidi-lsp"
fi
reported="$("$binary" --version)"
if [[ "$reported" != "bidi-lsp $version "* ]]; then
  echo "release: $binary reports '$reported', not version $version" >&2
  exit 2
fi

dist="${BIDI_RELEASE_DIST:-dist}"
mkdir -p "$dist"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The binary without its symbols (23 MB with them, most of it debug info).
strip --strip-all --remove-section=.comment -o "$work/bidi-lsp" "$binary"

export SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}"
python3 scripts/release-artifacts.py --version "$version" --binary "$work/bidi-lsp" --work "$work" --dist "$dist"

# The Debian package from the tree release-artifacts.py laid out.
deb="$dist/bidi-lsp_${version}-1_amd64.deb"
dpkg-deb --root-owner-group -Zxz --build "$work/deb" "$deb" >/dev/null

for artifact in "$dist"/bidi-lsp-"$version"-linux-x86_64.tar.gz "$deb" "$dist"/bidi_lsp-"$version"-*.whl \
  "$dist"/bidi-lsp-"$version".vsix "$dist"/bidi-lsp-"$version".tar; do
  printf '%10d  %s\n' "$(stat -c %s "$artifact")" "$artifact"
done

#!/usr/bin/env bash
# Puts the test files of Debian 12's cmark-gfm source package (the version
# the Markdown reader is compared with, 0.29.0.gfm.6) in
# .build/cmark-gfm-tests/: spec.txt (the CommonMark 0.29 spec with the GFM
# extensions, 673 examples), extensions.txt and regression.txt. The spec is
# CC-BY-SA 4.0, so it is fetched, not committed. Debian's source index is read
# through a private apt configuration under that folder: the machine's
# sources.list is not changed. Quick when the files are already there.
#
#   scripts/fetch-cmark-tests.sh   (run by scripts/install-deps.sh)
set -euo pipefail
cd "$(dirname "$0")/.."

target=.build/cmark-gfm-tests
version=0.29.0.gfm.6
if [[ -f $target/spec.txt && -f $target/extensions.txt && -f $target/regression.txt ]]; then
  exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/lists/partial" "$target"
echo "deb-src http://deb.debian.org/debian bookworm main" >"$work/sources.list"
apt_options=(-o "Dir::Etc::SourceList=$work/sources.list" -o Dir::Etc::SourceParts=/dev/null
  -o "Dir::State::Lists=$work/lists" -o APT::Sandbox::User=root)
echo "fetch-cmark-tests: cmark-gfm $version sources from Debian" >&2
apt-get "${apt_options[@]}" update -qq
(cd "$work" && apt-get "${apt_options[@]}" source --download-only -qq "cmark-gfm=$version-6" >/dev/null)
tar -xzf "$work/cmark-gfm_$version.orig.tar.gz" -C "$work"
for file in spec.txt extensions.txt regression.txt; do
  cp "$work/cmark-gfm-$version/test/$file" "$target/$file"
done
echo "fetch-cmark-tests: $(grep -c '^```````````````````````````````` example' "$target/spec.txt") spec examples in $target" >&2

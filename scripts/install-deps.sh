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
#   lintian         the release smoke test (scripts/release-smoke.sh) checks
#                   the Debian package with it
#   python3-venv    the release tools' venv and the wheel's test venv, when
#                   python3 is Debian's
#   From PyPI, in one virtual environment (scripts/python-tools.sh prints
#   where), so that they change nothing in the machine's Python: for the
#   release (scripts/release.sh) and its smoke test wheel (`wheel pack`),
#   twine (`twine check`), jsonschema and rfc3986-validator (the SARIF log
#   against the official schema, URIs included), pre-commit (`try-repo`);
#   for the subtitle tests the independent readers srt and webvtt-py
#   (scripts/subtitles-check); for the localization tests fluent.syntax and
#   PyYAML, the independent readers of the Fluent and YAML corpus files
#   (scripts/l10n-check/reference_fluent_yaml.py)
#
# Usage: scripts/install-deps.sh [--benchmarks]
#   --benchmarks    also install ICU, GNU FriBidi and ripgrep (Benchmarks/ compares with them)
set -euo pipefail

packages=(libjansson-dev pkg-config unicode-data python3 vim neovim emacs-nox nodejs gettext libfribidi-bin lintian python3-venv cmark-gfm)
if [[ "${1:-}" == "--benchmarks" ]]; then
  packages+=(libicu-dev libfribidi-dev ripgrep)
fi

# The Python tools, in their own venv (a second run only imports them).
python_tools() {
  local venv
  venv="$("$(dirname "$0")/python-tools.sh")"
  "$venv/bin/python" -c 'import jsonschema, rfc3986_validator, pre_commit, twine, wheel, srt, webvtt, fluent.syntax, yaml' \
    2>/dev/null && return 0
  echo "install-deps: installing the Python tools (pip, in $venv)" >&2
  python3 -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    wheel twine jsonschema rfc3986-validator pre-commit 'srt>=3.5' 'webvtt-py>=0.6' 'fluent.syntax==0.19.0' PyYAML >&2
}

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [[ ${#missing[@]} -eq 0 ]]; then
  python_tools
  scripts/fetch-cmark-tests.sh
  exit 0
fi

sudo=()
if [[ $(id -u) -ne 0 ]]; then sudo=(sudo); fi
echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
python_tools
scripts/fetch-cmark-tests.sh

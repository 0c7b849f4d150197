#!/usr/bin/env python3
"""The project's one version, and every copy of it.

The version is defined in one place, `BidiLanguageServer.version` in
Sources/BidiServer/Server.swift (what `bidi-lsp --version` and `initialize`
report). The files that cannot read it at run time (a package.json, an Emacs
header, the man page...) carry a copy, listed in COPIES below.

    scripts/release-version.py            print the version
    scripts/release-version.py --check    exit 1, naming each copy that differs
    scripts/release-version.py --set 0.4.0
                                          write a new version into the
                                          definition and every copy

`scripts/release.sh` reads the version here; the release smoke test
(`scripts/release-smoke.sh`) runs `--check` and compares each artifact with it.
"""

import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

VERSION = r"(\d+\.\d+\.\d+)"

# The definition: (path, pattern whose group 1 is the version).
DEFINITION = ("Sources/BidiServer/Server.swift", r'package static let version = "' + VERSION + '"')

# Every copy: (path, pattern whose group 1 is the version, how many times it
# occurs). A path ending in "/*.json" stands for the files of that folder,
# recursively.
COPIES = [
    ("editors/vscode/package.json", r'^  "version": "' + VERSION + '"', 1),
    ("editors/emacs/bidi-lsp.el", r"^;; Version: " + VERSION + "$", 1),
    ("editors/emacs/bidi-lsp-daemon.el", r':name "bidi-lsp.el" :version "' + VERSION + '"', 1),
    ("editors/vim/autoload/bidi_lsp/rpc.vim", r"'name': 'bidi-lsp.vim', 'version': '" + VERSION + "'", 1),
    ("editors/vim/doc/bidi-lsp.txt", r"^Version: +" + VERSION + "$", 1),
    ("editors/neovim/doc/bidi-lsp.txt", r"^Version: +" + VERSION + "$", 1),
    ("editors/python/bidi_lsp_client.py", r'^__version__ = "' + VERSION + '"$', 1),
    ("editors/README.md", r"bidi-lsp\.bidi-lsp-" + VERSION + r"\b", 1),
    ("packaging/man/bidi-lsp.1", r'^\.TH BIDI-LSP 1 "[^"]*" "bidi-lsp ' + VERSION + '"', 1),
    ("packaging/debian/changelog", r"^bidi-lsp \(" + VERSION + r"-1\)", 1),
    ("Protocol/specification.md", r'"serverInfo": \{"name": "bidi-lsp", "version": "' + VERSION + '"\}', 1),
    ("Protocol/examples/*.json", r'"name": "bidi-lsp",\s*"version": "' + VERSION + '"', None),
]


def read(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        return f.read()


def version():
    """The project's version, from its definition."""
    path, pattern = DEFINITION
    found = re.findall(pattern, read(path), re.M)
    if len(found) != 1:
        sys.exit("release-version: %s: the version definition is not found (%s)" % (path, pattern))
    return found[0]


def files(path):
    """The files a COPIES path stands for."""
    if not path.endswith("/*.json"):
        return [path]
    folder = path[: -len("/*.json")]
    result = []
    for directory, _, names in os.walk(os.path.join(ROOT, folder)):
        for name in sorted(names):
            if name.endswith(".responses.json"):
                result.append(os.path.relpath(os.path.join(directory, name), ROOT))
    return sorted(result)


def check(expected):
    """The problems: each copy that is missing or differs from `expected`."""
    problems = []
    for path, pattern, count in COPIES:
        paths = files(path)
        if not paths:
            problems.append("%s: no file" % path)
        for each in paths:
            found = re.findall(pattern, read(each), re.M)
            if count is not None and len(found) != count:
                problems.append("%s: %d copies of the version, expected %d (%s)" % (each, len(found), count, pattern))
            if count is None and not found:
                problems.append("%s: no copy of the version (%s)" % (each, pattern))
            problems += ["%s: %s, expected %s" % (each, v, expected) for v in found if v != expected]
    return problems


def set_version(new):
    """Writes `new` into the definition and every copy."""
    if not re.fullmatch(VERSION, new):
        sys.exit("release-version: '%s' is not MAJOR.MINOR.PATCH" % new)

    def rewrite(path, pattern):
        text = read(path)
        text = re.sub(pattern, lambda m: m.group(0).replace(m.group(1), new), text, flags=re.M)
        with open(os.path.join(ROOT, path), "w", encoding="utf-8") as f:
            f.write(text)

    rewrite(*DEFINITION)
    for path, pattern, _ in COPIES:
        for each in files(path):
            rewrite(each, pattern)


def main(argv):
    if argv == ["--check"]:
        current = version()
        problems = check(current)
        for problem in problems:
            print("release-version: " + problem, file=sys.stderr)
        if problems:
            return 1
        print("%s: the definition and %d copies agree" % (current, len(COPIES)))
        return 0
    if len(argv) == 2 and argv[0] == "--set":
        set_version(argv[1])
        return main(["--check"])
    if argv:
        print(__doc__, file=sys.stderr)
        return 2
    print(version())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

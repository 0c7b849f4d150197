"""What the release tests share: the repository, the artifacts, the binary.

The tests run with the release tools' Python (scripts/python-tools.sh), after
scripts/release.sh wrote the artifacts to $BIDI_RELEASE_DIST (default dist/).
"""

import atexit
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DIST = os.path.abspath(os.environ.get("BIDI_RELEASE_DIST") or os.path.join(ROOT, "dist"))
HERE = os.path.dirname(os.path.abspath(__file__))


def version():
    return subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "release-version.py")], check=True,
                          capture_output=True, text=True).stdout.strip()


VERSION = version()


def artifact(name):
    """The path of an artifact of dist/ (the test fails if it is missing)."""
    path = os.path.join(DIST, name)
    if not os.path.isfile(path):
        raise AssertionError("%s is missing: run scripts/release.sh first" % path)
    return path


def temporary_directory():
    """A fresh directory, removed when the tests end."""
    path = tempfile.mkdtemp(prefix="bidi-lsp-release-")
    atexit.register(shutil.rmtree, path, True)
    return path


_unpacked = []


def unpacked_archive():
    """The release archive unpacked into an empty folder (once): its top folder."""
    if not _unpacked:
        target = temporary_directory()
        with tarfile.open(artifact("bidi-lsp-%s-linux-x86_64.tar.gz" % VERSION)) as tar:
            tar.extractall(target, filter="tar")
        _unpacked.append(os.path.join(target, "bidi-lsp-%s" % VERSION))
    return _unpacked[0]


def binary():
    """The released binary (from the unpacked archive)."""
    return os.path.join(unpacked_archive(), "bin", "bidi-lsp")


def run(command, **options):
    """Runs a command; returns the CompletedProcess (text, output captured)."""
    options.setdefault("capture_output", True)
    options.setdefault("text", True)
    options.setdefault("timeout", 300)
    return subprocess.run(command, **options)


# Trojan Source (CVE-2021-42574): an RLO in a comment reorders the code.
TROJAN_C = ("int main(void) {\n  int isAdmin = 0;\n"
            "  /*\u202e } \u2066if (isAdmin)\u2069 \u2066 begin admins only */\n  return 0;\n}\n")
# Clean Arabic prose: right to left, no control.
ARABIC = "مرحبا بالعالم.\nهذا نص عربي سليم، بلا محارف تحكم خفية.\n"

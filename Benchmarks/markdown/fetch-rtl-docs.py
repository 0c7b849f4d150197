#!/usr/bin/env python3
"""Real right-to-left Markdown for issue 27 (c): Persian and Arabic project
documentation, from the source archives of Python packages on PyPI.

usage: fetch-rtl-docs.py DIR

Downloads the pinned source archives below (pip download, no dependencies)
into DIR/archives, and writes into DIR/docs every Markdown file they hold
whose letters are at least 20% Arabic-script or Hebrew (the rest is English
prose, Python examples, tables and links, as such documentation is). Then

    issue27-bench.py make-real DIR/docs DIR/big 100
    issue27-bench.py check-real BINARY DIR/big [BEFORE]

gives ~100 MB of it (the files shuffled and concatenated) and its throughput.
The files are what their authors wrote: CR LF line ends in some, findings
about one a 6 KB (blocks that start with an English word or a code span).
"""
import os
import subprocess
import sys
import tarfile

PACKAGES = ["shekar==1.7.0", "PyArabic==0.6.10", "qalsadi==0.4.2", "parsivar==0.2.3.1", "ar_corrector==1.1.6"]


def right_to_left_share(text):
    letters = sum(1 for c in text if c.isalpha())
    rtl = sum(1 for c in text if "\u0590" <= c <= "\u08ff" or "\ufb1d" <= c <= "\ufefc")
    return rtl / letters if letters else 0.0


def main(folder):
    archives = os.path.join(folder, "archives")
    docs = os.path.join(folder, "docs")
    os.makedirs(archives, exist_ok=True)
    os.makedirs(docs, exist_ok=True)
    for package in PACKAGES:
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:", "-q",
                        "-d", archives, package], check=True)
    kept = 0
    for name in sorted(os.listdir(archives)):
        if not name.endswith(".tar.gz"):
            continue
        with tarfile.open(os.path.join(archives, name)) as archive:
            for member in archive.getmembers():
                if not member.isfile() or not member.name.endswith(".md"):
                    continue
                data = archive.extractfile(member).read()
                if right_to_left_share(data.decode("utf-8", "replace")) < 0.2:
                    continue
                with open(os.path.join(docs, member.name.replace("/", "_")), "wb") as f:
                    f.write(data)
                kept += 1
                print("%7d bytes  %s" % (len(data), member.name))
    print("%d files in %s" % (kept, docs))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])

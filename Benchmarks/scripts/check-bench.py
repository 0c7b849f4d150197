#!/usr/bin/env python3
"""Times `bidi-lsp check` on a localization tree against gettext's `msgfmt --check`
and translate-toolkit's `pofilter` (issue 28). Not a test: figures for
Benchmarks/README.md.

    check-bench.py TREE [--bidi-lsp PATH] [--pofilter PATH] [--repeats 3]

TREE as Benchmarks/scripts/l10n-corpus.py writes it (po/, ios/, xliff/, web/).
Each tool's CPU time (user + system of the process and its children, from
wait4) is measured in interleaved rounds, the median of `--repeats` kept:

  check-po     bidi-lsp check TREE/po            msgfmt-po   msgfmt --check -o /dev/null FILE, each .po
  check-pox    bidi-lsp check TREE/po TREE/xliff  pofilter    pofilter -i DIR -o OUT, on po/ and xliff/
  check-all    bidi-lsp check TREE (every format, sources paired)

and the ratios: msgfmt's CPU time / check's on the .po files (per byte, the
same bytes), pofilter's / check's on the same .po and XLIFF files. The
outputs go to /dev/null (pofilter's to a temporary folder).
"""

import argparse
import os
import shutil
import statistics
import subprocess
import tempfile


def cpu(command):
    """CPU seconds of a command (user + system, children included)."""
    with open(os.devnull, "wb") as null:
        process = subprocess.Popen(command, stdout=null, stderr=null)
        _, _, usage = os.wait4(process.pid, 0)
    return usage.ru_utime + usage.ru_stime


def files(folder, extension):
    found = []
    for root, _, names in os.walk(folder):
        found += [os.path.join(root, name) for name in names if name.endswith(extension)]
    return sorted(found)


def size(paths):
    return sum(os.path.getsize(path) for path in paths)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("tree")
    here = os.path.dirname(os.path.abspath(__file__))
    parser.add_argument("--bidi-lsp", default=os.path.join(here, "..", "..", ".build", "release", "bidi-lsp"))
    parser.add_argument("--pofilter", default=shutil.which("pofilter") or "/tmp/pairing-venv/bin/pofilter")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    tree = os.path.abspath(args.tree)
    po_dir, xliff_dir = os.path.join(tree, "po"), os.path.join(tree, "xliff")
    po_files = files(po_dir, ".po")
    xliff_files = files(xliff_dir, ".xliff")
    all_files = [os.path.join(root, name) for root, _, names in os.walk(tree) for name in names]
    print("tree %s: %.1f MB (.po %.1f MB in %d files, XLIFF %.1f MB in %d files)" % (
        tree, size(all_files) / 1e6, size(po_files) / 1e6, len(po_files), size(xliff_files) / 1e6, len(xliff_files)))
    scratch = tempfile.mkdtemp(prefix="check-bench-")

    def msgfmt():
        return sum(cpu(["msgfmt", "--check", "-o", os.devnull, path]) for path in po_files)

    def pofilter():
        total = 0.0
        for name, folder in (("po", po_dir), ("xliff", xliff_dir)):
            out = os.path.join(scratch, name)
            shutil.rmtree(out, ignore_errors=True)
            total += cpu([args.pofilter, "--progress=none", "-i", folder, "-o", out])
        return total

    runs = {
        "check-po": lambda: cpu([args.bidi_lsp, "check", po_dir]),
        "msgfmt-po": msgfmt,
        "check-pox": lambda: cpu([args.bidi_lsp, "check", po_dir, xliff_dir]),
        "pofilter": pofilter,
        "check-all": lambda: cpu([args.bidi_lsp, "check", tree]),
    }
    times = {name: [] for name in runs}
    for round_number in range(args.repeats):
        for name, run in runs.items():
            times[name].append(run())
        print("round %d: %s" % (round_number + 1, ", ".join("%s %.2f s" % (n, t[-1]) for n, t in times.items())))
    shutil.rmtree(scratch, ignore_errors=True)
    median = {name: statistics.median(values) for name, values in times.items()}
    po_mb = size(po_files) / 1e6
    pox_mb = (size(po_files) + size(xliff_files)) / 1e6
    print("median CPU seconds: " + ", ".join("%s %.2f" % item for item in median.items()))
    print("check on .po: %.1f MB/s; msgfmt --check: %.1f MB/s; check/msgfmt speed %.2fx" % (
        po_mb / median["check-po"], po_mb / median["msgfmt-po"], median["msgfmt-po"] / median["check-po"]))
    print("check on .po+XLIFF: %.1f MB/s; pofilter: %.2f MB/s; check/pofilter speed %.1fx" % (
        pox_mb / median["check-pox"], pox_mb / median["pofilter"], median["pofilter"] / median["check-pox"]))
    print("check on the whole tree: %.1f MB/s" % (size(all_files) / 1e6 / median["check-all"]))


if __name__ == "__main__":
    main()

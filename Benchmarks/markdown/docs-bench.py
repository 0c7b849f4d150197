#!/usr/bin/env python3
"""`bidi-lsp check` on real Markdown documentation, against rg and cmark-gfm.

Most Markdown in a repository is English documentation: no right-to-left
letter and no bidi control, which `check` skips without reading its blocks
(`BidiTextSearch`). This measures that case on the Markdown files a Debian
machine holds (/usr/share/doc, and any folders given), next to the
synthetic right-to-left corpus of issue27-bench.py.

    docs-bench.py collect DIR [ROOT...]   copy every .md/.markdown over 2 KiB
                                          under ROOTs (default /usr/share/doc)
                                          into DIR as 1.md, 2.md, ...
    docs-bench.py time DIR ROUNDS BIN [BASE]
                                          CPU and wall time, interleaved, medians:
                                          BIN (and BASE) `check --jobs 1` and
                                          default, `rg -j1` for the bidi
                                          controls, cmark-gfm reading each file
"""
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time

CONTROLS = "[\\x{061C}\\x{200E}\\x{200F}\\x{202A}-\\x{202E}\\x{2066}-\\x{2069}]"


def collect(folder, roots):
    os.makedirs(folder, exist_ok=True)
    count = 0
    for root in roots or ["/usr/share/doc"]:
        for directory, _, names in sorted(os.walk(root)):
            for name in sorted(names):
                path = os.path.join(directory, name)
                if not name.endswith((".md", ".markdown")) or not os.path.isfile(path):
                    continue
                if os.path.getsize(path) <= 2048:
                    continue
                count += 1
                shutil.copyfile(path, os.path.join(folder, f"{count}.md"))
    print(f"{count} files copied to {folder}")


def run(command, cwd=None):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    with open(os.devnull, "wb") as sink, open("/tmp/docs-bench.out", "wb") as out:
        subprocess.run(command, stdout=out, stderr=sink, cwd=cwd)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, wall


def timing(folder, rounds, binary, base):
    files = sorted(os.listdir(folder), key=lambda n: int(n.split(".")[0]) if n[0].isdigit() else 0)
    size = sum(os.path.getsize(os.path.join(folder, f)) for f in files)
    commands = {"check --jobs 1": [binary, "check", "--jobs", "1", folder], "check": [binary, "check", folder]}
    if base:
        commands["base check --jobs 1"] = [base, "check", "--jobs", "1", folder]
        commands["base check"] = [base, "check", folder]
    commands["rg -j1"] = ["rg", "-j1", "--no-config", "-e", CONTROLS, folder]
    # cmark-gfm reads one document at a time: a shell loop over the files.
    loop = "for f in *; do cmark-gfm -e table -e strikethrough -e autolink -e tasklist \"$f\"; done"
    commands["cmark-gfm"] = ["sh", "-c", loop]
    results = {name: ([], []) for name in commands}
    for _ in range(rounds):
        for name, command in commands.items():
            cpu, wall = run(command, cwd=folder if name == "cmark-gfm" else None)
            results[name][0].append(cpu)
            results[name][1].append(wall)
    print(f"{len(files)} files, {size / 1e6:.1f} MB, median of {rounds}")
    for name, (cpu, wall) in results.items():
        c, w = statistics.median(cpu), statistics.median(wall)
        print(f"{name:22s} CPU {c * 1000:8.1f} ms {size / c / 1e6:8.1f} MB/s   wall {w * 1000:8.1f} ms {size / w / 1e6:8.1f} MB/s")


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "collect":
        collect(sys.argv[2], sys.argv[3:])
    elif len(sys.argv) >= 5 and sys.argv[1] == "time":
        timing(sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5] if len(sys.argv) > 5 else None)
    else:
        print(__doc__)
        sys.exit(2)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""CPU time of `visual --shape` of two bidi-lsp builds beside fribidi, interleaved.

usage: shape-interleaved.py BEFORE AFTER [REPS] [DIR]
Runs, on DIR/{prose,rtl-code,rtl-heavy}.txt (cli-bench's corpora, default
/tmp/cli-bench), `BEFORE visual --shape FILE`, `AFTER visual --shape FILE` and
`fribidi --nopad --nobreak FILE` in turn, a warm-up then REPS rounds (default 7),
output to /dev/null, and prints the median user + system time of each and the
ratios fribidi/before and fribidi/after.
"""
import resource
import statistics
import subprocess
import sys


def cpu(argv):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, stdout=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    old, new = sys.argv[1], sys.argv[2]
    reps = int(sys.argv[3]) if len(sys.argv) > 3 else 7
    directory = sys.argv[4] if len(sys.argv) > 4 else "/tmp/cli-bench"
    commands = {
        "before": lambda f: [old, "visual", "--shape", f],
        "after": lambda f: [new, "visual", "--shape", f],
        "fribidi": lambda f: ["fribidi", "--nopad", "--nobreak", f],
    }
    for name in ["prose", "rtl-code", "rtl-heavy"]:
        path = f"{directory}/{name}.txt"
        times = {key: [] for key in commands}
        for key, command in commands.items():
            cpu(command(path))
        for _ in range(reps):
            for key, command in commands.items():
                times[key].append(cpu(command(path)))
        m = {key: statistics.median(values) for key, values in times.items()}
        print(
            f"{name:10} before {m['before']:.3f}s after {m['after']:.3f}s fribidi {m['fribidi']:.3f}s"
            f"  fribidi/before {m['fribidi'] / m['before']:.2f}x  fribidi/after {m['fribidi'] / m['after']:.2f}x"
        )


main()

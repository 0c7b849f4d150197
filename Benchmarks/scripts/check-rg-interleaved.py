#!/usr/bin/env python3
"""CPU and wall-clock time of `bidi-lsp check` beside `rg -j1`, interleaved (issue 29).

usage: check-rg-interleaved.py BEFORE AFTER [REPS] [DIR] [FILES]

On DIR/NAME.txt (cli-bench's corpora, default /tmp/cli-bench; FILES a comma
list, default rtl-heavy,prose), runs in turn, a warm-up then REPS rounds
(default 11), each writing its findings to DIR/found.out as cli-bench does:

  before      BEFORE check FILE
  after-j1    AFTER check --jobs 1 FILE   (one thread)
  after       AFTER check FILE            (--jobs: the processors online)
  rg          rg -j1 --no-config -e CONTROLS FILE   (cli-bench's pattern)

and prints for each the median CPU time (user + system, from wait4) and the
median wall-clock time, and each one's ratio to rg's on the same clock.
"""
import os
import statistics
import subprocess
import sys
import time

CONTROLS = "[\\x{061C}\\x{200E}\\x{200F}\\x{202A}-\\x{202E}\\x{2066}-\\x{2069}]"


def measure(argv, out):
    with open(out, "wb") as sink:
        start = time.perf_counter()
        process = subprocess.Popen(argv, stdout=sink, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        sys.exit(f"failed: {argv}")
    return usage.ru_utime + usage.ru_stime, wall


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    old, new = sys.argv[1], sys.argv[2]
    reps = int(sys.argv[3]) if len(sys.argv) > 3 else 11
    directory = sys.argv[4] if len(sys.argv) > 4 else "/tmp/cli-bench"
    names = (sys.argv[5] if len(sys.argv) > 5 else "rtl-heavy,prose").split(",")
    out = f"{directory}/found.out"
    commands = {
        "before": lambda f: [old, "check", f],
        "after-j1": lambda f: [new, "check", "--jobs", "1", f],
        "after": lambda f: [new, "check", f],
        "rg": lambda f: ["rg", "-j1", "--no-config", "-e", CONTROLS, f],
    }
    print(f"load average before: {os.getloadavg()}")
    for name in names:
        path = f"{directory}/{name}.txt"
        cpu = {key: [] for key in commands}
        wall = {key: [] for key in commands}
        for command in commands.values():
            measure(command(path), out)
        for _ in range(reps):
            for key, command in commands.items():
                c, w = measure(command(path), out)
                cpu[key].append(c)
                wall[key].append(w)
        mc = {key: statistics.median(v) for key, v in cpu.items()}
        mw = {key: statistics.median(v) for key, v in wall.items()}
        for key in commands:
            print(
                f"{name:10} {key:9} cpu {mc[key] * 1000:7.1f} ms ({mc[key] / mc['rg']:.2f}x rg)"
                f"   wall {mw[key] * 1000:7.1f} ms ({mw[key] / mw['rg']:.2f}x rg)"
            )
    print(f"load average after: {os.getloadavg()}")


main()

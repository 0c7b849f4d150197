#!/usr/bin/env python3
"""CPU and wall-clock time of `bidi-lsp check` beside `rg -j1`, interleaved (issue 29).

usage: check-rg-interleaved.py BEFORE AFTER [REPS] [DIR] [FILES]

On DIR/NAME.txt (cli-bench's corpora, default /tmp/cli-bench; FILES a comma
list, default rtl-heavy,prose), runs in turn, a warm-up then REPS rounds
(default 11), each writing its findings to DIR/found.out as cli-bench does:

  before      BEFORE check FILE
  before-j1   BEFORE check --jobs 1 FILE  (one thread)
  after-j1    AFTER check --jobs 1 FILE   (one thread)
  after       AFTER check FILE            (--jobs: the processors online)
  rg          rg -j1 --no-config -e CONTROLS FILE   (cli-bench's pattern)

and prints for each the median CPU time (user + system, from wait4) and the
median wall-clock time (from posix_spawn to the end of wait4), and each
one's ratio to rg's on the same clock.
"""
import os
import shutil
import statistics
import sys
import time

CONTROLS = "[\\x{061C}\\x{200E}\\x{200F}\\x{202A}-\\x{202E}\\x{2066}-\\x{2069}]"


def measure(argv, out):
    """CPU seconds (user + system, from wait4) and wall-clock seconds from
    just before posix_spawn to the end of wait4."""
    fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    null = os.open(os.devnull, os.O_WRONLY)
    actions = [(os.POSIX_SPAWN_DUP2, fd, 1), (os.POSIX_SPAWN_DUP2, null, 2)]
    path = argv[0] if "/" in argv[0] else shutil.which(argv[0])
    start = time.perf_counter()
    pid = os.posix_spawn(path, argv, os.environ, file_actions=actions)
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - start
    os.close(fd)
    os.close(null)
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
        "before-j1": lambda f: [old, "check", "--jobs", "1", f],
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

#!/usr/bin/env python3
"""Opens a 100,000-line mixed Arabic/Hebrew/English document in each real
editor, with and without the bidi-lsp plugin, and reports what a user feels:

- open-to-idle: from starting the editor (in a tmux terminal, 120x40) until
  the editor's last work caused by the open: its CPU time
  (/proc/PID/task/*/sched) then stops growing for --quiet seconds (the
  daemon's too), and the screen shows the document. Next to it, the time
  until the daemon's work is done too (its answers shown: hints, direction,
  diagnostics), and the time until the screen first shows the document;
- edit + idle pause: the editor's CPU time for typing one character in the
  middle of the document (Vim, Neovim: `ix<Esc>`; Emacs: `x`) and the pause
  after it, debounced refreshes included (median of --edits edits);
- the largest range the plugin asked for by itself, in lines, and how many
  requests it sent: a second run with the daemon behind lsp_tap.py, which
  logs every message (the bench types nothing but the edits, so every
  request is the plugin's own).

Usage: editors/bench/bench.py [--editors vim,nvim,emacs] [--lines 100000]
       [--runs 3] [--edits 5] [--json FILE]
       BIDI_LSP=path/to/bidi-lsp (default: .build/release/bidi-lsp)

Needs tmux and the editors; prints a Markdown table (and --json the figures).
Wall-clock figures are noisy on a shared machine: compare the two columns of
one run, and run it when the machine is quiet.
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
EDITORS_DIR = os.path.dirname(HERE)
ROOT = os.path.dirname(EDITORS_DIR)
RLM, FSI, PDI = "\u200f", "\u2068", "\u2069"


def make_document(path, lines):
    """A deterministic mixed document: notes in Hebrew, Arabic and English."""
    templates = [
        "שלום עולם, זו שורה מספר {i} בקובץ ההערות",
        "مرحبا بكم في السطر {i} من ملف الملاحظات",
        "This is line {i} of the mixed notes, with a few words.",
        "Meeting with דני at 10:30 about the حساب invoice #{i}",
        RLM + "الدفع: " + FSI + "%@" + PDI + " مدفوعات بدون فوائد {i}",
        "- [ ] לבדוק את ההזמנה {i} (order) מחר",
    ]
    with open(path, "w", encoding="utf-8") as out:
        for i in range(lines):
            out.write(templates[i % len(templates)].format(i=i + 1) + "\n")


def task_runtime(pid):
    """The CPU time of process {pid}, all threads, in seconds (0 when gone)."""
    total = 0.0
    try:
        tasks = os.listdir("/proc/%d/task" % pid)
    except OSError:
        return 0.0
    for tid in tasks:
        try:
            with open("/proc/%d/task/%s/sched" % (pid, tid)) as sched:
                for line in sched:
                    if line.startswith("se.sum_exec_runtime"):
                        total += float(line.split(":")[1]) / 1000.0
                        break
        except OSError:
            pass
    return total


def descendants(pid):
    result = []
    try:
        with open("/proc/%d/task/%d/children" % (pid, pid)) as children:
            for child in children.read().split():
                result.append(int(child))
                result.extend(descendants(int(child)))
    except OSError:
        pass
    return result


class Session:
    """An editor running in a detached tmux session."""

    def __init__(self, command, env):
        self.name = "bidi-bench-%d" % os.getpid()
        subprocess.run(["tmux", "kill-session", "-t", self.name], stderr=subprocess.DEVNULL)
        shell = " ".join("'%s'" % part.replace("'", "'\\''") for part in command)
        exports = " ".join("%s='%s'" % item for item in env.items())
        self.started = time.monotonic()
        subprocess.run(["tmux", "new-session", "-d", "-s", self.name, "-x", "120", "-y", "40",
                        "exec env %s %s" % (exports, shell)], check=True)
        self.pid = int(subprocess.run(["tmux", "display", "-p", "-t", self.name, "#{pane_pid}"],
                                      capture_output=True, text=True, check=True).stdout)

    def cpu(self):
        """(editor CPU, children's CPU) in seconds."""
        return task_runtime(self.pid), sum(task_runtime(p) for p in descendants(self.pid))

    def screen(self):
        return subprocess.run(["tmux", "capture-pane", "-p", "-t", self.name],
                              capture_output=True, text=True).stdout

    def keys(self, *keys):
        subprocess.run(["tmux", "send-keys", "-t", self.name] + list(keys), check=True)

    def wait_idle(self, quiet, must_show=None, limit=120.0):
        """Waits until neither the editor nor the daemon has used CPU for
        {quiet} s (and the screen shows {must_show}); returns the times
        (monotonic) of the editor's last activity and of anyone's. With
        {must_show}, self.shown is the time the screen first showed it."""
        last = self.cpu()
        editor_active = any_active = time.monotonic()
        deadline = any_active + limit
        self.shown = None
        while time.monotonic() < deadline:
            time.sleep(0.01)
            cpu = self.cpu()
            now = time.monotonic()
            if must_show is not None and self.shown is None and must_show in self.screen():
                self.shown = now
            if cpu[0] - last[0] > 0.0005:
                editor_active = any_active = now
            elif cpu[1] - last[1] > 0.0005:
                any_active = now
            last = cpu
            if now - any_active >= quiet:
                if must_show is None or must_show in self.screen():
                    if self.shown is None:
                        self.shown = now
                    return editor_active, any_active
                editor_active = any_active = now
        raise RuntimeError("the editor did not become idle in %.0f s" % limit)

    def close(self):
        subprocess.run(["tmux", "kill-session", "-t", self.name], stderr=subprocess.DEVNULL)
        time.sleep(0.2)


def vim_command(workdir, document, daemon, plugin):
    vimrc = os.path.join(workdir, "vimrc-%s" % ("plugin" if plugin else "plain"))
    lines = ["set nocompatible encoding=utf-8 ttimeoutlen=10 noswapfile"]
    if plugin:
        lines += ["set runtimepath^=" + os.path.join(EDITORS_DIR, "vim"),
                  "let g:bidi_lsp_command = %s" % json.dumps(daemon),
                  "let g:bidi_lsp_auto_direction = 1"]
    lines += ["filetype plugin on", "syntax on"]
    with open(vimrc, "w") as out:
        out.write("\n".join(lines) + "\n")
    return ["vim", "-u", vimrc, "-i", "NONE", document]


def nvim_command(workdir, document, daemon, plugin):
    init = os.path.join(workdir, "init-%s.lua" % ("plugin" if plugin else "plain"))
    lines = ["vim.o.swapfile = false", "vim.o.ttimeoutlen = 10"]
    if plugin:
        lines += ["vim.opt.runtimepath:prepend(%s)" % json.dumps(os.path.join(EDITORS_DIR, "neovim")),
                  "require('bidi_lsp').setup({ cmd = %s, auto_direction = true })"
                  % ("{" + ", ".join(json.dumps(p) for p in daemon) + "}")]
    with open(init, "w") as out:
        out.write("\n".join(lines) + "\n")
    return ["nvim", "-u", init, "-i", "NONE", document]


def emacs_command(workdir, document, daemon, plugin):
    init = os.path.join(workdir, "init-%s.el" % ("plugin" if plugin else "plain"))
    lines = ["(setq make-backup-files nil auto-save-default nil)"]
    if plugin:
        lines += ["(add-to-list 'load-path %s)" % json.dumps(os.path.join(EDITORS_DIR, "emacs")),
                  "(require 'bidi-lsp)",
                  "(setq bidi-lsp-command '(%s))" % " ".join(json.dumps(p) for p in daemon),
                  "(add-hook 'text-mode-hook #'bidi-lsp-mode)"]
    with open(init, "w") as out:
        out.write("\n".join(lines) + "\n")
    return ["emacs", "-nw", "-Q", "-l", init, document]


EDITORS = {
    # name: (command builder, keys to go to the middle, keys of one edit)
    "vim": (vim_command, ["50000G"], ["i", "x", "Escape"]),
    "nvim": (nvim_command, ["50000G"], ["i", "x", "Escape"]),
    "emacs": (emacs_command, ["M-g", "g", "50000", "Enter"], ["x"]),
}


def run_once(editor, workdir, document, daemon, plugin, quiet, edits, first_line):
    build, goto, edit = EDITORS[editor]
    session = Session(build(workdir, document, daemon, plugin), {"TERM": "xterm-256color"})
    try:
        editor_idle, settled = session.wait_idle(quiet, must_show=first_line)
        open_to_idle = (editor_idle - session.started, settled - session.started,
                        session.shown - session.started)
        session.keys(*goto)
        session.wait_idle(quiet)
        costs, daemon_costs = [], []
        for _ in range(edits):
            before = session.cpu()
            session.keys(*edit)
            session.wait_idle(quiet)
            after = session.cpu()
            costs.append(after[0] - before[0])
            daemon_costs.append(after[1] - before[1])
        return open_to_idle, statistics.median(costs) if costs else 0.0, \
            statistics.median(daemon_costs) if daemon_costs else 0.0
    finally:
        session.close()


def requested_ranges(log):
    """(largest range in lines, number of requests, its method) from a tap log."""
    largest, count, method = 0, 0, ""
    with open(log, encoding="utf-8") as lines:
        for line in lines:
            entry = json.loads(line)
            message = entry.get("message") or {}
            if entry.get("from") != "editor" or "id" not in message or "method" not in message:
                continue
            if message["method"] in ("initialize", "shutdown"):
                continue
            count += 1
            params = message.get("params") or {}
            span = 1
            if isinstance(params.get("range"), dict):
                span = params["range"]["end"]["line"] - params["range"]["start"]["line"] + 1
            if span > largest:
                largest, method = span, message["method"]
    return largest, count, method


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--editors", default="vim,nvim,emacs")
    parser.add_argument("--lines", type=int, default=100000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--edits", type=int, default=5)
    parser.add_argument("--quiet", type=float, default=1.0)
    parser.add_argument("--json")
    args = parser.parse_args()
    daemon = os.path.abspath(os.environ.get("BIDI_LSP") or os.path.join(ROOT, ".build/release/bidi-lsp"))
    if not os.access(daemon, os.X_OK) or not shutil.which("tmux"):
        sys.exit("bench: needs tmux and the daemon (%s)" % daemon)
    workdir = tempfile.mkdtemp(prefix="bidi-bench-")
    document = os.path.join(workdir, "notes.txt")
    make_document(document, args.lines)
    first_line = "This is line 3"
    results = {}
    for editor in args.editors.split(","):
        if not shutil.which(editor):
            print("bench: %s is not installed; skipped" % editor, file=sys.stderr)
            continue
        row = {}
        try:
            measure(row, editor, workdir, document, daemon, args, first_line)
        except RuntimeError as error:
            print("bench: %s: %s" % (editor, error), file=sys.stderr)
            row["error"] = str(error)
        results[editor] = row
    report(results)
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"lines": args.lines, "results": results}, out, indent=2)
    shutil.rmtree(workdir, ignore_errors=True)


def measure(row, editor, workdir, document, daemon, args, first_line):
    """Fills {row} with the figures of {editor}."""
    for plugin in (False, True):
        runs = [run_once(editor, workdir, document, [daemon], plugin, args.quiet, args.edits, first_line)
                for _ in range(args.runs)]
        row["plugin" if plugin else "plain"] = {
            "open_to_idle": statistics.median(r[0][0] for r in runs),
            "settled": statistics.median(r[0][1] for r in runs),
            "shown": statistics.median(r[0][2] for r in runs),
            "edit_cpu": statistics.median(r[1] for r in runs),
            "edit_daemon_cpu": statistics.median(r[2] for r in runs),
        }
    log = os.path.join(workdir, "%s-tap.jsonl" % editor)
    tap = [sys.executable, os.path.join(HERE, "lsp_tap.py"), log, "--", daemon]
    run_once(editor, workdir, document, tap, True, args.quiet, 2, first_line)
    row["largest_range"], row["requests"], row["largest_method"] = requested_ranges(log)
    print("bench: %s done: %s" % (editor, json.dumps(row)), file=sys.stderr)


def report(results):
    print("| editor | open-to-idle without / with the plugin | target | with the daemon's work done "
          "| first screen without / with | edit + pause (editor CPU) without / with "
          "| largest self-requested range | requests |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for editor, row in results.items():
        if "error" in row:
            plain = row.get("plain")
            print("| %s | %s / with the plugin: %s | | | | %s | | |" % (
                editor, "%.2f s" % plain["open_to_idle"] if plain else "-", row["error"],
                "%.1f ms / -" % (plain["edit_cpu"] * 1000) if plain else "-"))
            continue
        plain, plugin = row["plain"], row["plugin"]
        slack = 1.5 if editor == "emacs" else 0.5
        target = 1.5 * plain["open_to_idle"] + slack
        verdict = "met" if plugin["open_to_idle"] <= target else "missed"
        print("| %s | %.2f s / %.2f s | ≤ %.2f s (%s) | %.2f s | %.2f s / %.2f s | %.1f ms / %.1f ms "
              "| %d lines (%s) | %d |" % (
            editor, plain["open_to_idle"], plugin["open_to_idle"], target, verdict, plugin["settled"],
            plain["shown"], plugin["shown"],
            plain["edit_cpu"] * 1000, plugin["edit_cpu"] * 1000, row["largest_range"],
            row["largest_method"] or "-", row["requests"]))


if __name__ == "__main__":
    main()

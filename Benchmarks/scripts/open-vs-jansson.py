#!/usr/bin/env python3
"""didOpen -> first answer against jansson's json_loadb of the same message.

Usage: open-vs-jansson.py DAEMON[,DAEMON...] TEXT_FILE [RUNS]

Builds a didOpen of TEXT_FILE (plaintext), then RUNS times (default 5),
alternating: times a small C program's json_loadb of the didOpen body (the
daemon's flags), then starts DAEMON, answers initialize, and times from the
first byte of didOpen written to the answer of a bidi/naturalDirection
request on the document's last line (sent right behind it). Prints each
run's two times and their ratio, and the CPU time (user + system) of the
two whole processes (the daemon: initialize to the end of its input,
which the script closes after the answer; the C program: reading the body
from the file and json_loadb) and their ratio; then the medians. Several
daemons (comma-separated) are run in turn after each C run, in an order
rotated from run to run (the first after the C run is favoured). A cross-check of lsp-bench --open-mb
(which asks bidi/visualOrder of the last line) without building the
benchmark package; needs gcc and libjansson-dev.
"""
import json, os, subprocess, sys, tempfile, threading, time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'editors', 'python'))
from bidi_lsp_client import frame, read_message  # the one framing

C = r'''
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
int main(int argc, char **argv) {
  FILE *f = fopen(argv[1], "rb"); fseek(f, 0, SEEK_END); long n = ftell(f); rewind(f);
  char *b = malloc(n); if (fread(b, 1, n, f) != (size_t)n) return 2;
  struct timespec t0, t1; json_error_t e;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  json_t *j = json_loadb(b, n, JSON_DECODE_ANY | JSON_ALLOW_NUL, &e);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  printf("%.3f\n", (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6);
  fflush(stdout); _exit(j == NULL);
  return j == NULL;
}
'''
daemons, path = sys.argv[1].split(','), sys.argv[2]
runs = int(sys.argv[3]) if len(sys.argv) > 3 else 5
text = open(path, encoding='utf-8').read()
last = text.count('\n')
uri = 'file:///open-vs-jansson.txt'
did_open = {"jsonrpc": "2.0", "method": "textDocument/didOpen",
            "params": {"textDocument": {"uri": uri, "languageId": "plaintext", "version": 1, "text": text}}}
request = {"jsonrpc": "2.0", "id": 2, "method": "bidi/naturalDirection",
           "params": {"textDocument": {"uri": uri},
                      "range": {"start": {"line": last, "character": 0}, "end": {"line": last, "character": 0}}}}
work = tempfile.mkdtemp()
body = os.path.join(work, 'body.json')
open(body, 'wb').write(json.dumps(did_open, ensure_ascii=False).encode())
decoder = os.path.join(work, 'loadb')
subprocess.run(['gcc', '-O2', '-x', 'c', '-', '-o', decoder, '-ljansson'], input=C.encode(), check=True)
initialize = frame({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}})
rest = frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}) + frame(did_open) + frame(request)
print("%s: %d bytes, %d lines" % (path, len(text.encode()), last + 1))
def cpu_ms(usage): return (usage.ru_utime + usage.ru_stime) * 1000


walls = {d: [] for d in daemons}
cpus = {d: [] for d in daemons}
for run in range(runs):
    c = subprocess.Popen([decoder, body], stdout=subprocess.PIPE, text=True)
    decode = float(c.stdout.read())
    c_cpu = cpu_ms(os.wait4(c.pid, 0)[2])
    # The daemons in turn, the first one a different one each run: the
    # daemon that runs right after the C program is faster (0.92x against
    # 1.03x for the same build second, measured in round 34).
    for daemon in daemons[run % len(daemons):] + daemons[:run % len(daemons)]:
        p = subprocess.Popen([daemon], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        p.stdin.write(initialize); p.stdin.flush(); read_message(p.stdout)
        t0 = time.time()
        writer = threading.Thread(target=lambda: (p.stdin.write(rest), p.stdin.flush()))
        writer.start()
        while json.loads(read_message(p.stdout)[1]).get('id') != 2: pass
        answer = (time.time() - t0) * 1000
        writer.join(); p.stdin.close()
        daemon_cpu = cpu_ms(os.wait4(p.pid, 0)[2])
        p.returncode = 0
        walls[daemon].append(answer / decode); cpus[daemon].append(daemon_cpu / c_cpu)
        print("%s: open -> answer %.0f ms, json_loadb %.0f ms, ratio %.2fx; CPU daemon %.0f ms, C %.0f ms, ratio %.3fx; load %.1f" % (
            daemon, answer, decode, answer / decode, daemon_cpu, c_cpu, daemon_cpu / c_cpu, os.getloadavg()[0]), flush=True)
for daemon in daemons:
    print("%s: median wall ratio %.2fx, median CPU ratio %.3fx over %d runs" % (
        daemon, sorted(walls[daemon])[runs // 2], sorted(cpus[daemon])[runs // 2], runs))

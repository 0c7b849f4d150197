#!/usr/bin/env python3
"""Peak memory of one whole-document answer of the daemon.

Starts a bidi-lsp binary, opens a document of LINES mixed-direction lines,
asks one whole-document request (bidi/visualOrder by default) and reports
the daemon's peak resident set (VmHWM from /proc/PID/status) after opening
and after answering, the document's and the answer's sizes, and the time
the answer took. A measurement, not a test: compare two binaries in the
same run.

    scripts/measure-answer-rss.py [--lines N] [--method M] BINARY...
"""

import argparse
import json
import subprocess
import sys
import time
import os

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "editors", "python"))
from bidi_lsp_client import frame, read_message  # noqa: E402  (the one framing)


def read_body(stream):
    framed = read_message(stream)
    if framed is None:
        raise EOFError("the daemon closed its output")
    return framed[1]


def peak_rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


def document(lines):
    words = ["שלום", "world", "עולם", "bidi", "مرحبا", "text", "(1)", "abc"]
    out = []
    for n in range(lines):
        out.append(f"{n}: {words[n % 8]} {words[(n * 3 + 1) % 8]} {words[(n * 5 + 2) % 8]}")
    return "\n".join(out)


def measure(binary, text, method):
    daemon = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    uri = "file:///measure.txt"

    def request(id, method, params):
        daemon.stdin.write(frame({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
        daemon.stdin.flush()
        while True:
            body = read_body(daemon.stdout)
            if b'"method"' in body[:200]:
                continue  # a notification
            return body

    request(1, "initialize", {"capabilities": {}})
    daemon.stdin.write(frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}))
    daemon.stdin.write(frame({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
        "textDocument": {"uri": uri, "languageId": "plaintext", "version": 1, "text": text}}}))
    info = json.loads(request(2, "bidi/documentInfo", {"textDocument": {"uri": uri}}))
    opened = peak_rss_kib(daemon.pid)
    start = time.monotonic()
    answer = request(3, method, {"textDocument": {"uri": uri}})
    seconds = time.monotonic() - start
    answered = peak_rss_kib(daemon.pid)
    daemon.stdin.close()
    daemon.wait(timeout=60)
    ok = b'"result"' in answer[:100]
    return {
        "binary": binary, "lines": info["result"]["lineCount"], "document_mib": len(text.encode()) / 2**20,
        "answer_mib": len(answer) / 2**20, "seconds": seconds, "ok": ok,
        "peak_after_open_mib": opened / 1024, "peak_after_answer_mib": answered / 1024,
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lines", type=int, default=1_000_000)
    parser.add_argument("--method", default="bidi/visualOrder")
    parser.add_argument("binaries", nargs="+")
    arguments = parser.parse_args()
    text = document(arguments.lines)
    for binary in arguments.binaries:
        result = measure(binary, text, arguments.method)
        print(json.dumps(result))
        sys.stdout.flush()


if __name__ == "__main__":
    main()

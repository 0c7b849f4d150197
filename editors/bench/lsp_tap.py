#!/usr/bin/env python3
"""A logging wrapper around an LSP server: what an editor asks, and when.

    lsp_tap.py LOG -- bidi-lsp [ARGS...]

Starts the server, passes the editor's messages to it and its answers back
unchanged, and appends one JSON line per message to LOG:

    {"t": 12.345, "from": "editor" | "server", "message": {...}}

(t: seconds since the tap started; a document's text is logged as its
length, {"textLength": N}, to keep the log small). The first line is
{"t": 0, "pid": SERVER_PID}. Exits with the server's status when the server
ends. The editors' tests read it to check the requests a plugin sends, and
editors/bench/bench.py to find the largest range a plugin asked for by
itself.
"""

import json
import os
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from bidi_lsp_client import ProtocolError, read_message  # noqa: E402  (the one framing)


def summary(body):
    try:
        message = json.loads(body)
    except ValueError:
        return {"unparsed": len(body)}
    params = message.get("params") if isinstance(message, dict) else None
    if isinstance(params, dict):
        document = params.get("textDocument")
        if isinstance(document, dict) and isinstance(document.get("text"), str):
            document["text"] = {"textLength": len(document["text"])}
        for change in params.get("contentChanges") or []:
            if isinstance(change, dict) and isinstance(change.get("text"), str) and len(change["text"]) > 200:
                change["text"] = {"textLength": len(change["text"])}
    return message


def main():
    if len(sys.argv) < 4 or sys.argv[2] != "--":
        sys.stderr.write("usage: lsp_tap.py LOG -- SERVER [ARGS...]\n")
        return 2
    log = open(sys.argv[1], "a", buffering=1, encoding="utf-8")
    lock = threading.Lock()
    start = time.monotonic()
    server = subprocess.Popen(sys.argv[3:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def record(origin, body):
        line = json.dumps({"t": round(time.monotonic() - start, 6), "from": origin,
                           "message": summary(body)}, ensure_ascii=False)
        with lock:
            log.write(line + "\n")

    with lock:
        log.write(json.dumps({"t": 0, "pid": server.pid}) + "\n")

    def editor_to_server():
        source = sys.stdin.buffer
        while True:
            try:
                framed = read_message(source)
            except ProtocolError:
                break
            if framed is None:
                break
            record("editor", framed[1])
            try:
                server.stdin.write(framed[0])
                server.stdin.flush()
            except (BrokenPipeError, ValueError):
                break
        try:
            server.stdin.close()
        except OSError:
            pass

    threading.Thread(target=editor_to_server, daemon=True).start()
    sink = sys.stdout.buffer
    while True:
        try:
            framed = read_message(server.stdout)
        except ProtocolError:
            break
        if framed is None:
            break
        record("server", framed[1])
        try:
            sink.write(framed[0])
            sink.flush()
        except BrokenPipeError:
            break
    status = server.wait()
    log.close()
    return status if status >= 0 else 128 - status


if __name__ == "__main__":
    # os._exit: the thread still reading the editor's stdin must not be
    # joined (or aborted) at interpreter shutdown.
    code = main()
    sys.stdout.flush()
    os._exit(code)

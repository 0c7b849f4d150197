#!/usr/bin/env python3
"""A scripted stdio client for bidi-lsp (Python 3 standard library only).

Use it as a library::

    from bidi_lsp_client import Client
    with Client(["bidi-lsp"]) as c:
        c.initialize()
        c.notify("textDocument/didOpen", {...})
        print(c.request("bidi/naturalDirection", {...}))

or from the command line, to replay a session file and print the exchange::

    bidi_lsp_client.py --server .build/release/bidi-lsp SESSION.json

(`--record FILE` also writes the responses, by request id, as a transcript.)

A session file is a JSON array of messages. A message with a "method" and an
"id" is a request: the client sends it and waits for its response. A message
without an "id" is a notification. The string "$FILE:path" as the value of
"text" is replaced by the contents of that file (relative to the session
file), so that documents can live beside the session.
"""

import argparse
import json
import os
import subprocess
import sys
import threading
import queue


class ProtocolError(Exception):
    """The server broke the framing or closed the stream."""


class Client:
    """Speaks LSP base-protocol framing to a server process over pipes."""

    def __init__(self, command, stderr=None):
        self.proc = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr
        )
        self.next_id = 1
        self.inbox = queue.Queue()
        self.reader = threading.Thread(target=self._read_loop, daemon=True)
        self.reader.start()

    # -- framing ---------------------------------------------------------
    def send(self, message):
        body = json.dumps(message, ensure_ascii=False).encode("utf-8")
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def _read_loop(self):
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    self.inbox.put(None)
                    return
                line = line.rstrip(b"\r\n")
                if not line:
                    break
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value.strip())
            if length is None:
                self.inbox.put(ProtocolError("message without Content-Length"))
                return
            self.inbox.put(json.loads(out.read(length).decode("utf-8")))

    def receive(self, timeout=30):
        item = self.inbox.get(timeout=timeout)
        if item is None:
            raise ProtocolError("the server closed its output")
        if isinstance(item, Exception):
            raise item
        return item

    # -- JSON-RPC --------------------------------------------------------
    def request(self, method, params=None, on_notification=None, timeout=30):
        """Sends a request and returns its whole response message."""
        msg_id = self.next_id
        self.next_id += 1
        message = {"jsonrpc": "2.0", "id": msg_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        return self.wait_for_response(msg_id, on_notification, timeout)

    def wait_for_response(self, msg_id, on_notification=None, timeout=30):
        while True:
            message = self.receive(timeout)
            if "method" not in message and message.get("id") == msg_id:
                return message
            if on_notification:
                on_notification(message)

    def notify(self, method, params=None):
        message = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)

    def initialize(self, encodings=("utf-16",)):
        return self.request(
            "initialize",
            {"processId": os.getpid(), "rootUri": None,
             "capabilities": {"general": {"positionEncodings": list(encodings)}}},
        )

    def close(self, timeout=10):
        if self.proc.poll() is None:
            try:
                self.proc.stdin.close()
            except BrokenPipeError:
                pass
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        return self.proc.returncode

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _load_session(path):
    with open(path, encoding="utf-8") as f:
        messages = json.load(f)
    base = os.path.dirname(os.path.abspath(path))

    def expand(value):
        if isinstance(value, dict):
            return {k: expand(v) for k, v in value.items()}
        if isinstance(value, list):
            return [expand(v) for v in value]
        if isinstance(value, str) and value.startswith("$FILE:"):
            with open(os.path.join(base, value[6:]), encoding="utf-8", newline="") as f:
                return f.read()
        return value

    return [expand(m) for m in messages]


def _show(arrow, message):
    text = json.dumps(message, ensure_ascii=False, indent=2)
    print(arrow + " " + text.replace("\n", "\n  "))
    sys.stdout.flush()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", default="bidi-lsp", help="the daemon to start")
    parser.add_argument("session", help="a JSON array of messages to send")
    parser.add_argument("--record", metavar="FILE",
                        help="also write the responses, by request id, to FILE (a transcript)")
    args = parser.parse_args()
    responses = {}

    client = Client([args.server])
    status = 0
    for message in _load_session(args.session):
        _show("-->", message)
        client.send(message)
        if "id" in message and "method" in message:
            response = client.wait_for_response(
                message["id"], on_notification=lambda m: _show("<--", m))
            _show("<--", response)
            responses[str(message["id"])] = response
            if "error" in response:
                status = 1
    code = client.close()
    print("(server exited with status %s)" % code)
    if args.record:
        with open(args.record, "w", encoding="utf-8") as f:
            json.dump(responses, f, ensure_ascii=False, indent=1)
            f.write("\n")
    return status if code == 0 else 1


if __name__ == "__main__":
    sys.exit(main())

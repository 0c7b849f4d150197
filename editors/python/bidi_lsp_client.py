#!/usr/bin/env python3
"""A scripted stdio client for bidi-lsp (Python 3 standard library only).

From the command line, one-off requests on a file::

    bidi_lsp_client.py direction notes.txt          # each line's natural direction
    bidi_lsp_client.py visual notes.txt             # the lines in visual order
    bidi_lsp_client.py marks placeholders ar.strings --apply
    bidi_lsp_client.py check main.c README.md       # Trojan Source hazards; exit 1 if any

(`bidi_lsp_client.py COMMAND --help` for each command's options.) Or replay a
session file and print the exchange::

    bidi_lsp_client.py --server .build/release/bidi-lsp replay SESSION.json

(`--record FILE` also writes the responses, by request id, as a transcript;
`replay` may be left out.) A session file is a JSON array of messages. A
message with a "method" and an "id" is a request: the client sends it and
waits for its response. A message without an "id" is a notification. The
string "$FILE:path" as the value of "text" is replaced by the contents of that
file (relative to the session file), so that documents can live beside the
session.

Or use it as a library::

    from bidi_lsp_client import Client
    with Client(["bidi-lsp"]) as c:
        c.initialize()
        c.notify("textDocument/didOpen", {...})
        print(c.request("bidi/naturalDirection", {...}))

The daemon is `--server PATH`, else $BIDI_LSP, else `bidi-lsp` on the PATH.
Exit status: 0 on success; 1 when `check` finds a hazard or `marks --check`
would change the file; 2 on a usage error, an unreadable file, or an error
from the daemon.
"""

import argparse
import json
import os
import queue
import subprocess
import sys
import threading
import unicodedata

__version__ = "0.3.0"
"""The version of bidi-lsp this client comes with (the daemon's `--version`)."""


class ProtocolError(Exception):
    """The server broke the framing or closed the stream."""


# -- framing (the one implementation of the Python tools) -------------------
def frame(message):
    """A message (a JSON value) as LSP base-protocol bytes."""
    body = json.dumps(message, ensure_ascii=False).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def read_message(stream):
    """One framed message from a binary stream: (header + body bytes, body
    bytes), or None at the end of the stream. ProtocolError for a header
    section without Content-Length, or a stream that ends inside a body."""
    header = b""
    length = None
    while True:
        line = stream.readline()
        if not line:
            if header:
                raise ProtocolError("the stream ended inside a header")
            return None
        header += line
        line = line.rstrip(b"\r\n")
        if not line:
            break
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    if length is None:
        raise ProtocolError("message without Content-Length")
    body = b""
    while len(body) < length:
        chunk = stream.read(length - len(body))
        if not chunk:
            raise ProtocolError("the stream ended inside a message")
        body += chunk
    return header + body, body


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
        self.proc.stdin.write(frame(message))
        self.proc.stdin.flush()

    def _read_loop(self):
        while True:
            try:
                framed = read_message(self.proc.stdout)
            except ProtocolError as error:
                self.inbox.put(error)
                return
            if framed is None:
                self.inbox.put(None)
                return
            self.inbox.put(json.loads(framed[1].decode("utf-8")))

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

    def wait_for_notification(self, method, predicate=lambda params: True, timeout=60):
        """Returns the params of the next notification of METHOD that PREDICATE accepts."""
        while True:
            message = self.receive(timeout)
            if message.get("method") == method and "id" not in message \
                    and predicate(message.get("params")):
                return message.get("params")

    def notify(self, method, params=None):
        message = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)

    def initialize(self, encodings=("utf-16",)):
        return self.request(
            "initialize",
            {"processId": os.getpid(), "rootUri": None,
             "clientInfo": {"name": "bidi_lsp_client.py", "version": __version__},
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


# -- replaying a session ------------------------------------------------------

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


def replay(args):
    """Sends a session file's messages and prints the exchange."""
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


# -- one-off requests on files --------------------------------------------------

class UsageError(Exception):
    """A bad argument, an unreadable file, or an error answer: exit status 2."""


LANGUAGES = {
    "c": "c", "h": "c", "cc": "cpp", "cpp": "cpp", "cxx": "cpp", "hpp": "cpp", "m": "objective-c",
    "mm": "objective-cpp", "swift": "swift", "rs": "rust", "go": "go", "java": "java",
    "js": "javascript", "mjs": "javascript", "cjs": "javascript", "ts": "typescript",
    "py": "python", "rb": "ruby", "sh": "shellscript", "bash": "shellscript", "md": "markdown",
    "txt": "plaintext", "json": "json", "xml": "xml", "html": "html",
    "strings": "strings", "stringsdict": "stringsdict", "xcstrings": "xcstrings", "arb": "arb",
    "po": "po", "pot": "po", "properties": "properties", "xliff": "xliff", "xlf": "xliff",
    "resx": "resx",
}


def language_id(path):
    """The LSP languageId of PATH, from its extension (plaintext when unknown)."""
    extension = os.path.splitext(path)[1][1:].lower()
    return LANGUAGES.get(extension, "plaintext")


def split_lines(text):
    """The lines of TEXT as the daemon counts them: ended by LF, CR LF or CR
    (str.splitlines would also split at U+2028, FF, VT...)."""
    lines, start, i = [], 0, 0
    while i < len(text):
        c = text[i]
        if c == "\r" or c == "\n":
            lines.append(text[start:i])
            i += 2 if c == "\r" and text[i + 1:i + 2] == "\n" else 1
            start = i
        else:
            i += 1
    lines.append(text[start:])
    return lines


def parse_range(spec, lines):
    """The LSP Range (utf-32) of SPEC for a document of LINES.

    SPEC is LINE, FIRST-LAST (whole lines), or LINE:COLUMN-LINE:COLUMN
    (columns in characters, the end excluded); all 1-based."""
    def point(part, end):
        line_text, _, column_text = part.partition(":")
        try:
            line = int(line_text)
            column = int(column_text) if column_text else None
        except ValueError:
            raise UsageError("--range: expected LINE, FIRST-LAST or LINE:COLUMN-LINE:COLUMN, got %r" % spec)
        if not 1 <= line <= len(lines):
            raise UsageError("--range: line %d is not in the file (1-%d)" % (line, len(lines)))
        if column is None:
            if not end:
                return {"line": line - 1, "character": 0}
            if line < len(lines):
                return {"line": line, "character": 0}
            return {"line": line - 1, "character": len(lines[line - 1])}
        if not 1 <= column <= len(lines[line - 1]) + 1:
            raise UsageError("--range: column %d is not in line %d" % (column, line))
        return {"line": line - 1, "character": column - 1}

    first, dash, last = spec.partition("-")
    return {"start": point(first, False), "end": point(last if dash else first, True)}


def describe_text(text):
    """TEXT as a reader can see it: a control by code point and name."""
    if len(text) == 1 and not text.isprintable():
        return "U+%04X %s" % (ord(text), unicodedata.name(text, "?"))
    return json.dumps(text, ensure_ascii=False)


class Session:
    """A daemon with files open in it, for one command."""

    def __init__(self, server):
        try:
            self.client = Client([server], stderr=subprocess.DEVNULL)
        except OSError as error:
            raise UsageError("cannot run %s: %s (use --server or $BIDI_LSP)" % (server, error.strerror))
        answer = self.client.initialize(("utf-32",))
        if answer.get("result", {}).get("capabilities", {}).get("positionEncoding") != "utf-32":
            raise UsageError("the daemon did not agree to utf-32 positions")
        self.client.notify("initialized", {})

    def open(self, path, language=None):
        """Opens PATH; returns (uri, text, lines)."""
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError as error:
            raise UsageError("%s: %s" % (path, error.strerror))
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            raise UsageError("%s: not UTF-8 (byte %d); `bidi-lsp check` reports such files"
                             % (path, error.start))
        uri = "file://" + os.path.abspath(path)
        self.client.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": language or language_id(path), "version": 1, "text": text}})
        return uri, text, split_lines(text)

    def request(self, method, params):
        """The result of METHOD, or UsageError with the daemon's message."""
        response = self.client.request(method, params, timeout=120)
        if "error" in response:
            raise UsageError("%s: %s" % (method, response["error"].get("message")))
        return response.get("result")

    def close(self):
        self.client.request("shutdown")
        self.client.notify("exit")
        self.client.close()


def is_final_empty_line(line, lines):
    """Whether LINE is the empty one after a file's last line break (a line
    for the protocol, not for a reader)."""
    return line == len(lines) - 1 and line > 0 and lines[line] == ""


def run_direction(session, args):
    uri, _, lines = session.open(args.file, args.language)
    params = {"textDocument": {"uri": uri}}
    if args.range:
        params["range"] = parse_range(args.range, lines)
    if args.strategy:
        params["strategy"] = args.strategy
    for p in session.request("bidi/naturalDirection", params)["paragraphs"]:
        if is_final_empty_line(p["line"], lines):
            continue
        where = "%d" % (p["line"] + 1)
        if p["start"] > 0 or p["end"] < len(lines[p["line"]]):
            where += ":%d-%d" % (p["start"] + 1, p["end"] + 1)
        strong = p.get("strongCharacter")
        basis = p["basis"] + (", first strong character at %d:%d"
                              % (strong["line"] + 1, strong["character"] + 1) if strong else "")
        print("%s: %s (%s)" % (where, p["direction"], basis))
    return 0


def run_visual(session, args):
    uri, _, lines = session.open(args.file, args.language)
    params = {"textDocument": {"uri": uri}, "include": ["visualText"],
              "controls": args.controls,
              "combiningMarks": "afterBase" if args.combining_marks == "after-base" else "resolved"}
    if args.range:
        params["range"] = parse_range(args.range, lines)
    if args.direction:
        params["direction"] = args.direction
    if args.shape == "always" or (args.shape == "auto" and sys.stdout.isatty()):
        params["shape"] = True
    shown = {}
    for p in session.request("bidi/visualOrder", params)["paragraphs"]:
        if is_final_empty_line(p["line"], lines):
            continue
        shown.setdefault(p["line"], []).append("".join(l["visualText"] for l in p["lines"]))
    for line in sorted(shown):
        print("".join(shown[line]))
    return 0


MARK_OPTIONS = {"direction": "direction", "isolate": "isolate", "placeholders": "style", "strip": "only"}


def line_starts(text):
    """The offset in TEXT of the start of each of its lines."""
    starts, i = [0], 0
    for line in split_lines(text)[:-1]:
        i += len(line)
        i += 2 if text[i:i + 2] == "\r\n" else 1
        starts.append(i)
    return starts


def offset(starts, position):
    """The offset of the LSP POSITION (utf-32) in a text whose lines start at STARTS."""
    return starts[position["line"]] + position["character"]


def apply_edits(text, edits):
    """TEXT with the LSP EDITS (utf-32, non-overlapping) applied; insertions
    at the same position appear in the order of EDITS, as LSP defines."""
    starts = line_starts(text)
    ordered = sorted(enumerate(edits), key=lambda e: (offset(starts, e[1]["range"]["start"]), e[0]), reverse=True)
    for _, edit in ordered:
        start, end = offset(starts, edit["range"]["start"]), offset(starts, edit["range"]["end"])
        text = text[:start] + edit["newText"] + text[end:]
    return text


def run_marks(session, args):
    uri, text, lines = session.open(args.file, args.language)
    params = {"textDocument": {"uri": uri}, "mode": args.mode}
    if args.range:
        params["range"] = parse_range(args.range, lines)
    elif args.mode == "isolate":
        raise UsageError("marks isolate needs --range (the text to isolate, within one line)")
    option = MARK_OPTIONS.get(args.mode)
    value = getattr(args, option) if option else None
    if option and value is None and args.mode == "direction":
        raise UsageError("marks direction needs --direction ltr|rtl")
    if value is not None:
        params[option] = value
    edits = session.request("bidi/insertMarks", params)["edits"]
    starts = line_starts(text)
    for edit in edits:
        start = edit["range"]["start"]
        removed = text[offset(starts, start):offset(starts, edit["range"]["end"])]
        if not removed:
            what = "insert %s" % describe_text(edit["newText"])
        elif not edit["newText"]:
            what = "delete %s" % describe_text(removed)
        else:
            what = "replace %s by %s" % (describe_text(removed), describe_text(edit["newText"]))
        print("%s:%d:%d: %s" % (args.file, start["line"] + 1, start["character"] + 1, what))
    if not edits:
        print("%s: nothing to change" % args.file)
    elif args.apply:
        with open(args.file, "w", encoding="utf-8", newline="") as f:
            f.write(apply_edits(text, edits))
        print("%s: %d edit%s applied" % (args.file, len(edits), "" if len(edits) == 1 else "s"))
    return 1 if args.check and edits else 0


SEVERITIES = {1: "error", 2: "warning", 3: "information", 4: "hint"}


def run_check(session, args):
    found = 0
    for path in args.files:
        uri, _, lines = session.open(path, args.language)
        diagnostics = session.client.wait_for_notification(
            "textDocument/publishDiagnostics", lambda params: params.get("uri") == uri)["diagnostics"]
        for d in sorted(diagnostics, key=lambda d: (d["range"]["start"]["line"], d["range"]["start"]["character"])):
            start = d["range"]["start"]
            # The column in UTF-8 bytes, as compilers (and `bidi-lsp check`) give it.
            column = len(lines[start["line"]][:start["character"]].encode("utf-8")) + 1
            print("%s:%d:%d: %s: %s [%s]" % (path, start["line"] + 1, column,
                                           SEVERITIES.get(d.get("severity"), "error"), d["message"], d["code"]))
            found += 1
        session.client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    return 1 if found else 0


COMMANDS = {"direction": run_direction, "visual": run_visual, "marks": run_marks, "check": run_check}


def build_parser():
    parser = argparse.ArgumentParser(
        prog="bidi_lsp_client.py",
        description="One-off bidi-lsp requests on files, or the replay of a session file.",
        epilog="Exit status: 0 done; 1 hazards found (check) or edits needed (marks --check); "
               "2 usage, file or daemon errors. Ranges: LINE, FIRST-LAST or "
               "LINE:COLUMN-LINE:COLUMN, 1-based, columns in characters.")
    server = argparse.ArgumentParser(add_help=False)
    server.add_argument("--server", default=argparse.SUPPRESS,
                        help="the daemon to start (default: $BIDI_LSP, else bidi-lsp)")
    parser.add_argument("--server", default=os.environ.get("BIDI_LSP") or "bidi-lsp",
                        help="the daemon to start (default: $BIDI_LSP, else bidi-lsp)")
    parser.add_argument("--version", action="version", version="%(prog)s " + __version__)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    def command(name, help_text):
        sub = commands.add_parser(name, parents=[server], help=help_text, description=help_text)
        return sub

    def file_options(sub):
        sub.add_argument("file", metavar="FILE")
        sub.add_argument("--range", metavar="RANGE", help="only these lines or this text")
        sub.add_argument("--language", metavar="ID", help="the languageId (default: from the extension)")

    sub = command("direction", "print the natural direction of each line (paragraph) of FILE and its basis")
    file_options(sub)
    sub.add_argument("--strategy", choices=["firstStrong", "estimate", "anyRTL"])

    sub = command("visual", "print the lines of FILE in visual order (left to right, as they display)")
    file_options(sub)
    sub.add_argument("--direction", choices=["auto", "ltr", "rtl"], help="the paragraph direction (default auto)")
    sub.add_argument("--controls", choices=["keep", "strip", "names"], default="strip",
                     help="bidi controls in the output: kept, dropped (default) or named [RLM]")
    sub.add_argument("--combining-marks", choices=["after-base", "resolved"], default="after-base",
                     help="combining marks after their letter (UAX #9 L3, default) or where UAX #9 resolves them")
    sub.add_argument("--shape", dest="shape", action="store_const", const="always", default="auto",
                     help="join Arabic letters into their presentation forms (visualOrder's shape: true), for a "
                          "terminal that does not shape; by default only when standard output is a terminal")
    sub.add_argument("--no-shape", dest="shape", action="store_const", const="never",
                     help="never join Arabic letters, even on a terminal")

    sub = command("marks", "print (or --apply) the bidi marks a bidi/insertMarks MODE inserts in FILE")
    sub.add_argument("mode", metavar="MODE", choices=["direction", "isolate", "placeholders", "runs", "strip"],
                     help="direction, isolate, placeholders, runs or strip")
    file_options(sub)
    sub.add_argument("--direction", choices=["ltr", "rtl"], help="for direction (required)")
    sub.add_argument("--isolate", choices=["auto", "ltr", "rtl"], help="for isolate (default auto)")
    sub.add_argument("--style", choices=["isolate", "marks"], help="for placeholders (default isolate)")
    sub.add_argument("--only", choices=["all", "unpaired"], help="for strip (default all)")
    sub.add_argument("--apply", action="store_true", help="write the edits to FILE")
    sub.add_argument("--check", action="store_true", help="exit 1 if there are edits to make")

    sub = command("check", "print the Trojan Source hazards of each FILE; exit 1 if there is any")
    sub.add_argument("files", metavar="FILE", nargs="+")
    sub.add_argument("--language", metavar="ID", help="the languageId (default: from each extension)")

    sub = command("replay", "send the messages of a session file and print the exchange")
    sub.add_argument("session", metavar="SESSION.json")
    sub.add_argument("--record", metavar="FILE",
                     help="also write the responses, by request id, to FILE (a transcript)")
    return parser


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    # The older form `[--server X] SESSION.json [--record F]` replays.
    positional = [a for i, a in enumerate(argv)
                  if not a.startswith("-") and (i == 0 or argv[i - 1] not in ("--server", "--record"))]
    if positional and positional[0] not in COMMANDS and positional[0] != "replay":
        argv.insert(argv.index(positional[0]), "replay")
    parser = build_parser()
    args = parser.parse_args(argv)
    if not args.command:
        parser.print_help(sys.stderr)
        return 2
    if args.command == "replay":
        return replay(args)
    session = None
    try:
        session = Session(args.server)
        return COMMANDS[args.command](session, args)
    except UsageError as error:
        print("bidi_lsp_client.py: %s" % error, file=sys.stderr)
        return 2
    except (ProtocolError, queue.Empty, BrokenPipeError):
        print("bidi_lsp_client.py: the daemon stopped answering", file=sys.stderr)
        return 2
    finally:
        if session is not None:
            try:
                session.close()
            except (ProtocolError, queue.Empty, OSError):
                pass


if __name__ == "__main__":
    sys.exit(main())

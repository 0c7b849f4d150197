"""Edits Markdown files with bidi/insertMarks through the daemon, applies the
edits, and checks that cmark-gfm reads the same blocks with the same text
apart from the inserted controls, and that asking again gives no edits."""
import os, re, subprocess, sys
sys.path.insert(0, sys.argv[1])
from bidi_lsp_client import Client

CONTROLS = re.compile("[\u200e\u200f\u061c\u2066-\u2069\u202a-\u202e]")

def blocks(text):
    xml = subprocess.run(["cmark-gfm", "--sourcepos", "-e", "table", "-e", "strikethrough", "-e", "tasklist",
                          "-e", "autolink", "-t", "xml"], input=text.encode(), capture_output=True).stdout.decode()
    xml = re.sub(r' sourcepos="[^"]*"', "", xml)
    xml = CONTROLS.sub("", xml)
    # A control next to markup is a text node of its own: empty once removed.
    return "\n".join(l for l in xml.splitlines() if l.strip() != '<text xml:space="preserve"></text>')

def apply(text, edits):
    lines = text.split("\n")
    def offset(pos):  # UTF-16 positions
        line = lines[pos["line"]]
        units = 0; chars = 0
        while units < pos["character"]:
            units += 2 if ord(line[chars]) > 0xFFFF else 1; chars += 1
        return sum(len(l) + 1 for l in lines[:pos["line"]]) + chars
    for e in sorted(edits, key=lambda e: (e["range"]["start"]["line"], e["range"]["start"]["character"]), reverse=True):
        s, t = offset(e["range"]["start"]), offset(e["range"]["end"])
        text = text[:s] + e["newText"] + text[t:]
    return text

def main():
    binary, files = sys.argv[2], sys.argv[3:]
    client = Client([binary]); client.initialize()
    failures = 0; total_edits = 0; version = 1
    modes = [{"mode": "direction", "direction": "rtl"}, {"mode": "direction", "direction": "ltr"},
             {"mode": "placeholders"}, {"mode": "runs"}]
    for path in files:
        original = open(path, encoding="utf-8").read()
        for mode in modes:
            uri = "file:///tmp/rt/" + os.path.basename(path) + str(version)
            client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "markdown", "version": 1, "text": original}})
            n = original.count("\n")
            whole = {"start": {"line": 0, "character": 0}, "end": {"line": n + 1, "character": 0}}
            r = client.request("bidi/insertMarks", dict(mode, textDocument={"uri": uri}, range=whole))
            if "error" in r:
                print("error", path, mode, r["error"]); failures += 1; continue
            edits = r["result"]["edits"]; total_edits += len(edits)
            edited = apply(original, edits)
            if blocks(edited) != blocks(original):
                print("DIFFERENT BLOCKS", path, mode); failures += 1
            client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                          "contentChanges": [{"text": edited}]})
            again = client.request("bidi/insertMarks", dict(mode, textDocument={"uri": uri}, range={"start": whole["start"], "end": {"line": edited.count("\n") + 1, "character": 0}}))
            if again["result"]["edits"]:
                print("NOT IDEMPOTENT", path, mode, again["result"]["edits"][:2]); failures += 1
            version += 1
    print("roundtrip: %d files x %d modes, %d edits, %d failures" % (len(files), len(modes), total_edits, failures))
    client.close()
    sys.exit(1 if failures else 0)

main()

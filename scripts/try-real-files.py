#!/usr/bin/env python3
"""Tries bidi-lsp on a folder of real localization files, as a new user would.

Usage: scripts/try-real-files.py [--server PATH] [--keep DIR] DIR...
(with the Python tools' venv for Fluent and YAML:
"$(scripts/python-tools.sh)/bin/python" scripts/try-real-files.py …)

Every localization file under DIR (by the daemon's own rules: .strings,
.stringsdict, .xcstrings, .po/.pot, .xlf/.xliff, .arb, .properties, .resx,
.xml under a values* folder, .json under a locale folder, .ftl, a .ts file
that begins as Qt Linguist, .yml/.yaml named by a locale or under a
locales/translations folder, _locales/*/messages.json) goes through:

1. `bidi-lsp check --format json FILE`: it must not crash or hang, and must
   report `bidi.localizationSyntax` only where the format's own parser (see
   scripts/l10n-check/reference_readers.py) refuses the file too;
2. the daemon over stdio (editors/python/bidi_lsp_client.py): the values it
   serves in values mode (`bidi/visualOrder`: key, variant, decoded text) must
   be the ones the format's own parser reads;
3. `insertMarks placeholders` and `insertMarks direction rtl` on a copy (with
   the folders of the original, so that the locale still comes from the
   path): every edit inside a value's range and made of bidi controls (or
   their escapes); the edited copy read by the format's own parser with the
   same keys and the values equal once the controls are removed; asking again
   gives no edits; `check` on the copy reports no syntax error. The same mode
   run through the client's command line (`marks MODE FILE --apply`) must
   write the same file;
4. every finding's quick fixes (`textDocument/codeAction` for the
   diagnostics the daemon publishes): each edit inside a value and made of
   bidi controls, the fixed file read by the format's own parser with the
   same keys and values, and, opened again, no finding of that code left on
   that line; a hover on each finding answers;
5. editing as a user types: a letter inserted at the start of the middle
   value, then that value's line deleted (`didChange`, incremental), must be
   answered as the same text opened afresh is.

Each file gets one line (`ok` or what went wrong), then a count per format.
Exit status: 0 when nothing went wrong, 1 otherwise, 2 on a usage error.
The files are never changed; copies go to a temporary folder (or --keep DIR).
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "l10n-check"))
sys.path.insert(0, os.path.join(HERE, "..", "editors", "python"))
from bidi_lsp_client import Client, apply_edits, language_id, line_starts, offset  # noqa: E402
from reference_readers import ReadError, read  # noqa: E402

BIDI_CONTROLS = {0x061C, 0x200E, 0x200F} | set(range(0x202A, 0x202F)) | set(range(0x2066, 0x206A))
CONTROL_ESCAPE = re.compile(
    r"\\[uU](061[cC]|200[eEfF]|202[a-eA-E]|206[6-9])|&#[xX](61[cC]|200[eEfF]|202[a-eA-E]|206[6-9]);"
    r"|&#(1564|8206|8207|820[2-6]|823[0-3]);")
PARAGRAPH_ENDS = "\n\r\x1c\x1d\x1e\x85\u2029"
LOCALE_FOLDER = re.compile(r"^[a-z]{2,3}([-_][A-Za-z0-9]{2,8})*$")
TIMEOUT = 120


def format_of(path):
    """The reference reader's format name for PATH, or None when the daemon
    would not read it as a localization file."""
    name = os.path.basename(path)
    extension = os.path.splitext(name)[1].lower()
    simple = {".strings": "strings", ".stringsdict": "stringsdict", ".xcstrings": "xcstrings",
              ".po": "po", ".pot": "po", ".xlf": "xliff", ".xliff": "xliff", ".arb": "arb",
              ".properties": "properties", ".resx": "resx", ".ftl": "fluent"}
    if extension in simple:
        return simple[extension]
    folders = os.path.dirname(path).split(os.sep)
    if extension == ".ts":
        # Qt Linguist, not TypeScript, when it begins as one (as the daemon tells them apart).
        with open(path, "rb") as stream:
            head = re.sub(rb"<\?.*?\?>|<!--.*?-->", b"", stream.read(4096).lstrip(b"\xef\xbb\xbf"), flags=re.S)
        return "qt" if re.match(rb"\s*(<!DOCTYPE\s+TS[\s>\[]|<TS[\s>/])", head) else None
    if extension in (".yml", ".yaml"):
        stem = os.path.splitext(name)[0]
        named = any(LOCALE_FOLDER.match(part) for part in re.split(r"[._-]", stem)[-2:] + [stem])
        if named or set(folders) & {"locales", "locale", "translations", "i18n", "l10n", "lang"}:
            return "yaml"
        return None
    if name == "messages.json" and len(folders) >= 2 and folders[-2] == "_locales":
        return "webextension"
    if extension == ".xml" and folders and re.match(r"^values(-.*)?$", folders[-1]):
        return "android"
    if extension == ".json":
        stem = os.path.splitext(name)[0]
        if LOCALE_FOLDER.match(stem) or any(LOCALE_FOLDER.match(f) for f in folders[-3:]):
            return "i18next"
    return None


def without_controls(text):
    return "".join(c for c in text if ord(c) not in BIDI_CONTROLS)


def is_controls(text):
    """Whether TEXT is only bidi controls, written as characters or escapes."""
    return without_controls(CONTROL_ESCAPE.sub("", text)) == ""


def short(text, limit=70):
    text = json.dumps(text, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 1] + "…\""


def reference_values(format_name, path):
    """The values the format's own parser reads, as (key, variant, text), and
    a note when it reads them only leniently (msgfmt without --check)."""
    try:
        return read(format_name, path), None
    except ReadError as error:
        if format_name != "po":
            raise
        # msgfmt --check also checks things that are no syntax (a header
        # field missing, msgid and msgstr not both ending with \n): gettext
        # still compiles such a file, so read it as gettext does.
        return read("po-lenient", path), str(error)


class Daemon:
    """One bidi-lsp process, documents opened one after another in it."""

    def __init__(self, server):
        self.client = Client([server], stderr=subprocess.DEVNULL)
        answer = self.client.initialize(("utf-32",))
        if answer.get("result", {}).get("capabilities", {}).get("positionEncoding") != "utf-32":
            raise SystemExit("the daemon did not agree to utf-32 positions")
        self.client.notify("initialized", {})
        self.version = 0

    def open(self, path, text):
        self.version += 1
        uri = "file://" + os.path.abspath(path) + "#%d" % self.version
        self.client.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": language_id(path), "version": 1, "text": text}})
        return uri

    def close_document(self, uri):
        self.client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})

    def request(self, method, params):
        response = self.client.request(method, params, timeout=TIMEOUT)
        if "error" in response:
            raise RuntimeError("%s: %s" % (method, response["error"].get("message")))
        return response["result"]

    def close(self):
        try:
            self.client.request("shutdown", timeout=10)
            self.client.notify("exit")
        finally:
            self.client.close()


def served_values(paragraphs):
    """The daemon's value paragraphs joined into values: (key, variant, text)."""
    values = []
    for p in paragraphs:
        if "key" not in p:
            continue
        key, variant, text = p["key"], p.get("variant"), p["text"]
        last = values[-1] if values else None
        if last and last[0] == key and last[1] == variant and last[2] and last[2][-1] in PARAGRAPH_ENDS:
            values[-1] = (key, variant, last[2] + text)
        else:
            values.append((key, variant, text))
    return values


def compare_values(format_name, served, reference):
    """What differs between the daemon's values and the reference's, or None."""
    if not any(v for _, v, _ in reference):
        # ICU formats (ARB, i18next, .properties): the parser reads messages;
        # the daemon also serves each plural/select branch after its message.
        served = [value for value in served if value[1] is None]
    if format_name == "po":
        # msgfmt's catalog: "context\x04msgid", sorted, untranslated left out.
        reference = sorted((k.split("\x04")[-1], v, t) for k, v, t in reference)
        served = sorted(v for v in served if v[2])
    if len(served) != len(reference):
        keys_served = {(k, v) for k, v, _ in served}
        keys_reference = {(k, v) for k, v, _ in reference}
        missing = sorted(keys_reference - keys_served, key=str)[:3]
        extra = sorted(keys_served - keys_reference, key=str)[:3]
        return "%d values served, the format's parser reads %d (missing %s, extra %s)" % (
            len(served), len(reference), missing, extra)
    for (k1, v1, t1), (k2, v2, t2) in zip(served, reference):
        if format_name == "yaml" and k1 != k2 and "." in k2 and LOCALE_FOLDER.match(k2.split(".")[0]):
            # A Rails file's top-level locale key is the values' locale, not part of their keys.
            k2 = k2.split(".", 1)[1]
        if (k1, v1) != (k2, v2):
            return "key %s %s served where the parser reads %s %s" % (short(k1), v1, short(k2), v2)
        if t1 != t2:
            return "value %s %s served as %s, the parser reads %s" % (short(k1), v1 or "", short(t1), short(t2))
    return None


def run_check(server, path):
    """`bidi-lsp check --format json PATH`: (findings, problem)."""
    try:
        run = subprocess.run([server, "check", "--format", "json", path], capture_output=True,
                             text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return [], "check hung (over %d s)" % TIMEOUT
    if run.returncode not in (0, 1):
        return [], "check exited with %d: %s" % (run.returncode, run.stderr.strip()[:200])
    try:
        answer = json.loads(run.stdout or "[]")
    except ValueError:
        return [], "check --format json printed no JSON: %s" % run.stdout[:200]
    findings = answer if isinstance(answer, list) else answer.get("findings", answer.get("diagnostics", []))
    return findings, None


def finding_code(finding):
    return finding.get("code") or finding.get("rule") or "?"


def try_mode(server, daemon, format_name, path, copy, cli_copy, text, ranges, mode, options):
    """Plans MODE on TEXT, applies it to COPY and checks the result; returns
    (number of edits, problem or None)."""
    uri = daemon.open(path, text)
    try:
        edits = daemon.request("bidi/insertMarks", dict({"textDocument": {"uri": uri}, "mode": mode}, **options))["edits"]
    finally:
        daemon.close_document(uri)
    problem = check_edits(text, edits, ranges)
    if problem:
        return len(edits), "%s: %s" % (mode, problem)
    edited = apply_edits(text, edits)
    with open(copy, "w", encoding="utf-8", newline="") as f:
        f.write(edited)
    problem = same_values(format_name, path, copy)
    if problem:
        return len(edits), "%s: %s" % (mode, problem)
    uri = daemon.open(copy, edited)
    try:
        again = daemon.request("bidi/insertMarks", dict({"textDocument": {"uri": uri}, "mode": mode}, **options))["edits"]
    finally:
        daemon.close_document(uri)
    if again:
        e = again[0]["range"]["start"]
        return len(edits), "%s: asking again gives %d edits (first at %d:%d)" % (mode, len(again), e["line"] + 1, e["character"] + 1)
    findings, problem = run_check(server, copy)
    if problem:
        return len(edits), "%s: on the edited file, %s" % (mode, problem)
    if any(finding_code(f) == "bidi.localizationSyntax" for f in findings):
        return len(edits), "%s: check reports a syntax error in the edited file" % mode
    # The same through the client's command line, as a user types it (on a
    # copy with the same folders and name: the format and the locale may
    # come from them, as for `_locales/fa/messages.json`).
    shutil.copyfile(path, cli_copy)
    arguments = [sys.executable, os.path.join(HERE, "..", "editors", "python", "bidi_lsp_client.py"),
                 "--server", server, "marks", mode, cli_copy, "--apply"]
    if "direction" in options:
        arguments += ["--direction", options["direction"]]
    try:
        cli = subprocess.run(arguments, capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return len(edits), "%s: bidi_lsp_client.py marks hung" % mode
    with open(cli_copy, encoding="utf-8", newline="") as f:
        cli_text = f.read()
    os.remove(cli_copy)
    if cli.returncode != 0 or cli_text != edited:
        return len(edits), "%s: bidi_lsp_client.py marks --apply wrote another file (exit %d)" % (mode, cli.returncode)
    return len(edits), None


def entries(paragraphs):
    return [(p.get("key"), p.get("variant"), p.get("text"), json.dumps(p.get("range"), sort_keys=True))
            for p in paragraphs]


def try_edits(daemon, path, text, paragraphs):
    """Two incremental edits, each answer compared with a fresh open of the
    same text; the problem, or None."""
    values = [p for p in paragraphs if "key" in p]
    if not values:
        return None
    middle = values[len(values) // 2]["range"]["start"]
    lines = text.split("\n")
    edits = [
        ({"start": middle, "end": middle}, "\u05d0"),
        ({"start": {"line": middle["line"], "character": 0}, "end": {"line": middle["line"] + 1, "character": 0}}, ""),
    ]
    if middle["line"] + 1 >= len(lines):
        edits = edits[:1]
    uri = daemon.open(path, text)
    try:
        current = text
        for version, (where, new_text) in enumerate(edits, start=2):
            daemon.client.notify("textDocument/didChange", {
                "textDocument": {"uri": uri, "version": version},
                "contentChanges": [{"range": where, "text": new_text}]})
            current = apply_edits(current, [{"range": where, "newText": new_text}])
            changed = daemon.request("bidi/visualOrder", {"textDocument": {"uri": uri}})["paragraphs"]
            fresh_uri = daemon.open(path, current)
            try:
                fresh = daemon.request("bidi/visualOrder", {"textDocument": {"uri": fresh_uri}})["paragraphs"]
            finally:
                daemon.close_document(fresh_uri)
            if entries(changed) != entries(fresh):
                difference = next((i for i, (a, b) in enumerate(zip(entries(changed), entries(fresh))) if a != b),
                                  min(len(changed), len(fresh)))
                return "after edit %d at line %d the answer differs from a fresh open (entry %d of %d/%d)" % (
                    version - 1, where["start"]["line"] + 1, difference, len(changed), len(fresh))
    finally:
        daemon.close_document(uri)
    return None


def check_edits(text, edits, ranges):
    """The first edit that is not bidi controls inside a value, or None."""
    starts = line_starts(text)
    for edit in edits:
        start, end = offset(starts, edit["range"]["start"]), offset(starts, edit["range"]["end"])
        where = "%d:%d" % (edit["range"]["start"]["line"] + 1, edit["range"]["start"]["character"] + 1)
        if not is_controls(edit["newText"]) or start != end and not is_controls(text[start:end]):
            return "edit %s at %s is not a bidi control" % (short(edit["newText"]), where)
        if not any(a <= start and end <= b for a, b in ranges):
            return "edit at %s is outside every value" % where
    return None


def same_values(format_name, path, copy):
    """Whether COPY holds PATH's keys and values, bidi controls aside: the
    problem, or None."""
    try:
        before, _ = reference_values(format_name, path)
        after, _ = reference_values(format_name, copy)
    except ReadError as error:
        return "the edited file does not parse: %s" % error
    if [(k, v) for k, v, _ in before] != [(k, v) for k, v, _ in after]:
        return "the edited file has other keys (%d before, %d after)" % (len(before), len(after))
    for (key, variant, old), (_, _, new) in zip(before, after):
        if without_controls(old) != without_controls(new):
            return "value %s %s became %s" % (short(key), short(old), short(new))
    return None


def diagnostics_of(daemon, path, text):
    uri = daemon.open(path, text)
    try:
        found = daemon.client.wait_for_notification(
            "textDocument/publishDiagnostics", lambda params: params.get("uri") == uri, timeout=TIMEOUT)
        return uri, found["diagnostics"]
    except Exception:
        daemon.close_document(uri)
        raise


def try_fixes(daemon, format_name, path, copy, text, ranges):
    """Every quick fix of every finding: (fixes tried, problem or None)."""
    uri, diagnostics = diagnostics_of(daemon, path, text)
    tried = 0
    try:
        for d in diagnostics:
            hover = daemon.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": d["range"]["start"]})
            if not hover or not hover.get("contents", {}).get("value"):
                return tried, "no hover on the %s finding at %d:%d" % (
                    d["code"], d["range"]["start"]["line"] + 1, d["range"]["start"]["character"] + 1)
            actions = daemon.request("textDocument/codeAction", {
                "textDocument": {"uri": uri}, "range": d["range"],
                "context": {"diagnostics": [d], "only": ["quickfix"]}})
            for action in actions or []:
                edits = action.get("edit", {}).get("changes", {}).get(uri, [])
                tried += 1
                what = "fix %s of %s at line %d" % (short(action.get("title", "?"), 40), d["code"], d["range"]["start"]["line"] + 1)
                problem = check_edits(text, edits, ranges)
                if problem:
                    return tried, "%s: %s" % (what, problem)
                fixed = apply_edits(text, edits)
                with open(copy, "w", encoding="utf-8", newline="") as f:
                    f.write(fixed)
                problem = same_values(format_name, path, copy)
                if problem:
                    return tried, "%s: %s" % (what, problem)
                again_uri, again = diagnostics_of(daemon, copy, fixed)
                daemon.close_document(again_uri)
                line = d["range"]["start"]["line"]
                if any(a["code"] == d["code"] and a["range"]["start"]["line"] == line for a in again):
                    return tried, "%s: the finding is still there once fixed" % what
    finally:
        daemon.close_document(uri)
    return tried, None


def try_file(server, daemon, path, copy_for):
    """One line on PATH: what went wrong, or the figures when nothing did."""
    format_name = format_of(path)
    problems, notes = [], []
    findings, problem = run_check(server, path)
    if problem:
        return format_name, [problem], notes
    syntax = [f for f in findings if finding_code(f) == "bidi.localizationSyntax"]
    try:
        reference, lenient = reference_values(format_name, path)
        if lenient:
            notes.append("msgfmt --check refuses it (%s), gettext compiles it" % lenient[:80])
    except ReadError as error:
        reference = None
        notes.append("not its format for its own parser: %s" % str(error)[:100])
    if syntax and reference is not None:
        problems.append("check reports localizationSyntax (%s) on a file its parser reads" % syntax[0].get("message", "")[:100])
    if not syntax and reference is None:
        problems.append("the parser refuses the file, check reports no localizationSyntax")
    codes = {}
    for f in findings:
        codes[finding_code(f)] = codes.get(finding_code(f), 0) + 1
    notes.append(", ".join("%s %d" % (c.replace("bidi.", ""), n) for c, n in sorted(codes.items())) or "no findings")
    with open(path, "rb") as f:
        data = f.read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        notes.append("not UTF-8: the server part is skipped")
        return format_name, problems, notes
    if text.startswith("\ufeff"):
        notes.append("UTF-8 BOM")
    uri = daemon.open(path, text)
    try:
        paragraphs = daemon.request("bidi/visualOrder", {"textDocument": {"uri": uri}})["paragraphs"]
        direction = daemon.request("bidi/naturalDirection", {"textDocument": {"uri": uri}})["paragraphs"]
    finally:
        daemon.close_document(uri)
    served = served_values(paragraphs)
    notes.insert(0, "%d values" % len(served))
    if len(direction) != len(paragraphs):
        problems.append("naturalDirection has %d entries, visualOrder %d" % (len(direction), len(paragraphs)))
    if reference is not None and not syntax:
        difference = compare_values(format_name, served, reference)
        if difference:
            problems.append(difference)
    if reference is None or syntax:
        return format_name, problems, notes
    starts = line_starts(text)
    ranges = [(offset(starts, p["range"]["start"]), offset(starts, p["range"]["end"])) for p in paragraphs if "key" in p]
    count, problem = try_fixes(daemon, format_name, path, copy_for("fixes"), text, ranges)
    notes.append("%d quick fixes" % count)
    if problem:
        problems.append(problem)
    problem = try_edits(daemon, path, text, paragraphs)
    if problem:
        problems.append(problem)
    for mode, options in (("placeholders", {}), ("direction", {"direction": "rtl"})):
        count, problem = try_mode(
            server, daemon, format_name, path, copy_for(mode), copy_for(mode + "-cli"), text, ranges, mode, options)
        notes.append("%s %d edits" % (mode, count))
        if problem:
            problems.append(problem)
    return format_name, problems, notes


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", metavar="DIR", nargs="+")
    parser.add_argument("--server", default=os.environ.get("BIDI_LSP")
                        or os.path.join(HERE, "..", ".build", "release", "bidi-lsp"))
    parser.add_argument("--keep", metavar="DIR",
                        help="write the edited copies there, DIR/MODE/PATH (else to a temporary folder)")
    args = parser.parse_args()
    if not os.access(args.server, os.X_OK):
        parser.error("no daemon at %s (swift build -c release --product bidi-lsp, or --server)" % args.server)
    paths = []
    for folder in args.folders:
        for root, _, names in os.walk(folder):
            paths += [os.path.join(root, n) for n in sorted(names) if format_of(os.path.join(root, n))]
    scratch = args.keep or tempfile.mkdtemp(prefix="try-real-files-")
    daemon = Daemon(args.server)
    per_format, failed = {}, 0
    try:
        for path in sorted(paths):
            relative = os.path.relpath(os.path.abspath(path), "/")

            def copy_for(mode):
                # The copy keeps the original's folders and name: its locale
                # still comes from its path.
                copy = os.path.join(scratch, mode, relative)
                os.makedirs(os.path.dirname(copy), exist_ok=True)
                return copy

            try:
                format_name, problems, notes = try_file(args.server, daemon, path, copy_for)
            except Exception as error:  # a crash, a hang, a closed stream: report it, go on
                format_name, problems, notes = format_of(path), ["%s: %s" % (type(error).__name__, error)], []
                daemon.close() if daemon.client.proc.poll() is None else None
                daemon = Daemon(args.server)
            tried, bad = per_format.get(format_name, (0, 0))
            per_format[format_name] = (tried + 1, bad + (1 if problems else 0))
            failed += 1 if problems else 0
            print("%s: %s [%s: %s]" % (path, "; ".join(problems) if problems else "ok", format_name, "; ".join(notes)))
    finally:
        daemon.close()
        if not args.keep:
            shutil.rmtree(scratch, ignore_errors=True)
    print()
    for format_name in sorted(per_format):
        tried, bad = per_format[format_name]
        print("%-12s %3d files, %3d with a problem" % (format_name, tried, bad))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

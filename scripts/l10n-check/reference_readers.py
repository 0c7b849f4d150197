"""Reference readers for the localization formats, written apart from the
Swift library to check it: each returns the values of a file as
(key, variant, text) triples, in document order, and raises ReadError
where the file is not its format.

Where a format has a parser in Python's standard library it is the one
used (json, plistlib, xml.parsers.expat, and gettext's own msgfmt plus
gettext.GNUTranslations for .po); Apple .strings and Java .properties have
none, so small readers of their own follow the formats' definitions
(CoreFoundation's old-style property lists, java.util.Properties.load).
"""

import gettext
import io
import json
import os
import plistlib
import subprocess
import sys
import tempfile
import xml.parsers.expat


class ReadError(Exception):
    pass


def decode_file(data):
    """Text of a file, by its byte order mark (UTF-16 LE/BE, else UTF-8)."""
    if data.startswith(b"\xff\xfe"):
        return data[2:].decode("utf-16-le")
    if data.startswith(b"\xfe\xff"):
        return data[2:].decode("utf-16-be")
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ReadError("not UTF-8: %s" % error)


# Apple .strings ------------------------------------------------------------

BARE = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$+/:.-")
SIMPLE_ESCAPES = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v"}


def read_strings(data):
    """Old-style property list of strings: "key" = "value"; entries."""
    text = decode_file(data)
    i = 0
    n = len(text)
    values = []

    def skip():
        nonlocal i
        while i < n:
            if text[i] in " \t\r\n\f\v":
                i += 1
            elif text.startswith("//", i):
                end = text.find("\n", i)
                i = n if end < 0 else end + 1
            elif text.startswith("/*", i):
                end = text.find("*/", i + 2)
                if end < 0:
                    raise ReadError("unterminated comment")
                i = end + 2
            else:
                return

    def token():
        nonlocal i
        if i >= n:
            raise ReadError("unexpected end")
        if text[i] == '"':
            i += 1
            out = []
            while True:
                if i >= n:
                    raise ReadError("unterminated string")
                c = text[i]
                if c == '"':
                    i += 1
                    return "".join(out)
                if c != "\\":
                    out.append(c)
                    i += 1
                    continue
                i += 1
                if i >= n:
                    raise ReadError("unterminated string")
                c = text[i]
                if c in SIMPLE_ESCAPES:
                    out.append(SIMPLE_ESCAPES[c])
                    i += 1
                elif c in "01234567":
                    digits = ""
                    while len(digits) < 3 and i < n and text[i] in "01234567":
                        digits += text[i]
                        i += 1
                    out.append(chr(int(digits, 8)))
                elif c in "Uu":
                    digits = text[i + 1 : i + 5]
                    if len(digits) == 4 and all(d in "0123456789abcdefABCDEF" for d in digits):
                        out.append(chr(int(digits, 16)))
                        i += 5
                    else:
                        out.append(c)
                        i += 1
                else:
                    out.append(c)
                    i += 1
        if text[i] in BARE:
            start = i
            while i < n and text[i] in BARE:
                i += 1
            return text[start:i]
        raise ReadError("unexpected %r" % text[i])

    while True:
        skip()
        if i >= n:
            break
        key = token()
        skip()
        if i < n and text[i] == ";":
            i += 1
            continue
        if i >= n or text[i] != "=":
            raise ReadError("expected =")
        i += 1
        skip()
        value = token()
        skip()
        if i >= n or text[i] != ";":
            raise ReadError("expected ;")
        i += 1
        values.append((join_surrogates(key), None, join_surrogates(value)))
    return values


def join_surrogates(text):
    """UTF-16 escapes of one astral character (\\UD83D\\UDE00) as that character."""
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


# Java .properties ------------------------------------------------------------


def read_properties(data):
    """java.util.Properties.load: logical lines, key terminators, escapes."""
    text = decode_file(data)
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    values = []
    index = 0
    while index < len(lines):
        line = lines[index].lstrip(" \t\f")
        index += 1
        if not line or line[0] in "#!":
            continue
        # A line ending in an odd number of backslashes continues.
        while True:
            trailing = len(line) - len(line.rstrip("\\"))
            if trailing % 2 == 0 or index >= len(lines):
                if trailing % 2 == 1:
                    line = line[:-1]
                break
            line = line[:-1] + lines[index].lstrip(" \t\f")
            index += 1
        key, i = properties_text(line, 0, stops="=: \t\f")
        while i < len(line) and line[i] in " \t\f":
            i += 1
        if i < len(line) and line[i] in "=:":
            i += 1
            while i < len(line) and line[i] in " \t\f":
                i += 1
        value, _ = properties_text(line, i, stops="")
        values.append((key, None, value))
    return values


def properties_text(line, i, stops):
    """The decoded text from i up to an unescaped character of stops (or the end)."""
    out = []
    while i < len(line) and line[i] not in stops:
        if line[i] == "\\":
            c, i = properties_escape(line, i)
            out.append(c)
        else:
            out.append(line[i])
            i += 1
    return join_surrogates("".join(out)), i


def properties_escape(line, i):
    c = line[i + 1] if i + 1 < len(line) else ""
    if c == "u":
        digits = line[i + 2 : i + 6]
        if len(digits) != 4 or not all(d in "0123456789abcdefABCDEF" for d in digits):
            raise ReadError("Malformed \\uxxxx encoding")
        return chr(int(digits, 16)), i + 6
    mapped = {"t": "\t", "n": "\n", "r": "\r", "f": "\f"}.get(c, c)
    return mapped, i + 2


# JSON formats ----------------------------------------------------------------


def load_json(data):
    try:
        return json.loads(decode_file(data), object_pairs_hook=list)
    except json.JSONDecodeError as error:
        raise ReadError(str(error))


def read_arb(data):
    document = load_json(data)
    return [(key, None, value) for key, value in document if not key.startswith("@") and isinstance(value, str)]


def read_i18next(data):
    values = []

    def walk(node, path):
        if isinstance(node, str):
            values.append((".".join(path), None, node))
        elif isinstance(node, list) and (not node or isinstance(node[0], tuple)):
            for key, child in node:
                walk(child, path + [key])
        elif isinstance(node, list):
            for position, child in enumerate(node):
                walk(child, path + [str(position)])

    walk(load_json(data), [])
    return values


def read_xcstrings(data):
    document = dict(load_json(data))
    values = []

    def walk(key, node, parts):
        for name, child in node:
            if name == "stringUnit":
                unit = dict(child)
                if "value" in unit:
                    values.append((key, "/".join(parts) or None, unit["value"]))
            elif name == "variations":
                for kind, cases in child:
                    for case, sub in cases:
                        walk(key, sub, parts + ["%s:%s" % (kind, case)])
            elif name == "substitutions":
                for substitution, body in child:
                    for field, variations in body:
                        if field == "variations":
                            for kind, cases in variations:
                                for case, sub in cases:
                                    walk(key, sub, parts + ["substitution:" + substitution, "%s:%s" % (kind, case)])

    for key, entry in document.get("strings", []):
        for field, localizations in entry:
            if field == "localizations":
                for _, localization in localizations:
                    walk(key, localization, [])
    return values


# Property lists ----------------------------------------------------------------

PLURAL_CATEGORIES = {"zero", "one", "two", "few", "many", "other"}
DEVICES = {"iphone", "ipad", "ipod", "mac", "appletv", "applewatch", "watch", "vision"}


def read_stringsdict(data):
    try:
        document = plistlib.loads(data)
    except Exception as error:  # plistlib raises ExpatError, ValueError, InvalidFileException
        raise ReadError(str(error))
    values = []
    for key, entry in document.items():
        if isinstance(entry, str):
            values.append((key, None, entry))
            continue
        for name, rule in entry.items():
            if name == "NSStringLocalizedFormatKey":
                values.append((key, None, rule))
            elif isinstance(rule, dict):
                for case, text in rule.items():
                    if case in ("NSStringFormatSpecTypeKey", "NSStringFormatValueTypeKey") or not isinstance(text, str):
                        continue
                    kind = "plural" if case in PLURAL_CATEGORIES else "device" if case in DEVICES else "rule"
                    values.append((key, "%s:%s" % (kind, case), text))
    return values


# XML formats over expat ----------------------------------------------------------


class XMLEvents:
    """A document as expat reads it: elements with their attributes, the
    source text of each tag (for inline elements kept in values as
    written), character data decoded, CDATA sections marked."""

    def __init__(self, data):
        self.source = data
        self.events = []
        self.open = []  # per open element: whether its tag is self-closing
        parser = xml.parsers.expat.ParserCreate()
        parser.buffer_text = False
        parser.StartElementHandler = self.start
        parser.EndElementHandler = self.end
        parser.CharacterDataHandler = self.characters
        parser.StartCdataSectionHandler = lambda: self.events.append(("cdata", True))
        parser.EndCdataSectionHandler = lambda: self.events.append(("cdata", False))
        self.parser = parser
        try:
            parser.Parse(data, True)
        except xml.parsers.expat.ExpatError as error:
            raise ReadError(str(error))

    def raw_tag(self):
        start = self.parser.CurrentByteIndex
        i = start
        quote = None
        while i < len(self.source):
            c = self.source[i : i + 1]
            if quote:
                if c == quote:
                    quote = None
            elif c in (b'"', b"'"):
                quote = c
            elif c == b">":
                break
            i += 1
        raw = self.source[start : i + 1].decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
        return raw

    def start(self, name, attributes):
        raw = self.raw_tag()
        self.open.append(raw.endswith("/>"))
        self.events.append(("start", name, attributes, raw, self.open[-1]))

    def end(self, name):
        # The end of a self-closing element is its start tag: no text of its own.
        self.events.append(("end", name, "" if self.open.pop() else self.raw_tag()))

    def characters(self, text):
        self.events.append(("text", text))


def local(name):
    return name.split(":")[-1]


def collect(events, index, on_text=None):
    """The content of the element whose start event is at `index`: its
    character data and the source text of its inner tags. Returns the
    content and the index after the element's end event."""
    depth = 0
    parts = []
    i = index + 1
    while i < len(events):
        event = events[i]
        if event[0] == "start":
            depth += 1
            if local(event[1]) == "cp" and "hex" in event[2] and event[4]:
                parts.append(("text", chr(int(event[2]["hex"], 16))))
            else:
                parts.append(("tag", event[3]))
        elif event[0] == "end":
            if depth == 0:
                return parts, i + 1
            depth -= 1
            if event[2]:
                parts.append(("tag", event[2]))
        elif event[0] == "text":
            parts.append(("text", event[1]))
        i += 1
    raise ReadError("unclosed element")


def plain(parts):
    return "".join(text for _, text in parts)


def xcode_stringsdict_variant(unit_id):
    """Xcode's ids for .stringsdict units: /KEY:dict/VAR:dict/one:dict/:string."""
    if not unit_id.endswith(":dict/:string"):
        return None
    parts = [part for part in unit_id[: -len(":dict/:string")].split("/") if part]
    if len(parts) < 3:
        return None
    rule = parts[-1]
    if rule in PLURAL_CATEGORIES:
        return "plural:" + rule
    if rule in DEVICES:
        return "device:" + rule
    return None


def read_xliff(data):
    events = XMLEvents(data).events
    values = []
    units = []
    alternatives = 0  # <alt-trans> elements open: their targets are suggestions
    i = 0
    while i < len(events):
        event = events[i]
        if event[0] == "start":
            name = local(event[1])
            if name in ("trans-unit", "unit"):
                # The resource name (1.2 resname, 2.0 name), else the id.
                resource = event[2].get("name" if name == "unit" else "resname")
                units.append(resource or event[2].get("id") or "")
            if name == "alt-trans":
                alternatives += 1
            if name == "target" and units and not alternatives:
                parts, i = collect(events, i)
                values.append((units[-1], xcode_stringsdict_variant(units[-1]), plain(parts)))
                continue
        elif event[0] == "end" and local(event[1]) in ("trans-unit", "unit") and units:
            units.pop()
        elif event[0] == "end" and local(event[1]) == "alt-trans":
            alternatives -= 1
        i += 1
    return values


def read_resx(data):
    events = XMLEvents(data).events
    values = []
    data_name = None
    i = 0
    while i < len(events):
        event = events[i]
        if event[0] == "start" and event[1] == "data":
            attributes = event[2]
            kind = attributes.get("type")
            is_text = "mimetype" not in attributes and (kind is None or kind.startswith("System.String"))
            data_name = attributes.get("name") if is_text else None
        elif event[0] == "end" and event[1] == "data":
            data_name = None
        elif event[0] == "start" and event[1] == "value" and data_name is not None and not event[4]:
            parts, i = collect(events, i)
            values.append((data_name, None, plain(parts)))
            continue
        i += 1
    return values


def android_text(parts):
    """aapt2's processing of a string resource's XML content (after XML
    decoding): "…" quotes (delimiters; white space inside kept), outside
    them each run of white space one space, none at either end; escapes
    \\n \\t \\uXXXX and a backslash before any other character; inner tags
    kept as written."""
    out = []
    quoted = False
    started = False
    pending_space = False
    escape = None  # None, "\\", or "u" + hex digits so far

    def emit(text):
        nonlocal pending_space, started
        if pending_space and started:
            out.append(" ")
        pending_space = False
        out.append(text)
        started = True

    def finish_escape():
        nonlocal escape
        if escape is not None and escape.startswith("u"):
            digits = escape[1:]
            emit(chr(int(digits, 16)) if digits else "u")
        escape = None

    for kind, text in parts:
        if kind == "tag":
            finish_escape()
            if pending_space and started:
                out.append(" ")
            pending_space = False
            out.append(text)
            continue
        for c in text:
            if escape is not None:
                if escape.startswith("u"):
                    if c in "0123456789abcdefABCDEF":
                        escape += c
                        if len(escape) == 5:
                            value = chr(int(escape[1:], 16))
                            escape = None
                            emit(value)
                        continue
                    finish_escape()
                else:
                    escape = None
                    if c == "u":
                        escape = "u"
                    else:
                        emit({"n": "\n", "t": "\t"}.get(c, c))
                    continue
            if c == "\\":
                escape = "\\"
            elif c == '"':
                quoted = not quoted
            elif c in " \t\n\r" and not quoted:
                pending_space = True
            else:
                emit(c)
    finish_escape()
    return "".join(out)


def read_android(data):
    events = XMLEvents(data).events
    values = []
    containers = []  # (name, kind, count)
    i = 0
    while i < len(events):
        event = events[i]
        if event[0] == "start":
            name = event[1]
            key = variant = None
            if name == "string":
                key = event[2].get("name")
            elif name in ("plurals", "string-array"):
                containers.append([name, event[2].get("name", ""), 0])
            elif name == "item" and containers:
                container = containers[-1]
                key = container[1]
                if container[0] == "plurals":
                    variant = "plural:" + event[2].get("quantity", "")
                else:
                    variant = "item:%d" % container[2]
                    container[2] += 1
            if key is not None:
                parts, i = collect(events, i)
                values.append((key, variant, android_text(parts)))
                continue
        elif event[0] == "end" and event[1] in ("plurals", "string-array") and containers:
            containers.pop()
        i += 1
    return values


# gettext -------------------------------------------------------------------------


def msgfmt_check(path, check=True):
    """gettext's own checks (syntax, header, format strings), and the
    compiled catalog read back by Python's gettext: (key, variant, text)
    with the key "context\\x04msgid" when there is a context, the
    untranslated entries and the header left out (msgfmt drops them).
    Without check, only what msgfmt needs to compile the file is checked."""
    with tempfile.TemporaryDirectory() as folder:
        compiled = os.path.join(folder, "messages.mo")
        options = ["--check"] if check else []
        run = subprocess.run(
            ["msgfmt"] + options + ["--use-fuzzy", "-o", compiled, path], capture_output=True, text=True
        )
        if run.returncode != 0:
            raise ReadError(" ".join(["msgfmt"] + options) + ": " + run.stderr.strip().replace("\n", " | "))
        with open(compiled, "rb") as stream:
            catalog = gettext.GNUTranslations(stream)._catalog
    values = []
    for key, text in catalog.items():
        if isinstance(key, tuple):
            values.append((key[0], "plural:%d" % key[1], text))
        elif key != "":
            values.append((key, None, text))
    return sorted(values)


MSGEXEC_ENTRY = (
    "import json, os, sys; print(json.dumps([os.environ.get('MSGEXEC_MSGCTXT'), os.environ['MSGEXEC_MSGID'],"
    " os.environ.get('MSGEXEC_PLURAL_FORM'), sys.stdin.read()]))"
)


def msgexec_read(path):
    """The entries as gettext's own parser reads them (msgexec), without the
    consistency checks msgfmt applies even without --check (msgid and msgstr
    both ending with a newline...), which other gettext implementations such
    as Babel do not make; the same triples as msgfmt_check."""
    run = subprocess.run(["msgexec", "-i", path, sys.executable, "-c", MSGEXEC_ENTRY], capture_output=True, text=True)
    if run.returncode != 0:
        raise ReadError("msgexec: " + run.stderr.strip().replace("\n", " | "))
    values = []
    for line in run.stdout.splitlines():
        context, msgid, plural, text = json.loads(line)
        if msgid == "" and context is None or text == "":
            continue
        key = msgid if context is None else context + "\x04" + msgid
        values.append((key, None if plural is None else "plural:%s" % plural, text))
    return sorted(values)


READERS = {
    "strings": read_strings,
    "properties": read_properties,
    "arb": read_arb,
    "i18next": read_i18next,
    "xcstrings": read_xcstrings,
    "stringsdict": read_stringsdict,
    "xliff": read_xliff,
    "resx": read_resx,
    "android": read_android,
}


def read(format_name, path):
    if format_name not in READERS:
        from reference_fluent_yaml import READERS as FLUENT_YAML
        from reference_qt_webextension import READERS as QT_WEBEXTENSION

        READERS.update(FLUENT_YAML)
        READERS.update(QT_WEBEXTENSION)
    if format_name == "po":
        return msgfmt_check(path)
    if format_name == "po-lenient":
        return msgexec_read(path)
    with open(path, "rb") as stream:
        data = stream.read()
    return READERS[format_name](data)

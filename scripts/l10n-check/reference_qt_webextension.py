"""Reference readers for Qt Linguist (.ts) and WebExtension messages.json,
over Python's own parsers (xml.parsers.expat, json). Each returns (key,
variant, text) triples in document order and raises ReadError where the file
is not its format.

Qt Linguist: each <translation> of a <message> (not type="obsolete" or
"vanished"), or each <numerusform> (variant plural:N) / <lengthvariant>
(length:N) of one; the key is the message's id, else its source text; a
<byte value="x1b"/> is the character it names. WebExtension: each message's
"message" string, keyed by the message's name.
"""

from reference_readers import XMLEvents, load_json


def qt_content(events, index):
    """The content of the element at `index` (tags as written, <byte/> as its
    character) and the index after its end."""
    depth = 0
    text = []
    i = index + 1
    while i < len(events):
        event = events[i]
        if event[0] == "start":
            depth += 1
            if event[1] == "byte" and event[4]:
                value = event[2].get("value", "")
                text.append(chr(int(value[1:], 16) if value.startswith("x") else int(value)))
            else:
                text.append(event[3])
        elif event[0] == "end":
            if depth == 0:
                return "".join(text), i + 1
            depth -= 1
            if event[2] and event[1] != "byte":
                text.append(event[2])
        elif event[0] == "text":
            text.append(event[1])
        i += 1
    return "".join(text), i


def read_qt(data):
    events = XMLEvents(data).events
    values = []
    message = None  # (id, numerus)
    source = ""
    forms = None  # the index of the next form while a translation holds forms
    i = 0
    while i < len(events):
        event = events[i]
        if event[0] == "start":
            name, attributes = event[1], event[2]
            if name == "message":
                message = (attributes.get("id", ""), attributes.get("numerus") == "yes")
                source = ""
            elif name == "source" and message and forms is None:
                source, i = qt_content(events, i)
                continue
            elif name == "translation" and message and attributes.get("type") not in ("obsolete", "vanished"):
                if message[1] or attributes.get("variants") == "yes":
                    forms = 0
                else:
                    text, i = qt_content(events, i)
                    values.append((message[0] or source, None, text))
                    continue
            elif name in ("numerusform", "lengthvariant") and forms is not None:
                text, i = qt_content(events, i)
                kind = "plural" if name == "numerusform" else "length"
                values.append((message[0] or source, "%s:%d" % (kind, forms), text))
                forms += 1
                continue
        elif event[0] == "end" and event[1] == "translation":
            forms = None
        elif event[0] == "end" and event[1] == "message":
            message = None
        i += 1
    return values


def read_webextension(data):
    values = []
    for name, message in load_json(data):
        if isinstance(message, list):
            for field, text in message:
                if field == "message" and isinstance(text, str):
                    values.append((name, None, text))
    return values


READERS = {"qt": read_qt, "webextension": read_webextension}

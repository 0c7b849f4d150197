#!/usr/bin/env python3
"""Checks localization files with independent parsers (see reference_readers).

Usage: l10n_check.py JOBS — JOBS holds one job a line, tab-separated:

  read     ID FORMAT PATH           print the file's values:
                                    "value ID KEY VARIANT TEXT" lines, then "read ID COUNT"
                                    (or "error ID MESSAGE" when the file is not its format)
  compare  ID FORMAT ORIGINAL EDITED  read both; print "same ID COUNT" when they hold the same
                                    keys in the same order and values equal once every bidi
                                    control is removed, else "differ ID MESSAGE"

Texts are written with \\\\ \\n \\r \\t and \\u{X} for other controls, format characters
and separators; a missing variant is "-". For .po files the reading is msgfmt --check
and the compiled catalog, so the keys are "context\\x04msgid", in sorted order.
"""

import sys
import unicodedata

sys.path.insert(0, __import__("os").path.dirname(__file__))
from reference_readers import ReadError, read  # noqa: E402

BIDI_CONTROLS = {0x061C, 0x200E, 0x200F} | set(range(0x202A, 0x202F)) | set(range(0x2066, 0x206A))


def escape(text):
    out = []
    for c in text:
        if c == "\\":
            out.append("\\\\")
        elif c == "\n":
            out.append("\\n")
        elif c == "\r":
            out.append("\\r")
        elif c == "\t":
            out.append("\\t")
        elif unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp", "Cs", "Cn", "Co"):
            out.append("\\u{%X}" % ord(c))
        else:
            out.append(c)
    return "".join(out)


def without_controls(text):
    return "".join(c for c in text if ord(c) not in BIDI_CONTROLS)


def main():
    with open(sys.argv[1], encoding="utf-8") as jobs:
        lines = [line.rstrip("\n").split("\t") for line in jobs if line.strip()]
    out = sys.stdout
    for job in lines:
        command, identifier, format_name = job[0], job[1], job[2]
        try:
            if command == "read":
                values = read(format_name, job[3])
                for key, variant, text in values:
                    out.write("value\t%s\t%s\t%s\t%s\n" % (identifier, escape(key), variant or "-", escape(text)))
                out.write("read\t%s\t%d\n" % (identifier, len(values)))
            elif command == "compare":
                original = read(format_name, job[3])
                try:
                    edited = read(format_name, job[4])
                except ReadError as error:
                    out.write("differ\t%s\tthe edited file does not parse: %s\n" % (identifier, escape(str(error))))
                    continue
                problem = None
                if [(k, v) for k, v, _ in original] != [(k, v) for k, v, _ in edited]:
                    problem = "keys differ: %d before, %d after" % (len(original), len(edited))
                else:
                    for (key, variant, before), (_, _, after) in zip(original, edited):
                        if without_controls(before) != without_controls(after):
                            problem = "value %s %s: %s became %s" % (
                                escape(key), variant or "-", escape(before), escape(after))
                            break
                if problem:
                    out.write("differ\t%s\t%s\n" % (identifier, problem))
                else:
                    out.write("same\t%s\t%d\n" % (identifier, len(original)))
        except ReadError as error:
            out.write("error\t%s\t%s\n" % (identifier, escape(str(error))))


if __name__ == "__main__":
    main()

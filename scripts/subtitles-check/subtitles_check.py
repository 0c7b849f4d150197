#!/usr/bin/env python3
"""Reads subtitle files with readers that are not bidi-lsp's, for its tests
(Tests/SubtitlesTests/IndependentReaderTests.swift):

- SubRip with PyPI's `srt` (strict: `srt.parse` raises on text it cannot
  place), its tags and SSA override blocks removed by ffmpeg's rule
  (libavcodec/htmlsubtitles.c, as `strip_subrip_markup` below writes it:
  the `srt` library keeps tags in the text);
- WebVTT with PyPI's `webvtt-py`, its tags removed by the library
  (`Caption.text`, line by line), its character references decoded by
  Python's `html.unescape` (HTML's algorithm, which the WebVTT cue text
  parser uses; webvtt-py keeps them as written).

Usage: subtitles_check.py JOBS. Each line of JOBS is a tab-separated job:
  read ID FORMAT PATH              -> `cue ID INDEX START END VOICE` and
                                      `line ID CUE TEXT` lines, or `error ID MESSAGE`
  compare ID FORMAT ORIGINAL EDITED -> `same ID` when EDITED reads as ORIGINAL
                                      with U+200F before each cue line's text
                                      (same cues, timings and voices), else `differ ID WHY`
  controls ID FORMAT ORIGINAL EDITED -> `same ID N` when EDITED reads as ORIGINAL apart from
                                      the bidi controls inserted (same cues, timings, voices
                                      and text once controls are removed; N lines differ as
                                      written), else `differ ID WHY`
  moved ID FORMAT ORIGINAL EDITED  -> `same ID N M` as `controls`, a line also read the same
                                      when its runs of punctuation and spaces at both ends
                                      (Bidi_Class ON, CS, WS, ES, ET) went to the other end,
                                      reversed, brackets mirrored (M such lines: the fix of a
                                      line written for left-to-right players), else `differ ID WHY`
  unescape ID PATH                 -> `unescaped ID TEXT` for each line of PATH (escaped)
  entities ID                      -> `entity ID NAME HEX[+HEX] LEGACY` per named reference
Texts are escaped: backslash, tab, newline and carriage return as \\\\ \\t \\n \\r.
"""
import html
import html.entities
import sys
import unicodedata

import srt
import webvtt


BIDI_CONTROLS = dict.fromkeys(map(ord, "\u200e\u200f\u061c\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"))


def escape(text):
    return text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")


def unescape_field(text):
    out, i = [], 0
    while i < len(text):
        if text[i] == "\\" and i + 1 < len(text):
            out.append({"\\": "\\", "t": "\t", "n": "\n", "r": "\r"}[text[i + 1]])
            i += 2
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def _likely_tag_char(c):
    return c.isascii() and (c.isalnum() or c in "_/")


def strip_subrip_markup(line):
    """A SubRip line as ffmpeg shows it, without its markup: known tags
    (b, i, s, u, font, br) and any tag whose name is letters, digits, `_`
    and `/` are removed, `<<` and `< x>`-like text kept; `{\\...}` blocks removed."""
    out, i, n = [], 0, len(line)
    while i < n:
        c = line[i]
        if c == "{" and i + 1 < n and line[i + 1] == "\\":
            end = line.find("}", i + 2)
            if end >= 0:
                i = end + 1
                continue
        if c == "<" and i + 1 < n and line[i + 1] != "<":
            closing = line[i + 1] == "/"
            likely = closing or i == 0 or line[i - 1] != "<"
            start = i + 1 + (1 if closing else 0)
            j = start
            while j < n and j - start < 127 and line[j] not in "<>":
                j += 1
            if j < n and line[j] == ">" and j > start:
                content = line[start:j]
                stripped = content.lstrip(" ")
                if stripped != content:
                    likely = False
                name = stripped.split(" ", 1)[0]
                if not all(_likely_tag_char(ch) for ch in name):
                    likely = False
                lower = name.lower()
                if lower in ("font", "b", "i", "s", "u", "br", "br/") or likely:
                    i = j + 1
                    continue
        out.append(c)
        i += 1
    return "".join(out)


def read_srt(path):
    with open(path, encoding="utf-8-sig", newline="") as handle:
        text = handle.read()
    cues = []
    for index, sub in enumerate(srt.parse(text), start=1):
        lines = [strip_subrip_markup(line) for line in sub.content.split("\n") if line != ""]
        start = int(sub.start.total_seconds() * 1000 + 0.5)
        end = int(sub.end.total_seconds() * 1000 + 0.5)
        cues.append((index, start, end, "-", lines))
    return cues


def read_vtt(path):
    cues = []
    for index, caption in enumerate(webvtt.read(path).captions, start=1):
        lines = [html.unescape(line) for line in caption.text.split("\n")] if caption.lines else []
        start = caption.start_time.in_milliseconds()
        end = caption.end_time.in_milliseconds()
        cues.append((index, start, end, caption.voice or "-", lines))
    return cues


def read(fmt, path):
    return read_srt(path) if fmt == "srt" else read_vtt(path)


MIRRORED = str.maketrans("()[]{}\u00ab\u00bb", ")(][}{\u00bb\u00ab")


def punctuation_moved(line):
    """LINE with its leading and trailing runs of punctuation and spaces
    swapped, each reversed and its brackets mirrored."""
    def neutral(c):
        return unicodedata.bidirectional(c) in ("ON", "CS", "WS", "ES", "ET")
    start = 0
    while start < len(line) and neutral(line[start]):
        start += 1
    end = len(line)
    while end > start and neutral(line[end - 1]):
        end -= 1
    lead, core, trail = line[:start], line[start:end], line[end:]
    return trail[::-1].translate(MIRRORED) + core + lead[::-1].translate(MIRRORED)


def differences(original, edited, marked, moved=None):
    """Why EDITED does not read as ORIGINAL (same cues, timings, voices; each
    line with U+200F before it when MARKED, else the same once bidi controls
    are removed), or None; and how many lines differ as written."""
    if len(original) != len(edited):
        return f"{len(edited)} cues, {len(original)} before", 0
    changed = 0
    for a, b in zip(original, edited):
        if a[:4] != b[:4]:
            return f"cue {a[0]}: {b[:4]} was {a[:4]}", 0
        if marked:
            same = [("\u200f" + line) for line in a[4]] == b[4]
        elif moved is None:
            same = [l.translate(BIDI_CONTROLS) for l in a[4]] == [l.translate(BIDI_CONTROLS) for l in b[4]]
        else:
            same = len(a[4]) == len(b[4])
            for x, y in zip(a[4], b[4]):
                x, y = x.translate(BIDI_CONTROLS), y.translate(BIDI_CONTROLS)
                if x != y:
                    same = same and punctuation_moved(x) == y
                    moved[0] += 1
        if not same:
            return f"cue {a[0]}: {escape(repr(b[4]))} was {escape(repr(a[4]))}", 0
        changed += sum(x != y for x, y in zip(a[4], b[4]))
    return None, changed


def main():
    out = []
    for raw in open(sys.argv[1], encoding="utf-8"):
        fields = raw.rstrip("\n").split("\t")
        kind, ident = fields[0], fields[1]
        try:
            if kind == "read":
                for index, start, end, voice, lines in read(fields[2], fields[3]):
                    out.append(f"cue\t{ident}\t{index}\t{start}\t{end}\t{escape(voice)}")
                    out.extend(f"line\t{ident}\t{index}\t{escape(line)}" for line in lines)
            elif kind in ("compare", "controls"):
                marked = kind == "compare"
                why, changed = differences(read(fields[2], fields[3]), read(fields[2], fields[4]), marked)
                if why:
                    out.append(f"differ\t{ident}\t{why}")
                else:
                    out.append(f"same\t{ident}" if marked else f"same\t{ident}\t{changed}")
            elif kind == "moved":
                count = [0]
                why, changed = differences(read(fields[2], fields[3]), read(fields[2], fields[4]), False, count)
                out.append(f"differ\t{ident}\t{why}" if why else f"same\t{ident}\t{changed}\t{count[0]}")
            elif kind == "unescape":
                for line in open(fields[2], encoding="utf-8").read().split("\n"):
                    if line:
                        out.append(f"unescaped\t{ident}\t{escape(html.unescape(unescape_field(line)))}")
            elif kind == "entities":
                table = html.entities.html5
                for key in sorted(table):
                    if key.endswith(";"):
                        points = "+".join("%X" % ord(c) for c in table[key])
                        out.append(f"entity\t{ident}\t{key[:-1]}\t{points}\t{int(key[:-1] in table)}")
        except Exception as error:  # a reader rejecting a file is an answer, not a crash
            out.append(f"error\t{ident}\t{escape(type(error).__name__ + ': ' + str(error))}")
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Generate the Arabic joining tables of the CArabicShapingData target.

Reads, from a Unicode Character Database directory (the argument, else
$BIDI_UCD_DIR, else ../shared/ucd/17.0.0 relative to the package root):

  ArabicShaping.txt  Joining_Type and Joining_Group of the listed characters
  UnicodeData.txt    General_Category (unlisted Mn, Me and Cf are
                     Joining_Type T, every other unlisted character U), and
                     the <isolated> <final> <initial> <medial> decompositions
                     that name the Arabic Presentation Forms-A and -B

and writes Sources/CArabicShapingData/arabic_shaping_tables.c and
Sources/CArabicShapingData/include/CArabicShapingData.h.

Where the directory has no ArabicShaping.txt of Unicode 17.0.0 (CI machines
have the other 17.0.0 files but not this one), the 15.0.0 file of Debian's
unicode-data (/usr/share/unicode, or --fallback DIR) is read instead, with
the lines 17.0.0 changed or added taken from scripts/arabic-shaping-15-to-17.txt
(made by --write-delta where both files exist; --check-delta verifies it).
Which file was read is printed on standard error. UnicodeData.txt must be
17.0.0's either way.

Usage:
  generate-arabic-shaping-tables.py [UCD_DIR]                 write both files
  generate-arabic-shaping-tables.py [UCD_DIR] --stdout NAME   print one file
  generate-arabic-shaping-tables.py [UCD_DIR] --check         exit 1 if stale
  generate-arabic-shaping-tables.py [UCD_DIR] --write-delta   rewrite the delta
  generate-arabic-shaping-tables.py [UCD_DIR] --check-delta   exit 1 unless the
                                      15.0.0 file and the delta give 17.0.0's
  any of them with --fallback DIR (default /usr/share/unicode)

Table layout: every code point has one property byte,

  bits 0-2  Joining_Type: 0 U, 1 R, 2 L, 3 D, 4 C, 5 T
  bit  3    the character has presentation forms (asd_forms)
  bit  4    the first letter of a lam-alef ligature (Joining_Group Lam)
  bit  5    the second letter of one (Joining_Group Alef)
  bit  6    joins on its right side (R, D, C)
  bit  7    joins on its left side (L, D, C)

in two stages as in generate-unicode-tables.py (U+0000..U+07FF are the first
blocks, read without the index), the index of bytes. The presentation forms of the characters
that have them (all in U+0621..U+06FF, checked) are a table of four
UTF-16 units per character of U+0600..U+06FF (isolated, final, initial,
medial; 0 where there is none), and the lam-alef ligatures a short list
(alef, isolated ligature, final ligature).

Only characters of Joining_Type R, L or D take forms: HAMZA (U) has an
isolated form in the block, which a shaper leaves alone (as FriBidi does).

Standard library only.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ucd_tables import (  # noqa: E402
    CODE_SPACE, DataError, data_lines, hex_rows, package_root, two_stages,
    ucd_directory, unicode_data_ranges, write_outputs,
)

UNICODE_VERSION = "17.0.0"
FALLBACK_VERSION = "15.0.0"
SHIFT = 7
DIRECT_BLOCKS = 0x800 >> SHIFT
JOINING_TYPES = ["U", "R", "L", "D", "C", "T"]
HAS_FORMS = 0x08
LAM_BIT = 0x10
ALEF_BIT = 0x20
# Bit 6: joins on its right side (R, D, C); bit 7: on its left (L, D, C).
RIGHT_BIT = 0x40
LEFT_BIT = 0x80
FORMS_BASE = 0x0600
FORM_TAGS = ["isolated", "final", "initial", "medial"]
SCRIPT = "scripts/generate-arabic-shaping-tables.py"
DELTA = "scripts/arabic-shaping-15-to-17.txt"
OUTPUTS = {
    "arabic_shaping_tables.c": "Sources/CArabicShapingData/arabic_shaping_tables.c",
    "CArabicShapingData.h": "Sources/CArabicShapingData/include/CArabicShapingData.h",
}


def file_version(path):
    """The version in the first line of a UCD file (# Name-17.0.0.txt), or None."""
    try:
        with open(path, encoding="utf-8") as handle:
            first = handle.readline()
    except OSError:
        return None
    name = first.strip().lstrip("# ")
    if not name.startswith("ArabicShaping-") or not name.endswith(".txt"):
        return None
    return name[len("ArabicShaping-"):-len(".txt")]


def read_entries(path):
    """The data lines of an ArabicShaping.txt: {code point: (name, type, group)}."""
    entries = {}
    for fields, number in data_lines(path):
        if len(fields) != 4 or fields[2] not in JOINING_TYPES:
            raise DataError(f"{path}:{number}: expected code; name; joining type; group")
        entries[int(fields[0], 16)] = (fields[1], fields[2], fields[3])
    return entries


def render_entries(entries):
    return "".join(f"{code:04X}; {name}; {kind}; {group}\n" for code, (name, kind, group) in sorted(entries.items()))


def delta_lines(old, new):
    """The entries of `new` that `old` lacks or has otherwise (none removed)."""
    removed = set(old) - set(new)
    if removed:
        raise DataError("entries removed since " + FALLBACK_VERSION + ": " + ", ".join(f"U+{c:04X}" for c in removed))
    return {code: entry for code, entry in new.items() if old.get(code) != entry}


def delta_header():
    return (
        f"# The lines of ArabicShaping-{UNICODE_VERSION}.txt that ArabicShaping-{FALLBACK_VERSION}.txt\n"
        "# lacks or has otherwise (code; schematic name; Joining_Type; Joining_Group).\n"
        f"# Written by {SCRIPT} --write-delta; read where only the\n"
        f"# {FALLBACK_VERSION} file is at hand (Debian 12's unicode-data, on CI machines).\n"
    )


def joining_entries(ucd, fallback):
    """The 17.0.0 entries and a description of where they were read."""
    path = os.path.join(ucd, "ArabicShaping.txt")
    if file_version(path) == UNICODE_VERSION:
        return read_entries(path), f"{path} ({UNICODE_VERSION})"
    old = os.path.join(fallback, "ArabicShaping.txt")
    if file_version(old) != FALLBACK_VERSION:
        raise DataError(f"no ArabicShaping.txt of {UNICODE_VERSION} in {ucd} nor of {FALLBACK_VERSION} in {fallback}")
    entries = read_entries(old)
    delta = os.path.join(package_root(), DELTA)
    entries.update(read_entries(delta))
    return entries, f"{old} ({FALLBACK_VERSION}) and {DELTA}"


def read_unicode_data(ucd):
    """General_Category of every code point (None when unassigned), and the
    single-letter and two-letter positional decompositions:
    {(tag, (letters...)): presentation form}."""
    categories = [None] * CODE_SPACE
    positional = {}
    for start, code, fields in unicode_data_ranges(os.path.join(ucd, "UnicodeData.txt")):
        categories[start:code + 1] = [fields[2]] * (code + 1 - start)
        decomposition = fields[5]
        if decomposition.startswith("<"):
            tag, _, letters = decomposition[1:].partition("> ")
            if tag in FORM_TAGS:
                key = (tag, tuple(int(letter, 16) for letter in letters.split()))
                if key in positional and len(key[1]) == 1:
                    raise DataError(f"two presentation forms <{tag}> {letters}")
                # Of two ligatures of the same letters (there are some,
                # never lam-alef), the first.
                positional.setdefault(key, code)
    return categories, positional


def build_tables(ucd, fallback):
    entries, source = joining_entries(ucd, fallback)
    categories, positional = read_unicode_data(ucd)
    props = bytearray(CODE_SPACE)
    for code in range(CODE_SPACE):
        if code in entries:
            props[code] = JOINING_TYPES.index(entries[code][1])
        elif categories[code] in ("Mn", "Me", "Cf"):
            props[code] = JOINING_TYPES.index("T")
        kind = JOINING_TYPES[props[code]]
        props[code] |= (RIGHT_BIT if kind in "RDC" else 0) | (LEFT_BIT if kind in "LDC" else 0)

    forms = [0] * (0x100 * 4)
    for (tag, letters), form in positional.items():
        if len(letters) != 1:
            continue
        base = letters[0]
        kind = JOINING_TYPES[props[base] & 7]
        if kind == "U":
            continue  # HAMZA's isolated form: a non-joining letter keeps its code point.
        if not FORMS_BASE <= base < FORMS_BASE + 0x100:
            raise DataError(f"U+{base:04X} has presentation forms outside U+0600..U+06FF")
        if kind not in ("R", "L", "D") or (kind == "R" and tag in ("initial", "medial")):
            raise DataError(f"<{tag}> form of U+{base:04X}, Joining_Type {kind}")
        forms[(base - FORMS_BASE) * 4 + FORM_TAGS.index(tag)] = form
        props[base] |= HAS_FORMS

    # The lam-alef ligatures: a letter of Joining_Group Lam and one of
    # Alef with an isolated and a final ligature form.
    ligatures = []
    for (tag, letters), form in sorted(positional.items(), key=lambda item: item[1]):
        if len(letters) != 2 or tag != "isolated":
            continue
        lam, alef = letters
        groups = (entries.get(lam, ("", "", ""))[2], entries.get(alef, ("", "", ""))[2])
        if groups != ("LAM", "ALEF"):
            continue
        final = positional.get(("final", letters))
        if final is None or lam != 0x0644:
            raise DataError(f"lam-alef ligature U+{form:04X} without a final form, or not of U+0644")
        props[lam] |= LAM_BIT
        props[alef] |= ALEF_BIT
        ligatures.append((alef, form, final))
    if len(ligatures) != 4:
        raise DataError(f"expected the 4 lam-alef ligatures, found {len(ligatures)}")

    index, blocks = two_stages(props, SHIFT, DIRECT_BLOCKS)
    if len(blocks) > 0x100:
        raise DataError("table layout: more than 256 blocks, the index is of bytes")
    counts = {kind: sum(1 for p in props if JOINING_TYPES[p & 7] == kind) for kind in JOINING_TYPES}
    return (index, blocks, forms, ligatures, counts), source


def header_comment():
    return (
        f"// Generated by {SCRIPT}, do not edit; Unicode {UNICODE_VERSION}.\n"
        "// Sources: ArabicShaping.txt, UnicodeData.txt of the Unicode Character Database.\n"
    )


def render_source(tables):
    index, blocks, forms, ligatures, _ = tables
    flat = b"".join(blocks)
    return "".join([
        header_comment(),
        '\n#include "CArabicShapingData.h"\n\n',
        f"const uint8_t asd_index[{len(index)}] = {{\n",
        hex_rows(index, 2, 16), "\n};\n\n",
        f"const uint8_t asd_blocks[{len(flat)}] = {{\n",
        hex_rows(list(flat), 2, 16), "\n};\n\n",
        f"const uint16_t asd_forms[{len(forms)}] = {{\n",
        hex_rows(forms, 4, 8), "\n};\n\n",
        f"const uint16_t asd_ligatures[{3 * len(ligatures)}] = {{\n",
        hex_rows([v for ligature in ligatures for v in ligature], 4, 9), "\n};\n\n",
        f"const uint32_t asd_utf8_forms[{len(forms)}] = {{\n",
        hex_rows(utf8_forms(forms), 8, 8), "\n};\n",
    ])


def utf8_forms(forms):
    """asd_forms as UTF-8 to store at once: each form's three bytes (or, where
    there is no form, the two of the letter itself) in the low bytes, in
    order, and their count in the high byte."""
    words = []
    for i, form in enumerate(forms):
        encoded = chr(form or FORMS_BASE + i // 4).encode("utf-8")
        words.append(int.from_bytes(encoded, "little") | len(encoded) << 24)
    return words


def render_header(tables):
    index, blocks, forms, ligatures, counts = tables
    mask = (1 << SHIFT) - 1
    direct = DIRECT_BLOCKS << SHIFT
    census = ", ".join(f"{kind} {counts[kind]}" for kind in JOINING_TYPES)
    return header_comment() + f"""
#ifndef CARABICSHAPINGDATA_H
#define CARABICSHAPINGDATA_H

#include <stdint.h>

/// The Unicode version of the tables.
#define ASD_UNICODE_VERSION "{UNICODE_VERSION}"

/// Property byte: bits 0-2 Joining_Type, bit 3 presentation forms, bit 4
/// the lam of a lam-alef ligature, bit 5 its alef, bit 6 joins on its
/// right side (R, D, C), bit 7 on its left (L, D, C).
/// Code points of each Joining_Type: {census}.
#define ASD_TYPE_MASK 0x07
#define ASD_U 0
#define ASD_R 1
#define ASD_L 2
#define ASD_D 3
#define ASD_C 4
#define ASD_T 5
#define ASD_HAS_FORMS 0x{HAS_FORMS:02X}
#define ASD_LAM 0x{LAM_BIT:02X}
#define ASD_ALEF 0x{ALEF_BIT:02X}
#define ASD_JOINS_RIGHT 0x{RIGHT_BIT:02X}
#define ASD_JOINS_LEFT 0x{LEFT_BIT:02X}
#define ASD_SHIFT {SHIFT}
#define ASD_LIGATURE_COUNT {len(ligatures)}
/// Code points below this one index asd_blocks directly.
#define ASD_DIRECT_LIMIT 0x{direct:X}
/// The first code point of asd_forms, four entries per code point.
#define ASD_FORMS_BASE 0x{FORMS_BASE:04X}

/// The forms, in the order of asd_forms.
#define ASD_ISOLATED 0
#define ASD_FINAL 1
#define ASD_INITIAL 2
#define ASD_MEDIAL 3

extern const uint8_t asd_index[{len(index)}];
extern const uint8_t asd_blocks[{len(blocks) << SHIFT}];
extern const uint16_t asd_forms[{len(forms)}];
extern const uint16_t asd_ligatures[{3 * len(ligatures)}];
extern const uint32_t asd_utf8_forms[{len(forms)}];

/// The property byte of a code point; values past U+10FFFF read as U.
static inline uint8_t asd_properties(uint32_t cp) {{
  if (cp < ASD_DIRECT_LIMIT) return asd_blocks[cp];
  if (cp > 0x10FFFF) return ASD_U;
  return asd_blocks[((uint32_t)asd_index[cp >> {SHIFT}] << {SHIFT}) | (cp & 0x{mask:X})];
}}

/// The presentation form `form` (ASD_ISOLATED...) of `cp`, a character whose
/// property byte has ASD_HAS_FORMS; 0 when the block has no such form.
static inline uint16_t asd_form(uint32_t cp, uint32_t form) {{
  return asd_forms[((cp - ASD_FORMS_BASE) << 2) | form];
}}

/// The UTF-8 of asd_form(cp, form), or of `cp` itself where that is 0: its
/// bytes in order from the low byte, their count in the high byte, for one
/// store of four bytes.
static inline uint32_t asd_utf8_form(uint32_t cp, uint32_t form) {{
  return asd_utf8_forms[((cp - ASD_FORMS_BASE) << 2) | form];
}}

/// The lam-alef ligature of `alef` (whose property byte has ASD_ALEF),
/// isolated or final; 0 if there is none.
static inline uint16_t asd_lam_alef(uint32_t alef, int final) {{
  for (int i = 0; i < ASD_LIGATURE_COUNT; i++) {{
    if (asd_ligatures[3 * i] == alef) return asd_ligatures[3 * i + 1 + (final ? 1 : 0)];
  }}
  return 0;
}}

#endif
"""


def delta_command(ucd, fallback, write):
    new_path = os.path.join(ucd, "ArabicShaping.txt")
    old_path = os.path.join(fallback, "ArabicShaping.txt")
    if file_version(new_path) != UNICODE_VERSION or file_version(old_path) != FALLBACK_VERSION:
        print(f"--write-delta and --check-delta need ArabicShaping.txt {UNICODE_VERSION} in {ucd} "
              f"and {FALLBACK_VERSION} in {fallback}", file=sys.stderr)
        return 2
    text = delta_header() + render_entries(delta_lines(read_entries(old_path), read_entries(new_path)))
    path = os.path.join(package_root(), DELTA)
    if write:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
        return 0
    try:
        with open(path, encoding="utf-8") as handle:
            if handle.read() == text:
                return 0
    except OSError:
        pass
    print(f"{DELTA} is out of date: rerun {SCRIPT} --write-delta", file=sys.stderr)
    return 1


def main(argv):
    args = list(argv[1:])
    stdout_name = None
    fallback = "/usr/share/unicode"
    flags = set()
    for option in ("--stdout", "--fallback"):
        if option in args:
            at = args.index(option)
            if at + 1 >= len(args):
                print(f"{option} needs a value", file=sys.stderr)
                return 2
            if option == "--stdout":
                stdout_name = args[at + 1]
                if stdout_name not in OUTPUTS:
                    print(f"--stdout needs one of: {', '.join(OUTPUTS)}", file=sys.stderr)
                    return 2
            else:
                fallback = args[at + 1]
            del args[at:at + 2]
    for flag in ("--check", "--write-delta", "--check-delta"):
        if flag in args:
            flags.add(flag)
            args.remove(flag)
    if len(args) > 1 or any(a.startswith("-") for a in args):
        print(__doc__, file=sys.stderr)
        return 2
    ucd = ucd_directory(args, UNICODE_VERSION)
    try:
        if "--write-delta" in flags or "--check-delta" in flags:
            return delta_command(ucd, fallback, "--write-delta" in flags)
        tables, source = build_tables(ucd, fallback)
    except (OSError, DataError) as error:
        print(f"cannot read the UCD in {ucd}: {error}", file=sys.stderr)
        return 2
    print(f"{SCRIPT}: ArabicShaping.txt read from {source}", file=sys.stderr)
    texts = {"arabic_shaping_tables.c": render_source(tables), "CArabicShapingData.h": render_header(tables)}
    if stdout_name:
        sys.stdout.write(texts[stdout_name])
        return 0
    return write_outputs(OUTPUTS, texts, "--check" in flags, SCRIPT)

if __name__ == "__main__":
    sys.exit(main(sys.argv))

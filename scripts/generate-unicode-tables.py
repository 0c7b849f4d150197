#!/usr/bin/env python3
"""Generate the Unicode bidi property tables of the CUnicodeBidiData target.

Reads, from a Unicode Character Database directory (the argument, else
$BIDI_UCD_DIR, else ../shared/ucd/17.0.0 relative to the package root):

  DerivedBidiClass.txt   Bidi_Class, with its @missing default ranges
  BidiBrackets.txt       Bidi_Paired_Bracket, Bidi_Paired_Bracket_Type
  BidiMirroring.txt      Bidi_Mirroring_Glyph
  UnicodeData.txt        canonical singleton decompositions of brackets
                         (U+2329/U+232A are canonically U+3008/U+3009), and
                         General_Category (the combining marks of rule L3)

and writes Sources/CUnicodeBidiData/bidi_tables.c and
Sources/CUnicodeBidiData/include/CUnicodeBidiData.h.

Usage:
  generate-unicode-tables.py [UCD_DIR]                 write both files
  generate-unicode-tables.py [UCD_DIR] --stdout NAME   print one file (NAME is
                                                       bidi_tables.c or
                                                       CUnicodeBidiData.h)
  generate-unicode-tables.py [UCD_DIR] --check         exit 1 if a committed
                                                       file is stale

Table layout (two stages): every code point has one property byte,

  bits 0-4  Bidi_Class (the order of BIDI_CLASSES below)
  bits 5-6  Bidi_Paired_Bracket_Type (0 none, 1 open, 2 close)
  bit  7    set when the code point has a Bidi_Mirroring_Glyph

found at ubd_blocks[ubd_index[cp >> SHIFT] << SHIFT | (cp & MASK)]. The
first DIRECT_BLOCKS blocks hold U+0000..U+07FF in order, so a code point of
one or two bytes of UTF-8 (ASCII, Hebrew, Arabic, Syriac, Thaana, N'Ko...)
is ubd_blocks[cp], without the index.
Combining marks (General_Category Mn, Mc, Me; rule L3): every character of
Bidi_Class NSM is one (checked here), so only the marks of another class
(all of class L, checked here too) are listed, as sorted ranges.
Brackets and mirroring glyphs are short sorted lists searched by bisection,
only for code points whose property byte says they are there.

Standard library only.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ucd_tables import (  # noqa: E402
    CODE_SPACE, DataError, code_range, data_lines, hex_rows, two_stages,
    ucd_directory, unicode_data_ranges, write_outputs,
)

UNICODE_VERSION = "17.0.0"
SHIFT = 7
# Blocks stored in order at the start of ubd_blocks: U+0000..U+07FF.
DIRECT_BLOCKS = 0x800 >> SHIFT

# Short names, in the order of the Swift BidiClass enum's raw values.
BIDI_CLASSES = [
    "L", "R", "AL", "EN", "ES", "ET", "AN", "CS", "NSM", "BN", "B", "S", "WS",
    "ON", "LRE", "LRO", "RLE", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI",
]
LONG_NAMES = {
    "Left_To_Right": "L", "Right_To_Left": "R", "Arabic_Letter": "AL",
    "European_Number": "EN", "European_Separator": "ES",
    "European_Terminator": "ET", "Arabic_Number": "AN",
    "Common_Separator": "CS", "Nonspacing_Mark": "NSM",
    "Boundary_Neutral": "BN", "Paragraph_Separator": "B",
    "Segment_Separator": "S", "White_Space": "WS", "Other_Neutral": "ON",
    "Left_To_Right_Embedding": "LRE", "Left_To_Right_Override": "LRO",
    "Right_To_Left_Embedding": "RLE", "Right_To_Left_Override": "RLO",
    "Pop_Directional_Format": "PDF", "Left_To_Right_Isolate": "LRI",
    "Right_To_Left_Isolate": "RLI", "First_Strong_Isolate": "FSI",
    "Pop_Directional_Isolate": "PDI",
}
SCRIPT = "scripts/generate-unicode-tables.py"
OUTPUTS = {
    "bidi_tables.c": "Sources/CUnicodeBidiData/bidi_tables.c",
    "CUnicodeBidiData.h": "Sources/CUnicodeBidiData/include/CUnicodeBidiData.h",
}


def read_bidi_classes(ucd):
    path = os.path.join(ucd, "DerivedBidiClass.txt")
    classes = [None] * CODE_SPACE
    # The @missing lines give the defaults of unassigned code points; later
    # lines refine earlier ones, and the data lines override them all.
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.startswith("# @missing:"):
                continue
            fields = [f.strip() for f in line[len("# @missing:"):].split(";")]
            name = LONG_NAMES.get(fields[1], fields[1])
            if name not in BIDI_CLASSES:
                raise DataError(f"{path}:{number}: unknown class {fields[1]}")
            first, last = code_range(fields[0])
            classes[first:last + 1] = [name] * (last - first + 1)
    for fields, number in data_lines(path):
        name = LONG_NAMES.get(fields[1], fields[1])
        if name not in BIDI_CLASSES:
            raise DataError(f"{path}:{number}: unknown class {fields[1]}")
        first, last = code_range(fields[0])
        classes[first:last + 1] = [name] * (last - first + 1)
    if None in classes:
        raise DataError(f"{path}: no @missing default for U+{classes.index(None):04X}")
    return [BIDI_CLASSES.index(name) for name in classes]


def read_canonical_singletons(ucd):
    path = os.path.join(ucd, "UnicodeData.txt")
    singletons = {}
    for fields, _ in data_lines(path):
        decomposition = fields[5]
        if decomposition and not decomposition.startswith("<") and " " not in decomposition:
            singletons[int(fields[0], 16)] = int(decomposition, 16)
    return singletons


def read_combining_marks(ucd):
    """Returns the code points of General_Category Mn, Mc or Me."""
    marks = set()
    for start, code, fields in unicode_data_ranges(os.path.join(ucd, "UnicodeData.txt")):
        if fields[2] in ("Mn", "Mc", "Me"):
            marks.update(range(start, code + 1))
    return marks


def mark_ranges(classes, marks):
    """The combining marks whose class is not NSM, as [first, last] ranges;
    fails unless every NSM is a combining mark and every other mark is of
    class L (the lookups rely on both)."""
    nsm = BIDI_CLASSES.index("NSM")
    for code, c in enumerate(classes):
        if c == nsm and code not in marks:
            raise DataError(f"U+{code:04X} is NSM but not a combining mark")
    left = BIDI_CLASSES.index("L")
    ranges = []
    for code in sorted(m for m in marks if classes[m] != nsm):
        if classes[code] != left:
            # CombiningMarks.isMark looks the list up for class L only.
            raise DataError(f"combining mark U+{code:04X} is neither NSM nor L")
        if ranges and ranges[-1][1] == code - 1:
            ranges[-1][1] = code
        else:
            ranges.append([code, code])
    return ranges


def read_brackets(ucd, singletons):
    """Returns sorted (code point, paired bracket, match key, type) tuples.

    The match key is the canonical form of the closing bracket of the pair,
    so that an opening and a closing bracket pair (BD16) when their keys are
    equal, canonical equivalents included.
    """
    path = os.path.join(ucd, "BidiBrackets.txt")
    brackets = []
    for fields, number in data_lines(path):
        code, pair = int(fields[0], 16), int(fields[1], 16)
        kind = {"o": 1, "c": 2}.get(fields[2])
        if kind is None:
            raise DataError(f"{path}:{number}: bad bracket type {fields[2]}")
        closing = pair if kind == 1 else code
        key = singletons.get(closing, closing)
        brackets.append((code, pair, key, kind))
    brackets.sort()
    return brackets


def read_mirroring(ucd):
    path = os.path.join(ucd, "BidiMirroring.txt")
    pairs = [(int(f[0], 16), int(f[1], 16)) for f, _ in data_lines(path)]
    pairs.sort()
    return pairs


def build_tables(ucd):
    classes = read_bidi_classes(ucd)
    brackets = read_brackets(ucd, read_canonical_singletons(ucd))
    mirroring = read_mirroring(ucd)
    props = bytearray(classes)
    for code, _, _, kind in brackets:
        props[code] |= kind << 5
    for code, _ in mirroring:
        props[code] |= 0x80

    index, blocks = two_stages(props, SHIFT, DIRECT_BLOCKS)
    if index[:DIRECT_BLOCKS] != list(range(DIRECT_BLOCKS)) or len(blocks) > 0xFFFF:
        raise DataError("table layout: U+0000..U+07FF must be the first blocks, indices 16-bit")
    marks = mark_ranges(classes, read_combining_marks(ucd))
    return index, blocks, brackets, mirroring, marks


def header_comment():
    return (
        f"// Generated by {SCRIPT}, do not edit; Unicode {UNICODE_VERSION}.\n"
        "// Sources: DerivedBidiClass.txt, BidiBrackets.txt, BidiMirroring.txt,\n"
        "// UnicodeData.txt of the Unicode Character Database.\n"
    )


def render_source(tables):
    index, blocks, brackets, mirroring, marks = tables
    flat = b"".join(blocks)
    parts = [
        header_comment(),
        '\n#include "CUnicodeBidiData.h"\n\n',
        f"const uint16_t ubd_index[{len(index)}] = {{\n",
        hex_rows(index, 4, 12), "\n};\n\n",
        f"const uint8_t ubd_blocks[{len(flat)}] = {{\n",
        hex_rows(list(flat), 2, 16), "\n};\n\n",
        f"const uint32_t ubd_bracket_code[{len(brackets)}] = {{\n",
        hex_rows([b[0] for b in brackets], 4, 8), "\n};\n\n",
        f"const uint32_t ubd_bracket_pair[{len(brackets)}] = {{\n",
        hex_rows([b[1] for b in brackets], 4, 8), "\n};\n\n",
        f"const uint32_t ubd_bracket_key_list[{len(brackets)}] = {{\n",
        hex_rows([b[2] for b in brackets], 4, 8), "\n};\n\n",
        f"const uint32_t ubd_mirror_code[{len(mirroring)}] = {{\n",
        hex_rows([m[0] for m in mirroring], 4, 8), "\n};\n\n",
        f"const uint32_t ubd_mirror_glyph[{len(mirroring)}] = {{\n",
        hex_rows([m[1] for m in mirroring], 4, 8), "\n};\n\n",
        f"const uint32_t ubd_mark_ranges[{2 * len(marks)}] = {{\n",
        hex_rows([v for r in marks for v in r], 4, 8), "\n};\n",
    ]
    return "".join(parts)


def render_header(tables):
    index, blocks, brackets, mirroring, marks = tables
    mask = (1 << SHIFT) - 1
    on = BIDI_CLASSES.index("ON")
    nsm = BIDI_CLASSES.index("NSM")
    direct = DIRECT_BLOCKS << SHIFT
    return header_comment() + f"""
#ifndef CUNICODEBIDIDATA_H
#define CUNICODEBIDIDATA_H

#include <stdint.h>

/// The Unicode version of the tables.
#define UBD_UNICODE_VERSION "{UNICODE_VERSION}"

/// Property byte: bits 0-4 Bidi_Class, bits 5-6 Bidi_Paired_Bracket_Type
/// (0 none, 1 open, 2 close), bit 7 set when a Bidi_Mirroring_Glyph exists.
#define UBD_CLASS_MASK 0x1F
#define UBD_BRACKET_SHIFT 5
#define UBD_MIRRORED_BIT 0x80
#define UBD_SHIFT {SHIFT}
#define UBD_BRACKET_COUNT {len(brackets)}
#define UBD_MIRROR_COUNT {len(mirroring)}
#define UBD_MARK_RANGE_COUNT {len(marks)}
/// Code points below this one index ubd_blocks directly.
#define UBD_DIRECT_LIMIT 0x{direct:X}

extern const uint16_t ubd_index[{len(index)}];
extern const uint8_t ubd_blocks[{len(blocks) << SHIFT}];
extern const uint32_t ubd_bracket_code[{len(brackets)}];
extern const uint32_t ubd_bracket_pair[{len(brackets)}];
extern const uint32_t ubd_bracket_key_list[{len(brackets)}];
extern const uint32_t ubd_mirror_code[{len(mirroring)}];
extern const uint32_t ubd_mirror_glyph[{len(mirroring)}];
extern const uint32_t ubd_mark_ranges[{2 * len(marks)}];

/// The property byte of a code point; values past U+10FFFF read as ON.
static inline uint8_t ubd_properties(uint32_t cp) {{
  if (cp < UBD_DIRECT_LIMIT) return ubd_blocks[cp];
  if (cp > 0x10FFFF) return {on};
  return ubd_blocks[((uint32_t)ubd_index[cp >> {SHIFT}] << {SHIFT}) | (cp & 0x{mask:X})];
}}

/// The property bytes (`ubd_properties`' table), for vector code that
/// reads them itself (Swift does not import C arrays as pointers).
static inline const uint8_t *ubd_property_bytes(void) {{ return ubd_blocks; }}

/// Where the property bytes of the block of `cp` (128 code points from a
/// multiple of 128) start in `ubd_property_bytes()`, for `cp` past U+07FF.
static inline uint32_t ubd_block_start(uint32_t cp) {{ return (uint32_t)ubd_index[cp >> {SHIFT}] << {SHIFT}; }}

/// The position of `cp` in a sorted list of `count` code points, or -1.
static inline int32_t ubd_search(const uint32_t *list, int32_t count, uint32_t cp) {{
  int32_t low = 0, high = count;
  while (low < high) {{
    int32_t middle = (low + high) >> 1;
    if (list[middle] < cp) low = middle + 1; else high = middle;
  }}
  return (low < count && list[low] == cp) ? low : -1;
}}

/// Bidi_Mirroring_Glyph of `cp`, or `cp` itself when it has none.
static inline uint32_t ubd_mirroring_glyph(uint32_t cp) {{
  if (!(ubd_properties(cp) & UBD_MIRRORED_BIT)) return cp;
  int32_t at = ubd_search(ubd_mirror_code, UBD_MIRROR_COUNT, cp);
  return at < 0 ? cp : ubd_mirror_glyph[at];
}}

/// True for a combining mark (General_Category Mn, Mc or Me): every NSM, and
/// the listed marks of other classes (found by bisection of the ranges).
static inline int ubd_is_combining_mark(uint32_t cp) {{
  uint8_t c = ubd_properties(cp) & UBD_CLASS_MASK;
  if (c == {nsm}) return 1;
  if (cp < ubd_mark_ranges[0]) return 0;
  int32_t low = 0, high = UBD_MARK_RANGE_COUNT;
  while (low < high) {{
    int32_t middle = (low + high) >> 1;
    if (ubd_mark_ranges[2 * middle + 1] < cp) low = middle + 1; else high = middle;
  }}
  return low < UBD_MARK_RANGE_COUNT && ubd_mark_ranges[2 * low] <= cp;
}}

/// Bidi_Paired_Bracket_Type of `cp` (0 none, 1 open, 2 close).
static inline uint8_t ubd_bracket_type(uint32_t cp) {{
  return (ubd_properties(cp) >> UBD_BRACKET_SHIFT) & 3;
}}

/// Bidi_Paired_Bracket of `cp`, or `cp` itself when it is not a bracket.
static inline uint32_t ubd_paired_bracket(uint32_t cp) {{
  if (ubd_bracket_type(cp) == 0) return cp;
  int32_t at = ubd_search(ubd_bracket_code, UBD_BRACKET_COUNT, cp);
  return at < 0 ? cp : ubd_bracket_pair[at];
}}

/// The key under which brackets pair (BD16): the canonical equivalent of the
/// closing bracket of the pair, so that U+2329 pairs with U+3009. Brackets
/// pair when the key of the opening one equals the key of the closing one.
static inline uint32_t ubd_bracket_key(uint32_t cp) {{
  int32_t at = ubd_search(ubd_bracket_code, UBD_BRACKET_COUNT, cp);
  return at < 0 ? cp : ubd_bracket_key_list[at];
}}

#endif
"""


def render_all(ucd):
    tables = build_tables(ucd)
    return {"bidi_tables.c": render_source(tables), "CUnicodeBidiData.h": render_header(tables)}


def main(argv):
    args = list(argv[1:])
    stdout_name = None
    check = False
    if "--stdout" in args:
        at = args.index("--stdout")
        if at + 1 >= len(args) or args[at + 1] not in OUTPUTS:
            print(f"--stdout needs one of: {', '.join(OUTPUTS)}", file=sys.stderr)
            return 2
        stdout_name = args[at + 1]
        del args[at:at + 2]
    if "--check" in args:
        check = True
        args.remove("--check")
    if len(args) > 1 or any(a.startswith("-") for a in args):
        print(__doc__, file=sys.stderr)
        return 2
    ucd = ucd_directory(args, UNICODE_VERSION)
    try:
        texts = render_all(ucd)
    except (OSError, DataError) as error:
        print(f"cannot read the UCD in {ucd}: {error}", file=sys.stderr)
        return 2
    if stdout_name:
        sys.stdout.write(texts[stdout_name])
        return 0
    return write_outputs(OUTPUTS, texts, check, SCRIPT)

if __name__ == "__main__":
    sys.exit(main(sys.argv))

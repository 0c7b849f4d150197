"""What the table generators share: reading Unicode Character Database files,
laying a property byte per code point out in two stages, and writing (or
checking) the generated C files.

Imported by generate-unicode-tables.py and generate-arabic-shaping-tables.py.
Standard library only.
"""

import os
import sys

CODE_SPACE = 0x110000


class DataError(Exception):
    pass


def data_lines(path):
    """Yields (fields, line number) of the data lines of a UCD file."""
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            line = line.split("#", 1)[0].strip()
            if line:
                yield [field.strip() for field in line.split(";")], number


def code_range(text):
    """The first and last code point of `0041` or `0041..005A`."""
    first, _, last = text.partition("..")
    return int(first, 16), int(last or first, 16)


def unicode_data_ranges(path):
    """Yields (first, last, fields) of each UnicodeData.txt entry; a
    `<..., First>`/`<..., Last>` pair of lines is one range."""
    first = None
    for fields, _ in data_lines(path):
        code = int(fields[0], 16)
        if fields[1].endswith(", First>"):
            first = code
            continue
        start = first if fields[1].endswith(", Last>") else code
        first = None
        yield start, code, fields


def two_stages(props, shift, direct_blocks):
    """The index and the blocks of a two-stage table of `props` (a byte per
    code point): blocks of 1 << shift bytes, equal blocks stored once, except
    the first `direct_blocks`, stored in order so that the code points they
    hold index the blocks directly."""
    size = 1 << shift
    index, blocks, seen = [], [], {}
    for start in range(0, CODE_SPACE, size):
        block = bytes(props[start:start + size])
        if start < direct_blocks * size:
            # Stored in order, even when equal to an earlier block.
            seen.setdefault(block, len(blocks))
            index.append(len(blocks))
            blocks.append(block)
            continue
        if block not in seen:
            seen[block] = len(blocks)
            blocks.append(block)
        index.append(seen[block])
    return index, blocks


def hex_rows(values, width, per_row):
    """`values` as C array rows of `per_row` hexadecimal numbers of `width` digits."""
    rows = []
    for start in range(0, len(values), per_row):
        chunk = values[start:start + per_row]
        rows.append("  " + " ".join(f"0x{v:0{width}X}," for v in chunk))
    return "\n".join(rows)


def package_root():
    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def ucd_directory(args, version):
    """The UCD directory: the argument, else $BIDI_UCD_DIR, else
    ../shared/ucd/VERSION beside the package root."""
    return args[0] if args else os.environ.get("BIDI_UCD_DIR") or os.path.join(
        package_root(), "..", "shared", "ucd", version)


def write_outputs(outputs, texts, check, script):
    """Writes each text to its path in `outputs` (relative to the package
    root), or with `check` compares them; returns the exit code (1 when a
    committed file is stale)."""
    root = package_root()
    stale = []
    for name, relative in outputs.items():
        path = os.path.join(root, relative)
        if check:
            try:
                with open(path, encoding="utf-8") as handle:
                    if handle.read() != texts[name]:
                        stale.append(relative)
            except OSError:
                stale.append(relative)
        else:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(texts[name])
    if stale:
        print("out of date, rerun " + script + ": " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0

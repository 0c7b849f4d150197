/// The block parser's shortcut for the commonest lines at the document's
/// top level: the steps of `process` that would only add the line to a
/// top-level leaf, taken directly. `BlockShortcutTests` compares reads with
/// and without it (`MarkdownReader.read(_:…shortcuts:)`).
extension BlockParser {
  /// The commonest non-blank lines there, where the general steps
  /// (`matchOpenBlocks`, `openNewBlocks`, `addText`) would only add the
  /// line to a leaf: a top-level fenced code block's line (or its closing
  /// fence), a top-level paragraph's continuation that opens no block and
  /// can be no delimiter row, a top-level table's row that opens no block,
  /// a paragraph's first line under the document. True when the line was
  /// taken.
  @inline(__always)
  mutating func takeTopLevelLine(_ line: Int, _ cursor: inout LineCursor) -> Bool {
    let first = cursor.firstNonspace
    if stack.count == 1 {
      // openNewBlocks tries no block start (not indented, no opening
      // byte), continueLine nothing (the document), addText opens a
      // paragraph at the first non-blank byte.
      guard cursor.indent < 4 && !Self.mayOpenBlock(bytes[first]) else { return false }
      _ = addChild(.paragraph, to: 0, line: line)
      leafFirstLine = line
      addLeafPiece(line, from: first, to: cursor.end)
    } else {
      switch stack[1].kind {
      case .fencedCode(let fence, let length, let fenceOffset):
        // matchOpenBlocks' fenced code case; openNewBlocks opens nothing
        // in code; addText adds the rest of the line.
        if cursor.indent <= 3 && bytes[first] == fence && cursor.closeCodeFence(at: first) >= length {
          leafLastLine = line
          closeTop()
          break
        }
        var spaces = fenceOffset
        while spaces > 0 && cursor.isSpaceOrTab(cursor.offset) {
          cursor.advance(columns: 1)
          spaces -= 1
        }
        addLeafPiece(line, from: cursor.offset, to: cursor.end)
      case .paragraph:
        // Indented, or no block start and no delimiter row (which starts
        // with `|`, `:`, `-` or a vertical tab or form feed): openNewBlocks
        // and continueLine do nothing, addText adds the line from its first
        // non-blank byte.
        let byte = bytes[first]
        guard
          cursor.indent >= 4
            || !(Self.mayOpenBlock(byte) || byte == UInt8(ascii: "|") || byte == UInt8(ascii: ":") || byte == 0x0B
              || byte == 0x0C)
        else { return false }
        addLeafPiece(line, from: first, to: cursor.end)
      case .table:
        // A row of a top-level table that opens no block (not indented, no
        // opening byte): matchOpenBlocks reads its cells, continueLine emits
        // them.
        guard
          cursor.indent < 4 && !Self.mayOpenBlock(bytes[first]) && Tables.row(cursor, from: first, into: &rowCells)
        else { return false }
        emitRow(line, rowCells)
      default:
        return false
      }
    }
    shortcutLines += 1
    return true
  }

  /// A blank line under the document alone, or under a top-level paragraph
  /// (which it closes) or fenced code block (which it adds an empty line
  /// to), as `processBlankLine` reads it: no container to match. True when
  /// the line was taken.
  @inline(__always)
  mutating func takeTopLevelBlankLine(_ line: Int, end: Int) -> Bool {
    if stack.count == 2 {
      switch stack[1].kind {
      case .paragraph: closeTop()
      case .fencedCode: addLeafPiece(line, from: end, to: end)
      default: return false
      }
    }
    shortcutLines += 1
    return true
  }
}

/// The leaves the block reader completes on the line that starts them
/// (ATX headings, table rows), and front matter.
extension BlockParser {
  /// An ATX heading: its text is the rest of the line without the closing
  /// `#`s (a run of `#` after a space or tab) and surrounding white space.
  mutating func emitATXHeading(_ line: Int, _ cursor: inout LineCursor, level: Int, under container: Int) {
    _ = prepareClosedLeaf(under: container)
    cursor.findFirstNonspace()
    var pieces = MarkdownPieces()
    if !cursor.blank {
      var end = trimmedEnd(cursor.start, cursor.end)
      var hash = end - 1
      while hash >= cursor.start && bytes[hash] == UInt8(ascii: "#") { hash -= 1 }
      if hash != end - 1 && hash >= cursor.start && (bytes[hash] == 0x20 || bytes[hash] == 0x09) {
        end = trimmedEnd(cursor.start, hash)
      }
      let lineStart = source.lineStarts[line]
      if end > cursor.firstNonspace {
        pieces = MarkdownPieces(
          MarkdownPiece(line: line, columns: (cursor.firstNonspace - lineStart)..<(end - lineStart)))
      }
    }
    blocks.append(MarkdownBlock(kind: .heading(level: level), lines: line...line, pieces: pieces))
    stack.addClosedChild()
  }

  /// `end` moved back over spaces and tabs (not before `start`).
  private func trimmedEnd(_ start: Int, _ end: Int) -> Int {
    var end = end
    while end > start && (bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09) { end -= 1 }
    return end
  }

  /// A delimiter row under the open paragraph whose last line is a row of
  /// as many cells: the paragraph becomes a table (its earlier lines a
  /// paragraph of their own, read as cmark-gfm reads it: `\|` as `|`, no
  /// reference definitions). Returns true when it did.
  mutating func openTable(_ line: Int, _ cursor: LineCursor) -> Bool {
    // (`rowCells` is written here: no matched row of this line is kept.)
    matchedRow = nil
    guard let found = Tables.delimiterRow(cursor, from: cursor.firstNonspace, cells: &rowCells),
      let last = leafPieces.last
    else {
      return false
    }
    // cmark-gfm scans the paragraph's whole content for the header row: ill-
    // formed UTF-8 on any of its lines stops the scan. (The header row, the
    // last piece, is then not checked again.)
    guard paragraphIsWellFormed() else { return false }
    let lineStart = source.lineStarts[last.line]
    guard
      Tables.row(
        bytes, from: lineStart + last.columns.lowerBound, to: lineStart + last.columns.upperBound, into: &rowCells,
        wellFormed: true),
      rowCells.count == found.count
    else { return false }
    if leafPieces.count > 1 {
      let pieces = MarkdownPieces(leafPieces.dropLast())
      blocks.append(
        MarkdownBlock(
          kind: .paragraph, lines: pieces[0].line...pieces[pieces.count - 1].line, pieces: pieces,
          content: .pipesUnescaped))
    }
    clearLeaf()
    alignments = found
    tableRow = 0
    emitRow(last.line, rowCells)
    stack.setKind(.table(columns: found.count))
    return true
  }

  /// True when the open paragraph's pieces are well-formed UTF-8; each
  /// piece is checked once (`checkedPieces`, `illFormedPiece`).
  mutating func paragraphIsWellFormed() -> Bool {
    if let bad = illFormedPiece, bad < leafPieces.count { return false }
    while checkedPieces < leafPieces.count {
      let piece = leafPieces[checkedPieces]
      let start = source.lineStarts[piece.line]
      guard Tables.isWellFormed(bytes, (start + piece.columns.lowerBound)..<(start + piece.columns.upperBound)) else {
        illFormedPiece = checkedPieces
        return false
      }
      checkedPieces += 1
    }
    return true
  }

  /// A table row's cells, as many as the table has columns (cmark-gfm
  /// drops the others and pads a short row with empty cells that have no
  /// source, which are not blocks here).
  mutating func emitRow(_ line: Int, _ cells: [Range<Int>]) {
    let lineStart = source.lineStarts[line]
    for (column, cell) in cells.prefix(alignments.count).enumerated() {
      blocks.append(
        MarkdownBlock(
          kind: .tableCell(row: tableRow, column: column, alignment: alignments[column]), lines: line...line,
          pieces: MarkdownPieces(
            MarkdownPiece(line: line, columns: (cell.lowerBound - lineStart)..<(cell.upperBound - lineStart))),
          content: .pipesUnescaped))
    }
    tableRow += 1
  }

  // MARK: Front matter

  /// The line that closes front matter opened on line 0 (`---`, then a
  /// line `---` or `...`; trailing spaces and tabs allowed), or nil.
  func frontMatterEnd() -> Int? {
    guard source.lineCount >= 2, isFence(0, allowDots: false) else { return nil }
    for line in 1..<source.lineCount where isFence(line, allowDots: true) { return line }
    return nil
  }

  private func isFence(_ line: Int, allowDots: Bool) -> Bool {
    var start = source.lineStarts[line]
    let end = trimmedEnd(start, source.lineEnds[line])
    if line == 0 && end - start >= 3 && bytes[start] == 0xEF && bytes[start + 1] == 0xBB && bytes[start + 2] == 0xBF {
      start += 3
    }
    guard end - start == 3 else { return false }
    let byte = bytes[start]
    guard byte == UInt8(ascii: "-") || (allowDots && byte == UInt8(ascii: ".")) else { return false }
    return bytes[start + 1] == byte && bytes[start + 2] == byte
  }

  /// Emits lines 0 through `end` as front matter.
  mutating func emitFrontMatter(through end: Int) {
    var pieces: [MarkdownPiece] = []
    for line in 0...end {
      var skip = 0
      let start = source.lineStarts[line]
      if line == 0 && source.length(ofLine: 0) >= 3 && bytes[start] == 0xEF && bytes[start + 1] == 0xBB
        && bytes[start + 2] == 0xBF
      {
        skip = 3
      }
      pieces.append(MarkdownPiece(line: line, columns: skip..<source.length(ofLine: line)))
    }
    blocks.append(MarkdownBlock(kind: .frontMatter, lines: 0...end, pieces: MarkdownPieces(pieces)))
  }
}

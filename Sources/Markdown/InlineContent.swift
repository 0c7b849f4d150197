/// A block's inline content as cmark hands it to its inline parser: the
/// pieces' bytes joined by line feeds, NUL bytes replaced by U+FFFD (cmark
/// does it while reading lines), `\|` read as `|` in table cells; with each
/// byte's source offset (a joining line feed: its line's end; the three
/// bytes of a U+FFFD: the NUL; a `|` read from `\|`: the backslash).
struct InlineContent {
  var bytes: [UInt8] = []
  var origins: [Int] = []
  /// Per piece: the content index where it starts.
  var pieceStarts: [Int] = []

  /// `finalLineFeed` ends the last piece with a line feed too (as a
  /// paragraph's content is before its reference definitions are read).
  /// Without `tracksOrigins`, `origins` stays empty (the rendered text
  /// alone needs no source offsets).
  init(
    _ pieces: some Collection<MarkdownPiece>, in source: MarkdownSource, rule: MarkdownBlock.ContentRule,
    finalLineFeed: Bool,
    tracksOrigins: Bool = true
  ) {
    var total = 0
    for piece in pieces { total += piece.columns.count + 1 }
    bytes.reserveCapacity(total)
    if tracksOrigins { origins.reserveCapacity(total) }
    pieceStarts.reserveCapacity(pieces.count)
    source.bytes.withUnsafeBufferPointer { text in
      for (index, piece) in pieces.enumerated() {
        pieceStarts.append(bytes.count)
        let lineStart = source.lineStarts[piece.line]
        var offset = lineStart + piece.columns.lowerBound
        let end = lineStart + piece.columns.upperBound
        if piece.tabSpaces > 0 && offset < end && text[offset] == 0x09 {
          bytes += Array(repeating: 0x20, count: piece.tabSpaces)
          if tracksOrigins { origins += Array(repeating: offset, count: piece.tabSpaces) }
          offset += 1
        }
        while offset < end {
          // A run of bytes copied as they are, then one that is not.
          var run = offset
          while run < end && text[run] != 0 && !(text[run] == UInt8(ascii: "\\") && rule == .pipesUnescaped) {
            run += 1
          }
          if run > offset {
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[offset..<run]))
            if tracksOrigins { origins.append(contentsOf: offset..<run) }
            offset = run
            continue
          }
          let byte = text[offset]
          if byte == 0 {
            bytes += [0xEF, 0xBF, 0xBD]
            if tracksOrigins { origins += [offset, offset, offset] }
          } else if offset + 1 < end && text[offset + 1] == UInt8(ascii: "|") {
            // `\|` in a table cell (or the paragraph before a table)
            bytes.append(UInt8(ascii: "|"))
            if tracksOrigins { origins.append(offset) }
            offset += 1
          } else {
            bytes.append(byte)
            if tracksOrigins { origins.append(offset) }
          }
          offset += 1
        }
        if finalLineFeed || index + 1 < pieces.count {
          bytes.append(0x0A)
          if tracksOrigins { origins.append(source.lineEnds[piece.line]) }
        }
      }
    }
  }

  /// The piece holding content index `index`.
  func piece(containing index: Int) -> Int {
    var low = 0
    var high = pieceStarts.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if pieceStarts[middle] <= index { low = middle } else { high = middle - 1 }
    }
    return low
  }
}

import Markdown
import StructuredText
import UnicodeBidi

/// The entry of a block whose rendered text is its source: no byte the
/// inline parser acts on (no escape, entity, delimiter, bracket, code span,
/// raw HTML, autolink, hard break), so its text is its pieces joined by one
/// space (each soft break) and its map is one segment per piece (the first
/// character apart, as `MarkdownEntries.map` makes it) and one per break.
/// Built from the bytes, with no rendering and no per-byte arrays; the same
/// entry as `MarkdownEntries.entry(block, renderer.render(block), …)` would
/// give (`MarkdownPlainEntryTests` compares them on generated documents).
extension MarkdownEntries {
  /// The bytes that end a run of text in the inline parser (cmark's
  /// "\r\n\\`&_*[]<!" without `!`, which alone is text, the extensions' `~`
  /// and `:`) and `@` (an email autolink), and NUL (read as U+FFFD): a block
  /// holding one takes the general path. `w` is looked at apart (`www.`).
  private static let stops: [Bool] = {
    var table = [Bool](repeating: false, count: 256)
    for byte in "\r\n\\`&_*[]<~:@".utf8 { table[Int(byte)] = true }
    table[0] = true
    return table
  }()

  /// The entry of `block` if its rendered text is its source; nil when it
  /// needs the inline renderer. `length`: `plainLength(block, source:)`
  /// when the caller has it.
  static func plainEntry(_ block: MarkdownBlock, source: MarkdownSource, length: Int?? = nil) -> TextEntry? {
    guard let total = length ?? plainLength(block, source: source), let first = block.pieces.first,
      let last = block.pieces.last
    else { return nil }
    let firstLine = first.line
    var text: [UInt8] = []
    text.reserveCapacity(total)
    var map = SourceMap()
    map.segments.reserveCapacity(2 * block.pieces.count)
    source.bytes.withUnsafeBufferPointer { bytes in
      for (index, piece) in block.pieces.enumerated() {
        let line = piece.line - firstLine
        let lineStart = source.lineStarts[piece.line]
        if index > 0 {
          // The soft break: one space standing for the line end.
          let previous = block.pieces[index - 1]
          map.segments.append(
            .init(
              decoded: text.count,
              start: SourcePosition(line: previous.line - firstLine, column: source.length(ofLine: previous.line)),
              end: SourcePosition(line: previous.line - firstLine + 1, column: 0), verbatim: false))
          text.append(0x20)
        }
        var column = piece.columns.lowerBound
        if index == 0 {
          // The first character is a segment of its own (where an
          // insertion at the start goes: `MarkdownEntries.map`).
          var next = column + 1
          while next < piece.columns.upperBound, bytes[lineStart + next] & 0xC0 == 0x80 { next += 1 }
          map.segments.append(
            .init(
              decoded: text.count, start: SourcePosition(line: line, column: column),
              end: SourcePosition(line: line, column: next), verbatim: false))
          text.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[(lineStart + column)..<(lineStart + next)]))
          column = next
        }
        guard column < piece.columns.upperBound else { continue }
        map.segments.append(
          .init(
            decoded: text.count, start: SourcePosition(line: line, column: column),
            end: SourcePosition(line: line, column: piece.columns.upperBound), verbatim: true))
        text.append(
          contentsOf: UnsafeBufferPointer(
            rebasing: bytes[(lineStart + column)..<(lineStart + piece.columns.upperBound)]))
      }
    }
    map.length = text.count
    let start = SourcePosition(line: 0, column: first.columns.lowerBound)
    let end = SourcePosition(line: last.line - firstLine, column: last.columns.upperBound)
    var entry = TextEntry(
      key: "", text: String(decoding: text, as: UTF8.self), map: map, content: SourceRange(start: start, end: end),
      firstLine: firstLine)
    entry.block = blockName(block.kind)
    entry.paragraphs = [0..<text.count]
    entry.hasNonASCIILiteral = text.contains { $0 >= 0x80 }
    entry.hasLiteralControl = entry.hasNonASCIILiteral && hasControl(text)
    return entry
  }

  /// The length of `block`'s rendered text if it is its source (its
  /// pieces joined by one space: `plainEntry`), nil when it needs the
  /// inline renderer.
  static func plainLength(_ block: MarkdownBlock, source: MarkdownSource) -> Int? {
    guard block.kind.hasInlineContent, !block.pieces.isEmpty else { return nil }
    var total = 0
    let plain = source.bytes.withUnsafeBufferPointer { bytes -> Bool in
      Self.stops.withUnsafeBufferPointer { stops in
        for piece in block.pieces {
          guard piece.tabSpaces == 0, !piece.columns.isEmpty else { return false }
          let start = source.lineStarts[piece.line] + piece.columns.lowerBound
          let end = source.lineStarts[piece.line] + piece.columns.upperBound
          // Leading and trailing white space (a hard break, a trimmed end,
          // skipped indentation) is the renderer's to read.
          guard bytes[start] > 0x20, bytes[end - 1] > 0x20 else { return false }
          var index = start
          while index < end {
            let byte = bytes[index]
            if stops[Int(byte)] { return false }
            if byte == UInt8(ascii: "w"), index + 3 < end, bytes[index + 1] == UInt8(ascii: "w"),
              bytes[index + 2] == UInt8(ascii: "w"), bytes[index + 3] == UInt8(ascii: ".")
            {
              return false
            }
            index += 1
          }
          total += end - start + 1
        }
        return true
      }
    }
    return plain ? total : nil
  }

  /// Whether a block with inline content can raise no finding: its lines
  /// are ASCII (no right-to-left letter, no bidi control in its text, link
  /// destinations or anywhere on its lines) and hold no `&` (no character
  /// reference can stand for one). `check` leaves such blocks out.
  static func raisesNoFinding(_ block: MarkdownBlock, source: MarkdownSource) -> Bool {
    let start = source.lineStarts[block.lines.lowerBound]
    let end = source.lineEnds[min(block.lines.upperBound, source.lineCount - 1)]
    return source.bytes.withUnsafeBufferPointer { bytes in
      for index in start..<end where bytes[index] >= 0x80 || bytes[index] == UInt8(ascii: "&") { return false }
      return true
    }
  }
}

// The two kinds of position, defined once for every module. Inside the code
// a place is a line and a UTF-8 byte column (`SourcePosition`): what the
// document store, the readers, the scanners and the planners count in. On
// the wire it is a line and a `character` in the negotiated encoding's
// units (`LSPPosition`). `LineUnits` converts a line's columns between the
// two; BidiProtocol adds only the wire's JSON codec.

/// A place in a document: a zero-based line and a UTF-8 byte offset into
/// that line's content (its terminator excluded).
package struct SourcePosition: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// Zero-based line number.
  package var line: Int
  /// Byte offset into the line's content.
  package var column: Int

  @inlinable
  package init(line: Int, column: Int) {
    self.line = line
    self.column = column
  }

  @inlinable
  package static func < (a: SourcePosition, b: SourcePosition) -> Bool {
    a.line != b.line ? a.line < b.line : a.column < b.column
  }

  /// The same place `lines` lines further down.
  @inlinable
  package func shifted(by lines: Int) -> SourcePosition { SourcePosition(line: line + lines, column: column) }

  package var description: String { "\(line):\(column)" }
}

/// A range of a document, from `start` up to (not including) `end`, in
/// lines and UTF-8 columns.
package struct SourceRange: Hashable, Sendable, CustomStringConvertible {
  package var start: SourcePosition
  package var end: SourcePosition

  @inlinable
  package init(start: SourcePosition, end: SourcePosition) {
    self.start = start
    self.end = end
  }

  /// An empty range at a position.
  @inlinable
  package init(at position: SourcePosition) {
    self.init(start: position, end: position)
  }

  /// The bytes `columns` of line `line`.
  @inlinable
  package init(line: Int, _ columns: Range<Int>) {
    self.init(
      start: SourcePosition(line: line, column: columns.lowerBound),
      end: SourcePosition(line: line, column: columns.upperBound))
  }

  package var isEmpty: Bool { start == end }

  /// The same range `lines` lines further down.
  package func shifted(by lines: Int) -> SourceRange {
    SourceRange(start: start.shifted(by: lines), end: end.shifted(by: lines))
  }

  /// Whether the range holds or touches a line.
  package func touches(line: Int) -> Bool { start.line <= line && line <= end.line }

  package var description: String { "\(start)-\(end)" }
}

/// A place in a document as LSP writes it: a zero-based line and a
/// zero-based `character` offset in that line, in the units of a
/// `PositionEncoding` (the negotiated one).
package struct LSPPosition: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// Zero-based line number.
  package var line: Int
  /// Zero-based offset in the line, in units of the negotiated encoding.
  package var character: Int

  @inlinable
  package init(line: Int, character: Int) {
    self.line = line
    self.character = character
  }

  @inlinable
  package static func < (a: LSPPosition, b: LSPPosition) -> Bool {
    (a.line, a.character) < (b.line, b.character)
  }

  package var description: String { "(line \(line), character \(character))" }
}

/// An LSP range: `start` included, `end` excluded.
package struct LSPRange: Hashable, Sendable, CustomStringConvertible {
  package var start: LSPPosition
  package var end: LSPPosition

  @inlinable
  package init(start: LSPPosition, end: LSPPosition) {
    self.start = start
    self.end = end
  }

  /// The range of `characters` within line `line`.
  @inlinable
  package init(line: Int, _ characters: Range<Int>) {
    self.init(
      start: LSPPosition(line: line, character: characters.lowerBound),
      end: LSPPosition(line: line, character: characters.upperBound))
  }

  /// The range `(startLine, startCharacter)..<(endLine, endCharacter)`.
  @inlinable
  package init(_ startLine: Int, _ startCharacter: Int, _ endLine: Int, _ endCharacter: Int) {
    self.init(
      start: LSPPosition(line: startLine, character: startCharacter),
      end: LSPPosition(line: endLine, character: endCharacter))
  }

  package var description: String { "\(start)-\(end)" }
}

import UnicodeBidi

/// An LSP position: a zero-based line and a zero-based `character` offset in
/// that line, counted in a `PositionEncoding`'s units.
package struct Position: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// Zero-based line number.
  package var line: Int
  /// Zero-based offset in the line, in units of the negotiated encoding.
  package var character: Int

  package init(line: Int, character: Int) {
    self.line = line
    self.character = character
  }

  package static func < (a: Position, b: Position) -> Bool {
    (a.line, a.character) < (b.line, b.character)
  }

  package var description: String { "(line \(line), character \(character))" }
}

/// An LSP range: from `start` (included) to `end` (excluded).
package struct TextRange: Hashable, Sendable, CustomStringConvertible {
  package var start: Position
  package var end: Position

  package init(start: Position, end: Position) {
    self.start = start
    self.end = end
  }

  /// The range `(startLine, startCharacter)..<(endLine, endCharacter)`.
  package init(_ startLine: Int, _ startCharacter: Int, _ endLine: Int, _ endCharacter: Int) {
    self.init(
      start: Position(line: startLine, character: startCharacter),
      end: Position(line: endLine, character: endCharacter))
  }

  package var description: String { "\(start)-\(end)" }
}

/// A resolved location in a document: a line and a UTF-8 byte offset into that
/// line's content. Always on a Unicode scalar boundary and never past the
/// content's end once produced by `LineTree.resolve(_:in:)`.
package struct TextPoint: Hashable, Comparable, Sendable {
  /// Zero-based line number.
  package var line: Int
  /// Byte offset into the line's content (its terminator excluded).
  package var utf8Offset: Int

  package init(line: Int, utf8Offset: Int) {
    self.line = line
    self.utf8Offset = utf8Offset
  }

  package static func < (a: TextPoint, b: TextPoint) -> Bool {
    (a.line, a.utf8Offset) < (b.line, b.utf8Offset)
  }
}

/// The lines an edit replaced: `oldLines` (numbered before the edit) became
/// `newLineCount` lines from `oldLines.lowerBound` on. Every other line kept
/// its bytes and its terminator.
package struct LineChange: Hashable, Sendable, CustomStringConvertible {
  package var oldLines: Range<Int>
  package var newLineCount: Int

  package init(oldLines: Range<Int>, newLineCount: Int) {
    self.oldLines = oldLines
    self.newLineCount = newLineCount
  }

  /// The new lines, numbered after the edit.
  package var newLines: Range<Int> { oldLines.lowerBound..<(oldLines.lowerBound + newLineCount) }

  package var description: String { "lines \(oldLines) → \(newLines)" }
}

import UnicodeBidi

/// An LSP position: a zero-based line and a zero-based `character` offset in
/// that line, counted in a `PositionEncoding`'s units.
public struct Position: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// Zero-based line number.
  public var line: Int
  /// Zero-based offset in the line, in units of the negotiated encoding.
  public var character: Int

  public init(line: Int, character: Int) {
    self.line = line
    self.character = character
  }

  public static func < (a: Position, b: Position) -> Bool {
    (a.line, a.character) < (b.line, b.character)
  }

  public var description: String { "(line \(line), character \(character))" }
}

/// An LSP range: from `start` (included) to `end` (excluded).
public struct TextRange: Hashable, Sendable, CustomStringConvertible {
  public var start: Position
  public var end: Position

  public init(start: Position, end: Position) {
    self.start = start
    self.end = end
  }

  /// The range `(startLine, startCharacter)..<(endLine, endCharacter)`.
  public init(_ startLine: Int, _ startCharacter: Int, _ endLine: Int, _ endCharacter: Int) {
    self.init(
      start: Position(line: startLine, character: startCharacter),
      end: Position(line: endLine, character: endCharacter))
  }

  public var description: String { "\(start)-\(end)" }
}

/// A resolved location in a document: a line and a UTF-8 byte offset into that
/// line's content. Always on a Unicode scalar boundary and never past the
/// content's end once produced by `LineTree.resolve(_:in:)`.
public struct TextPoint: Hashable, Comparable, Sendable {
  /// Zero-based line number.
  public var line: Int
  /// Byte offset into the line's content (its terminator excluded).
  public var utf8Offset: Int

  public init(line: Int, utf8Offset: Int) {
    self.line = line
    self.utf8Offset = utf8Offset
  }

  public static func < (a: TextPoint, b: TextPoint) -> Bool {
    (a.line, a.utf8Offset) < (b.line, b.utf8Offset)
  }
}

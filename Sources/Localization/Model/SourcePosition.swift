/// A place in a localization document: a zero-based line and a UTF-8 byte
/// column within it (the server converts columns to the negotiated
/// position encoding).
package struct SourcePosition: Hashable, Comparable, Sendable, CustomStringConvertible {
  package var line: Int
  package var column: Int

  package init(line: Int, column: Int) {
    self.line = line
    self.column = column
  }

  package static func < (a: SourcePosition, b: SourcePosition) -> Bool {
    a.line != b.line ? a.line < b.line : a.column < b.column
  }

  /// The same place `lines` lines further down.
  func shifted(by lines: Int) -> SourcePosition { SourcePosition(line: line + lines, column: column) }

  package var description: String { "\(line):\(column)" }
}

/// A range of a document, from `start` up to (not including) `end`.
package struct SourceRange: Hashable, Sendable, CustomStringConvertible {
  package var start: SourcePosition
  package var end: SourcePosition

  package init(start: SourcePosition, end: SourcePosition) {
    self.start = start
    self.end = end
  }

  /// An empty range at a position.
  package init(at position: SourcePosition) {
    self.init(start: position, end: position)
  }

  package var isEmpty: Bool { start == end }

  func shifted(by lines: Int) -> SourceRange {
    SourceRange(start: start.shifted(by: lines), end: end.shifted(by: lines))
  }

  /// Whether the range holds or touches a line.
  package func touches(line: Int) -> Bool { start.line <= line && line <= end.line }

  package var description: String { "\(start)-\(end)" }
}

/// Where a file stops being readable as its format: reported once, at the
/// first error (`bidi.localizationSyntax`); everything read before it stays.
package struct LocalizationSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The first byte that does not fit the format (or the end of the file).
  package var position: SourcePosition
  /// What was expected, in words: `unterminated string (the closing " is missing)`.
  package var message: String

  package init(position: SourcePosition, message: String) {
    self.position = position
    self.message = message
  }

  func shifted(by lines: Int) -> LocalizationSyntaxError {
    LocalizationSyntaxError(position: position.shifted(by: lines), message: message)
  }

  package var description: String { "\(position): \(message)" }
}

/// One replacement in a document: the bytes of `range` become `newText`.
/// Ranges are in lines and UTF-8 columns; the edits of one plan never
/// overlap and are meant to be applied together, as LSP TextEdits are.
package struct SourceEdit: Hashable, Sendable, CustomStringConvertible {
  package var range: SourceRange
  package var newText: String

  package init(range: SourceRange, newText: String) {
    self.range = range
    self.newText = newText
  }

  package var description: String {
    var shown = ""
    for scalar in newText.unicodeScalars {
      if scalar.isASCII && scalar.value >= 0x20 {
        shown.unicodeScalars.append(scalar)
      } else {
        shown += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      }
    }
    return "\(range) → \"\(shown)\""
  }
}

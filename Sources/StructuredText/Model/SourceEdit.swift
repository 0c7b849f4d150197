import UnicodeBidi

/// Where a file stops being readable as its format: reported once, at the
/// first error (its format's syntax code, `bidi.localizationSyntax`);
/// everything read before it stays, the lines after it are plain lines.
package struct SyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The first byte that does not fit the format (or the end of the file).
  package var position: SourcePosition
  /// What was expected, in words: `unterminated string (the closing " is missing)`.
  package var message: String
  /// Whether the error is the first byte that is not UTF-8 (`ReadSink.finish`),
  /// whose message tells a legacy encoding from the text after it.
  package var isInvalidText: Bool

  package init(position: SourcePosition, message: String, isInvalidText: Bool = false) {
    self.position = position
    self.message = message
    self.isInvalidText = isInvalidText
  }

  package func shifted(by lines: Int) -> SyntaxError {
    SyntaxError(position: position.shifted(by: lines), message: message, isInvalidText: isInvalidText)
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

  package var description: String { "\(range) → \"\(newText.escapingNonASCII)\"" }

}

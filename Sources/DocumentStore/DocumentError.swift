import UnicodeBidi

/// Why a document operation was refused. An operation that throws changes
/// nothing. The server turns these into -32602 answers or `window/logMessage`
/// warnings; `description` names the problem.
package indirect enum DocumentError: Error, Hashable, Sendable, CustomStringConvertible {
  /// A line at or past the end of the document (`line >= lineCount`).
  case lineOutOfRange(line: Int, lineCount: Int)
  /// A position with a negative line or character.
  case negativePosition(LSPPosition)
  /// A range whose start comes after its end.
  case invertedRange(LSPRange)
  /// A line range that is not inside `0...lineCount`.
  case lineRangeOutOfBounds(lower: Int, upper: Int, lineCount: Int)
  /// Text that is not well-formed UTF-8.
  case invalidUTF8
  /// A single line of more than `LineTree.maximumLineLength` bytes.
  case lineTooLong(utf8Count: Int)
  /// `didOpen` of a document that is already open.
  case alreadyOpen(uri: String)
  /// A document that is not open.
  case unknownDocument(uri: String)
  /// Content change number `index` (zero-based) of a `didChange` failed; the
  /// document was left as it was before the whole notification.
  case contentChange(index: Int, DocumentError)

  package var description: String {
    switch self {
    case .lineOutOfRange(let line, let lineCount):
      return "line \(line) is past the end of the document, which has \(lineCount) "
        + (lineCount == 1 ? "line" : "lines") + " (0...\(lineCount - 1))"
    case .negativePosition(let position):
      return "position \(position) has a negative line or character"
    case .invertedRange(let range):
      return "range start \(range.start) is after its end \(range.end)"
    case .lineRangeOutOfBounds(let lower, let upper, let lineCount):
      return "line range \(lower)..<\(upper) is not inside the document's \(lineCount) lines"
    case .invalidUTF8:
      return "text is not valid UTF-8"
    case .lineTooLong(let utf8Count):
      return "a line of \(utf8Count) bytes is longer than the supported \(LineTree<NoLineAnalysis>.maximumLineLength)"
    case .alreadyOpen(let uri):
      return "document \(uri) is already open"
    case .unknownDocument(let uri):
      return "document \(uri) is not open"
    case .contentChange(let index, let error):
      return "content change \(index) cannot be applied: \(error); the document is unchanged"
    }
  }
}

import UnicodeBidi

/// Sizes of a stretch of complete lines: how many lines, and how many code
/// units their content and their terminators take in each encoding.
///
/// Kept in every node of a `LineTree`, so any prefix of the document is
/// measured in O(log n). Line terminators are ASCII, so they count the same
/// number of units (1 for `\n` or `\r`, 2 for `\r\n`) in every encoding.
package struct TextMetrics: Hashable, Sendable {
  /// Number of lines.
  package var lineCount: Int
  /// UTF-8 code units (bytes) of the lines' content, terminators excluded.
  package var contentUTF8: Int
  /// UTF-16 code units of the lines' content, terminators excluded.
  package var contentUTF16: Int
  /// Unicode scalars (UTF-32 units) of the lines' content, terminators excluded.
  package var contentUTF32: Int
  /// Code units of the line terminators, the same in every encoding.
  package var terminatorUnits: Int

  package init(
    lineCount: Int, contentUTF8: Int, contentUTF16: Int, contentUTF32: Int, terminatorUnits: Int
  ) {
    self.lineCount = lineCount
    self.contentUTF8 = contentUTF8
    self.contentUTF16 = contentUTF16
    self.contentUTF32 = contentUTF32
    self.terminatorUnits = terminatorUnits
  }

  /// No lines at all.
  package static let zero = TextMetrics(
    lineCount: 0, contentUTF8: 0, contentUTF16: 0, contentUTF32: 0, terminatorUnits: 0)

  /// Content units in `encoding`, terminators excluded.
  package func contentCount(in encoding: PositionEncoding) -> Int {
    switch encoding {
    case .utf8: return contentUTF8
    case .utf16: return contentUTF16
    case .utf32: return contentUTF32
    }
  }

  /// All units in `encoding`, terminators included.
  package func count(in encoding: PositionEncoding) -> Int {
    contentCount(in: encoding) + terminatorUnits
  }

  /// The total size in bytes, terminators included.
  package var utf8Count: Int { contentUTF8 + terminatorUnits }

  package static func + (a: TextMetrics, b: TextMetrics) -> TextMetrics {
    TextMetrics(
      lineCount: a.lineCount + b.lineCount,
      contentUTF8: a.contentUTF8 + b.contentUTF8,
      contentUTF16: a.contentUTF16 + b.contentUTF16,
      contentUTF32: a.contentUTF32 + b.contentUTF32,
      terminatorUnits: a.terminatorUnits + b.terminatorUnits)
  }

  package static func += (a: inout TextMetrics, b: TextMetrics) { a = a + b }

  package static func - (a: TextMetrics, b: TextMetrics) -> TextMetrics {
    TextMetrics(
      lineCount: a.lineCount - b.lineCount,
      contentUTF8: a.contentUTF8 - b.contentUTF8,
      contentUTF16: a.contentUTF16 - b.contentUTF16,
      contentUTF32: a.contentUTF32 - b.contentUTF32,
      terminatorUnits: a.terminatorUnits - b.terminatorUnits)
  }
}

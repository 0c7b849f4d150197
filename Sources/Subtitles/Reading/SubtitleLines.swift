/// A document as the subtitle readers see it: lines of UTF-8 without their
/// terminators (the server's line tree, or a file split by `SubtitleText`).
package protocol SubtitleLines {
  /// The number of lines (at least 1: an empty document has one empty line).
  var lineCount: Int { get }
  /// Calls `body` with the UTF-8 bytes of line `line`, terminator excluded.
  func withUTF8<R>(ofLine line: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R
}

/// A whole text in memory, split into lines at `\n`, `\r\n` and `\r` (as LSP
/// splits them; the WebVTT parser does the same).
package struct SubtitleText: SubtitleLines, Sendable {
  package let bytes: [UInt8]
  /// Each line's start, and after the last one the end of the text.
  private var starts: [Int] = [0]
  private var ends: [Int] = []

  package init(_ bytes: [UInt8]) {
    self.bytes = bytes
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      guard byte == 0x0A || byte == 0x0D else { continue }
      ends.append(index - 1)
      if byte == 0x0D, index < bytes.count, bytes[index] == 0x0A { index += 1 }
      starts.append(index)
    }
    ends.append(bytes.count)
  }

  package init(_ text: String) { self.init(Array(text.utf8)) }

  package var lineCount: Int { starts.count }

  /// The byte range of line `line` in `bytes`, terminator excluded.
  package func byteRange(ofLine line: Int) -> Range<Int> { starts[line]..<ends[line] }

  package func withUTF8<R>(ofLine line: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
    try bytes.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[starts[line]..<ends[line]])) }
  }
}

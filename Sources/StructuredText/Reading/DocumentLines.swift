import UnicodeBidi

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A document as the readers see it: lines of UTF-8, without their line
/// terminators (the server's line tree, or a file split at `\n`, `\r\n`
/// and `\r` as LSP splits it).
package protocol DocumentLines {
  /// The number of lines (at least 1: an empty document has one empty line).
  var lineCount: Int { get }
  /// Calls `body` with the UTF-8 bytes of line `line`, terminator excluded.
  func withUTF8<R>(ofLine line: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R
  /// Whether the lines are a UTF-16 file's conversion (`DecodedFile`),
  /// whose bytes that are not UTF-8 stand for unpaired surrogates and an
  /// odd last byte (`UTF16Conversion`).
  var isUTF16Conversion: Bool { get }
}

extension DocumentLines {
  package var isUTF16Conversion: Bool { false }
}

/// A whole text held in memory, split into lines at `\n`, `\r\n` and `\r`,
/// with the lines holding a hazard byte (one scan of the text that the
/// whole-file passes share).
package struct TextLines: DocumentLines, Sendable {
  package let bytes: [UInt8]
  /// The start of each line, and the end of the last one.
  private var starts: [Int] = [0]
  private var ends: [Int] = []
  /// The lines holding a bidi control or a byte that is not UTF-8.
  package let hazards: HazardLines
  package var isUTF16Conversion = false

  package init(_ bytes: [UInt8]) {
    self.bytes = bytes
    var starts = [0]
    var ends: [Int] = []
    // Room for a line every 40 bytes (prose has fewer; code grows it once
    // or twice), not grown from one line.
    starts.reserveCapacity(bytes.count / 40 + 2)
    ends.reserveCapacity(bytes.count / 40 + 2)
    bytes.withUnsafeBufferPointer { bytes in
      guard let base = bytes.baseAddress else { return }
      let count = bytes.count
      // The next CR is searched for once ahead (most texts have none),
      // each LF before it by memchr: a line costs a call, not a loop
      // iteration per byte.
      var cr = -1
      var index = 0
      while index < count {
        if cr < index {
          cr =
            memchr(base + index, 0x0D, count - index).map {
              UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) - base
            }
            ?? count
        }
        let lf = memchr(base + index, 0x0A, cr - index).map {
          UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) - base
        }
        let end = lf ?? cr
        guard end < count else { break }
        ends.append(end)
        index = end + (bytes[end] == 0x0D && end + 1 < count && bytes[end + 1] == 0x0A ? 2 : 1)
        starts.append(index)
      }
    }
    ends.append(bytes.count)
    self.starts = starts
    self.ends = ends
    hazards = HazardLines(bytes, lineStarts: starts)
  }

  package init(_ text: String) {
    self.init(Array(text.utf8))
  }

  package var lineCount: Int { starts.count }

  package func withUTF8<R>(ofLine line: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
    try bytes.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[starts[line]..<ends[line]])) }
  }

  /// The offset in `bytes` of each line's start, and of each line's end
  /// (its terminator excluded).
  package var lineStarts: [Int] { starts }
  package var lineEnds: [Int] { ends }

  /// The byte range of line `line`'s content in `bytes` (terminator excluded).
  package func byteRange(ofLine line: Int) -> Range<Int> { starts[line]..<ends[line] }

  /// The offset in `bytes` of a position, clamped to its line's content.
  package func offset(of position: SourcePosition) -> Int {
    let line = min(max(position.line, 0), starts.count - 1)
    return min(starts[line] + max(position.column, 0), ends[line])
  }

  /// The line holding byte `offset` of `bytes` (the line before a
  /// terminator for its bytes).
  package func line(containingOffset offset: Int) -> Int {
    var low = 0
    var high = starts.count
    while low + 1 < high {
      let middle = (low + high) / 2
      if starts[middle] <= offset { low = middle } else { high = middle }
    }
    return low
  }

  /// The first line from `line` up to `last` holding a byte that is not
  /// UTF-8 (`Cursor.isUTF8` false), or `last` (`hazards`: no scan).
  package func firstLineNotUTF8(from line: Int, last: Int) -> Int {
    hazards.firstLineNotUTF8(from: line, last: last)
  }

  /// Line `line` as a string (for tests and messages).
  package func line(_ line: Int) -> String {
    String(decoding: bytes[starts[line]..<ends[line]], as: UTF8.self)
  }
}

extension DocumentLines {
  /// Applies non-overlapping edits to this text and returns the result,
  /// lines joined with `\n` (tests and `check --fix`-style callers).
  package func applying(_ edits: [SourceEdit]) -> String {
    var lines: [[UInt8]] = []
    for index in 0..<lineCount { lines.append(withUTF8(ofLine: index) { Array($0) }) }
    var result: [UInt8] = []
    var position = SourcePosition(line: 0, column: 0)
    func copy(upTo end: SourcePosition) {
      while position.line < end.line {
        result += lines[position.line][min(position.column, lines[position.line].count)...]
        result.append(0x0A)
        position = SourcePosition(line: position.line + 1, column: 0)
      }
      let line = lines[end.line]
      result += line[min(position.column, line.count)..<min(max(end.column, position.column), line.count)]
      position = end
    }
    for edit in edits.sorted(by: { $0.range.start < $1.range.start }) {
      copy(upTo: edit.range.start)
      result += Array(edit.newText.utf8)
      position = max(position, edit.range.end)
    }
    copy(upTo: SourcePosition(line: lineCount - 1, column: lines[lineCount - 1].count))
    return String(decoding: result, as: UTF8.self)
  }
}

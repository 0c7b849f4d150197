import UnicodeBidi

/// The lines of a text holding a hazard byte (a bidi control or a byte that
/// is not UTF-8, as `BidiControl.nextControlOrInvalid` finds them), found by
/// one scan of the whole text: each such line's first hazard and whether it
/// is all UTF-8 (`Cursor.isUTF8`). What the whole-file passes of `check`
/// ask (the reader's end, the Markdown findings lane, the line rules of
/// `FindingsEngine`), answered without scanning again.
///
/// The scan goes on past each control and, after a byte that is not UTF-8,
/// from the next line's start. No sequence spans a line terminator (its
/// bytes are ASCII), so at each line's start the scan is where a scan of
/// that line alone starts, and finds what it does up to its first byte
/// that is not UTF-8.
package struct HazardLines: Sendable {
  /// A line holding a hazard byte.
  package struct Line: Sendable, Equatable {
    package var line: Int
    /// The offset of its first hazard byte in the text.
    package var firstHazard: Int
    /// Whether the line is all UTF-8 (its hazards are bidi controls).
    package var isUTF8: Bool
  }

  /// The lines holding a hazard byte, in order.
  package let lines: [Line]

  /// The hazard lines of `bytes`, whose lines start at `lineStarts`
  /// (ascending, the first 0).
  package init(_ bytes: [UInt8], lineStarts starts: [Int]) {
    var found: [Line] = []
    bytes.withUnsafeBufferPointer { bytes in
      var index = 0
      var line = 0
      while index < bytes.count {
        let hazard = BidiControl.nextControlOrInvalid(bytes, from: index)
        guard hazard.offset < bytes.count else { break }
        line = Self.line(containing: hazard.offset, starts: starts, from: line)
        if found.last?.line != line { found.append(Line(line: line, firstHazard: hazard.offset, isUTF8: true)) }
        if let control = hazard.control {
          index = hazard.offset + control.utf8Count
          continue
        }
        found[found.count - 1].isUTF8 = false
        guard line + 1 < starts.count else { break }
        index = starts[line + 1]
      }
    }
    lines = found
  }

  /// The last line starting at or before `offset`, from line `low` on (one
  /// starting at or before it).
  private static func line(containing offset: Int, starts: [Int], from low: Int) -> Int {
    var low = low
    var high = starts.count
    // Most hazards are on the line of the one before or the next.
    if low + 1 == high || starts[low + 1] > offset { return low }
    while low + 1 < high {
      let middle = (low + high) / 2
      if starts[middle] <= offset { low = middle } else { high = middle }
    }
    return low
  }

  /// The first line from `line` up to `last` holding a byte that is not
  /// UTF-8, or `last`.
  package func firstLineNotUTF8(from line: Int, last: Int) -> Int {
    guard line < last else { return last }
    var index = self.index { $0.line >= line }
    while index < lines.count && lines[index].line < last {
      if !lines[index].isUTF8 { return lines[index].line }
      index += 1
    }
    return last
  }

  /// The index of the first hazard line for which `isAfter` holds (false
  /// for a prefix of the lines, true for the rest), or the lines' count.
  package func index(where isAfter: (Line) -> Bool) -> Int {
    var low = 0
    var high = lines.count
    while low < high {
      let middle = (low + high) / 2
      if isAfter(lines[middle]) { high = middle } else { low = middle + 1 }
    }
    return low
  }

  /// The last line of `range` holding a hazard byte, or nil if none does.
  package func lastLine(in range: Range<Int>) -> Int? {
    let after = index { $0.line >= range.upperBound }
    guard after > 0, lines[after - 1].line >= range.lowerBound else { return nil }
    return lines[after - 1].line
  }
}

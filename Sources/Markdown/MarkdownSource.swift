import UnicodeBidi

/// One line's part of a block: the UTF-8 columns `columns` of line `line`.
package struct MarkdownPiece: Hashable, Sendable, CustomStringConvertible {
  package var line: Int
  package var columns: Range<Int>
  /// When a container took part of a tab at the piece's start (a lazy
  /// continuation line after `>\t`): the spaces cmark reads for that tab.
  package internal(set) var tabSpaces = 0

  package init(line: Int, columns: Range<Int>) {
    self.line = line
    self.columns = columns
  }

  package var description: String { "\(line):\(columns.lowerBound)..<\(columns.upperBound)" }
}

/// The text a Markdown reader reads: its bytes and its lines as CommonMark
/// splits them (at LF, CR LF or a lone CR; a final line terminator starts no
/// line). Positions are (line, UTF-8 column); offsets are byte offsets into
/// `bytes`.
package struct MarkdownSource: Sendable {
  /// The document, byte for byte (a BOM and NUL bytes included).
  package let bytes: [UInt8]
  /// Offset of each line's first byte.
  package let lineStarts: [Int]
  /// Offset just past each line's last byte (its terminator excluded).
  package let lineEnds: [Int]

  package init(_ bytes: [UInt8]) {
    self.bytes = bytes
    var starts: [Int] = []
    var ends: [Int] = []
    starts.reserveCapacity(bytes.count / 32 + 1)
    ends.reserveCapacity(bytes.count / 32 + 1)
    bytes.withUnsafeBufferPointer { buffer in
      var start = 0
      var index = 0
      let count = buffer.count
      while index < count {
        let byte = buffer[index]
        if byte == 0x0A || byte == 0x0D {
          starts.append(start)
          ends.append(index)
          index += byte == 0x0D && index + 1 < count && buffer[index + 1] == 0x0A ? 2 : 1
          start = index
        } else {
          index += 1
        }
      }
      if start < count {
        starts.append(start)
        ends.append(count)
      }
    }
    lineStarts = starts
    lineEnds = ends
  }

  package init(_ text: String) { self.init(Array(text.utf8)) }

  /// A source whose lines were split already, as `init(_:)` splits them
  /// (the caller's `lineStarts` and `lineEnds` are what it would find).
  package init(_ bytes: [UInt8], lineStarts: [Int], lineEnds: [Int]) {
    self.bytes = bytes
    self.lineStarts = lineStarts
    self.lineEnds = lineEnds
  }

  /// The number of lines (a final line terminator starts none).
  package var lineCount: Int { lineStarts.count }

  /// The byte length of line `line`, its terminator excluded.
  package func length(ofLine line: Int) -> Int { lineEnds[line] - lineStarts[line] }

  /// The position of byte offset `offset` (which must lie inside a line or
  /// at a line's end; an offset in a terminator maps to that line's end).
  package func position(ofOffset offset: Int) -> SourcePosition {
    var low = 0
    var high = lineStarts.count - 1
    guard high >= 0 else { return SourcePosition(line: 0, column: 0) }
    while low < high {
      let middle = (low + high + 1) / 2
      if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
    }
    return SourcePosition(line: low, column: min(offset, lineEnds[low]) - lineStarts[low])
  }

  /// The byte offset of `position`.
  package func offset(of position: SourcePosition) -> Int { lineStarts[position.line] + position.column }

  /// The bytes of `piece`.
  package func bytes(of piece: MarkdownPiece) -> ArraySlice<UInt8> {
    let start = lineStarts[piece.line]
    return bytes[(start + piece.columns.lowerBound)..<(start + piece.columns.upperBound)]
  }
}

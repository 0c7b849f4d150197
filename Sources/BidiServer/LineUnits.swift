import BidiProtocol
import DocumentStore

/// Converts byte offsets within one line to the negotiated encoding in
/// near-constant time per offset, for code that converts many offsets of the
/// same line (every diagnostic or control of a long line):
/// `Line.character(atUTF8Offset:in:)` counts from the line's start each time,
/// which makes such loops quadratic on long non-ASCII lines.
///
/// Building it walks the line once and records, every `stride` bytes, how
/// many units lie before that point; a conversion then walks at most
/// `stride` bytes from the nearest record.
package struct LineUnits {
  private let line: Line
  private let encoding: PositionEncoding
  /// Whether byte offsets are the answer (ASCII, or UTF-8 positions).
  private let direct: Bool
  /// Scalar-start byte offsets, ascending, and the units before each.
  private var byteMarks: [Int] = []
  private var unitMarks: [Int] = []

  static let stride = 256

  package init(_ line: Line, _ encoding: PositionEncoding) {
    self.line = line
    self.encoding = encoding
    direct = line.isASCII || encoding == .utf8
    guard !direct else { return }
    var bytesAt: [Int] = []
    var unitsAt: [Int] = []
    bytesAt.reserveCapacity(line.utf8Count / Self.stride + 1)
    unitsAt.reserveCapacity(line.utf8Count / Self.stride + 1)
    line.withUTF8 { bytes in
      var offset = 0
      var units = 0
      var next = 0
      while offset < bytes.count {
        if offset >= next {
          bytesAt.append(offset)
          unitsAt.append(units)
          next = offset + Self.stride
        }
        let length = Self.scalarLength(bytes[offset])
        units += (encoding == .utf16 && length == 4) ? 2 : 1
        offset += length
      }
    }
    byteMarks = bytesAt
    unitMarks = unitsAt
  }

  /// The `character` offset of byte offset `utf8Offset` (clamped to the
  /// line; inside a multi-byte scalar, its start), as
  /// `Line.character(atUTF8Offset:in:)` answers it.
  package func character(atUTF8Offset utf8Offset: Int) -> Int {
    if direct || utf8Offset <= 0 || utf8Offset >= line.utf8Count {
      return line.character(atUTF8Offset: utf8Offset, in: encoding)
    }
    // The last mark at or before the offset.
    var low = 0
    var high = byteMarks.count
    while high - low > 1 {
      let mid = (low + high) / 2
      if byteMarks[mid] <= utf8Offset { low = mid } else { high = mid }
    }
    return line.withUTF8 { bytes in
      var offset = byteMarks[low]
      var units = unitMarks[low]
      while offset < utf8Offset {
        let length = Self.scalarLength(bytes[offset])
        if offset + length > utf8Offset { break }  // inside this scalar: its start
        units += (encoding == .utf16 && length == 4) ? 2 : 1
        offset += length
      }
      return units
    }
  }

  /// The byte offset of `character` (clamped to the line; inside a
  /// multi-unit scalar, its start), as `Line.utf8Offset(ofCharacter:in:)`
  /// answers it.
  package func utf8Offset(ofCharacter character: Int) -> Int {
    if direct || character <= 0 || character >= line.count(in: encoding) {
      return line.utf8Offset(ofCharacter: character, in: encoding)
    }
    var low = 0
    var high = unitMarks.count
    while high - low > 1 {
      let mid = (low + high) / 2
      if unitMarks[mid] <= character { low = mid } else { high = mid }
    }
    return line.withUTF8 { bytes in
      var offset = byteMarks[low]
      var units = unitMarks[low]
      while offset < bytes.count {
        let length = Self.scalarLength(bytes[offset])
        let width = (encoding == .utf16 && length == 4) ? 2 : 1
        if units + width > character { break }  // `character` is here or inside this scalar
        units += width
        offset += length
      }
      return offset
    }
  }

  @inline(__always)
  private static func scalarLength(_ lead: UInt8) -> Int {
    if lead < 0xC0 { return 1 }
    if lead < 0xE0 { return 2 }
    if lead < 0xF0 { return 3 }
    return 4
  }
}

/// The server's one codec from byte offsets within lines to wire positions
/// and ranges in the negotiated encoding, and back. It keeps the
/// `LineUnits` of the line last asked for: loops over the paragraphs,
/// diagnostics or edits of a document meet each line in a row.
struct PositionCodec {
  let encoding: PositionEncoding
  private var current: (index: Int, units: LineUnits)?

  init(_ encoding: PositionEncoding) {
    self.encoding = encoding
  }

  mutating func units(_ index: Int, _ line: Line) -> LineUnits {
    if let current, current.index == index { return current.units }
    let units = LineUnits(line, encoding)
    current = (index, units)
    return units
  }

  /// The position of byte `utf8Offset` of line `index`.
  mutating func position(line index: Int, _ line: Line, utf8Offset: Int) -> LSPPosition {
    LSPPosition(line: index, character: character(line: index, line, utf8Offset: utf8Offset))
  }

  /// The `character` of byte `utf8Offset` of line `index`.
  mutating func character(line index: Int, _ line: Line, utf8Offset: Int) -> Int {
    if utf8Offset == 0 { return 0 }
    if utf8Offset == line.utf8Count { return line.count(in: encoding) }
    return units(index, line).character(atUTF8Offset: utf8Offset)
  }

  /// The range of bytes `bytes` of line `index`.
  mutating func range(line index: Int, _ line: Line, _ bytes: Range<Int>) -> LSPRange {
    let lineUnits = units(index, line)
    return LSPRange(
      line: index,
      lineUnits.character(atUTF8Offset: bytes.lowerBound)..<lineUnits.character(atUTF8Offset: bytes.upperBound))
  }

  /// The byte offset of `character` in line `index`.
  mutating func utf8Offset(line index: Int, _ line: Line, character: Int) -> Int {
    units(index, line).utf8Offset(ofCharacter: character)
  }

  /// The line's length in the encoding's units.
  func length(_ line: Line) -> Int { line.count(in: encoding) }
}

import BidiProtocol
import DocumentStore
import UnicodeBidi

/// The server's one codec from byte offsets within lines to wire positions
/// and ranges in the negotiated encoding, and back. It converts through the
/// text foundation's `LineUnits` and keeps the converter of the line last
/// asked for: loops over the paragraphs, diagnostics or edits of a document
/// meet each line in a row.
struct PositionCodec {
  private var lines: LineUnitsCache

  init(_ encoding: PositionEncoding) {
    lines = LineUnitsCache(encoding)
  }

  /// The negotiated encoding.
  var encoding: PositionEncoding { lines.encoding }

  /// The converter of line `index`, which is `line`.
  mutating func units(_ index: Int, _ line: Line) -> LineUnits {
    lines.units(index, line)
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

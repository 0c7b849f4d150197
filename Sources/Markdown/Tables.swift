import UnicodeBidi

/// GFM tables as cmark-gfm 0.29.0.gfm.6 reads them (extensions/table.c):
/// the delimiter row that turns a paragraph's last line into a header row,
/// and the rows that continue a table. A row is one line: cells separated
/// by `|` (a `|` after a backslash is in the cell), optional outer pipes.
enum Tables {
  /// The cells of the row on `cursor`'s line from `start` (its first
  /// non-blank byte): each cell's range, trimmed of spaces and tabs; nil
  /// when the line is not a row (no cell).
  static func row(_ cursor: LineCursor, from start: Int) -> [Range<Int>]? {
    row(cursor.bytes, from: start, to: cursor.end)
  }

  /// `row(cursor, from: start)` written into `cells`: false when it is nil.
  static func row(_ cursor: LineCursor, from start: Int, into cells: inout [Range<Int>]) -> Bool {
    row(cursor.bytes, from: start, to: cursor.end, into: &cells)
  }

  /// The cells of the row in `bytes[start..<end]`; none when it holds
  /// ill-formed UTF-8 (cmark-gfm's cell scanner matches characters, so a
  /// row stops there and is no row).
  static func row(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> [Range<Int>]? {
    var cells: [Range<Int>] = []
    return row(bytes, from: start, to: end, into: &cells) ? cells : nil
  }

  /// `row(bytes, from: start, to: end)` written into `cells` (emptied
  /// first, its capacity kept: the reader keeps one array for its rows):
  /// false when it is nil. `wellFormed`: the caller has checked the bytes
  /// (`isWellFormed`), which are not checked again.
  static func row(
    _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, into cells: inout [Range<Int>],
    wellFormed: Bool = false
  ) -> Bool {
    if !cells.isEmpty { cells.removeAll(keepingCapacity: true) }
    guard wellFormed || isWellFormed(bytes, start..<end) else { return false }
    // Room for a common row's cells at once (not grown cell by cell).
    if cells.capacity < 8 { cells.reserveCapacity(8) }
    var offset = pipeAndSpaces(bytes, at: start, end: end)
    while offset < end {
      let cellEnd = cellEnd(bytes, from: offset, end: end)
      let pipe = pipeAndSpaces(bytes, at: cellEnd, end: end) - cellEnd
      if cellEnd > offset || pipe > 0 {
        if cells.count == Int(UInt16.max) { return false }
        cells.append(trimmed(bytes, offset..<cellEnd))
      }
      offset = cellEnd + pipe
      if pipe == 0 { break }
    }
    // The rest is `spacechar* newline`: a cell runs to the line's end, so
    // only a row that stopped on a pipe's spaces can be left with any.
    return !cells.isEmpty
  }

  /// The delimiter row's alignments when `cursor`'s line from `start` is
  /// one: `|? marker (| marker)* |? spaces` with each marker
  /// `spaces :? -+ :? spaces`.
  /// `cells`: an array the row's cells are written into.
  static func delimiterRow(_ cursor: LineCursor, from start: Int, cells: inout [Range<Int>]) -> [MarkdownAlignment]? {
    let bytes = cursor.bytes
    let end = cursor.end
    var index = start
    if index < end && bytes[index] == UInt8(ascii: "|") { index += 1 }
    while true {
      guard let after = marker(bytes, at: index, end: end) else { return nil }
      index = after
      guard index < end && bytes[index] == UInt8(ascii: "|") else { break }
      index += 1
      if marker(bytes, at: index, end: end) == nil { break }
    }
    while index < end && isSpaceChar(bytes[index]) { index += 1 }
    // The line is pipes, colons, dashes and spacechars: ASCII, well-formed.
    guard index >= end, row(bytes, from: start, to: end, into: &cells, wellFormed: true) else { return nil }
    return cells.map { cell in
      let left = !cell.isEmpty && bytes[cell.lowerBound] == UInt8(ascii: ":")
      let right = !cell.isEmpty && bytes[cell.upperBound - 1] == UInt8(ascii: ":")
      return left && right ? .center : left ? .left : right ? .right : .none
    }
  }

  /// `spacechar* :? -+ :? spacechar*` at `index`: its end.
  private static func marker(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, end: Int) -> Int? {
    var index = index
    while index < end && isSpaceChar(bytes[index]) { index += 1 }
    if index < end && bytes[index] == UInt8(ascii: ":") { index += 1 }
    let dashes = index
    while index < end && bytes[index] == UInt8(ascii: "-") { index += 1 }
    guard index > dashes else { return nil }
    if index < end && bytes[index] == UInt8(ascii: ":") { index += 1 }
    while index < end && isSpaceChar(bytes[index]) { index += 1 }
    return index
  }

  /// `| spacechar*` at `index`: its end (`index` when there is no pipe).
  private static func pipeAndSpaces(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, end: Int) -> Int {
    guard index < end && bytes[index] == UInt8(ascii: "|") else { return index }
    var index = index + 1
    while index < end && isSpaceChar(bytes[index]) { index += 1 }
    return index
  }

  /// A cell's end: the first `|` not right after a backslash of the cell,
  /// or the line's end.
  private static func cellEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, end: Int) -> Int {
    var index = start
    while index < end {
      index = nextPipe(bytes, from: index, end: end)
      if index < end && (index == start || bytes[index - 1] != UInt8(ascii: "\\")) { return index }
      index += 1
    }
    return end
  }

  /// The first `|` in `bytes[index..<end]`, or `end`: eight bytes a step
  /// (the lowest lane equal to `|`: a lane's borrow only reaches lanes
  /// above a true match).
  static func nextPipe(_ bytes: UnsafeBufferPointer<UInt8>, from index: Int, end: Int) -> Int {
    let ones: UInt64 = 0x0101_0101_0101_0101
    var index = index
    while end - index >= 8 {
      let word = UInt64(littleEndian: UnsafeRawPointer(bytes.baseAddress! + index).loadUnaligned(as: UInt64.self))
      let x = word ^ (ones &* UInt64(UInt8(ascii: "|")))
      let found = (x &- ones) & ~x & (ones &* 0x80)
      if found != 0 { return index + found.trailingZeroBitCount >> 3 }
      index += 8
    }
    while index < end && bytes[index] != UInt8(ascii: "|") { index += 1 }
    return index
  }

  /// True when `range` is well-formed UTF-8 (NUL included: cmark reads it
  /// as U+FFFD).
  static func isWellFormed(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
    // The hazard scan (`BidiControl.nextControlOrInvalid`: UTF8Decoder's
    // well-formedness, ASCII and two-byte letters sixteen bytes at a
    // time), going on past the controls it also stops at.
    let slice = UnsafeBufferPointer(rebasing: bytes[range])
    var index = 0
    while true {
      let found = BidiControl.nextControlOrInvalid(slice, from: index)
      guard found.offset < slice.count else { return true }
      guard let control = found.control else { return false }
      index = found.offset + (control.rawValue < 0x800 ? 2 : 3)
    }
  }

  /// The extension scanners' spacechar: space, tab, vertical tab, form feed.
  private static func isSpaceChar(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0B || byte == 0x0C
  }

  /// cmark_strbuf_trim: without spaces and tabs at either end.
  private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int> {
    var low = range.lowerBound
    var high = range.upperBound
    while low < high && (bytes[low] == 0x20 || bytes[low] == 0x09) { low += 1 }
    while high > low && (bytes[high - 1] == 0x20 || bytes[high - 1] == 0x09) { high -= 1 }
    return low..<high
  }
}

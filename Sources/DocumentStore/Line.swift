import UnicodeBidi

/// How a line ends. LSP splits lines at `\n`, `\r\n` and `\r`.
package enum LineTerminator: UInt8, Hashable, Sendable {
  /// The last line of a document has no terminator.
  case none
  /// `\n`
  case lf
  /// `\r`
  case cr
  /// `\r\n`
  case crlf

  /// Code units the terminator takes (the same in every encoding).
  package var utf8Count: Int {
    switch self {
    case .none: return 0
    case .lf, .cr: return 1
    case .crlf: return 2
    }
  }
}

/// One line of a document: a read-only view of its bytes and its sizes.
///
/// A `Line` keeps its bytes alive by itself, so it stays valid after the
/// document it came from is edited. Offsets are counted from the start of the
/// line. A `character` that falls inside a multi-unit character (the second
/// unit of a surrogate pair, a continuation byte of UTF-8) stands for that
/// character's start: conversions never split a Unicode scalar.
package struct Line: Sendable {
  let storage: [UInt8]
  let start: Int
  /// Bytes of content, terminator excluded.
  package let utf8Count: Int
  /// UTF-16 code units of content, terminator excluded.
  package let utf16Count: Int
  /// Unicode scalars of content, terminator excluded.
  package let utf32Count: Int
  /// How the line ends.
  package let terminator: LineTerminator

  init(
    storage: [UInt8], start: Int, utf8Count: Int, utf16Count: Int, utf32Count: Int,
    terminator: LineTerminator
  ) {
    self.storage = storage
    self.start = start
    self.utf8Count = utf8Count
    self.utf16Count = utf16Count
    self.utf32Count = utf32Count
    self.terminator = terminator
  }

  /// Whether the content is all ASCII (every encoding then counts the same).
  package var isASCII: Bool { utf32Count == utf8Count }

  /// Content units in `encoding`, terminator excluded.
  package func count(in encoding: PositionEncoding) -> Int {
    switch encoding {
    case .utf8: return utf8Count
    case .utf16: return utf16Count
    case .utf32: return utf32Count
    }
  }

  /// Calls `body` with the line's content (terminator excluded) as one
  /// contiguous buffer of well-formed UTF-8.
  package func withUTF8<R, E: Error>(
    _ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R
  ) throws(E) -> R {
    try storage.withUnsafeBufferPointer { (all) throws(E) -> R in
      try body(UnsafeBufferPointer(rebasing: all[start..<(start + utf8Count)]))
    }
  }

  /// The content as a string (terminator excluded).
  package var content: String {
    withUTF8 { String(decoding: $0, as: UTF8.self) }
  }

  /// The content followed by its terminator, as stored.
  package func withUTF8IncludingTerminator<R, E: Error>(
    _ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R
  ) throws(E) -> R {
    try storage.withUnsafeBufferPointer { (all) throws(E) -> R in
      try body(UnsafeBufferPointer(rebasing: all[start..<(start + utf8Count + terminator.utf8Count)]))
    }
  }

  /// A converter of offsets within this line between bytes and `encoding`,
  /// for code that converts many offsets of the line.
  package func units(in encoding: PositionEncoding) -> LineUnits {
    LineUnits(storage, range: start..<(start + utf8Count), encoding: encoding, isASCII: isASCII)
  }

  /// The byte offset of `character` (counted in `encoding`), by the rules of
  /// `LineUnits`: past the end clamps to the end, negative to 0, inside a
  /// multi-unit character snaps to its start. One conversion; for many on
  /// one line use `units(in:)`.
  package func utf8Offset(ofCharacter character: Int, in encoding: PositionEncoding) -> Int {
    if character <= 0 { return 0 }
    if character >= count(in: encoding) { return utf8Count }
    if isASCII { return character }
    return withUTF8 { LineUnits.utf8Offset(ofCharacter: character, in: $0, encoding) }
  }

  /// The `character` offset in `encoding` of byte offset `utf8Offset`, by the
  /// rules of `LineUnits`. One conversion; for many use `units(in:)`.
  package func character(atUTF8Offset utf8Offset: Int, in encoding: PositionEncoding) -> Int {
    if utf8Offset <= 0 { return 0 }
    if utf8Offset >= utf8Count { return count(in: encoding) }
    if isASCII { return utf8Offset }
    return withUTF8 { LineUnits.character(atUTF8Offset: utf8Offset, in: $0, encoding) }
  }
}

extension LineUnits {
  /// The converter of `line` (see `Line.units(in:)`).
  package init(_ line: Line, _ encoding: PositionEncoding) {
    self = line.units(in: encoding)
  }
}

/// The `LineUnits` of the line last asked for: loops over the paragraphs,
/// diagnostics or edits of a document meet each line in a row.
package struct LineUnitsCache {
  package let encoding: PositionEncoding
  private var current: (index: Int, units: LineUnits)?

  package init(_ encoding: PositionEncoding) {
    self.encoding = encoding
  }

  /// The converter of line `index`, which is `line`.
  package mutating func units(_ index: Int, _ line: Line) -> LineUnits {
    if let current, current.index == index { return current.units }
    let units = line.units(in: encoding)
    current = (index, units)
    return units
  }
}

import UnicodeBidi

/// Reads a document byte by byte across its lines, as one stream in which
/// each line but the last ends with one `\n` (0x0A) standing for its
/// terminator. Holds one line at a time.
///
/// The stream ends at the first byte that is not UTF-8 (`invalidText`):
/// readers meet the end of the document there, and `finishRead` turns that
/// into the syntax error at that byte, keeping what was read before it.
struct Cursor {
  let lines: any LocalizationLines
  private(set) var line: Int
  private(set) var column: Int = 0
  /// The current line's bytes, with the `\n` unless it is the last line.
  private(set) var bytes: [UInt8] = []
  /// The first byte that is not UTF-8, once a line holding one is loaded, and its value.
  private(set) var invalidText: SourcePosition?
  private(set) var invalidByte: UInt8 = 0

  init(_ lines: any LocalizationLines, line: Int = 0) {
    self.lines = lines
    self.line = min(line, max(lines.lineCount - 1, 0))
    load()
  }

  private mutating func load() {
    bytes.removeAll(keepingCapacity: true)
    guard line < lines.lineCount else { return }
    lines.withUTF8(ofLine: line) { bytes.append(contentsOf: $0) }
    if let bad = Self.firstInvalidByte(bytes) {
      invalidByte = bytes[bad]
      bytes.removeSubrange(bad...)
      invalidText = SourcePosition(line: line, column: bad)
      return
    }
    if line + 1 < lines.lineCount { bytes.append(0x0A) }
  }

  /// Whether the stream goes on after the current line.
  private var hasNextLine: Bool { invalidText == nil && line + 1 < lines.lineCount }

  /// The offset of the first byte of `bytes` that starts no valid UTF-8
  /// sequence (`UTF8Decoder`, the one decoder).
  static func firstInvalidByte(_ bytes: [UInt8]) -> Int? {
    do {
      try bytes.withUnsafeBufferPointer { (p) throws(InvalidUTF8) in try UTF8Decoder.validate(p) }
      return nil
    } catch {
      return error.offset
    }
  }

  var position: SourcePosition { SourcePosition(line: line, column: column) }

  var isAtEnd: Bool { column >= bytes.count }

  /// The current byte, or nil at the end of the document.
  @inline(__always)
  var byte: UInt8? { column < bytes.count ? bytes[column] : nil }

  /// The byte `offset` bytes ahead on the current line, or nil.
  @inline(__always)
  func peek(_ offset: Int) -> UInt8? {
    column + offset < bytes.count ? bytes[column + offset] : nil
  }

  /// Whether the current line continues with `text` here.
  func matches(_ text: String) -> Bool {
    var offset = 0
    for byte in text.utf8 {
      guard peek(offset) == byte else { return false }
      offset += 1
    }
    return true
  }

  @inline(__always)
  mutating func advance() {
    guard column < bytes.count else { return }
    column += 1
    if column == bytes.count && hasNextLine {
      line += 1
      column = 0
      load()
    }
  }

  mutating func advance(by count: Int) {
    for _ in 0..<count { advance() }
  }

  /// The end of the run of bytes from the cursor on this line up to (not
  /// including) the first line end or byte for which `stop` holds. A run
  /// ends at a scalar boundary when `stop` holds only for ASCII bytes.
  @inline(__always)
  func runEnd(stoppingAt stop: (UInt8) -> Bool) -> Int {
    bytes.withUnsafeBufferPointer { p in
      var end = column
      while end < p.count {
        let byte = p[end]
        if byte == 0x0A || stop(byte) { break }
        end += 1
      }
      return end
    }
  }

  /// Moves to `column` of the current line (at most its end; a run never
  /// holds the line's `\n`, so the cursor stays on this line).
  @inline(__always)
  mutating func skip(toColumn end: Int) {
    column = min(end, bytes.count)
    if column == bytes.count && hasNextLine {
      line += 1
      column = 0
      load()
    }
  }

  /// Skips the spaces (0x20) at the cursor on its line; returns how many.
  mutating func skipSpaces() -> Int {
    var count = 0
    while byte == 0x20 {
      advance()
      count += 1
    }
    return count
  }

  /// After a syntax error at `position` found by a reader that looks ahead
  /// (Fluent, YAML: whether the next line continues a value): moves past
  /// everything that decided it, the error, the rest of its line, blank
  /// lines and the next line's indent, so that the index re-reads on an edit
  /// of any of them (it keeps an error when an edit comes after the line the
  /// reader stopped on).
  mutating func advance(pastLookaheadFor position: SourcePosition) {
    while self.position < position, byte != nil { advance() }
    while let byte, byte != 0x0A { advance() }
    while let byte, byte == 0x0A || byte == 0x20 { advance() }
  }

  /// Skips the rest of the line, its `\n` included.
  mutating func skipLine() {
    if hasNextLine {
      line += 1
      column = 0
      load()
    } else {
      column = bytes.count
    }
  }

  /// The scalar at the cursor: its value, its length in bytes, and whether
  /// the bytes are valid UTF-8 (an invalid sequence is one U+FFFD over its
  /// maximal subpart, as `UTF8Decoder` reads it). Nil at the end.
  func scalar() -> (value: UInt32, length: Int, valid: Bool)? {
    guard column < bytes.count else { return nil }
    let decoded = bytes.withUnsafeBufferPointer { UTF8Decoder.decode($0, at: column) }
    return (decoded.value, decoded.length, decoded.isValid)
  }
}

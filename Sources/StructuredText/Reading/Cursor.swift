import UnicodeBidi

/// Reads a document byte by byte across its lines, as one stream in which
/// each line but the last ends with one `\n` (0x0A) standing for its
/// terminator. Holds one line at a time. The readers of every format read
/// through it; its per-byte calls are inlinable, so a reader in another
/// module pays no call per byte.
///
/// The stream ends at the first byte that is not UTF-8 (`invalidText`):
/// readers meet the end of the document there, and `ReadSink.finish(at:)`
/// turns that into the syntax error at that byte, keeping what was read
/// before it.
package struct Cursor {
  package let lines: any DocumentLines
  @usableFromInline var storedLine: Int
  @usableFromInline var storedColumn: Int = 0
  /// The current line's bytes, with the `\n` unless it is the last line.
  @usableFromInline var storedBytes: [UInt8] = []
  @usableFromInline var storedInvalidText: SourcePosition?
  @usableFromInline var storedInvalidByte: UInt8 = 0

  package init(_ lines: any DocumentLines, line: Int = 0) {
    self.lines = lines
    self.storedLine = min(line, max(lines.lineCount - 1, 0))
    load()
  }

  /// The line the cursor is on.
  @inlinable package var line: Int { storedLine }
  /// The byte offset in that line.
  @inlinable package var column: Int { storedColumn }
  /// The current line's bytes, with the `\n` unless it is the last line.
  @inlinable package var bytes: [UInt8] { storedBytes }
  /// The first byte that is not UTF-8, once a line holding one is loaded, and its value.
  @inlinable package var invalidText: SourcePosition? { storedInvalidText }
  @inlinable package var invalidByte: UInt8 { storedInvalidByte }

  @usableFromInline
  mutating func load() {
    storedBytes.removeAll(keepingCapacity: true)
    guard storedLine < lines.lineCount else { return }
    lines.withUTF8(ofLine: storedLine) { storedBytes.append(contentsOf: $0) }
    if let bad = Self.firstInvalidByte(storedBytes) {
      storedInvalidByte = storedBytes[bad]
      storedBytes.removeSubrange(bad...)
      storedInvalidText = SourcePosition(line: storedLine, column: bad)
      return
    }
    if storedLine + 1 < lines.lineCount { storedBytes.append(0x0A) }
  }

  /// Moves to the start of the next line and loads it.
  @usableFromInline
  mutating func nextLine() {
    storedLine += 1
    storedColumn = 0
    load()
  }

  /// Whether the stream goes on after the current line.
  @inlinable
  var hasNextLine: Bool { storedInvalidText == nil && storedLine + 1 < lines.lineCount }

  /// Moves to the end of the readable text: the end of the last line, or
  /// the first byte that is not UTF-8 — where `skip(toColumn: bytes.count)`
  /// repeated until `isAtEnd` stops, without copying the lines passed.
  package mutating func skipToEnd() {
    guard !isAtEnd else { return }
    while hasNextLine {
      var line = storedLine + 1
      if let text = lines as? TextLines {
        line = text.firstLineNotUTF8(from: line, last: lines.lineCount - 1)
      } else {
        while line + 1 < lines.lineCount, lines.withUTF8(ofLine: line, { Self.isUTF8($0) }) { line += 1 }
      }
      storedLine = line
      storedColumn = 0
      load()
    }
    storedColumn = storedBytes.count
  }

  /// Whether `bytes` are all UTF-8 as `UTF8Decoder` reads it: the C scan
  /// of `BidiControl.nextControlOrInvalid` (sixteen bytes at a time past
  /// ASCII and two-byte letters, the decoder for the rest), past each
  /// control it stops at.
  package static func isUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var index = 0
    while index < bytes.count {
      let found = BidiControl.nextControlOrInvalid(bytes, from: index)
      guard found.offset < bytes.count else { return true }
      guard let control = found.control else { return false }
      index = found.offset + control.utf8Count
    }
    return true
  }

  /// The offset of the first byte of `bytes` that starts no valid UTF-8
  /// sequence (`UTF8Decoder`, the one decoder).
  package static func firstInvalidByte(_ bytes: [UInt8]) -> Int? {
    do {
      try bytes.withUnsafeBufferPointer { (p) throws(InvalidUTF8) in try UTF8Decoder.validate(p) }
      return nil
    } catch {
      return error.offset
    }
  }

  @inlinable
  package var position: SourcePosition { SourcePosition(line: storedLine, column: storedColumn) }

  @inlinable
  package var isAtEnd: Bool { storedColumn >= storedBytes.count }

  /// The current byte, or nil at the end of the document.
  @inlinable @inline(__always)
  package var byte: UInt8? { storedColumn < storedBytes.count ? storedBytes[storedColumn] : nil }

  /// The byte `offset` bytes ahead on the current line, or nil.
  @inlinable @inline(__always)
  package func peek(_ offset: Int) -> UInt8? {
    storedColumn + offset < storedBytes.count ? storedBytes[storedColumn + offset] : nil
  }

  /// Whether the current line continues with `text` here.
  @inlinable
  package func matches(_ text: String) -> Bool {
    var offset = 0
    for byte in text.utf8 {
      guard peek(offset) == byte else { return false }
      offset += 1
    }
    return true
  }

  @inlinable @inline(__always)
  package mutating func advance() {
    guard storedColumn < storedBytes.count else { return }
    storedColumn += 1
    if storedColumn == storedBytes.count && hasNextLine { nextLine() }
  }

  @inlinable
  package mutating func advance(by count: Int) {
    for _ in 0..<count { advance() }
  }

  /// Skips the spaces (0x20) at the cursor on its line; returns how many.
  package mutating func skipSpaces() -> Int {
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
  package mutating func advance(pastLookaheadFor position: SourcePosition) {
    while self.position < position, byte != nil { advance() }
    while let byte, byte != 0x0A { advance() }
    while let byte, byte == 0x0A || byte == 0x20 { advance() }
  }

  /// The end of the run of bytes from the cursor on this line up to (not
  /// including) the first line end or byte for which `stop` holds. A run
  /// ends at a scalar boundary when `stop` holds only for ASCII bytes.
  @inlinable @inline(__always)
  package func runEnd(stoppingAt stop: (UInt8) -> Bool) -> Int {
    storedBytes.withUnsafeBufferPointer { p in
      var end = storedColumn
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
  @inlinable @inline(__always)
  package mutating func skip(toColumn end: Int) {
    storedColumn = min(end, storedBytes.count)
    if storedColumn == storedBytes.count && hasNextLine { nextLine() }
  }

  /// Skips the rest of the line, its `\n` included.
  @inlinable
  package mutating func skipLine() {
    if hasNextLine {
      nextLine()
    } else {
      storedColumn = storedBytes.count
    }
  }

  /// The scalar at the cursor: its value, its length in bytes, and whether
  /// the bytes are valid UTF-8 (an invalid sequence is one U+FFFD over its
  /// maximal subpart, as `UTF8Decoder` reads it). Nil at the end.
  @inlinable
  package func scalar() -> (value: UInt32, length: Int, valid: Bool)? {
    guard storedColumn < storedBytes.count else { return nil }
    let decoded = storedBytes.withUnsafeBufferPointer { UTF8Decoder.decode($0, at: storedColumn) }
    return (decoded.value, decoded.length, decoded.isValid)
  }
}

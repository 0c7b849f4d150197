import BidiHazards
import UnicodeBidi

/// Builds a value's decoded text and its source map as a reader decodes it:
/// characters copied from the source, decoded escapes, raw XML tags.
struct TextBuilder {
  private(set) var bytes: [UInt8] = []
  private(set) var map = SourceMap()
  /// The line positions are stored relative to.
  let baseLine: Int
  var controlSpelling: MarkSpelling?
  var hasLiteralControl = false
  var hasNonASCIILiteral = false
  /// Placeholders and markup the format's structure gives (XML inline elements).
  var placeholders: [ValuePlaceholder] = []
  var markup: [Range<Int>] = []
  /// While set, what is appended is source where the format reads no
  /// escape of its own (an XML CDATA section): recorded in `literalOnly`.
  var literalOnly = false {
    didSet { if literalOnly && !oldValue { literalOnlyRanges.append(bytes.count..<bytes.count) } }
  }
  private(set) var literalOnlyRanges: [Range<Int>] = []

  init(baseLine: Int) {
    self.baseLine = baseLine
  }

  var count: Int { bytes.count }

  private mutating func extendLiteralOnly() {
    if literalOnly, let last = literalOnlyRanges.last {
      literalOnlyRanges[literalOnlyRanges.count - 1] = last.lowerBound..<bytes.count
    }
  }

  private func relative(_ position: SourcePosition) -> SourcePosition {
    SourcePosition(line: position.line - baseLine, column: position.column)
  }

  /// Copies the character at the cursor as it is and advances: a line end
  /// becomes `\n`, invalid UTF-8 becomes U+FFFD.
  mutating func appendLiteral(from cursor: inout Cursor) {
    guard let (value, length, valid) = cursor.scalar() else { return }
    let start = cursor.position
    if value == 0x0A {
      cursor.advance()
      append(0x0A, from: start, to: cursor.position, spelling: nil)
      return
    }
    if !valid {
      cursor.advance(by: length)
      append(0xFFFD, from: start, to: cursor.position, spelling: nil)
      return
    }
    if length > 1 {
      hasNonASCIILiteral = true
      if BidiControl(scalar: value) != nil { hasLiteralControl = true }
    }
    let decoded = bytes.count
    for k in 0..<length { bytes.append(cursor.peek(k)!) }
    cursor.advance(by: length)
    let relativeStart = relative(start)
    let end = SourcePosition(line: relativeStart.line, column: relativeStart.column + length)
    if let last = map.segments.last, last.verbatim, last.end == relativeStart {
      map.segments[map.segments.count - 1].end = end
    } else {
      map.segments.append(.init(decoded: decoded, start: relativeStart, end: end, verbatim: true))
    }
    map.length = bytes.count
    extendLiteralOnly()
  }

  /// Copies as it is the run of characters at the cursor up to the line's
  /// end or the first byte for which `stop` holds (an ASCII delimiter such
  /// as a quote or a backslash), and advances past it: one source segment
  /// for the whole run. The cursor's line is valid UTF-8, so the run is
  /// whole characters.
  mutating func appendLiteralRun(from cursor: inout Cursor, stoppingAt stop: (UInt8) -> Bool) {
    let startColumn = cursor.column
    let end = cursor.runEnd(stoppingAt: stop)
    guard end > startColumn else { return }
    let decoded = bytes.count
    cursor.bytes.withUnsafeBufferPointer { p in
      let run = UnsafeBufferPointer(rebasing: p[startColumn..<end])
      bytes.append(contentsOf: run)
      var index = 0
      while index < run.count {
        let byte = run[index]
        if byte < 0x80 {
          index += 1
          continue
        }
        hasNonASCIILiteral = true
        // The bidi controls' UTF-8 starts with D8 (ALM) or E2.
        if byte == 0xD8 || byte == 0xE2 {
          let scalar = UTF8Decoder.decode(run, at: index)
          if BidiControl(scalar: scalar.value) != nil { hasLiteralControl = true }
          index += scalar.length
        } else {
          index += 1
        }
      }
    }
    let relativeStart = SourcePosition(line: cursor.line - baseLine, column: startColumn)
    let stop = SourcePosition(line: relativeStart.line, column: end)
    if let last = map.segments.last, last.verbatim, last.end == relativeStart {
      map.segments[map.segments.count - 1].end = stop
    } else {
      map.segments.append(.init(decoded: decoded, start: relativeStart, end: stop, verbatim: true))
    }
    map.length = bytes.count
    extendLiteralOnly()
    cursor.skip(toColumn: end)
  }

  /// Appends a decoded character that stands for the source from `start`
  /// to `end` (an escape); `spelling` says how the escape writes it.
  mutating func append(_ value: UInt32, from start: SourcePosition, to end: SourcePosition, spelling: MarkSpelling?) {
    let decoded = bytes.count
    appendUTF8(value)
    if let spelling, BidiControl(scalar: value) != nil, controlSpelling == nil { controlSpelling = spelling }
    if spelling == nil, BidiControl(scalar: value) != nil { hasLiteralControl = true }
    map.segments.append(.init(decoded: decoded, start: relative(start), end: relative(end), verbatim: false))
    map.length = bytes.count
    extendLiteralOnly()
  }

  /// Appends the raw source bytes of a tag read from `start` on (an XML
  /// element's tag kept as markup or placeholder), line ends as `\n`.
  mutating func appendRaw(_ raw: [UInt8], from start: SourcePosition) {
    var position = relative(start)
    var index = 0
    while index < raw.count {
      if raw[index] == 0x0A {
        let decoded = bytes.count
        bytes.append(0x0A)
        let next = SourcePosition(line: position.line + 1, column: 0)
        map.segments.append(.init(decoded: decoded, start: position, end: next, verbatim: false))
        position = next
        index += 1
        continue
      }
      var end = index
      while end < raw.count && raw[end] != 0x0A { end += 1 }
      let decoded = bytes.count
      bytes += raw[index..<end]
      let stop = SourcePosition(line: position.line, column: position.column + end - index)
      if let last = map.segments.last, last.verbatim, last.end == position {
        map.segments[map.segments.count - 1].end = stop
      } else {
        map.segments.append(.init(decoded: decoded, start: position, end: stop, verbatim: true))
      }
      position = stop
      index = end
    }
    map.length = bytes.count
  }

  /// Drops the decoded bytes from `offset` on (Android's trailing whitespace).
  mutating func truncate(to offset: Int) {
    guard offset < bytes.count else { return }
    bytes.removeSubrange(offset...)
    while let last = map.segments.last, last.decoded >= offset { map.segments.removeLast() }
    if let last = map.segments.last, last.verbatim {
      let keep = offset - last.decoded
      map.segments[map.segments.count - 1].end.column = last.start.column + keep
    }
    map.length = bytes.count
  }

  private mutating func appendUTF8(_ value: UInt32) {
    UTF8Encoder.append(value, to: &bytes)
  }

  /// The value built, its content running from `start` to `end`.
  func value(key: String, start: SourcePosition, end: SourcePosition) -> LocalizedValue {
    let text = String(decoding: bytes, as: UTF8.self)
    var value = LocalizedValue(
      key: key, text: text, map: map, content: SourceRange(start: relative(start), end: relative(end)),
      firstLine: baseLine)
    value.controlSpelling = controlSpelling
    value.hasLiteralControl = hasLiteralControl
    value.hasNonASCIILiteral = hasNonASCIILiteral
    value.placeholders = placeholders
    value.markup = markup
    value.literalOnly = literalOnlyRanges.filter { !$0.isEmpty }
    return value
  }

  /// The text built so far, for keys.
  var string: String { String(decoding: bytes, as: UTF8.self) }

  /// The bidi controls in the text built (for keys), with their ranges
  /// relative to `baseLine`.
  var controls: [LocalizedValue.KeyControl] {
    var found: [LocalizedValue.KeyControl] = []
    // Every control appended, literal or escaped, set one of these.
    guard hasLiteralControl || controlSpelling != nil else { return found }
    let text = string
    var offset = 0
    for scalar in text.unicodeScalars {
      if let control = BidiControl(scalar: scalar.value) {
        let ranges = map.sourceRanges(ofDecoded: offset..<offset + control.utf8Count)
        if let first = ranges.first { found.append(.init(control: control, range: first)) }
      }
      offset += UTF8.width(scalar)
    }
    return found
  }
}

extension LocalizedValue {
  /// Records the bidi controls of the key `builder` built.
  mutating func attachKey(_ builder: TextBuilder) {
    let shift = builder.baseLine - firstLine
    keyControls = builder.controls.map { .init(control: $0.control, range: $0.range.shifted(by: shift)) }
  }
}

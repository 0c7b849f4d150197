import UnicodeBidi

/// Builds an entry's decoded text and its source map as a reader decodes
/// it: characters copied from the source, decoded escapes, raw tags. Its
/// per-run calls are inlinable (a reader in another module pays no call
/// per byte of a run).
package struct TextBuilder {
  @usableFromInline var storedBytes: [UInt8] = []
  @usableFromInline var storedMap = SourceMap()
  /// The line positions are stored relative to.
  package let baseLine: Int
  package var controlSpelling: MarkSpelling?
  package var hasLiteralControl = false
  package var hasNonASCIILiteral = false
  /// Atoms and markup the format's structure gives (XML inline elements).
  package var atoms: [TextAtom] = []
  package var markup: [Range<Int>] = []
  /// While set, what is appended is source where the format reads no
  /// escape of its own (an XML CDATA section): recorded in `literalOnly`.
  package var literalOnly = false {
    didSet { if literalOnly && !oldValue { literalOnlyRanges.append(storedBytes.count..<storedBytes.count) } }
  }
  @usableFromInline var literalOnlyRanges: [Range<Int>] = []

  package init(baseLine: Int) {
    self.baseLine = baseLine
  }

  /// The decoded text so far, as UTF-8.
  @inlinable package var bytes: [UInt8] { storedBytes }
  /// Its source map so far.
  @inlinable package var map: SourceMap { storedMap }
  @inlinable package var count: Int { storedBytes.count }

  @inlinable
  mutating func extendLiteralOnly() {
    if literalOnly, let last = literalOnlyRanges.last {
      literalOnlyRanges[literalOnlyRanges.count - 1] = last.lowerBound..<storedBytes.count
    }
  }

  @inlinable
  func relative(_ position: SourcePosition) -> SourcePosition {
    SourcePosition(line: position.line - baseLine, column: position.column)
  }

  /// Copies the character at the cursor as it is and advances: a line end
  /// becomes `\n`, invalid UTF-8 becomes U+FFFD.
  @inlinable
  package mutating func appendLiteral(from cursor: inout Cursor) {
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
    let decoded = storedBytes.count
    for k in 0..<length { storedBytes.append(cursor.peek(k)!) }
    cursor.advance(by: length)
    let relativeStart = relative(start)
    let end = SourcePosition(line: relativeStart.line, column: relativeStart.column + length)
    if let last = storedMap.segments.last, last.verbatim, last.end == relativeStart {
      storedMap.segments[storedMap.segments.count - 1].end = end
    } else {
      storedMap.segments.append(.init(decoded: decoded, start: relativeStart, end: end, verbatim: true))
    }
    storedMap.length = storedBytes.count
    extendLiteralOnly()
  }

  /// Copies as it is the run of characters at the cursor up to the line's
  /// end or the first byte for which `stop` holds (an ASCII delimiter such
  /// as a quote or a backslash), and advances past it: one source segment
  /// for the whole run. The cursor's line is valid UTF-8, so the run is
  /// whole characters.
  @inlinable @inline(__always)
  package mutating func appendLiteralRun(from cursor: inout Cursor, stoppingAt stop: (UInt8) -> Bool) {
    let startColumn = cursor.column
    let end = cursor.runEnd(stoppingAt: stop)
    guard end > startColumn else { return }
    let decoded = storedBytes.count
    cursor.bytes.withUnsafeBufferPointer { p in
      let run = UnsafeBufferPointer(rebasing: p[startColumn..<end])
      storedBytes.append(contentsOf: run)
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
    if let last = storedMap.segments.last, last.verbatim, last.end == relativeStart {
      storedMap.segments[storedMap.segments.count - 1].end = stop
    } else {
      storedMap.segments.append(.init(decoded: decoded, start: relativeStart, end: stop, verbatim: true))
    }
    storedMap.length = storedBytes.count
    extendLiteralOnly()
    cursor.skip(toColumn: end)
  }

  /// Appends a decoded character that stands for the source from `start`
  /// to `end` (an escape); `spelling` says how the escape writes it.
  package mutating func append(
    _ value: UInt32, from start: SourcePosition, to end: SourcePosition, spelling: MarkSpelling?
  ) {
    let decoded = storedBytes.count
    appendUTF8(value)
    if let spelling, BidiControl(scalar: value) != nil, controlSpelling == nil { controlSpelling = spelling }
    if spelling == nil, BidiControl(scalar: value) != nil { hasLiteralControl = true }
    storedMap.segments.append(.init(decoded: decoded, start: relative(start), end: relative(end), verbatim: false))
    storedMap.length = storedBytes.count
    extendLiteralOnly()
  }

  /// Appends the raw source storedBytes of a tag read from `start` on (an XML
  /// element's tag kept as markup or placeholder), line ends as `\n`.
  package mutating func appendRaw(_ raw: [UInt8], from start: SourcePosition) {
    var position = relative(start)
    var index = 0
    while index < raw.count {
      if raw[index] == 0x0A {
        let decoded = storedBytes.count
        storedBytes.append(0x0A)
        let next = SourcePosition(line: position.line + 1, column: 0)
        storedMap.segments.append(.init(decoded: decoded, start: position, end: next, verbatim: false))
        position = next
        index += 1
        continue
      }
      var end = index
      while end < raw.count && raw[end] != 0x0A { end += 1 }
      let decoded = storedBytes.count
      storedBytes += raw[index..<end]
      let stop = SourcePosition(line: position.line, column: position.column + end - index)
      if let last = storedMap.segments.last, last.verbatim, last.end == position {
        storedMap.segments[storedMap.segments.count - 1].end = stop
      } else {
        storedMap.segments.append(.init(decoded: decoded, start: position, end: stop, verbatim: true))
      }
      position = stop
      index = end
    }
    storedMap.length = storedBytes.count
  }

  /// Drops the decoded storedBytes from `offset` on (Android's trailing whitespace).
  package mutating func truncate(to offset: Int) {
    guard offset < storedBytes.count else { return }
    storedBytes.removeSubrange(offset...)
    while let last = storedMap.segments.last, last.decoded >= offset { storedMap.segments.removeLast() }
    if let last = storedMap.segments.last, last.verbatim {
      let keep = offset - last.decoded
      storedMap.segments[storedMap.segments.count - 1].end.column = last.start.column + keep
    }
    storedMap.length = storedBytes.count
  }

  @usableFromInline
  mutating func appendUTF8(_ value: UInt32) {
    UTF8Encoder.append(value, to: &storedBytes)
  }

  /// The entry built, its content running from `start` to `end`.
  package func value(key: String, start: SourcePosition, end: SourcePosition) -> TextEntry {
    var value = TextEntry(
      key: key, text: string, map: storedMap, content: SourceRange(start: relative(start), end: relative(end)),
      firstLine: baseLine)
    value.controlSpelling = controlSpelling
    value.hasLiteralControl = hasLiteralControl
    value.hasNonASCIILiteral = hasNonASCIILiteral
    value.atoms = atoms
    value.markup = markup
    value.literalOnly = literalOnlyRanges.filter { !$0.isEmpty }
    return value
  }

  /// The text built so far, for keys.
  package var string: String { String(decoding: storedBytes, as: UTF8.self) }

  /// The bidi controls in the text built (for keys), with their ranges
  /// relative to `baseLine`.
  package var controls: [TextEntry.IdentifierControl] {
    var found: [TextEntry.IdentifierControl] = []
    // Every control appended, literal or escaped, set one of these.
    guard hasLiteralControl || controlSpelling != nil else { return found }
    let text = string
    var offset = 0
    for scalar in text.unicodeScalars {
      if let control = BidiControl(scalar: scalar.value) {
        let ranges = storedMap.sourceRanges(ofDecoded: offset..<offset + control.utf8Count)
        if let first = ranges.first { found.append(.init(control: control, range: first)) }
      }
      offset += UTF8.width(scalar)
    }
    return found
  }
}

extension TextEntry {
  /// Records the bidi controls of the key (identifier) `builder` built.
  package mutating func attachKey(_ builder: TextBuilder) {
    let shift = builder.baseLine - firstLine
    identifierControls = builder.controls.map { .init(control: $0.control, range: $0.range.shifted(by: shift)) }
  }
}

/// The pieces of link syntax that inline links and link reference
/// definitions share, scanned as cmark 0.29 scans them (inlines.c,
/// scanners.re): labels, destinations, titles, white space.
struct LinkSyntax {
  let bytes: UnsafeBufferPointer<UInt8>
  let end: Int

  @inline(__always) func at(_ index: Int) -> UInt8 { index < end ? bytes[index] : 0 }

  /// cmark_isspace: space, tab, LF, CR.
  static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

  /// cmark_ispunct: ASCII punctuation.
  static func isPunctuation(_ byte: UInt8) -> Bool {
    (byte >= 0x21 && byte <= 0x2F) || (byte >= 0x3A && byte <= 0x40) || (byte >= 0x5B && byte <= 0x60)
      || (byte >= 0x7B && byte <= 0x7E)
  }

  /// `[ \t\v\f\r\n]*` from `index`: its end.
  func skipSpaceChars(_ index: Int) -> Int {
    var index = index
    while index < end, bytes[index] == 0x20 || (bytes[index] >= 0x09 && bytes[index] <= 0x0D) { index += 1 }
    return index
  }

  /// A link label `[…]` at `index`: at most 1000 bytes, no unescaped
  /// bracket inside. Returns its content, trimmed, and the index after `]`.
  func label(at index: Int) -> (content: Range<Int>, end: Int)? {
    guard at(index) == UInt8(ascii: "[") else { return nil }
    var cursor = index + 1
    var length = 0
    while cursor < end {
      let byte = bytes[cursor]
      if byte == UInt8(ascii: "[") || byte == UInt8(ascii: "]") { break }
      cursor += 1
      length += 1
      if byte == UInt8(ascii: "\\") && cursor < end && Self.isPunctuation(bytes[cursor]) {
        cursor += 1
        length += 1
      }
      if length > 1000 { return nil }
    }
    guard at(cursor) == UInt8(ascii: "]") else { return nil }
    return (trimmed(index + 1..<cursor), cursor + 1)
  }

  /// `range` without cmark_isspace bytes at either end.
  func trimmed(_ range: Range<Int>) -> Range<Int> {
    var low = range.lowerBound
    var high = range.upperBound
    while low < high && Self.isSpace(bytes[low]) { low += 1 }
    while high > low && Self.isSpace(bytes[high - 1]) { high -= 1 }
    return low..<high
  }

  /// A link destination at `index`: `<…>` (no line end or `<` inside) or a
  /// bare one (no white space, parentheses nested at most 32 deep). Returns
  /// the destination without its angle brackets and the index after it.
  /// As in cmark, a destination that reaches the end of the input fails.
  func destination(at index: Int) -> (url: Range<Int>, end: Int)? {
    var cursor = index
    if at(cursor) == UInt8(ascii: "<") {
      cursor += 1
      while cursor < end {
        let byte = bytes[cursor]
        if byte == UInt8(ascii: ">") {
          cursor += 1
          guard cursor < end else { return nil }
          return (index + 1..<cursor - 1, cursor)
        } else if byte == UInt8(ascii: "\\") {
          cursor += 2
        } else if byte == 0x0A || byte == UInt8(ascii: "<") {
          return nil
        } else {
          cursor += 1
        }
      }
      return nil
    }
    var depth = 0
    while cursor < end {
      let byte = bytes[cursor]
      if byte == UInt8(ascii: "\\") && cursor + 1 < end && Self.isPunctuation(bytes[cursor + 1]) {
        cursor += 2
      } else if byte == UInt8(ascii: "(") {
        depth += 1
        cursor += 1
        if depth > 32 { return nil }
      } else if byte == UInt8(ascii: ")") {
        if depth == 0 { break }
        depth -= 1
        cursor += 1
      } else if Self.isSpace(byte) {
        if cursor == index { return nil }
        break
      } else {
        cursor += 1
      }
    }
    guard cursor < end else { return nil }
    return (index..<cursor, cursor)
  }

  /// A link title at `index` (`"…"`, `'…'` or `(…)`): the index after it,
  /// or nil. As re2c's longest match reads cmark's rule, a quote preceded
  /// by a backslash may be inside the title or close it.
  func title(at index: Int, memo: inout TitleScanMemo) -> Int? {
    let open = at(index)
    let kind: TitleScanMemo.Kind
    switch open {
    case UInt8(ascii: "\""): kind = .quote
    case UInt8(ascii: "'"): kind = .apostrophe
    case UInt8(ascii: "("): kind = .parenthesis
    default: return nil
    }
    let scan = memo.scan(kind, in: self, from: index)
    if scan.closes { return scan.stop + 1 }
    return scan.lastEscaped.map { $0 + 1 }
  }
}

/// Remembers the last title scan of each kind, so that many unclosed
/// titles in one paragraph are scanned in linear time: the answer from a
/// later start is the same stop and, if after that start, the same last
/// escaped closer.
struct TitleScanMemo {
  enum Kind: Int { case quote, apostrophe, parenthesis }

  private var known: [(from: Int, stop: Int, closes: Bool, lastEscaped: Int?)?] = [nil, nil, nil]

  /// From the opener at `from`: where the title's characters stop — on an
  /// unescaped closer (`closes`), or on an unescaped `(` in a parenthesized
  /// title, ill-formed UTF-8 or the end — and the last backslash-escaped
  /// closer before that.
  mutating func scan(_ kind: Kind, in syntax: LinkSyntax, from: Int) -> (stop: Int, closes: Bool, lastEscaped: Int?) {
    if let last = known[kind.rawValue], last.from <= from, from < last.stop {
      return (last.stop, last.closes, last.lastEscaped.flatMap { $0 > from ? $0 : nil })
    }
    let closer: UInt8 = kind == .quote ? 0x22 : kind == .apostrophe ? 0x27 : 0x29
    var index = from + 1
    var closes = false
    var lastEscaped: Int? = nil
    while index < syntax.end {
      let byte = syntax.bytes[index]
      if byte == closer || (kind == .parenthesis && byte == 0x28) {
        if syntax.bytes[index - 1] == UInt8(ascii: "\\") && index - 1 > from {
          if byte == closer { lastEscaped = index }
        } else {
          closes = byte == closer
          break
        }
      }
      guard let step = CharacterClasses.sequenceLength(syntax.bytes, at: index, end: syntax.end) else { break }
      index += step
    }
    known[kind.rawValue] = (from, index, closes, lastEscaped)
    return (index, closes, lastEscaped)
  }
}

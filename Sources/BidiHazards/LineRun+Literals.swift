import UnicodeBidi

// The lexer of `Lexer.swift`, continued. Literals: strings, characters, raw and prefixed strings.
extension LineRun {
  // MARK: Literals

  /// A string literal that starts with a prefix (`r"`, `b'`, `f"`, `R"(`, `$'`).
  mutating func stringPrefix(
    _ word: UnsafeBufferPointer<UInt8>, start: Int, end: Int, state: inout LexerState
  ) -> Int? {
    let next = at(end)
    guard next == ASCII.quote || next == ASCII.apostrophe || next == ASCII.hash else { return nil }
    let text = String(decoding: word, as: UTF8.self)
    if syntax.rubyDollarQuoteVariables, text == "$", next != ASCII.hash {
      return end + 1  // $' and $" are Ruby globals.
    }
    if syntax.pythonStringPrefixes, next != ASCII.hash {
      switch text.lowercased() {
      case "r", "u", "b", "f", "t", "br", "rb", "fr", "rf", "tr", "rt":
        return quote(at: end, prefixStart: start, prefix: Array(word), state: &state)
      default: return nil
      }
    }
    if syntax.rustStringPrefixes {
      switch text {
      case "b", "c":
        return next == ASCII.hash ? nil : quote(at: end, prefixStart: start, prefix: Array(word), state: &state)
      case "r", "br", "cr":
        var k = end
        while k < n, p[k] == ASCII.hash { k += 1 }
        guard at(k) == ASCII.quote else { return nil }
        let delimiter = StringDelimiter(quote: ASCII.quote, hashes: k - end, escapes: false, multiline: true)
        return string(from: k + 1, segment: open(.string, start), delimiter, state: &state)
      default: return nil
      }
    }
    if syntax.cppRawStrings, next == ASCII.quote {
      switch text {
      case "R", "u8R", "uR", "UR", "LR":
        return cppRawString(start: start, quoteAt: end, state: &state)
      default: return nil
      }
    }
    if syntax.shellDollarQuotes, text == "$", next == ASCII.apostrophe {
      let delimiter = StringDelimiter(quote: ASCII.apostrophe, escapes: true, multiline: true)
      return string(from: end + 1, segment: open(.string, start), delimiter, state: &state)
    }
    return nil
  }

  /// The interpolations of a literal opened by `quote` after `prefix`.
  func interpolation(quote: UInt8, prefix: [UInt8]) -> Interpolation {
    if syntax.pythonStringPrefixes {
      // f-strings and t-strings (`f"`, `rf'`, `T"""`).
      return prefix.contains { $0 | 0x20 == 0x66 || $0 | 0x20 == 0x74 } ? .brace : .none
    }
    switch quote {
    case ASCII.quote: return syntax.doubleQuoteInterpolation
    case ASCII.backtick: return syntax.backtickInterpolation
    default: return .none
    }
  }

  /// Starts the literal whose quote is at `i`, or returns nil if the quote
  /// starts nothing in this language.
  mutating func quote(at i: Int, prefixStart: Int, prefix: [UInt8], state: inout LexerState) -> Int? {
    let b = p[i]
    let interpolation = interpolation(quote: b, prefix: prefix)
    switch b {
    case ASCII.quote:
      return openString(start: prefixStart, quoteAt: i, hashes: 0, interpolation: interpolation, state: &state)
    case ASCII.apostrophe:
      let delimiter: StringDelimiter
      switch syntax.singleQuote {
      case .none:
        return nil
      case .character:
        delimiter = StringDelimiter(quote: b)
      case .characterOrLifetime:
        if at(i + 1) != ASCII.backslash && prefix.isEmpty {
          guard i + 1 < n else { return nil }
          let decoded = UTF8Decoder.decode(p, at: i + 1)
          guard at(i + 1 + decoded.length) == ASCII.apostrophe else { return nil }  // a lifetime or label
        }
        delimiter = StringDelimiter(quote: b)
      case .string(let escapes, let multiline):
        if syntax.tripleSingleQuotes, at(i + 1) == b, at(i + 2) == b {
          let delimiter = StringDelimiter(
            quote: b, quoteCount: 3, escapes: escapes, multiline: true, interpolation: interpolation)
          return string(from: i + 3, segment: open(.string, prefixStart), delimiter, state: &state)
        }
        delimiter = StringDelimiter(quote: b, escapes: escapes, multiline: multiline, interpolation: interpolation)
      }
      return string(from: i + 1, segment: open(.string, prefixStart), delimiter, state: &state)
    case ASCII.backtick:
      let delimiter: StringDelimiter
      switch syntax.backtick {
      case .none:
        return nil
      case .raw:
        delimiter = StringDelimiter(quote: b, escapes: false, multiline: true)
      case .template:
        delimiter = StringDelimiter(quote: b, escapes: true, multiline: true, interpolation: interpolation)
      }
      return string(from: i + 1, segment: open(.string, prefixStart), delimiter, state: &state)
    default:
      return nil
    }
  }

  /// A double-quoted literal whose quote is at `quoteAt`, after `hashes` `#`.
  mutating func openString(
    start: Int, quoteAt q: Int, hashes: Int, interpolation: Interpolation, state: inout LexerState
  ) -> Int {
    let segment = open(.string, start)
    if syntax.tripleDoubleQuotes, at(q + 1) == ASCII.quote, at(q + 2) == ASCII.quote {
      let delimiter = StringDelimiter(
        quote: ASCII.quote, quoteCount: 3, hashes: hashes, multiline: true, interpolation: interpolation)
      return string(from: q + 3, segment: segment, delimiter, state: &state)
    }
    let delimiter = StringDelimiter(
      quote: ASCII.quote, hashes: hashes, multiline: syntax.doubleQuoteMultiline, interpolation: interpolation)
    return string(from: q + 1, segment: segment, delimiter, state: &state)
  }

  /// `R"delim( ... )delim"`; a malformed delimiter makes an ordinary string.
  mutating func cppRawString(start: Int, quoteAt q: Int, state: inout LexerState) -> Int {
    var k = q + 1
    var delimiter: [UInt8] = []
    while k < n, p[k] != ASCII.openParen, delimiter.count <= 16 {
      let c = p[k]
      if c == ASCII.space || c == ASCII.backslash || c == ASCII.closeParen || c == ASCII.quote || c < 0x20 {
        break
      }
      delimiter.append(c)
      k += 1
    }
    guard at(k) == ASCII.openParen, delimiter.count <= 16 else {
      return openString(start: start, quoteAt: q, hashes: 0, interpolation: .none, state: &state)
    }
    let d = StringDelimiter(quote: ASCII.quote, escapes: false, multiline: true, rawDelimiter: delimiter)
    return string(from: k + 1, segment: open(.string, start), d, state: &state)
  }

  /// Ruby `%q(…)`, `%Q[…]`, `%w{…}`, `%(…)` and the like, when `%` is at
  /// `i` where a value is expected (else it is the modulo operator).
  mutating func percentLiteral(at i: Int, state: inout LexerState) -> Int? {
    func isDelimiter(_ c: UInt8) -> Bool {
      c > ASCII.space && c < 0x7F && !isASCIIIdentifierByte(c)
    }
    var k = i + 1
    var type: UInt8 = 0
    switch at(k) {
    case 0x71, 0x51, 0x77, 0x57, 0x69, 0x49, 0x72, 0x73, 0x78:  // q Q w W i I r s x
      if isDelimiter(at(k + 1)) {
        type = p[k]
        k += 1
      }
    default: break
    }
    let open = at(k)
    guard isDelimiter(open) else { return nil }
    if i > 0 {
      // `a%w[1]` and `x%(y)` are modulo.
      let before = p[i - 1]
      if isASCIIIdentifierByte(before) || before == ASCII.closeParen || before == ASCII.closeBracket
        || before == ASCII.closeBrace
      {
        return nil
      }
    }
    if type == 0 {
      switch open {
      case ASCII.openParen, ASCII.openBracket, ASCII.openBrace, ASCII.less, ASCII.bar, ASCII.bang, ASCII.slash,
        ASCII.caret:
        break
      default: return nil
      }
      // `puts %(x)` but not `x % (y)`: after an operator, or after a word
      // and a space.
      let afterSpace = i > 0 && (p[i - 1] == ASCII.space || p[i - 1] == ASCII.tab)
      guard regexAllowed || (afterSpace && lastSignificant == 0x61) else { return nil }
    }
    let close: UInt8
    switch open {
    case ASCII.openParen: close = ASCII.closeParen
    case ASCII.openBracket: close = ASCII.closeBracket
    case ASCII.openBrace: close = ASCII.closeBrace
    case ASCII.less: close = ASCII.greater
    default: close = open
    }
    let interpolates: Bool
    switch type {
    case 0, 0x51, 0x57, 0x49, 0x72, 0x78: interpolates = true  // % Q W I r x
    default: interpolates = false
    }
    let delimiter = StringDelimiter(
      quote: close, openBracket: close == open ? 0 : open, escapes: true, multiline: true,
      interpolation: interpolates ? .hashBrace : .none)
    return string(from: k + 1, segment: self.open(.string, i), delimiter, state: &state)
  }

  /// Scans a string body from `from` (the literal's segment already open);
  /// returns the offset after the literal, after the opener of an
  /// interpolation (whose code follows), or the line's end.
  mutating func string(from: Int, segment: Int, _ delimiter: StringDelimiter, state: inout LexerState) -> Int {
    var d = delimiter
    var j = from
    while j < n {
      let b = p[j]
      if d.escapes, b == ASCII.backslash {
        var k = j + 1
        if d.hashes > 0 {
          var h: Int32 = 0
          while k < n, p[k] == ASCII.hash, h < d.hashes {
            h += 1
            k += 1
          }
          if h < d.hashes {
            j += 1
            continue
          }
        }
        if k >= n {
          // A backslash at the end of the line continues the literal.
          close(segment, end: n, contentEnd: j, endsOnLine: false)
          state.mode = .string(d)
          lastSignificant = ASCII.quote
          return n
        }
        if d.interpolation == .backslashParen, p[k] == ASCII.openParen {
          if let next = openInterpolation(segment, d, at: j, codeFrom: k + 1, closer: ASCII.closeParen, state: &state) {
            return next
          }
        }
        // In a Python f-string, `\{` is a backslash and a field.
        j = d.interpolation == .brace && p[k] == ASCII.openBrace ? k : k + 1
        continue
      }
      if d.interpolation == .brace, b == ASCII.openBrace, at(j + 1) == ASCII.openBrace {
        j += 2  // `{{` is a brace.
        continue
      }
      if d.interpolation != .none, b == ASCII.dollar || b == ASCII.hash || b == ASCII.openBrace,
        let next = interpolationStart(segment, d, at: j, state: &state)
      {
        return next
      }
      if let raw = d.rawDelimiter {
        if b == ASCII.closeParen, matches(raw, at: j + 1), at(j + 1 + raw.count) == ASCII.quote {
          return closeString(segment, contentEnd: j, end: j + 2 + raw.count, state: &state)
        }
      } else if d.openBracket != 0, b == d.openBracket {
        if d.nesting < Int32.max { d.nesting += 1 }
      } else if b == d.quote {
        if d.nesting > 0 {
          d.nesting -= 1
          j += 1
          continue
        }
        var k = j + 1
        var quotes: Int8 = 1
        while quotes < d.quoteCount, at(k) == d.quote {
          quotes += 1
          k += 1
        }
        var h: Int32 = 0
        while h < d.hashes, at(k) == ASCII.hash {
          h += 1
          k += 1
        }
        if quotes == d.quoteCount, h == d.hashes {
          return closeString(segment, contentEnd: j, end: k, state: &state)
        }
      }
      j += 1
    }
    close(segment, end: n, contentEnd: n, endsOnLine: !d.multiline)
    state.mode = d.multiline ? .string(d) : .code
    lastSignificant = ASCII.quote
    return n
  }

  mutating func closeString(_ segment: Int, contentEnd: Int, end: Int, state: inout LexerState) -> Int {
    close(segment, end: end, contentEnd: contentEnd, endsOnLine: true)
    state.mode = .code
    lastSignificant = ASCII.quote
    lastWordAllowsRegex = false
    return end
  }

  func matches(_ bytes: [UInt8], at i: Int) -> Bool {
    guard i + bytes.count <= n else { return false }
    for k in 0..<bytes.count where p[i + k] != bytes[k] { return false }
    return true
  }

  func matches(_ delimiter: RawDelimiter, at i: Int) -> Bool {
    guard i + delimiter.count <= n else { return false }
    for k in 0..<delimiter.count where p[i + k] != delimiter[k] { return false }
    return true
  }
}

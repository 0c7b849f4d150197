import UnicodeBidi

// The lexer of `Lexer.swift`, continued. Code: the bytes outside comments and literals.
extension LineRun {
  // MARK: Code

  mutating func code(from start: Int, state: inout LexerState) {
    var i = start
    if i == 0, frame == nil, syntax.rubyBlockComments, startsWithDirective("=begin") {
      add(.comment, 0, n, contentEnd: n, endsOnLine: false)
      state.mode = .rubyBlockComment
      return
    }
    while i < n {
      if frame?.inFormatSpec == true {
        i = formatSpec(from: i, state: &state)
        continue
      }
      let b = p[i]
      if b == ASCII.space || b == ASCII.tab || b == 0x0B || b == 0x0C || b == 0x0D {
        i += 1
        continue
      }
      if frame != nil, let next = interpolationBracket(b, at: i, state: &state) {
        i = next
        continue
      }
      if syntax.slashComments, b == ASCII.slash {
        let next = at(i + 1)
        if next == ASCII.slash {
          add(.comment, i, n, contentEnd: n, endsOnLine: true)
          return
        }
        if next == ASCII.star {
          i = blockComment(from: i + 2, start: i, depth: 1, state: &state)
          lastSignificant = 0
          continue
        }
      }
      // (No comments in the fields of Python f-strings, where `#` is
      // a format flag.)
      if syntax.hashComments, b == ASCII.hash, !syntax.hashCommentsOnlyAtWordStart || isWordStart(i),
        frame?.delimiter.interpolation != .brace
      {
        add(.comment, i, n, contentEnd: n, endsOnLine: true)
        return
      }
      if syntax.javascriptRegexes, b == ASCII.slash, regexAllowed {
        i = regex(from: i)
        continue
      }
      if syntax.swiftRawStrings, b == ASCII.hash {
        var k = i
        while k < n, p[k] == ASCII.hash { k += 1 }
        if at(k) == ASCII.quote {
          i = openString(start: i, quoteAt: k, hashes: k - i, interpolation: .backslashParen, state: &state)
          continue
        }
        i = k
        lastSignificant = ASCII.hash
        continue
      }
      if b == ASCII.quote || b == ASCII.apostrophe || b == ASCII.backtick {
        if let next = quote(at: i, prefixStart: i, prefix: [], state: &state) {
          i = next
          continue
        }
        i += 1
        lastSignificant = b
        continue
      }
      if b == ASCII.less, at(i + 1) == ASCII.less, let next = hereDocument(at: i, state: &state) {
        i = next
        continue
      }
      if b == ASCII.percent, syntax.rubyPercentLiterals, let next = percentLiteral(at: i, state: &state) {
        i = next
        continue
      }
      if syntax.shellBackslash, b == ASCII.backslash {
        i += 2
        continue
      }
      if b >= 0x80 || isASCIIIdentifierByte(b) {
        i = identifier(from: i, state: &state)
        continue
      }
      lastSignificant = b
      lastWordAllowsRegex = false
      i += 1
    }
  }

  func isWordStart(_ i: Int) -> Bool {
    guard i > 0 else { return true }
    switch p[i - 1] {
    case ASCII.space, ASCII.tab, 0x3B, 0x26, 0x7C, ASCII.openParen, ASCII.closeParen, 0x0D: return true
    default: return false
    }
  }

  var regexAllowed: Bool {
    if lastWordAllowsRegex { return true }
    switch lastSignificant {
    case 0, ASCII.openParen, 0x2C, ASCII.equals, 0x3A, ASCII.openBracket, 0x21, 0x26, 0x7C, 0x3F, 0x7B, 0x7D,
      0x3B, 0x2B, 0x2D, ASCII.star, 0x25, 0x3C, 0x3E, 0x7E, 0x5E:
      return true
    default:
      return false
    }
  }

  /// A run of identifier characters and bidi controls. Controls inside a
  /// run that has an identifier character make an identifier segment.
  mutating func identifier(from start: Int, state: inout LexerState) -> Int {
    var j = start
    var hasIdentifier = false
    var hasControl = false
    let numeric = p[start] >= 0x30 && p[start] <= 0x39
    while j < n {
      let b = p[j]
      if b < 0x80 {
        if isASCIIIdentifierByte(b) {
          hasIdentifier = true
          j += 1
          continue
        }
        if syntax.digitSeparatorQuote, numeric, b == ASCII.apostrophe, isASCIIIdentifierByte(at(j + 1)) {
          j += 1
          continue
        }
        break
      }
      if let control = BidiControl.decode(p, at: j) {
        hasControl = true
        j += control.utf8Count
        continue
      }
      let decoded = UTF8Decoder.decode(p, at: j)
      if decoded.isValid, isIdentifierScalar(decoded.value) {
        hasIdentifier = true
        j += decoded.length
        continue
      }
      if j == start {
        // A non-identifier character (space, punctuation, invalid byte).
        lastSignificant = 0x21
        return j + decoded.length
      }
      break
    }
    if hasIdentifier && hasControl {
      add(.identifier, start, j, contentEnd: j, endsOnLine: true)
    }
    guard hasIdentifier else { return j }
    lastSignificant = 0x61
    lastWordAllowsRegex = false
    if !hasControl {
      let word = UnsafeBufferPointer(rebasing: p[start..<j])
      if let next = stringPrefix(word, start: start, end: j, state: &state) { return next }
      if syntax.javascriptRegexes { lastWordAllowsRegex = isRegexKeyword(word) }
    }
    return j
  }

  /// Keywords after which `/` starts a regular expression, not a division.
  static let regexKeywords: [[UInt8]] = [
    "return", "typeof", "case", "yield", "await", "in", "of", "instanceof", "new", "delete", "void", "throw",
    "else", "do",
  ].map { Array($0.utf8) }

  func isRegexKeyword(_ word: UnsafeBufferPointer<UInt8>) -> Bool {
    guard word.count >= 2, word.count <= 10, word[0] >= 0x61 else { return false }
    return Self.regexKeywords.contains { $0.elementsEqual(word) }
  }
}

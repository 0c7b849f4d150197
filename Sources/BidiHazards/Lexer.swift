/// The lexical features of one language family, as far as hazard detection
/// needs them: comments, string literals and identifiers. No parser.
struct Syntax: Sendable {
  enum SingleQuote: Sendable {
    /// `'` is an ordinary character (Swift).
    case none
    /// Character literals on one line (C, Java, Go).
    case character
    /// Character literals or lifetimes (Rust).
    case characterOrLifetime
    /// String literals.
    case string(escapes: Bool, multiline: Bool)
  }

  enum Backtick: Sendable {
    case none
    /// Go raw strings: no escapes, multi-line.
    case raw
    /// JavaScript template literals and Ruby commands: escapes, multi-line.
    case template
  }

  var slashComments = false
  var nestedBlockComments = false
  var hashComments = false
  var hashCommentsOnlyAtWordStart = false
  var rubyBlockComments = false
  var doubleQuoteMultiline = false
  var singleQuote = SingleQuote.none
  var backtick = Backtick.none
  /// `"""` strings (Swift, Java; both quotes in Python).
  var tripleDoubleQuotes = false
  var tripleSingleQuotes = false
  var swiftRawStrings = false
  var rustStringPrefixes = false
  var cppRawStrings = false
  var pythonStringPrefixes = false
  var javascriptRegexes = false
  var shellDollarQuotes = false
  var shellBackslash = false
  var rubyDollarQuoteVariables = false
  var digitSeparatorQuote = false

  init(_ language: SourceLanguage) {
    switch language {
    case .c, .cpp, .objectiveC, .objectiveCpp:
      slashComments = true
      singleQuote = .character
      cppRawStrings = language == .cpp || language == .objectiveCpp
      digitSeparatorQuote = cppRawStrings
    case .java:
      slashComments = true
      singleQuote = .character
      tripleDoubleQuotes = true
    case .go:
      slashComments = true
      singleQuote = .character
      backtick = .raw
    case .javascript, .typescript:
      slashComments = true
      singleQuote = .string(escapes: true, multiline: false)
      backtick = .template
      javascriptRegexes = true
    case .swift:
      slashComments = true
      nestedBlockComments = true
      tripleDoubleQuotes = true
      swiftRawStrings = true
    case .rust:
      slashComments = true
      nestedBlockComments = true
      doubleQuoteMultiline = true
      singleQuote = .characterOrLifetime
      rustStringPrefixes = true
    case .python:
      hashComments = true
      singleQuote = .string(escapes: true, multiline: false)
      tripleDoubleQuotes = true
      tripleSingleQuotes = true
      pythonStringPrefixes = true
    case .ruby:
      hashComments = true
      rubyBlockComments = true
      doubleQuoteMultiline = true
      singleQuote = .string(escapes: true, multiline: true)
      backtick = .template
      rubyDollarQuoteVariables = true
    case .shell:
      hashComments = true
      hashCommentsOnlyAtWordStart = true
      doubleQuoteMultiline = true
      singleQuote = .string(escapes: false, multiline: true)
      shellDollarQuotes = true
      shellBackslash = true
    }
  }
}

/// A part of a line that is not plain code: a comment, a string literal, or
/// an identifier that contains bidi controls.
struct Segment: Sendable, Hashable {
  enum Kind: Sendable, Hashable {
    case comment
    case string
    case identifier
  }

  var kind: Kind
  /// Byte offsets of the segment within the line.
  var start: Int
  var end: Int
  /// Where closers go to close a control before the segment ends: before
  /// `*/`, before the closing quote, or at the end of the line.
  var contentEnd: Int
  /// Whether the comment or literal ends on this line (false if it goes on
  /// to the next line).
  var endsOnLine: Bool
}

private enum ASCII {
  static let tab: UInt8 = 0x09
  static let space: UInt8 = 0x20
  static let quote: UInt8 = 0x22
  static let hash: UInt8 = 0x23
  static let dollar: UInt8 = 0x24
  static let apostrophe: UInt8 = 0x27
  static let openParen: UInt8 = 0x28
  static let closeParen: UInt8 = 0x29
  static let star: UInt8 = 0x2A
  static let slash: UInt8 = 0x2F
  static let equals: UInt8 = 0x3D
  static let openBracket: UInt8 = 0x5B
  static let backslash: UInt8 = 0x5C
  static let closeBracket: UInt8 = 0x5D
  static let underscore: UInt8 = 0x5F
  static let backtick: UInt8 = 0x60
}

@inline(__always)
func isASCIIIdentifierByte(_ b: UInt8) -> Bool {
  (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39) || b == ASCII.underscore
    || b == ASCII.dollar
}

/// Whether a non-ASCII scalar can be part of an identifier: letters, marks
/// and digits of any script. Without Unicode tables this is approximate: it
/// rejects spaces, punctuation and symbols of the common blocks.
func isIdentifierScalar(_ value: UInt32) -> Bool {
  switch value {
  case 0x85, 0xA0...0xA9, 0xAB...0xB4, 0xB6...0xB9, 0xBB...0xBF, 0xD7, 0xF7: return false
  case 0x037E, 0x0387, 0x055A...0x055F, 0x0589, 0x058A, 0x05BE, 0x05C0, 0x05C3, 0x05C6, 0x05F3, 0x05F4: return false
  case 0x0600...0x060F, 0x061B...0x061F, 0x066A...0x066D, 0x06D4: return false
  case 0x1680, 0x2000...0x203E, 0x2041...0x2053, 0x2055...0x206F: return false
  case 0x2190...0x2BFF, 0x3000...0x3003, 0x3008...0x3011, 0xFE10...0xFE19, 0xFE30...0xFE4F, 0xFEFF: return false
  case 0xFF01...0xFF0F, 0xFF1A...0xFF20, 0xFFF9...0xFFFD: return false
  default: return value >= 0x80
  }
}

/// A lightweight tokenizer: finds the comments, string literals and
/// identifiers of a line, continuing from the state the previous line left.
struct Lexer {
  let syntax: Syntax

  /// Lexes `line` starting in `state`, leaves the state at the line's end in
  /// `state`, and (when `record` is true) appends the line's comment, string
  /// and control-bearing identifier segments to `segments`, in order.
  func lex(_ line: UnsafeBufferPointer<UInt8>, state: inout LexerState, segments: inout [Segment], record: Bool) {
    var run = LineRun(line: line, syntax: syntax, record: record)
    run.lex(state: &state)
    if record { segments += run.segments }
  }
}

/// The work of lexing one line.
private struct LineRun {
  let p: UnsafeBufferPointer<UInt8>
  let n: Int
  let syntax: Syntax
  let record: Bool
  var segments: [Segment] = []
  /// The last significant code byte (0 at the line start), for the
  /// JavaScript regex-or-division guess.
  var lastSignificant: UInt8 = 0
  var lastWordAllowsRegex = false

  init(line: UnsafeBufferPointer<UInt8>, syntax: Syntax, record: Bool) {
    self.p = line
    self.n = line.count
    self.syntax = syntax
    self.record = record
  }

  mutating func add(_ kind: Segment.Kind, _ start: Int, _ end: Int, contentEnd: Int, endsOnLine: Bool) {
    guard record else { return }
    segments.append(Segment(kind: kind, start: start, end: end, contentEnd: contentEnd, endsOnLine: endsOnLine))
  }

  func at(_ i: Int) -> UInt8 {
    i < n ? p[i] : 0
  }

  mutating func lex(state: inout LexerState) {
    var i = 0
    switch state.mode {
    case .code:
      break
    case .blockComment(let depth):
      i = blockComment(from: 0, start: 0, depth: depth, state: &state)
    case .rubyBlockComment:
      let ends = startsWithDirective("=end")
      add(.comment, 0, n, contentEnd: n, endsOnLine: ends)
      if ends { state.mode = .code }
      return
    case .string(let delimiter):
      i = string(from: 0, start: 0, delimiter, state: &state)
    }
    code(from: i, state: &state)
  }

  /// Whether the line starts with `word` followed by a space or its end.
  func startsWithDirective(_ word: StaticString) -> Bool {
    let count = word.utf8CodeUnitCount
    guard n >= count else { return false }
    for k in 0..<count where p[k] != word.utf8Start[k] { return false }
    return n == count || p[count] == ASCII.space || p[count] == ASCII.tab || p[count] == 0x0D
  }

  mutating func code(from start: Int, state: inout LexerState) {
    var i = start
    if i == 0, syntax.rubyBlockComments, startsWithDirective("=begin") {
      add(.comment, 0, n, contentEnd: n, endsOnLine: false)
      state.mode = .rubyBlockComment
      return
    }
    while i < n {
      let b = p[i]
      if b == ASCII.space || b == ASCII.tab || b == 0x0B || b == 0x0C || b == 0x0D {
        i += 1
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
      if syntax.hashComments, b == ASCII.hash, !syntax.hashCommentsOnlyAtWordStart || isWordStart(i) {
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
          i = openString(start: i, quoteAt: k, hashes: k - i, state: &state)
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
      let decoded = decodeScalar(p, at: j)
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

  /// A string literal that starts with a prefix (`r"`, `b'`, `R"(`, `$'`).
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
        return string(from: k + 1, start: start, delimiter, state: &state)
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
      return string(from: end + 1, start: start, delimiter, state: &state)
    }
    return nil
  }

  /// Starts the literal whose quote is at `i`, or returns nil if the quote
  /// starts nothing in this language.
  mutating func quote(at i: Int, prefixStart: Int, prefix: [UInt8], state: inout LexerState) -> Int? {
    let b = p[i]
    switch b {
    case ASCII.quote:
      return openString(start: prefixStart, quoteAt: i, hashes: 0, state: &state)
    case ASCII.apostrophe:
      switch syntax.singleQuote {
      case .none:
        return nil
      case .character:
        return string(from: i + 1, start: prefixStart, StringDelimiter(quote: b), state: &state)
      case .characterOrLifetime:
        if at(i + 1) == ASCII.backslash || !prefix.isEmpty {
          return string(from: i + 1, start: prefixStart, StringDelimiter(quote: b), state: &state)
        }
        guard i + 1 < n else { return nil }
        let decoded = decodeScalar(p, at: i + 1)
        guard at(i + 1 + decoded.length) == ASCII.apostrophe else { return nil }  // a lifetime or label
        return string(from: i + 1, start: prefixStart, StringDelimiter(quote: b), state: &state)
      case .string(let escapes, let multiline):
        if syntax.tripleSingleQuotes, at(i + 1) == b, at(i + 2) == b {
          let delimiter = StringDelimiter(quote: b, quoteCount: 3, escapes: escapes, multiline: true)
          return string(from: i + 3, start: prefixStart, delimiter, state: &state)
        }
        let delimiter = StringDelimiter(quote: b, escapes: escapes, multiline: multiline)
        return string(from: i + 1, start: prefixStart, delimiter, state: &state)
      }
    case ASCII.backtick:
      switch syntax.backtick {
      case .none:
        return nil
      case .raw:
        let delimiter = StringDelimiter(quote: b, escapes: false, multiline: true)
        return string(from: i + 1, start: prefixStart, delimiter, state: &state)
      case .template:
        let delimiter = StringDelimiter(quote: b, escapes: true, multiline: true)
        return string(from: i + 1, start: prefixStart, delimiter, state: &state)
      }
    default:
      return nil
    }
  }

  /// A double-quoted literal whose quote is at `quoteAt`, after `hashes` `#`.
  mutating func openString(start: Int, quoteAt q: Int, hashes: Int, state: inout LexerState) -> Int {
    if syntax.tripleDoubleQuotes, at(q + 1) == ASCII.quote, at(q + 2) == ASCII.quote {
      let delimiter = StringDelimiter(quote: ASCII.quote, quoteCount: 3, hashes: hashes, multiline: true)
      return string(from: q + 3, start: start, delimiter, state: &state)
    }
    let delimiter = StringDelimiter(quote: ASCII.quote, hashes: hashes, multiline: syntax.doubleQuoteMultiline)
    return string(from: q + 1, start: start, delimiter, state: &state)
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
      return openString(start: start, quoteAt: q, hashes: 0, state: &state)
    }
    let d = StringDelimiter(quote: ASCII.quote, escapes: false, multiline: true, rawDelimiter: delimiter)
    return string(from: k + 1, start: start, d, state: &state)
  }

  /// Scans a string body from `from`; returns the offset after the literal
  /// (or the line's end).
  mutating func string(from: Int, start: Int, _ d: StringDelimiter, state: inout LexerState) -> Int {
    var j = from
    while j < n {
      let b = p[j]
      if d.escapes, b == ASCII.backslash {
        var k = j + 1
        if d.hashes > 0 {
          var h = 0
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
          add(.string, start, n, contentEnd: j, endsOnLine: false)
          state.mode = .string(d)
          lastSignificant = ASCII.quote
          return n
        }
        j = k + 1
        continue
      }
      if let raw = d.rawDelimiter {
        if b == ASCII.closeParen, matches(raw, at: j + 1), at(j + 1 + raw.count) == ASCII.quote {
          return closeString(start: start, contentEnd: j, end: j + 2 + raw.count, state: &state)
        }
      } else if b == d.quote {
        var k = j + 1
        var quotes = 1
        while quotes < d.quoteCount, at(k) == d.quote {
          quotes += 1
          k += 1
        }
        var h = 0
        while h < d.hashes, at(k) == ASCII.hash {
          h += 1
          k += 1
        }
        if quotes == d.quoteCount, h == d.hashes {
          return closeString(start: start, contentEnd: j, end: k, state: &state)
        }
      }
      j += 1
    }
    add(.string, start, n, contentEnd: n, endsOnLine: !d.multiline)
    state.mode = d.multiline ? .string(d) : .code
    lastSignificant = ASCII.quote
    return n
  }

  mutating func closeString(start: Int, contentEnd: Int, end: Int, state: inout LexerState) -> Int {
    add(.string, start, end, contentEnd: contentEnd, endsOnLine: true)
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

  /// Scans a block comment body from `from`, at nesting `depth`.
  mutating func blockComment(from: Int, start: Int, depth: Int, state: inout LexerState) -> Int {
    var j = from
    var depth = depth
    while j + 1 < n {
      if p[j] == ASCII.star, p[j + 1] == ASCII.slash {
        depth -= 1
        if depth == 0 {
          add(.comment, start, j + 2, contentEnd: j, endsOnLine: true)
          state.mode = .code
          return j + 2
        }
        j += 2
        continue
      }
      if syntax.nestedBlockComments, p[j] == ASCII.slash, p[j + 1] == ASCII.star {
        depth += 1
        j += 2
        continue
      }
      j += 1
    }
    add(.comment, start, n, contentEnd: n, endsOnLine: false)
    state.mode = .blockComment(depth: depth)
    return n
  }

  /// A JavaScript regular expression literal (one line); its body counts as
  /// a string literal.
  mutating func regex(from start: Int) -> Int {
    var j = start + 1
    var inClass = false
    while j < n {
      let b = p[j]
      if b == ASCII.backslash {
        j += 2
        continue
      }
      if b == ASCII.openBracket {
        inClass = true
      } else if b == ASCII.closeBracket {
        inClass = false
      } else if b == ASCII.slash, !inClass {
        add(.string, start, j + 1, contentEnd: j, endsOnLine: true)
        lastSignificant = ASCII.quote
        lastWordAllowsRegex = false
        return j + 1
      }
      j += 1
    }
    add(.string, start, n, contentEnd: n, endsOnLine: true)
    return n
  }
}

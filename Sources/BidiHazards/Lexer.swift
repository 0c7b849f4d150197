import UnicodeBidi

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
  var rubyPercentLiterals = false
  var digitSeparatorQuote = false
  /// The interpolations of `"` and `` ` `` literals.
  var doubleQuoteInterpolation = Interpolation.none
  var backtickInterpolation = Interpolation.none
  var hereDocuments = HereDocumentSyntax.none

  enum HereDocumentSyntax: Sendable {
    case none
    /// `<<EOF`, `<<-EOF` (tabs before the terminator), `<<'EOF'`.
    case shell
    /// `<<EOS`, `<<-EOS` and `<<~EOS` (indented terminator), quoted words.
    case ruby
  }

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
      backtickInterpolation = .dollarBrace
      javascriptRegexes = true
    case .swift:
      slashComments = true
      nestedBlockComments = true
      tripleDoubleQuotes = true
      swiftRawStrings = true
      doubleQuoteInterpolation = .backslashParen
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
      rubyPercentLiterals = true
      doubleQuoteInterpolation = .hashBrace
      backtickInterpolation = .hashBrace
      hereDocuments = .ruby
    case .shell:
      hashComments = true
      hashCommentsOnlyAtWordStart = true
      doubleQuoteMultiline = true
      singleQuote = .string(escapes: false, multiline: true)
      shellDollarQuotes = true
      shellBackslash = true
      doubleQuoteInterpolation = .shell
      hereDocuments = .shell
    }
  }
}

/// A part of a line that is not plain code: a comment, a string literal, the
/// code of an interpolation inside a literal, or an identifier that contains
/// bidi controls.
///
/// A line's segments nest (an interpolation lies inside its literal, and
/// literals, comments and identifiers inside an interpolation) and come in
/// pre-order: by start, each before the segments it holds.
struct Segment: Sendable, Hashable {
  enum Kind: Sendable, Hashable {
    case comment
    case string
    case interpolation
    case identifier
  }

  var kind: Kind
  /// Byte offsets of the segment within the line.
  var start: Int
  var end: Int
  /// Where closers go to close a control before the segment ends: before
  /// `*/`, before the closing quote or bracket, or at the end of the line.
  var contentEnd: Int
  /// Whether the comment or literal ends on this line (false if it goes on
  /// to the next line).
  var endsOnLine: Bool
}

private enum ASCII {
  static let tab: UInt8 = 0x09
  static let space: UInt8 = 0x20
  static let bang: UInt8 = 0x21
  static let quote: UInt8 = 0x22
  static let hash: UInt8 = 0x23
  static let dollar: UInt8 = 0x24
  static let percent: UInt8 = 0x25
  static let apostrophe: UInt8 = 0x27
  static let openParen: UInt8 = 0x28
  static let closeParen: UInt8 = 0x29
  static let star: UInt8 = 0x2A
  static let minus: UInt8 = 0x2D
  static let slash: UInt8 = 0x2F
  static let colon: UInt8 = 0x3A
  static let less: UInt8 = 0x3C
  static let equals: UInt8 = 0x3D
  static let greater: UInt8 = 0x3E
  static let openBracket: UInt8 = 0x5B
  static let backslash: UInt8 = 0x5C
  static let closeBracket: UInt8 = 0x5D
  static let caret: UInt8 = 0x5E
  static let underscore: UInt8 = 0x5F
  static let backtick: UInt8 = 0x60
  static let openBrace: UInt8 = 0x7B
  static let bar: UInt8 = 0x7C
  static let closeBrace: UInt8 = 0x7D
  static let tilde: UInt8 = 0x7E
}

@inline(__always)
func isASCIIIdentifierByte(_ b: UInt8) -> Bool {
  (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39) || b == ASCII.underscore
    || b == ASCII.dollar
}

@inline(__always)
private func isASCIILetterOrUnderscore(_ b: UInt8) -> Bool {
  (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || b == ASCII.underscore
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
/// One pass over the line, no backtracking beyond a delimiter's length.
struct Lexer {
  let syntax: Syntax

  /// Lexes `line` starting in `state`, leaves the state at the line's end in
  /// `state`, and (when `record` is true) appends the line's segments to
  /// `segments`, in pre-order.
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
  /// The innermost interpolation the lexer is in; the ones around it are
  /// in the state's `frames` (kept apart: a line whose interpolations open
  /// and close on it allocates nothing for them).
  var frame: InterpolationFrame?
  /// Here-documents announced on the line: their bodies follow it.
  var hereDocuments: [HereDocument] = []
  /// The last significant code byte (0 at the line start), for the
  /// JavaScript regex-or-division guess.
  var lastSignificant: UInt8 = 0
  var lastWordAllowsRegex = false

  /// Interpolations nest at most this deep; deeper, an opener is text.
  static let maximumFrames = 32
  /// Here-document words longer than this are not recognized.
  static let maximumHereDocumentWord = 128

  init(line: UnsafeBufferPointer<UInt8>, syntax: Syntax, record: Bool) {
    self.p = line
    self.n = line.count
    self.syntax = syntax
    self.record = record
  }

  // MARK: Segments

  /// Adds a segment that holds nothing (a comment, an identifier).
  mutating func add(_ kind: Segment.Kind, _ start: Int, _ end: Int, contentEnd: Int, endsOnLine: Bool) {
    guard record else { return }
    segments.append(Segment(kind: kind, start: start, end: end, contentEnd: contentEnd, endsOnLine: endsOnLine))
  }

  /// Opens a segment that may hold others (a literal, an interpolation);
  /// `close` sets its end. Returns its index, or -1 when not recording.
  mutating func open(_ kind: Segment.Kind, _ start: Int) -> Int {
    guard record else { return -1 }
    segments.append(Segment(kind: kind, start: start, end: n, contentEnd: n, endsOnLine: false))
    return segments.count - 1
  }

  mutating func close(_ index: Int, end: Int, contentEnd: Int, endsOnLine: Bool) {
    guard index >= 0 else { return }
    segments[index].end = end
    segments[index].contentEnd = contentEnd
    segments[index].endsOnLine = endsOnLine
  }

  func at(_ i: Int) -> UInt8 {
    i < n ? p[i] : 0
  }

  // MARK: Lines

  mutating func lex(state: inout LexerState) {
    // The literals and interpolations the line starts in.
    if !state.frames.isEmpty {
      for k in state.frames.indices {
        state.frames[k].stringSegment = Int32(open(.string, 0))
        state.frames[k].interpolationSegment = Int32(open(.interpolation, 0))
      }
      frame = state.frames.removeLast()
    }
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
    case .hereDocuments(let documents):
      guard let document = documents.first else {
        state.mode = .code
        break
      }
      if isTerminator(of: document) {
        // The terminator line holds nothing but the word.
        state.mode = documents.count == 1 ? .code : .hereDocuments(Array(documents.dropFirst()))
      } else {
        add(.string, 0, n, contentEnd: n, endsOnLine: false)
      }
      return
    case .string(let delimiter):
      i = string(from: 0, segment: open(.string, 0), delimiter, state: &state)
    }
    code(from: i, state: &state)
    endLine(state: &state)
  }

  /// Closes what the line leaves open; a literal that cannot span lines
  /// ends here with everything inside it.
  mutating func endLine(state: inout LexerState) {
    if let frame {
      state.frames.append(frame)
      self.frame = nil
    }
    for k in state.frames.indices.reversed() {
      close(Int(state.frames[k].interpolationSegment), end: n, contentEnd: n, endsOnLine: false)
      close(
        Int(state.frames[k].stringSegment), end: n, contentEnd: n, endsOnLine: !state.frames[k].delimiter.multiline)
      state.frames[k].stringSegment = -1
      state.frames[k].interpolationSegment = -1
    }
    if let k = state.frames.firstIndex(where: { !$0.delimiter.multiline }) {
      state.frames.removeSubrange(k...)
      state.mode = .code
    }
    // Here-documents announced on the line start on the next one (not if
    // the line ends inside a literal or comment).
    if case .code = state.mode, state.frames.isEmpty, !hereDocuments.isEmpty {
      state.mode = .hereDocuments(hereDocuments)
    }
  }

  /// Whether the line starts with `word` followed by a space or its end.
  func startsWithDirective(_ word: StaticString) -> Bool {
    let count = word.utf8CodeUnitCount
    guard n >= count else { return false }
    for k in 0..<count where p[k] != word.utf8Start[k] { return false }
    return n == count || p[count] == ASCII.space || p[count] == ASCII.tab || p[count] == 0x0D
  }

  /// Whether the line ends a here-document: its word alone on the line
  /// (after tabs or spaces, when it may be indented).
  func isTerminator(of document: HereDocument) -> Bool {
    var k = 0
    if document.indented {
      while k < n, p[k] == ASCII.tab || (!document.tabsOnly && p[k] == ASCII.space) { k += 1 }
    }
    return n - k == document.word.count && matches(document.word, at: k)
  }

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

  // MARK: Interpolations

  /// An interpolation opened at `j` in a literal (other than Swift's, found
  /// with the escapes): returns the offset of its code, or nil.
  mutating func interpolationStart(
    _ segment: Int, _ d: StringDelimiter, at j: Int, state: inout LexerState
  ) -> Int? {
    let b = p[j]
    let next = at(j + 1)
    switch d.interpolation {
    case .none, .backslashParen:
      return nil
    case .dollarBrace:
      guard b == ASCII.dollar, next == ASCII.openBrace else { return nil }
      return openInterpolation(segment, d, at: j, codeFrom: j + 2, closer: ASCII.closeBrace, state: &state)
    case .hashBrace:
      guard b == ASCII.hash, next == ASCII.openBrace else { return nil }
      return openInterpolation(segment, d, at: j, codeFrom: j + 2, closer: ASCII.closeBrace, state: &state)
    case .brace:
      guard b == ASCII.openBrace else { return nil }
      return openInterpolation(segment, d, at: j, codeFrom: j + 1, closer: ASCII.closeBrace, state: &state)
    case .shell:
      guard b == ASCII.dollar, next == ASCII.openParen || next == ASCII.openBrace else { return nil }
      let closer = next == ASCII.openParen ? ASCII.closeParen : ASCII.closeBrace
      return openInterpolation(segment, d, at: j, codeFrom: j + 2, closer: closer, state: &state)
    }
  }

  /// Enters the code of an interpolation that opens at `j` in the literal
  /// `segment`; its code starts at `codeFrom`. Nil when too deeply nested.
  mutating func openInterpolation(
    _ segment: Int, _ d: StringDelimiter, at j: Int, codeFrom: Int, closer: UInt8, state: inout LexerState
  ) -> Int? {
    if let frame {
      guard state.frames.count + 1 < Self.maximumFrames else { return nil }
      state.frames.append(frame)
    }
    frame = InterpolationFrame(
      delimiter: d, closer: closer, stringSegment: Int32(segment), interpolationSegment: Int32(open(.interpolation, j)))
    state.mode = .code
    lastSignificant = ASCII.openParen
    lastWordAllowsRegex = false
    return codeFrom
  }

  /// A bracket in the code of the interpolation `frame`: counts nesting,
  /// and closes the interpolation at its closer (returning to the literal).
  /// Nil for other bytes.
  mutating func interpolationBracket(_ b: UInt8, at i: Int, state: inout LexerState) -> Int? {
    guard let current = frame else { return nil }
    switch b {
    case ASCII.openParen, ASCII.openBracket, ASCII.openBrace:
      if current.depth < Int32.max { frame?.depth += 1 }
    case ASCII.closeParen, ASCII.closeBracket, ASCII.closeBrace:
      if current.depth > 0 {
        frame?.depth -= 1
      } else if b == current.closer {
        return closeInterpolation(at: i, state: &state)
      } else {
        return nil
      }
    case ASCII.colon:
      // A top-level `:` in a Python f-string field starts its format spec.
      guard current.delimiter.interpolation == .brace, current.depth == 0 else { return nil }
      frame?.inFormatSpec = true
      return i + 1
    default:
      return nil
    }
    lastSignificant = b
    lastWordAllowsRegex = false
    return i + 1
  }

  /// The format spec of a Python f-string field: text (with nested fields
  /// in braces) up to the field's closing brace.
  mutating func formatSpec(from start: Int, state: inout LexerState) -> Int {
    var j = start
    while j < n {
      if p[j] == ASCII.openBrace {
        if let depth = frame?.depth, depth < Int32.max { frame?.depth = depth + 1 }
      } else if p[j] == ASCII.closeBrace {
        if frame?.depth == 0 {
          frame?.inFormatSpec = false
          return closeInterpolation(at: j, state: &state)
        }
        frame?.depth -= 1
      }
      j += 1
    }
    return n
  }

  /// Leaves the interpolation `frame`, whose closer is at `i`, and goes on
  /// with its literal.
  mutating func closeInterpolation(at i: Int, state: inout LexerState) -> Int {
    guard let current = frame else { return i + 1 }
    frame = state.frames.popLast()
    close(Int(current.interpolationSegment), end: i + 1, contentEnd: i, endsOnLine: true)
    state.mode = .string(current.delimiter)
    return string(from: i + 1, segment: Int(current.stringSegment), current.delimiter, state: &state)
  }

  // MARK: Here-documents

  /// A here-document opener (`<<EOF`, `<<-'EOF'`, `<<~EOS`) at `i`: records
  /// it (its body starts on the next line) and returns the offset after
  /// it, or nil if `<<` is an operator here.
  mutating func hereDocument(at i: Int, state: inout LexerState) -> Int? {
    var k = i + 2
    var word: [UInt8] = []
    let document: HereDocument
    switch syntax.hereDocuments {
    case .none:
      return nil
    case .shell:
      if at(k) == ASCII.less { return k + 1 }  // `<<<` is a here-string.
      let indented = at(k) == ASCII.minus
      if indented { k += 1 }
      while at(k) == ASCII.space || at(k) == ASCII.tab { k += 1 }
      let first = at(k)
      guard
        isASCIILetterOrUnderscore(first) || first == ASCII.quote || first == ASCII.apostrophe
          || first == ASCII.backslash
      else { return nil }
      // The word, its quotes removed.
      wordLoop: while k < n, word.count <= Self.maximumHereDocumentWord {
        let c = p[k]
        switch c {
        case ASCII.space, ASCII.tab, 0x3B, 0x26, ASCII.bar, ASCII.less, ASCII.greater, ASCII.openParen,
          ASCII.closeParen:
          break wordLoop
        case ASCII.quote, ASCII.apostrophe:
          guard let end = (k + 1..<n).first(where: { p[$0] == c }) else { return nil }
          word += p[(k + 1)..<end]
          k = end + 1
        case ASCII.backslash:
          if k + 1 < n { word.append(p[k + 1]) }
          k += 2
        default:
          word.append(c)
          k += 1
        }
      }
      document = HereDocument(word: word, indented: indented, tabsOnly: true)
    case .ruby:
      let indented = at(k) == ASCII.tilde || at(k) == ASCII.minus
      if indented { k += 1 }
      let first = at(k)
      if first == ASCII.quote || first == ASCII.apostrophe || first == ASCII.backtick {
        guard let end = (k + 1..<n).first(where: { p[$0] == first }) else { return nil }
        word = Array(p[(k + 1)..<end])
        k = end + 1
      } else {
        // `<<EOS` wants a capital; `a<<B` and `x << y` are shifts.
        let capital = (first >= 0x41 && first <= 0x5A) || first == ASCII.underscore
        guard indented ? isASCIILetterOrUnderscore(first) : capital else { return nil }
        if !indented, i > 0,
          isASCIIIdentifierByte(p[i - 1]) || p[i - 1] == ASCII.closeParen
            || p[i - 1] == ASCII.closeBracket
        {
          return nil
        }
        let start = k
        while k < n, isASCIIIdentifierByte(p[k]), p[k] != ASCII.dollar { k += 1 }
        word = Array(p[start..<k])
      }
      document = HereDocument(word: word, indented: indented, tabsOnly: false)
    }
    guard !word.isEmpty, word.count <= Self.maximumHereDocumentWord else { return nil }
    hereDocuments.append(document)
    lastSignificant = 0x61
    return k
  }

  // MARK: Comments and regexes

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

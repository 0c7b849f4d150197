/// What the tokenizer is inside of at the start of a line: code, a block
/// comment, a string literal or a here-document that continues from an
/// earlier line, possibly within the interpolations of enclosing literals.
///
/// The analysis of a line depends only on the line's bytes and this state,
/// so an incremental scan can stop at the first line whose start state did
/// not change (see `HazardLineCache`). A document keeps one for each line
/// that does not start in code with nothing found (the common state, a byte
/// a line in the tree's leaves): it is kept small (40 bytes).
package struct LexerState: Sendable, Hashable {
  enum Mode: Sendable, Hashable {
    case code
    /// Inside `/* */` (with the nesting depth, for Swift and Rust).
    case blockComment(depth: Int)
    /// Inside Ruby's `=begin` … `=end`.
    case rubyBlockComment
    /// Inside a string literal that spans lines.
    case string(StringDelimiter)
    /// Inside the body of a here-document (shell, Ruby) until its terminator
    /// line; the here-documents announced on the same line follow it.
    case hereDocuments([HereDocument])
  }

  var mode: Mode
  /// The literals whose interpolations (`\(…)`, `${…}`, `#{…}`, `{…}`,
  /// `$(…)`) enclose `mode`, outermost first. Empty in most states (and
  /// while a line is lexed, the innermost one is kept apart from it).
  var frames: [InterpolationFrame] = []

  /// The state at the start of a document.
  package static let initial = LexerState(mode: .code)

  /// Whether the line starts inside a comment.
  package var isInComment: Bool {
    switch mode {
    case .blockComment, .rubyBlockComment: true
    default: false
    }
  }

  /// Whether the line starts inside a string literal or here-document (or
  /// inside the interpolation of one).
  package var isInString: Bool {
    switch mode {
    case .string, .hereDocuments: true
    default: !frames.isEmpty
    }
  }
}

/// Which interpolations a string literal holds: code whose own literals and
/// comments are lexed as such.
enum Interpolation: UInt8, Sendable, Hashable {
  case none
  /// Swift `\(…)` (after the raw string's `#`s: `\#(…)`).
  case backslashParen
  /// JavaScript template `${…}`.
  case dollarBrace
  /// Ruby `#{…}`.
  case hashBrace
  /// Python f-strings and t-strings: `{…}` (`{{` is a brace).
  case brace
  /// Shell double quotes: `$(…)` and `${…}`.
  case shell
}

/// How a string literal ends. Plain data (no references), laid out to fit
/// in 29 bytes.
struct StringDelimiter: Sendable, Hashable {
  /// For C++ raw strings `R"delim(...)delim"`: the delimiter's bytes.
  private var rawLow: UInt64 = 0
  private var rawHigh: UInt64 = 0
  /// For Ruby `%` literals with brackets: how many opening brackets are open
  /// inside the literal.
  var nesting: Int32 = 0
  /// `#` characters after the closing quote (Swift and Rust raw strings).
  var hashes: Int32
  /// The closing character: `"`, `'`, `` ` `` or, for Ruby `%` literals,
  /// any delimiter.
  var quote: UInt8
  /// 1, or 3 for triple-quoted strings.
  var quoteCount: Int8
  /// The interpolations the literal holds.
  var interpolation: Interpolation
  private var rawCount: UInt8 = 0
  private var flags: UInt8 = 0

  private static let escapesFlag: UInt8 = 1
  private static let multilineFlag: UInt8 = 2
  private static let nestsFlag: UInt8 = 4
  private static let rawFlag: UInt8 = 8

  /// `rawDelimiter` (at most `RawDelimiter.maximumCount` bytes) makes a C++
  /// raw string; `openBracket` a Ruby literal whose brackets nest.
  init(
    quote: UInt8, openBracket: UInt8 = 0, quoteCount: Int8 = 1, hashes: Int = 0, escapes: Bool = true,
    multiline: Bool = false, interpolation: Interpolation = .none, rawDelimiter: [UInt8]? = nil
  ) {
    self.quote = quote
    self.quoteCount = quoteCount
    self.hashes = Int32(clamping: hashes)
    self.interpolation = interpolation
    if escapes { flags |= Self.escapesFlag }
    if multiline { flags |= Self.multilineFlag }
    if openBracket != 0 { flags |= Self.nestsFlag }
    if let rawDelimiter, let raw = RawDelimiter(rawDelimiter) {
      flags |= Self.rawFlag
      (rawLow, rawHigh, rawCount) = (raw.low, raw.high, UInt8(raw.count))
    }
  }

  /// Whether a backslash escapes the next character (in Swift raw strings,
  /// only a backslash followed by `hashes` `#`).
  var escapes: Bool { flags & Self.escapesFlag != 0 }
  /// Whether the literal may span lines without a line continuation.
  var multiline: Bool { flags & Self.multilineFlag != 0 }
  /// For Ruby `%q(…)` and the like: the opening bracket, which nests (0 if
  /// none).
  var openBracket: UInt8 {
    guard flags & Self.nestsFlag != 0 else { return 0 }
    switch quote {
    case 0x29: return 0x28
    case 0x5D: return 0x5B
    case 0x7D: return 0x7B
    case 0x3E: return 0x3C
    default: return 0
    }
  }
  /// For C++ raw strings: the delimiter.
  var rawDelimiter: RawDelimiter? {
    flags & Self.rawFlag != 0 ? RawDelimiter(low: rawLow, high: rawHigh, count: Int(rawCount)) : nil
  }
}

/// The delimiter of a C++ raw string (at most 16 bytes), stored inline.
struct RawDelimiter: Sendable, Hashable {
  static let maximumCount = 16
  private(set) var low: UInt64 = 0
  private(set) var high: UInt64 = 0
  private(set) var count: Int = 0

  /// Nil if `bytes` is longer than `maximumCount`.
  init?(_ bytes: some Collection<UInt8>) {
    guard bytes.count <= Self.maximumCount else { return nil }
    for byte in bytes {
      if count < 8 {
        low |= UInt64(byte) << (8 * UInt64(count))
      } else {
        high |= UInt64(byte) << (8 * UInt64(count - 8))
      }
      count += 1
    }
  }

  init(low: UInt64, high: UInt64, count: Int) {
    (self.low, self.high, self.count) = (low, high, count)
  }

  subscript(k: Int) -> UInt8 {
    UInt8(truncatingIfNeeded: k < 8 ? low >> (8 * UInt64(k)) : high >> (8 * UInt64(k - 8)))
  }
}

/// A literal whose interpolation the tokenizer is in: the literal goes on
/// after the interpolation's closing bracket.
struct InterpolationFrame: Sendable, Hashable {
  var delimiter: StringDelimiter
  /// `)` or `}`.
  var closer: UInt8
  /// Brackets of any kind open inside the interpolation.
  var depth: Int32 = 0
  /// In a Python f-string: inside the format spec (after a top-level `:`),
  /// which is text up to the closing brace.
  var inFormatSpec = false
  /// While a line is lexed: the indices of the segments of the literal and
  /// of the interpolation (-1 in a stored state).
  var stringSegment: Int32 = -1
  var interpolationSegment: Int32 = -1
}

/// The terminator of a here-document.
struct HereDocument: Sendable, Hashable {
  /// The word that ends the body, alone on its line.
  var word: [UInt8]
  /// Whether the terminator may be indented: tabs for the shell's `<<-`,
  /// spaces and tabs for Ruby's `<<-` and `<<~`.
  var indented: Bool
  var tabsOnly: Bool
}

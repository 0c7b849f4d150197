/// What the tokenizer is inside of at the start of a line: code, a block
/// comment, a string literal or a here-document that continues from an
/// earlier line, possibly within the interpolations of enclosing literals.
///
/// The analysis of a line depends only on the line's bytes and this state,
/// so an incremental scan can stop at the first line whose start state did
/// not change (see `HazardLineCache`).
public struct LexerState: Sendable, Hashable {
  enum Mode: Sendable, Hashable {
    case code
    /// Inside `/* */` (with the nesting depth, for Swift and Rust).
    case blockComment(depth: Int)
    /// Inside Ruby's `=begin` … `=end`.
    case rubyBlockComment
    /// Inside a string literal that spans lines.
    case string(StringDelimiter)
    /// Inside the body of a here-document (shell, Ruby), until its
    /// terminator line.
    case hereDocument(HereDocument)
  }

  var mode: Mode
  /// The literals whose interpolations (`\(…)`, `${…}`, `#{…}`, `{…}`,
  /// `$(…)`) enclose `mode`, outermost first. Empty in most states.
  var frames: [InterpolationFrame] = []
  /// Here-documents announced on a line (`cat <<EOF`) whose bodies have not
  /// started yet: they start, in order, after the line that announced them.
  var pendingHereDocuments: [HereDocument] = []

  /// The state at the start of a document.
  public static let initial = LexerState(mode: .code)

  /// Whether the line starts inside a comment.
  public var isInComment: Bool {
    switch mode {
    case .blockComment, .rubyBlockComment: true
    default: false
    }
  }

  /// Whether the line starts inside a string literal or here-document (or
  /// inside the interpolation of one).
  public var isInString: Bool {
    switch mode {
    case .string, .hereDocument: true
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

/// How a string literal ends.
struct StringDelimiter: Sendable, Hashable {
  /// The closing character: `"`, `'`, `` ` `` or, for Ruby `%` literals,
  /// any delimiter.
  var quote: UInt8
  /// For Ruby `%q(…)` and the like: the opening bracket, which nests.
  var openBracket: UInt8 = 0
  /// How many `openBracket`s are open inside the literal.
  var nesting: Int32 = 0
  /// 1, or 3 for triple-quoted strings.
  var quoteCount: Int8 = 1
  /// `#` characters after the closing quote (Swift and Rust raw strings).
  var hashes: Int32 = 0
  /// Whether a backslash escapes the next character (in Swift raw strings,
  /// only a backslash followed by `hashes` `#`).
  var escapes: Bool = true
  /// Whether the literal may span lines without a line continuation.
  var multiline: Bool = false
  /// The interpolations the literal holds.
  var interpolation = Interpolation.none
  /// For C++ raw strings `R"delim(...)delim"`: the delimiter.
  var rawDelimiter: [UInt8]? = nil
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

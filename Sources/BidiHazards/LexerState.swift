/// What the tokenizer is inside of at the start of a line: code, a block
/// comment, or a string literal that continues from an earlier line.
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
  }

  var mode: Mode

  /// The state at the start of a document.
  public static let initial = LexerState(mode: .code)

  /// Whether the line starts inside a comment.
  public var isInComment: Bool {
    switch mode {
    case .blockComment, .rubyBlockComment: true
    default: false
    }
  }

  /// Whether the line starts inside a string literal.
  public var isInString: Bool {
    if case .string = mode { return true }
    return false
  }
}

/// How a string literal ends.
struct StringDelimiter: Sendable, Hashable {
  /// `"`, `'` or `` ` ``.
  var quote: UInt8
  /// 1, or 3 for triple-quoted strings.
  var quoteCount: Int = 1
  /// `#` characters after the closing quote (Swift and Rust raw strings).
  var hashes: Int = 0
  /// Whether a backslash escapes the next character (in Swift raw strings,
  /// only a backslash followed by `hashes` `#`).
  var escapes: Bool = true
  /// Whether the literal may span lines without a line continuation.
  var multiline: Bool = false
  /// For C++ raw strings `R"delim(...)delim"`: the delimiter.
  var rawDelimiter: [UInt8]? = nil
}

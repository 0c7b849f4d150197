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

import UnicodeBidi

/// A rule of `check`'s SARIF log (`reportingDescriptor`): one per code.
struct SARIFRule: Equatable {
  /// The code, `bidi.…`: the result's `ruleId`.
  var id: String
  /// The severity of the rule when it is simply on.
  var severity: DiagnosticSeverity
  /// A title (SARIF's `shortDescription`).
  var title: String
  /// What it finds and why it matters (`fullDescription`).
  var description: String
}

extension SARIFRule {
  /// Every code `check` reports, each once, in `RuleCode`'s order
  /// (`bidi.truncated`, which is no rule, left out). The one table of
  /// rules: the descriptions are a switch over `RuleCode`, so that a new
  /// code cannot be left out.
  static let all: [SARIFRule] = RuleCode.allCases.compactMap { code in
    guard let (title, description) = code.sarifText else { return nil }
    return SARIFRule(id: code.rawValue, severity: code.defaultSeverity, title: title, description: description)
  }

  /// The index of each rule in `all`, by code.
  static let indices: [String: Int] = Dictionary(uniqueKeysWithValues: all.enumerated().map { ($1.id, $0) })
}

extension DiagnosticSeverity {
  /// SARIF's `level`: `error`, `warning`, or `note` for information and hints.
  var sarifLevel: String {
    switch self {
    case .error: "error"
    case .warning: "warning"
    case .information, .hint: "note"
    }
  }
}

extension RuleCode {
  /// The rule's title and description.
  fileprivate var sarifText: (String, String)? {
    switch self {
    case .unpaired:
      (
        "Bidi control left open",
        "An embedding, override or isolate (LRE, RLE, LRO, RLO, LRI, RLI, FSI) is still open at the end of its "
          + "line, or of the code on its line: it reorders what follows, so the code shown is not the code run "
          + "(Trojan Source, CVE-2021-42574)."
      )
    case .unmatched:
      ("Bidi closer with nothing to close", "A PDF or PDI closes no embedding, override or isolate.")
    case .override:
      (
        "Bidi override",
        "An LRO or RLO forces the order of the characters after it, even when it is closed: text can display "
          + "in another order than it is read."
      )
    case .inIdentifier:
      (
        "Bidi control inside an identifier",
        "A bidi control (a mark included) inside an identifier makes two names that display alike differ."
      )
    case .inComment:
      (
        "Bidi control opened in a comment",
        "A control opened inside a comment and not closed before the comment ends reorders the code after it."
      )
    case .inString:
      (
        "Bidi control opened in a string literal",
        "A control opened inside a string literal and not closed before the literal ends reorders the code "
          + "after it."
      )
    case .invalidUtf8:
      ("Invalid UTF-8", "Bytes that are not UTF-8; the rest of the file is still checked.")
    case .placeholderDirection:
      (
        "Value flips direction once its placeholders are filled",
        "A localized value is right to left as written but left to right once a placeholder such as %@ is "
          + "replaced by a Latin word (or the reverse): start it with an RLM or isolate its placeholders."
      )
    case .valueDirection:
      (
        "Right-to-left value that starts left to right",
        "A translation in a right-to-left locale starts with a left-to-right word, so the whole value "
          + "displays left to right."
      )
    case .placeholderMismatch:
      (
        "Translation whose placeholders or markup differ from its source",
        "A translation lacks a placeholder of its source, has one the source does not, puts unnumbered "
          + "placeholders in another order (which swaps their values at run time), or does not balance the "
          + "source's markup."
      )
    case .localizationSyntax:
      (
        "File stops being its localization format",
        "The file cannot be read as its format from here on; the values before are still checked."
      )
    case .blockDirection:
      (
        "Markdown block that renders in the other direction",
        "A Markdown block whose rendered text is mostly one direction starts with a strong character of the "
          + "other, so a renderer that gives each block dir=\"auto\" lays it out the wrong way."
      )
    case .cueDirection:
      (
        "Subtitle line whose display depends on the player",
        "A subtitle line displays differently with a left-to-right and a right-to-left base direction: "
          + "punctuation lands on the wrong side in players that lay lines out left to right."
      )
    case .subtitleSyntax:
      (
        "Subtitle file that stops being its format",
        "A subtitle file has an error no player gets past (a broken timing line, a WebVTT file without its "
          + "header); the cue lines before it are still checked."
      )
    case .truncated:
      nil
    }
  }
}

// The words of diagnostics, defined once for every module: each rule's code
// (`bidi.*`, contract §5–§8) with its default severity and its key in the
// `diagnostics` settings, the severities, and how a rule is configured.

/// A diagnostic severity, as in LSP; its raw value is its settings name.
package enum DiagnosticSeverity: String, CaseIterable, Sendable, Hashable, Comparable {
  case error
  case warning
  case information
  case hint

  /// The LSP `DiagnosticSeverity` number (1 = Error … 4 = Hint).
  package var lspValue: Int {
    switch self {
    case .error: 1
    case .warning: 2
    case .information: 3
    case .hint: 4
    }
  }

  /// More severe sorts first.
  package static func < (lhs: DiagnosticSeverity, rhs: DiagnosticSeverity) -> Bool {
    lhs.lspValue < rhs.lspValue
  }
}

/// Every diagnostic code bidi-lsp reports, by the rule that reports it.
package enum RuleCode: String, CaseIterable, Sendable, Hashable {
  // §5, the hazard rules (Trojan Source, CVE-2021-42574).
  /// An embedding, override or isolate still open at the end of its line
  /// (or of its context: a paragraph, the code on its line).
  case unpaired = "bidi.unpaired"
  /// A PDF or PDI with nothing to close.
  case unmatched = "bidi.unmatched"
  /// An LRO or RLO, even a balanced one.
  case override = "bidi.override"
  /// A bidi control (marks included) inside an identifier: a name in
  /// source code, a localization key, a link destination.
  case inIdentifier = "bidi.inIdentifier"
  /// A control opened inside a comment and not closed before it ends.
  case inComment = "bidi.inComment"
  /// A control opened inside a string literal and not closed before it ends.
  case inString = "bidi.inString"
  // §6, `check`.
  /// Bytes that are not valid UTF-8 (`check`; the daemon's text is UTF-8).
  case invalidUtf8 = "bidi.invalidUtf8"
  /// Not a rule: the note that more findings exist than are published
  /// (specification, "Limits").
  case truncated = "bidi.truncated"
  // §7, localization documents.
  /// A value paragraph right to left as written, left to right once its
  /// placeholders are filled.
  case placeholderDirection = "bidi.placeholderDirection"
  /// In a right-to-left locale, a value paragraph with right-to-left
  /// letters that is left to right as written.
  case valueDirection = "bidi.valueDirection"
  /// A translation whose placeholders or markup do not match its source's
  /// (missing, extra, unnumbered ones reordered, tags unbalanced).
  case placeholderMismatch = "bidi.placeholderMismatch"
  /// Where a localization file stops being readable as its format.
  case localizationSyntax = "bidi.localizationSyntax"
  // §8, Markdown and subtitles.
  /// A Markdown block whose rendered text is mostly one direction but
  /// starts with a strong character of the other.
  case blockDirection = "bidi.blockDirection"
  /// A subtitle line whose display differs between a left-to-right and a
  /// right-to-left base direction.
  case cueDirection = "bidi.cueDirection"
  /// Where a subtitle file stops being readable as its format (a broken
  /// timing line, a WebVTT file without its header).
  case subtitleSyntax = "bidi.subtitleSyntax"

  /// The code for a settings key (`"unpaired"`), or nil when the key names
  /// no rule (`truncated` is not one).
  package init?(settingsKey: String) {
    guard let code = RuleCode(rawValue: "bidi." + settingsKey), code != .truncated else { return nil }
    self = code
  }

  /// The key of the rule in the `diagnostics` settings object: the code
  /// without the `bidi.` prefix.
  package var settingsKey: String { String(rawValue.dropFirst(5)) }

  /// The severity the rule reports with when it is simply on.
  package var defaultSeverity: DiagnosticSeverity {
    switch self {
    case .unpaired, .inIdentifier, .inComment, .inString: .error
    case .override, .unmatched, .invalidUtf8, .placeholderDirection, .valueDirection, .placeholderMismatch,
      .localizationSyntax, .blockDirection, .cueDirection, .subtitleSyntax:
      .warning
    case .truncated: .information
    }
  }

  /// Every settings key, in the order of the cases (for messages).
  package static var settingsKeys: [String] { allCases.filter { $0 != .truncated }.map(\.settingsKey) }
}

/// How one rule is configured: `false`, `true` or a severity name in the
/// `diagnostics` settings object (specification, "Settings").
package enum RuleSetting: Sendable, Hashable {
  /// The rule reports nothing.
  case off
  /// The rule reports with its default severity.
  case on
  /// The rule reports with this severity.
  case severity(DiagnosticSeverity)

  /// `true` → `.on`, `false` → `.off`.
  package init(enabled: Bool) {
    self = enabled ? .on : .off
  }
}

/// Which rules are on, and with which severities. All on by default.
package struct RuleSettings: Sendable, Hashable {
  private var rules: [RuleCode: RuleSetting] = [:]

  /// Every rule on, with its default severity.
  package static let `default` = RuleSettings()

  package init() {}

  /// The setting of one rule.
  package subscript(code: RuleCode) -> RuleSetting {
    get { rules.isEmpty ? .on : rules[code] ?? .on }
    set { rules[code] = newValue }
  }

  /// The severity a rule reports with, or nil if it is off.
  package func severity(for code: RuleCode) -> DiagnosticSeverity? {
    switch self[code] {
    case .off: nil
    case .on: code.defaultSeverity
    case .severity(let severity): severity
    }
  }

  /// Whether a rule reports anything.
  package func isEnabled(_ code: RuleCode) -> Bool {
    self[code] != .off
  }
}

/// The kinds of bidi hazard, with their diagnostic codes (Protocol/specification.md,
/// “`textDocument/publishDiagnostics`”).
package enum HazardCode: String, CaseIterable, Sendable, Hashable {
  /// An embedding, override or isolate still open at the end of its line
  /// (or, in source code, at the end of the code on its line).
  case unpaired = "bidi.unpaired"
  /// A PDF or PDI with nothing to close.
  case unmatched = "bidi.unmatched"
  /// An LRO or RLO, even a balanced one.
  case override = "bidi.override"
  /// A bidi control (marks included) inside an identifier.
  case inIdentifier = "bidi.inIdentifier"
  /// A control opened inside a comment and not closed before the comment
  /// (or its part on this line) ends.
  case inComment = "bidi.inComment"
  /// A control opened inside a string literal and not closed before the
  /// literal (or its part on this line) ends.
  case inString = "bidi.inString"
  /// Bytes that are not valid UTF-8 (reported by `check`).
  case invalidUtf8 = "bidi.invalidUtf8"

  /// The key of the rule in the `diagnostics` settings object: the code
  /// without the `bidi.` prefix.
  package var settingsKey: String {
    String(rawValue.dropFirst(5))
  }

  /// The code for a settings key (`"unpaired"`), or nil if unknown.
  package init?(settingsKey: String) {
    self.init(rawValue: "bidi." + settingsKey)
  }

  /// The severity used when the rule is simply on.
  package var defaultSeverity: HazardSeverity {
    switch self {
    case .unpaired, .inIdentifier, .inComment, .inString: .error
    case .override, .unmatched, .invalidUtf8: .warning
    }
  }
}

/// A diagnostic severity, as in LSP.
package enum HazardSeverity: String, CaseIterable, Sendable, Hashable, Comparable {
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
  package static func < (lhs: HazardSeverity, rhs: HazardSeverity) -> Bool {
    lhs.lspValue < rhs.lspValue
  }
}

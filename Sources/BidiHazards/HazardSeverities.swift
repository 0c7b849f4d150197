import UnicodeBidi

/// The severities of the pairing analysis's rules (`RuleSettings`'s, nil
/// for a rule that is off), as a plain value: kept by `HazardScanner` and
/// copied into each line's analysis, where the settings' dictionary was
/// retained and released on every line with a hazard.
struct HazardSeverities: Sendable {
  private let unpaired: DiagnosticSeverity?
  private let unmatched: DiagnosticSeverity?
  private let override: DiagnosticSeverity?
  private let inIdentifier: DiagnosticSeverity?
  private let inComment: DiagnosticSeverity?
  private let inString: DiagnosticSeverity?
  private let invalidUtf8: DiagnosticSeverity?

  init(_ settings: RuleSettings) {
    unpaired = settings.severity(for: .unpaired)
    unmatched = settings.severity(for: .unmatched)
    override = settings.severity(for: .override)
    inIdentifier = settings.severity(for: .inIdentifier)
    inComment = settings.severity(for: .inComment)
    inString = settings.severity(for: .inString)
    invalidUtf8 = settings.severity(for: .invalidUtf8)
  }

  /// `RuleSettings.severity(for:)` of the hazard rules (nil for the others,
  /// which no line's scan reports).
  func severity(for code: RuleCode) -> DiagnosticSeverity? {
    switch code {
    case .unpaired: unpaired
    case .unmatched: unmatched
    case .override: override
    case .inIdentifier: inIdentifier
    case .inComment: inComment
    case .inString: inString
    case .invalidUtf8: invalidUtf8
    default: nil
    }
  }
}

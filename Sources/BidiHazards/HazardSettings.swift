/// How one rule is configured: `false`, `true` or a severity name in the
/// `diagnostics` settings object (Protocol/specification.md, “Settings”).
package enum HazardRuleSetting: Sendable, Hashable {
  /// The rule reports nothing.
  case off
  /// The rule reports with its default severity.
  case on
  /// The rule reports with this severity.
  case severity(HazardSeverity)

  /// `true` → `.on`, `false` → `.off`.
  package init(enabled: Bool) {
    self = enabled ? .on : .off
  }

  /// `"error"`, `"warning"`, `"information"` or `"hint"`; nil for anything else.
  package init?(severityName: String) {
    guard let severity = HazardSeverity(rawValue: severityName) else { return nil }
    self = .severity(severity)
  }
}

/// Which hazard rules are on, and with which severities. All on by default.
package struct HazardSettings: Sendable, Hashable {
  private var rules: [HazardCode: HazardRuleSetting] = [:]

  /// Every rule on, with its default severity.
  package static let `default` = HazardSettings()

  package init() {}

  /// The setting of one rule.
  package subscript(code: HazardCode) -> HazardRuleSetting {
    get { rules.isEmpty ? .on : rules[code] ?? .on }
    set { rules[code] = newValue }
  }

  /// The severity a rule reports with, or nil if it is off.
  package func severity(for code: HazardCode) -> HazardSeverity? {
    switch self[code] {
    case .off: nil
    case .on: code.defaultSeverity
    case .severity(let severity): severity
    }
  }

  /// Whether a rule reports anything.
  package func isEnabled(_ code: HazardCode) -> Bool {
    self[code] != .off
  }

  /// Sets a rule by its settings key (`"inComment"`). Returns false, and
  /// changes nothing, if the key is unknown.
  @discardableResult
  package mutating func set(key: String, to setting: HazardRuleSetting) -> Bool {
    guard let code = HazardCode(settingsKey: key) else { return false }
    self[code] = setting
    return true
  }
}

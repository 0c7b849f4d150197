import JSONRPC

/// The settings reader: `initializationOptions.bidi` (in `initialize`) and
/// `settings.bidi` (in `workspace/didChangeConfiguration`) are read here,
/// once, into a change that leaves absent fields as they were.
package struct SettingsChange: Sendable, Equatable {
  package var strategy: DirectionStrategy?
  package var fallback: DirectionFallback?
  package var paragraphs: ParagraphMode?
  package var layoutDirection: TextDirection?
  package var rtlThreshold: Double?
  /// `locale` (Protocol/localization.md): the locale of localization documents whose
  /// path and contents name none; `""` clears it.
  package var locale: String?
  /// `diagnostics`: each rule named, in the order given.
  package var diagnostics: [(rule: DiagnosticRule, setting: RuleSetting)]?
  /// `diagnostics`: the localization rules (Protocol/localization.md) named, in order.
  package var localizationDiagnostics: [(rule: LocalizationRule, setting: RuleSetting)]?

  package static func == (a: SettingsChange, b: SettingsChange) -> Bool {
    a.strategy == b.strategy && a.fallback == b.fallback && a.paragraphs == b.paragraphs
      && a.layoutDirection == b.layoutDirection && a.rtlThreshold == b.rtlThreshold
      && a.diagnostics?.map(\.rule) == b.diagnostics?.map(\.rule)
      && a.diagnostics?.map(\.setting) == b.diagnostics?.map(\.setting) && a.locale == b.locale
      && a.localizationDiagnostics?.map(\.rule) == b.localizationDiagnostics?.map(\.rule)
      && a.localizationDiagnostics?.map(\.setting) == b.localizationDiagnostics?.map(\.setting)
  }

  package init(_ bidi: Params) throws(ResponseError) {
    try bidi.requireObject()
    strategy = try bidi.optional("strategy")?.oneOf(DirectionStrategy.self)
    fallback = try bidi.optional("fallback")?.oneOf(DirectionFallback.self)
    paragraphs = try bidi.optional("paragraphs")?.oneOf(ParagraphMode.self)
    layoutDirection = try bidi.optional("layoutDirection")?.oneOf(TextDirection.self)
    rtlThreshold = try bidi.optional("rtlThreshold").map(threshold)
    locale = try bidi.optional("locale")?.string()
    if let value = try bidi.optional("diagnostics") {
      try value.requireObject()
      var rules: [(DiagnosticRule, RuleSetting)] = []
      var localizationRules: [(LocalizationRule, RuleSetting)] = []
      for (key, setting) in value.value?.objectValue ?? JSONObject() {
        let field = value[key]
        let parsed: RuleSetting
        if let enabled = setting.boolValue {
          parsed = .enabled(enabled)
        } else if let name = setting.stringValue, let severity = DiagnosticSeverity(rawValue: name) {
          parsed = .severity(severity)
        } else {
          throw field.error("expected true, false, \"error\", \"warning\", \"information\" or \"hint\"")
        }
        if let rule = LocalizationRule(rawValue: key) {
          localizationRules.append((rule, parsed))
          continue
        }
        guard let rule = DiagnosticRule(rawValue: key) else {
          throw field.error(
            "unknown rule; expected one of unpaired, unmatched, override, inIdentifier, inComment, inString, "
              + "invalidUtf8, placeholderDirection, valueDirection, localizationSyntax")
        }
        rules.append((rule, parsed))
      }
      diagnostics = rules
      localizationDiagnostics = localizationRules
    }
  }

  /// `settings` with the fields this change sets replaced.
  package func applied(to settings: DirectionSettings) -> DirectionSettings {
    var updated = settings
    if let strategy { updated.strategy = strategy }
    if let fallback { updated.fallback = fallback }
    if let paragraphs { updated.paragraphs = paragraphs }
    if let layoutDirection { updated.layoutDirection = layoutDirection }
    if let rtlThreshold { updated.rtlThreshold = rtlThreshold }
    return updated
  }
}

/// A diagnostic rule, by its key in the `diagnostics` settings (its code
/// without the `bidi.` prefix).
package enum DiagnosticRule: String, Sendable, CaseIterable {
  case unpaired, unmatched, override, inIdentifier, inComment, inString, invalidUtf8
}

/// A diagnostic rule of localization documents only (Protocol/localization.md), by its
/// key in the `diagnostics` settings.
package enum LocalizationRule: String, Sendable, CaseIterable {
  case placeholderDirection, valueDirection, localizationSyntax
}

/// How one rule is configured: on or off, or on with a severity.
package enum RuleSetting: Sendable, Hashable {
  case enabled(Bool)
  case severity(DiagnosticSeverity)
}

/// An LSP diagnostic severity, by its settings name; `rawValue`'s order is
/// LSP's (`error` is 1).
package enum DiagnosticSeverity: String, Sendable, CaseIterable, JSONEncodable {
  case error, warning, information, hint

  /// The LSP number (1 to 4).
  package var lspValue: Int {
    switch self {
    case .error: 1
    case .warning: 2
    case .information: 3
    case .hint: 4
    }
  }

  package func encode(to writer: inout JSONWriter) { writer.integer(lspValue) }
}

/// `workspace/didChangeConfiguration`: `settings.bidi`, when present.
package struct DidChangeConfigurationParams: Sendable {
  package var bidi: SettingsChange?

  package init(decoding value: JSONValue?) throws(ResponseError) {
    let params = Params(value)
    guard let settings = try params.optional("settings"), let bidi = try settings.optional("bidi") else { return }
    self.bidi = try SettingsChange(bidi)
  }
}

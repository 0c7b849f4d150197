import JSONRPC
import UnicodeBidi

/// The settings reader: `initializationOptions.bidi` (in `initialize`) and
/// `settings.bidi` (in `workspace/didChangeConfiguration`) are read here,
/// once, into a change that leaves absent fields as they were.
package struct SettingsChange: Sendable, Equatable {
  package var strategy: DirectionStrategy?
  package var fallback: DirectionFallback?
  package var paragraphs: ParagraphMode?
  package var layoutDirection: BidiDirection?
  package var rtlThreshold: Double?
  /// `locale` (Protocol/localization.md): the locale of localization documents whose
  /// path and contents name none; `""` clears it.
  package var locale: String?
  /// `sourceLocale` (Protocol/localization.md, "Source pairing"): the
  /// locale whose files translations are compared with; `""`: none (only
  /// the sources files hold, as `check --no-source`). The server checks
  /// that it is a locale tag before the change applies.
  package var sourceLocale: String?
  /// `diagnostics`: each rule named, in the order given.
  package var diagnostics: [(rule: RuleCode, setting: RuleSetting)]?

  package static func == (a: SettingsChange, b: SettingsChange) -> Bool {
    a.strategy == b.strategy && a.fallback == b.fallback && a.paragraphs == b.paragraphs
      && a.layoutDirection == b.layoutDirection && a.rtlThreshold == b.rtlThreshold
      && a.diagnostics?.map(\.rule) == b.diagnostics?.map(\.rule)
      && a.diagnostics?.map(\.setting) == b.diagnostics?.map(\.setting) && a.locale == b.locale
      && a.sourceLocale == b.sourceLocale

  }

  package init(_ bidi: Params) throws(ResponseError) {
    try bidi.requireObject()
    strategy = try bidi.optional("strategy")?.oneOf(DirectionStrategy.self)
    fallback = try bidi.optional("fallback")?.oneOf(DirectionFallback.self)
    paragraphs = try bidi.optional("paragraphs")?.oneOf(ParagraphMode.self)
    layoutDirection = try bidi.optional("layoutDirection")?.oneOf(BidiDirection.self)
    rtlThreshold = try bidi.optional("rtlThreshold").map(threshold)
    locale = try bidi.optional("locale")?.string()
    sourceLocale = try bidi.optional("sourceLocale")?.string()
    if let value = try bidi.optional("diagnostics") {
      try value.requireObject()
      var rules: [(RuleCode, RuleSetting)] = []
      for (key, setting) in value.value?.objectValue ?? JSONObject() {
        let field = value[key]
        guard let rule = RuleCode(settingsKey: key) else {
          throw field.error("unknown rule; expected one of " + RuleCode.settingsKeys.joined(separator: ", "))
        }
        if let enabled = setting.boolValue {
          rules.append((rule, RuleSetting(enabled: enabled)))
        } else if let name = setting.stringValue, let severity = DiagnosticSeverity(rawValue: name) {
          rules.append((rule, .severity(severity)))
        } else {
          throw field.error("expected true, false, \"error\", \"warning\", \"information\" or \"hint\"")
        }
      }
      diagnostics = rules
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

extension DiagnosticSeverity: JSONEncodable {
  /// Written as the LSP number (1 to 4).
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

import BidiHazards
import BidiProtocol
import DocumentStore
import JSONRPC
import Localization

/// The settings only localization documents use (specification, “Editor features on standard LSP methods”; Protocol/localization.md).
struct LocalizationSettings: Equatable {
  /// `locale`: the locale of documents whose path and contents name none.
  var locale: String?
  /// `diagnostics.placeholderDirection`, `valueDirection`, `localizationSyntax`.
  var rules: [LocalizationRule: RuleSetting] = [:]
}

/// Localization documents (Protocol/localization.md): found on `didOpen` by languageId
/// or path, their values index kept up to date by every `didChange`, the
/// `locale` setting and the localization rules' settings.
extension BidiLanguageServer {
  func openLocalization(_ document: Document) {
    let lines = DocumentLines(text: document.text)
    guard let format = LocalizationFormat.detect(languageId: document.languageId, path: document.uri, lines: lines)
    else {
      localization[document.uri] = nil
      return
    }
    // Read lazily: the first requests read through the lines they ask
    // about, the first publish (or anything about the whole file) to the end.
    var state = LocalizationDocument(
      format: format, path: document.uri, index: LocalizationIndex(lines, format: format, through: 0))
    state.severity = localizationSeverity
    localization[document.uri] = state
    logger.debug("\(document.uri): \(format.rawValue) localization document")
  }

  /// Feeds a change's line changes to the document's index.
  func localizationLinesChanged(uri: String, _ changes: [LineChange]) {
    guard localization[uri] != nil, let document = documents[uri] else { return }
    localization[uri]!.apply(changes, text: document.text)
  }

  /// The severity of each localization code under the current settings
  /// (the hazard codes as the specification’s rules say, the three localization codes by theirs).
  var localizationSeverity: @Sendable (LocalizationFindingCode) -> HazardSeverity? {
    let hazardRules = hazardSettings
    let rules = localizationSettings.rules
    return { code in
      if let hazard = code.hazardCode { return hazardRules.severity(for: hazard) }
      let rule: LocalizationRule =
        switch code {
        case .placeholderDirection: .placeholderDirection
        case .valueDirection: .valueDirection
        default: .localizationSyntax
        }
      switch rules[rule] {
      case nil, .enabled(true): return code.defaultSeverity
      case .enabled(false): return nil
      case .severity(let severity): return severity.hazardSeverity
      }
    }
  }

  /// Applies `locale` and the localization rules of a settings change (after
  /// the hazard rules): every localization document's findings are
  /// recomputed and published again when anything they depend on changed.
  func applyLocalizationSettings(_ change: SettingsChange) {
    var updated = localizationSettings
    if let locale = change.locale { updated.locale = locale.isEmpty ? nil : locale }
    for (rule, setting) in change.localizationDiagnostics ?? [] { updated.rules[rule] = setting }
    let changed = updated != localizationSettings || change.diagnostics.map { !$0.isEmpty } ?? false
    localizationSettings = updated
    guard changed else { return }
    let refreshed = localizationSeverity
    for uri in localization.keys {
      localization[uri]!.severity = refreshed
      localization[uri]!.findings = nil
      hazards[uri]?.needsPublish = true
    }
  }

  /// The values-mode state of a request's document, when the request is
  /// answered in values mode: a localization document, and `paragraphs`
  /// not given or given as `values`.
  /// Its index is read through the request's lines (`whole`: through the
  /// end, for what depends on the whole file such as the mark spelling).
  /// `text` is the document's, for callers inside `withOpenDocument`.
  func valuesDocument(
    for target: BidiRequestTarget, text: Document.Text? = nil, whole: Bool = false
  ) -> LocalizationDocument? {
    guard localization[target.uri] != nil else { return nil }
    if target.options.paragraphsGiven && target.options.paragraphs != .values { return nil }
    readLocalization(target.uri, text: text, through: whole ? Int.max : target.selection.range?.end.line ?? Int.max)
    return localization[target.uri]
  }

  /// Lines read per step of `prepareLocalization`, between two looks at the clock.
  static let localizationReadStep = 512

  /// For a localization document, what its publish needs, a step at a
  /// time until `stop()`: its index read to the end, then its values'
  /// findings. True when all is ready (or it is no localization document).
  func prepareLocalization(_ document: Document, until stop: () -> Bool) -> Bool {
    guard localization[document.uri] != nil else { return true }
    while let frontier = localization[document.uri]!.index.frontierLine {
      readLocalization(document.uri, text: document.text, through: frontier + Self.localizationReadStep)
      if stop() { return false }
    }
    return localization[document.uri]!.computeFindings(localeSetting: localizationSettings.locale, until: stop)
  }

  /// Reads a lazily read localization index up to the first entry
  /// boundary past line `line` (`Int.max`: to the end); `text` is the
  /// document's (nil: looked up).
  func readLocalization(_ uri: String, text: Document.Text? = nil, through line: Int) {
    guard localization[uri]?.index.isComplete == false, let text = text ?? documents[uri]?.text else { return }
    localization[uri]!.index.read(DocumentLines(text: text), through: line)
  }

  /// The first line of `document` whose hazards come from the line scan: 0 in a
  /// plain document; in a localization document, the first line after its
  /// values (the lines after a syntax error), `Int.max` when there is none.
  func plainHazardLinesStart(_ document: Document) -> Int {
    readLocalization(document.uri, text: document.text, through: Int.max)
    return localization[document.uri]?.plainLinesStart ?? 0
  }
}

import BidiHazards
import BidiProtocol
import DocumentStore
import JSONRPC
import Localization
import UnicodeBidi

/// Localization documents (Protocol/localization.md): found on `didOpen` by languageId
/// or path, their values index kept up to date by every `didChange`, the
/// `locale` setting and the localization rules' settings.
extension BidiLanguageServer {
  func openLocalization(_ document: Document) {
    guard let format = LocalizationFormat.detect(languageId: document.languageId, path: document.uri) else {
      localization[document.uri] = nil
      return
    }
    // Read lazily: the first requests read through the lines they ask
    // about, the first publish (or anything about the whole file) to the end.
    var state = LocalizationDocument(
      format: format, path: document.uri,
      index: LocalizationIndex(DocumentLines(text: document.text), format: format, through: 0))
    state.severity = localizationSeverity
    localization[document.uri] = state
    logger.debug("\(document.uri): \(format.rawValue) localization document")
  }

  /// Feeds a change's line changes to the document's index.
  func localizationLinesChanged(uri: String, _ changes: [LineChange]) {
    guard localization[uri] != nil, let document = documents[uri] else { return }
    localization[uri]!.apply(changes, text: document.text)
  }

  /// The severity of each code under the current settings (nil: off).
  var localizationSeverity: @Sendable (RuleCode) -> DiagnosticSeverity? {
    let current = rules
    return { current.severity(for: $0) }
  }

  /// After a change of the rules or the locale: every localization
  /// document's findings are recomputed and published again.
  func refreshLocalizationFindings() {
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
    return localization[document.uri]!.computeFindings(localeSetting: localeSetting, until: stop)
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

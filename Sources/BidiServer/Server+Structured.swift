import BidiHazards
import BidiProtocol
import DocumentFormats
import DocumentStore
import JSONRPC
import Localization
import StructuredText
import UnicodeBidi

/// Structured documents (contract §7, §8): their kind told on `didOpen`
/// from languageId and path (`DocumentKind`), their index kept up to date
/// by every `didChange`, the `locale` setting and the rules' settings.
extension BidiLanguageServer {
  func openStructured(_ document: Document) {
    let lines = StoredLines(text: document.text)
    let kind = DocumentKind.detect(languageId: document.languageId, path: document.uri, lines: lines)
    guard let format = kind.structuredFormat else {
      structured[document.uri] = nil
      return
    }
    // Read lazily: the first requests read through the lines they ask
    // about, the first publish (or anything about the whole file) to the end.
    var state = StructuredDocument(
      format: format, path: document.uri,
      index: StructuredIndex(lines, format: format, through: 0))
    state.rules = rules
    state.isQuiet = !state.mayRaiseFindings(lines, 0..<lines.lineCount)
    structured[document.uri] = state
    pairSource(document.uri)
    logger.debug("\(document.uri): \(format.name) document")
    // A translation whose source this is compares with its text from now on.
    sourceChanged(document.uri)
  }

  /// Pairs a localization document with the file of the source locale
  /// (the `sourceLocale` setting; none: no file) beside it
  /// (`SourcePairing`, as `check` pairs): the open document of
  /// that path, else the file on disk (read once; unreadable or too large:
  /// no pairing).
  func pairSource(_ uri: String) {
    guard let format = structured[uri]?.format as? LocalizationFormat else { return }
    let found = sourceLocaleSetting.flatMap { sourceLocale in
      SourcePairing.catalog(for: uri, format: format, sourceLocale: sourceLocale) { path in
        guard let open = structured.keys.first(where: { SourcePairing.filePath($0) == path }),
          let text = documents[open]?.text
        else { return nil }
        return SourceCatalog(StoredLines(text: text), format: format)
      }
    }
    structured[uri]!.sourcePath = found?.path
    structured[uri]!.sources = found?.catalog
    structured[uri]!.sourcesStale = false
    structured[uri]!.findings = nil
    structured[uri]!.partialFindings = nil
  }

  /// After the document `uri` opened or changed: the documents whose
  /// source it is are paired again before their findings are next needed
  /// (not at every keystroke in the source), and published again.
  func sourceChanged(_ uri: String) {
    guard let path = SourcePairing.filePath(uri) else { return }
    for other in structured.keys where other != uri && structured[other]?.sourcePath == path {
      structured[other]!.sourcesStale = true
      hazards[other]?.needsPublish = true
    }
  }

  /// Pairs a document again if its source changed since it was paired.
  func refreshSources(_ uri: String) {
    if structured[uri]?.sourcesStale == true { pairSource(uri) }
  }

  /// Feeds a change's line changes to the document's index.
  func structuredLinesChanged(uri: String, _ changes: [LineChange]) {
    guard structured[uri] != nil, let document = documents[uri] else { return }
    structured[uri]!.apply(changes, text: document.text)
    sourceChanged(uri)
  }

  /// After a change of the rules or the locale: every structured
  /// document's findings are recomputed and published again.
  func refreshStructuredFindings() {
    for uri in structured.keys {
      structured[uri]!.rules = rules
      structured[uri]!.findings = nil
      hazards[uri]?.needsPublish = true
    }
  }

  /// The structured state of a request's document, when the request is
  /// answered in document mode: a structured document, and `paragraphs`
  /// not given or given as `document` (or its synonym `values`).
  /// Its index is read through the request's lines (`whole`: through the
  /// end, for what depends on the whole file such as the mark spelling).
  /// `text` is the document's, for callers inside `withOpenDocument`.
  func structuredDocument(
    for target: BidiRequestTarget, text: Document.Text? = nil, whole: Bool = false
  ) -> StructuredDocument? {
    guard structured[target.uri] != nil else { return nil }
    if target.options.paragraphsGiven && target.options.paragraphs != .document { return nil }
    readStructured(target.uri, text: text, through: whole ? Int.max : target.selection.range?.end.line ?? Int.max)
    return structured[target.uri]
  }

  /// Lines read per step of `prepareStructured`, between two looks at the clock.
  static let structuredReadStep = 512

  /// For a structured document, what its publish needs, a step at a time
  /// until `stop()`: its index read to the end, then its findings. True
  /// when all is ready (or it is no structured document).
  func prepareStructured(_ document: Document, until stop: () -> Bool) -> Bool {
    guard structured[document.uri] != nil else { return true }
    refreshSources(document.uri)
    if structured[document.uri]!.isQuiet { return true }
    while let frontier = structured[document.uri]!.index.frontierLine {
      readStructured(document.uri, text: document.text, through: frontier + Self.structuredReadStep)
      if stop() { return false }
    }
    return structured[document.uri]!.computeFindings(text: document.text, localeSetting: localeSetting, until: stop)
  }

  /// Reads a lazily read index up to the first entry boundary past line
  /// `line` (`Int.max`: to the end); `text` is the document's (nil: looked up).
  func readStructured(_ uri: String, text: Document.Text? = nil, through line: Int) {
    guard structured[uri]?.index.isComplete == false, let text = text ?? documents[uri]?.text else { return }
    structured[uri]!.index.read(StoredLines(text: text), through: line)
  }

  /// Whether line `line` of `document` gets its hazards from the line scan:
  /// every line of a plain document; in a structured document, a line that
  /// no entry and no region touches (the engine's findings cover the others).
  func isFreeLine(_ line: Int, of document: Document) -> Bool {
    guard structured[document.uri] != nil else { return true }
    readStructured(document.uri, text: document.text, through: Int.max)
    return structured[document.uri]!.isFreeLine(line)
  }
}

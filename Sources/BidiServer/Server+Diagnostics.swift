import BidiHazards
import BidiProtocol
import DocumentFormats
import DocumentStore
import JSONRPC
import UnicodeBidi

/// Bidi hazard diagnostics (Protocol/specification.md, “`textDocument/publishDiagnostics`”): each open document's line tree
/// keeps a `HazardLineState` per line (see `HazardLineCache`); edits mark
/// only the lines they touch, and the diagnostics are rescanned and
/// published when the server has caught up with its input (debounced: a
/// burst of changes publishes once), with the document's version and its
/// full set of diagnostics.
extension BidiLanguageServer {
  /// The hazard state of one open document.
  struct HazardState {
    var cache: HazardLineCache
    /// Whether the published set may be out of date.
    var needsPublish = true
    /// Whether the set was published as empty before the scan ran (the
    /// document holds no bidi control), so the scan still runs in the
    /// background, to record the tokenizer states later edits start from.
    var scansInBackground = false
    /// Whether the first publish may skip the scan: false once tried.
    var mayPublishEarly = true
    /// The token of the `window/workDoneProgress` report of the first scan
    /// of a large document, while it runs.
    var progressToken: String?
  }

  /// A scanner for a document: its language from the languageId, else from
  /// the URI's file name; none in a structured document, whose lines outside
  /// entries get the line rules as `check` gives them (the findings engine's).
  func hazardScanner(languageId: String, uri: String) -> HazardScanner {
    let isStructured = DocumentKind.detect(languageId: languageId, path: uri).structuredFormat != nil
    let language = isStructured ? nil : SourceLanguage(languageId: languageId) ?? SourceLanguage(path: uri)
    var scanner = HazardScanner(
      language: language, settings: rules, renderer: HazardScanner.visualOrderRenderer)
    scanner.maximumDiagnosticsPerLine = Self.hazardsPerLine
    return scanner
  }

  /// At most this many hazards of one line are published (the first the
  /// scan finds), then one `bidi.truncated` diagnostic saying how many more
  /// the line holds (specification, “Limits”).
  static let hazardsPerLine = 100
  /// At most this many hazards of one document are published, then one
  /// `bidi.truncated` diagnostic saying how many more it holds.
  static let hazardsPerDocument = 1_000

  /// Starts (or restarts, with the current rules) the hazard scan of an
  /// open document: every line waits for a scan. A document just opened
  /// (`isNew`) has no line states to drop, and dropping them would copy
  /// every node its snapshots share.
  func startHazards(for document: Document, isNew: Bool = false) {
    hazards[document.uri] = HazardState(
      cache: HazardLineCache(scanner: hazardScanner(languageId: document.languageId, uri: document.uri)))
    if !isNew { _ = try? documents.withDocument(document.uri) { $0.text.removeAllLineStates() } }
  }

  /// Documents at least this large get `window/workDoneProgress` reports
  /// while they are opened and first checked (when the client supports it).
  static let progressThreshold = 8 << 20

  /// Starts a progress report (`window/workDoneProgress/create`, then
  /// `$/progress` begin); returns its token, or nil when the client does not
  /// support progress.
  func beginProgress(_ title: String, message: String, on connection: Connection) -> String? {
    guard clientSupportsProgress else { return nil }
    progressTokens += 1
    let token = "bidi-lsp/\(progressTokens)"
    // The client's answer to the create request is not needed; the
    // connection logs and drops it.
    connection.send(
      .request(
        Request(
          id: .string("\(token)/create"), method: Progress.createMethod, params: Progress.createParams(token: token))))
    reportProgress(token, .begin(title: title, message: message), on: connection)
    return token
  }

  func reportProgress(_ token: String, _ report: Progress.Report, on connection: Connection) {
    connection.send(notification: Progress.method) { writer in
      Progress.encodeParams(token: token, report, to: &writer)
    }
  }

  /// Records that a change replaced some lines: the line tree already
  /// dropped their hazard states, so the next idle slice rescans them.
  func hazardLinesChanged(uri: String, _ changes: [LineChange]) {
    guard !changes.isEmpty else { return }
    hazards[uri]?.needsPublish = true
    logger.trace("didChange \(uri): \(changes.map(\.description).joined(separator: ", "))")
  }

  /// One idle slice of hazard scanning ends once it has scanned this many
  /// bytes of lines or run this long (at a line boundary), so that a message
  /// arriving meanwhile waits only a few milliseconds.
  static let hazardSliceBytes = 1 << 20
  static let hazardSliceTime = Duration.milliseconds(8)

  /// Rescans a slice of what changed, and publishes each document whose
  /// scan is complete and whose diagnostics may have changed. Returns
  /// whether work remains.
  package func connectionIsIdle(_ connection: Connection) -> Bool {
    let deadline = ContinuousClock.now + Self.hazardSliceTime
    var bytes = Self.hazardSliceBytes
    for uri in hazards.keys.sorted() where hazards[uri]!.needsPublish || hazards[uri]!.scansInBackground {
      guard documents[uri] != nil else {
        hazards[uri] = nil
        continue
      }
      if bytes <= 0 || ContinuousClock.now >= deadline { return true }
      publishEarlyIfClean(uri, on: connection)
      bytes -= refreshHazards(uri, bytes: bytes) { ContinuousClock.now >= deadline }
      guard let document = documents[uri] else { continue }
      let cache = hazards[uri]!.cache
      let needsRefresh = cache.needsRefresh(document.text)
      if let token = hazards[uri]!.progressToken {
        if needsRefresh {
          let percentage = cache.firstUnscannedLine(document.text) * 100 / max(document.text.lineCount, 1)
          reportProgress(token, .report(message: "checking for bidi hazards", percentage: percentage), on: connection)
        } else {
          reportProgress(token, .end(message: "done"), on: connection)
          hazards[uri]!.progressToken = nil
        }
      }
      if needsRefresh { return true }
      if !prepareStructured(document, until: { ContinuousClock.now >= deadline }) { return true }
      hazards[uri]!.scansInBackground = false
      guard hazards[uri]!.needsPublish else { continue }
      hazards[uri]!.needsPublish = false
      publishDiagnostics(document, on: connection)
    }
    return false
  }

  /// Documents up to this size whose first scan has not started are
  /// searched for bidi controls first (about a millisecond a megabyte).
  static let earlyPublishBytes = 8 << 20

  /// The first publish of a document that holds no bidi control at all: its
  /// set is empty whatever the scan would record, so it is published at once
  /// and the scan goes on in the background. An editor waiting for the
  /// document's diagnostics (most of them, after an open) is not held up by
  /// a scan that can find nothing. Returns whether it published.
  @discardableResult
  private func publishEarlyIfClean(_ uri: String, on connection: Connection) -> Bool {
    guard hazards[uri]!.mayPublishEarly, hazards[uri]!.needsPublish else { return false }
    hazards[uri]!.mayPublishEarly = false
    guard let document = documents[uri], structured[uri] == nil,
      document.text.utf8Count <= Self.earlyPublishBytes, document.text.freshStateCount == 0,
      !HazardLineCache.mayHaveHazards(document.text)
    else { return false }
    hazards[uri]!.needsPublish = false
    hazards[uri]!.scansInBackground = true
    publishDiagnostics(document, on: connection)
    return true
  }

  /// Rescans the stale lines of a document, up to about `bytes` bytes of
  /// them or until `stop()` is true; returns how many bytes it scanned.
  /// The states live in the stored document's line tree, which is mutated in
  /// place (so the snapshots requests hold are never copied whole).
  @discardableResult
  func refreshHazards(_ uri: String, bytes: Int = .max, until stop: () -> Bool = { false }) -> Int {
    guard let cache = hazards[uri]?.cache else { return 0 }
    return (try? documents.withDocument(uri) { cache.refreshSlice(&$0.text, bytes: bytes, until: stop) }) ?? 0
  }

  /// The hazards of an open document as last scanned (call `refreshHazards` first).
  func hazardDiagnostics(_ uri: String) -> [HazardDiagnostic] {
    guard let cache = hazards[uri]?.cache, let document = documents[uri] else { return [] }
    return cache.diagnostics(document.text)
  }

  /// Fix-all of an open document as last scanned.
  func hazardFixAllEdits(_ uri: String, strategy: FixAllStrategy) -> [HazardTextEdit] {
    guard let cache = hazards[uri]?.cache, let document = documents[uri] else { return [] }
    return cache.fixAllEdits(document.text, strategy: strategy)
  }

  /// The per-document limit of a publish (specification, “Limits”), one
  /// for a plain document's hazards and a structured document's findings:
  /// counted over the lines in order, the first `maximum` are published,
  /// the others counted for one `bidi.truncated` note on the line of the
  /// first left out.
  struct DocumentLimit {
    let maximum: Int
    private(set) var shown = 0
    private(set) var notShown = 0
    private(set) var firstNotShownLine: Int?

    init(maximum: Int) {
      self.maximum = maximum
    }

    /// Admits `count` diagnostics of line `line`, after which the line's own
    /// limit left out `omitted` more: returns how many of the `count` to
    /// publish, and whether the line gets its own note for the `omitted`
    /// (false: they are counted in the document's note).
    mutating func admit(_ count: Int, omitted: Int = 0, line: Int) -> (publish: Int, lineNote: Bool) {
      let room = max(maximum - shown, 0)
      let publish = min(count, room)
      shown += publish
      if count > room || (room == 0 && omitted > 0) {
        firstNotShownLine = firstNotShownLine ?? line
        notShown += count - publish + omitted
        return (publish, false)
      }
      return (publish, omitted > 0)
    }

    /// Whether nothing more is published: the first left out is known.
    var isFull: Bool { shown >= maximum && firstNotShownLine != nil }

    /// Counts `count` more left out, once `isFull`.
    mutating func omit(_ count: Int) { notShown += count }
  }

  /// Publishes a document's diagnostics within the limits: per line at most
  /// `hazardsPerLine` hazards, then a `bidi.truncated` note on that line;
  /// per document at most `hazardsPerDocument` hazards and structured
  /// findings together, in line order, then one `bidi.truncated` note on the
  /// line of the first left out, counting all the others. Only what is
  /// published is turned into wire diagnostics; the rest is only counted.
  func publishDiagnostics(_ document: Document, on connection: Connection) {
    var entries: [Diagnostic] = []
    var limit = DocumentLimit(maximum: Self.hazardsPerDocument)
    var codec = positions
    // A structured document's findings come from its findings engine; the
    // line scan counts only on the lines no entry or region touches.
    // Their groups are taken in line order (the syntax error's after the
    // groups anchored on or before its line), one at a time as the line
    // scan passes their lines; past the limit they are only counted.
    // A group published whole keeps its wire diagnostics for the next
    // publish (`FindingsStore.Group.published`).
    var engineFindings = structuredFindings(document)
    let isStructured = engineFindings != nil
    var groups = engineFindings.map { FindingsCursor($0.store, error: $0.error) }
    var converted: [(line: Int, wire: [Diagnostic])] = []
    func publishFindings(before line: Int) {
      while let group = groups?.next(before: line) {
        let publish = limit.admit(group.count, line: group.line).publish
        if publish == group.count, let wire = group.publishedDiagnostics {
          entries += wire
        } else {
          let start = entries.count
          for finding in group.relative.prefix(publish) {
            if let wire = try? diagnostic(finding.shifted(by: group.line), document, &codec) { entries.append(wire) }
          }
          if group.isStored && publish == group.count && entries.count - start == publish {
            converted.append((group.line, Array(entries[start...])))
          }
        }
        // Once the limit is reached, the rest is only counted, all at once.
        if limit.isFull, let rest = groups?.takeRest() { return limit.omit(rest) }
      }
    }
    hazards[document.uri]?.cache.forEachFlaggedLine(document.text) { n, state in
      publishFindings(before: n)
      guard !isStructured || isFreeLine(n, of: document), let line = try? document.text.line(n) else { return true }
      let (publish, lineNote) = limit.admit(state.diagnostics.count, omitted: state.omitted, line: n)
      for var hazard in state.diagnostics.prefix(publish) {
        hazard.line = n
        entries.append(diagnostic(hazard, line, &codec))
      }
      if lineNote { entries.append(truncation(line: n, line, state.omitted, onLine: true, &codec)) }
      return true
    }
    publishFindings(before: Int.max)
    // Only the document holds the store now: the groups change in place.
    (groups, engineFindings) = (nil, nil)
    if !converted.isEmpty, structured[document.uri]?.findings != nil {
      for (line, wire) in converted { structured[document.uri]!.findings!.setPublished(wire, line: line) }
    }
    if let n = limit.firstNotShownLine, let line = try? document.text.line(n) {
      entries.append(
        truncation(line: n, line, limit.notShown, onLine: false, findings: isStructured, &codec))
    }
    connection.send(notification: PublishDiagnostics.method) { writer in
      PublishDiagnostics.encode(uri: document.uri, version: document.version, diagnostics: entries, to: &writer)
    }
  }

  /// The note that `count` more hazards (a structured document's:
  /// `findings`) are not shown: on the whole of `line`, severity Information.
  private func truncation(
    line n: Int, _ line: Line, _ count: Int, onLine: Bool, findings: Bool = false, _ codec: inout PositionCodec
  ) -> Diagnostic {
    let noun = findings ? "finding" : "hazard"
    let what = count == 1 ? "1 more bidi \(noun)" : "\(count) more bidi \(noun)s"
    let message =
      onLine
      ? "\(what) on this line not shown (at most \(Self.hazardsPerLine) per line are published)"
      : "\(what) not shown in this document (at most \(Self.hazardsPerDocument) per document are published)"
    return Diagnostic(
      range: codec.range(line: n, line, 0..<line.utf8Count), severity: .information, code: .truncated,
      message: message, visualOrder: nil)
  }

  /// The wire form of a hazard diagnostic on `line`.
  func diagnostic(_ diagnostic: HazardDiagnostic, _ line: Line, _ codec: inout PositionCodec) -> Diagnostic {
    Diagnostic(
      range: codec.range(line: diagnostic.line, line, diagnostic.range), severity: diagnostic.severity,
      code: diagnostic.code, message: diagnostic.message, visualOrder: diagnostic.visualOrder)
  }

  /// Applies `settings.bidi.diagnostics` (each rule off, on or a severity)
  /// and `locale`, `sourceLocale`: what they change is checked again and
  /// published (a change of `sourceLocale` pairs every document again).
  func applyRuleSettings(_ change: SettingsChange) {
    var updated = rules
    for (rule, setting) in change.diagnostics ?? [] { updated[rule] = setting }
    let locale = change.locale.map { $0.isEmpty ? nil : $0 } ?? localeSetting
    let sourceLocale = change.sourceLocale.map { $0.isEmpty ? nil : $0 } ?? sourceLocaleSetting
    if sourceLocale != sourceLocaleSetting {
      sourceLocaleSetting = sourceLocale
      for uri in structured.keys {
        pairSource(uri)
        hazards[uri]?.needsPublish = true
      }
    }
    guard updated != rules || locale != localeSetting else { return }
    if updated != rules {
      rules = updated
      // Rescan and republish every open document with the new rules.
      for uri in hazards.keys {
        guard let document = documents[uri] else { continue }
        let token = hazards[uri]?.progressToken
        startHazards(for: document)
        hazards[uri]?.progressToken = token
      }
    }
    localeSetting = locale
    refreshStructuredFindings()
  }
}

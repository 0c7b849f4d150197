import BidiHazards
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
    /// The token of the `window/workDoneProgress` report of the first scan
    /// of a large document, while it runs.
    var progressToken: String?
  }

  /// A scanner for a document: its language from the languageId, else from
  /// the URI's file name.
  func hazardScanner(languageId: String, uri: String) -> HazardScanner {
    let language = SourceLanguage(languageId: languageId) ?? SourceLanguage(path: uri)
    return HazardScanner(language: language, settings: hazardSettings, renderer: HazardScanner.visualOrderRenderer)
  }

  /// Starts (or restarts, with the current rules) the hazard scan of an
  /// open document: every line waits for a scan.
  func startHazards(for document: Document) {
    hazards[document.uri] = HazardState(
      cache: HazardLineCache(scanner: hazardScanner(languageId: document.languageId, uri: document.uri)))
    _ = try? documents.withDocument(document.uri) { $0.text.removeAllLineStates() }
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
          id: .string("\(token)/create"), method: "window/workDoneProgress/create",
          params: ["token": .string(token)])))
    reportProgress(
      token,
      [
        "kind": "begin", "title": .string(title), "message": .string(message),
        "cancellable": false, "percentage": 0,
      ], on: connection)
    return token
  }

  func reportProgress(_ token: String, _ value: JSONObject, on connection: Connection) {
    connection.send(notification: "$/progress", params: ["token": .string(token), "value": .object(value)])
  }

  /// Records that a change replaced some lines: the line tree already
  /// dropped their hazard states, so the next idle slice rescans them.
  func hazardLinesChanged(uri: String, _ changes: [LineChange]) {
    guard !changes.isEmpty else { return }
    hazards[uri]?.needsPublish = true
    logger.trace("didChange \(uri): \(changes.map(\.description).joined(separator: ", "))")
  }

  /// Lines of hazard scanning per idle slice: small enough that a message
  /// arriving meanwhile waits only a few milliseconds.
  static let hazardSliceLines = 20_000

  /// Rescans a slice of what changed, and publishes each document whose
  /// scan is complete and whose diagnostics may have changed. Returns
  /// whether work remains.
  public func connectionIsIdle(_ connection: Connection) -> Bool {
    var budget = Self.hazardSliceLines
    for uri in hazards.keys.sorted() where hazards[uri]!.needsPublish {
      guard documents[uri] != nil else {
        hazards[uri] = nil
        continue
      }
      if budget <= 0 { return true }
      budget -= refreshHazards(uri, limit: budget)
      guard let document = documents[uri] else { continue }
      let cache = hazards[uri]!.cache
      let needsRefresh = cache.needsRefresh(document.text)
      if let token = hazards[uri]!.progressToken {
        if needsRefresh {
          let percentage = cache.firstUnscannedLine(document.text) * 100 / max(document.text.lineCount, 1)
          reportProgress(
            token,
            [
              "kind": "report", "message": "checking for bidi hazards",
              "percentage": JSONValue(percentage),
            ], on: connection)
        } else {
          reportProgress(token, ["kind": "end", "message": "done"], on: connection)
          hazards[uri]!.progressToken = nil
        }
      }
      if needsRefresh { return true }
      hazards[uri]!.needsPublish = false
      publishDiagnostics(document, on: connection)
    }
    return false
  }

  /// Rescans at most `limit` stale lines of a document; returns how many.
  /// The states live in the stored document's line tree, which is mutated in
  /// place (so the snapshots requests hold are never copied whole).
  @discardableResult
  func refreshHazards(_ uri: String, limit: Int = .max) -> Int {
    guard let cache = hazards[uri]?.cache else { return 0 }
    let ranges = try? documents.withDocument(uri) { cache.refresh(&$0.text, limit: limit) }
    return ranges?.reduce(0) { $0 + $1.count } ?? 0
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

  func publishDiagnostics(_ document: Document, on connection: Connection) {
    let diagnostics = hazards[document.uri]?.cache.diagnostics(document.text) ?? []
    var items: [JSONValue] = []
    items.reserveCapacity(diagnostics.count)
    var lines = LineUnitsCache(encoding)
    for diagnostic in diagnostics {
      guard let line = try? document.text.line(diagnostic.line) else { continue }
      items.append(diagnosticJSON(diagnostic, lines.units(diagnostic.line, line)))
    }
    connection.send(
      notification: "textDocument/publishDiagnostics",
      params: ["uri": .string(document.uri), "version": JSONValue(document.version), "diagnostics": .array(items)])
  }

  func diagnosticJSON(_ diagnostic: HazardDiagnostic, _ units: LineUnits) -> JSONValue {
    var object: JSONObject = [
      "range": rangeJSON(line: diagnostic.line, diagnostic.range, units),
      "severity": JSONValue(diagnostic.severity.lspValue),
      "code": .string(diagnostic.code.rawValue),
      "source": "bidi-lsp",
      "message": .string(diagnostic.message),
    ]
    if let visual = diagnostic.visualOrder { object["data"] = ["visualOrder": .string(visual)] }
    return .object(object)
  }

  /// An LSP Range for a byte range within line `index`.
  func rangeJSON(line index: Int, _ bytes: Range<Int>, _ units: LineUnits) -> JSONValue {
    [
      "start": ["line": JSONValue(index), "character": JSONValue(units.character(atUTF8Offset: bytes.lowerBound))],
      "end": ["line": JSONValue(index), "character": JSONValue(units.character(atUTF8Offset: bytes.upperBound))],
    ]
  }

  /// Applies `settings.bidi.diagnostics`: each rule off, on or a severity.
  func applyDiagnosticSettings(_ value: Params) throws(ResponseError) {
    try value.requireObject()
    var updated = hazardSettings
    for (key, setting) in value.value?.objectValue ?? JSONObject() {
      let field = value[key]
      let rule: HazardRuleSetting
      if let enabled = setting.boolValue {
        rule = HazardRuleSetting(enabled: enabled)
      } else if let name = setting.stringValue, let severity = HazardRuleSetting(severityName: name) {
        rule = severity
      } else {
        throw field.error("expected true, false, \"error\", \"warning\", \"information\" or \"hint\"")
      }
      guard updated.set(key: key, to: rule) else {
        throw field.error(
          "unknown rule; expected one of unpaired, unmatched, override, inIdentifier, inComment, inString")
      }
    }
    guard updated != hazardSettings else { return }
    hazardSettings = updated
    // Rescan and republish every open document with the new rules.
    for uri in hazards.keys {
      guard let document = documents[uri] else { continue }
      let token = hazards[uri]?.progressToken
      startHazards(for: document)
      hazards[uri]?.progressToken = token
    }
  }

  /// `workspace/didChangeConfiguration`: `settings.bidi` as in
  /// `initializationOptions.bidi`.
  func didChangeConfiguration(_ params: Params, _ connection: Connection) {
    do throws(ResponseError) {
      guard let settings = try params.optional("settings"), let bidi = try settings.optional("bidi") else { return }
      try applySettings(bidi)
    } catch {
      warn("workspace/didChangeConfiguration ignored: \(error.message)", on: connection)
    }
  }
}

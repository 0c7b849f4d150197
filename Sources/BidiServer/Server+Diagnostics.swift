import BidiHazards
import DocumentStore
import JSONRPC
import UnicodeBidi

/// Bidi hazard diagnostics (contract §5): each open document keeps a
/// `HazardLineCache`; edits mark only the lines they touch, and the
/// diagnostics are rescanned and published when the server has caught up
/// with its input (debounced: a burst of changes publishes once), with the
/// document's version and its full set of diagnostics.
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
    return HazardScanner(language: language, settings: hazardSettings, renderer: Self.visualOrderRenderer)
  }

  /// Renders a line in visual order for diagnostic messages. The bidi
  /// controls the line keeps in its visual order are written by name
  /// (`<RLI>`), so that the message itself cannot be reordered by them.
  public static let visualOrderRenderer: VisualOrderRenderer = { bytes in
    let line = BidiParagraph(utf8: bytes).line()
    var text = String()
    for scalar in line.visualScalars() {
      if let control = BidiControl(scalar: scalar) {
        text += "<\(control.shortName)>"
      } else {
        text.unicodeScalars.append(Unicode.Scalar(scalar) ?? "\u{FFFD}")
      }
    }
    return text
  }

  func startHazards(for document: Document) {
    hazards[document.uri] = HazardState(
      cache: HazardLineCache(
        scanner: hazardScanner(languageId: document.languageId, uri: document.uri),
        lineCount: document.text.lineCount))
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

  /// Records that lines `replaced` (before the change) are now `newCount` lines.
  func hazardLinesReplaced(uri: String, _ replaced: Range<Int>, with newCount: Int) {
    hazards[uri]?.cache.replaceLines(replaced, with: newCount)
    hazards[uri]?.needsPublish = true
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
      guard let document = documents[uri] else {
        hazards[uri] = nil
        continue
      }
      if budget <= 0 { return true }
      budget -= refreshHazards(uri, document, limit: budget)
      let cache = hazards[uri]!.cache
      if let token = hazards[uri]!.progressToken {
        if cache.needsRefresh {
          let percentage = cache.firstUnscannedLine * 100 / max(cache.lineCount, 1)
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
      if cache.needsRefresh { return true }
      hazards[uri]!.needsPublish = false
      publishDiagnostics(document, on: connection)
    }
    return false
  }

  /// Rescans at most `limit` stale lines of a document; returns how many.
  /// The cache is mutated in place in `hazards` (a copy taken out of the
  /// dictionary would copy its per-line arrays on the first write: a cost
  /// proportional to the document, on every edit).
  @discardableResult
  func refreshHazards(_ uri: String, _ document: Document, limit: Int = .max) -> Int {
    guard let lineCount = hazards[uri]?.cache.lineCount else { return 0 }
    if lineCount != document.text.lineCount {
      // Cannot happen when every change was recorded; rescan to be safe.
      logger.error("hazard cache of \(uri) lost track of its lines; rescanning")
      hazards[uri]!.cache = HazardLineCache(scanner: hazards[uri]!.cache.scanner, lineCount: document.text.lineCount)
    }
    var scanned = 0
    hazards[uri]!.cache.refresh(limit: limit) { n in
      scanned += 1
      return (try? document.text.line(n))?.withUTF8 { Array($0) } ?? []
    }
    return scanned
  }

  func publishDiagnostics(_ document: Document, on connection: Connection) {
    let diagnostics = hazards[document.uri]?.cache.diagnostics ?? []
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

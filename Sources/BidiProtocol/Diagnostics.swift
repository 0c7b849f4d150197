import JSONRPC
import UnicodeBidi

/// An LSP Diagnostic of bidi-lsp.
package struct Diagnostic: Sendable, Hashable, JSONEncodable {
  package var range: LSPRange
  package var severity: DiagnosticSeverity
  package var code: RuleCode
  package var message: String
  /// `data.visualOrder`: the line in visual order, controls named.
  package var visualOrder: String?

  package init(range: LSPRange, severity: DiagnosticSeverity, code: RuleCode, message: String, visualOrder: String?) {
    self.range = range
    self.severity = severity
    self.code = code
    self.message = message
    self.visualOrder = visualOrder
  }

  package func encode(to writer: inout JSONWriter) {
    writer.beginObject()
    writer.member("range", range)
    writer.member("severity", severity)
    writer.member("code", code.rawValue)
    writer.member("source", "bidi-lsp")
    writer.member("message", message)
    if let visualOrder {
      writer.key("data")
      writer.beginObject()
      writer.member("visualOrder", visualOrder)
      writer.endObject()
    }
    writer.endObject()
  }
}

/// `textDocument/publishDiagnostics` params, written entry by entry.
package enum PublishDiagnostics {
  package static let method = "textDocument/publishDiagnostics"

  /// Writes `{uri, version?, diagnostics: […]}`, taking the diagnostics
  /// one by one from `diagnostics` (a lazy sequence: none is made before
  /// the one before it is written).
  package static func encode(
    uri: String, version: Int?, diagnostics: some Sequence<Diagnostic>, to writer: inout JSONWriter
  ) {
    writer.beginObject()
    writer.member("uri", uri)
    if let version { writer.member("version", version) }
    writer.key("diagnostics")
    writer.beginArray()
    for diagnostic in diagnostics { diagnostic.encode(to: &writer) }
    writer.endArray()
    writer.endObject()
  }
}

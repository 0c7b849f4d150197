import JSONRPC

/// An LSP Diagnostic of bidi-lsp.
public struct Diagnostic: Sendable, Hashable, JSONEncodable {
  public var range: LSPRange
  public var severity: DiagnosticSeverity
  public var code: String
  public var message: String
  /// `data.visualOrder`: the line in visual order, controls named.
  public var visualOrder: String?

  public init(range: LSPRange, severity: DiagnosticSeverity, code: String, message: String, visualOrder: String?) {
    self.range = range
    self.severity = severity
    self.code = code
    self.message = message
    self.visualOrder = visualOrder
  }

  public func encode(to writer: inout JSONWriter) {
    writer.beginObject()
    writer.member("range", range)
    writer.member("severity", severity)
    writer.member("code", code)
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
public enum PublishDiagnostics {
  public static let method = "textDocument/publishDiagnostics"

  /// Writes `{uri, version?, diagnostics: […]}`, taking the diagnostics
  /// one by one from `diagnostics` (a lazy sequence: none is made before
  /// the one before it is written).
  public static func encode(
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

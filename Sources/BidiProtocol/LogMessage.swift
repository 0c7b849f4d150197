import JSONRPC

/// `window/logMessage`, as the server sends it: a warning that a
/// notification could not be applied or a setting was refused
/// (Protocol/specification.md, “`window/logMessage`”).
package enum LogMessage {
  package static let method = "window/logMessage"

  /// The LSP `MessageType` of the server's messages: 2, Warning.
  package static let warningType = 2

  /// The params `{type: 2, message}`; the message starts with `bidi-lsp: `.
  package static func encodeWarning(_ message: String, to writer: inout JSONWriter) {
    writer.beginObject()
    writer.member("type", warningType)
    writer.member("message", "bidi-lsp: \(message)")
    writer.endObject()
  }
}

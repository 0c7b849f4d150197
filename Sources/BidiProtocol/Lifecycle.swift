import JSONRPC

/// `initialize` params: what the client offers.
package struct InitializeParams: Sendable {
  /// `capabilities.general.positionEncodings`, the strings among them in
  /// the client's order of preference (nil when absent).
  package var positionEncodings: [String]?
  /// `capabilities.window.workDoneProgress`.
  package var supportsProgress = false
  /// `initializationOptions.bidi`, when present: the settings, or why they
  /// cannot be read (a bad setting must not keep the editor from starting:
  /// the server keeps its defaults and says why).
  package var settings: Result<SettingsChange, ResponseError>?

  package init(decoding value: JSONValue?) throws(ResponseError) {
    let params = Params(value)
    try params.requireObject()
    if let capabilities = try params.optional("capabilities"), let general = try capabilities.optional("general"),
      let offered = try general.optional("positionEncodings")
    {
      positionEncodings = try offered.array().compactMap { $0.value?.stringValue }
    }
    if let capabilities = try params.optional("capabilities"), let window = try capabilities.optional("window"),
      let progress = try window.optional("workDoneProgress")
    {
      supportsProgress = try progress.bool()
    }
    if let options = try params.optional("initializationOptions"), let bidi = try options.optional("bidi") {
      do throws(ResponseError) {
        settings = .success(try SettingsChange(bidi))
      } catch {
        settings = .failure(error)
      }
    }
  }
}

/// The `initialize` result: the server's capabilities.
package struct InitializeResult: Sendable, JSONEncodable {
  /// The negotiated encoding's name (`"utf-16"`).
  package var positionEncoding: String
  /// The `bidi/` methods served, for `experimental.bidi.methods`.
  package var bidiMethods: [String]
  package var serverName: String
  package var serverVersion: String

  package init(positionEncoding: String, bidiMethods: [String], serverName: String, serverVersion: String) {
    self.positionEncoding = positionEncoding
    self.bidiMethods = bidiMethods
    self.serverName = serverName
    self.serverVersion = serverVersion
  }

  package func encode(to writer: inout JSONWriter) {
    writer.beginObject()
    writer.key("capabilities")
    writer.beginObject()
    writer.member("positionEncoding", positionEncoding)
    writer.member("textDocumentSync", ["openClose": true, "change": 2, "save": false] as JSONValue)
    writer.member("hoverProvider", true)
    writer.member("inlayHintProvider", true)
    writer.member(
      "codeActionProvider", ["codeActionKinds": ["quickfix", "refactor.rewrite", "source.fixAll"]] as JSONValue)
    writer.key("experimental")
    writer.beginObject()
    writer.key("bidi")
    writer.beginObject()
    writer.member("protocolVersion", 1)
    writer.member("methods", bidiMethods)
    writer.endObject()
    writer.endObject()
    writer.endObject()
    writer.key("serverInfo")
    writer.beginObject()
    writer.member("name", serverName)
    writer.member("version", serverVersion)
    writer.endObject()
    writer.endObject()
  }
}

import JSONRPC

/// `bidi/documentInfo` params.
package struct DocumentInfoParams: Sendable {
  package var uri: String
  package var includeText = false

  package init(decoding value: JSONValue?) throws(ResponseError) {
    let params = Params(value)
    uri = try documentURI(params)
    if let include = try params.optional("includeText") { includeText = try include.bool() }
  }
}

/// The `bidi/documentInfo` result.
package struct DocumentInfoResult: Sendable, JSONEncodable {
  package var uri: String
  package var version: Int
  package var lineCount: Int
  package var utf8Length: Int
  /// With `includeText`.
  package var text: String?

  package init(uri: String, version: Int, lineCount: Int, utf8Length: Int, text: String?) {
    self.uri = uri
    self.version = version
    self.lineCount = lineCount
    self.utf8Length = utf8Length
    self.text = text
  }

  package func encode(to writer: inout JSONWriter) {
    writer.beginObject()
    writer.member("uri", uri)
    writer.member("version", version)
    writer.member("lineCount", lineCount)
    writer.member("utf8Length", utf8Length)
    writer.member("text", ifPresent: text)
    writer.endObject()
  }
}

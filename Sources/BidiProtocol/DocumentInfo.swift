import JSONRPC

/// `bidi/documentInfo` params.
public struct DocumentInfoParams: Sendable {
  public var uri: String
  public var includeText = false

  public init(decoding value: JSONValue?) throws(ResponseError) {
    let params = Params(value)
    uri = try documentURI(params)
    if let include = try params.optional("includeText") { includeText = try include.bool() }
  }
}

/// The `bidi/documentInfo` result.
public struct DocumentInfoResult: Sendable, JSONEncodable {
  public var uri: String
  public var version: Int
  public var lineCount: Int
  public var utf8Length: Int
  /// With `includeText`.
  public var text: String?

  public init(uri: String, version: Int, lineCount: Int, utf8Length: Int, text: String?) {
    self.uri = uri
    self.version = version
    self.lineCount = lineCount
    self.utf8Length = utf8Length
    self.text = text
  }

  public func encode(to writer: inout JSONWriter) {
    writer.beginObject()
    writer.member("uri", uri)
    writer.member("version", version)
    writer.member("lineCount", lineCount)
    writer.member("utf8Length", utf8Length)
    writer.member("text", ifPresent: text)
    writer.endObject()
  }
}

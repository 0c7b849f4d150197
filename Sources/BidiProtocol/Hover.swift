import JSONRPC

/// `textDocument/hover` params.
public struct HoverParams: Sendable {
  public var uri: String
  public var position: LSPPosition

  public init(decoding value: JSONValue?) throws(ResponseError) {
    let params = Params(value)
    position = try LSPPosition(params["position"])
    uri = try documentURI(params)
  }

  /// -32602 for a position past the document's end.
  public func lineError(lineCount: Int) -> ResponseError {
    .invalidParams(
      at: "params.position.line",
      "line \(position.line) is past the end of the document, which has \(lineCount) lines")
  }
}

/// The `textDocument/hover` result: plain text about a line.
public struct HoverResult: Sendable, Hashable, JSONEncodable {
  public var text: String
  public var range: LSPRange

  public init(text: String, range: LSPRange) {
    self.text = text
    self.range = range
  }

  public func encode(to writer: inout JSONWriter) {
    writer.beginObject()
    writer.key("contents")
    writer.beginObject()
    writer.member("kind", "plaintext")
    writer.member("value", text)
    writer.endObject()
    writer.member("range", range)
    writer.endObject()
  }
}

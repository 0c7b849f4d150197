import JSONRPC
import UnicodeBidi

/// `textDocument/hover` params.
package struct HoverParams: Sendable {
  package var uri: String
  package var position: LSPPosition

  package init(decoding value: JSONValue?) throws(ResponseError) {
    let params = Params(value)
    position = try LSPPosition(params["position"])
    uri = try documentURI(params)
  }

  /// -32602 for a position past the document's end.
  package func lineError(lineCount: Int) -> ResponseError {
    .invalidParams(
      at: "params.position.line",
      "line \(position.line) is past the end of the document, which has \(lineCount) lines")
  }
}

/// The `textDocument/hover` result: plain text about a line.
package struct HoverResult: Sendable, Hashable, JSONEncodable {
  package var text: String
  package var range: LSPRange

  package init(text: String, range: LSPRange) {
    self.text = text
    self.range = range
  }

  package func encode(to writer: inout JSONWriter) {
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

import JSONRPC
import UnicodeBidi

/// `textDocument/inlayHint` params.
package struct InlayHintParams: Sendable {
  package var uri: String
  package var range: LSPRange

  package init(decoding value: JSONValue?) throws(ResponseError) {
    let params = Params(value)
    uri = try documentURI(params)
    range = try LSPRange(params["range"])
  }

  package var selection: LineSelection { LineSelection(range: range) }
}

/// The `textDocument/inlayHint` result: a bare array of `InlayHint`.
package enum InlayHintResult: ListResult {
  package typealias Entry = InlayHint
  package static var member: String? { nil }
}

/// A label shown at a position (a bidi control's short name).
package struct InlayHint: Sendable, Hashable, JSONEncodable {
  package var position: LSPPosition
  package var label: String
  package var tooltip: String

  package init(position: LSPPosition, label: String, tooltip: String) {
    self.position = position
    self.label = label
    self.tooltip = tooltip
  }

  package func encode(to writer: inout JSONWriter) {
    writer.beginObject()
    writer.member("position", position)
    writer.member("label", label)
    writer.member("tooltip", tooltip)
    writer.member("paddingLeft", false)
    writer.member("paddingRight", false)
    writer.endObject()
  }
}

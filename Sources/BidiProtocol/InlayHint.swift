import JSONRPC

/// `textDocument/inlayHint` params.
public struct InlayHintParams: Sendable {
  public var uri: String
  public var range: LSPRange

  public init(decoding value: JSONValue?) throws(ResponseError) {
    let params = Params(value)
    uri = try documentURI(params)
    range = try LSPRange(params["range"])
  }

  public var selection: LineSelection { LineSelection(range: range) }
}

/// The `textDocument/inlayHint` result: a bare array of `InlayHint`.
public enum InlayHintResult: ListResult {
  public typealias Entry = InlayHint
  public static var member: String? { nil }
}

/// A label shown at a position (a bidi control's short name).
public struct InlayHint: Sendable, Hashable, JSONEncodable {
  public var position: LSPPosition
  public var label: String
  public var tooltip: String

  public init(position: LSPPosition, label: String, tooltip: String) {
    self.position = position
    self.label = label
    self.tooltip = tooltip
  }

  public func encode(to writer: inout JSONWriter) {
    writer.beginObject()
    writer.member("position", position)
    writer.member("label", label)
    writer.member("tooltip", tooltip)
    writer.member("paddingLeft", false)
    writer.member("paddingRight", false)
    writer.endObject()
  }
}

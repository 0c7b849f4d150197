import JSONRPC

/// `textDocument/didOpen` params.
public struct DidOpenParams: Sendable {
  public var uri: String
  public var languageId: String
  public var version: Int
  public var text: String

  public init(decoding value: JSONValue?) throws(ResponseError) {
    let item = Params(value)["textDocument"]
    try item.requireObject()
    uri = try item["uri"].string()
    languageId = try item["languageId"].string()
    version = try item["version"].int()
    text = try item["text"].string()
  }
}

/// `textDocument/didChange` params.
public struct DidChangeParams: Sendable {
  public var uri: String
  public var version: Int
  /// In order; an empty list changes only the version.
  public var changes: [ContentChange]

  /// One change event: `range` replaced by `text`, or the whole text when
  /// `range` is nil.
  public struct ContentChange: Sendable, Hashable {
    public var range: LSPRange?
    public var text: String
  }

  public init(decoding value: JSONValue?) throws(ResponseError) {
    let params = Params(value)
    uri = try documentURI(params)
    version = try params["textDocument"]["version"].int()
    changes = []
    for change in try params["contentChanges"].array() {
      try change.requireObject()
      let range = try change.optional("range").map { (r) throws(ResponseError) in try LSPRange(r) }
      changes.append(ContentChange(range: range, text: try change["text"].string()))
    }
  }
}

/// `textDocument/didClose` params.
public struct DidCloseParams: Sendable {
  public var uri: String

  public init(decoding value: JSONValue?) throws(ResponseError) {
    uri = try documentURI(Params(value))
  }
}

import JSONRPC
import UnicodeBidi

/// `textDocument/didOpen` params.
package struct DidOpenParams: Sendable {
  package var uri: String
  package var languageId: String
  package var version: Int
  /// The text, a string value as decoded: a long one is jansson's
  /// validated bytes (`.longString`), read with `withStringUTF8` and stored
  /// without becoming a `String`.
  package var text: JSONValue

  package init(decoding value: JSONValue?) throws(ResponseError) {
    let item = Params(value)["textDocument"]
    try item.requireObject()
    uri = try item["uri"].string()
    languageId = try item["languageId"].string()
    version = try item["version"].int()
    text = try item["text"].decodedString()
  }
}

/// `textDocument/didChange` params.
package struct DidChangeParams: Sendable {
  package var uri: String
  package var version: Int
  /// In order; an empty list changes only the version.
  package var changes: [ContentChange]

  /// One change event: `range` replaced by `text`, or the whole text when
  /// `range` is nil.
  package struct ContentChange: Sendable, Hashable {
    package var range: LSPRange?
    package var text: String
  }

  package init(decoding value: JSONValue?) throws(ResponseError) {
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
package struct DidCloseParams: Sendable {
  package var uri: String

  package init(decoding value: JSONValue?) throws(ResponseError) {
    uri = try documentURI(Params(value))
  }
}

import JSONRPC
import UnicodeBidi

/// `textDocument/codeAction` params.
package struct CodeActionParams: Sendable {
  package var uri: String
  package var range: LSPRange
  /// `context.only`: the kinds asked for, nil when absent.
  package var only: [String]?

  package init(decoding value: JSONValue?) throws(ResponseError) {
    let params = Params(value)
    uri = try documentURI(params)
    range = try LSPRange(params["range"])
    if let actionContext = try params.optional("context"), let kinds = try actionContext.optional("only") {
      var names: [String] = []
      for kind in try kinds.array() { names.append(try kind.string()) }
      only = names
    }
  }

  /// Whether `context.only` lets an action of `kind` through (a kind
  /// matches itself and its sub-kinds: `refactor` lets
  /// `refactor.rewrite.bidi.runs` through).
  package func wants(_ kind: String) -> Bool {
    guard let only else { return true }
    return only.contains { kind == $0 || kind.hasPrefix($0 + ".") }
  }

  /// Whether some action of `family` or of its sub-kinds may be wanted.
  package func wantsFamily(_ family: String) -> Bool {
    guard let only else { return true }
    return only.contains { family == $0 || family.hasPrefix($0 + ".") || $0.hasPrefix(family + ".") }
  }
}

/// The `textDocument/codeAction` result: a bare array of `CodeAction`.
package enum CodeActionResult: ListResult {
  package typealias Entry = CodeAction
  package static var member: String? { nil }
}

/// One code action: a titled WorkspaceEdit.
package struct CodeAction: Sendable, Hashable, JSONEncodable {
  package var title: String
  package var kind: String
  /// The diagnostics a quick fix fixes.
  package var diagnostics: [Diagnostic]?
  package var isPreferred: Bool?
  package var edit: WorkspaceEdit

  package init(
    title: String, kind: String, diagnostics: [Diagnostic]? = nil, isPreferred: Bool? = nil, edit: WorkspaceEdit
  ) {
    self.title = title
    self.kind = kind
    self.diagnostics = diagnostics
    self.isPreferred = isPreferred
    self.edit = edit
  }

  package func encode(to writer: inout JSONWriter) {
    writer.beginObject()
    writer.member("title", title)
    writer.member("kind", kind)
    writer.member("diagnostics", ifPresent: diagnostics)
    writer.member("isPreferred", ifPresent: isPreferred)
    writer.member("edit", edit)
    writer.endObject()
  }
}

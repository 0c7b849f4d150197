import JSONRPC

/// `textDocument/codeAction` params.
public struct CodeActionParams: Sendable {
  public var uri: String
  public var range: LSPRange
  /// `context.only`: the kinds asked for, nil when absent.
  public var only: [String]?

  public init(decoding value: JSONValue?) throws(ResponseError) {
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
  public func wants(_ kind: String) -> Bool {
    guard let only else { return true }
    return only.contains { kind == $0 || kind.hasPrefix($0 + ".") }
  }

  /// Whether some action of `family` or of its sub-kinds may be wanted.
  public func wantsFamily(_ family: String) -> Bool {
    guard let only else { return true }
    return only.contains { family == $0 || family.hasPrefix($0 + ".") || $0.hasPrefix(family + ".") }
  }
}

/// The `textDocument/codeAction` result: a bare array of `CodeAction`.
public enum CodeActionResult: ListResult {
  public typealias Entry = CodeAction
  public static var member: String? { nil }
}

/// One code action: a titled WorkspaceEdit.
public struct CodeAction: Sendable, Hashable, JSONEncodable {
  public var title: String
  public var kind: String
  /// The diagnostics a quick fix fixes.
  public var diagnostics: [Diagnostic]?
  public var isPreferred: Bool?
  public var edit: WorkspaceEdit

  public init(
    title: String, kind: String, diagnostics: [Diagnostic]? = nil, isPreferred: Bool? = nil, edit: WorkspaceEdit
  ) {
    self.title = title
    self.kind = kind
    self.diagnostics = diagnostics
    self.isPreferred = isPreferred
    self.edit = edit
  }

  public func encode(to writer: inout JSONWriter) {
    writer.beginObject()
    writer.member("title", title)
    writer.member("kind", kind)
    writer.member("diagnostics", ifPresent: diagnostics)
    writer.member("isPreferred", ifPresent: isPreferred)
    writer.member("edit", edit)
    writer.endObject()
  }
}

import DocumentStore
import JSONRPC

/// Reads request parameters, turning every problem into a -32602 error whose
/// message names the offending field by its path (`params.range.start.line:
/// expected an integer, got string`).
struct Params {
  let value: JSONValue?
  let path: String

  init(_ value: JSONValue?, path: String = "params") {
    self.value = value
    self.path = path
  }

  func error(_ problem: String) -> ResponseError {
    .invalidParams("\(path): \(problem)")
  }

  /// Whether the field is present and not `null`.
  var isPresent: Bool { value.map { !$0.isNull } ?? false }

  /// The member `key`, present or not.
  subscript(key: String) -> Params {
    Params(value?[key], path: "\(path).\(key)")
  }

  /// The member `key`, or nil when it is absent or `null`.
  func optional(_ key: String) throws(ResponseError) -> Params? {
    try requireObject()
    let member = self[key]
    return member.isPresent ? member : nil
  }

  private func described(_ value: JSONValue?) -> String {
    value.map { $0.typeName } ?? "nothing"
  }

  func requireObject() throws(ResponseError) {
    guard case .object = value else {
      throw value == nil ? error("missing") : error("expected an object, got \(described(value))")
    }
  }

  func string() throws(ResponseError) -> String {
    guard let value else { throw error("missing") }
    guard let string = value.stringValue else { throw error("expected a string, got \(value.typeName)") }
    return string
  }

  func bool() throws(ResponseError) -> Bool {
    guard let value else { throw error("missing") }
    guard let bool = value.boolValue else { throw error("expected a boolean, got \(value.typeName)") }
    return bool
  }

  func int() throws(ResponseError) -> Int {
    guard let value else { throw error("missing") }
    guard case .integer(let number) = value, let int = Int(exactly: number) else {
      throw error("expected an integer, got \(value.typeName)")
    }
    return int
  }

  /// A non-negative integer (an LSP `uinteger`).
  func uint() throws(ResponseError) -> Int {
    let number = try int()
    guard number >= 0 else { throw error("must not be negative, got \(number)") }
    return number
  }

  func number() throws(ResponseError) -> Double {
    guard let value else { throw error("missing") }
    switch value {
    case .integer(let number): return Double(number)
    case .double(let number): return number
    default: throw error("expected a number, got \(value.typeName)")
    }
  }

  func array() throws(ResponseError) -> [Params] {
    guard let value else { throw error("missing") }
    guard let elements = value.arrayValue else { throw error("expected an array, got \(value.typeName)") }
    return elements.enumerated().map { Params($1, path: "\(path)[\($0)]") }
  }

  /// One of the raw values of `E`.
  func oneOf<E: RawRepresentable & CaseIterable>(_: E.Type) throws(ResponseError) -> E
  where E.RawValue == String {
    let name = try string()
    guard let value = E(rawValue: name) else {
      let names = E.allCases.map(\.rawValue).joined(separator: ", ")
      throw error("expected one of \(names), got \"\(name)\"")
    }
    return value
  }

  // MARK: LSP structures

  func position() throws(ResponseError) -> Position {
    try requireObject()
    return Position(line: try self["line"].uint(), character: try self["character"].uint())
  }

  func range() throws(ResponseError) -> TextRange {
    try requireObject()
    let range = TextRange(start: try self["start"].position(), end: try self["end"].position())
    guard range.start <= range.end else { throw error("start \(range.start) is after end \(range.end)") }
    return range
  }

  /// `textDocument.uri`.
  func documentURI() throws(ResponseError) -> String {
    let document = self["textDocument"]
    try document.requireObject()
    return try document["uri"].string()
  }
}

extension ResponseError {
  /// -32800: the client cancelled the request while it ran.
  static func cancelled(_ context: RequestContext) -> ResponseError {
    ResponseError(code: .requestCancelled, message: "request \(context.id) was cancelled")
  }
}

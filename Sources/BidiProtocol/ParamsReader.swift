import JSONRPC

/// Reads request parameters, turning every problem into a -32602 error whose
/// message names the offending field by its path (`params.range.start.line:
/// expected an integer, got string`). The typed params of each method are
/// decoded with it, and only with it.
package struct Params {
  package let value: JSONValue?
  package let path: String

  package init(_ value: JSONValue?, path: String = "params") {
    self.value = value
    self.path = path
  }

  package func error(_ problem: String) -> ResponseError {
    .invalidParams("\(path): \(problem)")
  }

  /// Whether the field is present and not `null`.
  package var isPresent: Bool { value.map { !$0.isNull } ?? false }

  /// The member `key`, present or not.
  package subscript(key: String) -> Params {
    Params(value?[key], path: "\(path).\(key)")
  }

  /// The member `key`, or nil when it is absent or `null`.
  package func optional(_ key: String) throws(ResponseError) -> Params? {
    try requireObject()
    let member = self[key]
    return member.isPresent ? member : nil
  }

  private func described(_ value: JSONValue?) -> String {
    value.map { $0.typeName } ?? "nothing"
  }

  package func requireObject() throws(ResponseError) {
    guard case .object = value else {
      throw value == nil ? error("missing") : error("expected an object, got \(described(value))")
    }
  }

  package func string() throws(ResponseError) -> String {
    guard let value else { throw error("missing") }
    guard let string = value.stringValue else { throw error("expected a string, got \(value.typeName)") }
    return string
  }

  /// A string as it was decoded, `.string` or (when long) `.longString`,
  /// for reading its UTF-8 without a copy (`JSONValue.withStringUTF8`).
  package func decodedString() throws(ResponseError) -> JSONValue {
    guard let value else { throw error("missing") }
    guard value.stringUTF8Count != nil else { throw error("expected a string, got \(value.typeName)") }
    return value
  }

  package func bool() throws(ResponseError) -> Bool {
    guard let value else { throw error("missing") }
    guard let bool = value.boolValue else { throw error("expected a boolean, got \(value.typeName)") }
    return bool
  }

  package func int() throws(ResponseError) -> Int {
    guard let value else { throw error("missing") }
    guard case .integer(let number) = value, let int = Int(exactly: number) else {
      throw error("expected an integer, got \(value.typeName)")
    }
    return int
  }

  /// A non-negative integer (an LSP `uinteger`).
  package func uint() throws(ResponseError) -> Int {
    let number = try int()
    guard number >= 0 else { throw error("must not be negative, got \(number)") }
    return number
  }

  package func number() throws(ResponseError) -> Double {
    guard let value else { throw error("missing") }
    switch value {
    case .integer(let number): return Double(number)
    case .double(let number): return number
    default: throw error("expected a number, got \(value.typeName)")
    }
  }

  package func array() throws(ResponseError) -> [Params] {
    guard let value else { throw error("missing") }
    guard let elements = value.arrayValue else { throw error("expected an array, got \(value.typeName)") }
    return elements.enumerated().map { Params($1, path: "\(path)[\($0)]") }
  }

  /// One of the raw values of `E`.
  package func oneOf<E: RawRepresentable & CaseIterable>(_: E.Type) throws(ResponseError) -> E
  where E.RawValue == String {
    let name = try string()
    guard let value = E(rawValue: name) else {
      let names = E.allCases.map(\.rawValue).joined(separator: ", ")
      throw error("expected one of \(names), got \"\(name)\"")
    }
    return value
  }
}

extension ResponseError {
  /// -32800: the client cancelled the request while it ran.
  package static func cancelled(_ context: RequestContext) -> ResponseError {
    ResponseError(code: .requestCancelled, message: "request \(context.id) was cancelled")
  }

  /// -32602 about the field at `path` (`params.lineBreaks[2]`).
  package static func invalidParams(at path: String, _ problem: String) -> ResponseError {
    .invalidParams("\(path): \(problem)")
  }

  /// -32602: `params.textDocument.uri` names a document that is not open.
  package static func notOpen(_ uri: String) -> ResponseError {
    .invalidParams(at: "params.textDocument.uri", "document \(uri) is not open")
  }
}

import JSONRPC

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Validates JSON values against JSON Schemas (draft 2020-12), for tests that
/// check the daemon's real messages against the published schemas in
/// `Protocol/schemas/`.
///
/// It implements the subset those schemas use and refuses to guess about the
/// rest: `type` (a name or an array of names; `integer` is a number without a
/// fractional part, `number` any number), `properties`, `required`,
/// `additionalProperties` (a boolean or a schema; it looks only at the
/// `properties` of the same schema object, as 2020-12 says, so properties
/// listed only inside an `allOf` do not count), `items` (one schema),
/// `enum`, `minimum`, `maximum`, `minItems`, `allOf` and `$ref` to
/// `#/$defs/…` within a file or to `other.schema.json#/$defs/…` across
/// files. Annotations (`$schema`, `$id`, `title`, `description`,
/// `$comment`, `$defs`) are ignored; any other keyword is reported as a
/// violation, so that a schema using something unsupported cannot pass
/// unnoticed.
///
///     let schemas = try JSONSchemaValidator.protocolSchemas()
///     let problems = schemas.validate(result, against: "bidi-visualOrder.schema.json#/$defs/result")
package struct JSONSchemaValidator: Sendable {
  /// One reason a value does not match.
  package struct Violation: Sendable, Hashable, CustomStringConvertible {
    /// Where in the value: `$` is the value itself, `$.lines[0].start` a member.
    package var path: String
    package var message: String

    package var description: String { "\(path): \(message)" }
  }

  /// Why schemas could not be loaded.
  package enum LoadError: Error, Sendable, CustomStringConvertible {
    case unreadable(path: String)
    case invalidJSON(path: String, String)
    case noSchemas(directory: String)

    package var description: String {
      switch self {
      case .unreadable(let path): return "cannot read \(path)"
      case .invalidJSON(let path, let reason): return "\(path) is not JSON: \(reason)"
      case .noSchemas(let directory): return "no *.json schema in \(directory)"
      }
    }
  }

  /// The schema documents, by file name (the name `$ref`s use).
  package let documents: [String: JSONValue]

  /// Validates against the given documents, keyed by file name.
  package init(documents: [String: JSONValue]) {
    self.documents = documents
  }

  /// Loads every `*.json` file of `directory`.
  package init(directory: String) throws(LoadError) {
    var documents: [String: JSONValue] = [:]
    for name in Self.fileNames(in: directory) where name.hasSuffix(".json") {
      let path = directory + "/" + name
      guard let bytes = Self.contents(of: path) else { throw .unreadable(path: path) }
      do {
        documents[name] = try JSONValue(decoding: bytes)
      } catch {
        throw .invalidJSON(path: path, error.description)
      }
    }
    guard !documents.isEmpty else { throw .noSchemas(directory: directory) }
    self.init(documents: documents)
  }

  /// The schemas of this package's `Protocol/schemas/`, found from the
  /// path of this source file.
  package static func protocolSchemas(filePath: String = #filePath) throws(LoadError) -> JSONSchemaValidator {
    // Sources/BidiTestSupport/JSONSchemaValidator.swift → the package root.
    var root = filePath
    for _ in 0..<3 { root = directory(of: root) }
    return try JSONSchemaValidator(directory: root + "/Protocol/schemas")
  }

  /// The violations of `value` against the schema that `reference` names:
  /// `file.json` (the whole document) or `file.json#/json/pointer`.
  /// Empty when the value matches.
  package func validate(_ value: JSONValue, against reference: String) -> [Violation] {
    var context = Context(validator: self)
    switch resolve(reference, from: "") {
    case .success(let (schema, file)):
      context.check(value, schema, file: file, path: "$")
    case .failure(let problem):
      context.fail("$", problem.message)
    }
    return context.violations
  }

  // MARK: References

  /// The schema a reference names, and the file it lies in.
  func resolve(_ reference: String, from file: String) -> Result<(JSONValue, String), SchemaProblem> {
    let hash = reference.firstIndex(of: "#") ?? reference.endIndex
    let name = hash == reference.startIndex ? file : String(reference[..<hash])
    guard let document = documents[name] else {
      return .failure(SchemaProblem("$ref \(reference): no schema file named \(name)"))
    }
    var schema = document
    if hash < reference.endIndex {
      let pointer = reference[reference.index(after: hash)...]
      for token in pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
        let key = token.replacingAll("~1", with: "/").replacingAll("~0", with: "~")
        if let member = schema[key] {
          schema = member
        } else if let index = Int(key), let element = schema[index] {
          schema = element
        } else {
          return .failure(SchemaProblem("$ref \(reference): nothing at \(key)"))
        }
      }
    }
    return .success((schema, name))
  }

  struct SchemaProblem: Error {
    var message: String
    init(_ message: String) { self.message = message }
  }

  // MARK: Files

  private static func directory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  private static func fileNames(in directory: String) -> [String] {
    guard let stream = opendir(directory) else { return [] }
    defer { closedir(stream) }
    var names: [String] = []
    while let entry = readdir(stream) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return names.sorted()
  }

  private static func contents(of path: String) -> [UInt8]? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 { return nil }
      if count == 0 { return bytes }
      bytes += buffer[0..<count]
    }
  }
}

// MARK: Checking

extension JSONSchemaValidator {
  /// The keywords that only annotate or hold definitions.
  static let annotations: Set<String> = ["$schema", "$id", "title", "description", "$comment", "$defs"]

  /// The keywords this validator checks.
  static let assertions: Set<String> = [
    "type", "properties", "required", "additionalProperties", "items", "enum",
    "minimum", "maximum", "minItems", "allOf", "$ref",
  ]

  struct Context {
    let validator: JSONSchemaValidator
    var violations: [Violation] = []
    /// `$ref`s being followed, to stop on a reference cycle.
    var depth = 0

    mutating func fail(_ path: String, _ message: String) {
      violations.append(Violation(path: path, message: message))
    }

    mutating func check(_ value: JSONValue, _ schema: JSONValue, file: String, path: String) {
      switch schema {
      case .bool(true):
        return
      case .bool(false):
        fail(path, "the schema allows nothing here")
        return
      case .object(let keywords):
        for (keyword, _) in keywords
        where !JSONSchemaValidator.annotations.contains(keyword) && !JSONSchemaValidator.assertions.contains(keyword) {
          fail(path, "unsupported schema keyword \(keyword)")
        }
        checkReference(value, keywords, file: file, path: path)
        checkType(value, keywords, path: path)
        checkEnum(value, keywords, path: path)
        checkNumber(value, keywords, path: path)
        checkObject(value, keywords, file: file, path: path)
        checkArray(value, keywords, file: file, path: path)
        if let all = keywords["allOf"] {
          for part in all.arrayValue ?? [] { check(value, part, file: file, path: path) }
        }
      default:
        fail(path, "a schema must be an object or a boolean, got \(schema.typeName)")
      }
    }

    private mutating func checkReference(_ value: JSONValue, _ keywords: JSONObject, file: String, path: String) {
      guard let reference = keywords["$ref"] else { return }
      guard let text = reference.stringValue else { return fail(path, "$ref must be a string") }
      guard depth < 64 else { return fail(path, "$ref \(text): too deeply nested (a cycle?)") }
      switch validator.resolve(text, from: file) {
      case .success(let (target, targetFile)):
        depth += 1
        check(value, target, file: targetFile, path: path)
        depth -= 1
      case .failure(let problem):
        fail(path, problem.message)
      }
    }

    private mutating func checkType(_ value: JSONValue, _ keywords: JSONObject, path: String) {
      guard let type = keywords["type"] else { return }
      let names = type.arrayValue?.compactMap(\.stringValue) ?? type.stringValue.map { [$0] } ?? []
      guard !names.contains(where: { Self.matches(value, type: $0) }) else { return }
      fail(path, "expected \(names.joined(separator: " or ")), got \(Self.typeName(value)) \(value)")
    }

    static func matches(_ value: JSONValue, type: String) -> Bool {
      switch (type, value) {
      case ("null", .null), ("boolean", .bool), ("string", .string), ("string", .longString), ("array", .array),
        ("object", .object),
        ("number", .integer), ("number", .double), ("integer", .integer):
        return true
      case ("integer", .double(let number)):
        return number.isFinite && number.rounded() == number
      default:
        return false
      }
    }

    /// The JSON Schema type name of a value (a double without a fraction is
    /// an integer, as 2020-12 says).
    static func typeName(_ value: JSONValue) -> String {
      if matches(value, type: "integer") { return "integer" }
      return value.typeName
    }

    private mutating func checkEnum(_ value: JSONValue, _ keywords: JSONObject, path: String) {
      guard let allowed = keywords["enum"]?.arrayValue else { return }
      guard !allowed.contains(where: { Self.equal($0, value) }) else { return }
      fail(path, "\(value) is not one of \(JSONValue.array(allowed))")
    }

    /// JSON equality, with numbers compared by value (1 equals 1.0).
    static func equal(_ a: JSONValue, _ b: JSONValue) -> Bool {
      switch (a, b) {
      case (.integer, .double), (.double, .integer):
        return a.doubleValue == b.doubleValue
      case (.array(let x), .array(let y)):
        return x.count == y.count && zip(x, y).allSatisfy { equal($0, $1) }
      case (.object(let x), .object(let y)):
        return x.count == y.count && x.allSatisfy { member in y[member.key].map { equal(member.value, $0) } ?? false }
      default:
        return a == b
      }
    }

    /// `minimum` and `maximum`, which apply to numbers only.
    private mutating func checkNumber(_ value: JSONValue, _ keywords: JSONObject, path: String) {
      guard let number = value.doubleValue else { return }
      if let minimum = keywords["minimum"]?.doubleValue, number < minimum {
        fail(path, "\(value) is below the minimum \(keywords["minimum"]!)")
      }
      if let maximum = keywords["maximum"]?.doubleValue, number > maximum {
        fail(path, "\(value) is above the maximum \(keywords["maximum"]!)")
      }
    }

    private mutating func checkObject(_ value: JSONValue, _ keywords: JSONObject, file: String, path: String) {
      guard case .object(let members) = value else { return }
      let properties = keywords["properties"]?.objectValue ?? JSONObject()
      for name in keywords["required"]?.arrayValue ?? [] {
        if let name = name.stringValue, members[name] == nil { fail(path, "missing required member \(name)") }
      }
      for (name, member) in members {
        let memberPath = path + "." + name
        if let schema = properties[name] {
          check(member, schema, file: file, path: memberPath)
        } else if let additional = keywords["additionalProperties"] {
          if additional == .bool(false) {
            fail(memberPath, "member \(name) is not allowed (additionalProperties: false)")
          } else {
            check(member, additional, file: file, path: memberPath)
          }
        }
      }
    }

    private mutating func checkArray(_ value: JSONValue, _ keywords: JSONObject, file: String, path: String) {
      guard case .array(let elements) = value else { return }
      if let minimum = keywords["minItems"]?.intValue, elements.count < minimum {
        fail(path, "\(elements.count) items, fewer than minItems \(minimum)")
      }
      if let items = keywords["items"] {
        for (index, element) in elements.enumerated() {
          check(element, items, file: file, path: "\(path)[\(index)]")
        }
      }
    }
  }
}

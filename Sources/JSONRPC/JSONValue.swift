/// A JSON value, as decoded from and encoded to messages.
///
/// Numbers keep their JSON form: a number written without a fraction or
/// exponent is an `integer` (64-bit; larger ones are decode errors), any
/// other number is a `double`. Object members keep their insertion order.
///
/// A string is a `string`, or, when decoded and at least
/// `LongString.minimumCount` bytes long, a `longString` (jansson's bytes,
/// not copied into a `String`): the two are equal, hash and encode alike
/// when they hold the same text. Read strings with `stringValue` or
/// `withStringUTF8(_:)`, which accept both. Strings are equal when their
/// code points are, as in JSON (`"é"` and `"e\u{301}"` differ).
package enum JSONValue: Sendable {
  case null
  case bool(Bool)
  case integer(Int64)
  case double(Double)
  case string(String)
  case longString(LongString)
  case array([JSONValue])
  case object(JSONObject)
}

extension JSONValue: Hashable {
  package static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): return true
    case (.bool(let a), .bool(let b)): return a == b
    case (.integer(let a), .integer(let b)): return a == b
    case (.double(let a), .double(let b)): return a == b
    case (.string, .string), (.string, .longString), (.longString, .string), (.longString, .longString):
      // Code point by code point, as JSON compares strings (not Swift's
      // canonical equivalence), which is also what the hash combines.
      guard lhs.stringUTF8Count == rhs.stringUTF8Count else { return false }
      return lhs.withStringUTF8 { a in rhs.withStringUTF8 { b in a.elementsEqual(b) } ?? false } ?? false
    case (.array(let a), .array(let b)): return a == b
    case (.object(let a), .object(let b)): return a == b
    default: return false
    }
  }

  package func hash(into hasher: inout Hasher) {
    switch self {
    case .null: hasher.combine(0)
    case .bool(let value): hasher.combine(value)
    case .integer(let value): hasher.combine(value)
    case .double(let value): hasher.combine(value)
    case .string, .longString:
      // By the bytes, so that both forms of one text hash alike.
      _ = withStringUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    case .array(let value): hasher.combine(value)
    case .object(let value): hasher.combine(value)
    }
  }
}

// MARK: Accessors

extension JSONValue {
  /// The member `key` of an object; nil if this is not an object or has no such member.
  package subscript(key: String) -> JSONValue? {
    guard case .object(let object) = self else { return nil }
    return object[key]
  }

  /// The element at `index` of an array; nil if this is not an array or the
  /// index is out of range.
  package subscript(index: Int) -> JSONValue? {
    guard case .array(let array) = self, array.indices.contains(index) else { return nil }
    return array[index]
  }

  package var isNull: Bool {
    if case .null = self { return true }
    return false
  }

  package var boolValue: Bool? {
    if case .bool(let value) = self { return value }
    return nil
  }

  /// The value of an `integer`; nil for anything else (including `double`).
  package var int64Value: Int64? {
    if case .integer(let value) = self { return value }
    return nil
  }

  /// The value of an `integer` that fits in `Int`.
  package var intValue: Int? {
    guard case .integer(let value) = self else { return nil }
    return Int(exactly: value)
  }

  /// The value of a `double`, or of an `integer` converted to `Double`.
  package var doubleValue: Double? {
    switch self {
    case .double(let value): return value
    case .integer(let value): return Double(value)
    default: return nil
    }
  }

  /// The text of a `string`, or of a `longString` (then a copy).
  package var stringValue: String? {
    switch self {
    case .string(let value): return value
    case .longString(let value): return value.string
    default: return nil
    }
  }

  /// Calls `body` with the UTF-8 of a `string` or `longString` (no copy of
  /// either); nil for any other value.
  package func withStringUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R? {
    switch self {
    case .string(var value): return try value.withUTF8(body)
    case .longString(let value): return try value.withUTF8(body)
    default: return nil
    }
  }

  /// The number of UTF-8 bytes of a `string` or `longString`.
  package var stringUTF8Count: Int? {
    switch self {
    case .string(let value): return value.utf8.count
    case .longString(let value): return value.count
    default: return nil
    }
  }

  package var arrayValue: [JSONValue]? {
    if case .array(let value) = self { return value }
    return nil
  }

  package var objectValue: JSONObject? {
    if case .object(let value) = self { return value }
    return nil
  }

  /// The JSON type's name, for error messages ("expected a string, got an array").
  package var typeName: String {
    switch self {
    case .null: return "null"
    case .bool: return "boolean"
    case .integer: return "integer"
    case .double: return "number"
    case .string, .longString: return "string"
    case .array: return "array"
    case .object: return "object"
    }
  }
}

// MARK: Literals

extension JSONValue: ExpressibleByNilLiteral {
  package init(nilLiteral: ()) { self = .null }
}

extension JSONValue: ExpressibleByBooleanLiteral {
  package init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSONValue: ExpressibleByIntegerLiteral {
  package init(integerLiteral value: Int64) { self = .integer(value) }
}

extension JSONValue: ExpressibleByFloatLiteral {
  package init(floatLiteral value: Double) { self = .double(value) }
}

extension JSONValue: ExpressibleByStringLiteral {
  package init(stringLiteral value: String) { self = .string(value) }
}

extension JSONValue: ExpressibleByArrayLiteral {
  package init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
  /// Members in the literal's order (a later duplicate key replaces the value).
  package init(dictionaryLiteral elements: (String, JSONValue)...) {
    self = .object(JSONObject(elements))
  }
}

// MARK: Conversions

extension JSONValue {
  /// An `integer` from any `BinaryInteger` that fits in 64 bits; `null` otherwise.
  package init(_ value: some BinaryInteger) {
    if let exact = Int64(exactly: value) { self = .integer(exact) } else { self = .null }
  }

  package init(_ value: String) { self = .string(value) }
  package init(_ value: Bool) { self = .bool(value) }
  package init(_ value: Double) { self = .double(value) }
  package init(_ value: [JSONValue]) { self = .array(value) }
  package init(_ value: JSONObject) { self = .object(value) }
}

extension JSONValue: CustomStringConvertible {
  /// The compact JSON text of the value.
  package var description: String {
    String(decoding: encoded(), as: UTF8.self)
  }
}

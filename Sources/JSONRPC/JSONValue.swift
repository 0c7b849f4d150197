/// A JSON value, as decoded from and encoded to messages.
///
/// Numbers keep their JSON form: a number written without a fraction or
/// exponent is an `integer` (64-bit; larger ones are decode errors), any
/// other number is a `double`. Object members keep their insertion order.
package enum JSONValue: Sendable, Hashable {
  case null
  case bool(Bool)
  case integer(Int64)
  case double(Double)
  case string(String)
  case array([JSONValue])
  case object(JSONObject)
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

  package var stringValue: String? {
    if case .string(let value) = self { return value }
    return nil
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
    case .string: return "string"
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
